"""Relevance on small hand-built indexes: exact names beat stemmed cousins, pages beat the
lists quoting them, words close together beat scattered ones (exact rank orders)."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from crawler.search import (
    IndexWriter,
    SearchEngine,
    SearchIndexError,
    build_schema,
    open_index,
    page_document,
)
from crawler.search.fields import hub_score, url_name
from crawler.search.index import INDEX_NAME
from crawler.search.proximity import in_order, near
from crawler.search.query import Boosts
from crawler.search.schema import document_from_stored

NOW = datetime(2026, 1, 1, tzinfo=UTC)
API = "http://api.test/java/nio/file/"


def build(path: Path, pages: Sequence[tuple[str, str, str, float, Sequence[str]]],
          backend: str = "whoosh") -> SearchEngine:
    """An engine over pages (url, title, text, PageRank, anchor texts of its links)."""
    ix = open_index(path, backend=backend)
    IndexWriter(ix).write(
        page_document(url=url, title=title, text=text, host="api.test",
                      content_type="text/html", fetched_at=NOW, pagerank=rank,
                      anchors=anchors)
        for url, title, text, rank, anchors in pages
    )
    return SearchEngine(ix)


def ranked(engine: SearchEngine, query: str) -> list[str]:
    return [hit.url.rsplit("/", 1)[-1] for hit in engine.search(query, per_page=20).hits]


NAV = "Overview Package Class Use Tree Deprecated Index Help"
PATH_TEXT = (f"{NAV} Interface Path An object that may be used to locate a file in a file "
             "system. It will typically represent a system dependent file path. A Path "
             "represents a path that is hierarchical. Paths may be used with the Files "
             "class. Path resolve(Path other) resolves the given path against this path.")
PATHS_TEXT = (f"{NAV} Class Paths This class consists exclusively of static methods that "
              "return a Path by converting a path string or URI. Path get(String first) "
              "converts a path string to a Path.")
ARRAYS_TEXT = (f"{NAV} Class Arrays This class contains various methods for manipulating "
               "arrays such as sorting and searching.")
ARRAY_TEXT = (f"{NAV} Class Array The Array class provides static methods to dynamically "
              "create and access Java arrays. An array of arrays.")


def test_exact_title_and_url_name_beat_stemmed_cousins(tmp_path: Path, backend: str) -> None:
    pages = [
        (API + "Path.html", "Path (Java SE 17)", PATH_TEXT, 40.0, NAV.split()),
        (API + "Paths.html", "Paths (Java SE 17)", PATHS_TEXT, 2.0, NAV.split()),
        (API + "Arrays.html", "Arrays (Java SE 17)", ARRAYS_TEXT, 1.0, NAV.split()),
        (API + "Array.html", "Array (Java SE 17)", ARRAY_TEXT, 30.0, NAV.split()),
    ]
    engine = build(tmp_path / "exact", pages, backend=backend)
    # the exact name first, then its stemmed cousin, whatever their PageRank
    assert ranked(engine, "Paths") == ["Paths.html", "Path.html"]
    assert ranked(engine, "Path") == ["Path.html", "Paths.html"]
    assert ranked(engine, "Arrays") == ["Arrays.html", "Array.html"]
    assert ranked(engine, "array") == ["Array.html", "Arrays.html"]
    # without the exact fields' bonus the popular cousin wins (the bug of issue 17)
    plain = SearchEngine(engine.ix, boosts=Boosts(exact=0.0))
    assert ranked(plain, "Paths") == ["Path.html", "Paths.html"]
    assert ranked(plain, "Arrays") == ["Array.html", "Arrays.html"]


def test_url_name_alone_lifts_a_page() -> None:
    assert url_name(API + "Paths.html") == "Paths"
    assert url_name("http://api.test/java/util/Map.Entry.html") == "Map.Entry"
    assert url_name("http://docs.test/sql-createindex.html") == "sql-createindex"
    assert url_name("http://docs.test/guide/") == "guide"
    assert url_name("http://docs.test/") == ""


CLASSES = [f"Class{n:02d}" for n in range(40)]
SENTENCE = ("This class consists exclusively of static methods that return a Path by "
            "converting a path string or URI.")


def summary_page() -> tuple[str, str, str, float, list[str]]:
    """A package summary: every class name (a link) with its first sentence."""
    entries = [f"{name} Describes the {name.lower()} service of the package." for name in
               CLASSES]
    entries.insert(20, f"Paths {SENTENCE}")
    text = f"{NAV} Package java.nio.file Class Summary " + " ".join(entries)
    return (API + "package-summary.html", "java.nio.file (Java SE 17)", text, 60.0,
            [*NAV.split(), *CLASSES, "Paths"])


def test_page_beats_the_list_quoting_it(tmp_path: Path, backend: str) -> None:
    pages = [
        summary_page(),
        (API + "Paths.html", "Paths (Java SE 17)", PATHS_TEXT, 2.0, [*NAV.split(), "Path"]),
        (API + "Path.html", "Path (Java SE 17)", PATH_TEXT, 40.0, [*NAV.split(), "Files"]),
    ]
    engine = build(tmp_path / "hub", pages, backend=backend)
    assert ranked(engine, SENTENCE)[:2] == ["Paths.html", "package-summary.html"]
    # the name, which the summary holds as link text, finds the class page first
    assert ranked(engine, "Paths") == ["Paths.html", "Path.html", "package-summary.html"]
    # a query naming the summary still finds it first
    assert ranked(engine, "java.nio.file")[0] == "package-summary.html"


def test_module_index_does_not_outrank_the_module_page(tmp_path: Path, backend: str) -> None:
    """The demo's "python json": the module index lists json (a link and its one-line
    description), has the highest PageRank and "Python" in its title."""
    modules = [f"mod{n:02d}" for n in range(60)] + ["json"]
    index_text = "Python Module Index " + " ".join(
        f"{name} Encode and decode the {name} format." for name in modules)
    pages = [
        ("http://docs.test/py-modindex.html", "Python Module Index", index_text, 29.0,
         modules),
        ("http://docs.test/library/json.html", "json — JSON encoder and decoder",
         "json — JSON encoder and decoder Source code: Lib/json/__init__.py JSON "
         "(JavaScript Object Notation) is a lightweight data interchange format. The json "
         "module exposes an API familiar to users of the standard library marshal and "
         "pickle modules. Encoding basic Python object hierarchies with json.dumps.",
         1.5, ["Lib/json/__init__.py", "JavaScript Object Notation"]),
    ]
    engine = build(tmp_path / "modindex", pages, backend=backend)
    assert ranked(engine, "python json") == ["json.html", "py-modindex.html"]
    plain = SearchEngine(build(tmp_path / "old", [
        (url, title, text, rank, []) for url, title, text, rank, _ in pages], backend=backend).ix,
        boosts=Boosts(exact=0.0, proximity=0.0))
    assert ranked(plain, "python json") == ["py-modindex.html", "json.html"]


def test_hub_score() -> None:
    assert hub_score(text_words=1000, anchor_words=600, links=200) == 1.0
    assert hub_score(text_words=1000, anchor_words=250, links=100) == 0.5
    assert hub_score(text_words=1000, anchor_words=900, links=19) == 0.0  # a menu
    assert hub_score(text_words=1000, anchor_words=500, links=60) == 0.5
    # very many links: a list (an index with one-line descriptions) whatever the share
    assert hub_score(text_words=100_000, anchor_words=4000, links=600) == 1.0
    assert hub_score(text_words=100_000, anchor_words=4000, links=190) == pytest.approx(
        0.5, abs=0.01)
    assert hub_score(text_words=0, anchor_words=0, links=50) == 0.0


# longer than a lead (LEAD_WORDS): the pages differ only in where the words are
FILLER = " ".join(f"word{n}" for n in range(160))


def test_words_close_together_beat_scattered_ones(tmp_path: Path, backend: str) -> None:
    pages = [
        ("http://docs.test/scattered.html", "Settings",
         f"{FILLER} The connection settings. {FILLER} The pool of workers. {FILLER} "
         "A request timeout.", 20.0, []),
        ("http://docs.test/together.html", "Settings",
         f"{FILLER} Set the connection pool timeout here. {FILLER}", 1.0, []),
        ("http://docs.test/reversed.html", "Settings",
         f"{FILLER} The timeout of the pool connection here. {FILLER}", 1.0, []),
        ("http://docs.test/two.html", "Settings",
         f"{FILLER} A connection pool. {FILLER} no time out.", 1.0, []),
    ]
    engine = build(tmp_path / "near", pages, backend=backend)
    assert ranked(engine, "connection pool timeout") == [
        "together.html", "reversed.html", "scattered.html", "two.html"]
    plain = SearchEngine(engine.ix, boosts=Boosts(proximity=0.0))
    assert ranked(plain, "connection pool timeout")[0] == "scattered.html"


def test_index_of_an_older_layout_is_refused(tmp_path: Path) -> None:
    """Same field names, older content layout (version 1: no anchor/hub weights)."""
    schema = build_schema()
    del schema["content"].analyzer.version  # as pickled before versions were recorded
    whoosh_index.create_in(str(tmp_path), schema, indexname=INDEX_NAME).close()
    with pytest.raises(SearchIndexError, match="rebuild it with `scrapy reindex`"):
        open_index(tmp_path)
    shutil.rmtree(tmp_path)
    open_index(tmp_path).close()  # a current index opens
    open_index(tmp_path, create=False).close()


def test_a_compound_segment_is_read_through_the_file(tmp_path: Path) -> None:
    """Whoosh maps a compound segment and copies each file in it into a BytesIO when a
    searcher opens (most of a one-shot search's time): readers open it without mmap."""
    build(tmp_path, [(API + "Path.html", "Path", PATH_TEXT, 0.0, ()),
                     (API + "Paths.html", "Paths", PATHS_TEXT, 0.0, ())])
    assert len(list(tmp_path.glob("*.seg"))) == 1  # one compound segment file
    ix = open_index(tmp_path, create=False)
    assert ix.storage.supports_mmap is False
    assert ranked(SearchEngine(ix), "Paths") == ["Paths.html", "Path.html"]


def test_document_rebuilt_from_stored_fields_keeps_the_signals(tmp_path: Path) -> None:
    """`scrapy pagerank` re-adds documents from their stored fields: the hub score, the
    anchor texts and so the content weights and the lead must come out the same."""
    url, title, text, rank, anchors = summary_page()
    doc = page_document(url=url, title=title, text=text, host="api.test",
                        content_type="text/html", fetched_at=NOW, pagerank=rank,
                        anchors=anchors)
    assert 0 < doc["hub"] < 1
    ix = open_index(tmp_path)
    IndexWriter(ix).write([doc])
    with ix.searcher() as searcher:
        stored = searcher.stored_fields(0)
    again = document_from_stored(stored, pagerank=5.0)
    assert {k: v for k, v in again.items() if k != "pagerank"} == {
        k: v for k, v in doc.items() if k != "pagerank"}
    assert again["pagerank"] == 5.0
    ix.close()


def test_proximity_position_checks() -> None:
    assert near([10, 50], [53], slop=3) and near([53], [50], slop=3)
    assert not near([10, 50], [54, 90], slop=3)
    assert in_order([[1, 20], [22], [25]], slop=3)
    assert not in_order([[1, 20], [22], [21]], slop=3)  # out of order
    assert not in_order([[1], [5]], slop=3)  # too far
