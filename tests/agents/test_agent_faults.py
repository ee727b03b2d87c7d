"""End-to-end faults: an agent killed with SIGKILL, an agent cut off from the database."""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections import Counter

import psycopg
import pytest

from crawler.sandbox import canonical
from crawler.sandbox.latency_web import build_latency_web
from crawler.storage.schema import migrate
from tests.agents.agents import (
    AGENT_SETTINGS,
    overlapping_agents,
    page_records,
    short_gaps,
    start_agent,
    wait_all,
)
from tests.agents.db_proxy import DatabaseProxy
from tests.waiting import wait_until

pytestmark = pytest.mark.slow

TTL = float(AGENT_SETTINGS["AGENT_LEASE_TTL"])
MARGIN = float(AGENT_SETTINGS["AGENT_LEASE_MARGIN"])
HEARTBEAT = float(AGENT_SETTINGS["AGENT_HEARTBEAT"])
DATABASE_TIMEOUT = 10.0


def _stored(db: psycopg.Connection, crawl_id: str) -> set[str]:
    return {u for (u,) in db.execute("SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,))}


def _wait_pages(db: psycopg.Connection, crawl_id: str, count: int, timeout: float) -> None:
    wait_until(lambda: len(_stored(db, crawl_id)) >= count, timeout=timeout, interval=0.2,
               what=f"{count} pages stored (the crawl did not get that far)")


def _owned_hosts(db: psycopg.Connection, crawl_id: str, agent: str) -> set[str]:
    return {h for (h,) in db.execute(
        "SELECT o.host FROM host_owners o JOIN frontier_crawls c ON c.key = o.crawl"
        " WHERE c.crawl_id = %s AND o.agent_id = %s", (crawl_id, agent))}


def test_kill_9_of_one_agent_loses_nothing(sandbox, database_url, db, tmp_path):
    migrate(db)  # the test reads the agents' tables before an agent has created them
    web = build_latency_web(hosts=24, pages_per_host=8, delay=0.05)
    server = sandbox(web)
    common = {"database_url": database_url, "workdir": tmp_path, "proxy": server.proxy_url}

    # the reference: one agent alone
    alone = f"alone-{uuid.uuid4().hex[:8]}"
    assert wait_all([start_agent("solo", seeds=web.seeds, crawl_id=alone, **common)],
                    timeout=150) == [0]
    reference = _stored(db, alone)
    assert reference == set(web.reachable(web.seeds))
    server.clear_log()

    crawl_id = f"kill-{uuid.uuid4().hex[:8]}"
    names = ("agent-a", "agent-b", "agent-c")
    procs = {n: start_agent(n, seeds=web.seeds, crawl_id=crawl_id, **common) for n in names}
    _wait_pages(db, crawl_id, int(0.4 * len(reference)), timeout=150)
    victim_hosts = _owned_hosts(db, crawl_id, "agent-b")
    os.kill(procs["agent-b"].pid, signal.SIGKILL)
    killed_at = time.time()
    codes = wait_all([procs["agent-a"], procs["agent-c"]], timeout=150)
    procs["agent-b"].wait()
    assert codes == [0, 0], (tmp_path / "agent-a.log").read_text()[-3000:]

    assert _stored(db, crawl_id) == reference
    records = page_records(server)
    fetched = Counter(canonical(f"http://{r.host}{r.path}") for r in records)
    twice = {u for u, n in fetched.items() if n > 1}
    # only what the killed agent had fetched (in flight, or its page not written yet)
    # is fetched again; (a request it sent just before the kill may be logged by the
    # loaded server just after it)
    first_by = {}
    for r in sorted(records, key=lambda r: r.started):
        first_by.setdefault(canonical(f"http://{r.host}{r.path}"), r)
    assert all(first_by[u].user_agent == "agent-b" and first_by[u].started <= killed_at + 1.0
               for u in twice), sorted(
        (u, [(r.user_agent, round(r.started - killed_at, 2)) for r in records
             if canonical(f"http://{r.host}{r.path}") == u]) for u in twice)
    assert overlapping_agents(server.requests_for()) == []
    assert short_gaps(records, float(AGENT_SETTINGS["DOWNLOAD_DELAY"])) == []
    # its hosts passed to the others within the lease plus a heartbeat (and some slack
    # for a loaded machine)
    after = [r for r in records if r.host in victim_hosts and r.started > killed_at]
    if after:
        handover = min(r.started for r in after) - killed_at
        assert handover <= TTL + 2 * HEARTBEAT + 3.0, handover
    states = dict(db.execute("SELECT agent_id, state FROM agents WHERE crawl_id = %s",
                             (crawl_id,)).fetchall())
    assert states == {"agent-a": "stopped", "agent-b": "dead", "agent-c": "stopped"}


def test_agent_cut_off_from_the_database_stops_fetching(sandbox, database_url, db, tmp_path):
    migrate(db)  # the test reads the agents' tables before an agent has created them
    web = build_latency_web(hosts=16, pages_per_host=10, delay=0.05)
    server = sandbox(web)
    expected = set(web.reachable(web.seeds))
    proxy = DatabaseProxy("/var/run/postgresql/.s.PGSQL.5432")
    try:
        proxied = psycopg.conninfo.make_conninfo(database_url, host="127.0.0.1",
                                                 port=str(proxy.port))
        crawl_id = f"cut-{uuid.uuid4().hex[:8]}"
        direct = start_agent("agent-a", seeds=web.seeds, crawl_id=crawl_id,
                             database_url=database_url, workdir=tmp_path,
                             proxy=server.proxy_url)
        cut = start_agent("agent-cut", crawl_id=crawl_id, database_url=proxied,
                          workdir=tmp_path, proxy=server.proxy_url,
                          settings={"AGENT_DATABASE_TIMEOUT": DATABASE_TIMEOUT})
        wait_until(lambda: _owned_hosts(db, crawl_id, "agent-cut")
                   and len(_stored(db, crawl_id)) >= 0.3 * len(expected),
                   timeout=150, interval=0.2,
                   what="agent-cut to own hosts and 30% of the pages to be stored",
                   details=lambda: (tmp_path / "agent-cut.log").read_text()[-3000:])
        proxy.cut()
        cut_at = time.time()
        # the cut-off agent gives the database up after AGENT_DATABASE_TIMEOUT (from its
        # last answer) and exits, at most a lease TTL later if closing hangs on it
        assert wait_all([cut], timeout=DATABASE_TIMEOUT + 2 * TTL + 20) == [2]
        exited_after = time.time() - cut_at
        assert wait_all([direct], timeout=150) == [0], (
            (tmp_path / "agent-a.log").read_text()[-3000:])
    finally:
        proxy.close()
    cut_log = (tmp_path / "agent-cut.log").read_text()
    errors = [line for line in cut_log.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "AGENT_DATABASE_TIMEOUT" in errors[0], cut_log[-3000:]
    assert "Traceback" not in cut_log
    assert DATABASE_TIMEOUT - HEARTBEAT <= exited_after <= DATABASE_TIMEOUT + 2 * TTL + 20

    records = page_records(server)
    by_cut = [r for r in records if r.user_agent == "agent-cut"]
    assert by_cut, "the agent cut off had fetched pages before the cut"
    # it stopped handing requests out at its local deadline (at most TTL - margin after
    # its last renewal, which was before the cut); what was in flight then may end later
    assert max(r.started for r in by_cut) <= cut_at + TTL - MARGIN + 1.0
    assert overlapping_agents(server.requests_for()) == []
    assert short_gaps(records, float(AGENT_SETTINGS["DOWNLOAD_DELAY"])) == []
    assert _stored(db, crawl_id) == expected
