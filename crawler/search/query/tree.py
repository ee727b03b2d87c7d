"""Query parser: the syntax tree of a tokenized query (precedence, grouping, leniency)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from crawler import defaults
from crawler.search.query.tokens import FILTER_PREFIXES, Token, tokenize

#: NEAR/n with a larger n is read as this (parts of a page are POSITION_GAP apart).
MAX_NEAR_DISTANCE = 500


@dataclass
class Leaf:
    """A word or phrase, optionally with a field prefix."""

    text: str
    phrase: bool
    field: str | None
    start: int
    end: int
    #: the qualified name the word is a part of (``strutils.split``: its two words)
    name: str | None = None

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
            return Leaf(tok.text, tok.kind == "phrase", tok.field, tok.start, tok.end, tok.name)
        if tok.kind == "op" and tok.text in ("AND", "OR", "XOR", "NEAR"):
            self.pos += 1  # an operator without a left operand
            return None
        return None  # rparen: the caller stops


def parse(text: str, near_distance: int = defaults.SEARCH_NEAR_DISTANCE) -> Node | None:
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


def with_names(leaves: list[Leaf]) -> list[Leaf]:
    """``leaves`` and, after them, each qualified name their words are parts of, once, as
    a phrase of its parts (``strutils.split`` -> "strutils split"): the words find and
    score the page defining the name, the name as written adds the bonuses of the short
    fields (title, headings and the names a page defines, anchor text, exact title and
    URL name) where a page writes it whole, as the phrase the name was searched as before."""
    names: dict[str, Leaf] = {}
    for leaf in leaves:
        if leaf.name and leaf.field is None and leaf.name not in names:
            names[leaf.name] = Leaf(leaf.name, True, None, leaf.start, leaf.end)
    return leaves + list(names.values())
