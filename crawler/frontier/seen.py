"""The URL-seen test in memory: a compact exact set of 64-bit URL fingerprints.

A Python set of ints costs about 70 bytes per member; this one keeps the bulk in a sorted
numpy ``int64`` array (8 bytes per member) and only the recent additions in a small Python
set, merged into the array when that set grows past 1/64 of it. In front of both sits a
bitmap indexed by the top bits of the fingerprint, with a bit set for every member: a
clear bit proves a fingerprint absent without the binary search, which is what most new
URLs get (the bitmap has at least 16 bits per member, so under 1/16 of its bits are set).
A set bit only says "maybe": the exact answer then comes from the recent set and the
array, so the set stays exact (memory at 10 million URLs: docs/performance.md). The database holds
the same fingerprints, so the set is rebuilt from it on resume.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import xxhash

_EMPTY = np.empty(0, dtype=np.int64)
_SIGN = 1 << 63
_SPAN = 1 << 64

# Bitmap size bounds (bits, powers of two): 128 KB at least, 32 MB at most.
_MIN_BITS_LOG2 = 20
_MAX_BITS_LOG2 = 28
_BITS_PER_MEMBER_LOG2 = 4  # the bitmap grows to keep at least 16 bits per member
_CHUNK = 1 << 20  # members whose bits are set at a time


def url_fingerprint(canonical_url: str, method: str = "GET", body: bytes = b"") -> int:
    """Signed 64-bit fingerprint (PostgreSQL bigint) of a canonical URL.

    GET requests are identified by their URL alone; other methods also by method and body.
    """
    if method == "GET" and not body:
        value = xxhash.xxh64_intdigest(canonical_url.encode("utf-8", "surrogatepass"))
    else:
        hasher = xxhash.xxh64(method.encode("ascii", "replace") + b" ")
        hasher.update(canonical_url.encode("utf-8", "surrogatepass"))
        hasher.update(b"\n")
        hasher.update(body)
        value = hasher.intdigest()
    return value - _SPAN if value >= _SIGN else value


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """The distinct values of an int64 array, sorted (the input is sorted in place)."""
    values.sort()
    if len(values) < 2:
        return values
    keep = np.empty(len(values), dtype=bool)
    keep[0] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return values if keep.all() else values[keep]


def _bits_log2(members: int) -> int:
    wanted = max(1, members).bit_length() + _BITS_PER_MEMBER_LOG2
    return max(_MIN_BITS_LOG2, min(_MAX_BITS_LOG2, wanted))


class FingerprintSet:
    """Exact set of int64 fingerprints: bitmap prefilter, sorted numpy array, recent set."""

    def __init__(
        self, initial: Iterable[int] | np.ndarray | None = None, merge_min: int = 65536
    ) -> None:
        self._merge_min = merge_min
        self._recent: set[int] = set()
        if initial is None:
            self._sorted = _EMPTY
        else:
            array = np.array(
                initial if isinstance(initial, np.ndarray) else list(initial), dtype=np.int64
            )  # a copy: sorted in place
            self._sorted = sorted_unique(array)
        self._merge_at = max(self._merge_min, len(self._sorted) >> 6)
        self._build_bitmap(_bits_log2(len(self._sorted)))

    def _build_bitmap(self, bits_log2: int) -> None:
        """A bitmap of ``2**bits_log2`` bits with the bits of every member set."""
        # the top bits of a fingerprint, as an unsigned number: (fp >> shift) + offset
        self._shift = 64 - bits_log2
        self._offset = 1 << (bits_log2 - 1)
        self._bits_log2 = bits_log2
        self._bitmap = bytearray(1 << (bits_log2 - 3))
        self._set_bits(self._sorted)
        for fp in self._recent:
            self._set_bit(fp)

    def _set_bits(self, members: np.ndarray) -> None:
        """Set the bits of a sorted array of members (vectorised, in chunks: the
        temporary arrays take a few bytes per member)."""
        view = np.frombuffer(self._bitmap, dtype=np.uint8)
        for begin in range(0, len(members), _CHUNK):
            index = (members[begin : begin + _CHUNK] >> self._shift) + self._offset  # sorted
            byte = index >> 3
            bit = np.left_shift(1, (index & 7).astype(np.uint8), dtype=np.uint8)
            del index
            starts = np.flatnonzero(np.concatenate(([True], byte[1:] != byte[:-1])))
            # one |= per distinct byte: fancy-index assignment does not accumulate repeats
            view[byte[starts]] |= np.bitwise_or.reduceat(bit, starts)

    def _set_bit(self, fp: int) -> None:
        index = (fp >> self._shift) + self._offset
        self._bitmap[index >> 3] |= 1 << (index & 7)

    def __len__(self) -> int:
        return len(self._sorted) + len(self._recent)

    def __contains__(self, fp: int) -> bool:
        index = (fp >> self._shift) + self._offset
        if not self._bitmap[index >> 3] & (1 << (index & 7)):
            return False  # the common case for a new URL
        if fp in self._recent:
            return True
        array = self._sorted
        index = int(array.searchsorted(fp))
        return index < len(array) and int(array[index]) == fp

    def _in_members(self, fp: int) -> bool:
        if fp in self._recent:
            return True
        array = self._sorted
        index = int(array.searchsorted(fp))
        return index < len(array) and int(array[index]) == fp

    def add(self, fp: int) -> bool:
        """Add ``fp``; True if it was not there before."""
        index = (fp >> self._shift) + self._offset
        bitmap, byte, bit = self._bitmap, index >> 3, 1 << (index & 7)
        if bitmap[byte] & bit:
            if self._in_members(fp):
                return False
        else:
            bitmap[byte] |= bit
        self._recent.add(fp)
        if len(self._recent) >= self._merge_at:
            self._merge()
        return True

    def add_new(self, fp: int) -> None:
        """Add a fingerprint known not to be in the set yet."""
        index = (fp >> self._shift) + self._offset
        self._bitmap[index >> 3] |= 1 << (index & 7)
        self._recent.add(fp)
        if len(self._recent) >= self._merge_at:
            self._merge()

    def _merge(self) -> None:
        recent = np.fromiter(self._recent, dtype=np.int64, count=len(self._recent))
        recent.sort()
        merged = np.concatenate((self._sorted, recent))
        self._sorted = _EMPTY  # let the old array go before sorting the new one
        merged.sort(kind="stable")  # two sorted runs: timsort merges them in linear time
        self._sorted = merged
        self._recent = set()
        self._merge_at = max(self._merge_min, len(merged) >> 6)
        bits_log2 = _bits_log2(len(merged))
        if bits_log2 > self._bits_log2:
            self._build_bitmap(bits_log2)

    @property
    def nbytes(self) -> int:
        """Approximate memory held, in bytes."""
        return int(self._sorted.nbytes) + len(self._recent) * 72 + len(self._bitmap)
