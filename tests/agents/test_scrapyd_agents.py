"""Two scrapyd instances (two ports) run agents of one crawl id; the job ids name them."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from pathlib import Path

import pytest

from crawler.sandbox.latency_web import build_latency_web
from tests.agents.agents import AGENT_SETTINGS, overlapping_agents, page_records
from tests.commands import PROJECT_DIR, free_port
from tests.e2e.test_scrapyd import _api, _scrapyd_ok
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def _schedule(base: str, data: dict[str, object]) -> dict:
    """schedule.json with repeated fields (several ``setting`` values)."""
    body = urllib.parse.urlencode(data, doseq=True).encode()
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{base}/schedule.json", data=body, timeout=30) as resp:
        return json.loads(resp.read())


def _start_scrapyd(home: Path, port: int, env: dict[str, str]) -> subprocess.Popen[str]:
    home.mkdir()
    (home / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        f"bind_address = 127.0.0.1\nhttp_port = {port}\n"
        f"eggs_dir = {home / 'eggs'}\nlogs_dir = {home / 'logs'}\n"
        f"dbs_dir = {home / 'dbs'}\nitems_dir =\njobs_to_keep = 5\n"
        "max_proc = 1\npoll_interval = 0.5\n"
    )
    # a session of its own: its job processes can be killed with it (_stop_scrapyd)
    return subprocess.Popen([str(Path(sys.executable).parent / "scrapyd")], cwd=home, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)


def _stop_scrapyd(node: subprocess.Popen[str]) -> None:
    """Stop scrapyd and the jobs it still runs (after a failure they would keep crawling)."""
    node.terminate()
    node.wait(timeout=30)
    try:
        os.killpg(node.pid, signal.SIGKILL)
    except ProcessLookupError:  # no job left
        pass


def _wait_ready(base: str) -> None:
    wait_until(lambda: _scrapyd_ok(base), timeout=30, interval=0.2,
               what=f"scrapyd at {base} to start")


def _wait_running(base: str, jobid: str) -> None:
    wait_until(lambda: any(j["id"] == jobid
                           for j in _api(base, "listjobs.json?project=crawler")["running"]),
               timeout=60, interval=0.3, what=f"job {jobid} to start")


def test_two_scrapyd_nodes_run_one_crawl(tmp_path: Path, sandbox, database_url, db):
    web = build_latency_web(hosts=12, pages_per_host=10, delay=0.02)
    server = sandbox(web)
    expected = set(web.reachable(web.seeds))
    project = tmp_path / "project"
    shutil.copytree(
        PROJECT_DIR, project,
        ignore=shutil.ignore_patterns(".venv", ".git", ".crawl", "tests", "bench", "build",
                                      "*.egg-info", "__pycache__", ".pytest_cache"),
    )
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    # two deploy targets, one per node
    cfg = (project / "scrapy.cfg").read_text().replace("[deploy]\nurl = http://127.0.0.1:6800/",
                                                       f"[deploy:n1]\nurl = {bases[0]}/")
    cfg += f"\n[deploy:n2]\nurl = {bases[1]}/\nproject = crawler\n"
    (project / "scrapy.cfg").write_text(cfg)
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    node_env = {**env, "http_proxy": server.proxy_url, "https_proxy": server.proxy_url,
                "CRAWLER_DATABASE_URL": database_url}
    nodes = [_start_scrapyd(tmp_path / f"node{i + 1}", port, node_env)
             for i, port in enumerate(ports)]
    crawl_id = f"scrapyd-{uuid.uuid4().hex[:8]}"
    try:
        for base in bases:
            _wait_ready(base)
        deploy = subprocess.run(
            [str(Path(sys.executable).parent / "scrapyd-deploy"), "-a", "-v", "t1"],
            cwd=project, env=env, capture_output=True, text=True, timeout=240,
        )
        assert deploy.returncode == 0, deploy.stderr + deploy.stdout
        settings = [f"{k}={v}" for k, v in AGENT_SETTINGS.items()]
        jobs = []
        # the node without seeds first: it waits for the crawl to be seeded
        for i, base in reversed(list(enumerate(bases))):
            data: dict[str, object] = {
                "project": "crawler", "spider": "general", "crawl_id": crawl_id,
                "setting": [*settings, f"USER_AGENT=node{i + 1}"],
            }
            if i == 0:
                data["seed_urls"] = web.seeds[0]
            job = _schedule(base, data)
            assert job["status"] == "ok", job
            jobs.append(job["jobid"])
            if i == 1:
                _wait_running(base, job["jobid"])
        jobs.reverse()
        deadline = time.monotonic() + 100
        for base, jobid in zip(bases, jobs, strict=True):
            wait_until(lambda base=base, jobid=jobid: any(
                j["id"] == jobid for j in _api(base, "listjobs.json?project=crawler")["finished"]),
                timeout=max(0.0, deadline - time.monotonic()), interval=0.5,
                what=f"job {jobid} to finish")
    finally:
        for node in nodes:
            _stop_scrapyd(node)

    stored = [u for (u,) in db.execute("SELECT url FROM pages WHERE crawl_id = %s",
                                       (crawl_id,))]
    assert sorted(stored) == sorted(expected)
    agents = db.execute("SELECT agent_id, state, finish_reason FROM agents WHERE crawl_id = %s"
                        " ORDER BY agent_id", (crawl_id,)).fetchall()
    assert agents == sorted((j, "stopped", "crawl_finished") for j in jobs)
    records = page_records(server)
    assert set(Counter(r.user_agent for r in records)) == {"node1", "node2"}
    assert overlapping_agents(server.requests_for()) == []
