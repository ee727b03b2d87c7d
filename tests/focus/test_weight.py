"""Exact page weights of hand-written pages (design-and-implementation paper, normalised)."""

from __future__ import annotations

import pytest

from crawler.extract import extract_page
from crawler.focus import WeightParams, page_weight, parse_query

JAVA = parse_query("java")


def weigh(html: str, url: str, params: WeightParams | None = None):
    page = extract_page(html, url)
    return page_weight(
        JAVA, url=url, title=page.title, text=page.text, outlinks=len(page.links), params=params
    )


def test_short_page_with_title_body_and_links():
    html = """<html><head><title>Learning Java</title></head><body>
    <p>Java programmers write Java code every day.</p>
    <a href="/a">one</a> <a href="/b">two</a>
    </body></html>"""
    weight = weigh(html, "http://www.example.test/tutorials/intro.html")
    # body text "Java programmers write Java code every day. one two": 9 analysed words,
    # 2 occurrences; fewer than 100 words, so counted as they are: 2 x 1.0
    assert (weight.url, weight.title, weight.body) == (0.0, 1.0, 2.0)
    assert (weight.words, weight.occurrences) == (9, 2.0)
    assert weight.outlinks == pytest.approx(0.2 * 2 / 20)
    assert weight.total == pytest.approx(3.02)
    assert weight.relevant


def test_query_in_the_url_only():
    html = """<html><head><title>Tips</title></head><body><p>Short tips.</p>
    <a href="/next">next</a></body></html>"""
    weight = weigh(html, "http://www.javadev.test/tips")
    assert (weight.url, weight.title, weight.body) == (1.0, 0.0, 0.0)
    assert weight.total == pytest.approx(1.01)  # one full signal + a link: just above 1.0
    assert weight.relevant


def test_weight_equal_to_the_threshold_is_not_relevant():
    html = ("<html><head><title>Coffee from Java island</title></head>"
            "<body>Strong coffee.</body></html>")
    weight = weigh(html, "http://www.example.test/misc/coffee.html")
    assert weight.total == 1.0
    assert not weight.relevant  # the paper: weight(page) > threshold


def test_page_without_the_query():
    html = """<html><head><title>Pasta</title></head><body><p>Boil water, cook pasta.</p>
    """ + "".join(f'<a href="/p{i}">p{i}</a>' for i in range(30)) + "</body></html>"
    weight = weigh(html, "http://www.example.test/pasta.html")
    assert (weight.url, weight.title, weight.body) == (0.0, 0.0, 0.0)
    assert weight.outlinks == pytest.approx(0.2)  # 30 links, counted up to 20
    assert not weight.relevant


def _article(words: int, occurrences: int) -> str:
    filler = ["lorem"] * (words - occurrences)
    step = len(filler) // occurrences
    for i in range(occurrences):
        filler.insert(i * (step + 1), "java")
    return f"<html><head><title>Notes</title></head><body><p>{' '.join(filler)}</p></body></html>"


def test_body_weight_is_per_100_words_on_long_pages():
    short = weigh(_article(200, 4), "http://www.example.test/a")
    long = weigh(_article(20_000, 400), "http://www.example.test/b")
    assert (short.words, short.occurrences) == (200, 4.0)
    assert (long.words, long.occurrences) == (20_000, 400.0)
    # 2 occurrences per 100 words on both: the same weight, whatever the length
    assert short.body == long.body == 2.0
    # a 50-word page is not inflated: its 1 occurrence counts as 1
    assert weigh(_article(50, 1), "http://www.example.test/c").body == 1.0


def test_weights_come_from_the_parameters():
    params = WeightParams(url=3.0, title=5.0, body=0.5, outlinks=1.0, body_words=10,
                          outlinks_cap=4, threshold=9.0)
    html = """<html><head><title>Java</title></head><body>""" + " ".join(
        ["java"] * 2 + ["word"] * 18) + '<a href="/1">1</a><a href="/2">2</a></body></html>'
    weight = weigh(html, "http://java.example.test/", params)
    # body: 20 words + the anchor texts "1", "2" = 22 words, 2 occurrences -> 2 x 10 / 22
    assert weight.words == 22
    assert weight.body == pytest.approx(0.5 * 2 * 10 / 22)
    assert (weight.url, weight.title, weight.outlinks) == (3.0, 5.0, 0.5)
    assert weight.total == pytest.approx(8.5 + 10 / 22)
    assert weight.threshold == 9.0 and not weight.relevant


def test_phrase_query_weight():
    query = parse_query('"garbage collector" java', match="all")
    text = "The garbage collector of the Java virtual machine frees java objects."
    weight = page_weight(query, url="http://www.example.test/gc", title="Garbage collectors",
                         text=text, outlinks=0)
    # title lacks "java" (match=all): 0; body: phrase 1, java 2 -> mean 1.5 occurrences
    assert weight.title == 0.0
    assert weight.occurrences == 1.5 and weight.body == 1.5
