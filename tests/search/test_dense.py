"""Sentence vectors of pages re-scoring descriptions (crawler/search/dense.py): the
passage a vector is made of, the fusion, the vectors built by a rebuild and reused by the
next, and both backends re-scoring alike."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from crawler.extract import extract_page
from crawler.sandbox.corpora import DEBIAN_DOC_SITES
from crawler.search import SearchEngine, page_document
from crawler.search.dense import (
    VECTORS_FILE,
    PageVectors,
    VectorBuilder,
    encode_query,
    passage_text,
    rerank,
    url_key,
)
from crawler.search.index import rebuild_index

HOST = "docs.python.test"
PAGES = ("csv", "wave", "pickle", "marshal", "shelve", "tempfile", "glob", "fnmatch",
         "shutil", "timeit", "random", "zlib", "gzip", "json", "sched", "heapq")


def test_a_passage_is_the_title_the_first_headings_and_the_opening_words() -> None:
    text = passage_text("csv — CSV File Reading and Writing", "csv\nModule Contents\nDialects",
                        "The so-called CSV format is the most common import format " * 20, 20)
    assert text == (
        "csv — CSV File Reading and Writing. csv. Module Contents. The so-called CSV format"
        " is the most common import format"
    )
    assert len(text.split()) == 20
    # a heading repeating the title is not taken twice; no headings, no body
    assert passage_text("Pickle", "pickle", "", 10) == "Pickle"
    assert passage_text("", "", "one two three", 2) == "one two"


def _vectors(rows: dict[int, list[float]]) -> PageVectors:
    keys = np.array(list(rows), dtype=np.uint64)
    vectors = np.array(list(rows.values()), dtype=np.float16)
    return PageVectors(keys, vectors, np.zeros(len(rows), dtype="S8"))


def test_the_window_is_fused_with_the_cosine_and_stays_above_the_rest() -> None:
    vectors = _vectors({1: [1.0, 0.0], 2: [0.0, 1.0], 3: [0.6, 0.8]})
    query = np.array([0.0, 1.0], dtype=np.float32)
    top = [(10.0, "a"), (8.0, "b"), (6.0, "c"), (5.0, "d")]
    keys = [1, 2, 3, 9]  # "d" has no vector
    out = rerank(top, keys, query, vectors, weight=0.5, window=3)
    # a: 0.5 * 1 + 0.5 * 0 = 0.5; b: 0.5 * 0.8 + 0.5 * 1 = 0.9; c: 0.5 * 0.6 + 0.5 * 0.8
    assert [a for _, a in out] == ["b", "c", "a", "d"]
    assert out[2][0] > 5.0 and out[3] == (5.0, "d")
    # weight 0: the order as it was; a hit without a vector gets the lowest cosine
    assert [a for _, a in rerank(top, keys, query, vectors, 0.0, 3)] == ["a", "b", "c", "d"]
    out = rerank(top, keys, query, vectors, weight=1.0, window=4)
    assert [a for _, a in out] == ["b", "c", "a", "d"]


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = Path(DEBIAN_DOC_SITES[HOST]) / "library"
    docs = []
    for name in PAGES:
        url = f"http://{HOST}/library/{name}.html"
        page = extract_page((folder / f"{name}.html").read_bytes(), url)
        docs.append(
            page_document(
                url=url, title=page.title, text=page.text, host=HOST,
                content_type="text/html", fetched_at=datetime(2026, 11, 1, tzinfo=UTC),
                lang="en",
            )
        )
    root = tmp_path_factory.mktemp("dense")
    out = {}
    for backend in ("whoosh", "tantivy"):
        path = root / backend
        assert rebuild_index(path, docs, backend=backend, vectors=True) == len(PAGES)
        out[backend] = path
    return out


def test_a_rebuild_stores_a_vector_per_page_and_the_next_reuses_them(
    indexes: dict[str, Path],
) -> None:
    whoosh = PageVectors.load(indexes["whoosh"])
    tantivy = PageVectors.load(indexes["tantivy"])
    assert whoosh is not None and tantivy is not None
    assert len(whoosh) == len(PAGES) and (indexes["whoosh"] / VECTORS_FILE).exists()
    row = whoosh.row(url_key(f"http://{HOST}/library/csv.html"))
    assert row is not None
    assert np.array_equal(whoosh.vectors, tantivy.vectors)
    norms = np.linalg.norm(whoosh.vectors.astype(np.float32), axis=1)
    assert np.allclose(norms, 1.0, atol=0.01)
    # a rebuild with the old vectors encodes only the pages whose passage changed
    builder = VectorBuilder(whoosh)
    docs = [
        {"url": f"http://{HOST}/library/csv.html", "title": "csv", "headings": "", "body": "x"},
    ]
    for _ in builder.watch(docs):
        pass
    rebuilt = builder.build()
    assert builder.encoded == 1
    builder = VectorBuilder(rebuilt)
    for _ in builder.watch(docs):
        pass
    assert np.array_equal(builder.build().vectors, rebuilt.vectors) and builder.encoded == 0


def test_both_backends_rescore_a_description_by_the_cosine_alike(
    indexes: dict[str, Path],
) -> None:
    query = "keep python objects in files"
    found = {}
    for backend, path in indexes.items():
        # every matching page on one page of results (the window holds them all)
        plain = SearchEngine(path).search(query, per_page=30)
        dense = SearchEngine(path, dense_weight=1.0).search(query, per_page=30)
        assert 4 <= len(plain.hits) <= len(PAGES)
        found[backend] = [h.url for h in dense.hits]
        # weight 1: the window in the order of the cosine alone
        vectors = PageVectors.load(path)
        assert vectors is not None
        q = encode_query(query)
        cosine = {
            h.url: float(vectors.vectors[vectors.row(url_key(h.url))].astype(np.float32) @ q)
            for h in plain.hits
        }
        assert found[backend] == sorted(cosine, key=lambda u: -cosine[u])
        assert sorted(found[backend]) == sorted(cosine)
    assert found["whoosh"] == found["tantivy"]


def test_names_are_not_rescored(indexes: dict[str, Path]) -> None:
    for path in indexes.values():
        for query in ("pickle", "temporary files", "shell utility operations"):
            plain = SearchEngine(path).search(query, per_page=10)
            dense = SearchEngine(path, dense_weight=1.0).search(query, per_page=10)
            assert [h.url for h in dense.hits] == [h.url for h in plain.hits]
            assert [h.score for h in dense.hits] == [h.score for h in plain.hits]


def test_a_rebuild_without_vectors_keeps_them_for_the_next(indexes: dict[str, Path]) -> None:
    path = indexes["tantivy"]
    before = PageVectors.load(path)
    assert before is not None
    docs = [
        page_document(
            url=f"http://{HOST}/library/csv.html", title="csv", text="comma separated values",
            host=HOST, content_type="text/html", fetched_at=datetime(2026, 11, 1, tzinfo=UTC),
        )
    ]
    assert rebuild_index(path, docs, backend="tantivy") == 1
    after = PageVectors.load(path)
    assert after is not None and np.array_equal(after.vectors, before.vectors)
    assert [h.url for h in SearchEngine(path).search("comma separated values").hits] == [
        f"http://{HOST}/library/csv.html"
    ]
