"""Running several agents of one crawl as real `scrapy crawl` processes, and reading
the sandbox request log per agent."""

from __future__ import annotations

import subprocess
import time
from collections import defaultdict
from pathlib import Path

from crawler.sandbox import RequestRecord, SandboxServer
from tests.commands import run_scrapy
from tests.conftest import crawl_command

# fast heartbeats and short leases, so that hand-overs fit in a test (not too short: on
# a loaded test machine a heartbeat can be seconds late)
AGENT_SETTINGS: dict[str, object] = {
    "AGENTS_ENABLED": True,
    "AGENT_HEARTBEAT": 1.0,
    "AGENT_LEASE_TTL": 8.0,
    "AGENT_LEASE_MARGIN": 2.0,
    "DOWNLOAD_DELAY": 0.5,
    "DOWNLOAD_DELAY_JITTER": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
    "RETRY_TIMES": 0,
    "FRONTIER_FLUSH_INTERVAL": 0.2,
}


# every agent process started by start_agent, so that conftest.py kills those a failed
# test left running (an orphaned agent keeps crawling and loads the machine for later tests)
STARTED: list[subprocess.Popen[str]] = []


def kill_leftover_agents() -> None:
    """Kill every agent process started so far that still runs."""
    while STARTED:
        proc = STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def start_agent(
    name: str,
    *,
    database_url: str,
    workdir: Path,
    proxy: str,
    crawl_id: str,
    seeds: list[str] | None = None,
    settings: dict[str, object] | None = None,
    env: dict[str, str] | None = None,
    spider: str = "general",
    args: dict[str, str] | None = None,
) -> subprocess.Popen[str]:
    """One agent (its User-Agent and agent id are ``name``); logs in workdir/name.log."""
    args = {"crawl_id": crawl_id, **(args or {})}
    if seeds:
        args["seed_urls"] = ",".join(seeds)
    full = {**AGENT_SETTINGS, "USER_AGENT": name, "AGENT_ID": name, **(settings or {})}
    agent_dir = workdir / name
    agent_dir.mkdir(parents=True, exist_ok=True)
    cmd, child_env = crawl_command(spider, database_url=database_url, workdir=agent_dir,
                                   proxy=proxy, args=args, settings=full, env=env)
    log = (workdir / f"{name}.log").open("w")
    proc = subprocess.Popen(cmd, cwd=agent_dir, env=child_env, stdout=log,
                            stderr=subprocess.STDOUT, text=True)
    STARTED.append(proc)
    return proc


def wait_all(procs: list[subprocess.Popen[str]], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    codes = []
    for proc in procs:
        try:
            codes.append(proc.wait(timeout=max(0.1, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            proc.kill()
            codes.append(proc.wait())
    return codes


def page_records(server: SandboxServer) -> list[RequestRecord]:
    return [r for r in server.requests_for() if r.path != "/robots.txt"]


def by_host(records: list[RequestRecord]) -> dict[str, list[RequestRecord]]:
    hosts: dict[str, list[RequestRecord]] = defaultdict(list)
    for record in sorted(records, key=lambda r: r.started):
        hosts[record.host].append(record)
    return dict(hosts)


def overlapping_agents(records: list[RequestRecord]) -> list[tuple[RequestRecord, RequestRecord]]:
    """Pairs of requests to one host by two agents whose times overlap."""
    bad = []
    for rs in by_host(records).values():
        for a, b in zip(rs, rs[1:], strict=False):
            if a.user_agent != b.user_agent and b.started < a.finished:
                bad.append((a, b))
    return bad


def short_gaps(
    records: list[RequestRecord], delay: float, slack: float = 0.15,
    same_agent_slack: float = 0.25,
) -> list[tuple[float, str, str, str, str]]:
    """Gaps between consecutive request starts on one host below ``delay - slack``:
    (gap, first agent, its path, second agent, its path). The slack is for the time a
    request spends between the downloader and the server's log on a loaded machine (the
    delay is kept between the moments requests leave the downloader); two requests of
    one agent get ``same_agent_slack`` (its downloader slot spaces them, as in a
    single-process crawl; measured down to 0.34 s for a 0.5 s delay at a load average
    of 20 on 2 cores), two of different agents (a hand-over) the stricter ``slack``."""
    gaps = []
    for rs in by_host(records).values():
        for a, b in zip(rs, rs[1:], strict=False):
            allowed = slack if a.user_agent != b.user_agent else same_agent_slack
            if b.started - a.started < delay - allowed:
                gaps.append((round(b.started - a.started, 3), a.user_agent,
                             f"{a.host}{a.path}", b.user_agent, b.path))
    return gaps


def scrapy_agents(database_url: str, *options: str) -> subprocess.CompletedProcess[str]:
    """`scrapy agents OPTIONS` against the test database."""
    return run_scrapy("agents", *options, database_url=database_url)
