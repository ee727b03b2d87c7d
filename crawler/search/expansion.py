"""Query expansion of descriptions through a thesaurus (issue 25 item 4: a user describing
a page in other words than its text).

A description (DESCRIPTION_MIN_WORDS plain words or more) gets, for each of its words,
the words WordNet relates to it (crawler/search/thesaurus.py) that the index holds, each
scoring its BM25F in the text times ``Expansion.weight``: "join the lines into a single
string" also finds "concatenate". Both backends' compilers call ``expansion_terms`` and
add its terms to the one tier of a description, so they expand alike. Names (1-3 words)
are never expanded: a name means what it says.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from crawler import defaults
from crawler.search.thesaurus import RELATIONS, Thesaurus


@dataclass(frozen=True)
class Expansion:
    """How descriptions are expanded (SEARCH_EXPANSION_*); ``weight`` 0: not at all."""

    weight: float = defaults.SEARCH_EXPANSION_WEIGHT
    relations: tuple[str, ...] = tuple(defaults.SEARCH_EXPANSION_RELATIONS.split(","))
    senses: int = defaults.SEARCH_EXPANSION_SENSES
    terms: int = defaults.SEARCH_EXPANSION_TERMS
    wordnet: str = defaults.SEARCH_WORDNET_DIR

    def __post_init__(self) -> None:
        unknown = [r for r in self.relations if r not in RELATIONS]
        if unknown:
            raise ValueError(
                f"unknown expansion relation(s) {', '.join(unknown)}: use {', '.join(RELATIONS)}"
            )

    @classmethod
    def from_settings(cls, settings: object) -> Expansion:
        get = settings.get  # type: ignore[attr-defined]
        relations = get("SEARCH_EXPANSION_RELATIONS", defaults.SEARCH_EXPANSION_RELATIONS)
        if isinstance(relations, str):
            relations = relations.split(",")
        return cls(
            weight=float(get("SEARCH_EXPANSION_WEIGHT", defaults.SEARCH_EXPANSION_WEIGHT)),
            relations=tuple(r.strip() for r in relations if r.strip()),
            senses=int(get("SEARCH_EXPANSION_SENSES", defaults.SEARCH_EXPANSION_SENSES)),
            terms=int(get("SEARCH_EXPANSION_TERMS", defaults.SEARCH_EXPANSION_TERMS)),
            wordnet=str(get("SEARCH_WORDNET_DIR", defaults.SEARCH_WORDNET_DIR) or ""),
        )

    @property
    def enabled(self) -> bool:
        return self.weight > 0 and self.terms > 0 and self.senses > 0 and bool(self.relations)


#: Words and expansion terms shorter than this are left alone ("one" -> "1", "i", "ac").
MIN_CHARS = 3

_thesauri: dict[str, Thesaurus | None] = {}
_lock = threading.Lock()


def thesaurus(folder: str | Path) -> Thesaurus | None:
    """The thesaurus of ``folder``, opened once per process (None: not installed)."""
    key = str(folder)
    with _lock:
        if key not in _thesauri:
            _thesauri[key] = Thesaurus.open(folder) if key else None
        return _thesauri[key]


def expansion_terms(
    words: Sequence[str],
    expansion: Expansion,
    analyze: Callable[[str], list[str]],
    doc_frequency: Callable[[str], int] | None,
) -> list[tuple[str, float]]:
    """The expansion terms of a description's plain ``words`` with their weights: for
    each word (lower case, letters only), up to ``expansion.terms`` terms (``analyze``:
    the text field's analysis) of its thesaurus relatives that are not the query's own
    terms and that the index holds (``doc_frequency(term)`` > 0), in the thesaurus's order
    (most common sense first). Empty when expansion is off or the thesaurus missing."""
    if not expansion.enabled:
        return []
    wordnet = thesaurus(expansion.wordnet)
    if wordnet is None:
        return []
    own = {t for w in words for t in analyze(w)}
    chosen: dict[str, None] = {}
    for word in dict.fromkeys(w.lower() for w in words):
        if not word.isalpha() or len(word) < MIN_CHARS or not analyze(word):
            continue  # a stop word, a number, a name with signs
        kept = 0
        for related in wordnet.related(
            word, senses=expansion.senses, relations=expansion.relations
        ):
            for term in analyze(related):
                if term in own or term in chosen or len(term) < MIN_CHARS or not term.isalpha():
                    continue
                if doc_frequency is not None and doc_frequency(term) <= 0:
                    continue
                chosen[term] = None
                kept += 1
            if kept >= expansion.terms:
                break
    return [(term, expansion.weight) for term in chosen]
