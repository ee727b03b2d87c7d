"""The Whoosh backend's sixteenth-round paths (issue 25, the CPU of descriptions on a
large reference collection) give exactly Whoosh's scores: postings read a block at a
time into the preloaded arrays, a description's tier and bonuses in one matcher, the
PageRank column read whole, the snippets' character offsets read with the matched
terms.

A real Whoosh index of two segments and 300 short pages, so that a common word's
postings span several blocks; the arrays are cut into parts of a few pages, so that
every part boundary is crossed."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from whoosh import query as wq
from whoosh.highlight import Highlighter
from whoosh.matching import AndMaybeMatcher, ArrayUnionMatcher

from crawler.search import SearchEngine, open_index, page_document
from crawler.search import engine as engine_module
from crawler.search.engine import column_values
from crawler.search.index import IndexWriter
from crawler.search.preload import (
    BlockArrayUnionMatcher,
    BlockOr,
    BlockPreloadedOr,
    BonusArrayUnionMatcher,
    PreloadedAndMaybe,
)
from crawler.search.query import compiler

NOW = datetime(2026, 11, 27, tzinfo=UTC)
WORDS = ["target", "library", "source", "property", "variable", "compile", "option"]
PAGES = 300


def document(n: int) -> dict:
    # every page a different mix and count of the words (different lengths and weights)
    words = [WORDS[(n * k) % len(WORDS)] for k in range(1, 2 + n % 9)]
    title = f"{WORDS[n % len(WORDS)]} {n}"
    return page_document(
        url=f"http://ref.test/page{n}.html",
        title=title,
        text=f"{title}. Set the {' '.join(words)} of a project. " + "build " * (n % 5),
        host="ref.test",
        content_type="text/html",
        fetched_at=NOW,
        # distinct PageRanks but the last pages' (left at the column's default)
        pagerank=0.0 if n >= PAGES - 3 else 0.5 + n / 97,
        headings=[f"{words[-1]} usage"],
    )


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchEngine]:
    ix = open_index(tmp_path_factory.mktemp("index"), backend="whoosh")
    half = PAGES // 2
    IndexWriter(ix).apply([document(n) for n in range(half)], [], merge=False)
    IndexWriter(ix).apply([document(n) for n in range(half, PAGES)], [], merge=False)
    engine = SearchEngine(ix)
    yield engine
    engine.close()


def pairs(matcher: Any) -> list[tuple[int, float]]:
    out = []
    while matcher.is_active():
        out.append((matcher.id(), matcher.score()))
        matcher.next()
    return out


def terms(fieldname: str, words: list[str], boost: float = 1.0) -> list[wq.Query]:
    return [wq.Term(fieldname, w, boost=boost) for w in words]


MAIN = terms("content", ["target", "librari", "sourc", "compil", "absent"])
BONUS = [
    *terms("title", ["target", "librari"]),
    *terms("headings", ["sourc", "variabl"], boost=0.5),
    wq.Term("content", "project", boost=0.3),  # on every page: several blocks
    wq.Phrase("content", ["set", "the"], boost=1.5),  # not a term: Whoosh's own loop
]


def leaf_searchers(engine: SearchEngine) -> Iterator[Any]:
    with engine.ix.searcher(weighting=engine.weighting) as searcher:
        leaves = [sub for sub, _ in searcher.leaf_searchers()]
        assert len(leaves) == 2
        yield from leaves


def test_a_common_word_spans_several_posting_blocks(engine: SearchEngine) -> None:
    with engine.ix.searcher() as searcher:
        for reader, _ in searcher.reader().leaf_readers():
            # Whoosh writes 128 postings a block
            assert reader.doc_frequency("content", "project") > 128


@pytest.mark.parametrize("partsize", [2048, 7])
def test_block_reads_score_as_whoosh(engine: SearchEngine, partsize: int) -> None:
    for sub in leaf_searchers(engine):
        context = sub.context()
        expected = pairs(
            ArrayUnionMatcher(
                [q.matcher(sub, context) for q in MAIN + BONUS],
                sub.doc_count_all(),
                partsize=partsize,
            )
        )
        got = pairs(
            BlockArrayUnionMatcher(
                [q.matcher(sub, context) for q in MAIN + BONUS],
                sub.doc_count_all(),
                partsize=partsize,
            )
        )
        assert len(expected) > 100
        assert got == expected  # the same floats, not approximately


@pytest.mark.parametrize("partsize", [2048, 7])
def test_a_tier_and_its_bonus_in_one_matcher_score_as_and_maybe(
    engine: SearchEngine, partsize: int
) -> None:
    for sub in leaf_searchers(engine):
        context = sub.context()
        count = sub.doc_count_all()
        expected = pairs(
            AndMaybeMatcher(
                ArrayUnionMatcher([q.matcher(sub, context) for q in MAIN], count),
                ArrayUnionMatcher([q.matcher(sub, context) for q in BONUS], count),
            )
        )
        got = pairs(
            BonusArrayUnionMatcher(
                [q.matcher(sub, context) for q in MAIN],
                [q.matcher(sub, context) for q in BONUS],
                1.0,
                count,
                partsize=partsize,
            )
        )
        # pages with and without a bonus
        assert {d for d, _ in expected} != {
            d for d, _ in pairs(ArrayUnionMatcher([q.matcher(sub, context) for q in BONUS], count))
        }
        assert got == expected


def test_the_combined_matcher_is_used_for_a_scored_preloading_or(engine: SearchEngine) -> None:
    q = PreloadedAndMaybe(BlockOr(MAIN), BlockPreloadedOr(BONUS))
    for sub in leaf_searchers(engine):
        assert isinstance(q.matcher(sub, sub.context()), BonusArrayUnionMatcher)
        # unscored, or where the parent asks for the current match: Whoosh's matchers
        assert not isinstance(q.matcher(sub, sub.boolean_context()), BonusArrayUnionMatcher)
        current = sub.context(needs_current=True)
        assert not isinstance(q.matcher(sub, current), BonusArrayUnionMatcher)


def results(engine: SearchEngine, query: str, page: int = 1) -> list:
    found = engine.search(query, per_page=10, page=page)
    return [(hit.url, hit.score, hit.snippet_html) for hit in found.hits] + [found.total]


DESCRIPTIONS = [
    "set the target library of a project",
    "compile the source variable option",
    "the property of a library build option",
]


@pytest.mark.parametrize("query", DESCRIPTIONS)
def test_descriptions_rank_as_with_whooshs_matchers(
    engine: SearchEngine, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert engine.compiler().parse(query).preload
    ours = [results(engine, query, page) for page in (1, 2, 3)]
    monkeypatch.setattr(compiler, "BlockOr", wq.Or)
    monkeypatch.setattr(compiler, "BlockPreloadedOr", compiler.PreloadedOr)
    monkeypatch.setattr(compiler, "PreloadedAndMaybe", wq.AndMaybe)
    whooshs = [results(engine, query, page) for page in (1, 2, 3)]
    assert len(whooshs[0]) == 11
    assert ours == whooshs


def test_the_pagerank_column_read_whole_is_whooshs(engine: SearchEngine) -> None:
    with engine.ix.searcher() as searcher:
        for reader, _ in searcher.reader().leaf_readers():
            expected = list(reader.column_reader("pagerank"))
            got = column_values(reader.column_reader("pagerank"))
            assert got == expected
            assert len(set(expected)) > 100
        # the second segment ends with pages at the default (past the column's values)
        assert expected[-3:] == [0.0, 0.0, 0.0]


def test_snippets_from_offsets_read_with_the_matched_terms_are_the_highlighters(
    engine: SearchEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    queries = [*DESCRIPTIONS, "library", "target 12", "compile option"]
    loads: list[int] = []
    load_chars = Highlighter._load_chars
    monkeypatch.setattr(
        Highlighter, "_load_chars", staticmethod(lambda *a: loads.append(1) or load_chars(*a))
    )
    ours = [results(engine, q, page) for q in queries for page in (1, 2)]
    assert not loads  # the offsets came with the matched terms
    assert sum("<mark>" in hit[2] for found in ours for hit in found[:-1]) > 50

    attach = engine_module._attach_matched_terms

    def without_offsets(searcher: Any, found: Any, *args: Any) -> None:
        attach(searcher, found, *args)
        found._char_cache.clear()

    monkeypatch.setattr(engine_module, "_attach_matched_terms", without_offsets)
    assert [results(engine, q, page) for q in queries for page in (1, 2)] == ours
    assert loads  # the highlighter read them itself
