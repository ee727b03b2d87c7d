"""crawler/extract.py builds its tree with lxml.etree's HTML parser and small stand-ins for
lxml.html's helpers (faster: docs/performance.md); the output must stay exactly what
lxml.html gave. Checked over every HTML page of the sandbox web and over fragments."""

from __future__ import annotations

import re

import lxml.etree
import lxml.html
import pytest

from crawler.extract import _collapse, _drop_tree, _parse, _text_content
from crawler.sandbox import build_synthetic_web

FRAGMENTS = [
    b"",
    b"   ",
    b"plain text only",
    b"<a href=x>one link</a>",
    b"<p>x <a href='a'>y</a></p>",
    b"text <b>bold</b><a href=q>r</a> tail",
    b"<title>t</title><a href=q>r</a>",
    b"<body><p>a</p></body><body>b<a href=z>c</a></body>",
    b"<head><title>a</title></head><head><meta name=x></head><p>b</p>",
    b"<!-- c --><p>after a comment</p>",
    b"<!DOCTYPE html><p>doctype first</p>",
    b"  <HTML><body><p>upper case</p></body></HTML>",
    b"<p>nul \x00 byte</p>",
    "<p>\u00e9t\u00e9 <a href='\u00e9'>\u00e9</a></p>".encode(),
]


def _sandbox_pages() -> list[tuple[str, bytes]]:
    web = build_synthetic_web(7, trap=False, faults=False)
    pages = []
    for url in web.urls():
        resource = web.fetch(url)
        if resource is not None and resource.is_html:
            pages.append((url, resource.body))
    return pages


def _reference(html: bytes | str, encoding: str | None) -> lxml.etree._Element | None:
    parser = lxml.html.HTMLParser(encoding=encoding if isinstance(html, bytes) else None)
    try:
        return lxml.html.fromstring(html, parser=parser)
    except (lxml.etree.ParserError, ValueError):
        return None


def _same_tree(html: bytes | str, encoding: str | None) -> None:
    expected, got = _reference(html, encoding), _parse(html, encoding)
    if expected is None:
        assert got is None
        return
    assert got is not None
    if got.tag == "body" and expected.tag in ("div", "span"):
        got.tag = expected.tag  # lxml.html renames a fragment's body; extract never looks
    assert lxml.etree.tostring(got) == lxml.etree.tostring(expected)
    for el_expected, el_got in zip(expected.iter("a", "title"), got.iter("a", "title"),
                                   strict=True):
        assert _text_content(el_got) == el_expected.text_content()
    for el_expected, el_got in zip(list(expected.iter("p", "b")), list(got.iter("p", "b")),
                                   strict=True):
        if el_expected is not expected:
            el_expected.drop_tree()
            _drop_tree(el_got)
    assert lxml.etree.tostring(got) == lxml.etree.tostring(expected)


def test_tree_text_and_drop_tree_match_lxml_html_on_every_sandbox_page():
    pages = _sandbox_pages()
    assert len(pages) > 500
    for _url, body in pages:
        _same_tree(body, "utf-8")
        _same_tree(body, None)


@pytest.mark.parametrize("html", FRAGMENTS)
def test_tree_matches_lxml_html_on_fragments(html: bytes):
    _same_tree(html, "utf-8")
    _same_tree(html.decode("utf-8"), None)


def test_collapse_matches_the_regular_expression_on_every_whitespace_character():
    spaces = re.compile(r"\s+")
    text = "".join(chr(c) + "x" for c in range(0x3100)) + " \t\n\r\x0b\x0c\x1c\x85\xa0\u3000"
    assert _collapse(text) == spaces.sub(" ", text).strip()
