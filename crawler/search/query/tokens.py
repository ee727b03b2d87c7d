"""Query tokenizer: splits a query string into words, phrases, operators and parentheses
(the query language is described in crawler.search.query)."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Field prefixes searching text, and the index field each one searches.
TEXT_PREFIXES = {"title": "title", "body": "body", "url": "url_text"}
#: Field prefixes restricting results (filters), never scored.
FILTER_PREFIXES = frozenset({"site", "host", "domain", "format", "updated"})
OPERATORS = frozenset({"AND", "OR", "NOT", "XOR", "NEAR"})

_NEAR_N = re.compile(r"NEAR/(\d+)")
#: A qualified name, written as programmers write one: ``module:function`` (Erlang,
#: Elixir), ``Class::method`` (C++, Perl, Ruby), ``module.function`` (Python, Nim,
#: Haskell's ``Data.List.foldl'``, gi-docgen's ``Adw.ActionRow.add_prefix``),
#: ``Class#method`` (Ruby, Crystal), ``struct->method`` (C: ``DB->put``), optionally with
#: an arity (``lists:keyfind/3``). Its parts are searched as words of their own: a
#: module's reference page names the module in its title and URL and the function in a
#: heading or among the names it defines ("keyfind(Key, N, TupleList)", ``split``),
#: rarely as one string, which as a phrase (what a word the analyzer splits becomes)
#: only pages quoting the call hold, and which no page at all holds when the generator
#: never writes the qualified form (``nim doc``'s ``strutils.html`` defines ``split``).
#: The words in order still win where a page does write it (the proximity bonus).
_SEPARATOR = r"(?:::?|\.|#|->)"
_PART = r"[^\W\d]\w*'*"
_QUALIFIED = re.compile(rf"{_PART}(?:{_SEPARATOR}{_PART})+(?:/\d+)?")
_SPLIT = re.compile(_SEPARATOR)
#: A name with its arity (``atom_length/2``, Prolog and Erlang): the name alone is
#: searched, since the page defining it writes its arguments ("atom_length(+Atom,
#: -Length)"), while "atom_length 2" as a phrase finds only the pages citing it.
_NAME_ARITY = re.compile(r"([^\W\d]\w*)/\d+")


class QuerySyntaxError(ValueError):
    """A query the parser refuses, with a message for the user."""


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # word, phrase, op, lparen, rparen
    text: str
    start: int  # offsets in the query string (of the word itself, for corrections)
    end: int
    field: str | None = None  # a field prefix (title, site, ...) for words and phrases
    distance: int | None = None  # NEAR/n
    name: str | None = None  # the qualified name a word is a part of (strutils.split)


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
            elif word.startswith("NEAR/"):  # searched as a word, it would match nothing
                raise QuerySyntaxError(
                    f"{word}: NEAR/ takes a number of words, e.g. python NEAR/5 json"
                )
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
            elif not _operand(tokens, text, j) and (parts := name_parts(word)):
                start = i
                name = word.rsplit("/", 1)[0] if len(parts) > 1 else None
                for part in parts:  # offsets of each part in the query
                    start = text.index(part, start)
                    tokens.append(Token("word", part, start, start + len(part), name=name))
                    start += len(part)
            else:
                tokens.append(Token("word", word, i, j))
            i = j
    return tokens


def name_parts(word: str) -> list[str]:
    """The words a qualified name or a name/arity is searched as (``lists:keyfind/3``
    -> lists, keyfind; ``strutils.split`` -> strutils, split; ``DB->put`` -> DB, put;
    ``atom_length/2`` -> atom_length); [] for any other word."""
    arity = _NAME_ARITY.fullmatch(word)
    if arity:
        return [arity.group(1)]
    if not _QUALIFIED.fullmatch(word):
        return []
    return [part for part in _SPLIT.split(word.rsplit("/", 1)[0]) if part]


def _operand(tokens: list[Token], text: str, j: int) -> bool:
    """Whether the word ending at ``j`` is an operator's operand (``-lists:keyfind``,
    ``a NEAR b:c``, ``b:c OR d``): split, the operator would bind one part only."""
    if tokens and tokens[-1].kind == "op":
        return True
    following = text[j:].split(maxsplit=1)
    return bool(following) and (following[0] in OPERATORS or bool(_NEAR_N.fullmatch(following[0])))


def _phrase(text: str, i: int, prefix: str | None) -> tuple[Token, int]:
    """The phrase starting at the quote text[i]; an unclosed quote runs to the end."""
    close = text.find('"', i + 1)
    end = len(text) if close < 0 else close
    token = Token("phrase", text[i + 1 : end], i + 1, end, field=prefix)
    return token, (end + 1 if close >= 0 else end)
