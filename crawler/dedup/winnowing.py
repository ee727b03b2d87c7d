"""Winnowing fingerprints for the content-seen test (paper section 5.2).

The pipeline, as in the paper and in Schleimer, Wilkerson and Aiken (SIGMOD 2003):

1. ``normalize_text``: NFKC, case folding, and removal of everything that is not a
   letter, digit or combining mark of any script (white space, punctuation, symbols).
2. Every K-length substring of the normalised text (``m - K + 1`` of them) is hashed
   to 64 bits.
3. ``winnow``: a window of W consecutive hashes slides over the hash list; each window
   selects its minimum, the rightmost one on ties, and a selected (position, hash) is
   recorded only once, not again for the following windows while it stays their
   minimum.  The recorded hashes are the minutiae (the fingerprint).

Guarantees: any common substring of at least ``W + K - 1`` normalised characters yields a
shared minutia, and about ``2 / (W + 1)`` of the hashes are selected on random text.

Edge cases (our definitions, the paper is silent):

* empty normalised text: no minutiae;
* normalised text shorter than K: one hash, of the whole normalised text;
* fewer than W hashes: the single window is all of them (one minutia, the rightmost
  minimum).

K-gram hash functions (``hash_name``):

* ``"karp_rabin"`` (default): a polynomial (Karp-Rabin) hash of the K-gram's code points
  modulo 2**64, finished by the MurmurHash3 64-bit finaliser, computed for all K-grams
  at once with numpy prefix sums.  Rolling hashes are what Schleimer et al. use.
* ``"md5"``: the paper's choice, MD5 of the UTF-8 K-gram, first 8 digest bytes
  (big-endian).  One hashlib call per character position.
* ``"xxh64"``: xxHash64 of the UTF-8 K-gram, one call per character position.

The three give different minutiae: never mix fingerprints made with different
``(k, w, hash_name)`` in one index.

Speed, 30,000 characters of documentation text (python:faq/programming.html), K=8,
W=30, this machine (2 shared cores), best CPU ms per page (``bench/dedup_eval.py``
section 3 prints the current numbers; ``NearDuplicateIndex.query`` adds ~0.3 ms)::

    karp_rabin   1.15   (normalise ~0.35, hash ~0.25, winnow ~0.35)
    xxh64       14.9
    md5         34.0

MD5 (and even xxHash, with one Python-level call per K-gram) cannot meet the 2 ms
budget for fingerprint + query, so the vectorised Karp-Rabin hash is the default; MD5
stays selectable.

Choice of K=8 and W=30 (``bench/dedup_eval.py``: 2,391 distinct Python, PostgreSQL and
Django documentation pages, 300 base pages x 8 controlled edits, threshold 0.8):

* K sets the edit tolerance.  A changed word breaks every K-gram overlapping it, so the
  median minutiae Jaccard of a page with 1 % of its words replaced (scattered) is
  0.935 / 0.924 / 0.912 / 0.898 for K = 5 / 8 / 12 / 16, and with the long paragraphs
  shuffled 0.928 / 0.905 / 0.878 / 0.852.  At 0.8, K=12 loses 1.7 % of the reordered
  pages and K=16 5 %; K=8 loses none.
* Small K makes distinct pages look alike: common short strings plus the site template.
  The highest Jaccard between distinct pages (not duplicated in the source) is 0.957 for
  K=5 (10 same-site pages flagged at 0.8), 0.782 for K=8, 0.769 for K=12: K=8 is the
  smallest K that flags no distinct page at 0.8.
* W: about 2/(W+1) of the K-grams are kept (W=30: 6.5 %, 375 minutiae for the mean
  page, 1,186 for the 30 KB text above) and any common run of W+K-1 = 37 characters
  (~6 words) shares a minutia.  W=15 doubles fingerprint size and cost, and its less
  noisy Jaccard lets 2 distinct pages reach 0.811; W=50 and W=100 lose reordered pages
  (98.7 % and 70 % recall) because boundary effects weigh more with fewer minutiae.
* Limit: 5 % of the words replaced at random (one word in 20) breaks ~30 % of the
  K-grams; the median Jaccard is 0.70 (K=8), below that of distinct pages sharing
  most of their text (0.78), so none of the swept (K, W, threshold) finds them
  without flagging distinct pages.  The content-seen test therefore adds a second
  stage for candidates just below the threshold: an alignment of the pages' word
  sequences (:func:`word_hashes`, ``crawler.dedup.alignment``).
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import xxhash

__all__ = [
    "DEFAULT_K",
    "DEFAULT_W",
    "HASH_NAMES",
    "WinnowingFingerprint",
    "exact_digest",
    "normalize_text",
    "kgram_hashes",
    "winnow",
    "word_hashes",
]

DEFAULT_K = 8
DEFAULT_W = 30
HASH_NAMES = ("karp_rabin", "md5", "xxh64")


# ----------------------------------------------------------------------------- normalising

# ASCII bytes that are neither letters nor digits: deleted by bytes.translate.
_ASCII_DROP = bytes(b for b in range(128) if not chr(b).isalnum())


def _is_kept_char(ch: str) -> bool:
    """Letters, digits and combining marks (vowel signs of Indic scripts...) are kept."""
    return ch.isalnum() or unicodedata.category(ch).startswith("M")


_DROPPED = np.uint32(0)
_FOLDS_TO_MANY = np.uint32(0xFFFFFFFF)
# Hangul vowel and trailing consonant jamo compose with the preceding jamo or syllable.
_HANGUL_FOLLOWERS = (range(0x1161, 0x1176), range(0x11A8, 0x11C3))


@dataclass(frozen=True)
class _BmpTables:
    """Per code point of the Basic Multilingual Plane, built on first use (~0.2 s).

    ``fold``: the case fold if the character is kept, 0 if dropped, 0xFFFFFFFF if its
    case fold has several code points (the slow path handles those).  Case folding never
    changes whether a BMP character is kept.

    ``needs_nfkc``: False for characters that NFKC leaves alone whatever surrounds them
    (NFKC maps them to themselves, combining class 0, never the second part of a
    canonical composition) and for dropped characters that NFKC turns into dropped
    starters (no-break space, ellipsis...); True for everything else.
    """

    fold: np.ndarray
    needs_nfkc: np.ndarray


def _composition_followers() -> set[int]:
    """BMP code points that may compose with the character before them.  (Astral
    compositions have astral first parts, and texts with astral characters take the
    plain NFKC path.)"""
    followers = {code_point for block in _HANGUL_FOLLOWERS for code_point in block}
    for code_point in range(0x10000):
        decomposition = unicodedata.decomposition(chr(code_point))
        if decomposition and not decomposition.startswith("<"):
            parts = decomposition.split()
            if len(parts) == 2:
                followers.add(int(parts[1], 16))
    return followers


def _leaves_nfkc_alone(char: str, followers: set[int]) -> bool:
    if ord(char) in followers or unicodedata.combining(char):
        return False
    if unicodedata.normalize("NFKC", char) == char:
        return True
    pieces = unicodedata.normalize("NFKD", char)
    return not any(_is_kept_char(piece) or unicodedata.combining(piece) for piece in pieces)


@lru_cache(maxsize=1)
def _bmp_tables() -> _BmpTables:
    followers = _composition_followers()
    fold = np.zeros(0x10000, dtype=np.uint32)
    needs_nfkc = np.zeros(0x10000, dtype=bool)
    for code_point in range(0x10000):
        char = chr(code_point)
        folded = char.casefold()
        if len(folded) != 1:
            fold[code_point] = _FOLDS_TO_MANY
        elif _is_kept_char(char):
            fold[code_point] = ord(folded)
        needs_nfkc[code_point] = not _leaves_nfkc_alone(char, followers)
    return _BmpTables(fold, needs_nfkc)


def _utf32_code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _nfkc_code_points(text: str, tables: _BmpTables) -> tuple[str, np.ndarray]:
    """``unicodedata.normalize("NFKC", text)`` and its code points, faster when few
    characters need it: only the runs of characters that need NFKC, each with the
    character before it (a base a combining mark may compose with), are normalised.
    Every other character is a starter that composes with nothing, so cutting the text
    in front of it changes nothing."""
    code_points = _utf32_code_points(text)
    if code_points.max() >= 0x10000:
        composed = unicodedata.normalize("NFKC", text)
        return composed, _utf32_code_points(composed)
    needs = np.take(tables.needs_nfkc, code_points)
    if not needs.any():
        return text, code_points
    edges = np.flatnonzero(np.diff(needs.view(np.int8), prepend=0, append=0)).tolist()
    parts: list[str] = []
    done = 0
    for start, end in zip(edges[0::2], edges[1::2], strict=True):
        start = max(start - 1, done)
        parts.append(text[done:start])
        parts.append(unicodedata.normalize("NFKC", text[start:end]))
        done = end
    parts.append(text[done:])
    composed = "".join(parts)
    return composed, _utf32_code_points(composed)


def _normalized_code_points(text: str) -> np.ndarray:
    """Code points (uint8 or uint32 array) of ``normalize_text(text)``."""
    if text.isascii():
        pure = text.encode("ascii").translate(None, _ASCII_DROP).lower()
        return np.frombuffer(pure, dtype=np.uint8)
    tables = _bmp_tables()
    composed, code_points = _nfkc_code_points(text, tables)
    if code_points.max() < 0x10000:
        mapped = np.take(tables.fold, code_points)
        if not (mapped == _FOLDS_TO_MANY).any():
            return mapped[mapped != _DROPPED]
    code_points, keep = _slow_fold(composed, tables)
    return code_points[keep]


def _slow_fold(composed: str, tables: _BmpTables) -> tuple[np.ndarray, np.ndarray]:
    """Slow path: astral characters or multi-code-point case folds. The case-folded code
    points and which of them are kept."""
    code_points = _utf32_code_points(composed.casefold())
    keep = np.zeros(code_points.shape, dtype=bool)
    in_bmp = code_points < 0x10000
    keep[in_bmp] = np.take(tables.fold, code_points[in_bmp]) != _DROPPED
    for index in np.flatnonzero(~in_bmp):
        keep[index] = _is_kept_char(chr(code_points[index]))
    return code_points, keep


_ASCII_FOLD = np.array([b if chr(b).isalnum() else 0 for b in range(128)], dtype=np.uint8)


def folded_code_points(text: str) -> np.ndarray:
    """Code points of the NFKC-normalised, case-folded ``text`` (uint8 or uint32), every
    dropped character (white space, punctuation, symbols) as 0: the non-zero ones are
    ``normalize_text(text)``, and the zeros mark where words end (for word hashes)."""
    if text.isascii():
        lowered = np.frombuffer(text.encode("ascii").lower(), dtype=np.uint8)
        return np.take(_ASCII_FOLD, lowered)
    tables = _bmp_tables()
    composed, code_points = _nfkc_code_points(text, tables)
    if code_points.max() < 0x10000:
        mapped = np.take(tables.fold, code_points)
        if not (mapped == _FOLDS_TO_MANY).any():
            return mapped
    code_points, keep = _slow_fold(composed, tables)
    return np.where(keep, code_points, np.uint32(0))


def _code_points_to_text(code_points: np.ndarray) -> str:
    if code_points.dtype == np.uint8:
        return code_points.tobytes().decode("ascii")
    return code_points.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


def normalize_text(text: str) -> str:
    """Return the pure text block of ``text``.

    NFKC normalisation (so that e.g. ligatures and full-width forms match their plain
    forms), case folding (``str.casefold``), then every character that is not a letter,
    digit or combining mark (of any script) is dropped: white space, punctuation and
    symbols disappear.
    """
    return _code_points_to_text(_normalized_code_points(text))


def exact_digest(text: str) -> str:
    """MD5 hex digest of the UTF-8 normalised text: the exact-duplicate test.

    Texts that differ only in white space, case or punctuation get the same digest.
    """
    return hashlib.md5(normalize_text(text).encode("utf-8")).hexdigest()


# ----------------------------------------------------------------------------- K-gram hashes

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


WORD_HASH_DTYPE = np.uint16


def _word_spans(folded: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the words -- maximal runs of non-zero code points of a
    :func:`folded_code_points` array -- as positions in the normalised text."""
    kept = folded != 0
    edges = np.flatnonzero(np.diff(kept.view(np.int8), prepend=0, append=0))
    lengths = edges[1::2] - edges[0::2]
    ends = np.cumsum(lengths)
    return ends - lengths, ends


def _word_hashes(
    prefix: tuple[np.ndarray, np.ndarray], starts: np.ndarray, ends: np.ndarray
) -> np.ndarray:
    """Low 16 bits of the Karp-Rabin hash of each word span (equal words, equal hashes:
    the hash of a span does not depend on where it is)."""
    if starts.size == 0:
        return np.zeros(0, dtype=WORD_HASH_DTYPE)
    sums, powers = prefix
    word_sums = np.subtract(sums[ends], sums[starts])
    np.multiply(word_sums, powers[ends - 1], out=word_sums)
    return _fmix64_in_place(word_sums).astype(WORD_HASH_DTYPE)


def word_hashes(text: str) -> np.ndarray:
    """16-bit hashes of the normalised words of ``text``, in order (uint16 array).

    A word is a maximal run of the characters :func:`normalize_text` keeps (after NFKC
    and case folding): ``"Don't  STOP!"`` has the words ``don``, ``t``, ``stop``; their
    concatenation is ``normalize_text(text)``.  A word's hash is the low 16 bits of its
    Karp-Rabin hash (the K-gram hash with K = its length).
    """
    folded = folded_code_points(text)
    code_points = folded[folded != 0]
    starts, ends = _word_spans(folded)
    return _word_hashes(_karp_rabin_prefix(code_points), starts, ends)


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


def kgram_hashes(normalized: str, k: int, hash_name: str = "karp_rabin") -> np.ndarray:
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


# ----------------------------------------------------------------------------- winnowing


def _sliding_min(values: np.ndarray, width: int) -> np.ndarray:
    """Minimum of every run of ``width`` consecutive values (len - width + 1 of them)."""
    span = 1
    result = values
    while 2 * span <= width:
        result = np.minimum(result[:-span], result[span:])
        span *= 2
    if span < width:
        result = np.minimum(result[: result.size - (width - span)], result[width - span :])
    return result


def _sliding_max(values: np.ndarray, width: int) -> np.ndarray:
    span = 1
    result = values
    while 2 * span <= width:
        result = np.maximum(result[:-span], result[span:])
        span *= 2
    if span < width:
        result = np.maximum(result[: result.size - (width - span)], result[width - span :])
    return result


def _winnow_positions(hashes: np.ndarray, w: int) -> np.ndarray:
    """Positions selected by winnowing, in increasing order.

    The selected positions never decrease from one window to the next, so "record
    once" means every selected position appears once.  A position is a candidate if it
    holds the minimum of some window containing it (sliding minimum m of the windows,
    then sliding maximum of m over the windows containing each position).  A candidate
    is selected unless every window where it is the minimum also holds a later copy of
    its value (rightmost wins ties); only candidates with a copy of their value less
    than W positions later need that check.
    """
    n = hashes.size
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if n <= w:
        return np.array([n - 1 - int(np.argmin(hashes[::-1]))], dtype=np.int64)
    window_min = _sliding_min(hashes, w)
    padded = np.zeros(window_min.size + 2 * (w - 1), dtype=np.uint64)
    padded[w - 1 : w - 1 + window_min.size] = window_min
    # Largest window minimum over the windows containing each position; padding
    # zeros never exceed a real window minimum.
    best_window_min = _sliding_max(padded, w)
    candidates = np.flatnonzero(hashes == best_window_min)
    values = hashes[candidates]
    order = np.argsort(values, kind="stable")  # equal values stay in position order
    earlier, later = order[:-1], order[1:]
    tied = (values[later] == values[earlier]) & (candidates[later] - candidates[earlier] < w)
    if not tied.any():
        return candidates
    tied_candidates = earlier[tied]
    positions = candidates[tied_candidates]
    next_copies = candidates[later[tied]]
    # First window containing each tied position whose minimum is the position's value:
    # windows lo..hi contain the position; it is the minimum of at least one of them.
    lo = np.maximum(positions - (w - 1), 0)
    hi = np.minimum(positions, n - w)
    windows = np.minimum(lo[:, None] + np.arange(w), hi[:, None])
    first_window = lo + np.argmax(window_min[windows] == hashes[positions][:, None], axis=1)
    keep = np.ones(candidates.size, dtype=bool)
    # Rightmost wins: dropped if every such window also holds the next copy.
    keep[tied_candidates[first_window + (w - 1) >= next_copies]] = False
    return candidates[keep]


def winnow(hashes: Sequence[int] | np.ndarray, w: int) -> list[tuple[int, int]]:
    """Winnowing selection over a hash list: ``[(position, hash), ...]`` by position.

    Each window of ``w`` consecutive hashes selects its minimum, the rightmost one on
    ties; a selection is recorded once, not again while it stays the minimum of the
    following windows.  Fewer than ``w`` hashes form a single window.  Hashes must be
    integers in [0, 2**64).
    """
    if w < 1:
        raise ValueError("w must be >= 1")
    array = np.asarray(hashes, dtype=np.uint64)
    positions = _winnow_positions(array, w)
    return list(zip(positions.tolist(), array[positions].tolist(), strict=True))


def _sorted_distinct(values: np.ndarray) -> np.ndarray:
    """np.unique without its overhead (several times faster on small arrays)."""
    values = np.sort(values)
    if values.size < 2:
        return values
    first = np.ones(values.size, dtype=bool)
    first[1:] = values[1:] != values[:-1]
    return values[first]


# ----------------------------------------------------------------------------- fingerprint


@dataclass(frozen=True)
class WinnowingFingerprint:
    """Winnowing configuration: K-gram length ``k``, window ``w``, K-gram hash.

    ``hash_name`` is one of ``HASH_NAMES``; see the module docstring for speed.
    """

    k: int = DEFAULT_K
    w: int = DEFAULT_W
    hash_name: str = "karp_rabin"

    def __post_init__(self) -> None:
        if self.k < 1 or self.w < 1:
            raise ValueError("k and w must be >= 1")
        if self.hash_name not in HASH_NAMES:
            raise ValueError(f"hash_name must be one of {HASH_NAMES}, got {self.hash_name!r}")

    def hashes(self, text: str) -> np.ndarray:
        """All K-gram hashes of the normalised text (uint64 array, one per position)."""
        return _kgram_hashes(_normalized_code_points(text), self.k, self.hash_name)

    def select(self, text: str) -> list[tuple[int, int]]:
        """Selected ``(position, hash)`` pairs; positions index the normalised text."""
        return winnow(self.hashes(text), self.w)

    def minutiae_array(self, text: str) -> np.ndarray:
        """Minutiae as a sorted array of distinct uint64 (the fast form for indexing)."""
        hashes = self.hashes(text)
        return _sorted_distinct(hashes[_winnow_positions(hashes, self.w)])

    def analyse(self, text: str) -> tuple[str, np.ndarray, np.ndarray]:
        """(``normalize_text(text)``, :meth:`minutiae_array`, :func:`word_hashes`) of a
        text, normalising it once and, with the Karp-Rabin hash, sharing the prefix sums
        of the K-gram hashes with the word hashes."""
        folded = folded_code_points(text)
        code_points = folded[folded != 0]
        prefix = _karp_rabin_prefix(code_points)
        if code_points.size == 0:
            hashes = np.zeros(0, dtype=np.uint64)
        elif self.hash_name == "karp_rabin":
            hashes = _karp_rabin_hashes(code_points, self.k, prefix)
        else:
            hashes = _kgram_hashes(code_points, self.k, self.hash_name)
        minutiae = _sorted_distinct(hashes[_winnow_positions(hashes, self.w)])
        starts, ends = _word_spans(folded)
        words = _word_hashes(prefix, starts, ends)
        return _code_points_to_text(code_points), minutiae, words

    def normalized_minutiae_array(self, normalized: str) -> np.ndarray:
        """:meth:`minutiae_array` of a text already normalised by :func:`normalize_text`
        (saves normalising twice when the exact digest is computed too)."""
        hashes = kgram_hashes(normalized, self.k, self.hash_name)
        return _sorted_distinct(hashes[_winnow_positions(hashes, self.w)])

    def minutiae(self, text: str) -> frozenset[int]:
        """The fingerprint: the set of selected 64-bit hashes."""
        return frozenset(self.minutiae_array(text).tolist())

    def fingerprint(self, text: str) -> frozenset[int]:
        """Alias of :meth:`minutiae`."""
        return self.minutiae(text)
