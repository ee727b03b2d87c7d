"""The crawl's indexer at the crawl's close: it applies what fits in its time budget
(SEARCH_INDEX_CLOSE_TIMEOUT) and leaves the rest in the outbox, which the next indexer
of the folder applies. Real PostgreSQL, real Whoosh, real `scrapy crawl` and `scrapy
index` processes."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from crawler.items import PageItem
from crawler.pipelines.postgres import write_batch
from crawler.sandbox import SandboxWeb, html_page
from crawler.search import open_index
from crawler.search.indexer import (
    FIRST_CLOSE_BATCH,
    IndexerConfig,
    IndexerHandle,
    IndexerReport,
    close_batch_size,
    close_fits,
    index_key,
    outbox_backlog,
    positions,
    run_indexer,
    timed_batch_size,
)
from crawler.search.pending import read_pending
from crawler.storage.database import CrawlDatabase
from tests.commands import run_scrapy, scrapy_env
from tests.conftest import crawl_command
from tests.waiting import wait_until


@pytest.fixture
def prepared_db(database_url: str, db: psycopg.Connection) -> psycopg.Connection:
    CrawlDatabase(url=database_url).prepare()
    return db


def documents(path: Path) -> set[str]:
    ix = open_index(path, create=False)
    with ix.searcher() as searcher:
        urls = {fields["url"] for fields in searcher.all_stored_fields()}
    ix.close()
    return urls


def stored_pages(
    db: psycopg.Connection, database_url: str, prefix: str, host: str, count: int
) -> tuple[str, list[PageItem]]:
    """A new crawl with ``count`` stored pages (and their outbox rows): (crawl id, pages)."""
    crawl_id = f"{prefix}-{uuid.uuid4().hex[:8]}"
    db.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'test')", (crawl_id,))
    pages = [
        PageItem(url=f"http://{host}/{i}", final_url=f"http://{host}/{i}", host=host,
                 status=200, content_type="text/html", fetched_at=datetime.now(UTC),
                 depth=0, size=1, content_md5="x", title=f"t{i}", text=f"word{i}")
        for i in range(count)
    ]

    async def write() -> None:
        async with await psycopg.AsyncConnection.connect(database_url) as conn:
            await write_batch(conn, crawl_id, pages, [])

    asyncio.run(write())
    return crawl_id, pages


def test_close_batches_fit_the_time_left() -> None:
    assert close_batch_size(0.0, 0.01, 500) == 0
    assert close_batch_size(-1.0, None, 500) == 0
    assert close_batch_size(2.0, None, 500) == FIRST_CLOSE_BATCH  # nothing timed yet
    assert close_batch_size(2.0, None, 5) == 5
    assert close_batch_size(2.0, 0.01, 500) == 140  # 70 % of 2 s at 10 ms per operation
    assert close_batch_size(2.0, 0.001, 500) == 500  # never above SEARCH_BATCH_SIZE
    assert close_batch_size(0.5, 0.5, 500) == 0  # not even one fits: stop now


def test_a_close_applies_the_backlog_only_when_all_of_it_fits() -> None:
    assert close_fits(0, 0.0, None)  # nothing left: nothing to wait for
    assert close_fits(FIRST_CLOSE_BATCH, 1.0, None)  # not timed yet: a first batch's worth
    assert not close_fits(FIRST_CLOSE_BATCH + 1, 60.0, None)
    assert close_fits(69, 1.0, 0.01)  # 0.69 s of the 0.7 s (70 %) of 1 s at 10 ms each
    assert not close_fits(71, 1.0, 0.01)  # 0.71 s
    assert not close_fits(2853, 1.0, 0.02)  # a 3,000-page crawl's backlog: exit at once
    assert not close_fits(1, 0.0, 0.001)  # past the deadline


def test_a_running_batch_publishes_when_a_close_may_wait_for_it() -> None:
    from crawler.search.indexer import _Stop

    class Value:
        value = 0.0

    end = Value()
    stopper = _Stop(threading.Event(), None, batch_end=end)
    before = time.time()
    stopper.batch_started(10, rate=0.01, limit=50)  # the outbox's last 10 operations
    assert before + 0.1 <= end.value <= time.time() + 0.1
    stopper.batch_started(50, rate=0.01, limit=50)  # a full batch: more is left
    assert end.value == float("inf")
    stopper.batch_started(10, rate=None, limit=50)  # not timed yet
    assert end.value == float("inf")
    stopper.batch_ended()
    assert end.value == 0.0


def test_running_batches_take_about_the_batch_seconds() -> None:
    assert timed_batch_size(10.0, None, 500) == 50  # nothing timed yet
    assert timed_batch_size(10.0, None, 20) == 20
    assert timed_batch_size(10.0, 0.08, 500) == 125  # 10 s at 80 ms per operation
    assert timed_batch_size(10.0, 0.001, 500) == 500  # never above SEARCH_BATCH_SIZE
    assert timed_batch_size(10.0, 5.0, 500) == 10  # at least 10: commits cost too
    assert timed_batch_size(0.0, 5.0, 500) == 500  # 0: no cut


def test_a_stop_past_its_deadline_applies_nothing_and_one_within_it_everything(
    prepared_db: psycopg.Connection, database_url: str, tmp_path: Path
) -> None:
    crawl_id, pages = stored_pages(prepared_db, database_url, "close", "h.test", 7)
    path = tmp_path / "index"
    key = index_key(path)
    config = IndexerConfig(database_url, str(path), batch_size=3, poll_interval=0.05)
    stop = threading.Event()
    stop.set()

    class Deadline:
        value = time.time() - 1.0

    reports: list[IndexerReport] = []
    assert run_indexer(config, [crawl_id], follow=True, stop=stop, report=reports.append,
                       deadline=Deadline())
    assert reports == [] and outbox_backlog(prepared_db, key, crawl_id) == (7, 7)
    assert positions(prepared_db, key) == {crawl_id: 0}  # registered for the next indexer
    Deadline.value = time.time() + 60.0
    run_indexer(config, [crawl_id], follow=True, stop=stop, report=reports.append,
                deadline=Deadline())
    # batches of SEARCH_BATCH_SIZE at most, all within the deadline
    assert [r.pages for r in reports] == [3, 3, 1]
    assert outbox_backlog(prepared_db, key, crawl_id) == (0, 0)
    assert documents(path) == {p.url for p in pages}


def test_a_stop_leaves_a_backlog_that_does_not_fit_whole(
    prepared_db: psycopg.Connection, database_url: str, tmp_path: Path
) -> None:
    # 25 operations and no batch timed yet: more than a first close batch, so none is
    # applied, however long the deadline; without a deadline all of them are
    crawl_id, pages = stored_pages(
        prepared_db, database_url, "whole", "w.test", FIRST_CLOSE_BATCH + 5
    )
    path = tmp_path / "index"
    key = index_key(path)
    config = IndexerConfig(database_url, str(path), poll_interval=0.05)
    stop = threading.Event()
    stop.set()

    class Deadline:
        value = time.time() + 60.0

    reports: list[IndexerReport] = []
    started = time.monotonic()
    run_indexer(config, [crawl_id], follow=True, stop=stop, report=reports.append,
                deadline=Deadline())
    assert time.monotonic() - started < 30
    assert reports == [] and outbox_backlog(prepared_db, key, crawl_id) == (25, 25)
    run_indexer(config, [crawl_id], follow=True, stop=stop, report=reports.append)
    assert outbox_backlog(prepared_db, key, crawl_id) == (0, 0)
    assert documents(path) == {p.url for p in pages}


@pytest.mark.slow
def test_a_crawl_at_its_page_limit_leaves_its_index_backlog_in_the_outbox(
    sandbox, run_crawl, prepared_db: psycopg.Connection, database_url: str, tmp_path: Path
) -> None:
    web = SandboxWeb()
    count = 60
    for i in range(count):
        links = "".join(f'<a href="/p{j}">p{j}</a> ' for j in (2 * i + 1, 2 * i + 2) if j < count)
        web.add_page(f"http://limit.test/p{i}", html_page(f"Page {i}", f"<p>word{i} {links}</p>"))
    server = sandbox(web)
    # the indexer polls once when it starts (an hour between polls) and has no time at
    # the close: what the crawl stored after that first poll is its backlog. (The delay
    # keeps the crawl going for 5 s: a clean-clone run had all 20 pages stored before the
    # indexer process's first poll, and so no backlog.)
    crawl = run_crawl(proxy=server.proxy_url, args={"seed_urls": "http://limit.test/p0"},
                      settings={"CLOSESPIDER_PAGECOUNT": 20, "SEARCH_COMMIT_INTERVAL": 3600,
                                "SEARCH_INDEX_CLOSE_TIMEOUT": 0, "DOWNLOAD_DELAY": 0.25,
                                "RANDOMIZE_DOWNLOAD_DELAY": False}).check()
    assert "(closespider_pagecount)" in crawl.stderr
    stored = {r[0] for r in prepared_db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (crawl.crawl_id,))}
    assert 10 <= len(stored) < count
    index_dir = tmp_path / ".crawl" / "index"
    key = index_key(index_dir)
    position = positions(prepared_db, key)[crawl.crawl_id]  # registered with the folder
    left = {r[0] for r in prepared_db.execute(
        "SELECT url FROM search_outbox WHERE crawl_id = %s AND id > %s",
        (crawl.crawl_id, position))}
    indexed = documents(index_dir)
    # every stored page is either indexed or waiting in the outbox, never lost
    assert left and not left & indexed and left | indexed == stored
    ops = prepared_db.execute(
        "SELECT count(*) FROM search_outbox WHERE crawl_id = %s AND id > %s",
        (crawl.crawl_id, position)).fetchone()[0]
    line = re.search(r"search index: stopped after ([\d.]+) s (?:\(.*?\) )?with (\d+) outbox "
                     r"operations "
                     r"\((\d+) pages\) of crawl (\S+) not applied to (\S+): they stay in "
                     r"PostgreSQL \(table search_outbox\)", crawl.stderr)
    assert line, crawl.stderr[-3000:]
    assert (int(line[2]), int(line[3]), line[4], line[5]) == (
        ops, len(left), crawl.crawl_id, str(index_dir))
    assert f"'search_index/left_in_outbox': {ops}" in crawl.stderr
    assert float(line[1]) < 3.0  # no batch at the close: the indexer exits at once
    # the folder's note tells `scrapy search` (which reads no database) what is missing
    assert {k: (v["operations"], v["pages"]) for k, v in read_pending(index_dir).items()} == {
        crawl.crawl_id: (ops, len(left))}
    data_dir = f"CRAWLER_DATA_DIR={tmp_path / '.crawl'}"
    search = run_scrapy("search", "word1", "-s", data_dir, "-s", "SEARCH_APPLY_PENDING=False",
                        cwd=tmp_path, database_url=database_url)
    assert search.returncode == 0, search.stderr
    assert search.stderr.strip() == (
        f"note: {len(left)} stored pages of crawl {crawl.crawl_id} were not searchable yet "
        "when it closed: `scrapy index` applies them (see `scrapy index --status`)")
    assert documents(index_dir) == indexed

    # by default `scrapy search` applies the backlog first (no other indexer holds the folder)
    last = max(left, key=lambda url: int(url.rsplit("/p", 1)[1]))
    word = f"word{last.rsplit('/p', 1)[1]}"
    search = run_scrapy("search", "--json", word, "-s", data_dir, cwd=tmp_path,
                        database_url=database_url)
    assert search.returncode == 0, search.stderr
    assert re.fullmatch(
        rf"note: indexed {len(left)} pages that crawl {crawl.crawl_id} left in the search "
        r"outbox, before searching \([\d.]+ s\)\n", search.stderr), search.stderr
    assert [r["url"] for r in json.loads(search.stdout)["results"]] == [last]
    assert documents(index_dir) == stored
    assert outbox_backlog(prepared_db, key, crawl.crawl_id) == (0, 0)
    assert read_pending(index_dir) == {}  # applied: the note is gone
    search = run_scrapy("search", "word1", "-s", data_dir, cwd=tmp_path,
                        database_url=database_url)
    assert search.returncode == 0 and search.stderr == "", search.stderr

    # `scrapy index` has nothing left to do
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", "index", "-s", data_dir],
        cwd=tmp_path, env=scrapy_env(database_url), capture_output=True, text=True,
        timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("indexed 0 pages, removed 0, in "), done.stdout


@pytest.mark.slow
def test_ctrl_c_stops_the_crawl_within_seconds_of_its_last_response(
    sandbox, prepared_db: psycopg.Connection, database_url: str, tmp_path: Path
) -> None:
    web = SandboxWeb()
    count = 400
    for i in range(count):  # a page every 0.1 s (one at a time): the crawl outlasts the test
        links = "".join(f'<a href="/p{j}">p{j}</a> ' for j in (2 * i + 1, 2 * i + 2) if j < count)
        web.add_page(f"http://ctrlc.test/p{i}", html_page(f"Page {i}", f"<p>word{i} {links}</p>"),
                     delay=0.1)
    server = sandbox(web)
    crawl_id = f"ctrlc-{uuid.uuid4().hex[:8]}"
    cmd, env = crawl_command(
        "general", database_url=database_url, workdir=tmp_path, proxy=server.proxy_url,
        args={"seed_urls": "http://ctrlc.test/p0", "crawl_id": crawl_id},
        settings={"CONCURRENT_REQUESTS": 1})
    process = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_until(lambda: prepared_db.execute(
            "SELECT count(*) FROM pages WHERE crawl_id = %s", (crawl_id,)).fetchone()[0] >= 10,
            timeout=120, interval=0.2, what="10 stored pages")
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the whole process group
        sent = time.monotonic()
        _, stderr = process.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, stderr[-3000:]
    assert "Closing spider (shutdown)" in stderr and "Traceback" not in stderr
    # one request in flight (0.1 s), the parse of one page, the frontier's and the
    # storage's last writes, the indexer's 1 s: a few seconds, not the backlog's time
    assert took < 15, took
    stored = {r[0] for r in prepared_db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,))}
    index_dir = tmp_path / ".crawl" / "index"
    key = index_key(index_dir)
    position = positions(prepared_db, key)[crawl_id]
    left = {r[0] for r in prepared_db.execute(
        "SELECT url FROM search_outbox WHERE crawl_id = %s AND id > %s", (crawl_id, position))}
    assert left | documents(index_dir) == stored  # nothing lost


def test_a_stop_cuts_at_once_a_batch_that_cannot_end_within_the_budget(
    prepared_db: psycopg.Connection, database_url: str, tmp_path: Path
) -> None:
    # A batch begun while the crawl ran (here the first, not timed yet) is held inside
    # its read of the pages by a lock: the stop must not wait out its 10 s budget for
    # it, and nothing of the batch may be lost.
    crawl_id, pages = stored_pages(prepared_db, database_url, "cut", "h.test", 5)
    path = tmp_path / "index"
    key = index_key(path)
    config = IndexerConfig(database_url, str(path), poll_interval=0.05, nice=0, idle=False)
    with psycopg.connect(database_url) as locker:
        locker.execute("LOCK TABLE pages IN ACCESS EXCLUSIVE MODE")
        handle = IndexerHandle(config, [crawl_id], in_process=True)
        handle.start()
        wait_until(lambda: handle.batch_end > 0, timeout=30)
        assert handle.batch_end == float("inf")  # its first batch: not timed
        started = time.monotonic()
        _report, finished = handle.stop(10.0)
        took = time.monotonic() - started
        assert not finished and not handle.alive
        assert took < 2.0, took
    assert outbox_backlog(prepared_db, key, crawl_id) == (5, 5)
    reports: list[IndexerReport] = []
    run_indexer(config, [crawl_id], follow=False, stop=threading.Event(),
                report=reports.append)
    assert outbox_backlog(prepared_db, key, crawl_id) == (0, 0)
    assert documents(path) == {p.url for p in pages}
