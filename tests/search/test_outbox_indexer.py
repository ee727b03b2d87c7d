"""The search outbox and its one indexer per index folder: real PostgreSQL, real Whoosh,
real `scrapy crawl` and `scrapy index` processes (one killed with SIGKILL)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from crawler.items import PageItem, UncrawledItem
from crawler.pipelines.postgres import write_batch
from crawler.sandbox import SandboxWeb, html_page
from crawler.search import SearchEngine, open_index
from crawler.search.index import stored_documents
from crawler.search.indexer import (
    IndexerConfig,
    IndexerHandle,
    IndexerReport,
    index_key,
    positions,
    register_crawls,
    run_indexer,
    try_lock_index,
)
from crawler.search.outbox import DELETE, enqueue_index_operations, last_operations
from crawler.storage.database import CrawlDatabase
from tests.commands import scrapy_env
from tests.waiting import poll_until, wait_until


@pytest.fixture
def prepared_db(database_url: str, db: psycopg.Connection) -> psycopg.Connection:
    CrawlDatabase(url=database_url).prepare()
    return db


def new_crawl(db: psycopg.Connection) -> str:
    crawl_id = f"ob-{uuid.uuid4().hex[:8]}"
    db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test')", (crawl_id,))
    return crawl_id


def page(url: str, words: str) -> PageItem:
    return PageItem(url=url, final_url=url, host="h.test", status=200,
                    content_type="text/html", fetched_at=datetime.now(UTC), depth=0, size=1,
                    content_md5="x", title=f"title {words}", text=f"body {words}")


def store(database_url: str, crawl_id: str, pages: list[PageItem],
          uncrawled: list[UncrawledItem] = ()) -> None:
    async def write() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await write_batch(conn, crawl_id, pages, list(uncrawled))
    asyncio.run(write())


def documents(path: Path) -> list[dict]:
    ix = open_index(path, create=False)
    docs = stored_documents(ix)
    ix.close()
    return docs


def test_last_operation_of_a_url_counts() -> None:
    rows = [(1, "a", "upsert"), (2, "b", "upsert"), (3, "a", "delete"), (4, "b", "upsert")]
    assert last_operations(rows) == {"a": "delete", "b": "upsert"}


def test_indexer_applies_upserts_and_deletes_and_saves_positions(
    prepared_db: psycopg.Connection, database_url: str, tmp_path: Path, backend: str
) -> None:
    crawl_id = new_crawl(prepared_db)
    urls = [f"http://h.test/{i}" for i in range(7)]
    store(database_url, crawl_id, [page(u, f"word{i}") for i, u in enumerate(urls)])
    outbox = prepared_db.execute(
        "SELECT url, op FROM search_outbox WHERE crawl_id = %s ORDER BY id", (crawl_id,)
    ).fetchall()
    assert outbox == [(u, "upsert") for u in urls]  # written in the pages' transaction
    head = prepared_db.execute(
        "SELECT max(id) FROM search_outbox WHERE crawl_id = %s", (crawl_id,)).fetchone()[0]

    config = IndexerConfig(database_url, str(tmp_path / "index"), batch_size=3,
                           poll_interval=0.05, backend=backend)
    reports: list[IndexerReport] = []
    assert run_indexer(config, [crawl_id], follow=False, stop=threading.Event(),
                       report=reports.append)
    assert [(r.pages, r.commits) for r in reports] == [(3, 1), (3, 1), (1, 1)]
    assert sorted(d["url"] for d in documents(tmp_path / "index")) == urls
    key = index_key(tmp_path / "index")
    assert positions(prepared_db, key) == {crawl_id: head}
    # applied by every registered folder: pruned
    assert prepared_db.execute(
        "SELECT count(*) FROM search_outbox WHERE crawl_id = %s", (crawl_id,)).fetchone()[0] == 0

    # a delete (e.g. a page that now answers 404), and an upsert whose page row is gone
    async def later() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            async with conn.transaction():
                await enqueue_index_operations(conn, crawl_id, [urls[0]], DELETE)
            async with conn.transaction():
                await conn.execute("DELETE FROM pages WHERE crawl_id = %s AND url = %s",
                                   (crawl_id, urls[1]))
                await enqueue_index_operations(conn, crawl_id, [urls[1]])
            async with conn.transaction():  # rolled back: no operation
                await enqueue_index_operations(conn, crawl_id, [urls[2]], DELETE)
                raise psycopg.Rollback()
    asyncio.run(later())
    reports.clear()
    run_indexer(config, [crawl_id], follow=False, stop=threading.Event(), report=reports.append)
    assert [(r.pages, r.deleted) for r in reports] == [(0, 2)]
    assert sorted(d["url"] for d in documents(tmp_path / "index")) == urls[2:]
    with pytest.raises(ValueError):
        asyncio.run(enqueue_index_operations(None, crawl_id, ["x"], "replace"))  # type: ignore[arg-type]


def test_a_demoted_duplicate_leaves_the_index_unless_another_crawl_stores_it(
    prepared_db: psycopg.Connection, database_url: str, tmp_path: Path, backend: str
) -> None:
    """The index is keyed by URL across the folder's crawls: when a crawl demotes a page
    it stored (a better copy was found), the document goes, or, if another crawl of the
    folder still stores the URL, is that crawl's page; whenever the indexer runs."""
    first, second = new_crawl(prepared_db), new_crawl(prepared_db)
    shared, only_first, only_second = (f"http://h.test/{n}" for n in ("shared", "a", "b"))
    store(database_url, first, [page(shared, "first"), page(only_first, "first")])
    store(database_url, second, [page(shared, "second"), page(only_second, "second")])
    config = IndexerConfig(database_url, str(tmp_path / "index"), poll_interval=0.05,
                           backend=backend)

    def index() -> dict[str, str]:
        run_indexer(config, [first, second], follow=False, stop=threading.Event(),
                    report=lambda r: None)
        return {d["url"]: d["crawl_id"] for d in documents(tmp_path / "index")}

    demoted = [UncrawledItem(url, "duplicate_content", "a copy of http://h.test/better",
                             datetime.now(UTC))
               for url in (shared, only_second)]
    for applied_before_the_demotion in (True, False):
        if applied_before_the_demotion:
            assert index() == {shared: second, only_first: first, only_second: second}
        store(database_url, second, [], demoted)
        assert prepared_db.execute(
            "SELECT url FROM pages WHERE crawl_id = %s", (second,)).fetchall() == []
        assert index() == {shared: first, only_first: first}
        store(database_url, second, [page(shared, "second"), page(only_second, "second")])


def test_outbox_ids_commit_in_order(prepared_db: psycopg.Connection, database_url: str) -> None:
    """A second writer of the crawl's outbox waits for the first one's commit, so a
    reader never sees a later id before an earlier one."""
    crawl_id = new_crawl(prepared_db)
    first = psycopg.connect(database_url, autocommit=True)
    with first.transaction():
        first.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                      (0x736F6278, crawl_id))
        first.execute("INSERT INTO search_outbox (crawl_id, url, op) VALUES (%s, 'a', 'upsert')",
                      (crawl_id,))
        second_pid: list[int] = []

        def second_writer() -> None:
            async def write() -> None:
                async with await psycopg.AsyncConnection.connect(database_url) as conn:
                    second_pid.append(conn.info.backend_pid)
                    async with conn.transaction():
                        await enqueue_index_operations(conn, crawl_id, ["b"])
            asyncio.run(write())

        thread = threading.Thread(target=second_writer)
        thread.start()
        # the second writer blocks on the outbox lock, its row not yet inserted
        waiting = poll_until(lambda: prepared_db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)"
            " AND wait_event_type = 'Lock' AND wait_event = 'advisory'", (second_pid,)
        ).fetchone()[0] if second_pid else 0, timeout=30, interval=0.02,
            what="the second writer to wait for the outbox lock")
        assert waiting == 1
        assert prepared_db.execute(
            "SELECT url FROM search_outbox WHERE crawl_id = %s", (crawl_id,)).fetchall() == []
    thread.join()
    first.close()
    rows = prepared_db.execute(
        "SELECT url FROM search_outbox WHERE crawl_id = %s ORDER BY id", (crawl_id,)).fetchall()
    assert rows == [("a",), ("b",)]


def test_one_indexer_per_folder_and_standby_hands_over(
    prepared_db: psycopg.Connection, database_url: str, tmp_path: Path, backend: str
) -> None:
    crawl_id = new_crawl(prepared_db)
    path = tmp_path / "index"
    config = IndexerConfig(database_url, str(path), batch_size=50, poll_interval=0.05,
                           backend=backend)
    key = index_key(path)
    with psycopg.connect(database_url, autocommit=True) as holder:
        assert try_lock_index(holder, key)
        # a one-shot indexer gives up; a crawl's indexer waits on standby
        assert not run_indexer(config, [crawl_id], follow=False, stop=threading.Event(),
                               report=lambda r: None, standby=False)
        standby = IndexerHandle(config, [crawl_id], in_process=False)
        standby.start()
        store(database_url, crawl_id, [page(f"http://h.test/{i}", "x") for i in range(5)])
        # the standby registers its crawl while it polls; it never writes meanwhile
        wait_until(lambda: crawl_id in positions(holder, key), timeout=30, interval=0.01,
                   what="the standby to register its crawl")
        assert positions(holder, key) == {crawl_id: 0}
        assert standby.alive and not path.exists()
    # the holder quit (its lock died with its session): the standby takes over
    report, finished = standby.stop()
    assert finished and report.pages == 5
    assert sorted(d["url"] for d in documents(path)) == [f"http://h.test/{i}" for i in range(5)]


@pytest.mark.slow
def test_kill_9_of_the_indexer_then_restart_indexes_every_page_once(
    sandbox, run_crawl, prepared_db: psycopg.Connection, database_url: str, tmp_path: Path
) -> None:
    web = SandboxWeb()
    count = 120
    for i in range(count):
        links = "".join(f'<a href="/p{j}">p{j}</a> ' for j in (2 * i + 1, 2 * i + 2) if j < count)
        web.add_page(f"http://kill.test/p{i}", html_page(f"Page {i}", f"<p>word{i} {links}</p>"))
    server = sandbox(web)
    crawl = run_crawl(proxy=server.proxy_url, args={"seed_urls": "http://kill.test/p0"},
                      settings={"SEARCH_INDEX_ENABLED": False}).check()
    stored = {r[0] for r in prepared_db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (crawl.crawl_id,))}
    assert len(stored) == count
    head = prepared_db.execute(
        "SELECT max(id) FROM search_outbox WHERE crawl_id = %s", (crawl.crawl_id,)).fetchone()[0]
    index_dir = tmp_path / ".crawl" / "index"
    key = index_key(index_dir)
    cmd = [sys.executable, "-m", "scrapy", "index", "--crawl-id", crawl.crawl_id,
           "-s", f"CRAWLER_DATA_DIR={tmp_path / '.crawl'}", "-s", "SEARCH_BATCH_SIZE=4"]
    indexer = subprocess.Popen(cmd, cwd=tmp_path, env=scrapy_env(database_url),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: positions(prepared_db, key).get(crawl.crawl_id, 0) > 0, timeout=120,
               interval=0.01, what="the indexer to save a position")
    os.kill(indexer.pid, signal.SIGKILL)
    indexer.communicate()
    position = positions(prepared_db, key)[crawl.crawl_id]
    assert 0 < position < head  # killed mid-way
    partly = documents(index_dir)
    assert 0 < len(partly) < count

    again = subprocess.run(cmd, cwd=tmp_path, env=scrapy_env(database_url),
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    docs = documents(index_dir)
    assert len(docs) == count  # each stored page exactly once
    assert {d["url"] for d in docs} == stored
    assert positions(prepared_db, key)[crawl.crawl_id] == head
    assert prepared_db.execute(
        "SELECT count(*) FROM search_outbox WHERE crawl_id = %s",
        (crawl.crawl_id,)).fetchone()[0] == 0
    # a busy folder is an error for a one-shot indexer; reindex still works when free
    with psycopg.connect(database_url, autocommit=True) as holder:
        assert try_lock_index(holder, key)
        busy = subprocess.run(cmd, cwd=tmp_path, env=scrapy_env(database_url),
                              capture_output=True, text=True, timeout=120)
        assert busy.returncode == 2
        assert busy.stderr.strip().splitlines() == [
            f"error: another indexer is applying the outbox to {index_dir}"]
    out = subprocess.run(
        [sys.executable, "-m", "scrapy", "reindex", "--crawl-id", crawl.crawl_id,
         "-s", f"CRAWLER_DATA_DIR={tmp_path / '.crawl'}"],
        cwd=tmp_path, env=scrapy_env(database_url), capture_output=True, text=True,
        timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"indexed {count} pages of crawl {crawl.crawl_id}")
    assert len(documents(index_dir)) == count


def test_merge_policy_changes_segments_not_results(
    prepared_db: psycopg.Connection, database_url: str, tmp_path: Path
) -> None:
    crawl_id = new_crawl(prepared_db)
    words = ["alpha beta", "beta gamma", "gamma delta", "alpha alpha", "delta", "beta",
             "alpha gamma", "epsilon"]
    store(database_url, crawl_id,
          [page(f"http://h.test/{i}", w) for i, w in enumerate(words)])
    results = {}
    for merge_every in (1, 3, 100):  # all registered first: the outbox is kept for each
        register_crawls(prepared_db, index_key(tmp_path / f"index-{merge_every}"), [crawl_id])
    for merge_every in (1, 3, 100):
        path = tmp_path / f"index-{merge_every}"
        config = IndexerConfig(database_url, str(path), batch_size=2, poll_interval=0.05,
                               merge_every=merge_every)
        reports: list[IndexerReport] = []
        run_indexer(config, [crawl_id], follow=False, stop=threading.Event(),
                    report=reports.append)
        assert sum(r.commits for r in reports) == 4 and sum(r.pages for r in reports) == 8
        engine = SearchEngine(path, pagerank_weight=0.0)
        results[merge_every] = {q: [h.url for h in engine.search(q).hits]
                                for q in ("alpha", "beta", "gamma OR delta", "epsilon")}
        assert engine.doc_count() == 8
        engine.close()
    assert results[3] == results[1] == results[100]
    assert results[1]["epsilon"] == ["http://h.test/7"]
