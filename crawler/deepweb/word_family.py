"""Words of one family: a topic's stem and the stems it is made of by a suffix.

The search index's analyzer (Porter-like stems) folds inflections ("renting", "rented",
"rents" -> "rent") but leaves derived words whole: "rental" and "rent", "renter" and
"rent", "genealogist" and "genealog" are different terms. A user's topic word is often
such a derived word ("rentals") while the topic's sites say the plain one ("homes to
rent": heldout14, where every letting agent's home page held "rent" and "rental" at most
once, and all five were judged off topic). Two stems are of one family when the longer
is the shorter plus one of :data:`FAMILY_SUFFIXES` (suffixes as the analyzer leaves
them: "able" -> "abl") and the shorter has at least :data:`FAMILY_MIN_ROOT` letters
("trial" is not "tri" + "al", "pets" not "pe" + "t").
"""

from __future__ import annotations

from collections.abc import Iterable

#: derivational suffixes, as the analyzer leaves them, that make a word of the same
#: family from a shorter stem ("rent" + "al", "rent" + "er", "grant" + "or")
FAMILY_SUFFIXES = frozenset(
    ("al", "er", "or", "abl", "ibl", "ment", "ist", "ism", "iti", "ic", "ive", "ous")
)
#: the shorter stem of a family has at least this many letters (a short stem plus a
#: suffix is too often another word: "tri" + "al", "pet" + "it")
FAMILY_MIN_ROOT = 4


def same_family(a: str, b: str) -> bool:
    """``a`` and ``b`` (stems) are one stem, or one is the other plus a suffix of
    :data:`FAMILY_SUFFIXES` with a root of :data:`FAMILY_MIN_ROOT` letters or more."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < FAMILY_MIN_ROOT or not short.isalpha() or not long.startswith(short):
        return False
    return long[len(short) :] in FAMILY_SUFFIXES


def family_roots(stems: Iterable[str]) -> frozenset[str]:
    """The stems and the shorter stems they are made of by a suffix ("rental" ->
    {"rental", "rent"}): a term of the family of any of them is :func:`same_family`
    as one of these."""
    roots = set()
    for stem in stems:
        roots.add(stem)
        for suffix in FAMILY_SUFFIXES:
            root = stem[: -len(suffix)]
            if stem.endswith(suffix) and len(root) >= FAMILY_MIN_ROOT and root.isalpha():
                roots.add(root)
    return frozenset(roots)


class WordFamily:
    """The family of a topic's stems: membership of a term, remembered."""

    def __init__(self, stems: Iterable[str], derived: bool = True) -> None:
        """``derived=False``: the stems alone (setting SMART_TOPIC_WORD_FAMILY off)."""
        self.stems = frozenset(stems)
        self.derived = derived
        self.roots = family_roots(self.stems) if derived else self.stems
        self._known: dict[str, bool] = {}

    def __contains__(self, term: object) -> bool:
        if not isinstance(term, str):
            return False
        if term in self.roots:
            return True
        if not self.derived:
            return False
        known = self._known.get(term)
        if known is None:
            known = self._known[term] = any(same_family(term, r) for r in self.roots)
        return known

    def __bool__(self) -> bool:
        return bool(self.stems)
