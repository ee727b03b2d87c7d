"""64-bit hashes of every K-gram of a normalised text (no Scrapy).

``"karp_rabin"`` (default): a polynomial (Karp-Rabin) hash of the K-gram's code points
modulo 2**64, finished by the MurmurHash3 64-bit finaliser, for all K-grams at once with
numpy prefix sums (the prefix sums are shared with the word hashes,
``crawler.dedup.words``). ``"md5"`` (the paper's: first 8 bytes of the MD5 of the UTF-8
K-gram) and ``"xxh64"`` make one call per K-gram. See crawler/dedup/winnowing.py for
speed and the choice of K.
"""

from __future__ import annotations

import hashlib

import numpy as np
import xxhash

from crawler import defaults
from crawler.dedup.normalize import _code_points_to_text, _utf32_code_points

__all__ = ["HASH_NAMES", "kgram_hashes"]

HASH_NAMES = ("karp_rabin", "md5", "xxh64")

_FMIX_M1 = np.uint64(0xFF51AFD7ED558CCD)
_FMIX_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)
_CHAR_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_CHAR_OFFSET = np.uint64(0x632BE59BD9B4E019)
_BASE = 0xD6E8FEB86659FD93  # odd, so invertible modulo 2**64
_BASE_INVERSE = pow(_BASE, -1, 1 << 64)


def _fmix64_in_place(values: np.ndarray) -> np.ndarray:
    """MurmurHash3 64-bit finaliser, element-wise (a bijection with full avalanche)."""
    shifted = np.empty_like(values)
    np.right_shift(values, _S33, out=shifted)
    np.bitwise_xor(values, shifted, out=values)
    np.multiply(values, _FMIX_M1, out=values)
    np.right_shift(values, _S33, out=shifted)
    np.bitwise_xor(values, shifted, out=values)
    np.multiply(values, _FMIX_M2, out=values)
    np.right_shift(values, _S33, out=shifted)
    np.bitwise_xor(values, shifted, out=values)
    return values


def _power_table(base: int, size: int) -> np.ndarray:
    """base**i modulo 2**64 for i < size."""
    table = np.full(size, base, dtype=np.uint64)
    table[0] = 1
    return np.cumprod(table, out=table)


class _KarpRabinTables:
    """Per position j: BASE**j, and M * BASE**-j and C * BASE**-j (see below), modulo
    2**64, for j < size; grown by doubling, swapped in as one tuple."""

    def __init__(self) -> None:
        self.tables: tuple[np.ndarray, np.ndarray, np.ndarray] = self._build(1024)

    @staticmethod
    def _build(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        inverse = _power_table(_BASE_INVERSE, size)
        return _power_table(_BASE, size), inverse * _CHAR_MULTIPLIER, inverse * _CHAR_OFFSET

    def get(self, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        tables = self.tables
        if tables[0].size < size:
            tables = self._build(max(size, 2 * tables[0].size))
            self.tables = tables
        return tables


_KARP_RABIN_TABLES = _KarpRabinTables()


def _karp_rabin_prefix(code_points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(prefix sums S_t of x_j * BASE**-j for t <= m, BASE**j for j <= m), modulo 2**64,
    with x_j = c_j * M + C: the span [s, e) hashes to (S_e - S_s) * BASE**(e - 1)."""
    m = code_points.size
    powers, char_scales, char_offsets = _KARP_RABIN_TABLES.get(m + 1)
    weighted = np.multiply(code_points, char_scales[:m], dtype=np.uint64)
    np.add(weighted, char_offsets[:m], out=weighted)
    prefix = np.empty(m + 1, dtype=np.uint64)
    prefix[0] = 0
    np.cumsum(weighted, out=prefix[1:])
    return prefix, powers


def _karp_rabin_hashes(
    code_points: np.ndarray, k: int, prefix: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """Hashes of all K-grams (or of the whole text if shorter) of a code point array.

    hash = fmix64(sum_j x_j * BASE**(K-1-j) mod 2**64) with x_j = c_j * M + C mod 2**64:
    with prefix sums S_t of x_j * BASE**-j, the K-gram at i is (S_{i+K} - S_i) *
    BASE**(i+K-1), so all K-grams cost a few vector operations.  ``prefix``: the
    :func:`_karp_rabin_prefix` of ``code_points`` if already computed.
    """
    m = code_points.size
    span = min(k, m)
    sums, powers = prefix if prefix is not None else _karp_rabin_prefix(code_points)
    window_sums = np.subtract(sums[span:], sums[: m - span + 1])
    np.multiply(window_sums, powers[span - 1 : m], out=window_sums)
    return _fmix64_in_place(window_sums)


def _utf8_offsets(code_points: np.ndarray) -> list[int]:
    """Byte offset of every character (and of the end) in the UTF-8 encoding."""
    if code_points.dtype == np.uint8:
        return list(range(code_points.size + 1))
    lengths = 1 + (code_points >= 0x80) + (code_points >= 0x800) + (code_points >= 0x10000)
    return [0, *np.cumsum(lengths).tolist()]


def _per_gram_hashes(code_points: np.ndarray, k: int, hash_name: str) -> list[int]:
    """One hashlib/xxhash call per K-gram of the UTF-8 encoded text."""
    data = memoryview(_code_points_to_text(code_points).encode("utf-8"))
    offsets = _utf8_offsets(code_points)
    m = code_points.size
    span = min(k, m)
    grams = list(zip(offsets[: m - span + 1], offsets[span:], strict=True))
    if hash_name == "md5":
        md5 = hashlib.md5
        from_bytes = int.from_bytes
        return [from_bytes(md5(data[a:b]).digest()[:8], "big") for a, b in grams]
    xxh64 = xxhash.xxh64_intdigest
    return [xxh64(data[a:b]) for a, b in grams]


def _kgram_hashes(code_points: np.ndarray, k: int, hash_name: str) -> np.ndarray:
    if code_points.size == 0:
        return np.zeros(0, dtype=np.uint64)
    if hash_name == "karp_rabin":
        return _karp_rabin_hashes(code_points, k)
    return np.array(_per_gram_hashes(code_points, k, hash_name), dtype=np.uint64)


def kgram_hashes(normalized: str, k: int, hash_name: str = defaults.DEDUP_HASH) -> np.ndarray:
    """64-bit hashes of all K-grams of an already normalised text, as a uint64 array.

    A text shorter than K gives one hash (of the whole text); an empty text none.
    """
    if hash_name not in HASH_NAMES:
        raise ValueError(f"hash_name must be one of {HASH_NAMES}, got {hash_name!r}")
    if normalized.isascii():
        code_points = np.frombuffer(normalized.encode("ascii"), dtype=np.uint8)
    else:
        code_points = _utf32_code_points(normalized)
    return _kgram_hashes(code_points, k, hash_name)
