"""The query language on a small index: exact result sets for every operator."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from crawler.search import (
    IndexWriter,
    QuerySyntaxError,
    SearchEngine,
    advanced_query,
    open_index,
    page_document,
)
from crawler.search.index import BACKENDS
from crawler.search.query import parse, tokenize
from tests.search.indexes import engine_over

NOW = datetime.now(UTC)

# number -> (url, title, body, content type, Last-Modified)
PAGES = {
    1: (
        "http://alpha.test/python-json",
        "Python JSON guide",
        "The json module encodes Python objects. Use json.dumps to serialize.",
        "text/html",
        None,
    ),
    2: (
        "http://alpha.test/snakes",
        "Snakes of the world",
        "A python is a large snake that lives in Asia and Africa.",
        "text/html",
        None,
    ),
    3: (
        "http://beta.test/databases",
        "Databases",
        "PostgreSQL is a relational database. The CREATE INDEX command builds an index.",
        "text/html",
        None,
    ),
    4: (
        "http://beta.test/python-db",
        "Python and databases",
        "Connecting Python programs to a database through a driver.",
        "text/html",
        None,
    ),
    5: (
        "http://docs.gamma.test/far",
        "Distance test",
        "python one two three four five six seven eight nine ten eleven twelve database",
        "text/html",
        None,
    ),
    6: (
        "http://docs.gamma.test/near",
        "Near test",
        "database alpha beta python",
        "text/html",
        None,
    ),
    7: (
        "http://gamma.test/notes.txt",
        "",
        "plain text notes about cooking recipes",
        "text/plain",
        None,
    ),
    8: (
        "http://beta.test/old",
        "Old tutorial",
        "archived python tutorial connections",
        "text/html",
        datetime(2020, 1, 1, tzinfo=UTC),
    ),
}
URL_NUMBER = {url: number for number, (url, *_rest) in PAGES.items()}
EVERY = set(PAGES)
PYTHON = {1, 2, 4, 5, 6, 8}
DATABASE = {3, 4, 5, 6}


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
                text=body,
                host=url.split("/")[2],
                content_type=ctype,
                fetched_at=NOW - timedelta(days=1),
                last_modified=modified,
                crawl_id="t",
            )
            for url, title, body, ctype, modified in PAGES.values()
        ),
        pagerank_weight=0.0,
    )


def found(engine: SearchEngine, query: str) -> set[int]:
    results = engine.search(query, per_page=100)
    assert results.error is None, results.error
    assert results.total == len(results.hits)
    return {URL_NUMBER[hit.url] for hit in results.hits}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("python", PYTHON),
        ("database", DATABASE),
        ("python AND database", {4, 5, 6}),
        ("python database", PYTHON | DATABASE),  # all-words tier, then any-word tier
        ("python OR snake", PYTHON),
        ("snake OR database", {2, 3, 4, 5, 6}),
        ("python XOR database", {1, 2, 3, 8}),
        ("NOT python", {3, 7}),
        ("python -snake", {1, 4, 5, 6, 8}),
        ("python NOT snake", {1, 4, 5, 6, 8}),
        ("python AND NOT snake", {1, 4, 5, 6, 8}),
        ('"large snake"', {2}),
        ('"snake large"', set()),
        ('"relational database"', {3}),
        ('"relational databases"', {3}),  # stemmed like the documents
        ("python NEAR database", {4, 6}),  # default distance 10
        ("python NEAR/2 database", {4}),  # stop word "and" does not count
        ("python NEAR/3 database", {4, 6}),
        ("python NEAR/12 database", {4, 6}),
        ("python NEAR/13 database", {4, 5, 6}),
        ("database NEAR/3 python", {4, 6}),  # order does not matter
        ('"large snake" NEAR/5 asia', {2}),
        ("title:python", {1, 4}),
        ('title:"python json"', {1}),
        ("title:python NEAR/1 title:databases", {4}),
        ("body:python", PYTHON),
        ("body:databases", DATABASE),
        ("url:snakes", {2}),
        ("url:json", {1}),
        ("site:beta.test", {3, 4, 8}),
        ("site:gamma.test", {5, 6, 7}),
        ("site:docs.gamma.test", {5, 6}),
        ("host:gamma.test", {7}),
        ("domain:gamma.test", {5, 6, 7}),
        ("format:text", {7}),
        ("format:text/plain", {7}),
        ("format:html python", PYTHON),
        ("updated:year", EVERY - {8}),
        ("updated:30d python", PYTHON - {8}),
        ("connections", {4, 8}),  # connecting / connections -> connect
        ("json.dumps", {1}),
        # a qualified name or a name/arity: its name's words, not a phrase of its parts
        ("snake:asia", {2}),  # "snake that lives in Asia"
        ("snake::asia/2", {2}),
        ("json:dumps/1", {1}),
        ("dumps/1", {1}),
        ("-snake:asia python", PYTHON),  # an operand keeps the phrase: "snake asia"
        ("snake:asia OR cooking", {7}),  # (likewise)
        ("(snake OR json) AND python", {1, 2}),
        ("json OR snake AND database", {1}),  # AND binds tighter than OR
        ("(json OR snake) AND database", set()),
        ("python XOR snake OR json", {1, 4, 5, 6, 8}),  # XOR binds tighter than OR
        ("python XOR (snake OR json)", {4, 5, 6, 8}),
        ("NOT python OR snake", {2, 3, 7}),  # NOT binds tightest
        ("python AND", PYTHON),  # lenient: dangling operator
        ("(python", PYTHON),  # lenient: unclosed group
        ("python)", PYTHON),  # lenient: stray parenthesis
        ('"large snake', {2}),  # lenient: unclosed quote
        ("the", set()),  # only a stop word
    ],
)
def test_result_sets(engine: SearchEngine, query: str, expected: set[int]) -> None:
    assert found(engine, query) == expected


def test_plain_words_rank_all_terms_before_any_term(engine: SearchEngine) -> None:
    results = engine.search("python database", per_page=100)
    numbers = [URL_NUMBER[hit.url] for hit in results.hits]
    assert results.total == 7
    assert set(numbers[:3]) == {4, 5, 6}  # both words
    assert set(numbers[3:]) == {1, 2, 3, 8}  # one of them
    assert [hit.matched_all for hit in results.hits] == [True] * 3 + [False] * 4
    assert [hit.rank for hit in results.hits] == list(range(1, 8))


def test_lower_case_operators_are_words(engine: SearchEngine) -> None:
    # "or" is an ordinary (stop) word: this is the plain query "python snake"
    results = engine.search("python or snake", per_page=100)
    numbers = [URL_NUMBER[hit.url] for hit in results.hits]
    assert numbers[0] == 2
    assert set(numbers[1:]) == {1, 4, 5, 6, 8}


def test_pagination_walks_both_tiers(engine: SearchEngine) -> None:
    everything = [hit.url for hit in engine.search("python database", per_page=100).hits]
    paged: list[str] = []
    for page in (1, 2, 3, 4):
        results = engine.search("python database", page=page, per_page=2)
        assert results.total == 7 and results.pages == 4
        assert [hit.rank for hit in results.hits] == list(range(2 * page - 1, min(2 * page, 7) + 1))
        paged += [hit.url for hit in results.hits]
    assert paged == everything
    assert engine.search("python database", page=5, per_page=2).hits == []


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("title:python NEAR body:database", "same field"),
        ("(a OR b) NEAR c", "NEAR joins words or phrases"),
        ("python updated:fortnight", "not a period"),
    ],
)
def test_errors(engine: SearchEngine, query: str, message: str) -> None:
    results = engine.search(query)
    assert results.error is not None and message in results.error
    assert results.hits == [] and results.total == 0


@pytest.mark.parametrize(
    ("query", "suggestion"),
    [
        ("pyhton", "python"),
        ("databse AND python", "database AND python"),
        ("title:snakse", "title:snakes"),
        ("python database", None),  # every word known
        ("connect", None),  # known through stemming
        ("xqzvw", None),  # nothing close
    ],
)
def test_did_you_mean(engine: SearchEngine, query: str, suggestion: str | None) -> None:
    assert engine.search(query).suggestion == suggestion


def test_did_you_mean_spells_a_word_after_non_ascii_text(tmp_path: Path, backend: str) -> None:
    ix = open_index(tmp_path, backend=backend)
    IndexWriter(ix).write([page_document(
        url="http://de.test/schlangen.html", title="Schlangen",
        text="Über Schlangen — und Python: Würgeschlangen und Pythons für Anfänger.",
        host="de.test", content_type="text/html", fetched_at=NOW, crawl_id="t",
    )])
    engine = SearchEngine(ix, pagerank_weight=0.0)
    try:
        assert engine.search("pyhton").suggestion == "python"
        assert engine.search("schlagen").suggestion == "schlangen"
    finally:
        engine.close()


def test_snippets_are_escaped_and_highlighted(tmp_path: Path, backend: str) -> None:
    ix = open_index(tmp_path, backend=backend)
    IndexWriter(ix).write(
        [
            page_document(
                url="http://evil.test/",
                title="<script>alert('title')</script>",
                text="Text with <img src=x onerror=alert(1)> and a python word & more.",
                host="evil.test",
                content_type="text/html",
                fetched_at=NOW,
            )
        ]
    )
    engine = SearchEngine(ix)
    hit = engine.search("python").hits[0]
    assert hit.title == "<script>alert('title')</script>"  # raw: templates escape it
    assert hit.snippet_html == (
        "Text with &lt;img src=x onerror=alert(1)&gt; and a <mark>python</mark> word &amp; more."
    )
    assert hit.snippet == "Text with <img src=x onerror=alert(1)> and a python word & more."
    engine.close()


def test_refetched_url_replaces_its_document_and_keeps_its_pagerank(
    tmp_path: Path, backend: str
) -> None:
    ix = open_index(tmp_path, backend=backend)
    writer = IndexWriter(ix)

    def doc(text: str, pagerank: float = 0.0) -> dict:
        return page_document(
            url="http://a.test/",
            title="A",
            text=text,
            host="a.test",
            content_type="text/html",
            fetched_at=NOW,
            pagerank=pagerank,
        )

    writer.write([doc("first version apples", pagerank=2.5)])
    writer.write([doc("second version oranges")])
    engine = SearchEngine(ix)
    assert engine.doc_count() == 1
    assert engine.search("apples").total == 0
    hits = engine.search("oranges").hits
    assert [h.url for h in hits] == ["http://a.test/"] and hits[0].pagerank == 2.5
    engine.close()


def test_pagerank_blend_orders_equally_relevant_pages(tmp_path: Path, backend: str) -> None:
    ix = open_index(tmp_path, backend=backend)
    IndexWriter(ix).write(
        [
            # (not the same text: exact copies of a page are one result)
            page_document(
                url=f"http://{name}.test/",
                title="Same",
                text=f"identical {name} here",
                host=f"{name}.test",
                content_type="text/html",
                fetched_at=NOW,
                pagerank=rank,
            )
            for name, rank in (("low", 0.2), ("high", 9.0), ("mid", 1.0))
        ]
    )
    blended = SearchEngine(ix, pagerank_weight=0.5)
    hits = blended.search("identical").hits
    assert [h.url for h in hits] == ["http://high.test/", "http://mid.test/", "http://low.test/"]
    bm25 = SearchEngine(ix, pagerank_weight=0.0).search("identical").hits
    base = bm25[0].score
    assert all(abs(h.score - base) < 1e-9 for h in bm25)  # BM25F alone: a tie
    for hit in hits:
        assert hit.score == pytest.approx(base * (1 + 0.5 * __import__("math").log1p(hit.pagerank)))
    blended.close()


def test_not_drops_the_first_match_when_a_page_before_it_holds_the_word(
    tmp_path: Path, backend: str
) -> None:
    """``beta -rf``: the first page holding "beta" holds "rf", and a page before it
    holds "rf" too (whoosh-reloaded's AndNotMatcher kept such a first page)."""
    ix = open_index(tmp_path, backend=backend)
    IndexWriter(ix).write(
        page_document(url=f"http://{name}.test/", title=name, text=text, host=f"{name}.test",
                      content_type="text/html", fetched_at=NOW)
        for name, text in (("a", "alpha rf"), ("b", "beta rf"), ("c", "beta gamma"))
    )
    engine = SearchEngine(ix)
    for query in ("beta -rf", "beta AND NOT rf"):
        assert [h.url for h in engine.search(query).hits] == ["http://c.test/"], query
    assert {h.url for h in engine.search("beta XOR rf").hits} == {"http://a.test/", "http://c.test/"}
    engine.close()


def test_tokenizer_keeps_word_offsets() -> None:
    tokens = tokenize('title:"a b" -x NEAR/4 y OR (z')
    assert [(t.kind, t.text, t.field, t.distance) for t in tokens] == [
        ("phrase", "a b", "title", None),
        ("op", "NOT", None, None),
        ("word", "x", None, None),
        ("op", "NEAR", None, 4),
        ("word", "y", None, None),
        ("op", "OR", None, None),
        ("lparen", "(", None, None),
        ("word", "z", None, None),
    ]
    text = "foo site:python.org"
    word = tokenize(text)[1]
    assert text[word.start : word.end] == "python.org" and word.field == "site"
    assert parse("") is None and parse("AND OR") is None


def test_tokenizer_splits_qualified_names_and_drops_arities() -> None:
    text = (
        "lists:keyfind/3 atom_length/2 std::vector json.dumps String#gsub DB->put "
        "Data.List.foldl' 10:30 3.11 http://a.test/b e.g."
    )
    tokens = tokenize(text)
    assert [t.text for t in tokens] == [
        "lists", "keyfind", "atom_length", "std", "vector", "json", "dumps", "String",
        "gsub", "DB", "put", "Data", "List", "foldl'", "10:30", "3.11", "http://a.test/b",
        "e.g.",
    ]
    assert all(text[t.start : t.end] == t.text for t in tokens)
    # the operand of an operator stays one word (split, the operator would bind one part)
    for query in ("-a:b", "NOT a:b", "x OR a:b", "a:b OR x", "a:b NEAR/3 x", "x NEAR a:b"):
        assert "a:b" in [t.text for t in tokenize(query)], query


@pytest.mark.parametrize(
    ("form", "query"),
    [
        ({"all_words": "json dumps"}, '"json" AND "dumps"'),
        ({"exact_phrase": "large snake"}, '"large snake"'),
        ({"any_words": "snake database"}, '("snake" OR "database")'),
        ({"any_words": "snake"}, '"snake"'),
        ({"all_words": "python", "none_words": "snake json"}, '"python" -"snake" -"json"'),
        ({"all_words": "python", "occur": "title"}, 'title:"python"'),
        (
            {
                "all_words": "python",
                "occur": "url",
                "site": "beta.test",
                "file_format": "html",
                "updated": "year",
            },
            'url:"python" AND site:beta.test AND format:html AND updated:year',
        ),
        ({"all_words": 'OR "NEAR', "file_format": "any", "updated": "anytime"}, '"OR" AND "NEAR"'),
        ({"site": "a.test) OR (x"}, "site:a.testORx"),
    ],
)
def test_advanced_query_strings(form: dict[str, str], query: str) -> None:
    assert advanced_query(**form) == query


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ({"all_words": "python database"}, {4, 5, 6}),
        ({"exact_phrase": "relational database"}, {3}),
        ({"any_words": "snake json"}, {1, 2}),
        ({"all_words": "python", "none_words": "snake"}, {1, 4, 5, 6, 8}),
        ({"all_words": "python", "occur": "title"}, {1, 4}),
        ({"all_words": "python", "occur": "url"}, {1, 4}),
        ({"any_words": "python notes", "file_format": "text"}, {7}),
        ({"all_words": "python", "site": "beta.test"}, {4, 8}),
        ({"all_words": "python", "updated": "month"}, PYTHON - {8}),
        ({"all_words": "and OR"}, set()),  # operator-looking words stay (stop) words
    ],
)
def test_advanced_search_results(
    engine: SearchEngine, form: dict[str, str], expected: set[int]
) -> None:
    assert found(engine, advanced_query(**form)) == expected


def test_query_syntax_error_is_a_value_error() -> None:
    assert issubclass(QuerySyntaxError, ValueError)


def test_blend_counts_and_ranks_every_match_with_small_pages(tmp_path: Path, backend: str) -> None:
    """Whoosh's score pruning must not drop pages the PageRank factor lifts into the top."""
    ix = open_index(tmp_path, backend=backend)
    IndexWriter(ix).write(
        [
            page_document(
                url=f"http://p{i}.test/",
                title="python" if i % 3 == 0 else "other",
                # (a word of its own: exact copies of a page are one result)
                text=f"page{i} " + "python " * (1 + i % 5) + "filler words " * (i % 7),
                host=f"p{i}.test",
                content_type="text/html",
                fetched_at=NOW,
                pagerank=float(i % 11),
            )
            for i in range(40)
        ]
    )
    for weight in (2.0, 0.0):
        engine = SearchEngine(ix, pagerank_weight=weight)
        everything = engine.search("python OR other", per_page=100)
        assert everything.total == 40
        for per_page in (1, 3, 7):
            paged = []
            for page in range(1, 41 // per_page + 2):
                results = engine.search("python OR other", page=page, per_page=per_page)
                assert results.total == 40
                paged += [(h.url, round(h.score, 9)) for h in results.hits]
            assert paged == [(h.url, round(h.score, 9)) for h in everything.hits]
        engine.close()


def test_terminal_output_drops_control_characters() -> None:
    from crawler.search.terminal import printable, terminal_snippet

    assert printable("title\x1b[31mred\x07") == "title [31mred "
    snippet = "a &lt;b&gt; <mark>python</mark>\x1b]0;x\x07"
    assert terminal_snippet(snippet, bold=False) == "a <b> python ]0;x "
    assert terminal_snippet(snippet, bold=True) == "a <b> \x1b[1mpython\x1b[0m ]0;x "


def test_content_field_reuses_the_body_analysis_exactly(tmp_path: Path) -> None:
    from crawler.search.schema import ContentAnalyzer, PageTextAnalyzer

    doc = page_document(
        url="http://a.test/x-y",
        title="The Title words",
        text="Body text, body words: the x.",
        host="a.test",
        content_type="text/html",
        fetched_at=NOW,
    )
    ix = open_index(tmp_path)
    IndexWriter(ix).write([doc])
    fresh = ContentAnalyzer(PageTextAnalyzer())  # no cached body: analyses every part
    expected: dict[str, tuple[list[int], float]] = {}
    for token in fresh(doc["content"], positions=True, boosts=True, mode="index"):
        positions, weight = expected.get(token.text, ([], 0.0))
        expected[token.text] = ([*positions, token.pos], weight + token.boost)
    with ix.searcher() as searcher:
        reader = searcher.reader()
        indexed = {}
        for term in reader.field_terms("content"):
            postings = reader.postings("content", term)
            indexed[term] = (postings.value_as("positions"), postings.weight())
    assert indexed == expected
    # title words weigh 3, body words 1, URL words 2; parts are 1000 positions apart
    assert expected["titl"] == ([1], 3.0) and expected["bodi"] == ([1002, 1004], 2.0)
    assert expected["x"] == ([1006, 2009], 3.0)  # "x" in the text and in the URL


def test_update_pagerank_changes_only_the_scores_that_moved(tmp_path: Path, backend: str) -> None:
    from crawler.search import update_pagerank

    ix = open_index(tmp_path, backend=backend)
    IndexWriter(ix).write(
        page_document(url=f"http://{name}.test/", title=name, text=f"shared words {name}",
                      host=f"{name}.test", content_type="text/html", fetched_at=NOW,
                      pagerank=rank)
        for name, rank in (("a", 1.0), ("b", 2.0))
    )
    scores = {"http://a.test/": 7.5, "http://b.test/": 2.0, "http://missing.test/": 1.0}
    assert update_pagerank(ix, scores) == 1
    engine = SearchEngine(ix)
    hits = engine.search("shared").hits
    assert [(h.url, h.pagerank) for h in hits] == [("http://a.test/", 7.5), ("http://b.test/", 2.0)]
    assert engine.doc_count() == 2 and [h.url for h in engine.search("b").hits] == [
        "http://b.test/"]
    engine.close()


def test_writers_refuse_the_other_backends_index_and_readers_open_it(tmp_path: Path) -> None:
    from crawler.search import SearchIndexError
    from crawler.search.index import folder_backend, search_backend

    open_index(tmp_path, backend="tantivy").close()
    assert folder_backend(tmp_path) == "tantivy"
    with pytest.raises(SearchIndexError, match="convert it with `scrapy reindex`"):
        open_index(tmp_path, backend="whoosh")
    engine = SearchEngine(tmp_path)
    assert type(engine).__name__ == "TantivySearchEngine" and engine.doc_count() == 0
    with pytest.raises(SearchIndexError, match="SEARCH_BACKEND must be one of whoosh, tantivy"):
        search_backend({"SEARCH_BACKEND": "lucene"})
