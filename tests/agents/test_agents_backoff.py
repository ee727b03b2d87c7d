"""End-to-end: agents share a host's back-off (issue 30 item 2) and lose no retried
request (issue 31): two agents, hosts changing hands when the second joins. A 503 pauses
its host for the time asked, whichever agent fetches it next (the pause travels in the
host's ``next_fetch_at``); every URL is fetched, the retried ones after their pause; no
stall is reported."""

from __future__ import annotations

import re
import threading
import uuid
from collections import Counter

import pytest

from crawler.sandbox import SandboxWeb, html_page
from crawler.sandbox.web import Resource
from crawler.storage.schema import migrate
from tests.agents.agents import overlapping_agents, start_agent, wait_all

pytestmark = pytest.mark.slow

HOSTS = [f"h{i}.test" for i in range(8)]
PAGES = 14
BUSY = "/p8"  # fetched about 9 s into the crawl
PAUSE = 2.0


def text(host: str, page: object) -> str:
    return " ".join(f"{host}-{page}-{j}" for j in range(40))


def paused_web() -> tuple[SandboxWeb, list[str]]:
    """Each host's /p8 answers 503 + Retry-After: 2 the first time it is asked for.
    Every page has text of its own (the content-seen test drops links of duplicates)."""
    web = SandboxWeb()
    asked: set[str] = set()
    lock = threading.Lock()
    for host in HOSTS:
        links = " ".join(f'<a href="/p{i}">p{i}</a>' for i in range(PAGES))
        web.add_page(f"http://{host}/", html_page(host, f"{text(host, 'home')} {links}"))
        for i in range(PAGES):
            if f"/p{i}" != BUSY:
                web.add_page(f"http://{host}/p{i}", html_page(f"{host} {i}", text(host, i)))

        def first_busy(path: str, query: str, host: str = host) -> Resource | None:
            if path != BUSY:
                return None
            with lock:
                first = host not in asked
                asked.add(host)
            if first:
                return Resource(html_page("busy", "busy"), 503, headers={"Retry-After": "2"})
            return Resource(html_page(f"{host} busy", text(host, "busy")))

        web.add_dynamic(host, BUSY, first_busy)
    return web, [f"http://{h}/" for h in HOSTS]


def test_agents_keep_a_hosts_pause_across_hand_overs(sandbox, database_url, db, tmp_path):
    migrate(db)
    web, seeds = paused_web()
    server = sandbox(web)
    crawl_id = f"backoff-{uuid.uuid4().hex[:8]}"
    common = {
        "database_url": database_url,
        "workdir": tmp_path,
        "proxy": server.proxy_url,
        "crawl_id": crawl_id,
        "settings": {"RETRY_TIMES": 1, "DOWNLOAD_DELAY": 1.0, "CLOSESPIDER_TIMEOUT": 120},
    }
    # both start together: the first to join owns every host, and hands half of them
    # over when the second joins
    procs = [start_agent(name, seeds=seeds, **common) for name in ("agent-a", "agent-b")]
    codes = wait_all(procs, timeout=150)
    logs = {n: (tmp_path / f"{n}.log").read_text() for n in ("agent-a", "agent-b")}
    assert codes == [0, 0], {n: log[-3000:] for n, log in logs.items()}

    records = [r for r in server.requests_for() if r.path != "/robots.txt"]
    fetched = Counter((r.host, r.path, r.status) for r in records)
    expected = Counter({(h, "/", 200): 1 for h in HOSTS})
    for h in HOSTS:
        expected.update({(h, f"/p{i}", 200): 1 for i in range(PAGES)})
        expected[(h, BUSY, 503)] = 1
    assert fetched == expected
    assert overlapping_agents(server.requests_for()) == []
    for host in HOSTS:
        mine = sorted((r for r in server.requests_for(host)), key=lambda r: r.started)
        (busy,) = [r for r in mine if r.status == 503]
        after = [r.started for r in mine if r.started > busy.finished]
        assert min(after) >= busy.finished + PAUSE - 0.01, host
    # both agents fetched, and a host answered one agent's 503 and then served the other
    agents = {r.user_agent for r in records}
    assert agents == {"agent-a", "agent-b"}
    for name, log in logs.items():
        assert not re.search(r"WARNING: frontier: stall", log), name
        assert "'frontier/stalls'" not in log, name
