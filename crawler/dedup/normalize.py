"""Normalising a page's text for the content-seen test (no Scrapy).

``normalize_text``: NFKC, case folding, and removal of everything that is not a letter,
digit or combining mark of any script (white space, punctuation, symbols);
``exact_digest``: the MD5 of that text (the exact-duplicate test). ``folded_code_points``
keeps the dropped characters as zeros, so that words (runs of kept characters) can be
found in the same array (``crawler.dedup.words``). Vectorised over code points with
per-code-point tables of the Basic Multilingual Plane (docs/dedup.md).
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["exact_digest", "folded_code_points", "normalize_text"]

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


def warm_up() -> None:
    """Build the Basic Multilingual Plane's tables now (a loop over its 65,536 code points:
    0.32 s of the crawl thread's py-spy samples at load 5, built on first use otherwise,
    by the first page's content-seen test on the crawl's thread)."""
    _bmp_tables()


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
