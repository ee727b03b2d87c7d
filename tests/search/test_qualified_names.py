"""Qualified names in queries (issue 25, fourteenth round): ``strutils.split``,
``String#gsub``, ``DB->put`` find the page that defines the name, on both backends.

The pages mirror how generators write them: ``nim doc`` gives one page per module whose
title is the module ("std/strutils") and whose entries name the proc alone (``split``,
among the names the page defines); Crystal's ``crystal docs`` a page per type listing
its methods (``gsub``); a tutorial or another type's page quotes the qualified form in
running text. Searched as a phrase of its parts, such a name found only the quoting
pages, or nothing."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from crawler.search import SearchEngine, page_document
from crawler.search.index import BACKENDS
from tests.search.indexes import engine_over

NOW = datetime(2026, 11, 27, tzinfo=UTC)

# url -> (title, text, names the page defines)
PAGES = {
    "http://nim.test/strutils.html": (
        "std/strutils",
        "This module contains various string utility routines. "
        "proc split(s: string; sep: char): seq[string] Splits the string s into "
        "substrings using a single separator. "
        "proc join(a: openArray[string]; sep: string): string Concatenates all strings "
        "in the container a, separating them with sep. "
        "proc strip(s: string): string Strips leading and trailing whitespace from s.",
        ["split", "join", "strip"],
    ),
    "http://nim.test/re.html": (
        "std/re",
        "Regular expression support for Nim. "
        "proc split(s: string; sep: Regex): seq[string] Splits the string s into "
        "substrings wherever the regular expression matches. "
        "proc find(s: string; pattern: Regex): int Returns the position of the first match.",
        ["split", "find", "match"],
    ),
    "http://nim.test/unicode.html": (
        "std/unicode",
        "This module provides support to handle the Unicode UTF-8 encoding. "
        "iterator split(s: string; seps: openArray[Rune]): string Splits the unicode "
        "string s into substrings using a group of separators.",
        ["split", "runeLen", "toUpper"],
    ),
    "http://nim.test/tut2.html": (
        "Nim Tutorial (Part II)",
        "Procedures of other modules are called with the module's name when two "
        "modules define the same one: strutils.split and re.split both split a string.",
        [],
    ),
    "http://crystal.test/String.html": (
        "String - Crystal 1.6.0",
        "A String represents an immutable sequence of UTF-8 characters. "
        "def gsub(pattern : Regex, replacement) : String Returns a String where "
        "occurrences of the given pattern are replaced by replacement. "
        "def sub(pattern : Regex, replacement) : String Replaces the first occurrence.",
        ["gsub", "sub", "upcase"],
    ),
    "http://crystal.test/Regex.html": (
        "Regex - Crystal 1.6.0",
        "A Regex represents a regular expression, a pattern that describes the contents "
        "of strings. Use String#gsub to replace every match of a Regex in a string.",
        ["match", "source"],
    ),
}


@pytest.fixture(scope="module", params=BACKENDS)
def engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SearchEngine]:
    yield from engine_over(
        tmp_path_factory,
        request.param,
        (
            page_document(
                url=url,
                title=title,
                text=text,
                host=url.split("/")[2],
                content_type="text/html",
                fetched_at=NOW,
                names=names,
            )
            for url, (title, text, names) in PAGES.items()
        ),
    )


def ranked(engine: SearchEngine, query: str) -> list[str]:
    return [hit.url for hit in engine.search(query, per_page=10).hits]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # the module defining the proc first, then the page quoting the name; the other
        # modules defining a split (without the module's name) after them
        (
            "strutils.split",
            [
                "http://nim.test/strutils.html",
                "http://nim.test/tut2.html",
            ],
        ),
        ("re.split", ["http://nim.test/re.html", "http://nim.test/tut2.html"]),
        # the type defining the method above the page quoting "String#gsub"
        ("String#gsub", ["http://crystal.test/String.html", "http://crystal.test/Regex.html"]),
        # a name no page writes whole is found by its parts: never nothing
        ("strutils.strip", ["http://nim.test/strutils.html", "http://nim.test/tut2.html"]),
    ],
)
def test_a_qualified_name_finds_the_page_defining_it(
    engine: SearchEngine, query: str, expected: list[str]
) -> None:
    assert ranked(engine, query)[: len(expected)] == expected
