"""Distributed crawl benchmarks (prints numbers; docs/distributed.md has the results).

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/distributed_crawl.py speedup'     # or handover, ordering

- ``speedup``: a latency-bound sandbox web (64 hosts, 200 ms per response,
  crawler/sandbox/latency_web.py) crawled by 1, 2 and 4 agents with the same per-agent
  concurrency. Pages/s over the span of the page requests in the sandbox log. Targets:
  >= 1.8x at 2 agents, >= 3.2x at 4. With ``--delay 0`` the same runs measure the write
  ceiling instead: frontier rows/s and pages/s, PostgreSQL commits and rows written per
  second and the time the database spent executing statements (pg_stat_database's
  active_time, for the benchmark's database only), against the agents' CPU time.
- ``handover``: 2 agents with the default heartbeat (5 s) and lease (15 s); one is killed
  with SIGKILL; seconds until a host it owned is fetched again.
- ``outbox-lag``: 4 agents (``--agents``) crawl the latency web with indexing off (as on
  machines of their own) while one ``scrapy index --follow`` applies the search outbox
  with ``--backend`` (tantivy or whoosh), at niceness 0 like the agents (as on a machine
  of its own; SEARCH_INDEXER_NICE would put it behind them here). Every second:
  outbox operations stored but not yet applied (the lag ``scrapy index --status``
  prints). Reported: the lag at each quarter of the crawl, its maximum, the indexer's
  CPU, and the seconds it needs after the agents exit to apply everything. Bounded
  means the lag does not grow with the crawl: the last quarter's lag is about the first's.
- ``ordering``: the synthetic web crawled by 1 and 4 agents; share of the total PageRank
  fetched after 10/25/50% of the pages (order of the requests in the sandbox log). Target:
  4 agents within 10% of 1 agent.

Every line is printed with the load average (2 shared cores: numbers are noisy).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.ranking.pagerank import pagerank_of_graph  # noqa: E402
from crawler.sandbox import SandboxServer, build_synthetic_web, canonical  # noqa: E402
from crawler.sandbox.latency_web import build_latency_web  # noqa: E402
from crawler.storage.schema import migrate  # noqa: E402
from tests.agents.agents import start_agent, wait_all  # noqa: E402
from tests.commands import scrapy_env  # noqa: E402

POINTS = (0.10, 0.25, 0.50)
# the same per-agent settings for every run of a benchmark
BASE = {
    "CONCURRENT_REQUESTS": 4,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
    "DOWNLOAD_DELAY": 0,
    "LOG_LEVEL": "INFO",
    "SEARCH_INDEX_ENABLED": False,
    "AGENT_HEARTBEAT": 1.0,
    "AGENT_LEASE_TTL": 5.0,
    "AGENT_LEASE_MARGIN": 1.0,
}


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def db_counters(conn: psycopg.Connection, name: str) -> tuple[int, int, float]:
    """Commits, rows inserted or updated, and milliseconds spent executing statements in
    the benchmark's database (PostgreSQL's own count: other databases on the server, such
    as other users' tests, are not in it)."""
    conn.execute("SELECT pg_stat_clear_snapshot()")
    row = conn.execute(
        "SELECT xact_commit, tup_inserted + tup_updated, active_time FROM pg_stat_database"
        " WHERE datname = %s", (name,)).fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), float(row[2])


def run_agents(n: int, server: SandboxServer, seeds: list[str], url: str, work: Path,
               settings: dict[str, object], crawl_id: str, timeout: float = 900
               ) -> list[subprocess.Popen[str]]:
    procs = [start_agent(f"agent-{i}", database_url=url, workdir=work / crawl_id,
                         proxy=server.proxy_url, crawl_id=crawl_id,
                         seeds=seeds if i == 0 else None, settings=settings)
             for i in range(n)]
    return procs


def page_span(server: SandboxServer, since: int) -> tuple[list[str], float]:
    records = [r for r in server.log[since:] if r.path != "/robots.txt"]
    records.sort(key=lambda r: r.started)
    order = [canonical(f"http://{r.host}{r.path}" + (f"?{r.query}" if r.query else ""))
             for r in records]
    span = records[-1].started - records[0].started if len(records) > 1 else 0.0
    return order, span


def speedup(args: argparse.Namespace, admin: str, url: str, name: str, work: Path) -> None:
    web = build_latency_web(hosts=64, pages_per_host=args.pages, delay=args.delay,
                            flat=True)
    expected = web.reachable(web.seeds)
    print(f"latency web (flat): 64 hosts, {len(expected)} pages, {args.delay * 1000:.0f} ms per "
          f"response; per agent: " + ", ".join(f"{k}={v}" for k, v in BASE.items()
                                               if k != "LOG_LEVEL"), flush=True)
    server = SandboxServer(web).start()
    rates: dict[int, float] = {}
    try:
        with psycopg.connect(admin, autocommit=True) as stats:
            for n in args.agents:
                crawl_id = f"speed{n}-{uuid.uuid4().hex[:6]}"
                since = len(server.log)
                commits0, rows0, active0 = db_counters(stats, name)
                cpu0, t0 = children_cpu(), time.monotonic()
                procs = run_agents(n, server, web.seeds, url, work, BASE, crawl_id)
                codes = wait_all(procs, timeout=900)
                wall = time.monotonic() - t0
                cpu1 = children_cpu()
                time.sleep(1.0)  # statistics reach pg_stat_database within a second
                commits1, rows1, active1 = db_counters(stats, name)
                order, span = page_span(server, since)
                with psycopg.connect(url) as conn:
                    pages, frontier = conn.execute(
                        "SELECT (SELECT count(*) FROM pages WHERE crawl_id = %s),"
                        " (SELECT count(*) FROM frontier f JOIN frontier_crawls c"
                        "  ON c.key = f.crawl WHERE c.crawl_id = %s)",
                        (crawl_id, crawl_id)).fetchone()
                rates[n] = len(order) / span if span else 0.0
                print(f"  {n} agent(s): exit {codes}, {len(order)} page requests, {pages} "
                      f"pages stored, span {span:.1f} s, wall {wall:.1f} s: "
                      f"{rates[n]:.1f} pages/s, {frontier / span:.0f} frontier rows/s, "
                      f"{(commits1 - commits0) / wall:.0f} commits/s, "
                      f"{(rows1 - rows0) / wall:.0f} rows written/s; database busy "
                      f"{(active1 - active0) / 1000:.1f} s ({(active1 - active0) / pages:.1f} "
                      f"ms per page), agents' CPU {cpu1 - cpu0:.1f} s  ({load()})", flush=True)
    finally:
        server.stop()
    if 1 in rates and rates[1]:
        for n in args.agents:
            if n != 1:
                target = {2: 1.8, 4: 3.2}.get(n)
                ratio = rates[n] / rates[1]
                verdict = "" if target is None else (
                    f"  target >= {target}x: {'met' if ratio >= target else 'NOT met'}")
                print(f"speed-up at {n} agents: {ratio:.2f}x{verdict}")


def _process_cpu(pid: int) -> float:
    """User + system CPU seconds of a running process (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _outbox_lag(conn: psycopg.Connection, crawl_id: str) -> int:
    """Operations of the crawl's outbox above the indexer's position (all of them before
    the indexer registers one)."""
    row = conn.execute(
        "SELECT count(*) FROM search_outbox WHERE crawl_id = %s"
        " AND id > coalesce((SELECT max(position) FROM search_index_positions"
        "                    WHERE crawl_id = %s), 0)",
        (crawl_id, crawl_id)).fetchone()
    assert row is not None
    return int(row[0])


def outbox_lag(args: argparse.Namespace, admin: str, url: str, name: str, work: Path) -> None:
    web = build_latency_web(hosts=64, pages_per_host=args.pages, delay=args.delay,
                            flat=True)
    n = max(args.agents)
    print(f"latency web (flat): 64 hosts, {len(web.reachable(web.seeds))} pages, "
          f"{args.delay * 1000:.0f} ms per response; {n} agents with SEARCH_INDEX_ENABLED="
          f"False, one `scrapy index --follow -s SEARCH_BACKEND={args.backend}`", flush=True)
    server = SandboxServer(web).start()
    crawl_id = f"lag{n}-{uuid.uuid4().hex[:6]}"
    index_dir = work / "index"
    indexer: subprocess.Popen[str] | None = None
    samples: list[tuple[float, int]] = []
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)  # so that the crawl's row can be awaited before the agents create it
    try:
        t0 = time.monotonic()
        procs = run_agents(n, server, web.seeds, url, work, BASE, crawl_id)
        with psycopg.connect(url, autocommit=True) as conn:
            while not conn.execute("SELECT 1 FROM crawls WHERE id = %s",
                                   (crawl_id,)).fetchone():
                time.sleep(0.2)
            log = (work / "indexer.log").open("w")
            indexer = subprocess.Popen(
                [sys.executable, "-m", "scrapy", "index", "--follow", "--crawl-id", crawl_id,
                 "-s", f"SEARCH_BACKEND={args.backend}", "-s", f"SEARCH_INDEX_DIR={index_dir}",
                 "-s", "SEARCH_INDEXER_IDLE=False", "-s", "SEARCH_INDEXER_NICE=0"],
                cwd=work, env=scrapy_env(url), stdout=log, stderr=subprocess.STDOUT, text=True)
            while any(p.poll() is None for p in procs):
                samples.append((time.monotonic() - t0, _outbox_lag(conn, crawl_id)))
                time.sleep(1.0)
            print("lag every 5 s: " + " ".join(str(lag) for _, lag in samples[::5]), flush=True)
            crawl_end = time.monotonic() - t0
            wait_all(procs, timeout=60)
            caught_up = None
            while time.monotonic() - t0 < crawl_end + 600:
                lag = _outbox_lag(conn, crawl_id)
                if lag == 0:
                    caught_up = time.monotonic() - t0 - crawl_end
                    break
                time.sleep(0.5)
            pages = conn.execute("SELECT count(*) FROM pages WHERE crawl_id = %s",
                                 (crawl_id,)).fetchone()[0]
        indexer_cpu = _process_cpu(indexer.pid)
        indexer.send_signal(signal.SIGINT)
        indexer.wait(timeout=60)
        print("indexer's log, last lines:\n  " + "\n  ".join(
            (work / "indexer.log").read_text().splitlines()[-5:]), flush=True)
    finally:
        if indexer is not None and indexer.poll() is None:
            indexer.kill()
        server.stop()
    quarter = crawl_end / 4
    by_quarter = []
    for q in range(4):
        lags = [lag for t, lag in samples if q * quarter <= t < (q + 1) * quarter]
        by_quarter.append(f"{max(lags) if lags else '-'}")
    print(f"{n} agents, {pages} pages stored in {crawl_end:.1f} s ({pages / crawl_end:.1f} "
          f"pages/s); lag (operations not yet searchable), max per quarter of the crawl: "
          f"{' / '.join(by_quarter)}; max {max(lag for _, lag in samples)}; after the agents "
          f"exited, applied the rest in "
          f"{'more than 600' if caught_up is None else f'{caught_up:.1f}'} s; indexer CPU "
          f"{indexer_cpu:.1f} s ({1000 * indexer_cpu / max(pages, 1):.1f} ms per page) "
          f"({load()})", flush=True)


def handover(args: argparse.Namespace, admin: str, url: str, name: str, work: Path) -> None:
    web = build_latency_web(hosts=64, pages_per_host=40, delay=0.2)
    settings = {**BASE, "AGENT_HEARTBEAT": 5.0, "AGENT_LEASE_TTL": 15.0,
                "AGENT_LEASE_MARGIN": 2.0}
    print("hand-over: 2 agents, default heartbeat 5 s and lease 15 s, "
          "64 hosts x 40 pages at 200 ms", flush=True)
    server = SandboxServer(web).start()
    try:
        for attempt in range(args.repeat):
            crawl_id = f"hand-{uuid.uuid4().hex[:6]}"
            procs = run_agents(2, server, web.seeds, url, work, settings, crawl_id)
            owned: set[str] = set()
            with psycopg.connect(url, autocommit=True) as conn:
                migrate(conn)
                # both agents at work, then a while longer
                while not owned or len([r for r in server.requests_for()
                                        if r.user_agent == "agent-1"]) < 20:
                    time.sleep(0.5)
                    owned = {h for (h,) in conn.execute(
                        "SELECT o.host FROM host_owners o JOIN frontier_crawls c ON c.key ="
                        " o.crawl WHERE c.crawl_id = %s AND o.agent_id = 'agent-1'",
                        (crawl_id,))}
                time.sleep(args.kill_after)
                owned = {h for (h,) in conn.execute(
                    "SELECT o.host FROM host_owners o JOIN frontier_crawls c ON c.key ="
                    " o.crawl WHERE c.crawl_id = %s AND o.agent_id = 'agent-1'", (crawl_id,))}
            os.kill(procs[1].pid, signal.SIGKILL)
            killed = time.time()
            procs[1].wait()
            deadline = time.monotonic() + 120
            again = None
            while time.monotonic() < deadline and again is None:
                after = [r.started for r in server.requests_for()
                         if r.host in owned and r.started > killed
                         and r.user_agent == "agent-0"]
                again = min(after) if after else None
                time.sleep(0.2)
            procs[0].send_signal(signal.SIGTERM)
            wait_all([procs[0]], timeout=60)
            took = f"{again - killed:.1f} s" if again is not None else "not within 120 s"
            print(f"  run {attempt + 1}: agent-1 owned {len(owned)} hosts; fetched again by "
                  f"agent-0 after {took}  ({load()})", flush=True)
    finally:
        server.stop()


def ordering(args: argparse.Namespace, admin: str, url: str, name: str, work: Path) -> None:
    web = build_synthetic_web(7, trap=False)
    seeds = list(web.seeds)
    graph = web.link_graph(seeds)
    raw = pagerank_of_graph(graph)
    total = sum(raw.values())
    rank = {u: v / total for u, v in raw.items()}
    settings = {**BASE, "CONCURRENT_REQUESTS": 2, "DEPTH_LIMIT": 0}
    print(f"ordering: synthetic web (seed 7), {len(graph)} HTML pages; per agent "
          "CONCURRENT_REQUESTS=2", flush=True)
    server = SandboxServer(web).start()
    results = {}
    try:
        for n in (1, 4):
            since = len(server.log)
            procs = run_agents(n, server, seeds, url, work, settings,
                               f"order{n}-{uuid.uuid4().hex[:6]}")
            codes = wait_all(procs, timeout=900)
            order, span = page_span(server, since)
            pages = [u for u in dict.fromkeys(order) if u in rank]
            results[n] = [sum(rank[u] for u in pages[:max(1, round(p * len(rank)))])
                          for p in POINTS]
            print(f"  {n} agent(s): exit {codes}, {len(pages)} of the graph's pages, "
                  f"captured " + " ".join(f"{v:.3f}" for v in results[n]) +
                  f"  ({load()})", flush=True)
    finally:
        server.stop()
    for p, one, four in zip(POINTS, results[1], results[4], strict=True):
        diff = (four - one) / one
        print(f"after {int(p * 100)}%: 1 agent {one:.3f}, 4 agents {four:.3f} ({diff:+.1%};"
              f" target within 10%: {'met' if abs(diff) <= 0.10 else 'NOT met'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["speedup", "handover", "ordering", "outbox-lag"])
    parser.add_argument("--backend", default="tantivy", choices=["tantivy", "whoosh"],
                        help="search backend of the indexer (outbox-lag)")
    parser.add_argument("--agents", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--pages", type=int, default=20, help="pages per host (speedup)")
    parser.add_argument("--delay", type=float, default=0.2, help="seconds per response")
    parser.add_argument("--repeat", type=int, default=1, help="hand-over runs")
    parser.add_argument("--kill-after", type=float, default=5.0,
                        help="seconds after both agents fetch (hand-over)")
    args = parser.parse_args()
    admin = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not admin:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    name = f"crawler_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = psycopg.conninfo.make_conninfo(admin, dbname=name)
    print(f"start: {load()}", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="distributed-") as tmp:
            {"speedup": speedup, "handover": handover, "ordering": ordering,
             "outbox-lag": outbox_lag}[args.what](
                args, admin, url, name, Path(tmp))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))
    print(f"end: {load()}")


if __name__ == "__main__":
    main()
