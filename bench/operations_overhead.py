"""Cost of the operator's features in pages/s: WARC writing and the progress line, each
with and without, in one run (prints numbers).

Every variant crawls the same sandbox web (the synthetic web without its faults, plus
the Debian documentation sites installed on this machine) through the same sandbox
server, alternating the variants' order each round, ``--rounds`` times each, stopping at
CLOSESPIDER_PAGECOUNT=``--pages``. Settings as bench/frontier_crawl_throughput.py
(DOWNLOAD_DELAY=0, per-host concurrency 8, no search indexing, ``.test`` hosts only).
Variants:

* baseline: PROGRESS_INTERVAL=0, no WARC_DIR;
* warc: WARC_DIR set (gzip per record, revisits), progress off;
* progress (log): PROGRESS_INTERVAL=10 (the default), stderr not a terminal;
* progress (terminal): stderr is a pseudo-terminal: the line redrawn every second;
* warc + progress (log).

Pages/s = responses received / the crawl's elapsed time (Scrapy's elapsed_time_seconds).
The load average (uptime) is printed with every crawl: the machine is shared. On a
loaded machine wall-clock rates swing by tens of percent from crawl to crawl, so the
crawl process's CPU time per 1,000 responses (user + system, from the child's rusage,
start-up included) is printed too: the cost of a feature is the CPU it adds, and CPU
time depends far less on what else runs.

Run inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/operations_overhead.py'

Target (issue 13): each variant >= 0.95x the baseline's median pages/s (<= 5% slower).
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler.sandbox import SandboxServer, add_debian_docs, build_synthetic_web  # noqa: E402

TARGET = 0.95
SETTINGS = {
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DEPTH_LIMIT": 0,
    "SEARCH_INDEX_ENABLED": False,
    "LOG_LEVEL": "INFO",
}
# variant -> (extra settings, WARC on, stderr on a terminal)
VARIANTS: dict[str, tuple[dict[str, object], bool, bool]] = {
    "baseline": ({"PROGRESS_INTERVAL": 0}, False, False),
    "warc": ({"PROGRESS_INTERVAL": 0}, True, False),
    "progress (log)": ({"PROGRESS_INTERVAL": 10}, False, False),
    "progress (terminal)": ({"PROGRESS_INTERVAL": 10}, False, True),
    "warc + progress (log)": ({"PROGRESS_INTERVAL": 10}, True, False),
}


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run(cmd: list[str], cwd: Path, env: dict[str, str], terminal: bool) -> int:
    if not terminal:
        return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode
    main, child = pty.openpty()
    proc = subprocess.Popen(cmd, cwd=cwd, env={**env, "TERM": "xterm"},
                            stdout=subprocess.DEVNULL, stderr=child)
    os.close(child)

    def drain() -> None:  # a terminal that reads everything, as a user's does
        while True:
            try:
                if not os.read(main, 65536):
                    return
            except OSError:
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    code = proc.wait()
    reader.join(timeout=5)
    os.close(main)
    return code


def crawl(server, seeds, database_url, workdir: Path, variant: str, pages: int) -> dict:
    extra, warc, terminal = VARIANTS[variant]
    crawl_id = f"ops-{uuid.uuid4().hex[:8]}"
    settings = {**SETTINGS, **extra, "CRAWLER_DATA_DIR": str(workdir / crawl_id),
                "CLOSESPIDER_PAGECOUNT": pages}
    if warc:
        settings["WARC_DIR"] = str(workdir / crawl_id / "warc")
    cmd = [sys.executable, "-m", "scrapy", "crawl", "general",
           "-a", "seed_urls=" + ",".join(seeds), "-a", f"crawl_id={crawl_id}",
           "-a", "allowed_domains=test"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings", "PYTHONPATH": str(ROOT),
           "CRAWLER_DATABASE_URL": database_url, "http_proxy": server.proxy_url,
           "https_proxy": server.proxy_url}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run(cmd, workdir, env, terminal) != 0:
        raise SystemExit(f"{variant}: crawl failed")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with psycopg.connect(database_url) as conn:
        stats = conn.execute("SELECT stats FROM crawls WHERE id = %s", (crawl_id,)).fetchone()[0]
    if isinstance(stats, str):
        stats = json.loads(stats)
    responses = stats.get("response_received_count", 0)
    elapsed = stats["elapsed_time_seconds"]
    warc_bytes = sum(p.stat().st_size for p in (workdir / crawl_id / "warc").glob("*")
                     ) if warc else 0
    return {"responses": responses, "elapsed": elapsed, "rate": responses / elapsed,
            "cpu_per_1000": 1000 * cpu / max(responses, 1),
            "warc_bytes": warc_bytes, "revisits": stats.get("warc/revisits", 0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", type=int, default=3000)
    args = parser.parse_args()
    admin = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if not admin:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    web = build_synthetic_web(7, trap=False, faults=False)
    seeds = list(web.seeds) + add_debian_docs(web)
    print(f"sandbox: synthetic web + {len(seeds) - len(web.seeds)} documentation sites; "
          f"{os.cpu_count()} CPUs; CLOSESPIDER_PAGECOUNT={args.pages}; settings: "
          + ", ".join(f"{k}={v}" for k, v in SETTINGS.items()), flush=True)
    name = f"crawler_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = psycopg.conninfo.make_conninfo(admin, dbname=name)
    rates: dict[str, list[float]] = {v: [] for v in VARIANTS}
    cpus: dict[str, list[float]] = {v: [] for v in VARIANTS}
    server = SandboxServer(web).start()
    try:
        with tempfile.TemporaryDirectory(prefix="ops-overhead-") as tmp:
            for round_ in range(1, args.rounds + 1):
                order = list(VARIANTS) if round_ % 2 else list(reversed(VARIANTS))
                for variant in order:
                    r = crawl(server, seeds, url, Path(tmp), variant, args.pages)
                    rates[variant].append(r["rate"])
                    cpus[variant].append(r["cpu_per_1000"])
                    warc = (f", WARC {r['warc_bytes'] / 1e6:.1f} MB, {r['revisits']} revisits"
                            if r["warc_bytes"] else "")
                    print(f"  round {round_} {variant:<22} {r['responses']:>6} responses in "
                          f"{r['elapsed']:6.1f} s: {r['rate']:6.1f} pages/s, "
                          f"{r['cpu_per_1000']:5.1f} CPU s per 1000{warc}  "
                          f"(load {load()})", flush=True)
    finally:
        server.stop()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))
    medians = {v: statistics.median(r) for v, r in rates.items()}
    cpu_medians = {v: statistics.median(c) for v, c in cpus.items()}
    base, cpu_base = medians["baseline"], cpu_medians["baseline"]
    for variant, median in medians.items():
        ratio = median / base
        cpu_ratio = cpu_base / cpu_medians[variant]  # pages per CPU second, relative
        verdict = "" if variant == "baseline" else (
            f"  {ratio:.3f}x baseline pages/s, {cpu_ratio:.3f}x pages per CPU s; "
            f"target >= {TARGET}x: {'met' if min(ratio, cpu_ratio) >= TARGET else 'NOT met'}"
            f" (wall clock {'met' if ratio >= TARGET else 'NOT met'}, CPU "
            f"{'met' if cpu_ratio >= TARGET else 'NOT met'})")
        print(f"{variant:<22} median {median:6.1f} pages/s, {cpu_medians[variant]:5.1f} CPU s "
              f"per 1000{verdict}")


if __name__ == "__main__":
    main()
