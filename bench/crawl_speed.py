"""Crawl speed with every pipeline on, against plain Scrapy, in one run (prints numbers).

Both sides crawl the same sandbox web (the synthetic web without traps and faults, plus
the Debian documentation sites installed here: a dozen hosts) through the same sandbox
proxy, back to back, alternating over ``--rounds`` rounds, each until
CLOSESPIDER_PAGECOUNT (3,000 responses by default):

- plain Scrapy: a CrawlSpider (one rule, LinkExtractor, no item, no pipeline) run with
  `scrapy runspider` from an empty temporary folder (no scrapy.cfg above it, no project
  settings module): Scrapy's own settings and scheduler, robots.txt not obeyed (Scrapy's
  default), cookies on;
- ours: `scrapy crawl general` with the project's settings (robots.txt obeyed, depth
  limit 10, best-first frontier in PostgreSQL, content-seen test, PostgreSQL storage,
  Whoosh indexing);
- both: CONCURRENT_REQUESTS=16, CONCURRENT_REQUESTS_PER_DOMAIN=8, DOWNLOAD_DELAY=0,
  links followed only within the sandbox's `.test` hosts.

Pages/s = responses received / the crawl's elapsed time (Scrapy's
``elapsed_time_seconds``, engine start to close); for ours also pages stored / elapsed.
CPU per page is the CPU time of the crawl process and of its child processes (the search
indexer) divided by responses.

CPU ms per page by stage comes from one more run of ours under cProfile with a CPU-time
clock (``time.process_time``, so waiting on the network or the database counts for
nothing): the inclusive CPU time of the functions that start each stage, as a share of
the profiled process's CPU, applied to the unprofiled runs' CPU per page (cProfile's own
overhead inflates Python-heavy code, so shares are approximate). "download and parse" is
the rest of the crawl process (Twisted, Scrapy's engine and downloader, response
objects, middlewares); "indexing (indexer process)" is the child processes' CPU.
"storage" adds the CPU time of the storage pipeline's writer thread (its own
``time.thread_time``, stat ``store/writer_cpu_seconds``): cProfile follows the main
thread only.

Run inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/crawl_speed.py'

Target (issue 14): ours >= 0.9x plain Scrapy's pages/s (goal: > 1x).
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.9
CONCURRENCY = {"CONCURRENT_REQUESTS": 16, "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
               "DOWNLOAD_DELAY": 0}

# Stage -> functions (file suffix, function name) whose inclusive CPU time is the stage's.
# None of them calls another of the list, so the sums do not overlap.
STAGES: dict[str, list[tuple[str, str]]] = {
    "extraction": [("crawler/extract.py", "extract_page")],
    "content-seen": [("crawler/middlewares/content_seen.py", "judge")],
    "scheduler enqueue/dequeue": [
        ("crawler/schedulers/best_first.py", "enqueue_request"),
        ("crawler/schedulers/best_first.py", "next_request"),
        ("crawler/schedulers/best_first.py", "_write_loop"),
        ("crawler/schedulers/best_first.py", "_tick"),
    ],
    # plus the storage writer thread's CPU (store/writer_cpu_seconds): cProfile sees only
    # the main thread, the writes run in a thread of their own
    "storage": [("crawler/pipelines/postgres.py", "process_item"),
                ("crawler/pipelines/postgres.py", "request_dropped"),
                ("crawler/pipelines/postgres.py", "close_spider")],
    "indexing (crawl process)": [("crawler/pipelines/search_index.py", "process_item"),
                                 ("crawler/pipelines/search_index.py", "_flush_periodically")],
}

PLAIN_SPIDER = textwrap.dedent('''
    import json, os
    from datetime import datetime
    from scrapy.linkextractors import LinkExtractor
    from scrapy.spiders import CrawlSpider, Rule

    class PlainSpider(CrawlSpider):
        name = "plain"
        allowed_domains = ["test"]
        start_urls = os.environ["BENCH_SEEDS"].split(",")
        rules = (Rule(LinkExtractor(), follow=True),)

        def closed(self, reason):
            # CoreStats sets elapsed_time_seconds only after this: the same span here
            stats = self.crawler.stats.get_stats()
            start = stats["start_time"]
            stats["elapsed_time_seconds"] = (datetime.now(tz=start.tzinfo) - start).total_seconds()
            with open(os.environ["BENCH_STATS"], "w") as f:
                json.dump(stats, f, default=str)
''')


def run_child(out: str, profile: bool, argv: list[str]) -> None:
    """This script as the crawl process: runs Scrapy's command line (under cProfile when
    ``profile``) and writes its own and its children's CPU time to ``out``.json."""
    from scrapy.cmdline import execute

    sys.argv = ["scrapy", *argv]
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
    try:
        execute()
    except SystemExit:
        pass
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(out + ".prof")
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(out + ".json", "w") as f:
            json.dump({"self_cpu": own.ru_utime + own.ru_stime,
                       "children_cpu": kids.ru_utime + kids.ru_stime}, f)


def _proxy_env(proxy: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("SCRAPY_SETTINGS_MODULE", "PYTHONPATH", "CRAWLER_DATABASE_URL")}
    env["http_proxy"] = env["https_proxy"] = proxy
    return env


def crawl_plain(proxy: str, seeds: list[str], pages: int, tmp: Path) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="plain-scrapy-", dir=tmp))
    (folder / "plain_spider.py").write_text(PLAIN_SPIDER)
    stats_path = folder / "stats.json"
    cmd = [sys.executable, "-m", "scrapy", "runspider", "plain_spider.py",
           "-s", f"CLOSESPIDER_PAGECOUNT={pages}", "-s", "LOG_LEVEL=WARNING"]
    for key, value in CONCURRENCY.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**_proxy_env(proxy), "BENCH_SEEDS": ",".join(seeds), "BENCH_STATS": str(stats_path)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or not stats_path.exists():
        sys.exit(f"error: plain Scrapy crawl failed\n{proc.stderr[-3000:]}")
    stats = json.loads(stats_path.read_text())
    responses = stats.get("response_received_count", 0)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"responses": responses, "stored": None, "elapsed": stats["elapsed_time_seconds"],
            "cpu": cpu, "children_cpu": 0.0}


def crawl_ours(proxy: str, seeds: list[str], pages: int, database_url: str, tmp: Path,
               profile: bool = False, extra: tuple[str, ...] = ()) -> dict:
    import psycopg

    crawl_id = f"speed-{uuid.uuid4().hex[:8]}"
    folder = tmp / crawl_id
    folder.mkdir()
    out = str(folder / "cpu")
    argv = ["crawl", "general", "-a", "seed_urls=" + ",".join(seeds),
            "-a", f"crawl_id={crawl_id}", "-a", "allowed_domains=test",
            "-s", f"CLOSESPIDER_PAGECOUNT={pages}", "-s", "LOG_LEVEL=WARNING",
            "-s", f"CRAWLER_DATA_DIR={folder / '.crawl'}"]
    for key, value in CONCURRENCY.items():
        argv += ["-s", f"{key}={value}"]
    for setting in extra:  # --set NAME=VALUE: ours only (e.g. SEARCH_BACKEND=tantivy)
        argv += ["-s", setting]
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", out,
           *(["--child-profile"] if profile else []), "--", *argv]
    env = {**_proxy_env(proxy), "SCRAPY_SETTINGS_MODULE": "crawler.settings",
           "PYTHONPATH": str(ROOT), "CRAWLER_DATABASE_URL": database_url}
    proc = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT stats FROM crawls WHERE id = %s", (crawl_id,)).fetchone()
        stored = conn.execute("SELECT count(*) FROM pages WHERE crawl_id = %s",
                              (crawl_id,)).fetchone()[0]
    if proc.returncode != 0 or row is None or not row[0]:
        sys.exit(f"error: our crawl failed ({proc.returncode})\n{proc.stderr[-3000:]}")
    stats = row[0] if isinstance(row[0], dict) else json.loads(row[0])
    cpu = json.loads(Path(out + ".json").read_text())
    result = {"responses": stats.get("response_received_count", 0), "stored": stored,
              "elapsed": stats["elapsed_time_seconds"],
              "cpu": cpu["self_cpu"] + cpu["children_cpu"], "children_cpu": cpu["children_cpu"]}
    if profile:
        result["profile"] = out + ".prof"
        result["self_cpu"] = cpu["self_cpu"]
        result["writer_cpu"] = float(stats.get("store/writer_cpu_seconds") or 0.0)
    return result


def stage_shares(profile_path: str) -> tuple[dict[str, float], float]:
    """Inclusive CPU seconds per stage, and the profiled total, from a cProfile dump."""
    stats = pstats.Stats(profile_path)
    total = stats.total_tt  # type: ignore[attr-defined]
    seconds = {stage: 0.0 for stage in STAGES}
    for (filename, _line, name), (_cc, _nc, _tt, cumtime, _callers) in \
            stats.stats.items():  # type: ignore[attr-defined]
        for stage, functions in STAGES.items():
            if any(filename.endswith(suffix) and name == fn for suffix, fn in functions):
                seconds[stage] += cumtime
    return seconds, total


def _split(run: dict) -> str:
    """The crawl process's and its children's (the indexer's) CPU ms/page, for ours."""
    if run["stored"] is None:
        return ""
    responses = max(1, run["responses"])
    own = 1000 * (run["cpu"] - run["children_cpu"]) / responses
    return f" = crawl process {own:.1f} + indexer {1000 * run['children_cpu'] / responses:.1f}"


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        out, rest = sys.argv[2], sys.argv[3:]
        profile = bool(rest) and rest[0] == "--child-profile"
        rest = rest[1:] if profile else rest
        run_child(out, profile, rest[1:] if rest and rest[0] == "--" else rest)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pages", type=int, default=3000, help="CLOSESPIDER_PAGECOUNT")
    parser.add_argument("--no-profile", action="store_true", help="skip the profiled run")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of ours only, e.g. SEARCH_BACKEND=tantivy (repeatable)")
    parser.add_argument("--database-prefix", default="crawler_bench",
                        help="name of the scratch database (a random suffix is added)")
    parser.add_argument("--save-profile", metavar="PATH",
                        help="keep the profiled run's cProfile dump (pstats) at PATH")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    from crawler.sandbox import SandboxServer, add_debian_docs, build_synthetic_web

    web = build_synthetic_web(7, trap=False, faults=False)
    seeds = list(web.seeds) + add_debian_docs(web)
    print(f"sandbox: {len(web.seeds)} synthetic sites + {len(seeds) - len(web.seeds)} "
          f"documentation sites; {os.cpu_count()} CPUs; load average at start "
          f"{os.getloadavg()[0]:.2f}; ours also: {' '.join(args.set) or '-'}; both sides: "
          + ", ".join(f"{k}={v}" for k, v in CONCURRENCY.items())
          + f", CLOSESPIDER_PAGECOUNT={args.pages}", flush=True)
    from scratch import empty_database  # after the child-process check: imports crawler

    database = ExitStack()
    url = database.enter_context(empty_database(args.database_prefix))
    runs: dict[str, list[dict]] = {"plain Scrapy": [], "ours": []}
    server = SandboxServer(web).start()
    profiled = None
    try:
        with tempfile.TemporaryDirectory(prefix="crawl-speed-") as tmp_name:
            tmp = Path(tmp_name)
            for round_ in range(1, args.rounds + 1):
                order = ["plain Scrapy", "ours"] if round_ % 2 else ["ours", "plain Scrapy"]
                for side in order:
                    if side == "ours":
                        r = crawl_ours(server.proxy_url, seeds, args.pages, url, tmp,
                                       extra=tuple(args.set))
                    else:
                        r = crawl_plain(server.proxy_url, seeds, args.pages, tmp)
                    runs[side].append(r)
                    stored = "" if r["stored"] is None else f", {r['stored']} pages stored"
                    print(f"  round {round_} {side:<13} {r['responses']:>5} responses{stored} "
                          f"in {r['elapsed']:6.1f} s: {r['responses'] / r['elapsed']:6.1f} "
                          f"pages/s, CPU {1000 * r['cpu'] / max(1, r['responses']):5.1f} "
                          f"ms/page{_split(r)} (load {os.getloadavg()[0]:.2f})", flush=True)
            if not args.no_profile:
                profiled = crawl_ours(server.proxy_url, seeds, args.pages, url, tmp,
                                      profile=True, extra=tuple(args.set))
                seconds, total = stage_shares(profiled["profile"])
                # The profile's clock is the process's CPU time, so its total holds the
                # writer thread's CPU too (spread over whatever the main thread was in);
                # counted here as storage, it may count twice in the other stages' shares.
                seconds["storage"] += profiled["writer_cpu"]
                if args.save_profile:
                    shutil.copyfile(profiled["profile"], args.save_profile)
    finally:
        server.stop()
        database.close()

    rate = {side: statistics.median(r["responses"] / r["elapsed"] for r in rs)
            for side, rs in runs.items()}
    cpu_ms = {side: statistics.median(1000 * r["cpu"] / max(1, r["responses"]) for r in rs)
              for side, rs in runs.items()}
    stored_rate = statistics.median(r["stored"] / r["elapsed"] for r in runs["ours"])
    print(f"plain Scrapy  median {rate['plain Scrapy']:6.1f} pages/s, "
          f"CPU {cpu_ms['plain Scrapy']:5.1f} ms/page")
    own_ms = statistics.median(1000 * (r["cpu"] - r["children_cpu"]) / max(1, r["responses"])
                               for r in runs["ours"])
    print(f"ours          median {rate['ours']:6.1f} pages/s ({stored_rate:.1f} stored/s), "
          f"CPU {cpu_ms['ours']:5.1f} ms/page (crawl process alone {own_ms:.1f})")
    ratio = rate["ours"] / rate["plain Scrapy"]
    print(f"ours / plain Scrapy: {ratio:.2f}x   target >= {TARGET}x: "
          f"{'met' if ratio >= TARGET else 'NOT met'}")
    if profiled is not None:
        responses = max(1, profiled["responses"])
        main_ms = 1000 * profiled["self_cpu"] / responses
        child_ms = 1000 * profiled["children_cpu"] / responses
        print(f"CPU ms per page by stage (profiled run: {profiled['responses']} responses, "
              f"crawl process {main_ms:.1f} ms/page under cProfile, child processes "
              f"{child_ms:.1f} ms/page; shares of the crawl process applied to the "
              "unprofiled median):")
        unprofiled_main = statistics.median(
            1000 * (r["cpu"] - r["children_cpu"]) / max(1, r["responses"]) for r in runs["ours"])
        unprofiled_child = statistics.median(
            1000 * r["children_cpu"] / max(1, r["responses"]) for r in runs["ours"])
        accounted = 0.0
        for stage, secs in seconds.items():
            share = secs / total if total else 0.0
            accounted += share
            print(f"  {stage:<28} {share * unprofiled_main:6.2f} ms  ({100 * share:4.1f}%)")
        rest = max(0.0, 1.0 - accounted)
        print(f"  {'download and parse (rest)':<28} {rest * unprofiled_main:6.2f} ms  "
              f"({100 * rest:4.1f}%)")
        print(f"  {'indexing (indexer process)':<28} {unprofiled_child:6.2f} ms")


if __name__ == "__main__":
    main()
