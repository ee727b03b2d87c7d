"""Searching a Tantivy index: the query language, the ranking and the results of the
Whoosh engine (crawler/search/engine.py), on Tantivy (docs/search.md, *Backends*).

The query tree (crawler/search/query/tree.py) is compiled here to Tantivy queries with
the decisions of crawler/search/query/compiler.py (tiers, descriptions in one tier, the
common words of a sentence, the bonuses and when each applies). Every tier query is

    MUST   the tier's query, its words scored where the query's structure matches them
    SHOULD the bonuses (title, headings, anchors, contexts; exact and lead in the first tier)

and scores what Whoosh's BM25F scores (docs/search.md, *Relevance parity*): each term is
Tantivy's BM25 times the idf correction of crawler.search.ranking (Whoosh's idf instead
of Tantivy's), a phrase or NEAR the sum of its words' scores where it matches (a
ConstScoreQuery of the phrase beside its terms), a filter 1. Words without a prefix are
scored in content_w (title + text + URL, weighted) and matched as phrases in the
positions of the title, the text and the URL words. The proximity bonus (each pair of
neighbouring words, the whole sequence) adds its words' content scores and is rescored
on the first tier's best 100 hits (40 for a long query), as Whoosh's. The PageRank
blend, the language factor and the grouping of translations and copies are
crawler.search.ranking's, applied to the hits as with Whoosh.

Differences from Whoosh that remain: Snowball's stemmer instead of Porter's; a weighted
frequency under one (a word of link text on a hub page) counts one whole token, and the
content length is the weighted one; a sequence's slop is Tantivy's budget for the whole
phrase with each neighbour pair within it (Whoosh: each pair within 3 positions).
"""

from __future__ import annotations

import html
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import tantivy
from rapidfuzz.distance import OSA
from tantivy import Occur, Query

from crawler import defaults
from crawler.search.engine import (
    _LANG_PREFIX,
    GROUP_WINDOW,
    LONG_RESCORE_TERMS,
    LONG_RESCORE_WINDOW,
    MAX_PER_PAGE,
    RESCORE_WINDOW,
    SNIPPET_TERMS,
    SearchEngine,
    SearchHit,
    SearchResults,
    _leading_text,
)
from crawler.search.query import QuerySyntaxError, leaves
from crawler.search.query.compiler import (
    _FORMAT_ALIASES,
    LEAD_MIN_TERMS,
    MAX_PROXIMITY_PAIRS,
    ONE_TIER_MIN_WORDS,
    PROXIMITY_SLOP,
    SEQUENCE_TERMS,
    CompilerBase,
    plain_words,
    split_conjunction,
    updated_period,
)
from crawler.search.query.tokens import TEXT_PREFIXES
from crawler.search.query.tree import (
    And,
    Leaf,
    Near,
    Node,
    Not,
    Or,
    Xor,
    parse,
    positive_leaves,
)
from crawler.search.ranking import (
    Candidate,
    Group,
    blend,
    group_variants,
    idf_correction,
    language_factor,
    query_boosts,
    query_language,
)
from crawler.search.tantivy_index import (
    EXACT_ANALYZER,
    NAME_FIELDS,
    NAME_TERMS,
    TEXT_ANALYZER,
    URL_ANALYZER,
    TantivyIndex,
    analyze,
    lang_from_code,
    load_stored,
    read_name_terms,
    stored_url,
    terms_holding,
)

#: The matching and scoring field of words without a prefix, and the fields whose
#: positions phrases and NEAR without a prefix are matched in (Whoosh's content).
CONTENT = "content_w"
POSITION_FIELDS = (("title", TEXT_ANALYZER), ("body", TEXT_ANALYZER), ("url_text", URL_ANALYZER))
FIELD_ANALYZERS = {
    "title": TEXT_ANALYZER,
    "body": TEXT_ANALYZER,
    "headings": TEXT_ANALYZER,
    "inlinks": TEXT_ANALYZER,
    "context": TEXT_ANALYZER,
    "lead": TEXT_ANALYZER,
    "url_text": URL_ANALYZER,
    "title_exact": EXACT_ANALYZER,
    "url_name": EXACT_ANALYZER,
    CONTENT: TEXT_ANALYZER,
}
#: Hits first taken by raw score for the PageRank blend (then more, until exact).
FIRST_WINDOW = 100
#: The proximity bonus is probed on every match of the first tier while its phrases
#: would be checked in at most this many pages (TantivyCompiler._proximity_cost), else
#: rescored on the tier's best hits (RESCORE_WINDOW), as Whoosh always does: probed on
#: every match of common words, the phrases were three quarters of a description's
#: Tantivy time (6.0 of 8.1 ms at 100,000 pages), and grow with the index.
PROXIMITY_PROBE_DOCS = 50_000
#: A first tier of at most this many matches gets its proximity bonus scored on all of
#: them in one search (the same scores for the rescored hits); a larger one on its best
#: hits, found by their ``url_key`` (a column read; before layout 3, by their URLs,
#: reading each hit's stored fields: 20-40 ms for 100 long documentation pages).
RESCORE_ALL_MATCHES = 5_000
#: NEAR with more operands than this tries their given order and its reverse only.
MAX_NEAR_PERMUTATIONS = 4
#: Characters of a body given to Tantivy's snippet generator (at least four snippets'
#: length): the stretch where the query's words are densest (snippet_window).
SNIPPET_WINDOW_CHARS = 4_000
#: Occurrences of each query word looked for when choosing that stretch.
SNIPPET_WINDOW_OCCURRENCES = 64


def snippet_window(body: str, terms: list[str], width: int, span: int) -> tuple[int, int]:
    """The ``[start, end)`` of ``body``, at most ``width`` characters, around the
    ``span`` characters holding the most distinct ``terms`` (then the most occurrences),
    found as prefixes of its lower-cased words (the analysed terms are stems: "configur"
    of "configuration"). The whole body
    when it is no longer than ``width`` or when no term is found (a stem that is not a
    prefix of its word: Tantivy's generator then looks everywhere)."""
    if len(body) <= width:
        return 0, len(body)
    lowered = body.lower()
    found: list[tuple[int, int]] = []
    for index, term in enumerate(terms):
        at = lowered.find(term)
        for _ in range(SNIPPET_WINDOW_OCCURRENCES):
            if at < 0:
                break
            if at == 0 or not lowered[at - 1].isalnum():
                found.append((at, index))
            at = lowered.find(term, at + len(term))
    if not found:
        return 0, len(body)
    found.sort()
    best = (0, 0, found[0][0])
    counts: dict[int, int] = {}
    left = 0
    for right, (at, index) in enumerate(found):
        counts[index] = counts.get(index, 0) + 1
        while at - found[left][0] > span:
            gone = found[left][1]
            counts[gone] -= 1
            if not counts[gone]:
                del counts[gone]
            left += 1
        score = (len(counts), right - left + 1, -found[left][0])
        if score > best:
            best = score
    # the densest span a quarter of the window from its start
    first = -best[2]
    start = max(0, min(first - width // 4, len(body) - width))
    # at a word's start, so that the first word is not cut
    while start > 0 and body[start - 1].isalnum():
        start -= 1
    return start, min(len(body), start + width)


def _or(parts: list[Any]) -> Any:
    return parts[0] if len(parts) == 1 else Query.boolean_query([(Occur.Should, p) for p in parts])


def _and(parts: list[Any]) -> Any:
    return parts[0] if len(parts) == 1 else Query.boolean_query([(Occur.Must, p) for p in parts])


def _without(q: Any, negatives: list[Any]) -> Any:
    if not negatives:
        return q
    return Query.boolean_query([(Occur.Must, q)] + [(Occur.MustNot, n) for n in negatives])


@dataclass
class PhraseClause:
    """A clause scored as Whoosh scores a phrase (TantivyCompiler._scored_phrase), its
    match kept as alternatives so that the rescore can intersect each phrase with its
    hits (TantivySearchEngine._rescored): the clause matches where all the queries of
    one alternative do, and scores the sum of ``terms`` times ``boost``."""

    alternatives: list[list[Any]]
    terms: list[Any]
    boost: float = 1.0

    def query(self, only: Any | None = None) -> Any:
        """The clause; with ``only`` (a query of a few pages), matching those alone,
        each phrase intersected with them: Tantivy's intersection then checks a
        phrase at each of those pages, where a phrase under a union (or a boolean
        query) is walked from one of its matches to the next, as costly at 200,000
        pages as probing every match (docs/search.md, 2026-11-27)."""
        match = _or([_and(([only] if only is not None else []) + alt) for alt in self.alternatives])
        clauses = [(Occur.Must, Query.const_score_query(match, 0.0))]
        clauses += [(Occur.Should, t) for t in self.terms]
        q = Query.boolean_query(clauses)
        return q if self.boost == 1.0 else Query.boost_query(q, self.boost)


@dataclass
class TantivyParsed:
    """A compiled query (ParsedQuery's Tantivy twin): the tiers' matching queries, the
    scored clauses of the query's words, and the bonuses."""

    text: str
    tree: Node | None
    tiers: list[Any] = field(default_factory=list)
    bonus: list[Any] = field(default_factory=list)
    first_bonus: list[Any] = field(default_factory=list)
    #: the proximity bonus's phrases (boosted), when rescored on the first tier's best
    #: hits, and how many plain terms it holds (a long one gets the smaller window, as
    #: with Whoosh)
    proximity: list[PhraseClause] = field(default_factory=list)
    proximity_terms: int = 0
    snippet_terms: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.tiers

    def scored(self, q: Any, first: bool = True) -> Any:
        """The tier query ``q`` (scored as Whoosh scores its words) with the bonuses."""
        clauses = [(Occur.Must, q)]
        clauses += [(Occur.Should, c) for c in self.bonus]
        if first:
            clauses += [(Occur.Should, c) for c in self.first_bonus]
        return Query.boolean_query(clauses)


class TantivyCompiler(CompilerBase):
    """Query trees to Tantivy queries (QueryCompiler's decisions, see the module doc)."""

    frequency_field = CONTENT

    def __init__(
        self,
        schema: Any,
        *,
        name_vocabulary: str | None = None,
        scoring_doc_count: int = 0,
        **kwargs: Any,
    ) -> None:
        """``name_vocabulary``: the index's name-part vocabulary (read_name_terms; None
        for an index written before it, searched with regular expressions instead).
        ``scoring_doc_count``: the document count Tantivy's BM25 takes (its segments'
        documents, deleted ones included, as its document frequencies count them;
        default ``doc_count``)."""
        super().__init__(schema, **kwargs)
        self.name_vocabulary = name_vocabulary
        self.scoring_doc_count = max(scoring_doc_count, self.doc_count)
        self._idf: dict[tuple[str, str], float] = {}

    def analyze(self, fieldname: str, text: str) -> list[str]:
        return analyze(FIELD_ANALYZERS[fieldname], text)

    def parse(self, text: str) -> TantivyParsed:
        tree = parse(text, self.near_distance)
        parsed = TantivyParsed(text, tree)
        if tree is None:
            return parsed
        self._common = self._common_leaves(tree)
        parsed.tiers = [q for q in self._tiers(tree) if q is not None]
        # a description's bonuses weigh less (crawler.search.ranking.query_boosts)
        words = plain_words(tree, lambda text: self.analyze(CONTENT, text))
        base, self.boosts = self.boosts, query_boosts(self.boosts, words)
        try:
            self._bonuses(tree, parsed)
        finally:
            self.boosts = base
        parsed.snippet_terms = list(
            dict.fromkeys(
                t
                for leaf in positive_leaves(tree)
                if not leaf.is_filter and leaf.field in (None, "body")
                for t in self.analyze("body", leaf.text)
            )
        )
        return parsed

    def _bonuses(self, tree: Node, parsed: TantivyParsed) -> None:
        parsed.bonus = (
            self._field_bonus(tree, "title", self.boosts.title)
            + self._field_bonus(tree, "headings", self.boosts.heading)
            + self._field_bonus(tree, "inlinks", self.boosts.anchor)
            + self._field_bonus(tree, "context", self.boosts.context)
        )
        # the proximity bonus is rescored on the first tier's best hits, as Whoosh's
        # (RESCORE_WINDOW): probed on every match it let pages beyond Whoosh's window
        # climb, and the two backends ranked apart
        parsed.proximity = self._proximity_bonus(tree)
        lead_phrase = self._lead_phrase(tree)
        parsed.first_bonus = self._exact_bonus(tree)
        if lead_phrase is None:
            pass
        elif self._lead_cost(tree) > PROXIMITY_PROBE_DOCS:
            # the lead's phrases rescored too, each alone (a clause's score is the sum
            # of its phrases'; a union of phrases would be walked as a whole, see
            # TantivySearchEngine._rescored)
            parsed.first_bonus += self._field_bonus(tree, "lead", self.boosts.lead, phrases=False)
            parsed.proximity = (
                self._field_phrases(tree, "lead", self.boosts.lead)
                + [lead_phrase]
                + parsed.proximity
            )
        else:
            # probed on every match of the first tier, as Whoosh does
            parsed.first_bonus += self._field_bonus(tree, "lead", self.boosts.lead)
            parsed.first_bonus.append(lead_phrase.query())
        if parsed.proximity:
            parsed.proximity_terms = len(self._plain_terms(tree)[:SEQUENCE_TERMS])

    # scoring and bonuses -------------------------------------------------------------
    def _term(self, fieldname: str, term: str, boost: float = 1.0) -> Any:
        """A scored term: Tantivy's BM25 of ``term`` in ``fieldname`` times the idf
        correction (crawler.search.ranking.idf_correction: the project's BM25F idf, as
        Whoosh computes it) and ``boost``."""
        q = Query.term_query(self.schema, fieldname, term)
        factor = boost * self._idf_correction(fieldname, term)
        return q if factor == 1.0 else Query.boost_query(q, factor)

    def _idf_correction(self, fieldname: str, term: str) -> float:
        if self.doc_frequency is None or self.scoring_doc_count <= 0:
            return 1.0
        key = (fieldname, term)
        factor = self._idf.get(key)
        if factor is None:
            frequency = self.doc_frequency(fieldname, term)
            factor = idf_correction(max(self.scoring_doc_count, frequency), frequency)
            self._idf[key] = factor
        return factor

    def _scored_phrase(
        self, fieldname: str, terms: list[str], slop: int, boost: float = 1.0, *,
        match: Any | None = None, score_field: str | None = None,
    ) -> Any:
        """A phrase (or ``match``) scored as Whoosh scores one: the sum of its terms'
        BM25F in ``score_field`` (default: the phrase's field), each term as often as
        the phrase holds it, times ``boost`` (Tantivy's own phrase score is the BM25 of
        the phrase's frequency, another scale)."""
        if match is None:
            match = Query.phrase_query(self.schema, fieldname, terms, slop)
        return self._phrase_clause(score_field or fieldname, terms, boost, [[match]]).query()

    def _phrase_clause(
        self, score_field: str, terms: list[str], boost: float, alternatives: list[list[Any]]
    ) -> PhraseClause:
        """_scored_phrase's clause, matching where one of ``alternatives`` does (each a
        list of queries, all of which match), for the rescore (PhraseClause)."""
        return PhraseClause(alternatives, [self._term(score_field, t) for t in terms], boost)

    def _text_query(
        self, fieldname: str, text: str, boost: float = 1.0, *, scored: bool = False
    ) -> Any | None:
        """The terms of ``text`` in a field: a term, or a phrase for several; ``scored``:
        as the ranking scores them (a bonus), else to match only."""
        terms = self.analyze(fieldname, text)
        if not terms:
            return None
        if scored:
            if len(terms) == 1:
                return self._term(fieldname, terms[0], boost)
            return self._scored_phrase(fieldname, terms, 0, boost)
        if len(terms) == 1:
            q = Query.term_query(self.schema, fieldname, terms[0])
        else:
            q = Query.phrase_query(self.schema, fieldname, terms)
        return q if boost == 1.0 else Query.boost_query(q, boost)

    def _field_bonus(
        self, tree: Node, fieldname: str, boost: float, phrases: bool | None = None
    ) -> list[Any]:
        """The query's words in ``fieldname`` (a word of several terms as a phrase),
        times ``boost``; only the single terms or only the phrases with ``phrases``."""
        if boost <= 0:
            return []
        parts, seen = [], set()
        for leaf in self._bonus_leaves(tree):
            key = tuple(self.analyze(fieldname, leaf.text))
            if phrases is not None and (len(key) > 1) != phrases:
                continue
            q = self._text_query(fieldname, leaf.text, boost, scored=True)
            if q is not None and key not in seen:
                seen.add(key)
                parts.append(q)
        return parts

    def _field_phrases(self, tree: Node, fieldname: str, boost: float) -> list[PhraseClause]:
        """The phrases of _field_bonus(..., phrases=True), as clauses to rescore."""
        if boost <= 0:
            return []
        parts, seen = [], set()
        for leaf in self._bonus_leaves(tree):
            key = tuple(self.analyze(fieldname, leaf.text))
            if len(key) > 1 and key not in seen:
                seen.add(key)
                phrase = Query.phrase_query(self.schema, fieldname, list(key), 0)
                parts.append(self._phrase_clause(fieldname, list(key), boost, [[phrase]]))
        return parts

    def _plain_terms(self, tree: Node) -> list[str]:
        terms: list[str] = []
        for leaf in positive_leaves(tree):
            if leaf.field is None and not leaf.phrase:
                terms += self.analyze(CONTENT, leaf.text)
        return terms

    def _lead_phrase(self, tree: Node) -> PhraseClause | None:
        """The lead bonus's sloppy phrase (a description's words in order in the lead)."""
        terms = self._plain_terms(tree)
        if len(terms) < LEAD_MIN_TERMS or self.boosts.lead <= 0:
            return None
        sequence = terms[:SEQUENCE_TERMS]
        return self._phrase_clause(
            "lead", sequence, self.boosts.lead, [self._sequence("lead", sequence)]
        )

    def _sequence(self, fieldname: str, terms: list[str]) -> list[Any]:
        """The phrases that all match where ``terms`` are in this order in a field, each
        at most PROXIMITY_SLOP positions after the one before (Whoosh's ordered
        SpanNear2, slop 3). Tantivy's slop is a budget of skipped positions for the
        whole phrase: the phrase with the budget of every neighbour pair's at most
        PROXIMITY_SLOP - 1, and each neighbour pair within PROXIMITY_SLOP - 1 (two
        occurrences of the pairs may be combined, which Whoosh's chain would not)."""
        slop = PROXIMITY_SLOP - 1
        whole = Query.phrase_query(self.schema, fieldname, terms, slop * (len(terms) - 1))
        if len(terms) <= 2:
            return [whole]
        pairs = dict.fromkeys(itertools.pairwise(terms))
        return [whole] + [Query.phrase_query(self.schema, fieldname, list(p), slop) for p in pairs]

    def _exact_bonus(self, tree: Node) -> list[Any]:
        if self.boosts.exact <= 0:
            return []
        parts, seen = [], set()
        leaves = self._bonus_leaves(tree)
        for leaf in leaves:
            for fieldname in ("title_exact", "url_name"):
                key = (fieldname, tuple(self.analyze(fieldname, leaf.text)))
                q = self._text_query(fieldname, leaf.text, self.boosts.exact, scored=True)
                if q is not None and key not in seen:
                    seen.add(key)
                    parts.append(q)
        # the name-part bonus (QueryCompiler's): the terms holding the word, from the
        # index's name-part vocabulary; a regular expression walks the fields' whole term
        # dictionaries in every segment (about 2 x 9 ms a word at 300,000 pages)
        if self.name_vocabulary is None:
            patterns, score = self.name_parts(leaves)
            for pattern in patterns:
                for fieldname in NAME_FIELDS:
                    inside = Query.regex_query(self.schema, fieldname, pattern)
                    parts.append(Query.const_score_query(inside, score))
            return parts
        words, score = self.name_part_words(leaves)
        for word in words:
            terms = terms_holding(self.name_vocabulary, word)
            if terms:
                for fieldname in NAME_FIELDS:
                    inside = Query.term_set_query(self.schema, fieldname, terms)
                    parts.append(Query.const_score_query(inside, score))
        return parts

    def _near_phrases(self, first: str, second: str, distance: int) -> list[Any]:
        """``first`` and ``second`` at most ``distance`` words apart, in either order, in
        the title or the text: a phrase for each field and order."""
        slop = max(0, distance - 1)
        return [
            Query.phrase_query(self.schema, name, pair, slop)
            for name in ("title", "body")
            for pair in ([first, second], [second, first])
        ]

    def _lead_cost(self, tree: Node) -> int:
        """About how many pages the lead phrase is checked in when probed on every match
        of the first tier: those holding its rarest word in the lead (0 without document
        frequencies)."""
        if self.doc_frequency is None or self.boosts.lead <= 0:
            return 0
        sequence = self._plain_terms(tree)[:SEQUENCE_TERMS]
        if len(sequence) < LEAD_MIN_TERMS:
            return 0
        return min(self.doc_frequency("lead", t) for t in sequence)

    def _proximity_cost(self, tree: Node) -> int:
        """About how many pages the proximity and lead bonuses' phrases are checked in
        when probed on every match: for each pair (and the whole sequence), the pages
        holding its rarest word; the lead phrase's in the lead (document frequencies;
        0 without them)."""
        if self.doc_frequency is None or (self.boosts.proximity <= 0 and self.boosts.lead <= 0):
            return 0
        terms = self._plain_terms(tree)
        frequency = {t: self.doc_frequency(CONTENT, t) for t in set(terms)}
        pairs = list(dict.fromkeys((a, b) for a, b in itertools.pairwise(terms) if a != b))
        sequence = terms[:SEQUENCE_TERMS]
        cost = 0
        if len(pairs) <= MAX_PROXIMITY_PAIRS:
            cost += sum(min(frequency[a], frequency[b]) for a, b in pairs)
        if len(terms) > 2:
            cost += min(frequency[t] for t in sequence)
        if len(terms) >= LEAD_MIN_TERMS:
            cost += min(self.doc_frequency("lead", t) for t in sequence)
        return cost

    def _proximity_bonus(self, tree: Node) -> list[PhraseClause]:
        """Solr's pf2 and pf (see QueryCompiler._proximity_bonus and
        crawler.search.proximity), scored as Whoosh's rescore scores them: each
        consecutive pair of the query's words within PROXIMITY_SLOP words in either order
        (in the title or the text) adds the BM25F of its two words in ``content``, all
        the words in order the BM25F of all of them, times the proximity boost."""
        plain = [leaf for leaf in positive_leaves(tree) if leaf.field is None and not leaf.phrase]
        boost = self.boosts.proximity
        if boost <= 0 or len(plain) < 2:
            return []
        terms = self._plain_terms(tree)
        if len(terms) < 2:
            return []
        pairs = list(dict.fromkeys((a, b) for a, b in itertools.pairwise(terms) if a != b))
        clauses = []
        if len(pairs) <= MAX_PROXIMITY_PAIRS:
            for a, b in pairs:
                near = [[q] for q in self._near_phrases(a, b, PROXIMITY_SLOP)]
                clauses.append(self._phrase_clause(CONTENT, [a, b], boost, near))
        if len(terms) > 2:
            sequence = terms[:SEQUENCE_TERMS]
            ordered = [self._sequence(name, sequence) for name in ("title", "body")]
            clauses.append(self._phrase_clause(CONTENT, sequence, boost, ordered))
        return clauses

    # tiers ----------------------------------------------------------------------------
    def _tiers(self, tree: Node) -> list[Any | None]:
        if isinstance(tree, And) and tree.implicit:
            positives, common, filters, negatives = split_conjunction(
                tree, self.compile, self._common
            )
            if len(positives) >= 2:
                every = _without(_and(positives + filters), negatives)
                rare = [q for q in positives if not any(q is c for c in common)]
                if common and rare:
                    # the common words scored where an uncommon one matches
                    anyone = Query.boolean_query(
                        [(Occur.Must, _or(rare))] + [(Occur.Should, c) for c in common]
                    )
                else:
                    anyone = _or(positives)
                anyone = _without(_and([anyone, *filters]) if filters else anyone, negatives)
                if len(positives) >= ONE_TIER_MIN_WORDS:
                    return [anyone]
                return [every, anyone]
        return [self.compile(tree)]

    def compile(self, node: Node) -> Any | None:
        if isinstance(node, Leaf):
            return self._leaf(node)
        if isinstance(node, Not):
            child = self.compile(node.child)
            return None if child is None else _without(Query.all_query(), [child])
        if isinstance(node, And):
            positives: list[Any] = []
            negatives: list[Any] = []
            for child in node.children:
                if isinstance(child, Not):
                    q = self.compile(child.child)
                    if q is not None:
                        negatives.append(q)
                else:
                    q = self.compile(child)
                    if q is not None:
                        positives.append(q)
            if not positives and not negatives:
                return None
            base = _and(positives) if positives else Query.all_query()
            return _without(base, negatives)
        if isinstance(node, Or):
            parts = [q for q in (self.compile(c) for c in node.children) if q is not None]
            return _or(parts) if parts else None
        if isinstance(node, Xor):
            left, right = self.compile(node.left), self.compile(node.right)
            if left is None or right is None:
                return left or right
            return _without(_or([left, right]), [_and([left, right])])
        if isinstance(node, Near):
            return self._near(node)
        raise TypeError(f"unknown query node {node!r}")  # pragma: no cover

    def _leaf(self, leaf: Leaf, scored: bool = True) -> Any | None:
        """A word or phrase, scored as Whoosh scores it (``scored``), else to match."""
        if leaf.is_filter:
            return self._filter(leaf)
        if leaf.field:
            return self._text_query(TEXT_PREFIXES[leaf.field], leaf.text, scored=scored)
        terms = self.analyze(CONTENT, leaf.text)
        if not terms:
            return None
        if len(terms) == 1:
            return self._term(CONTENT, terms[0]) if scored else Query.term_query(
                self.schema, CONTENT, terms[0]
            )
        # a phrase (or a word split in parts): in the title, the text or the URL words,
        # scored by its words in content
        parts = [self._text_query(name, leaf.text) for name, _ in POSITION_FIELDS]
        match = _or([p for p in parts if p is not None])
        return self._scored_phrase(CONTENT, terms, 0, match=match) if scored else match

    def _filter(self, leaf: Leaf) -> Any | None:
        """A filter, scoring 1 as Whoosh's unscorable ID and KEYWORD fields and its
        constant-score date range do."""
        q = self._filter_match(leaf)
        return None if q is None else Query.const_score_query(q, 1.0)

    def _filter_match(self, leaf: Leaf) -> Any | None:
        value = leaf.text.strip().lower()
        if not value:
            return None
        if leaf.field in ("site", "host", "domain"):
            if "://" in value:
                value = urlsplit(value).hostname or ""
            value = value.split("/", 1)[0].strip(".")
            if not value:
                return None
            return Query.term_query(self.schema, leaf.field, value)
        if leaf.field == "format":
            if "/" in value:
                return Query.term_query(self.schema, "content_type", value)
            return Query.term_query(self.schema, "format", _FORMAT_ALIASES.get(value, value))
        if leaf.field == "updated":
            since = self._now() - updated_period(value)
            return Query.range_query(self.schema, "updated", tantivy.FieldType.Date, since, None)
        raise TypeError(leaf.field)  # pragma: no cover

    def _now(self) -> datetime:
        now = self.now or datetime.now(UTC)
        return now.astimezone(UTC).replace(tzinfo=None) if now.tzinfo else now

    def _near(self, node: Near) -> Any | None:
        operands: list[Leaf] = []
        for child in node.children:
            if not isinstance(child, Leaf) or child.is_filter:
                raise QuerySyntaxError("NEAR joins words or phrases, e.g. python NEAR/5 json")
            operands.append(child)
        named = {TEXT_PREFIXES[c.field] for c in operands if c.field}
        if len(named) > 1:
            raise QuerySyntaxError("NEAR needs its words in the same field")
        fields = sorted(named) if named else [name for name, _ in POSITION_FIELDS]
        # scored as Whoosh's SpanNear2: the sum of its words' scores in content (or in
        # the field named)
        score_field = sorted(named)[0] if named else CONTENT
        scored_terms = [t for leaf in operands for t in self.analyze(score_field, leaf.text)]
        parts: list[Any] = []
        for fieldname in fields:
            spans = [t for t in (self.analyze(fieldname, leaf.text) for leaf in operands) if t]
            if not spans:
                continue
            if len(spans) == 1:
                q = self._terms_query(fieldname, spans[0], 0)
            else:
                if len(spans) <= MAX_NEAR_PERMUTATIONS:
                    orders = list(itertools.permutations(spans))
                else:
                    orders = [tuple(spans), tuple(reversed(spans))]
                slop = max(0, node.distance - 1) * (len(spans) - 1)
                q = _or(
                    [
                        self._terms_query(fieldname, [t for span in order for t in span], slop)
                        for order in orders
                    ]
                )
            parts.append(q)
        if not parts:
            return None
        return self._scored_phrase(score_field, scored_terms, 0, match=_or(parts))

    def _terms_query(self, fieldname: str, terms: list[str], slop: int) -> Any:
        if len(terms) == 1:
            return Query.term_query(self.schema, fieldname, terms[0])
        return Query.phrase_query(self.schema, fieldname, terms, slop)


class TantivySearchEngine(SearchEngine):
    """SearchEngine on a Tantivy index (same interface, results and ranking)."""

    @staticmethod
    def _open(index: Any) -> TantivyIndex:
        return index if isinstance(index, TantivyIndex) else TantivyIndex(index, create=False)

    def _prepare(self) -> None:
        self._max_factor: tuple[Any, float] | None = None
        self._max_doc: tuple[tuple[int, int], int] | None = None
        self._name_vocabulary: tuple[tuple[int, int, int], str | None] | None = None

    def close(self) -> None:
        pass

    def compiler(  # type: ignore[override]
        self,
        doc_frequency: Callable[[str, str], int] | None = None,
        doc_count: int = 0,
        scoring_doc_count: int = 0,
    ) -> TantivyCompiler:
        return TantivyCompiler(
            self.ix.schema,
            near_distance=self.near_distance,
            boosts=self.boosts,
            doc_frequency=doc_frequency,
            doc_count=doc_count,
            name_vocabulary=self.name_vocabulary(),
            scoring_doc_count=scoring_doc_count,
        )

    def max_doc(self, searcher: Any) -> int:
        """The documents Tantivy's BM25 counts (its idf's N): those of the segments,
        deleted ones included until a merge drops them, as its document frequencies
        count them. The Python binding tells the live ones only; each document holds one
        ``host`` term, and the terms' document counts include the deleted documents."""
        key = (searcher.num_docs, searcher.num_segments)
        cached = self._max_doc
        if cached is None or cached[0] != key:
            counted = sum(count for _, count in searcher.terms_with_prefix("host", ""))
            cached = (key, max(searcher.num_docs, counted))
            self._max_doc = cached
        return cached[1]

    def name_vocabulary(self) -> str | None:
        """The index's name-part vocabulary (read_name_terms), read again when the file
        changed (the writers append to it)."""
        try:
            stat = (self.ix.path / NAME_TERMS).stat()
        except FileNotFoundError:
            return None
        key = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        cached = self._name_vocabulary
        if cached is None or cached[0] != key:
            cached = (key, read_name_terms(self.ix.path))
            self._name_vocabulary = cached
        return cached[1]

    def doc_count(self) -> int:
        return self.ix.searcher().num_docs

    def formats(self) -> list[str]:
        return sorted(term for term, _ in self.ix.searcher().terms_with_prefix("format", ""))

    def search(
        self,
        text: str,
        *,
        page: int = 1,
        per_page: int = defaults.SEARCH_RESULTS_PER_PAGE,
        lang: str = "",
    ) -> SearchResults:
        started = time.perf_counter()
        page = max(1, page)
        per_page = max(1, min(MAX_PER_PAGE, per_page))
        results = SearchResults(query=text, page=page, per_page=per_page)
        explicit = _LANG_PREFIX.findall(text)
        words = _LANG_PREFIX.sub(" ", text) if explicit else text
        searcher = self.ix.searcher()
        compiler = self.compiler(searcher.doc_freq, searcher.num_docs, self.max_doc(searcher))
        try:
            parsed = compiler.parse(words)
        except QuerySyntaxError as exc:
            results.error = str(exc)
            results.elapsed = time.perf_counter() - started
            return results
        results.lang = query_language(
            " ".join(leaf.text for leaf in leaves(parsed.tree) if not leaf.is_filter)
            if parsed.tree is not None
            else "",
            explicit=explicit[-1] if explicit else "",
            preferred=lang,
            default=self.default_language,
        )
        if not parsed.empty:
            self._collect(searcher, parsed, results)
        results.suggestion = self._suggest(searcher, parsed, compiler)
        results.elapsed = time.perf_counter() - started
        return results

    # ranking -------------------------------------------------------------------------
    def _blend_bound(self, searcher: Any) -> float:
        """The largest factor the PageRank blend gives a page of this index."""
        cached = self._max_factor
        if cached is not None and cached[0] is searcher:
            return cached[1]
        agg = searcher.aggregate(Query.all_query(), {"m": {"max": {"field": "pagerank"}}})
        top = (agg.get("m") or {}).get("value") or 0.0
        factor = blend(1.0, float(top), self.pagerank_weight)
        self._max_factor = (searcher, factor)
        return factor

    def _top(
        self,
        searcher: Any,
        q: Any,
        limit: int,
        lang: str,
        parsed: TantivyParsed | None = None,
    ) -> tuple[list[tuple[float, Any]], int]:
        """The best ``limit`` (blended score, address) of ``q`` and its match count; with
        ``parsed`` (the first tier) holding a proximity bonus to rescore, it is added to
        the best ``RESCORE_WINDOW`` hits (LONG_RESCORE_WINDOW for a long query) before
        the best ``limit`` are kept, as Whoosh and Elasticsearch rescore
        (PROXIMITY_PROBE_DOCS)."""
        rescore = parsed.proximity if parsed is not None else []
        final = limit
        if rescore:
            long = parsed is not None and parsed.proximity_terms >= LONG_RESCORE_TERMS
            limit = max(limit, LONG_RESCORE_WINDOW if long else RESCORE_WINDOW)
        if self.pagerank_weight > 0 and self.pagerank_weight != self.ix.blend_weight:
            top, count = self._top_window(searcher, q, limit)
        else:
            # Tantivy ranks by the blended score itself (the ``pagerank_blend`` field is
            # the blend's factor for this weight): one pass over the matches, counted in it
            result = searcher.search(
                q,
                limit,
                count=True,
                weight_by_field="pagerank_blend" if self.pagerank_weight > 0 else None,
            )
            top, count = list(result.hits), result.count
        if rescore and top:
            few = count <= RESCORE_ALL_MATCHES
            top = self._rescored(searcher, top, rescore, q if few else None)
        top = top[:final]
        if lang and self.other_language != 1.0 and top:
            codes = searcher.fast_field_values("lang_code", [a for _, a in top])
            top = sorted(
                (
                    (s * language_factor(lang_from_code(c), lang, self.other_language), a)
                    for (s, a), c in zip(top, codes, strict=True)
                ),
                key=lambda pair: (-pair[0], pair[1].segment_ord, pair[1].doc),
            )
        return top, count

    def _rescored(
        self,
        searcher: Any,
        top: list[tuple[float, Any]],
        clauses: list[PhraseClause],
        tier: Any | None = None,
    ) -> list[tuple[float, Any]]:
        """``top`` (blended score, address) with each page's proximity bonus added,
        blended with its PageRank like the rest of its score, best first. ``tier``: the
        tier's query when it has few matches (RESCORE_ALL_MATCHES): the clauses are then
        scored on its matches in one search, without finding the hits again."""
        addresses = [a for _, a in top]
        if tier is not None:
            q = Query.boolean_query(
                [
                    (Occur.Must, Query.const_score_query(tier, 0.0)),
                    (Occur.Must, _or([c.query() for c in clauses])),
                ]
            )
            extra = {
                (a.segment_ord, a.doc): score
                for score, a in searcher.search(q, RESCORE_ALL_MATCHES, count=False).hits
                if score > 0
            }
            return self._add_extra(searcher, top, extra)
        # The hits found again by a term each: their url_key, a column read by address
        # (a hit's whole stored document, the page's text, read only for its URL was
        # about 12 % of the engine's time at 1,000,000 pages, docs/search.md); an index
        # of layout 2 has only the URLs. A page sharing a hit's url_key (a 64-bit hash)
        # is found too: its score is not a hit's (``extra`` is taken by address), and
        # the room for twice the hits keeps it from pushing one out.
        if self.ix.has_url_key:
            keys = searcher.fast_field_values("url_key", addresses)
            terms = [("url_key", key) for key in keys]
        else:
            terms = [("url", stored_url(searcher.doc(a).get_first("stored"))) for a in addresses]
        # Each phrase is intersected with the hits (PhraseClause.query): Tantivy then
        # checks the phrase at each hit. Phrases beside the hits, or under a union, are
        # walked from one of their matches to the next between two hits, as costly as
        # probing every match: at 100,000 pages 16.9 ms for 14 phrases as a union beside
        # the hits, 4.6 ms with each clause intersected with them; at 200,000 pages, a
        # description's rescore search 3.95 ms so, 2.38 ms with each phrase intersected
        # (docs/search.md, 2026-11-27). A term set query of the hits' keys instead of a
        # term query each was slower (8.06 ms against 3.69 there).
        only = Query.const_score_query(
            _or([Query.term_query(self.ix.schema, name, value) for name, value in terms]), 0.0
        )
        q = Query.boolean_query(
            [(Occur.Must, only)] + [(Occur.Should, clause.query(only)) for clause in clauses]
        )
        extra = {
            (a.segment_ord, a.doc): score
            for score, a in searcher.search(q, 2 * len(terms), count=False).hits
            if score > 0
        }
        return self._add_extra(searcher, top, extra)

    def _add_extra(
        self, searcher: Any, top: list[tuple[float, Any]], extra: dict[tuple[int, int], float]
    ) -> list[tuple[float, Any]]:
        """``top`` with the raw bonus ``extra`` of its pages added, blended, best first."""
        if not extra:
            return top
        addresses = [a for _, a in top]
        ranks = searcher.fast_field_values("pagerank", addresses)
        rescored = [
            (s + blend(extra.get((a.segment_ord, a.doc), 0.0), pr or 0.0, self.pagerank_weight), a)
            for (s, a), pr in zip(top, ranks, strict=True)
        ]
        return sorted(rescored, key=lambda pair: (-pair[0], pair[1].segment_ord, pair[1].doc))

    def _top_window(
        self, searcher: Any, q: Any, limit: int
    ) -> tuple[list[tuple[float, Any]], int]:
        """``_top`` for a PageRank weight other than the index's ``pagerank_blend``: the
        best hits by raw score, blended in Python, in a window widened until no page
        beyond it could reach the top once blended (the largest factor of the index)."""
        window = max(limit, FIRST_WINDOW)
        bound = self._blend_bound(searcher)
        count: int | None = None
        while True:
            # the match count once: counting visits every match, so a wider window asks
            # without it and Tantivy's block-max pruning can skip what cannot enter it
            result = searcher.search(q, window, count=count is None)
            if count is None:
                count = result.count
            hits = result.hits
            ranks = searcher.fast_field_values("pagerank", [a for _, a in hits]) if hits else []
            scored = [
                (blend(s, pr or 0.0, self.pagerank_weight), a)
                for (s, a), pr in zip(hits, ranks, strict=True)
            ]
            scored.sort(key=lambda pair: (-pair[0], pair[1].segment_ord, pair[1].doc))
            if len(hits) < window or window >= count:
                break
            # a page beyond the window scores at most its raw score times the bound
            if len(scored) >= limit and scored[limit - 1][0] >= hits[-1][0] * bound:
                break
            window *= 16
        return scored[:limit], count

    def _collect(self, searcher: Any, parsed: TantivyParsed, out: SearchResults) -> None:
        first = (out.page - 1) * out.per_page
        wanted = out.page * out.per_page
        tiered = len(parsed.tiers) > 1
        before: list[Any] = []
        groups: list[Group] = []
        hits: dict[tuple[int, int], tuple[Any, int]] = {}
        matched = 0
        urls: dict[Any, str] = {}

        def url_of(key: Any) -> str:
            if key not in urls:
                urls[key] = stored_url(searcher.doc(hits[key][0]).get_first("stored"))
            return urls[key]

        for number, tier in enumerate(parsed.tiers):
            q = _without(tier, [_or(before)]) if before else tier
            before.append(tier)
            if len(groups) >= wanted + GROUP_WINDOW:
                # only counted: unscored (a two-word query's second tier, every page of
                # either word, was scored only to be counted)
                matched = searcher.search(
                    Query.const_score_query(tier, 0.0), 1, count=True
                ).count
                continue
            top, count = self._top(
                searcher,
                parsed.scored(q, number == 0),
                wanted + GROUP_WINDOW - len(groups),
                out.lang,
                parsed if number == 0 else None,
            )
            matched += count
            if not top:
                continue
            addresses = [a for _, a in top]
            codes = searcher.fast_field_values("lang_code", addresses)
            variants = searcher.fast_field_values("variant_key", addresses)
            copies = searcher.fast_field_values("copy_key", addresses)
            ranked = []
            for (score, address), code, variant, copy in zip(
                top, codes, variants, copies, strict=True
            ):
                key = (address.segment_ord, address.doc)
                hits[key] = (address, number)
                ranked.append(
                    Candidate(
                        key,
                        score,
                        lang_from_code(code),
                        str(variant or ""),
                        str(copy) if copy else "",
                    )
                )
            group_variants(ranked, out.lang, groups, url_of)
        collapsed = sum(len(g.members) - 1 for g in groups)
        out.total = matched - collapsed
        shown_groups = groups[first:wanted]
        if not shown_groups:
            return
        snippets = self._snippet_generator(searcher, parsed)
        for rank, group in enumerate(shown_groups, start=first + 1):
            assert group.shown is not None
            address, number = hits[group.shown.key]
            stored = load_stored(searcher.doc(address).get_first("stored"))
            shown = self._stored_hit(stored, rank, snippets, (number == 0) if tiered else None)
            shown.score = group.members[0].score
            shown.lang = group.shown.lang
            shown.variants = []
            for member in group.others:
                other = load_stored(searcher.doc(hits[member.key][0]).get_first("stored"))
                shown.variants.append(
                    {"url": other["url"], "title": other.get("title", ""), "lang": member.lang}
                )
            out.hits.append(shown)

    # snippets ------------------------------------------------------------------------
    def _snippet_generator(
        self, searcher: Any, parsed: TantivyParsed
    ) -> tuple[Any, list[str]] | None:
        terms = parsed.snippet_terms
        if len(terms) > SNIPPET_TERMS:
            terms = sorted(terms, key=lambda t: (searcher.doc_freq("body", t), t))[:SNIPPET_TERMS]
        if not terms:
            return None
        q = _or([Query.term_query(self.ix.schema, "body", t) for t in terms])
        generator = tantivy.SnippetGenerator.create(searcher, q, self.ix.schema, "body")
        generator.set_max_num_chars(self.snippet_chars)
        return generator, terms

    def _snippet(self, generator: tuple[Any, list[str]] | None, body: str) -> str:
        if generator is None or not body:
            return ""
        maker, terms = generator
        # Tantivy's generator analyses all the text it is given: a long page's body (up to
        # SEARCH_MAX_BODY_CHARS) was 88 % of a search's CPU on Python's documentation. It
        # gets the stretch where the query's words are densest instead.
        width = max(SNIPPET_WINDOW_CHARS, 4 * self.snippet_chars)
        start, end = snippet_window(body, terms, width, self.snippet_chars)
        text = body[start:end]
        snippet = maker.snippet_from_doc(tantivy.Document(body=text))
        ranges = snippet.highlighted()
        if not ranges:
            return ""
        where = snippet.fragment_range()
        raw = text.encode()
        fragment = snippet.fragment().encode()
        # a text no longer than the snippet is shown whole (as Whoosh's fragmenter does)
        whole = len(body) <= self.snippet_chars
        head = raw[: where.start] if whole else b""
        tail = raw[where.start + len(fragment) :] if whole else b""
        parts, last = [html.escape(head.decode(errors="replace"), quote=True)], 0
        for r in sorted(ranges, key=lambda r: r.start):
            parts.append(html.escape(fragment[last : r.start].decode(errors="replace"), quote=True))
            word = fragment[r.start : r.end].decode(errors="replace")
            parts.append("<mark>" + html.escape(word, quote=True) + "</mark>")
            last = r.end
        parts.append(html.escape(fragment[last:].decode(errors="replace"), quote=True))
        parts.append(html.escape(tail.decode(errors="replace"), quote=True))
        text = "".join(parts)
        if whole:
            return text
        return (
            ("… " if start > 0 or where.start > 0 else "")
            + text.strip()
            + (" …" if end < len(body) or where.start + len(fragment) < len(raw) else "")
        )

    def _stored_hit(
        self, stored: dict[str, Any], rank: int, generator: Any | None, matched_all: bool | None
    ) -> SearchHit:
        body = stored.get("body", "")
        snippet = self._snippet(generator, body)
        if not snippet and body:
            snippet = html.escape(_leading_text(body, self.snippet_chars), quote=True)
        return SearchHit(
            rank=rank,
            url=stored["url"],
            title=stored.get("title", ""),
            snippet_html=snippet,
            score=0.0,
            pagerank=float(stored.get("pagerank") or 0.0),
            host=stored.get("host", ""),
            content_type=stored.get("content_type", ""),
            fetched=stored.get("fetched"),
            modified=stored.get("modified"),
            matched_all=matched_all,
        )

    # did you mean --------------------------------------------------------------------
    def _suggest(  # type: ignore[override]
        self, searcher: Any, parsed: TantivyParsed, compiler: TantivyCompiler
    ) -> str | None:
        replacements: list[tuple[int, int, str]] = []
        vocabularies: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for leaf in leaves(parsed.tree):
            if leaf.phrase or leaf.field not in (None, "title", "body"):
                continue
            word = leaf.text
            if len(word) < 3 or not word.isalpha():
                continue
            terms = compiler.analyze(CONTENT, word)
            if not terms:
                continue
            if any(searcher.doc_freq(CONTENT, term) > 0 for term in terms):
                continue
            name = "title" if leaf.field == "title" else CONTENT
            term = terms[0]
            key = (name, term[0])
            if key not in vocabularies:
                vocabularies[key] = searcher.terms_with_prefix(name, term[0])
            best: tuple[int, int, str] | None = None
            for candidate, count in vocabularies[key]:
                if abs(len(candidate) - len(term)) > 2:
                    continue
                distance = OSA.distance(term, candidate, score_cutoff=2)
                if distance <= 2 and (best is None or (distance, -count, candidate) < best):
                    best = (distance, -count, candidate)
            if best is not None:
                fields = ("title", "body") if name == "title" else ("body", "title")
                replacements.append(
                    (leaf.start, leaf.end, self._surface(searcher, best[2], fields))
                )
        if not replacements:
            return None
        text = parsed.text
        for start, end, word in sorted(replacements, reverse=True):
            text = text[:start] + word + text[end:]
        return text

    def _surface(self, searcher: Any, term: str, fields: tuple[str, ...]) -> str:
        """A word of the indexed text whose stem is ``term`` (see engine._surface_word)."""
        for name in fields:
            result = searcher.search(Query.term_query(self.ix.schema, name, term), 1, count=False)
            if not result.hits:
                continue
            stored = load_stored(searcher.doc(result.hits[0][1]).get_first("stored"))
            text = stored.get(name) or ""
            for token_text, start, end in tantivy_tokens(text):
                if token_text == term:
                    # (character offsets: slicing the UTF-8 bytes shifted the word after any
                    # non-ASCII character: "Did you mean: n pyth" for "pyhton")
                    return text[start:end].lower()
        return term


def tantivy_tokens(text: str) -> list[tuple[str, int, int]]:
    """(term, start, end) of ``text`` analysed by the text analyzer; start and end are
    character offsets into ``text`` (not UTF-8 byte offsets)."""
    from crawler.search.tantivy_index import _ANALYZERS

    tokenized = _ANALYZERS[TEXT_ANALYZER].pre_tokenize(text)
    return [(t.text, t.char_offset_from, t.char_offset_to) for t in tokenized.tokens]
