"""End to end: a real crawl of a sandbox web indexes its pages; `scrapy pagerank`,
`scrapy search`, `scrapy reindex`; a re-fetched page replaces its document; searches see
the pages a running crawl commits."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import numpy as np
import psycopg
import pytest

from crawler.ranking.pagerank import link_weight
from crawler.sandbox import SandboxWeb, html_page
from crawler.search import SearchEngine, open_index
from crawler.search.index import stored_documents

HOME = "http://www.home.test/"
GUIDE = "http://www.home.test/guide"
ABOUT = "http://www.home.test/about"
MISSING = "http://www.home.test/missing"
OTHER = "http://docs.other.test/"
TABLES = "http://docs.other.test/tables"


def build_web(guide_text: str) -> SandboxWeb:
    web = SandboxWeb()
    web.add_page(HOME, html_page("Home of the test web", (
        '<p><b><i><a href="/guide">The guide</a></i></b> comes first.</p>'
        "<p>Some filler text about nothing in particular, long enough to push the next "
        "links into the later thirds of the page text for their position attribute.</p>"
        f'<p><a href="{OTHER}">Other docs</a> and <a href="/missing">a dead link</a>.</p>'
        '<p>More filler words here to make the page longer still. <a href="/about">About</a>'
        "</p>"
    )))
    web.add_page(GUIDE, html_page("Python guide", (
        f"<p>{guide_text}</p>"
        f'<p><a href="/">Home</a> <a href="{TABLES}">tables</a></p>'
    )))
    web.add_page(ABOUT, html_page("About &lt;script&gt;alert(1)&lt;/script&gt;",
                                  "<p>Nothing links out of this page.</p>"))
    web.add_page(OTHER, html_page("Other docs about databases", (
        f'<p>See <strong><a href="{GUIDE}">the python guide</a></strong>.</p>'
        f'<p><a href="{TABLES}">tables</a></p>'
    )))
    web.add_page(TABLES, html_page("CREATE TABLE", (
        "<p>CREATE TABLE defines a new table in a database.</p>"
        f'<p><a href="{OTHER}">back</a></p>'
    )))
    return web


def indexed(tmp_path: Path) -> dict[str, dict]:
    ix = open_index(tmp_path / ".crawl" / "index", create=False)
    docs = {fields["url"]: fields for fields in stored_documents(ix)}
    ix.close()
    return docs


def expected_pagerank(db: psycopg.Connection, crawl_id: str) -> dict[str, float]:
    """PageRank from the stored rows, computed here independently of the command."""
    urls = [r[0] for r in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s ORDER BY url", (crawl_id,))]
    index = {url: i for i, url in enumerate(urls)}
    rows = db.execute(
        "SELECT source_url, target_url, visibility, position, distance FROM links"
        " WHERE crawl_id = %s", (crawl_id,)).fetchall()
    n = len(urls)
    m = np.zeros((n, n))
    out = np.zeros(n)
    for source, target, vis, pos, dist in rows:
        if target in index and target != source:
            w = float(link_weight(vis, pos, dist))
            m[index[target], index[source]] += w
            out[index[source]] += w
    for u in range(n):
        m[:, u] = m[:, u] / out[u] if out[u] else 1.0 / n
    r = np.linalg.solve(np.eye(n) - 0.85 * m, np.full(n, 0.15 / n))
    return {url: float(r[i] * n) for url, i in index.items()}


@pytest.mark.slow
def test_crawl_index_pagerank_search_reindex(
    sandbox, run_crawl, run_scrapy, db: psycopg.Connection, tmp_path: Path
) -> None:
    server = sandbox(build_web("Learn python with json examples and json.dumps."))
    # the crawl's indexer applies everything before the crawl exits (default: what fits
    # in SEARCH_INDEX_CLOSE_TIMEOUT, tests/search/test_indexer_close.py)
    settings = {"SEARCH_INDEX_CLOSE_TIMEOUT": -1}
    crawl = run_crawl(proxy=server.proxy_url, args={"seed_urls": HOME},
                      settings=settings).check()

    pages = {r[0] for r in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (crawl.crawl_id,))}
    assert pages == {HOME, GUIDE, ABOUT, OTHER, TABLES}
    docs = indexed(tmp_path)
    assert set(docs) == pages  # the pipeline indexed every stored page, nothing else
    assert docs[ABOUT]["title"] == "About <script>alert(1)</script>"
    assert {d["crawl_id"] for d in docs.values()} == {crawl.crawl_id}
    assert all(d["pagerank"] == 0.0 for d in docs.values())  # not ranked yet

    # --- scrapy pagerank
    ranked = run_scrapy("pagerank", "--top", "3").check()
    stored = dict(db.execute(
        "SELECT url, score FROM pagerank WHERE crawl_id = %s", (crawl.crawl_id,)).fetchall())
    expected = expected_pagerank(db, crawl.crawl_id)
    assert set(stored) == pages  # the 404 target is no page of the graph
    for url, score in expected.items():
        assert stored[url] == pytest.approx(score, abs=1e-4)
    assert sum(stored.values()) == pytest.approx(len(pages))
    top3 = sorted(stored, key=stored.get, reverse=True)[:3]
    lines = ranked.stdout.splitlines()
    assert f"crawl {crawl.crawl_id}: 5 pages" in lines[0]
    assert "to URLs not stored" in lines[0] and "1 dangling pages" in lines[0]  # about
    assert "search index" in ranked.stdout and "5 documents updated" in ranked.stdout
    assert [line.split()[2] for line in lines[-3:]] == top3
    docs = indexed(tmp_path)
    for url in pages:
        assert docs[url]["pagerank"] == pytest.approx(stored[url])

    # --- scrapy search
    found = json.loads(run_scrapy("search", "--json", "python json").check().stdout)
    assert [r["url"] for r in found["results"]][:1] == [GUIDE]
    assert found["results"][0]["matched_all"] is True
    assert "<mark>json</mark>" in found["results"][0]["snippet_html"]
    found = json.loads(run_scrapy("search", "--json", "site:docs.other.test").check().stdout)
    assert {r["url"] for r in found["results"]} == {OTHER, TABLES}
    found = json.loads(run_scrapy("search", "--json", '"create table"').check().stdout)
    assert [r["url"] for r in found["results"]] == [TABLES]
    text = run_scrapy("search", "pyhton").check().stdout
    assert text.startswith("Did you mean: python\n")
    text = run_scrapy("search", "title:about").check().stdout
    assert "About <script>alert(1)</script>" in text and ABOUT in text

    # --- scrapy reindex: same documents, PageRank carried over from PostgreSQL
    out = run_scrapy("reindex").check().stdout
    assert out.startswith(f"indexed 5 pages of crawl {crawl.crawl_id} into ")
    docs = indexed(tmp_path)
    assert set(docs) == pages
    for url in pages:
        assert docs[url]["pagerank"] == pytest.approx(stored[url])

    # --- a page fetched again replaces its document
    server.web.add_page(GUIDE, html_page("Python guide", "<p>Now about rust only.</p>"))
    again = run_crawl(proxy=server.proxy_url, args={"seed_urls": GUIDE}, settings=settings)
    again.check()
    docs = indexed(tmp_path)
    assert set(docs) == pages
    assert docs[GUIDE]["body"] == "Now about rust only."
    assert docs[GUIDE]["pagerank"] == pytest.approx(stored[GUIDE])  # kept until re-ranked
    found = json.loads(run_scrapy("search", "--json", "rust").check().stdout)
    assert [r["url"] for r in found["results"]] == [GUIDE]
    found = json.loads(run_scrapy("search", "--json", "json").check().stdout)
    assert found["results"] == []

    # --- scrapy reindex converts the index to the other backend (SEARCH_BACKEND)
    out = run_scrapy("reindex", "--all-crawls", "-s", "SEARCH_BACKEND=tantivy").check().stdout
    assert "(tantivy, converted from whoosh)" in out
    # (the test database is the session's: --all-crawls also indexes other tests' crawls)
    every_doc = indexed(tmp_path)
    ours = {crawl.crawl_id, again.crawl_id}
    docs = {url: doc for url, doc in every_doc.items() if doc["crawl_id"] in ours}
    assert set(docs) == pages and docs[GUIDE]["body"] == "Now about rust only."
    for url in pages - {GUIDE}:  # (the guide's latest fetch, the second crawl, is unranked)
        assert docs[url]["pagerank"] == pytest.approx(stored[url])
    # (other tests' pages in the index may match too: this test's pages rank as before)
    found = json.loads(run_scrapy("search", "--json", "rust").check().stdout)
    assert [r["url"] for r in found["results"] if r["url"] in pages] == [GUIDE]
    found = json.loads(run_scrapy("search", "--json", '"create table"').check().stdout)
    assert [r["url"] for r in found["results"] if r["url"] in pages] == [TABLES]
    assert run_scrapy("search", "pyhton").check().stdout.startswith("Did you mean: python\n")
    # a Whoosh writer refuses the Tantivy folder
    refused = run_scrapy("index")
    assert refused.returncode == 2
    assert "is a tantivy index and SEARCH_BACKEND is whoosh" in refused.stderr
    status = run_scrapy("index", "--status", "-s", "SEARCH_BACKEND=tantivy").check().stdout
    assert f"backend tantivy (SEARCH_BACKEND tantivy), {len(every_doc)} documents" in status
    assert "indexer: none running" in status
    assert f"crawl {crawl.crawl_id}: applied up to outbox id " in status
    assert "outbox lag: 0 operations" in status


def test_commands_report_errors(run_scrapy, database_url: str) -> None:
    missing = run_scrapy("search", "python")
    assert missing.returncode == 2 and "no search index" in missing.stderr
    no_crawl = run_scrapy("pagerank", "--crawl-id", "no-such-crawl")
    assert no_crawl.returncode == 2 and "no crawl with id 'no-such-crawl'" in no_crawl.stderr


@pytest.mark.slow
@pytest.mark.parametrize("own_process", [True, False], ids=["indexer-process", "in-crawl"])
def test_searches_see_pages_while_the_crawl_writes(
    sandbox, run_crawl, tmp_path: Path, own_process: bool
) -> None:
    web = SandboxWeb()
    count = 10  # a chain p0 -> p9, within the default DEPTH_LIMIT
    for i in range(count):
        nxt = f'<a href="/p{i + 1}">next</a>' if i + 1 < count else ""
        web.add_page(f"http://slow.test/p{i}", html_page(f"Page {i}", f"<p>word{i} {nxt}</p>"),
                     delay=0.5)
    server = sandbox(web)
    index_dir = tmp_path / ".crawl" / "index"
    result: list = []
    thread = threading.Thread(target=lambda: result.append(run_crawl(
        proxy=server.proxy_url, args={"seed_urls": "http://slow.test/p0"},
        settings={"SEARCH_BATCH_SIZE": 1, "SEARCH_COMMIT_INTERVAL": 0.2,
                  "CONCURRENT_REQUESTS": 1, "SEARCH_INDEX_PROCESS": own_process,
                  "SEARCH_INDEX_CLOSE_TIMEOUT": -1})))
    thread.start()
    seen_during_crawl: set[int] = set()
    engine = None
    while thread.is_alive():
        if engine is None and list(index_dir.glob("_pages_*.toc")):
            engine = SearchEngine(index_dir, pagerank_weight=0.0)
        if engine is not None:
            seen_during_crawl.add(engine.doc_count())
        time.sleep(0.1)  # the sampling period (each page takes 0.5 s)
    thread.join()
    crawl = result[0].check()
    assert "'search_index/pages': 10" in crawl.stderr
    assert engine is not None
    # the crawl committed page by page and the open searcher followed along
    assert len({n for n in seen_during_crawl if 0 < n < count}) >= 3, seen_during_crawl
    assert engine.doc_count() == count
    assert [h.url for h in engine.search("word7").hits] == ["http://slow.test/p7"]
    engine.close()
