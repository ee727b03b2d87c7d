"""The query language: a small parser that builds Whoosh query objects.

Syntax (operators in capitals; lower-case "and", "or", "not" are ordinary words)::

    python json            plain words: pages with all the words first, then pages
                           with any of them (the effective-crawler paper's behaviour)
    python AND json        both words
    python OR json         either word
    python XOR json        exactly one of the two words
    NOT python, -python    pages without the word
    python NEAR json       both words within 10 words of each other (SEARCH_NEAR_DISTANCE)
    python NEAR/3 json     ... within 3 words (stop words do not count; n <= 500)
    "exact phrase"         the words next to each other, in this order
    (a OR b) AND c         grouping
    title:word, title:"a phrase", body:..., url:...   words in one field only
    site:python.org        pages of this host or any host below it
    host:docs.python.org, domain:python.org           exact host / registered domain
    format:html, format:text, format:application/pdf  file format or content type
    updated:week           updated (Last-Modified, else fetch time) within a day,
                           week, month, year, or N days ("30d")

Precedence, tightest first: NOT, NEAR, AND (also implicit between terms), XOR, OR.
Words go through the index's stemming analyzer, so the query is stemmed exactly as the
documents were. Words without a field prefix are searched in the title, text and URL
words of the page at once (the ``content`` field, title and URL words weighted). The
parser is lenient: a dangling operator or an unbalanced parenthesis or quote is ignored
or closed; only errors that would silently change the meaning (NEAR across different
fields or around a group, an unknown updated: period) raise :class:`QuerySyntaxError`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from whoosh import query as wq
from whoosh.fields import Schema
from whoosh.query.spans import SpanNear2

from crawler.search.schema import TEXT_FIELDS

#: Field prefixes searching text, and the index field each one searches.
TEXT_PREFIXES = {"title": "title", "body": "body", "url": "url_text"}
#: Field prefixes restricting results (filters), never scored.
FILTER_PREFIXES = frozenset({"site", "host", "domain", "format", "updated"})
OPERATORS = frozenset({"AND", "OR", "NOT", "XOR", "NEAR"})

DEFAULT_NEAR_DISTANCE = 10
#: Pages whose title holds words of the query (words without prefix, not negated) get
#: the title field's BM25F score of those words, times this, added to their score.
DEFAULT_TITLE_BOOST = 2.0
#: Pages whose unstemmed title or URL name (last path segment) holds the words as typed
#: get their BM25F score in those fields times this, added: "Paths" beats "Path".
DEFAULT_EXACT_BOOST = 4.0
#: Pages holding the query's words close together and in order (consecutive pairs, and
#: all of them) get the BM25F of those words times this, added (Solr's pf/pf2).
DEFAULT_PROXIMITY_BOOST = 1.0
#: Words allowed between two query words for the proximity bonus (Whoosh's phrase slop).
PROXIMITY_SLOP = 3
#: NEAR/n with a larger n is read as this (parts of a page are POSITION_GAP apart).
MAX_NEAR_DISTANCE = 500

_NEAR_N = re.compile(r"NEAR/(\d{1,4})")
_PERIODS = {"day": 1, "week": 7, "month": 31, "year": 366}
_PERIOD_N = re.compile(r"(\d{1,5})([dwmy]?)")
_FORMAT_ALIASES = {"htm": "html", "xhtml": "html", "txt": "text", "plain": "text"}


class QuerySyntaxError(ValueError):
    """A query the parser refuses, with a message for the user."""


# --- tokens ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # word, phrase, op, lparen, rparen
    text: str
    start: int  # offsets in the query string (of the word itself, for corrections)
    end: int
    field: str | None = None  # a field prefix (title, site, ...) for words and phrases
    distance: int | None = None  # NEAR/n


def tokenize(text: str) -> list[Token]:
    """Split a query into tokens; unbalanced closing parentheses are dropped."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    depth = 0
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "(":
            tokens.append(Token("lparen", c, i, i + 1))
            depth += 1
            i += 1
        elif c == ")":
            if depth > 0:
                tokens.append(Token("rparen", c, i, i + 1))
                depth -= 1
            i += 1
        elif c == "-" and i + 1 < n and not text[i + 1].isspace() and text[i + 1] not in "-)":
            tokens.append(Token("op", "NOT", i, i + 1))
            i += 1
        elif c == '"':
            token, i = _phrase(text, i, None)
            tokens.append(token)
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '()"':
                j += 1
            word = text[i:j]
            near = _NEAR_N.fullmatch(word)
            if word in OPERATORS:
                tokens.append(Token("op", word, i, j))
            elif near:
                tokens.append(Token("op", "NEAR", i, j, distance=int(near.group(1))))
            elif ":" in word and word.split(":", 1)[0].lower() in (
                TEXT_PREFIXES.keys() | FILTER_PREFIXES
            ):
                prefix, rest = word.split(":", 1)
                prefix = prefix.lower()
                if rest:
                    tokens.append(Token("word", rest, i + len(prefix) + 1, j, field=prefix))
                elif j < n and text[j] == '"':
                    token, j = _phrase(text, j, prefix)
                    tokens.append(token)
                # a prefix with nothing after it is ignored
            else:
                tokens.append(Token("word", word, i, j))
            i = j
    return tokens


def _phrase(text: str, i: int, prefix: str | None) -> tuple[Token, int]:
    """The phrase starting at the quote text[i]; an unclosed quote runs to the end."""
    close = text.find('"', i + 1)
    end = len(text) if close < 0 else close
    token = Token("phrase", text[i + 1 : end], i + 1, end, field=prefix)
    return token, (end + 1 if close >= 0 else end)


# --- syntax tree -------------------------------------------------------------------------


@dataclass
class Leaf:
    """A word or phrase, optionally with a field prefix."""

    text: str
    phrase: bool
    field: str | None
    start: int
    end: int

    @property
    def is_filter(self) -> bool:
        return self.field in FILTER_PREFIXES


@dataclass
class Not:
    child: Node


@dataclass
class And:
    children: list[Node]
    implicit: bool  # no AND written: plain words (ranked all-then-any at the top level)


@dataclass
class Or:
    children: list[Node]


@dataclass
class Xor:
    left: Node
    right: Node


@dataclass
class Near:
    children: list[Node]
    distance: int


Node = Leaf | Not | And | Or | Xor | Near


class _Parser:
    def __init__(self, tokens: list[Token], near_distance: int) -> None:
        self.tokens = tokens
        self.pos = 0
        self.near_distance = near_distance

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def is_op(self, *names: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == "op" and tok.text in names

    def parse(self) -> Node | None:
        node = self.parse_or()
        while self.peek() is not None:  # leftovers such as a stray operator
            self.pos += 1
            more = self.parse_or()
            if more is not None:
                node = more if node is None else And([node, more], implicit=True)
        return node

    def parse_or(self) -> Node | None:
        children: list[Node] = []
        node = self.parse_xor()
        if node is not None:
            children.append(node)
        while self.is_op("OR"):
            self.pos += 1
            node = self.parse_xor()
            if node is not None:
                children.append(node)
        if not children:
            return None
        return children[0] if len(children) == 1 else Or(children)

    def parse_xor(self) -> Node | None:
        left = self.parse_and()
        while self.is_op("XOR"):
            self.pos += 1
            right = self.parse_and()
            if right is None:
                continue
            left = right if left is None else Xor(left, right)
        return left

    def parse_and(self) -> Node | None:
        items: list[Node] = []
        explicit = False
        while True:
            tok = self.peek()
            if tok is None or tok.kind == "rparen" or self.is_op("OR", "XOR"):
                break
            if self.is_op("AND"):
                self.pos += 1
                explicit = True
                continue
            start = self.pos
            item = self.parse_near()
            if item is not None:
                items.append(item)
            elif self.pos == start:  # pragma: no cover - safety against a stuck loop
                self.pos += 1
        if not items:
            return None
        return items[0] if len(items) == 1 else And(items, implicit=not explicit)

    def parse_near(self) -> Node | None:
        left = self.parse_unary()
        while self.is_op("NEAR"):
            tok = self.peek()
            assert tok is not None
            self.pos += 1
            distance = tok.distance if tok.distance is not None else self.near_distance
            right = self.parse_unary()
            if right is None:
                continue
            if left is None:
                left = right
            elif isinstance(left, Near) and left.distance == max(
                1, min(MAX_NEAR_DISTANCE, distance)
            ):
                left.children.append(right)
            else:
                left = Near([left, right], max(1, min(MAX_NEAR_DISTANCE, distance)))
        return left

    def parse_unary(self) -> Node | None:
        if self.is_op("NOT"):
            self.pos += 1
            child = self.parse_unary()
            return None if child is None else Not(child)
        return self.parse_primary()

    def parse_primary(self) -> Node | None:
        tok = self.peek()
        if tok is None:
            return None
        if tok.kind == "lparen":
            self.pos += 1
            inner = self.parse_or()
            if self.peek() is not None and self.peek().kind == "rparen":  # type: ignore[union-attr]
                self.pos += 1
            if isinstance(inner, And):
                inner.implicit = False  # grouped words: a plain AND, never tiered
            return inner
        if tok.kind in ("word", "phrase"):
            self.pos += 1
            return Leaf(tok.text, tok.kind == "phrase", tok.field, tok.start, tok.end)
        if tok.kind == "op" and tok.text in ("AND", "OR", "XOR", "NEAR"):
            self.pos += 1  # an operator without a left operand
            return None
        return None  # rparen: the caller stops


def parse(text: str, near_distance: int = DEFAULT_NEAR_DISTANCE) -> Node | None:
    """The syntax tree of a query, or None when it holds no search term."""
    return _Parser(tokenize(text), near_distance).parse()


def leaves(node: Node | None) -> Iterator[Leaf]:
    """Every word and phrase of a tree, in query order."""
    if node is None:
        return
    if isinstance(node, Leaf):
        yield node
    elif isinstance(node, Not):
        yield from leaves(node.child)
    elif isinstance(node, Xor):
        yield from leaves(node.left)
        yield from leaves(node.right)
    else:
        for child in node.children:
            yield from leaves(child)


def positive_leaves(node: Node | None) -> Iterator[Leaf]:
    """The words and phrases of a tree that are not negated (under NOT)."""
    if node is None or isinstance(node, Not):
        return
    if isinstance(node, Leaf):
        yield node
    elif isinstance(node, Xor):
        yield from positive_leaves(node.left)
        yield from positive_leaves(node.right)
    else:
        for child in node.children:
            yield from positive_leaves(child)


# --- compilation to Whoosh queries ----------------------------------------------------------


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

    @property
    def empty(self) -> bool:
        return not self.tiers

    def scored(self, q: wq.Query) -> wq.Query:
        """``q`` with the title bonus."""
        return q if self.bonus is None else wq.AndMaybe(q, self.bonus)


class QueryCompiler:
    """Turns syntax trees into Whoosh queries for one schema."""

    def __init__(
        self,
        schema: Schema,
        *,
        near_distance: int = DEFAULT_NEAR_DISTANCE,
        title_boost: float = DEFAULT_TITLE_BOOST,
        exact_boost: float = DEFAULT_EXACT_BOOST,
        proximity_boost: float = DEFAULT_PROXIMITY_BOOST,
        now: datetime | None = None,
    ) -> None:
        self.schema = schema
        self.title_boost = title_boost
        self.exact_boost = exact_boost
        self.proximity_boost = proximity_boost
        self.near_distance = near_distance
        self.now = now

    # public -------------------------------------------------------------------------
    def parse(self, text: str) -> ParsedQuery:
        tree = parse(text, self.near_distance)
        parsed = ParsedQuery(text, tree)
        if tree is None:
            return parsed
        parsed.tiers = [q for q in self._tiers(tree) if q is not None]
        parts = self._title_bonus(tree) + self._exact_bonus(tree) + self._proximity_bonus(tree)
        if parts:
            parsed.bonus = parts[0] if len(parts) == 1 else wq.Or(parts)
        return parsed

    def _bonus_leaves(self, tree: Node) -> list[Leaf]:
        """The query's words and phrases without prefix, outside NOT."""
        return [leaf for leaf in positive_leaves(tree) if leaf.field is None]

    def _title_bonus(self, tree: Node) -> list[wq.Query]:
        """Title-field terms of the query's words without prefix, outside NOT."""
        if self.title_boost <= 0:
            return []
        parts: list[wq.Query] = []
        for leaf in self._bonus_leaves(tree):
            q = self._text_query("title", leaf.text, self.title_boost)
            if q is not None and q not in parts:
                parts.append(q)
        return parts

    def _exact_bonus(self, tree: Node) -> list[wq.Query]:
        """The words as typed (lower case, unstemmed) in the exact title and URL name."""
        if self.exact_boost <= 0 or "title_exact" not in self.schema:
            return []
        parts: list[wq.Query] = []
        for leaf in self._bonus_leaves(tree):
            for fieldname in ("title_exact", "url_name"):
                q = self._text_query(fieldname, leaf.text, self.exact_boost)
                if q is not None and q not in parts:
                    parts.append(q)
        return parts

    def _proximity_bonus(self, tree: Node) -> list[wq.Query]:
        """Each consecutive pair of the query's plain words within PROXIMITY_SLOP words in
        any order, and all of them in order (Solr's pf2 and pf, sloppy): a page with the
        words close together scores above one with the same words scattered, and in the
        query's order above reversed."""
        if self.proximity_boost <= 0:
            return []
        terms: list[str] = []
        for leaf in self._bonus_leaves(tree):
            if not leaf.phrase:
                terms += self.analyze(TEXT_FIELDS[0], leaf.text)
        if len(terms) < 2:
            return []
        parts: list[wq.Query] = []
        field_name = TEXT_FIELDS[0]
        for first, second in zip(terms, terms[1:], strict=False):
            boost = self.proximity_boost  # (a span scores as its terms)
            q = SpanNear2([wq.Term(field_name, first, boost=boost),
                           wq.Term(field_name, second, boost=boost)],
                          slop=PROXIMITY_SLOP, ordered=False)
            if first != second and q not in parts:
                parts.append(q)
        parts.append(wq.Phrase(field_name, terms, slop=PROXIMITY_SLOP,
                               boost=self.proximity_boost))
        return parts

    def analyze(self, fieldname: str, text: str) -> list[str]:
        """The indexed terms of ``text`` in a field (stemmed, stop words removed)."""
        return list(self.schema[fieldname].process_text(text, mode="query"))

    # tiers --------------------------------------------------------------------------
    def _tiers(self, tree: Node) -> list[wq.Query | None]:
        if isinstance(tree, And) and tree.implicit:
            positives: list[wq.Query] = []
            filters: list[wq.Query] = []
            negatives: list[wq.Query] = []
            for child in tree.children:
                if isinstance(child, Not):
                    q = self.compile(child.child)
                    if q is not None:
                        negatives.append(q)
                    continue
                q = self.compile(child)
                if q is None:
                    continue
                if isinstance(child, Leaf) and child.is_filter:
                    filters.append(q)
                else:
                    positives.append(q)
            if len(positives) >= 2:
                every = self._without(wq.And(positives + filters), negatives)
                anyone = wq.Or(positives)
                anyone = self._without(
                    wq.And([anyone, *filters]) if filters else anyone, negatives
                )
                return [every, anyone]
        return [self.compile(tree)]

    @staticmethod
    def _without(q: wq.Query, negatives: list[wq.Query]) -> wq.Query:
        if not negatives:
            return q
        return wq.AndNot(q, negatives[0] if len(negatives) == 1 else wq.Or(negatives))

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
            return wq.AndNot(wq.Or([left, right]), wq.And([left, right]))
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
                raise QuerySyntaxError(
                    "NEAR joins words or phrases, e.g. python NEAR/5 json"
                )
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
                spans[0] if len(spans) == 1
                else SpanNear2(spans, slop=node.distance, ordered=False)
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


# --- advanced search ----------------------------------------------------------------------

#: Where the advanced search's words must occur, and the prefix used for them.
OCCURRENCE_PREFIXES = {"anywhere": "", "title": "title:", "url": "url:", "body": "body:"}
_UNSAFE_VALUE = re.compile(r"[^\w.\-/+]")


def _words(text: str) -> list[str]:
    return [w for w in (w.replace('"', "") for w in text.split()) if w]


def advanced_query(
    *,
    all_words: str = "",
    exact_phrase: str = "",
    any_words: str = "",
    none_words: str = "",
    occur: str = "anywhere",
    site: str = "",
    file_format: str = "",
    updated: str = "",
) -> str:
    """The query-language string of an advanced search form.

    Every word is quoted, so words that look like operators or prefixes stay words.
    """
    prefix = OCCURRENCE_PREFIXES.get(occur, "")
    parts: list[str] = [f'{prefix}"{w}"' for w in _words(all_words)]
    phrase = exact_phrase.replace('"', " ").strip()
    if phrase:
        parts.append(f'{prefix}"{phrase}"')
    alternatives = [f'{prefix}"{w}"' for w in _words(any_words)]
    if len(alternatives) == 1:
        parts.append(alternatives[0])
    elif alternatives:
        parts.append("(" + " OR ".join(alternatives) + ")")
    for name, value in (("site", site), ("format", file_format), ("updated", updated)):
        value = _UNSAFE_VALUE.sub("", value.strip())
        if value and not (name == "format" and value == "any") and not (
            name == "updated" and value == "anytime"
        ):
            parts.append(f"{name}:{value}")
    query = " AND ".join(parts)
    for w in _words(none_words):
        query += f' -{prefix}"{w}"'
    return query.strip()
