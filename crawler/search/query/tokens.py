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
