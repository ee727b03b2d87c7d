"""Tantivy's snippets come from the stretch of a long body where the query's words are
densest (crawler.search.tantivy_engine.snippet_window): its generator analyses all the
text it is given, which was most of a search's CPU on long documentation pages."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from crawler.search import IndexWriter, SearchEngine, open_index, page_document
from crawler.search.tantivy_engine import snippet_window

FILLER = "Other remarks about unrelated matters of the server. "


def test_the_window_holds_the_span_with_most_distinct_words() -> None:
    body = (
        FILLER * 40 + "a gather call here. " + FILLER * 40
        + "await asyncio.gather(tasks) runs them. " + FILLER * 40
        + "gather gather gather gather. " + FILLER * 40
    )
    start, end = snippet_window(body, ["asyncio", "gather"], 1000, 240)
    assert end - start == 1000
    assert "asyncio.gather" in body[start:end]
    assert start == 0 or not body[start - 1].isalnum()  # a word's start
    # stems as prefixes of words ("configur"); not inside a word ("reconfigure")
    body = FILLER * 100 + "reconfigure it. " + FILLER * 100 + "Configuration files. " + FILLER * 50
    start, end = snippet_window(body, ["configur"], 1000, 240)
    assert "Configuration files" in body[start:end]
    assert "reconfigure" not in body[start:end]


def test_the_whole_body_when_short_or_when_no_word_is_found() -> None:
    assert snippet_window("short body", ["body"], 1000, 240) == (0, 10)
    long_body = FILLER * 100
    assert snippet_window(long_body, ["happi"], 1000, 240) == (0, len(long_body))


def test_a_long_pages_snippet_shows_its_words_in_context(tmp_path: Path) -> None:
    url = "http://docs.test/library/asyncio-task.html"
    body = FILLER * 400 + "Use asyncio.gather to run awaitables concurrently. " + FILLER * 400
    ix = open_index(tmp_path, backend="tantivy")
    IndexWriter(ix).write([page_document(
        url=url, title="Coroutines and Tasks", text=body, host="docs.test",
        content_type="text/html", fetched_at=datetime(2026, 1, 1, tzinfo=UTC))])
    engine = SearchEngine(ix)
    try:
        (hit,) = engine.search("asyncio gather").hits
    finally:
        engine.close()
    assert hit.url == url
    assert "<mark>asyncio</mark>.<mark>gather</mark> to run awaitables" in hit.snippet_html
    assert hit.snippet_html.startswith("… ") and hit.snippet_html.endswith(" …")
