"""Query expansion of descriptions through WordNet (crawler/search/thesaurus.py,
crawler/search/expansion.py): the database files of Debian's wordnet-base (installed by
scripts/setup.sh --test) read as they are, and a description expanded alike by both
backends (exact rank orders on a small index)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from crawler.search import IndexWriter, SearchEngine, open_index, page_document
from crawler.search.expansion import Expansion, expansion_terms
from crawler.search.thesaurus import Thesaurus, find_line

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_find_line_searches_the_sorted_lines_after_the_licence_header() -> None:
    lines = b"  1 This software and database\n  2 is provided\n" + b"".join(
        f"{w} n 1 0 1 0 0000000{i}  \n".encode() for i, w in enumerate(
            ["a", "ab", "abc", "b", "join", "joint", "zip"]
        )
    )
    assert find_line(lines, b"join") == "join n 1 0 1 0 00000004  "
    assert find_line(lines, b"a") == "a n 1 0 1 0 00000000  "
    assert find_line(lines, b"zip") == "zip n 1 0 1 0 00000006  "
    assert [find_line(lines, w) for w in (b"jo", b"1", b"zz", b"")] == [None] * 4


def test_wordnet_senses_relatives_and_base_forms() -> None:
    wordnet = Thesaurus.open()
    assert wordnet is not None
    assert wordnet.base_forms("strings", "n") == ["strings", "string"]
    assert wordnet.base_forms("stopped", "v") == ["stop"]  # verb.exc
    assert wordnet.base_forms("children", "n") == ["child"]  # noun.exc
    # the first sense of each part of speech: its other words, and derived words
    assert wordnet.related("quit", senses=1, relations=("synonyms",)) == (
        "discontinue", "stop", "cease",
    )
    assert wordnet.related("concatenate", senses=1, relations=("synonyms", "derived")) == (
        "concatenation",
    )
    assert wordnet.related("concatenate", senses=1, relations=("hypernyms",)) == ("chain",)
    assert wordnet.related("xyzzy") == ()


def test_a_missing_thesaurus_expands_nothing(tmp_path: Path) -> None:
    assert Thesaurus.open(tmp_path) is None
    (tmp_path / "index.noun").write_text("")
    assert Thesaurus.open(tmp_path) is None  # not all its files
    missing = Expansion(weight=1.0, wordnet=str(tmp_path))
    assert expansion_terms(["quit", "queued", "job", "early"], missing, _stem, None) == []
    # at most 2 per word ("queued": "queue up", "line up", phrases only), in WordNet's order
    found = Expansion(weight=1.0, senses=1, terms=2, relations=("synonyms",))
    assert expansion_terms(["quit", "a", "queued", "job"], found, _stem, None) == [
        ("discontinue", 1.0), ("stop", 1.0), ("occupation", 1.0), ("business", 1.0),
    ]
    # the index's terms only
    held = {"stop"}.__contains__
    assert expansion_terms(["quit", "job"], found, _stem, lambda t: int(held(t))) == [
        ("stop", 1.0)
    ]
    assert expansion_terms(["quit"], Expansion(weight=0.0), _stem, None) == []


def _stem(text: str) -> list[str]:
    """An analysis for the test: lower case, "a" a stop word."""
    return [w for w in text.lower().split() if w != "a"]


PAGES = [
    dict(
        url="http://d.test/stop.html",
        title="Stopping",
        text="To stop a job, send it the terminate signal: the job ceases at once.",
    ),
    dict(
        url="http://d.test/queue.html",
        title="Queues",
        text="Queued jobs wait in a queue until one is taken; the queue keeps their order.",
    ),
] + [
    dict(url=f"http://d.test/p{i}.html", title=f"Page {i}", text=f"Page {i} is about settings.")
    for i in range(20)
]


def _engine(path: Path, backend: str, expansion: Expansion) -> SearchEngine:
    ix = open_index(path, backend=backend)
    IndexWriter(ix).write(
        page_document(host="d.test", content_type="text/html", fetched_at=NOW, **p)
        for p in PAGES
    )
    return SearchEngine(ix, pagerank_weight=0.0, expansion=expansion)


def _ranked(engine: SearchEngine, query: str) -> list[str]:
    return [h.url.rsplit("/", 1)[1] for h in engine.search(query).hits]


def test_a_description_finds_the_page_saying_it_in_other_words(
    tmp_path: Path, backend: str
) -> None:
    """"quit" is not on the page that tells how to stop a job; WordNet's synonyms of its
    first sense ("stop", "cease") are, and take it above the page sharing the query's
    other words. A name (three words or fewer) is not expanded; without the thesaurus's
    files, or with the weight 0, the description ranks as before."""
    query = "quit a queued job early"
    expanded = _engine(tmp_path / "on", backend, Expansion(weight=1.0))
    assert _ranked(expanded, query)[:2] == ["stop.html", "queue.html"]
    assert _ranked(expanded, "quit queued job")[:2] == ["queue.html", "stop.html"]
    for name, off in [
        ("off", Expansion(weight=0.0)),
        ("missing", Expansion(weight=1.0, wordnet=str(tmp_path / "none"))),
    ]:
        assert _ranked(_engine(tmp_path / name, backend, off), query)[:2] == [
            "queue.html", "stop.html",
        ]
