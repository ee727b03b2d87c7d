"""Query compiler: syntax trees to Whoosh query objects (result tiers, filters, NEAR,
XOR) and the scored-only bonuses (title, exact title and URL name, proximity)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from urllib.parse import urlsplit

from whoosh import query as wq
from whoosh.matching import AndNotMatcher
from whoosh.query.compound import DefaultOr, PreloadedOr
from whoosh.query.spans import SpanNear2

from crawler import defaults
from crawler.search.preload import BlockOr, BlockPreloadedOr, PreloadedAndMaybe
from crawler.search.proximity import Proximity
from crawler.search.query.tokens import TEXT_PREFIXES, QuerySyntaxError
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
    with_names,
)
from crawler.search.ranking import DESCRIPTION_MIN_WORDS, Boosts, query_boosts
from crawler.search.schema import TEXT_FIELDS

# a compiled query of either backend (whoosh.query.Query, tantivy.Query)
Q = TypeVar("Q")

#: Queries of fewer plain words are names, not descriptions: no lead bonus.
LEAD_MIN_TERMS = 3
#: Words allowed between two query words for the proximity bonus (Whoosh's phrase slop).
PROXIMITY_SLOP = 3
#: Queries with more consecutive word pairs get the whole-phrase bonus only.
MAX_PROXIMITY_PAIRS = 4
#: Queries of this many plain words or more (descriptions and sentences) are ranked in
#: one tier of pages holding any of them (a sentence: any of its uncommon words), not
#: "all the words first": a user describing a page in other words shares most of them
#: with it, rarely all, while long pages hold all of them by chance.
ONE_TIER_MIN_WORDS = DESCRIPTION_MIN_WORDS
#: The whole-sequence bonuses (lead phrase, proximity) look at a sentence's first words
#: only: its 20-30 words in order cost a quarter of such a search, its first 16 in order
#: are as telling.
SEQUENCE_TERMS = 16
#: Long queries (this many words or more, a sentence), when COMMON_TERMS is on: their
#: any-word tier matches the pages holding one of their uncommon words (in at most
#: COMMON_SHARE of the pages); the common words only add their score there and get no
#: bonus (Lucene's common-terms query). Every page of the all-words tier still holds them
#: all.
COMMON_TERMS_MIN_WORDS = 8
COMMON_SHARE = 0.1
#: Off since the twenty-first round (docs/search.md): a sentence is ranked as a
#: description is, its one tier the pages holding any of its words, each word with its
#: bonuses. A paraphrase shares its common words with the page it describes (the
#: collection's own vocabulary: "compiled objects ... sources" in a build tool's manual)
#: while its uncommon words are often the user's own ("folder", "away", "nobody"), which
#: that page lacks: matching the uncommon words only left it out of the results, and the
#: common words' title, heading and lead bonuses are what tells it from its neighbours.
COMMON_TERMS = False
#: ... and when every word is common, the pages holding one of the rarest few.
RAREST_WORDS = 2
#: The name-part bonus: a word of a name query (as typed, letters only, at least
#: NAME_PART_MIN_CHARS) found inside a longer word of a page's title or URL name
#: (``hooks`` in ``githooks``, ``rewrite`` in ``mod_rewrite``, ``index`` in
#: ``createindex``) adds a constant per field, as the exact bonus does: NAME_PART_FACTOR
#: of the exact bonus of a word found in one page (its BM25 idf, about ln(1 + pages)), so
#: it weighs alike against the text's score at any index size. Both backends score a
#: regular-expression match as a constant (Tantivy cannot weigh its terms apart).
NAME_PART_MIN_CHARS = 4
NAME_PART_FACTOR = 0.5
_NAME_PART_WORD = re.compile(rf"[^\W\d_]{{{NAME_PART_MIN_CHARS},}}")


def holds_name_part(term: str, word: str) -> bool:
    """Whether an exact term holds ``word`` inside it and is longer (what the name-part
    bonus's regular expression ``.+word.*|.*word.+`` matches)."""
    return len(term) > len(word) and word in term


_PERIODS = {"day": 1, "week": 7, "month": 31, "year": 366}
_PERIOD_N = re.compile(r"(\d{1,5})([dwmy]?)")
_FORMAT_ALIASES = {"htm": "html", "xhtml": "html", "txt": "text", "plain": "text"}


class _AndNotMatcher(AndNotMatcher):
    """Whoosh's AndNotMatcher, checking the first page too: whoosh-reloaded 2.7.5 looks
    for the first positive page among the negative matcher's pages only when the negative
    matcher stands on that very page, so a first page that the negative part holds
    further on was kept (``filename somefile rm -rf`` found the one page holding "rf",
    Tantivy did not; docs/search.md, *Relevance parity*)."""

    def _find_first(self) -> None:
        if self.a.is_active() and self.b.is_active():
            self._find_next()


class AndNot(wq.AndNot):
    """``a`` without the pages of ``b`` (Whoosh's AndNot with _AndNotMatcher)."""

    def matcher(self, searcher: Any, context: Any = None) -> Any:
        scored = self.a.matcher(searcher, context)
        negative = self.b.matcher(searcher, searcher.boolean_context())
        return _AndNotMatcher(scored, negative)


def _any(parts: list[wq.Query], lazy: bool = False, preload: bool = False) -> wq.Query | None:
    """Or of ``parts``; ``lazy`` for a part only scored where others match (a bonus):
    Whoosh's Or on an index of up to 5,000 pages preloads and scores every posting of
    its terms (PreloadedOr), which for a sentence's 20 words in several bonus fields was
    most of a search's time; DefaultOr's union matchers skip to the pages asked for.
    ``preload``: the bonus of a query matching about every page its terms are on (a
    description's any-word tier), where skipping saves nothing: its postings read and
    scored once into an array (PreloadedOr, the same scores) instead of a union tree
    asked for each matching page (a quarter of such a search's CPU, docs/search.md,
    *Fifteenth round*), its term postings read a block at a time (BlockPreloadedOr,
    *Sixteenth round*)."""
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    if preload:
        # one array of all the parts (a bonus of bonuses flattened: the same sums)
        flat: list[wq.Query] = []
        for part in parts:
            flat += part.subqueries if isinstance(part, PreloadedOr) else [part]
        return BlockPreloadedOr(flat)
    return DefaultOr(parts) if lazy else wq.Or(parts)


@dataclass
class ParsedQuery:
    """A compiled query: result tiers searched in order (each without the pages of the
    tiers before it), and the tree it came from. Each tier matches every page of the
    tiers before it (plain words: all of them, then any of them)."""

    text: str
    tree: Node | None
    tiers: list[wq.Query] = field(default_factory=list)
    # Scored, never matched: title terms of the words without prefix. Matching is decided
    # by the content field (which holds the title); a title holding the words adds its
    # BM25F score (times the title boost), probed for matching pages only.
    bonus: wq.Query | None = None
    # Scored in the first tier only (the pages holding all the words, where the order
    # is decided): the exact, lead and proximity bonuses. Probing them for every page of
    # the any-word tier of a long query would cost seconds.
    first_bonus: wq.Query | None = None
    # The proximity bonus: probed for the best RESCORE_WINDOW pages of the first tier
    # only (spans on every matching page tripled the time of two-word queries).
    proximity: Proximity | None = None
    # The bonuses as one preloaded array (``_any``'s ``preload``): a description's
    # any-word tier matches nearly every page holding a bonus's terms.
    preload: bool = False

    @property
    def empty(self) -> bool:
        return not self.tiers

    def scored(self, q: wq.Query, first: bool = True) -> wq.Query:
        """``q`` with the bonuses (those of the first tier only if ``first``)."""
        parts = [b for b in (self.bonus, self.first_bonus if first else None) if b is not None]
        if not parts:
            return q
        if self.preload:
            # a description's tier and its bonuses in one preloaded matcher
            return PreloadedAndMaybe(q, _any(parts, lazy=True, preload=True))
        return wq.AndMaybe(q, _any(parts, lazy=True, preload=self.preload))


class CompilerBase:
    """What both backends' compilers share: the settings of a compilation and the test
    of a long query's common words. A backend's compiler says in which field its
    document frequencies are read (``frequency_field``) and how a field analyses text."""

    frequency_field: str = TEXT_FIELDS[0]

    def __init__(
        self,
        schema: Any,
        *,
        near_distance: int = defaults.SEARCH_NEAR_DISTANCE,
        boosts: Boosts | None = None,
        now: datetime | None = None,
        doc_frequency: Callable[[str, str], int] | None = None,
        doc_count: int = 0,
        vocabulary: Callable[[str], Sequence[str]] | None = None,
    ) -> None:
        """``doc_frequency(fieldname, term)`` and ``doc_count``: of the index searched,
        to tell a long query's common words (COMMON_TERMS_MIN_WORDS)."""
        self.schema = schema
        self.boosts = boosts or Boosts()
        self.near_distance = near_distance
        self.now = now
        self.doc_frequency = doc_frequency
        self.doc_count = doc_count
        # the terms of a field (the exact title and URL name), for the name-part bonus
        self.vocabulary = vocabulary
        self._common: set[int] = set()  # id() of the parsed query's common leaves

    def analyze(self, fieldname: str, text: str) -> list[str]:
        """The indexed terms of ``text`` in a field (the backend's analysis)."""
        raise NotImplementedError

    def name_part_words(self, leaves: list[Leaf]) -> tuple[list[str], float]:
        """The words of a name query that get the name-part bonus (lower case, each
        once), and the bonus's constant score (0: none)."""
        score = NAME_PART_FACTOR * self.boosts.exact * math.log1p(max(1, self.doc_count))
        words: list[str] = []
        for leaf in leaves:
            word = leaf.text.lower()
            if leaf.phrase or not _NAME_PART_WORD.fullmatch(word):
                continue
            if word not in words:
                words.append(word)
        return (words, score) if score > 0 and words else ([], 0.0)

    def name_parts(self, leaves: list[Leaf]) -> tuple[list[str], float]:
        """The words of a name query that get the name-part bonus, as regular expressions
        matching a longer exact term that holds them (either backend's regex syntax:
        ``holds_name_part``), and the bonus's constant score (0: none)."""
        words, score = self.name_part_words(leaves)
        patterns = [f".+{re.escape(w)}.*|.*{re.escape(w)}.+" for w in words]
        return patterns, score

    def _bonus_leaves(self, tree: Node) -> list[Leaf]:
        """The query's words and phrases without prefix, outside NOT (a long query's
        common words left out: their bonuses cost time and tell little)."""
        return with_names(
            [
                leaf
                for leaf in positive_leaves(tree)
                if leaf.field is None and id(leaf) not in self._common
            ]
        )

    def _common_leaves(self, tree: Node) -> set[int]:
        """id() of the common plain words of a long query (top level, COMMON_TERMS_MIN_WORDS
        or more): those in more than COMMON_SHARE of the pages, all but the RAREST_WORDS
        rarest when every word is common. Empty without document frequencies, and when
        COMMON_TERMS is off (the default)."""
        if (
            not COMMON_TERMS
            or self.doc_frequency is None
            or not (isinstance(tree, And) and tree.implicit)
        ):
            return set()
        plain = [
            child
            for child in tree.children
            if isinstance(child, Leaf)
            and child.field is None
            and not child.is_filter
            and self.analyze(self.frequency_field, child.text)  # not a stop word
        ]
        if len(plain) < COMMON_TERMS_MIN_WORDS:
            return set()
        frequency = {
            id(leaf): max(
                (
                    self.doc_frequency(self.frequency_field, t)
                    for t in self.analyze(self.frequency_field, leaf.text)
                ),
                default=0,
            )
            for leaf in plain
        }
        ranked = sorted(plain, key=lambda leaf: frequency[id(leaf)])
        rare = [leaf for leaf in ranked if frequency[id(leaf)] <= COMMON_SHARE * self.doc_count]
        keep = {id(leaf) for leaf in (rare or ranked[:RAREST_WORDS])}
        return {id(leaf) for leaf in plain if id(leaf) not in keep}


class QueryCompiler(CompilerBase):
    """Turns syntax trees into Whoosh queries for one schema."""

    # whether the last compiled tree is one any-word tier (a description)
    _one_any_word_tier = False

    # public -------------------------------------------------------------------------
    def parse(self, text: str) -> ParsedQuery:
        tree = parse(text, self.near_distance)
        parsed = ParsedQuery(text, tree)
        if tree is None:
            return parsed
        self._common = self._common_leaves(tree)
        parsed.tiers = [q for q in self._tiers(tree) if q is not None]
        parsed.preload = self._one_any_word_tier
        # a description's bonuses weigh less (crawler.search.ranking.query_boosts)
        words = plain_words(tree, lambda text: self.analyze(TEXT_FIELDS[0], text))
        base, self.boosts = self.boosts, query_boosts(self.boosts, words)
        try:
            self._bonuses(tree, parsed)
        finally:
            self.boosts = base
        return parsed

    def _bonuses(self, tree: Node, parsed: ParsedQuery) -> None:
        parsed.bonus = _any(
            self._field_bonus(tree, "title", self.boosts.title)
            + self._field_bonus(tree, "headings", self.boosts.heading)
            + self._field_bonus(tree, "inlinks", self.boosts.anchor)
            + self._field_bonus(tree, "context", self.boosts.context),
            lazy=True,
            preload=parsed.preload,
        )
        parsed.first_bonus = _any(
            self._lead_bonus(tree) + self._exact_bonus(tree), lazy=True, preload=parsed.preload
        )
        parsed.proximity = self._proximity_bonus(tree)

    def _field_bonus(self, tree: Node, fieldname: str, boost: float) -> list[wq.Query]:
        """Terms of the query's words without prefix (outside NOT) in one field."""
        if boost <= 0 or fieldname not in self.schema:
            return []
        parts: list[wq.Query] = []
        for leaf in self._bonus_leaves(tree):
            q = self._text_query(fieldname, leaf.text, boost)
            if q is not None and q not in parts:
                parts.append(q)
        return parts

    def _plain_terms(self, tree: Node) -> list[str]:
        """The content terms of the query's plain words (no prefix, no phrase, not
        negated), in query order."""
        terms: list[str] = []
        for leaf in positive_leaves(tree):
            if leaf.field is None and not leaf.phrase:
                terms += self.analyze(TEXT_FIELDS[0], leaf.text)
        return terms

    def _lead_bonus(self, tree: Node) -> list[wq.Query]:
        """Lead terms of a description query (LEAD_MIN_TERMS words or more): a name is
        often documented deep in a long reference page, while a page's own summary
        sentence is at its start."""
        terms = self._plain_terms(tree)
        if len(terms) < LEAD_MIN_TERMS or self.boosts.lead <= 0 or "lead" not in self.schema:
            return []
        # its words, and all of them in order (the sentence itself, not a list of them)
        return [
            *self._field_bonus(tree, "lead", self.boosts.lead),
            wq.Phrase("lead", terms[:SEQUENCE_TERMS], slop=PROXIMITY_SLOP, boost=self.boosts.lead),
        ]

    def _exact_bonus(self, tree: Node) -> list[wq.Query]:
        """The words as typed (lower case, unstemmed) in the exact title and URL name, and
        inside a longer word there (the name-part bonus, a constant score)."""
        if self.boosts.exact <= 0 or "title_exact" not in self.schema:
            return []
        parts: list[wq.Query] = []
        leaves = self._bonus_leaves(tree)
        for leaf in leaves:
            for fieldname in ("title_exact", "url_name"):
                q = self._text_query(fieldname, leaf.text, self.boosts.exact)
                if q is not None and q not in parts:
                    parts.append(q)
        patterns, score = self.name_parts(leaves)
        for pattern in patterns:
            for fieldname in ("title_exact", "url_name"):
                if self.vocabulary is None:
                    inside: wq.Query = wq.Regex(fieldname, pattern)
                else:
                    # the terms the pattern matches, from the engine's list of the field's
                    # terms: Whoosh's Regex reads the whole term list of the field two or
                    # three times per search (20-30 ms per name query on 1,169 pages)
                    matched = re.compile(pattern).fullmatch
                    terms = [t for t in self.vocabulary(fieldname) if matched(t)]
                    if not terms:
                        continue
                    inside = wq.Or([wq.Term(fieldname, t) for t in terms])
                parts.append(wq.ConstantScoreQuery(inside, score))
        return parts

    def _proximity_bonus(self, tree: Node) -> Proximity | None:
        """Each consecutive pair of the query's plain words within PROXIMITY_SLOP words in
        any order, and all of them in order (Solr's pf2 and pf, sloppy): a page with the
        words close together scores above one with the same words scattered, and in the
        query's order above reversed. Pairs for short queries only: a sentence is served
        by the whole sequence."""
        plain = [leaf for leaf in positive_leaves(tree) if leaf.field is None and not leaf.phrase]
        if self.boosts.proximity <= 0 or len(plain) < 2:
            return None  # (one word split in parts, json.dumps, is a phrase already)
        terms = self._plain_terms(tree)
        if len(terms) < 2:
            return None
        pairs = [(a, b) for a, b in zip(terms, terms[1:], strict=False) if a != b]
        return Proximity(
            fieldname=TEXT_FIELDS[0],
            terms=tuple(terms[:SEQUENCE_TERMS]),
            pairs=tuple(dict.fromkeys(pairs)) if len(pairs) <= MAX_PROXIMITY_PAIRS else (),
            whole=len(terms) > 2,
            slop=PROXIMITY_SLOP,
            boost=self.boosts.proximity,
        )

    def analyze(self, fieldname: str, text: str) -> list[str]:
        """The indexed terms of ``text`` in a field (stemmed, stop words removed)."""
        return list(self.schema[fieldname].process_text(text, mode="query"))

    # tiers --------------------------------------------------------------------------
    def _tiers(self, tree: Node) -> list[wq.Query | None]:
        self._one_any_word_tier = False
        if isinstance(tree, And) and tree.implicit:
            positives, common, filters, negatives = split_conjunction(
                tree, self.compile, self._common
            )
            if len(positives) >= 2:
                every = self._without(wq.And(positives + filters), negatives)
                anyone = BlockOr(positives)
                if common and len(common) < len(positives):
                    # a long query: the pages holding one of its uncommon words, the
                    # common ones scored there (Lucene's common-terms query)
                    rare = [q for q in positives if not any(q is c for c in common)]
                    anyone = wq.AndMaybe(_any(rare), _any(common, lazy=True))
                anyone = self._without(wq.And([anyone, *filters]) if filters else anyone, negatives)
                if len(positives) >= ONE_TIER_MIN_WORDS:
                    # a description or a sentence: long pages hold all its words by
                    # chance, the page described often misses one or two; BM25F already
                    # prefers pages with more of them (and the lead and proximity
                    # bonuses a page holding the sentence itself)
                    self._one_any_word_tier = True
                    return [anyone]
                return [every, anyone]
        return [self.compile(tree)]

    @staticmethod
    def _without(q: wq.Query, negatives: list[wq.Query]) -> wq.Query:
        if not negatives:
            return q
        return AndNot(q, negatives[0] if len(negatives) == 1 else wq.Or(negatives))

    # nodes --------------------------------------------------------------------------
    def compile(self, node: Node) -> wq.Query | None:
        if isinstance(node, Leaf):
            return self._leaf(node)
        if isinstance(node, Not):
            child = self.compile(node.child)
            return None if child is None else wq.Not(child)
        if isinstance(node, And):
            positives: list[wq.Query] = []
            negatives: list[wq.Query] = []
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
            base: wq.Query
            if not positives:
                base = wq.Every()
            else:
                base = positives[0] if len(positives) == 1 else wq.And(positives)
            return self._without(base, negatives)
        if isinstance(node, Or):
            parts = [q for q in (self.compile(c) for c in node.children) if q is not None]
            if not parts:
                return None
            return parts[0] if len(parts) == 1 else wq.Or(parts)
        if isinstance(node, Xor):
            left, right = self.compile(node.left), self.compile(node.right)
            if left is None or right is None:
                return left or right
            return AndNot(wq.Or([left, right]), wq.And([left, right]))
        if isinstance(node, Near):
            return self._near(node)
        raise TypeError(f"unknown query node {node!r}")  # pragma: no cover

    def _text_query(self, fieldname: str, text: str, boost: float = 1.0) -> wq.Query | None:
        terms = self.analyze(fieldname, text)
        if not terms:
            return None
        if len(terms) == 1:
            return wq.Term(fieldname, terms[0], boost=boost)
        # one word giving several terms (json.dumps -> json, dump) or a phrase
        return wq.Phrase(fieldname, terms, boost=boost)

    def _leaf(self, leaf: Leaf) -> wq.Query | None:
        if leaf.is_filter:
            return self._filter(leaf)
        fields = [TEXT_PREFIXES[leaf.field]] if leaf.field else list(TEXT_FIELDS)
        parts = [q for q in (self._text_query(f, leaf.text) for f in fields) if q is not None]
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else wq.Or(parts)

    def _filter(self, leaf: Leaf) -> wq.Query | None:
        value = leaf.text.strip().lower()
        if not value:
            return None
        if leaf.field in ("site", "host", "domain"):
            if "://" in value:
                value = urlsplit(value).hostname or ""
            value = value.split("/", 1)[0].strip(".")
            if not value:
                return None
            name = {"site": "site", "host": "host", "domain": "domain"}[leaf.field]
            return wq.Term(name, value)
        if leaf.field == "format":
            if "/" in value:
                return wq.Term("content_type", value)
            return wq.Term("format", _FORMAT_ALIASES.get(value, value))
        if leaf.field == "updated":
            return wq.DateRange("updated", self._now() - updated_period(value), None)
        raise TypeError(leaf.field)  # pragma: no cover

    def _now(self) -> datetime:
        now = self.now or datetime.now(UTC)
        return now.astimezone(UTC).replace(tzinfo=None) if now.tzinfo else now

    def _near(self, node: Near) -> wq.Query | None:
        operands: list[Leaf] = []
        for child in node.children:
            if not isinstance(child, Leaf) or child.is_filter:
                raise QuerySyntaxError("NEAR joins words or phrases, e.g. python NEAR/5 json")
            operands.append(child)
        named = {TEXT_PREFIXES[c.field] for c in operands if c.field}
        if len(named) > 1:
            raise QuerySyntaxError("NEAR needs its words in the same field")
        fields = sorted(named) if named else list(TEXT_FIELDS)
        parts: list[wq.Query] = []
        for fieldname in fields:
            spans: list[wq.Query] = []
            for leaf in operands:
                terms = self.analyze(fieldname, leaf.text)
                if not terms:
                    continue  # a stop word
                if len(terms) == 1:
                    spans.append(wq.Term(fieldname, terms[0]))
                else:
                    spans.append(SpanNear2([wq.Term(fieldname, t) for t in terms]))
            if not spans:
                continue
            parts.append(
                spans[0] if len(spans) == 1 else SpanNear2(spans, slop=node.distance, ordered=False)
            )
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else wq.Or(parts)


def updated_period(value: str) -> timedelta:
    """day, week, month, year, or N followed by d, w, m or y (30d, 2w, 6m, 1y)."""
    value = value.strip().lower()
    if value in _PERIODS:
        return timedelta(days=_PERIODS[value])
    match = _PERIOD_N.fullmatch(value)
    if match:
        unit = {"": 1, "d": 1, "w": 7, "m": 31, "y": 366}[match.group(2)]
        return timedelta(days=int(match.group(1)) * unit)
    raise QuerySyntaxError(
        f"updated:{value} is not a period: use day, week, month, year or e.g. 30d"
    )


def plain_words(tree: Node, analyze: Callable[[str], list[str]]) -> int:
    """How many plain words (no prefix, no phrase, not negated, not only stop words) a
    query has: from DESCRIPTION_MIN_WORDS on it is a description. Shared by both
    backends' compilers."""
    return sum(
        1
        for leaf in positive_leaves(tree)
        if leaf.field is None and not leaf.phrase and not leaf.is_filter and analyze(leaf.text)
    )


def split_conjunction(
    tree: And, compile_node: Callable[[Node], Q | None], common_ids: Collection[int]
) -> tuple[list[Q], list[Q], list[Q], list[Q]]:
    """The compiled children of an implicit conjunction by role: the positive ones, those of
    them whose node is a common word (``id`` in ``common_ids``), the field filters and the
    negated ones. A child that compiles to nothing (only stop words) is left out. Shared by
    both backends' compilers, so that they split a query alike."""
    positives: list[Q] = []
    common: list[Q] = []
    filters: list[Q] = []
    negatives: list[Q] = []
    for child in tree.children:
        if isinstance(child, Not):
            q = compile_node(child.child)
            if q is not None:
                negatives.append(q)
            continue
        q = compile_node(child)
        if q is None:
            continue
        if isinstance(child, Leaf) and child.is_filter:
            filters.append(q)
        else:
            positives.append(q)
            if id(child) in common_ids:
                common.append(q)
    return positives, common, filters, negatives
