"""The Whoosh backend's cheaper paths of the fifteenth round (issue 25, latency of
description queries) give the same ranking, scores and snippets as the paths they
replace: a description's bonuses preloaded in one array, field lengths read from a
column loaded once per segment, the proximity bonus of a description probed only on
pages holding all its words, the snippets' matched terms recorded for the pages shown.

A small real Whoosh index of two segments (a crawl's index has several)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from crawler.search import SearchEngine, open_index, page_document
from crawler.search.engine import field_lengths
from crawler.search.index import IndexWriter
from crawler.search.proximity import Proximity, proximity_scores
from crawler.search.query import compiler

NOW = datetime(2026, 11, 27, tzinfo=UTC)

PAGES = {
    "http://mpi.test/MPI_Bcast.html": (
        "MPI_Bcast",
        "Broadcasts a message from the process with rank root to all other processes "
        "of the communicator. Input parameters: buffer, count, datatype, root, comm.",
    ),
    "http://mpi.test/MPI_Send.html": (
        "MPI_Send",
        "Performs a blocking send of a message to another process. The message buffer "
        "may be reused when the call returns.",
    ),
    "http://mpi.test/MPI_Isend.html": (
        "MPI_Isend",
        "Begins a nonblocking send: the message is sent to another process without "
        "blocking the caller, which must not modify the buffer until the request completes.",
    ),
    "http://mpi.test/MPI_Reduce.html": (
        "MPI_Reduce",
        "Reduces values on all processes to a single value at the root process, "
        "for example the sum of numbers held by every process of the communicator.",
    ),
    "http://mpi.test/MPI_Comm_rank.html": (
        "MPI_Comm_rank",
        "Determines the rank of the calling process in the communicator.",
    ),
    "http://mpi.test/intro.html": (
        "Introduction to message passing",
        "A process sends a message to another process; all processes of a communicator "
        "take part in a broadcast from the root. Blocking and nonblocking calls differ "
        "in when the buffer may be reused. " * 3,
    ),
}

DESCRIPTION = "Broadcasts a message from the process with rank root to all other processes"
PARAPHRASE = "send a message to another process without blocking"


def document(url: str) -> dict:
    title, text = PAGES[url]
    return page_document(
        url=url,
        title=title,
        text=text,
        host="mpi.test",
        content_type="text/html",
        fetched_at=NOW,
        names=[title] if title.startswith("MPI_") else [],
    )


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    ix = open_index(tmp_path_factory.mktemp("index"), backend="whoosh")
    urls = list(PAGES)
    # two commits without merging: two segments, as a crawl leaves them
    IndexWriter(ix).apply([document(u) for u in urls[:3]], [], merge=False)
    IndexWriter(ix).apply([document(u) for u in urls[3:]], [], merge=False)
    engine = SearchEngine(ix)
    yield engine
    engine.close()


def test_the_index_has_two_segments(engine: SearchEngine) -> None:
    with engine.ix.searcher() as searcher:
        assert len(searcher.reader().leaf_readers()) == 2


@pytest.mark.parametrize("fieldname", ["content", "title", "lead", "headings"])
def test_field_lengths_are_whooshs(engine: SearchEngine, fieldname: str) -> None:
    with engine.ix.searcher() as searcher:
        for reader, _ in searcher.reader().leaf_readers():
            lengths = field_lengths(reader, fieldname)
            assert lengths is not None
            expected = [
                reader.doc_field_length(d, fieldname, 1) for d in range(reader.doc_count_all())
            ]
            assert [lengths(d) for d in range(reader.doc_count_all())] == expected
            assert any(expected) or fieldname == "inlinks"


def results(engine: SearchEngine, query: str, per_page: int = 10, page: int = 1) -> list:
    found = engine.search(query, per_page=per_page, page=page)
    return [(hit.url, round(hit.score, 9), hit.snippet_html) for hit in found.hits]


def test_only_a_description_preloads_its_bonuses(engine: SearchEngine) -> None:
    make = engine.compiler()
    assert make.parse(DESCRIPTION).preload
    assert make.parse(PARAPHRASE).preload
    assert not make.parse("MPI_Send").preload
    assert not make.parse("blocking send").preload


@pytest.mark.parametrize("query", [DESCRIPTION, PARAPHRASE])
def test_preloaded_bonuses_score_as_the_union_tree(
    engine: SearchEngine, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    preloaded = results(engine, query)
    assert preloaded[0][0] == (
        "http://mpi.test/MPI_Bcast.html"
        if query == DESCRIPTION
        else "http://mpi.test/MPI_Isend.html"
    )
    union = compiler._any
    monkeypatch.setattr(
        compiler, "_any", lambda parts, lazy=False, preload=False: union(parts, lazy)
    )
    assert results(engine, query) == preloaded


def test_a_description_s_proximity_needs_all_its_words(engine: SearchEngine) -> None:
    terms = tuple(engine.compiler().analyze("content", "message to another process"))
    prox = Proximity(fieldname="content", terms=terms, pairs=(), whole=True, slop=3, boost=1.0)
    with engine.ix.searcher(weighting=engine.weighting) as searcher:
        urls = {searcher.stored_fields(d)["url"]: d for d in range(searcher.doc_count_all())}
        scores = proximity_scores(searcher, list(urls.values()), prox)
    by_url = {url: scores.get(d, 0.0) for url, d in urls.items()}
    # the words in order: a bonus; Bcast holds "message" and "process" only: none
    assert by_url["http://mpi.test/MPI_Send.html"] > 0
    assert by_url["http://mpi.test/MPI_Isend.html"] > 0
    assert by_url["http://mpi.test/MPI_Bcast.html"] == 0.0


def test_snippets_mark_the_words_on_every_page_of_results(engine: SearchEngine) -> None:
    every = results(engine, PARAPHRASE, per_page=10)
    assert len(every) >= 4
    for page in (1, 2, 3):
        (shown,) = results(engine, PARAPHRASE, per_page=1, page=page)
        assert shown == every[page - 1]
        assert "<mark>" in shown[2]
