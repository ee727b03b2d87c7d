"""End-to-end: several agents (real `scrapy crawl` processes) share one crawl."""

from __future__ import annotations

import json
import uuid
from collections import Counter

import pytest

from crawler.sandbox import canonical
from crawler.sandbox.latency_web import build_latency_web
from crawler.storage.schema import migrate
from tests.agents.agents import (
    AGENT_SETTINGS,
    by_host,
    overlapping_agents,
    page_records,
    scrapy_agents,
    short_gaps,
    start_agent,
    wait_all,
)
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def test_three_agents_fetch_every_page_once_one_host_one_agent(
    sandbox, database_url, db, tmp_path
):
    migrate(db)  # the test reads the agents' tables before an agent has created them
    web = build_latency_web(hosts=24, pages_per_host=8, delay=0.05)
    server = sandbox(web)
    expected = web.reachable(web.seeds)
    crawl_id = f"agents-{uuid.uuid4().hex[:8]}"
    common = {"database_url": database_url, "workdir": tmp_path, "proxy": server.proxy_url,
              "crawl_id": crawl_id}
    procs = [start_agent("agent-a", seeds=web.seeds, **common)]
    procs += [start_agent(name, seeds=web.seeds, **common) for name in ("agent-b", "agent-c")]
    # while they run, `scrapy agents` shows them with their hosts (the database is
    # polled until every agent owns hosts: the command itself takes seconds to start)
    wait_until(lambda: db.execute(
        "SELECT count(DISTINCT agent_id) FROM host_owners o JOIN frontier_crawls c"
        " ON c.key = o.crawl WHERE c.crawl_id = %s", (crawl_id,)).fetchone() == (3,),
        timeout=90, interval=0.2, what="the three agents to own hosts")
    listed = scrapy_agents(database_url, "--crawl-id", crawl_id, "--json")
    assert listed.returncode == 0, listed.stderr
    live = json.loads(listed.stdout)["agents"]
    assert sorted(a["agent_id"] for a in live) == ["agent-a", "agent-b", "agent-c"]
    # (a fast crawl may be over by the time the command has started)
    assert all(a["hosts"] > 0 and a["lease_valid"] for a in live if a["state"] == "running")
    codes = wait_all(procs, timeout=150)
    logs = {n: (tmp_path / f"{n}.log").read_text() for n in ("agent-a", "agent-b", "agent-c")}
    assert codes == [0, 0, 0], {n: log[-3000:] for n, log in logs.items()}

    stored = [u for (u,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,)).fetchall()]
    assert len(stored) == len(set(stored))
    assert set(stored) == set(expected)

    records = page_records(server)
    fetched = Counter(canonical(f"http://{r.host}{r.path}") for r in records)
    assert [u for u, n in fetched.items() if n > 1] == []
    assert set(fetched) == set(expected)
    # the work was shared, never two agents on one host at once, the delay kept
    agents = Counter(r.user_agent for r in records)
    assert set(agents) == {"agent-a", "agent-b", "agent-c"}, agents
    assert overlapping_agents(server.requests_for()) == []
    # (page requests: a robots.txt request is not spaced from the page that needed it,
    # in a single-process crawl either)
    assert short_gaps(records, float(AGENT_SETTINGS["DOWNLOAD_DELAY"])) == []
    assert len(by_host(records)) == 24

    # seeds loaded once; everyone finished with the crawl's end
    reasons = db.execute(
        "SELECT agent_id, state, finish_reason FROM agents WHERE crawl_id = %s ORDER BY 1",
        (crawl_id,)).fetchall()
    assert reasons == [(n, "stopped", "crawl_finished") for n in ("agent-a", "agent-b",
                                                                   "agent-c")]
    assert sum("seeded already" in log for log in logs.values()) == 2
    listed = scrapy_agents(database_url, "--crawl-id", crawl_id)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[0] == f"Crawl {crawl_id}: 0 live agent(s) of 3"
    final = json.loads(scrapy_agents(database_url, "--crawl-id", crawl_id, "--json").stdout)
    assert sum(a["pages"] for a in final["agents"]) == len(records)
    assert db.execute("SELECT count(*) FROM frontier f JOIN frontier_crawls c ON c.key ="
                      " f.crawl WHERE c.crawl_id = %s AND f.state IN (0, 1)",
                      (crawl_id,)).fetchone() == (0,)


def test_agents_command_unknown_crawl(database_url):
    listed = scrapy_agents(database_url, "--crawl-id", "no-such-crawl")
    assert listed.returncode == 2
    assert listed.stderr.startswith("error: no agents of crawl 'no-such-crawl' in ")
    assert "Traceback" not in listed.stderr


def test_crawl_wide_page_limit_stops_every_agent(sandbox, database_url, db, tmp_path):
    web = build_latency_web(hosts=16, pages_per_host=10, delay=0.05)
    server = sandbox(web)
    crawl_id = f"limit-{uuid.uuid4().hex[:8]}"
    common = {"database_url": database_url, "workdir": tmp_path, "proxy": server.proxy_url,
              "crawl_id": crawl_id, "settings": {"CRAWL_MAX_PAGES": 40}}
    procs = [start_agent("agent-a", seeds=web.seeds, **common), start_agent("agent-b", **common)]
    assert wait_all(procs, timeout=150) == [0, 0]
    agents = db.execute("SELECT agent_id, state, finish_reason FROM agents WHERE crawl_id = %s"
                        " ORDER BY 1", (crawl_id,)).fetchall()
    assert agents == [("agent-a", "stopped", "crawl_max_pages"),
                      ("agent-b", "stopped", "crawl_max_pages")]
    (stored,) = db.execute("SELECT count(*) FROM pages WHERE crawl_id = %s",
                           (crawl_id,)).fetchone()
    assert 40 <= stored < len(web.reachable(web.seeds))


def test_focused_agents_share_a_crawl(sandbox, database_url, db, tmp_path):
    web = build_latency_web(hosts=8, pages_per_host=4, delay=0.05)
    server = sandbox(web)
    expected = web.reachable(web.seeds)
    crawl_id = f"focused-{uuid.uuid4().hex[:8]}"
    common = {"database_url": database_url, "workdir": tmp_path, "proxy": server.proxy_url,
              "crawl_id": crawl_id, "seeds": web.seeds, "spider": "focused",
              "args": {"query": "river"},
              # long leases: a process starved for seconds on the loaded test machine
              # is not declared dead (whose leased URL is then fetched again)
              "settings": {"AGENT_LEASE_TTL": 30.0}}
    procs = [start_agent(name, **common) for name in ("agent-a", "agent-b")]
    codes = wait_all(procs, timeout=150)
    logs = {n: (tmp_path / f"{n}.log").read_text() for n in ("agent-a", "agent-b")}
    assert codes == [0, 0], {n: log[-3000:] for n, log in logs.items()}
    # every page is stored (the focused spider judges it, relevant or not), once
    stored = [u for (u,) in db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,)).fetchall()]
    assert sorted(stored) == sorted(set(expected))
    records = page_records(server)
    fetched = Counter(canonical(f"http://{r.host}{r.path}") for r in records)
    assert [u for u, n in fetched.items() if n > 1] == []
    assert {r.user_agent for r in records} == {"agent-a", "agent-b"}
    assert overlapping_agents(server.requests_for()) == []
    reasons = db.execute(
        "SELECT agent_id, state, finish_reason FROM agents WHERE crawl_id = %s ORDER BY 1",
        (crawl_id,)).fetchall()
    assert reasons == [(n, "stopped", "crawl_finished") for n in ("agent-a", "agent-b")]
