"""Resume of a real crawl: after a graceful stop (CLOSESPIDER_PAGECOUNT) and after
`kill -9` of the `scrapy crawl` process, judged on the sandbox's request log."""

from __future__ import annotations

from collections import Counter

import pytest

from crawler.frontier.buffer import DONE
from crawler.sandbox import canonical
from tests.frontier.graphs import site_web
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def page_requests(records) -> list[str]:
    return [canonical(f"http://{r.host}{r.path}") for r in records if r.path != "/robots.txt"]


def stored(db, crawl_id: str, table: str = "pages") -> set[str]:
    return {r[0] for r in db.execute(f"SELECT url FROM {table} WHERE crawl_id = %s",
                                     (crawl_id,))}


def test_resume_after_a_graceful_stop(sandbox, run_crawl, db):
    web, seeds = site_web()
    server = sandbox(web)
    expected = set(web.reachable(seeds))
    args = {"seed_urls": ",".join(seeds), "crawl_id": "graceful-resume"}
    first = run_crawl(proxy=server.proxy_url, args=args,
                      settings={"CLOSESPIDER_PAGECOUNT": 30, "DEPTH_LIMIT": 0}).check()
    before = len(server.log)
    first_requests = page_requests(server.log)
    assert 30 <= len(first_requests) < len(expected)
    second = run_crawl(proxy=server.proxy_url, args=args, settings={"DEPTH_LIMIT": 0}).check()
    assert "resuming crawl graceful-resume" in second.stderr
    second_requests = page_requests(server.log[before:])
    assert seeds[0] not in second_requests  # seen: not queued again
    together = first_requests + second_requests
    assert [u for u, n in Counter(together).items() if n > 1] == []
    assert set(together) == expected
    assert stored(db, first.crawl_id) == expected
    reasons = db.execute("SELECT finish_reason FROM crawls WHERE id = %s",
                         (first.crawl_id,)).fetchone()
    assert reasons == ("finished",)


def test_resume_after_kill_9_loses_nothing_and_refetches_only_what_was_in_flight(
    sandbox, run_crawl, spawn_crawl, db, tmp_path
):
    web, seeds = site_web(delay=0.1)
    server = sandbox(web)
    expected = set(web.reachable(seeds))
    args = {"seed_urls": ",".join(seeds), "crawl_id": "killed-resume"}
    proc = spawn_crawl(proxy=server.proxy_url, args=args,
                       settings={"CONCURRENT_REQUESTS": 4, "DEPTH_LIMIT": 0})
    wait_until(lambda: proc.poll() is not None
               or len(page_requests(server.requests_for())) >= len(expected) // 3,
               timeout=60, interval=0.01, what="a third of the pages to be fetched",
               details=lambda: (tmp_path / "crawl-0.log").read_text()[-3000:])
    assert proc.poll() is None, (
        "crawl ended too early: " + (tmp_path / "crawl-0.log").read_text()[-3000:])
    proc.kill()  # SIGKILL
    proc.wait()
    # requests the server was still answering get logged (the kill closed every
    # connection: each is done once its last request is answered)
    wait_until(lambda: server.open_connections == 0, timeout=30, interval=0.01,
               what="the server to answer the killed crawl's last requests")
    killed_at = len(server.log)
    first_requests = page_requests(server.log)
    pages_at_kill = stored(db, "killed-resume")
    saved = pages_at_kill | stored(db, "killed-resume", "uncrawled")
    assert len(saved) < len(set(first_requests))  # some results were not written yet

    # frontier state at the kill of each saved URL, to tell which write was lost
    states = {r[0]: r[1] for r in db.execute(
        "SELECT f.url, f.state FROM frontier f JOIN frontier_crawls c ON c.key = f.crawl"
        " WHERE c.crawl_id = 'killed-resume'")}
    run_crawl(proxy=server.proxy_url, args=args, settings={"DEPTH_LIMIT": 0}).check()
    second_requests = page_requests(server.log[killed_at:])
    assert [u for u, n in Counter(first_requests).items() if n > 1] == []
    assert [u for u, n in Counter(second_requests).items() if n > 1] == []
    again = set(first_requests) & set(second_requests)
    # fetched twice: only requests whose result had not reached the database, and saved
    # pages whose row was not acked at the kill (their links are written with the ack)
    unacked_pages = {u for u in pages_at_kill if states.get(u) != DONE}
    assert again <= (set(first_requests) - saved) | unacked_pages, {
        u: states.get(u, "no row") for u in again & saved}
    assert set(first_requests) | set(second_requests) == expected
    resumed = stored(db, "killed-resume")

    # the same web crawled without interruption stores the same pages
    whole = run_crawl(proxy=server.proxy_url, args={"seed_urls": ",".join(seeds)},
                      settings={"DEPTH_LIMIT": 0}).check()
    assert resumed == stored(db, whole.crawl_id) == expected
