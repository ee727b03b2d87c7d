"""Restart right after `kill -9`, with the dead session's lock forced open (issue 32).

Each run starts a one-process `scrapy crawl general` on a small latency web of the
sandbox, kills it with SIGKILL once it has made six requests, and at once opens a
PostgreSQL session that holds the crawl's frontier lock under the killed process's
name (``crawler PID@MACHINE``): what the server leaves for a moment when it has not yet
noticed that the client is gone (issue 32 saw it once in nine restarts on a loaded
machine). Forcing it makes every run test the case instead of waiting for it. The crawl
is then restarted (the same crawl id, no seeds: a resume) and must resume the crawl and
end by itself with exit status 0, no ``error:`` line, no traceback, and the warning that
it ended the dead session. (How many pages the resumed crawl still finds depends on what
the killed one had written: links of its last pages may be lost with it, docs/frontier.md.)

Not part of the test suite (50 runs take minutes); run inside a loopback-only network
namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        nice -n 10 .venv/bin/python bench/restart_after_kill.py --runs 50'

Target (issue 32): 50 of 50 restarts succeed on a loaded machine.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def load() -> str:
    return open("/proc/loadavg").read().split()[0]


def one_run(server, web, database_url: str, tmp: Path, index: int) -> tuple[bool, str]:  # noqa: ANN001
    import psycopg

    from crawler.frontier import crawl_lock
    from tests.conftest import crawl_command

    crawl_id = f"restart-{index}-{uuid.uuid4().hex[:6]}"
    folder = tmp / crawl_id
    folder.mkdir()
    settings = {"FRONTIER_LOCK_WAIT": 60, "CONCURRENT_REQUESTS_PER_DOMAIN": 1}
    cmd, env = crawl_command(
        "general", database_url=database_url, workdir=folder, proxy=server.proxy_url,
        args={"crawl_id": crawl_id, "seed_urls": ",".join(web.seeds)}, settings=settings,
    )  # fmt: skip
    server.clear_log()
    with open(folder / "first.log", "w") as log:
        proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 180
    while len(server.requests_for()) < 6 and proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            return False, "the first crawl made no request in 180 s"
        time.sleep(0.02)
    if proc.poll() is not None:
        return False, f"the first crawl ended before the kill ({proc.returncode})"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # the killed run's session, as the server may still hold it: forced open
    holder = psycopg.connect(
        database_url, autocommit=True, application_name=crawl_lock.application_name(proc.pid)
    )
    try:
        took = time.monotonic()
        while not holder.execute(
            "SELECT pg_try_advisory_lock(%s, hashtext(%s))", (crawl_lock.LOCK_CLASS, crawl_id)
        ).fetchone()[0]:
            if time.monotonic() - took > 60:
                return False, "the killed run's own session kept the lock for 60 s"
            time.sleep(0.01)
        cmd, env = crawl_command(
            "general", database_url=database_url, workdir=folder, proxy=server.proxy_url,
            args={"crawl_id": crawl_id}, settings=settings,
        )  # fmt: skip
        started = time.monotonic()
        result = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True,
                                timeout=300)
        took = time.monotonic() - started
    finally:
        holder.close()
    (folder / "restart.log").write_text(result.stderr)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    with psycopg.connect(database_url) as conn:
        stored = [u for (u,) in conn.execute(
            "SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,))]
    problems = []
    if result.returncode != 0:
        problems.append(f"exit status {result.returncode}")
    if errors:
        problems.append(errors[0])
    if "Traceback" in result.stderr:
        problems.append("traceback")
    if "which is gone (killed?); ending that session" not in result.stderr:
        problems.append("no line about ending the dead session")
    if f"resuming crawl {crawl_id}" not in result.stderr:
        problems.append("the crawl was not resumed")
    if len(stored) != len(set(stored)):
        problems.append("a page stored twice")
    detail = f"restart {took:.1f} s, {len(set(stored))} pages, load {load()}"
    return not problems, "; ".join(problems) or detail


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--keep", action="store_true", help="keep the logs and database")
    options = parser.parse_args()
    import psycopg

    from crawler.sandbox import SandboxServer
    from crawler.sandbox.latency_web import build_latency_web

    base = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not base:
        sys.exit("error: set CRAWLER_TEST_DATABASE_URL (a server where databases may be created)")
    name = f"restart_kill_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    database_url = psycopg.conninfo.make_conninfo(base, dbname=name)
    web = build_latency_web(hosts=3, pages_per_host=8, delay=0.05)
    server = SandboxServer(web)
    server.start()
    tmp = Path(tempfile.mkdtemp(prefix="restart-kill-"))
    ok = 0
    print(f"# {options.runs} runs, logs in {tmp}, load {load()}", flush=True)
    try:
        for i in range(1, options.runs + 1):
            good, detail = one_run(server, web, database_url, tmp, i)
            ok += good
            print(f"run {i}: {'ok' if good else 'FAILED'}: {detail}", flush=True)
    finally:
        server.stop()
        if not options.keep:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"SUMMARY: {ok} of {options.runs} restarts after kill -9 succeeded "
          f"(target: all), load {load()}")


if __name__ == "__main__":
    main()
