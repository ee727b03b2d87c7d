"""The one-pass WordAnalyzer (crawler/search/analysis.py) gives exactly the tokens of the
Whoosh chains it replaces, on the sandbox web's pages and on hand-made strings, for every
way Whoosh calls an analyzer; the index's fields give the same postings; an index whose
schema was pickled with the chains still opens, and analyses with WordAnalyzer."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime
from typing import Any

import pytest
from whoosh import index as whoosh_index
from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter, StemmingAnalyzer
from whoosh.qparser import QueryParser

from crawler.extract import extract_page
from crawler.sandbox import build_synthetic_web
from crawler.search.analysis import WordAnalyzer, fuse
from crawler.search.schema import (
    ContentAnalyzer,
    LeadAnalyzer,
    PageTextAnalyzer,
    build_schema,
    exact_analyzer,
    page_document,
    text_analyzer,
    url_analyzer,
)

# The chains the schema's analyzers were before WordAnalyzer (and still are in indexes
# built then).
CHAINS = {
    "text": lambda: StemmingAnalyzer(expression=r"\w+", minsize=1, maxsize=60),
    "url": lambda: RegexTokenizer(r"[^\W_]+") | LowercaseFilter() | StemFilter(),
    "exact": lambda: RegexTokenizer(r"\w+") | LowercaseFilter(),
}
FUSED = {"text": text_analyzer, "url": url_analyzer, "exact": exact_analyzer}

# How Whoosh calls analyzers: indexing (formats), queries, highlighting, spelling.
CALLS: list[dict[str, Any]] = [
    {},
    {"mode": "index", "positions": True, "boosts": True},
    {"mode": "index", "positions": True, "chars": True, "boosts": True},
    {"mode": "query"},
    {"mode": "query", "removestops": False},
    {"positions": True, "removestops": False},
    {"positions": True, "chars": True, "keeporiginal": True},
    {"positions": True, "chars": True, "start_pos": 7, "start_char": 13},
    {"positions": True, "chars": True, "start_pos": 3, "removestops": False},
    {"no_morph": True},
    {"no_morph": True, "positions": True, "removestops": False},
    {"tokenize": False},
    {"tokenize": False, "positions": True, "chars": True, "start_pos": 2},
    {"tokenize": False, "removestops": False, "positions": True},
]

STRINGS = [
    "",
    "   ",
    "the",
    "The a an of to",
    "a b c d",
    "Connections connected CONNECTING connection's",
    "the first word is a stop word and so is the last the",
    "snake_case_words and CamelCaseWords, digits 123 4.5 and x86_64",
    "x" * 60 + " " + "y" * 61 + " ok",
    "\u0130stanbul STRASSE Stra\u00dfe \ufb01nancial caf\u00e9 na\u00efve \u00c9T\u00c9",
    "\u4e2d\u6587 \u0441\u043b\u043e\u0432\u043e \u03bb\u03cc\u03b3\u03bf\u03c2 123abc",
    "http://docs.example.test/sql-createindex.html?a=1#frag",
    "I me my it its a i",
]


def _tokens(analyzer: Any, value: str, kwargs: dict[str, Any]) -> list[dict[str, Any]]:
    # Whoosh re-uses one Token object: copy its attributes at each step
    return [dict(t.__dict__) for t in analyzer(value, **kwargs)]


@pytest.fixture(scope="module")
def pages() -> list[tuple[str, str, str, list[str]]]:
    """(URL, title, text, anchor texts) of the sandbox web's HTML pages."""
    web = build_synthetic_web(7, trap=False, faults=False)
    found = []
    for url in web.urls():
        resource = web.fetch(url)
        if resource is not None and resource.is_html:
            page = extract_page(resource.body, url)
            found.append((url, page.title, page.text, [ln.anchor_text for ln in page.links]))
    assert len(found) > 100
    return found


@pytest.fixture(scope="module")
def page_strings(pages: list[tuple[str, str, str, list[str]]]) -> list[str]:
    return [s for url, title, text, anchors in pages for s in (url, title, text, *anchors)]


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_same_tokens_as_the_whoosh_chain(name: str, page_strings: list[str]) -> None:
    chain, fused = CHAINS[name](), FUSED[name]()
    assert isinstance(fused, WordAnalyzer)
    compared = 0
    for kwargs in CALLS:
        for value in STRINGS + page_strings:
            if kwargs.get("tokenize") is False and len(value) > 200:
                continue  # one token of the whole value: short values are enough
            assert _tokens(fused, value, kwargs) == _tokens(chain, value, kwargs), (
                name,
                kwargs,
                value[:80],
            )
            compared += 1
    assert compared > 5000


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_fuse_maps_each_chain_to_its_word_analyzer(name: str) -> None:
    assert fuse(CHAINS[name]()) == FUSED[name]()
    assert fuse(CHAINS[name]()) is not None


def test_fuse_leaves_other_analyzers_alone() -> None:
    others = [
        StemmingAnalyzer(),  # another pattern: still a chain of the same shape
        RegexTokenizer(r"\w+", gaps=True) | LowercaseFilter(),
        RegexTokenizer(r"\w+"),
        RegexTokenizer(r"\w+") | StemFilter(),
        RegexTokenizer(r"\w+") | LowercaseFilter() | StemFilter(lang="french"),
        RegexTokenizer(r"\w+") | LowercaseFilter() | StemFilter(ignore=["running"]),
    ]
    assert isinstance(fuse(others[0]), WordAnalyzer)  # same shape, its own settings
    for value in STRINGS:
        assert _tokens(fuse(others[0]), value, {"positions": True}) == _tokens(
            others[0], value, {"positions": True}
        )
    for analyzer in others[1:]:
        assert fuse(analyzer) is analyzer


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from crawler.search import analysis

    monkeypatch.setattr(analysis, "MEMO_SIZE", 10)
    fused, chain = text_analyzer(), CHAINS["text"]()
    value = " ".join(f"word{i} running runs" for i in range(50))
    assert _tokens(fused, value, {"positions": True}) == _tokens(chain, value, {"positions": True})
    assert len(fused._memo) <= 10


def _old_schema() -> Any:
    """The schema as pickled before WordAnalyzer: the same classes around Whoosh chains."""
    schema = build_schema()
    text = schema["body"].analyzer
    assert isinstance(text, PageTextAnalyzer) and schema["title"].analyzer is text
    text.inner = CHAINS["text"]()
    content = schema["content"].analyzer
    assert isinstance(content, ContentAnalyzer) and content.text is text
    content.url = CHAINS["url"]()
    lead = schema["lead"].analyzer
    assert isinstance(lead, LeadAnalyzer)
    lead.inner = CHAINS["text"]()
    schema["url_text"].analyzer = CHAINS["url"]()
    for name in ("title_exact", "url_name"):
        schema[name].analyzer = CHAINS["exact"]()
    return schema


def _documents(pages: list[tuple[str, str, str, list[str]]]) -> list[dict[str, Any]]:
    now = datetime(2026, 11, 25, tzinfo=UTC)
    return [
        page_document(
            url=url,
            title=title,
            text=text,
            host=url.split("/")[2],
            content_type="text/html",
            fetched_at=now,
            anchors=anchors,
        )
        for url, title, text, anchors in pages
    ]


def _postings(schema: Any, doc: dict[str, Any]) -> dict[str, list]:
    # Whoosh indexes a document's fields in name order (body before content: the replay)
    return {
        name: list(schema[name].index(doc[name]))
        for name in sorted(doc)
        if schema[name].indexed
        and doc[name] is not None
        and schema[name].format.__class__.__name__ != "Existence"
    }


def test_index_postings_unchanged(pages: list[tuple[str, str, str, list[str]]]) -> None:
    old, new = _old_schema(), build_schema()
    assert isinstance(new["body"].analyzer.inner, WordAnalyzer)
    for doc in _documents(pages):
        assert _postings(new, doc) == _postings(old, doc), doc["url"]


def test_an_index_pickled_with_the_chains_opens_and_analyses_with_word_analyzers(
    tmp_path: Any, pages: list[tuple[str, str, str, list[str]]]
) -> None:
    old = _old_schema()
    # unpickled (as Whoosh reads an index's schema), the chains are replaced
    loaded = pickle.loads(pickle.dumps(old))
    assert isinstance(loaded["body"].analyzer.inner, WordAnalyzer)
    assert isinstance(loaded["lead"].analyzer.inner, WordAnalyzer)
    assert isinstance(loaded["content"].analyzer.url, WordAnalyzer)
    assert loaded["content"].analyzer.text is loaded["body"].analyzer
    docs = _documents(pages)[:40]
    for doc in docs:
        assert _postings(loaded, doc) == _postings(old, doc)

    ix = whoosh_index.create_in(str(tmp_path), old, indexname="pages")
    with ix.writer() as writer:
        for doc in docs:
            writer.add_document(**doc)
    ix.close()
    ix = whoosh_index.open_dir(str(tmp_path), indexname="pages")
    try:
        assert isinstance(ix.schema["body"].analyzer.inner, WordAnalyzer)
        chain = CHAINS["text"]()
        word = next(
            w
            for w in docs[0]["body"].split()
            if w.isalpha() and len(w) > 4 and len(list(chain(w))) == 1
        )
        (term,) = [t.text for t in chain(word)]
        with ix.searcher() as searcher:
            query = QueryParser("body", ix.schema).parse(word)
            found = {hit["url"] for hit in searcher.search(query, limit=None)}
        expected = {doc["url"] for doc in docs if term in {t.text for t in chain(doc["body"])}}
        assert docs[0]["url"] in found
        assert found == expected
    finally:
        ix.close()
