"""Every agent of a distributed crawl obeys a control action: pause stops both agents'
requests, resume starts them again, stop ends both (real `scrapy crawl` agents, the
sandbox web, the real PostgreSQL)."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import psycopg
import pytest

from crawler.control import store
from crawler.sandbox.web import Resource, SandboxWeb, html_page
from tests.agents.agents import kill_leftover_agents, start_agent, wait_all
from tests.waiting import poll_until

pytestmark = pytest.mark.slow

HOSTS = [f"h{n}.test" for n in range(8)]


def chain_web() -> SandboxWeb:
    """8 hosts, each a chain of pages that never ends by itself."""
    web = SandboxWeb()

    def chain(path: str, query: str) -> Resource | None:
        number = path.rsplit("/", 1)[-1]
        if not number.isdigit():
            return None
        text = f"<p>Page {number} of its chain, {number * 3}.</p>"
        body = html_page(f"p{number}", text + f'<a href="/p/{int(number) + 1}">next</a>')
        return Resource(body, delay=0.2)

    for host in HOSTS:
        web.add_dynamic(host, "/p/", chain)
    return web


def test_every_agent_obeys_pause_resume_stop(sandbox, database_url, db, tmp_path: Path):
    server = sandbox(chain_web())
    crawl_id = f"control-agents-{uuid.uuid4().hex[:8]}"
    settings = {"CONTROL_POLL_INTERVAL": 0.3, "DEDUP_ENABLED": False, "DEPTH_LIMIT": 0}
    names = ["agent-0", "agent-1"]
    procs = [
        start_agent(name, database_url=database_url, workdir=tmp_path,
                    proxy=server.proxy_url, crawl_id=crawl_id, settings=settings,
                    seeds=[f"http://{h}/p/0" for h in HOSTS] if name == "agent-0" else None)
        for name in names
    ]

    def pages_by(name: str) -> list:
        return [r for r in server.requests_for()
                if r.user_agent == name and r.path != "/robots.txt"]

    def logged(text: str) -> bool:
        return all(text in (tmp_path / f"{name}.log").read_text() for name in names)

    def give(action: str) -> None:
        with psycopg.connect(database_url) as conn:
            store.record(conn, crawl_id, action, None, "cli")

    try:
        poll_until(lambda: all(len(pages_by(n)) >= 2 for n in names), 120,
                   what="both agents fetching")
        give("pause")
        poll_until(lambda: logged("control: pause (action"), 30, what="both agents paused")
        time.sleep(1.5)  # requests in flight finish (0.2 s pages)
        counts = [len(pages_by(n)) for n in names]
        time.sleep(2.0)
        assert [len(pages_by(n)) for n in names] == counts  # neither agent sends any

        give("resume")
        poll_until(lambda: all(len(pages_by(n)) > c + 1 for n, c in zip(names, counts,
                                                                          strict=True)),
                   60, what="both agents fetching again")
        give("stop")
        assert wait_all(procs, 90) == [0, 0]
    finally:
        kill_leftover_agents()
    rows = db.execute("SELECT agent_id, state, finish_reason FROM agents WHERE crawl_id = %s "
                      "ORDER BY agent_id", (crawl_id,)).fetchall()
    assert rows == [("agent-0", "stopped", "control_stop"), ("agent-1", "stopped",
                                                              "control_stop")]
