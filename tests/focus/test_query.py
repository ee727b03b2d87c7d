"""The focus query: words, phrases, match modes, stemming, URL matching."""

from __future__ import annotations

import pytest

from crawler.focus import QueryError, parse_query, terms
from crawler.focus.query import url_parts
from crawler.search.schema import text_analyzer


def test_words_and_quoted_phrases_become_clauses():
    query = parse_query('java "garbage collector" Spring-Boot "unclosed phrase')
    assert [c.text for c in query.clauses] == [
        "java", "garbage collector", "Spring-Boot", "unclosed phrase",
    ]
    assert [c.stems for c in query.clauses] == [
        ("java",), ("garbag", "collector"), ("spring", "boot"), ("unclos", "phrase"),
    ]
    assert query.match == "all"


def test_stop_words_and_duplicates_are_left_out():
    query = parse_query('the Java "of" JAVA programming programmers', match="ANY")
    assert [c.stems for c in query.clauses] == [("java",), ("programm",)]
    assert query.match == "any"


@pytest.mark.parametrize("text", ["", "   ", "the of and", '""'])
def test_a_query_without_searchable_words_is_an_error(text):
    with pytest.raises(QueryError, match="no searchable word"):
        parse_query(text)


def test_an_unknown_match_mode_is_an_error():
    with pytest.raises(QueryError, match="match must be one of all, any"):
        parse_query("java", match="most")


def test_terms_are_the_search_index_analyzer_terms():
    text = "Programmers were programming Java-generics; the JVMs ran."
    assert terms(text) == [token.text for token in text_analyzer()(text)]
    assert terms(text) == ["programm", "were", "programm", "java", "gener", "jvm", "ran"]


def test_counts_of_words_and_phrases():
    query = parse_query('java "garbage collector"')
    tokens = terms(
        "Java's garbage collector collects garbage. The garbage collectors of Java and "
        "a garbage truck; java"
    )
    java, phrase = query.clauses
    assert java.count(tokens) == 3
    assert phrase.count(tokens) == 2  # "garbage collector", "garbage collectors"


def test_match_all_and_any_on_text():
    all_of = parse_query("java spring", match="all")
    any_of = parse_query("java spring", match="any")
    only_java = terms("java java java java")
    both = terms("java java java spring")
    assert not all_of.occurs(only_java) and any_of.occurs(only_java)
    assert all_of.occurs(both) and any_of.occurs(both)
    # all: mean occurrences per clause when every clause occurs, else 0
    assert all_of.occurrences(only_java) == 0.0
    assert all_of.occurrences(both) == 2.0
    # any: occurrences of all clauses added up
    assert any_of.occurrences(only_java) == 4.0
    assert any_of.occurrences(both) == 4.0
    assert any_of.fraction_in(only_java) == 0.5
    assert all_of.fraction_in(both) == 1.0


def test_url_matching_uses_letters_and_digits_words_and_stems():
    query = parse_query('java "garbage collector" libraries', match="any")
    assert query.occurs_in_url("http://www.javadev.test/")
    assert url_parts("https://Java.example/gc/Garbage_Collector-tuning?q=a%20b") == (
        "java", "example", "gc", "garbagecollectortuning", "q", "ab")
    assert query.fraction_in_url("https://java.example/gc/Garbage_Collector-tuning") == 2 / 3
    # the stem "librari" is not in "library", the word "libraries" is not either
    assert query.fraction_in_url("http://www.example.test/library/") == 0.0
    assert query.fraction_in_url("http://www.example.test/libraries/") == 1 / 3
    # the scheme is not part of the URL's words
    assert not parse_query("https").occurs_in_url("https://www.example.test/")
    # words are not glued across the URL's separators
    assert not parse_query("java").occurs_in_url("http://www.example.test/jav/a")
    assert parse_query('"garbage collector"').occurs_in_url("http://x.test/garbage%20collector")
