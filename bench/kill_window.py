"""The unsaved-work window after `kill -9` of a crawl (prints numbers).

Each round starts `scrapy crawl general` on the sandbox web of bench/crawl_speed.py (the
synthetic web without traps and faults plus the Debian documentation sites), with no
delay, 8 requests per host and 16 at a time, into a fresh PostgreSQL database, lets it
run a random time (``--after``, from its first request), kills it with SIGKILL and then
compares the sandbox server's request log with what reached PostgreSQL (``pages`` by
URL or final URL, ``uncrawled`` by URL).

The window of a kill: how long before the kill the *oldest* fetched page that is not in
PostgreSQL was served (``finished`` in the server's log: the response was about to be
sent). Every page served longer ago than that is stored. It includes the crawl's own
backlog (a response received but not yet parsed) as well as the storage's buffering.
Also printed: the number of pages served but not stored, and for the stored pages of the
last 5 s before the kill, the largest lag from the server's response to the page's
``fetched_at`` (set while the spider parses it: the parse backlog).

With ``--base DIR`` (a checkout of another commit, e.g. ``git archive f912562 | tar -x
-C DIR``) every round kills one crawl of that code and one of this one, alternating
which goes first; both run with this checkout's virtualenv.

Run inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/kill_window.py --kills 5'

Target (issue 14): window <= STORE_FLUSH_INTERVAL (2 s).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRAWL_SETTINGS = {
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DOWNLOAD_DELAY": 0,
    "LOG_LEVEL": "INFO",
}


def record_url(record) -> str:  # noqa: ANN001 (a crawler.sandbox RequestRecord)
    from crawler.sandbox import canonical

    query = f"?{record.query}" if record.query else ""
    return canonical(f"http://{record.host}{record.path}{query}")


def kill_one(
    code: Path,
    server,  # noqa: ANN001 (a crawler.sandbox SandboxServer)
    seeds: list[str],
    database_url: str,
    tmp: Path,
    after: float,
    extra: dict[str, str],
) -> dict:
    """Run one crawl of the code in ``code``, kill it ``after`` seconds after its first
    request, and measure its window."""
    import psycopg

    crawl_id = f"kill-{uuid.uuid4().hex[:8]}"
    folder = tmp / crawl_id
    folder.mkdir()
    cmd = [
        sys.executable, "-m", "scrapy", "crawl", "general",
        "-a", "seed_urls=" + ",".join(seeds), "-a", f"crawl_id={crawl_id}",
        "-a", "allowed_domains=test", "-s", f"CRAWLER_DATA_DIR={folder / '.crawl'}",
    ]  # fmt: skip
    for key, value in {**CRAWL_SETTINGS, **extra}.items():
        cmd += ["-s", f"{key}={value}"]
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SCRAPY_SETTINGS_MODULE", "PYTHONPATH", "CRAWLER_DATABASE_URL")
    }
    env.update(
        http_proxy=server.proxy_url, https_proxy=server.proxy_url,
        SCRAPY_SETTINGS_MODULE="crawler.settings", PYTHONPATH=str(code),
        CRAWLER_DATABASE_URL=database_url,
    )  # fmt: skip
    server.clear_log()
    with open(folder / "crawl.log", "w") as log:
        proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=log, stderr=log)
    deadline = time.monotonic() + 120
    while not server.requests_for() and proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            sys.exit("error: the crawl made no request in 120 s")
        time.sleep(0.01)
    first = time.time()
    while time.time() < first + after and proc.poll() is None:
        time.sleep(0.01)
    if proc.poll() is not None:
        tail = (folder / "crawl.log").read_text()[-3000:]
        sys.exit(f"error: the crawl ended before the kill ({proc.returncode})\n{tail}")
    killed_at = time.time()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)  # let the server log the requests it was still answering
    served = [
        r
        for r in server.requests_for()
        if r.path != "/robots.txt" and r.method == "GET" and r.finished <= killed_at
    ]
    with psycopg.connect(database_url) as conn:
        pages = conn.execute(
            "SELECT url, final_url, fetched_at FROM pages WHERE crawl_id = %s", (crawl_id,)
        ).fetchall()
        uncrawled = {
            u for (u,) in conn.execute("SELECT url FROM uncrawled WHERE crawl_id = %s", (crawl_id,))
        }
    stored = {u for u, _, _ in pages} | {f for _, f, _ in pages if f} | uncrawled
    fetched_at = {}
    for url, final, at in pages:
        fetched_at[url] = at.timestamp()
        if final:
            fetched_at.setdefault(final, at.timestamp())
    unsaved = [r for r in served if record_url(r) not in stored]
    oldest = min((r.finished for r in unsaved), default=killed_at)
    recent = [
        fetched_at[u] - r.finished
        for r in served
        if r.finished > killed_at - 5 and (u := record_url(r)) in fetched_at
    ]
    unsaved.sort(key=lambda r: r.finished)
    return {
        "oldest_unsaved": [
            f"{killed_at - r.finished:.2f} s {r.status} {record_url(r)}" for r in unsaved[:5]
        ],
        "window": killed_at - oldest,
        "served": len(served),
        "unsaved": len(unsaved),
        "parse_lag": max(recent, default=float("nan")),
        "rate": len(served) / max(1e-9, killed_at - first),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=5, help="kills (per side with --base)")
    parser.add_argument(
        "--after", type=float, nargs=2, default=(15.0, 30.0), metavar=("MIN", "MAX"),
        help="kill at a uniformly random time this many seconds after the first request",
    )  # fmt: skip
    parser.add_argument("--base", type=Path, help="a checkout of the code to compare with")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="an extra Scrapy setting for both sides' crawls",
    )  # fmt: skip
    parser.add_argument("--verbose", action="store_true", help="print the oldest pages not stored")
    parser.add_argument("--seed", type=int, default=None, help="random seed of the kill times")
    args = parser.parse_args()
    extra = dict(item.split("=", 1) for item in args.set)

    sys.path.insert(0, str(ROOT))
    from crawler.sandbox import SandboxServer, add_debian_docs, build_synthetic_web

    rng = random.Random(args.seed)
    web = build_synthetic_web(7, trap=False, faults=False)
    seeds = list(web.seeds) + add_debian_docs(web)
    sides = {"this": ROOT}
    if args.base is not None:
        sides = {"base": args.base.resolve(), "this": ROOT}
    print(
        f"sandbox: {len(web.seeds)} synthetic sites + {len(seeds) - len(web.seeds)} "
        f"documentation sites; {os.cpu_count()} CPUs; load average at start "
        f"{os.getloadavg()[0]:.2f}; "
        + ", ".join(f"{k}={v}" for k, v in {**CRAWL_SETTINGS, **extra}.items())
        + f"; kill {args.after[0]:g}-{args.after[1]:g} s after the first request",
        flush=True,
    )
    from scratch import empty_database  # after the child-process check: imports crawler

    database = ExitStack()
    # one database per side: a newer schema would stop the older code (it refuses to run
    # on a schema newer than its own)
    urls = {side: database.enter_context(empty_database("crawler_bench")) for side in sides}
    results: dict[str, list[dict]] = {side: [] for side in sides}
    server = SandboxServer(web).start()
    try:
        with tempfile.TemporaryDirectory(prefix="kill-window-") as tmp_name:
            tmp = Path(tmp_name)
            for kill in range(1, args.kills + 1):
                order = list(sides) if kill % 2 else list(reversed(sides))
                for side in order:
                    after = rng.uniform(*args.after)
                    r = kill_one(sides[side], server, seeds, urls[side], tmp, after, extra)
                    results[side].append(r)
                    print(
                        f"  kill {kill} {side:<4} at {after:5.1f} s: window {r['window']:5.2f} s, "
                        f"{r['unsaved']:4d} of {r['served']:5d} served pages not stored, "
                        f"parse lag (last 5 s) {r['parse_lag']:5.2f} s, "
                        f"{r['rate']:5.1f} pages/s (load {os.getloadavg()[0]:.2f})",
                        flush=True,
                    )
                    if args.verbose:
                        for line in r["oldest_unsaved"]:
                            print(f"      not stored: {line}")
    finally:
        server.stop()
        database.close()
    for side, rs in results.items():
        windows = [r["window"] for r in rs]
        print(
            f"{side:<4} ({sides[side]}): window max {max(windows):.2f} s, median "
            f"{statistics.median(windows):.2f} s, min {min(windows):.2f} s over {len(rs)} kills; "
            f"unsaved pages median {statistics.median(r['unsaved'] for r in rs):.0f}"
        )


if __name__ == "__main__":
    main()
