"""The focus query: words and "quoted phrases", matched on stemmed terms.

``java "garbage collector" spring`` is three clauses: the word ``java``, the phrase
``garbage collector`` and the word ``spring``. Text is analysed with the search index's
own analyzer (:func:`crawler.search.schema.text_analyzer`: words, lower case, English
stop words out, Porter stems), so ``programmers`` matches ``programming`` exactly as it
does in ``scrapy search``. A phrase matches its stemmed words in a row (stop words are
dropped on both sides, so ``"java in action"`` also matches "java action").

URLs glue words together (``www.javadev.test``, ``/java-generics``): a clause occurs in a
URL when its words, or their stems, written without separators, are a substring of one
of the URL's parts: the (percent-decoded) URL without its scheme, cut at ``/ . ? # & = ;
: , @``, each part with only its letters and digits kept (``Garbage_Collector-tuning`` ->
``garbagecollectortuning``).

``match=all``: a field matches when every clause occurs in it; ``match=any``: when one
does. See docs/focused.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote

from crawler import defaults
from crawler.search.schema import text_analyzer

MATCH_MODES = ("all", "any")

_PHRASE_OR_WORD = re.compile(r'"([^"]*)"?|([^\s"]+)')
_NOT_ALNUM = re.compile(r"[\W_]+")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
_URL_SEPARATORS = re.compile(r"[/.?#&=;:,@]+")


class QueryError(ValueError):
    """A focus query that cannot be used (empty, only stop words, bad match mode)."""


@lru_cache(maxsize=1)
def _analyzer():  # type: ignore[no-untyped-def]
    return text_analyzer()


def terms(text: str) -> list[str]:
    """Stemmed terms of ``text`` in order, as the search index sees them."""
    return [token.text for token in _analyzer()(text)]


def squash(text: str) -> str:
    """Lower-case letters and digits of ``text`` only (``Java-Dev_2`` -> ``javadev2``)."""
    return _NOT_ALNUM.sub("", text.lower())


def url_parts(url: str) -> tuple[str, ...]:
    """The parts of a URL a clause is looked for in (see the module docstring)."""
    parts = (squash(part) for part in _URL_SEPARATORS.split(unquote(_SCHEME.sub("", url))))
    return tuple(part for part in parts if part)


@dataclass(frozen=True)
class Clause:
    """One word or phrase of the query."""

    text: str  # as the user wrote it
    stems: tuple[str, ...]  # analysed terms (one for a word, several for a phrase)

    @property
    def url_forms(self) -> tuple[str, ...]:
        """Forms looked for in a URL: the words and the stems, without separators."""
        forms = {squash(self.text), "".join(self.stems)}
        return tuple(sorted(form for form in forms if form))

    def count(self, tokens: list[str]) -> int:
        """Occurrences of the clause in analysed ``tokens`` (phrases: non-overlapping)."""
        n = len(self.stems)
        if n == 1:
            stem = self.stems[0]
            return sum(1 for token in tokens if token == stem)
        found = i = 0
        first = self.stems[0]
        limit = len(tokens) - n
        while i <= limit:
            if tokens[i] == first and tuple(tokens[i : i + n]) == self.stems:
                found += 1
                i += n
            else:
                i += 1
        return found

    def in_url(self, parts: tuple[str, ...]) -> bool:
        """Whether the clause occurs in a URL given as its :func:`url_parts`."""
        return any(form in part for part in parts for form in self.url_forms)


@dataclass(frozen=True)
class FocusQuery:
    """A parsed query: its clauses and how they combine (``all`` or ``any``)."""

    text: str
    clauses: tuple[Clause, ...]
    match: str = defaults.FOCUS_MATCH

    def occurs(self, tokens: list[str]) -> bool:
        """Whether the query occurs in analysed text (a title, an anchor text)."""
        hits = (clause.count(tokens) > 0 for clause in self.clauses)
        return all(hits) if self.match == "all" else any(hits)

    def occurs_in_url(self, url: str) -> bool:
        parts = url_parts(url)
        hits = (clause.in_url(parts) for clause in self.clauses)
        return all(hits) if self.match == "all" else any(hits)

    def occurrences(self, tokens: list[str]) -> float:
        """Occurrences of the query in analysed body text.

        ``any``: occurrences of all clauses added up. ``all``: 0 unless every clause
        occurs, else the mean occurrences per clause. For one clause both are its count,
        the design-and-implementation paper's "occurrence" of the search string.
        """
        counts = [clause.count(tokens) for clause in self.clauses]
        if self.match == "any":
            return float(sum(counts))
        if min(counts) == 0:
            return 0.0
        return sum(counts) / len(counts)

    def fraction_in(self, tokens: list[str]) -> float:
        """Share of the clauses that occur in analysed text (an anchor text), 0..1."""
        return sum(1 for c in self.clauses if c.count(tokens) > 0) / len(self.clauses)

    def fraction_in_url(self, url: str) -> float:
        """Share of the clauses that occur in a URL, 0..1."""
        parts = url_parts(url)
        return sum(1 for c in self.clauses if c.in_url(parts)) / len(self.clauses)


def parse_query(text: str, match: str = defaults.FOCUS_MATCH) -> FocusQuery:
    """Parse ``java "garbage collector"``: words and double-quoted phrases.

    An unclosed quote runs to the end of the query. Clauses that analyse to nothing
    (stop words, punctuation) are left out; a query left with no clause is an error,
    as is a match mode other than ``all`` or ``any``.
    """
    match = (match or "all").strip().lower()
    if match not in MATCH_MODES:
        raise QueryError(f"match must be one of {', '.join(MATCH_MODES)}, not {match!r}")
    clauses: list[Clause] = []
    seen: set[tuple[str, ...]] = set()
    for phrase, word in _PHRASE_OR_WORD.findall(text or ""):
        raw = (phrase or word).strip()
        # an unquoted word the analyzer splits (spring-boot) is a phrase of its parts
        stems = tuple(terms(raw))
        if stems and stems not in seen:
            seen.add(stems)
            clauses.append(Clause(raw, stems))
    if not clauses:
        raise QueryError(f"query {text!r} has no searchable word (only stop words?)")
    return FocusQuery(text=text, clauses=tuple(clauses), match=match)
