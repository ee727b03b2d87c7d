"""End-to-end: work-aware lending between real agents (`scrapy crawl` processes) on a
sandbox web whose every host belongs to one agent by rendezvous hashing."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from crawler.agents.assignment import owner
from crawler.sandbox import canonical
from crawler.sandbox.latency_web import _text, latency_host
from crawler.sandbox.web import SandboxWeb, html_page
from crawler.storage.schema import migrate
from tests.agents.agents import (
    AGENT_SETTINGS,
    overlapping_agents,
    page_records,
    short_gaps,
    start_agent,
    wait_all,
)

pytestmark = pytest.mark.slow

AGENTS = {"agent-a": 1.0, "agent-b": 1.0}


def lopsided_web(hosts: int, pages: int, delay: float) -> SandboxWeb:
    """``hosts`` hosts of ``pages`` pages that all belong to agent-a (of agent-a and
    agent-b), each page linking the next three of its host; the seeds are their home
    pages."""
    names = [h for h in (latency_host(i) for i in range(100)) if owner(h, AGENTS) == "agent-a"]
    web = SandboxWeb()
    for host in names[:hosts]:
        for p in range(pages):
            links = "".join(f'<p><a href="http://{host}/p{q}">page {q}</a></p>'
                            for q in range(p + 1, min(p + 4, pages)))
            # distinct text on every page: the content-seen test must not merge them
            text = f"<p>Page {p} of {host}: {_text(host, p)}.</p>{links}"
            web.add_page(f"http://{host}/p{p}", html_page(f"{host} page {p}", text),
                         delay=delay)
    web.seeds = [f"http://{host}/p0" for host in names[:hosts]]
    return web


def test_an_agent_without_hosts_borrows_some_and_no_host_has_two_agents_at_once(
    sandbox, database_url, db, tmp_path
):
    migrate(db)
    web = lopsided_web(hosts=6, pages=30, delay=0.3)
    server = sandbox(web)
    expected = web.reachable(web.seeds)
    crawl_id = f"lend-{uuid.uuid4().hex[:8]}"
    # two requests in flight per agent, one per host every 0.5 s: agent-a cannot serve
    # six hosts, agent-b has none of its own
    common = {"database_url": database_url, "workdir": tmp_path, "proxy": server.proxy_url,
              "crawl_id": crawl_id, "seeds": web.seeds,
              "settings": {"CONCURRENT_REQUESTS": 2,
                           # long leases: a process starved for seconds on the loaded test
                           # machine is not declared dead (which may fetch a URL twice)
                           "AGENT_LEASE_TTL": 30.0}}
    procs = [start_agent(name, **common) for name in AGENTS]
    codes = wait_all(procs, timeout=240)
    logs = {n: (tmp_path / f"{n}.log").read_text() for n in AGENTS}
    assert codes == [0, 0], {n: log[-3000:] for n, log in logs.items()}

    stored = [u for (u,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,)).fetchall()]
    assert sorted(stored) == sorted(set(expected))
    records = page_records(server)
    fetched = Counter(canonical(f"http://{r.host}{r.path}") for r in records)
    assert [u for u, n in fetched.items() if n > 1] == []
    # agent-b fetched only what it borrowed: every host is agent-a's by rendezvous
    borrowed = {r.host for r in records if r.user_agent == "agent-b"}
    assert borrowed, logs["agent-a"][-3000:]
    assert "hosts lent (" in logs["agent-a"]
    # never two agents on one host at once, and the delay kept across hand-overs
    assert overlapping_agents(server.requests_for()) == []
    assert short_gaps(records, float(AGENT_SETTINGS["DOWNLOAD_DELAY"])) == []
    reasons = db.execute(
        "SELECT agent_id, state, finish_reason FROM agents WHERE crawl_id = %s ORDER BY 1",
        (crawl_id,)).fetchall()
    assert reasons == [(n, "stopped", "crawl_finished") for n in sorted(AGENTS)]
