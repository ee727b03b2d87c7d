"""The Tantivy engine's best hits by blended score (issue 28): Tantivy ranks by the
PageRank blend itself through the ``pagerank_blend`` fast field, in one pass; an engine
whose SEARCH_PAGERANK_WEIGHT differs from the index's blends a window in Python. Both must
give exactly the order of blending every match in Python (real Tantivy index)."""

from __future__ import annotations

import json
import math
import random
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tantivy import Query

from crawler.search import IndexWriter, SearchEngine, open_index, page_document
from crawler.search.query.compiler import CompilerBase
from crawler.search.ranking import blend
from crawler.search.tantivy_index import (
    BLEND_WEIGHT,
    MARKER,
    NAME_FIELDS,
    NAME_TERMS,
    TantivyIndex,
    TantivyIndexError,
    blend_weight_value,
    build_tantivy_schema,
    rebuild_tantivy_index,
    url_key_of,
)

NOW = datetime(2026, 11, 1, tzinfo=UTC)
WORDS = (
    "socket server client request thread queue buffer stream parser token table index "
    "cursor commit branch merge module import package config logging handler"
).split()
QUERIES = (
    "socket",
    "server thread",
    "queue buffer stream parser",  # a description: one tier of any word
    "socket server client request thread queue buffer stream parser token table index",
    '"socket server"',
    "socket -thread",
)


def _index(path: Path) -> TantivyIndex:
    ix = open_index(path, backend="tantivy")
    IndexWriter(ix).write(_docs())
    return ix


def _docs() -> list[dict]:
    rng = random.Random(28)
    docs = []
    for i in range(400):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 60)))
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        docs.append(
            page_document(
                url=f"http://h{i % 7}.test/p{i}.html",
                title=title,
                text=text,
                host=f"h{i % 7}.test",
                content_type="text/html",
                fetched_at=NOW,
                pagerank=round(rng.paretovariate(1.5) - 1.0, 6) + i * 1e-6,
            )
        )
    return docs


def _every_match_blended(engine: SearchEngine, q, limit: int, weight: float) -> list:
    """The best ``limit`` addresses of ``q``: every match blended in Python."""
    searcher = engine.ix.searcher()
    hits = searcher.search(q, searcher.num_docs, count=True).hits
    ranks = searcher.fast_field_values("pagerank", [a for _, a in hits])
    scored = sorted(
        (
            (blend(s, pr, weight), a.segment_ord, a.doc)
            for (s, a), pr in zip(hits, ranks, strict=True)
        ),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    return [(seg, doc) for _, seg, doc in scored[:limit]], len(hits)


@pytest.mark.parametrize("weight", [BLEND_WEIGHT, 0.8])
def test_the_best_hits_are_those_of_blending_every_match(tmp_path: Path, weight: float) -> None:
    engine = SearchEngine(_index(tmp_path), pagerank_weight=weight)
    searcher = engine.ix.searcher()
    compiler = engine.compiler(searcher.doc_freq, searcher.num_docs)
    checked = 0
    for text in QUERIES:
        parsed = compiler.parse(text)
        for number, tier in enumerate(parsed.tiers):
            q = parsed.scored(tier, number == 0)
            for limit in (1, 10, 30):
                top, count = engine._top(searcher, q, limit, "")
                expected, matches = _every_match_blended(engine, q, limit, weight)
                assert [(a.segment_ord, a.doc) for _, a in top] == expected, (text, limit)
                assert count == matches
                checked += 1
    # six queries, one of them in two tiers (a sentence of 8+ words is one tier, like a
    # description: docs/search.md)
    assert checked == 3 * 7


def test_one_pass_and_the_python_window_give_the_same_results(tmp_path: Path) -> None:
    ix = _index(tmp_path)
    one_pass = SearchEngine(ix)
    window = SearchEngine(open_index(tmp_path, create=False))
    window.ix.blend_weight = -1.0  # no pagerank_blend for this weight: the Python window
    for text in QUERIES:
        a, b = one_pass.search(text, per_page=20), window.search(text, per_page=20)
        assert [h.url for h in a.hits] == [h.url for h in b.hits]
        assert a.total == b.total > 0
        assert [h.score for h in a.hits] == pytest.approx([h.score for h in b.hits], rel=1e-5)


def test_pagerank_blend_is_the_blend_factor_in_tantivys_weighting() -> None:
    for pagerank in (0.0, 0.3, 1.0, 20.0, 136.0, 5000.0):
        value = blend_weight_value(pagerank, 0.5)
        assert value >= 0.0
        assert math.log2(2.0 + value) == pytest.approx(blend(1.0, pagerank, 0.5), rel=1e-12)
    assert blend_weight_value(0.0, 0.5) == 0.0


def test_the_marker_records_the_blend_weight_and_an_older_layout_is_refused(
    tmp_path: Path,
) -> None:
    TantivyIndex(tmp_path / "new")
    info = json.loads((tmp_path / "new" / MARKER).read_text())
    assert info["layout"] == 3 and info["blend_weight"] == BLEND_WEIGHT == 0.5
    info["layout"] = 1
    (tmp_path / "new" / MARKER).write_text(json.dumps(info))
    with pytest.raises(TantivyIndexError, match="rebuild it with `scrapy reindex`"):
        TantivyIndex(tmp_path / "new", create=False)


@pytest.mark.parametrize("all_matches", [5_000, 0])
def test_a_rescored_lead_phrase_ranks_as_probing_every_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, all_matches: int
) -> None:
    """With a window holding every match, rescoring the lead phrase on the best hits (as
    beyond PROXIMITY_PROBE_DOCS) gives exactly the results of probing it on every match
    of the first tier. The proximity bonus is always rescored, as Whoosh's; with
    RESCORE_ALL_MATCHES 0 on the hits found by their url_key, each phrase (the lead's
    sequence: several) intersected with them (PhraseClause.query)."""
    from crawler.search import tantivy_engine

    monkeypatch.setattr(tantivy_engine, "RESCORE_ALL_MATCHES", all_matches)
    monkeypatch.setattr(tantivy_engine, "RESCORE_WINDOW", 400)
    monkeypatch.setattr(tantivy_engine, "LONG_RESCORE_WINDOW", 400)
    ix = _index(tmp_path)
    probed = SearchEngine(ix)
    expected = {text: probed.search(text, per_page=20) for text in QUERIES}
    searcher = ix.searcher()
    parsed = probed.compiler(searcher.doc_freq, searcher.num_docs).parse(QUERIES[2])
    # the lead's words and phrase; 3 pairs and the whole sequence, rescored
    assert len(parsed.first_bonus) == 4 + 1 and len(parsed.proximity) == 3 + 1
    monkeypatch.setattr(tantivy_engine, "PROXIMITY_PROBE_DOCS", 0)
    parsed = probed.compiler(searcher.doc_freq, searcher.num_docs).parse(QUERIES[2])
    # the lead phrase joins the rescored clauses
    assert len(parsed.proximity) == 1 + 3 + 1 and len(parsed.first_bonus) == 4
    assert parsed.proximity_terms == 4
    rescored = 0
    for text in QUERIES:
        got = probed.search(text, per_page=20)
        assert [h.url for h in got.hits] == [h.url for h in expected[text].hits], text
        assert got.total == expected[text].total
        assert [h.score for h in got.hits] == pytest.approx(
            [h.score for h in expected[text].hits], rel=1e-5
        )
        rescored += bool(
            probed.compiler(searcher.doc_freq, searcher.num_docs).parse(text).proximity
        )
    assert rescored == 3  # the two words, the description and the sentence


def test_the_phrase_cost_counts_the_pages_of_each_phrases_rarest_word(tmp_path: Path) -> None:
    ix = _index(tmp_path)
    engine = SearchEngine(ix)
    searcher = ix.searcher()
    compiler = engine.compiler(searcher.doc_freq, searcher.num_docs)
    df = {w: searcher.doc_freq("content_w", w) for w in ("socket", "server", "thread")}
    cost = compiler._proximity_cost(compiler.parse("socket server thread").tree)
    sequence = min(df.values())
    lead = min(searcher.doc_freq("lead", w) for w in ("socket", "server", "thread"))
    assert lead > 0
    pairs = min(df["socket"], df["server"]) + min(df["server"], df["thread"])
    assert cost == pairs + sequence + lead
    # two words: one pair, no sequence, no lead phrase
    df2 = min(df["socket"], df["server"])
    assert compiler._proximity_cost(compiler.parse("socket server").tree) == df2
    assert compiler._proximity_cost(compiler.parse("socket").tree) == 0


NAME_WORDS = ("hook", "hooks", "index", "commit", "config", "server", "socket", "stream")


def _named_documents(count: int, seed: int = 29) -> list[dict]:
    """Pages whose titles and URL names hold NAME_WORDS alone or inside longer words
    (githooks, createindex, hooks_2)."""
    rng = random.Random(seed)
    docs = []
    for i in range(count):
        name = "".join(
            rng.choice(("git", "create", "")) + rng.choice(NAME_WORDS)
            + rng.choice(("", "s", "_2", "er"))
            for _ in range(rng.randint(1, 2))
        )
        title = f"{rng.choice(NAME_WORDS).capitalize()} {name if i % 3 else 'page'}"
        text = " ".join(rng.choice(WORDS + list(NAME_WORDS)) for _ in range(rng.randint(5, 40)))
        docs.append(
            page_document(
                url=f"http://h{i % 5}.test/docs/{name if i % 2 else i}.html",
                title=title,
                text=text,
                host=f"h{i % 5}.test",
                content_type="text/html",
                fetched_at=NOW,
                pagerank=round(rng.paretovariate(1.5) - 1.0, 6) + i * 1e-6,
            )
        )
    return docs


def test_the_name_part_vocabulary_ranks_as_the_regular_expressions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name-part bonus from the index's vocabulary of name terms gives exactly the
    results and scores of the regular expressions over the exact title's and URL name's
    term dictionaries (an index without the vocabulary)."""
    ix = open_index(tmp_path, backend="tantivy")
    IndexWriter(ix).write(_named_documents(300))
    engine = SearchEngine(ix)
    queries = ("hooks", "index commit", "hooks -commit", "stream OR index", "config server",
               "title:hooks", "server socket stream hook commit")
    with_vocabulary = {text: engine.search(text, per_page=30) for text in queries}
    parsed = engine.compiler().parse("index commit")
    # the exact terms (2 words x 2 fields), the name parts (2 x 2); the pair's proximity
    # is rescored
    assert len(parsed.first_bonus) == 4 + 4 and len(parsed.proximity) == 1
    assert "Regex" not in repr(parsed.first_bonus) and "TermSet" in repr(parsed.first_bonus)
    (tmp_path / NAME_TERMS).unlink()
    parsed = engine.compiler().parse("index commit")
    assert len(parsed.first_bonus) == 4 + 4 and "Regex" in repr(parsed.first_bonus)
    for text in queries:
        got = engine.search(text, per_page=30)
        assert [h.url for h in got.hits] == [h.url for h in with_vocabulary[text].hits], text
        assert got.total == with_vocabulary[text].total > 0
        assert [h.score for h in got.hits] == pytest.approx(
            [h.score for h in with_vocabulary[text].hits], rel=1e-6
        )
    # and the bonus does move pages here: without it "hooks" ranks otherwise
    monkeypatch.setattr(CompilerBase, "name_part_words", lambda self, leaves: ([], 0.0))
    assert [h.url for h in engine.search("hooks", per_page=30).hits] != [
        h.url for h in with_vocabulary["hooks"].hits
    ]


def test_the_writers_keep_every_name_term_in_the_vocabulary(tmp_path: Path) -> None:
    """Every term of the exact title and URL name holding 4 letters in a row is in the
    vocabulary after each commit (apply, a rebuild, a writer of an index written before
    it, another writer's appends); a deleted page's terms stay (a superset)."""
    docs = _named_documents(120)

    def indexed_terms(ix: TantivyIndex) -> set[str]:
        searcher = ix.searcher()
        return {
            term
            for fieldname in NAME_FIELDS
            for term, _ in searcher.terms_with_prefix(fieldname, "")
            if re.search(r"[a-z]{4}", term)
        }

    def vocabulary(path: Path) -> list[str]:
        return (path / NAME_TERMS).read_text().splitlines()

    ix = open_index(tmp_path / "a", backend="tantivy")
    assert vocabulary(tmp_path / "a") == []  # a new index has an empty one
    writer = IndexWriter(ix)
    writer.write(docs[:60])
    first = vocabulary(tmp_path / "a")
    assert set(first) == indexed_terms(ix) and len(first) == len(set(first)) > 10
    # a later batch appends its new terms only; deleting pages keeps theirs
    writer.apply(docs[60:], [d["url"] for d in docs[:60]])
    assert vocabulary(tmp_path / "a")[: len(first)] == first
    assert set(vocabulary(tmp_path / "a")) == set(first) | indexed_terms(ix)
    # another writer (another process, e.g. scrapy pagerank) appends; this one sees it
    page = dict(host="x.test", content_type="text/html", fetched_at=NOW, text="x")
    IndexWriter(open_index(tmp_path / "a", backend="tantivy")).write(
        [page_document(url="http://x.test/zzzzlast.html", title="Zzzzfirst", **page)]
    )
    writer.write([page_document(url="http://x.test/qqqq.html", title="zzzzfirst", **page)])
    assert vocabulary(tmp_path / "a")[-3:] == ["zzzzfirst", "zzzzlast", "qqqq"]
    # an index written before the vocabulary: its first writer reads the fields' terms
    ix_b = open_index(tmp_path / "b", backend="tantivy")
    IndexWriter(ix_b).write(docs[:60])
    (tmp_path / "b" / NAME_TERMS).unlink()
    IndexWriter(ix_b).write([page_document(url="http://x.test/b.html", title="Brandnew", **page)])
    assert set(vocabulary(tmp_path / "b")) == indexed_terms(ix_b) == set(first) | {"brandnew"}
    # a rebuild writes its documents' terms
    assert rebuild_tantivy_index(tmp_path / "c", tmp_path / "c-new", docs[:60]) == 60
    assert sorted(vocabulary(tmp_path / "c-new")) == sorted(first)


def test_the_proximity_bonus_scored_on_all_matches_equals_it_by_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first tier of few matches gets its proximity bonus in one search over them; the
    same results and scores as found by the best hits' URLs (RESCORE_ALL_MATCHES)."""
    from crawler.search import tantivy_engine

    engine = SearchEngine(_index(tmp_path))
    one_search = {text: engine.search(text, per_page=20) for text in QUERIES}
    monkeypatch.setattr(tantivy_engine, "RESCORE_ALL_MATCHES", 0)
    for text in QUERIES:
        got = engine.search(text, per_page=20)
        assert [h.url for h in got.hits] == [h.url for h in one_search[text].hits], text
        assert [h.score for h in got.hits] == pytest.approx(
            [h.score for h in one_search[text].hits], rel=1e-6
        )


def test_each_page_s_url_key_is_read_by_address_and_finds_the_page(tmp_path: Path) -> None:
    """The rescore's read path: the ``url_key`` column by address is the hash of the
    page's stored URL, and a term query of it finds that page alone (hashes of 2**63 and
    more included: the column and the term are unsigned)."""
    ix = _index(tmp_path)
    searcher = ix.searcher()
    hits = searcher.search(Query.all_query(), searcher.num_docs, count=False).hits
    addresses = [a for _, a in hits]
    keys = searcher.fast_field_values("url_key", addresses)
    urls = [json.loads(searcher.doc(a).get_first("stored"))["url"] for a in addresses]
    assert len(addresses) == 400
    assert keys == [url_key_of(url) for url in urls]
    assert sum(key >= 2**63 for key in keys) > 100
    for address, key in list(zip(addresses, keys, strict=True))[::40]:
        found = searcher.search(Query.term_query(ix.schema, "url_key", key), 5).hits
        assert [(a.segment_ord, a.doc) for _, a in found] == [(address.segment_ord, address.doc)]


def test_an_index_of_layout_2_is_searched_and_written_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An index built before ``url_key`` (layout 2) still opens, takes new pages and
    ranks as one of the current layout (its rescore finds the hits by their stored
    URLs), and its opening says to rebuild it."""
    from crawler.search import tantivy_engine, tantivy_index

    with monkeypatch.context() as old:
        old.setattr(tantivy_index, "LAYOUT_VERSION", 2)
        old.setattr(tantivy_index, "build_tantivy_schema", lambda: build_tantivy_schema(
            url_key=False
        ))
        IndexWriter(open_index(tmp_path / "old", backend="tantivy")).write(_docs()[:300])
    assert json.loads((tmp_path / "old" / MARKER).read_text())["layout"] == 2
    with caplog.at_level("WARNING", logger="crawler.search.tantivy_index"):
        old_ix = open_index(tmp_path / "old", backend="tantivy")
    assert not old_ix.has_url_key
    assert "has layout 2 (current: 3)" in caplog.text and "scrapy reindex" in caplog.text
    IndexWriter(old_ix).write(_docs()[300:])
    new_ix = _index(tmp_path / "new")
    assert new_ix.has_url_key
    monkeypatch.setattr(tantivy_engine, "RESCORE_ALL_MATCHES", 0)
    old_engine, new_engine = SearchEngine(old_ix), SearchEngine(new_ix)
    for text in QUERIES:
        a, b = old_engine.search(text, per_page=20), new_engine.search(text, per_page=20)
        assert [h.url for h in a.hits] == [h.url for h in b.hits], text
        assert [h.score for h in a.hits] == pytest.approx([h.score for h in b.hits], rel=1e-6)
        assert a.total == b.total > 0
