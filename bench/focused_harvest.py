"""Harvest rate of `focused -a query=java` against `general` in BFS order (prints numbers).

Run from the repository root, inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/focused_harvest.py'

For each scenario (a synthetic sandbox web, see ``SCENARIOS``; by default the issue's
benchmark web, one Java site of 450 pages among six off-topic sites of 270, with the
Java site at each of the portal's 7 places) both crawls start from the neutral portal
page (``web.portal``, linking every site) in the same run, against the same sandbox
server, and stop after a little more than ``--pages`` fetched pages. The
harvest rate is computed over the first ``--pages`` pages each crawl stored (pages table,
in fetch order): relevant pages / fetched pages, relevance judged

- by the sandbox's ground truth: ``web.topic_of(url) == "java"``;
- by the crawler's own flag: the stored ``relevant`` column for `focused`, the same
  page-weight judgement recomputed from the stored page for `general`.

BFS order: with the project's best-first scheduler (``--scheduler frontier``, or when
crawler/settings.py sets it) `general -a strategy=bfs`; otherwise Scrapy's own scheduler
with DEPTH_PRIORITY=1, FIFO queues and one global priority queue (ScrapyPriorityQueue,
not the per-host DownloaderAwarePriorityQueue), which is breadth-first.
Targets (issue 6): focused >= 2x the BFS harvest rate and >= 0.6 absolute; over the
7 places of a set (java-site@N, neutral-host@N), the lowest focused rate against the
highest BFS rate. ``neutral-host@N`` is the same web with the Java site served as
www.beanery.test under word-free paths (``/s3/117``): no URL says "java", so neither
its pages' weights nor its links' scores get the URL part. ``--scenario java-site`` or
``--scenario neutral-host`` runs a whole set.
``--focused-set NAME=VALUE`` changes a setting of the focused crawl only (e.g.
``FRONTIER_HOLD_FOR_BETTER=None`` to compare without the frontier's hold option).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawler import settings as project_settings  # noqa: E402
from crawler.focus import RelevanceModel, WeightParams, parse_query  # noqa: E402
from crawler.sandbox import DEFAULT_SITES, SandboxServer, build_synthetic_web  # noqa: E402
from crawler.urls import canonical_url  # noqa: E402

QUERY = "java"
TOPIC = "java"
FRONTIER_SCHEDULER = "crawler.schedulers.best_first.BestFirstScheduler"
SCRAPY_SCHEDULER = "scrapy.core.scheduler.Scheduler"
TARGET_RATIO = 2.0
TARGET_ABSOLUTE = 0.6

# Issue 6's benchmark web: one Java site (www.javadev.test, 450 pages) among six
# off-topic sites of 270 pages each (1,620 pages), every site built alike (sections of
# about 25 articles), 30% of all articles naming another site's topic once in passing
# (off-topic pages say "java" now and then). A breadth-first crawl favours the sites
# the portal lists first (with 16 concurrent requests and 4 per host, the first four
# hosts' URLs win every tie of equal depth), so the scenario is run with the Java site
# at each of the 7 places of the portal: "java-site@1" lists it first.
JAVA_SITE = "www.javadev.test"
JAVA_SITE_SIZES = {host: 450 if host == JAVA_SITE else 270 for host in DEFAULT_SITES}
JAVA_SITE_MENTIONS = 0.3


def java_site_portal(place: int) -> list[str]:
    hosts = [host for host in DEFAULT_SITES if host != JAVA_SITE]
    hosts.insert(place - 1, JAVA_SITE)
    return hosts


# name -> (keyword arguments of build_synthetic_web, description)
SCENARIOS: dict[str, tuple[dict[str, object], str]] = {
    f"java-site@{place}": (
        {"site_sizes": JAVA_SITE_SIZES, "mentions": JAVA_SITE_MENTIONS,
         "portal_order": java_site_portal(place)},
        f"build_synthetic_web(site_sizes={{{JAVA_SITE}: 450, 6 other sites: 270}}, "
        f"mentions={JAVA_SITE_MENTIONS}, portal_order=Java site at place {place} of 7)",
    )
    for place in range(1, len(DEFAULT_SITES) + 1)
}
DEFAULT_SCENARIOS = list(SCENARIOS)
# The same webs with URLs that do not give the topic away: the Java site is served as
# www.beanery.test, with section directories /s1/ ... and numbered articles, so the
# focused crawl can only go by page content, anchor texts and its parents' weights.
NEUTRAL_HOST = "www.beanery.test"
SCENARIOS.update({
    f"neutral-host@{place}": (
        {"site_sizes": JAVA_SITE_SIZES, "mentions": JAVA_SITE_MENTIONS,
         "portal_order": java_site_portal(place), "neutral_urls": {JAVA_SITE: NEUTRAL_HOST}},
        f"java-site@{place} with neutral_urls={{{JAVA_SITE}: {NEUTRAL_HOST}}} "
        "(no URL of the Java site says 'java')",
    )
    for place in range(1, len(DEFAULT_SITES) + 1)
})
# --scenario NAME runs every NAME@N
SCENARIO_SETS = {
    name: [scenario for scenario in SCENARIOS if scenario.startswith(f"{name}@")]
    for name in ("java-site", "neutral-host")
}
SCENARIOS.update({
    "default": ({}, "build_synthetic_web(): one Java site (www.javadev.test) among 7"),
    # of the mappings giving the Java topic to more hosts, the one with >= 300 Java pages
    # (needed for 0.6 over 500 pages) where BFS finds the fewest of them (docs/focused.md)
    "java3": (
        {"topics": {"blog.gamma.test": "java", "www.delta.test": "java"}},
        "build_synthetic_web(topics={blog.gamma.test, www.delta.test: java}): "
        "3 Java sites among 7",
    ),
})

SCRAPY_BFS = {
    "DEPTH_PRIORITY": 1,
    "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue",
    "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
    "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
}


@dataclass
class CrawlPages:
    label: str
    crawl_id: str
    seconds: float
    urls: list[str]  # stored pages in fetch order
    flags: list[bool]  # the crawler's own relevance judgement of each


def database_url(arg: str | None) -> str:
    url = arg or os.environ.get("CRAWLER_DATABASE_URL") or os.environ.get(
        "CRAWLER_TEST_DATABASE_URL"
    )
    if not url:
        sys.exit("set CRAWLER_TEST_DATABASE_URL (a server where databases can be created)")
    return url


def run_crawl(
    spider: str,
    *,
    proxy: str,
    db_url: str,
    workdir: Path,
    args: Mapping[str, str],
    settings: Mapping[str, object],
) -> tuple[str, float]:
    crawl_id = f"bench-{spider}-{uuid.uuid4().hex[:8]}"
    cmd = [sys.executable, "-m", "scrapy", "crawl", spider, "-a", f"crawl_id={crawl_id}"]
    for key, value in args.items():
        cmd += ["-a", f"{key}={value}"]
    for key, value in settings.items():
        cmd += ["-s", f"{key}={value}"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings", "PYTHONPATH": str(ROOT),
           "CRAWLER_DATABASE_URL": db_url, "http_proxy": proxy, "https_proxy": proxy}
    env.pop("no_proxy", None)
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{spider} crawl failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return crawl_id, time.monotonic() - started


def stored_pages(conn: psycopg.Connection, crawl_id: str, limit: int) -> list[tuple]:
    return conn.execute(
        "SELECT p.url, p.final_url, p.title, p.text, p.relevant,"
        " (SELECT count(*) FROM links l WHERE l.crawl_id = p.crawl_id AND l.source_url = p.url)"
        " FROM pages p WHERE p.crawl_id = %s ORDER BY p.fetched_at, p.id LIMIT %s",
        (crawl_id, limit),
    ).fetchall()


def is_page(web, url: str) -> bool:
    """Whether the crawler stores ``url`` as a page: a 200 HTML or plain-text answer."""
    found = web.fetch(web.final_url(url))
    return found is not None and found.status == 200 and (
        found.is_html or (found.content_type or "").startswith("text/plain"))


def rate(hits: int, total: int) -> float:
    return hits / total if total else 0.0


def report(
    scenario: str, web, crawls: list[CrawlPages], windows: list[int]
) -> tuple[bool, dict[int, tuple[float, float]]]:
    """Print the scenario's numbers; return whether the target is met over the last
    window (ground truth) and {window: (focused rate, BFS rate)} by ground truth."""
    # distinct pages as the crawler sees them (session-id variants are one URL)
    truth_total = len({
        canonical_url(url) or url
        for url, depth in web.reachable([web.portal], max_pages=20000).items()
        if web.topic_of(url) == TOPIC and is_page(web, url) and depth <= 10
    })
    print(f"  {truth_total} distinct {TOPIC} pages reachable from the portal "
          "(ground truth, depth <= 10)")
    met = True
    by_window: dict[int, tuple[float, float]] = {}
    for window in windows:
        bound = min(truth_total, window) / window
        print(f"  first {window} fetched pages (upper bound for a crawler fetching {window}: "
              f"{bound:.3f})")
        print(f"    {'crawl':<26}{'pages':>6}{'truth':>7}{'rate':>8}{'flag':>7}{'rate':>8}")
        rates = {}
        for crawl in crawls:
            urls, flags = crawl.urls[:window], crawl.flags[:window]
            truth = sum(1 for u in urls if web.topic_of(u) == TOPIC)
            flagged = sum(flags)
            rates[crawl.label] = (rate(truth, len(urls)), rate(flagged, len(urls)), len(urls))
            print(f"    {crawl.label:<26}{len(urls):>6}{truth:>7}{rate(truth, len(urls)):>8.3f}"
                  f"{flagged:>7}{rate(flagged, len(urls)):>8.3f}")
        (focused_truth, focused_flag, _), (bfs_truth, bfs_flag, _) = rates.values()
        by_window[window] = (focused_truth, bfs_truth)
        for name, f, b in (("truth", focused_truth, bfs_truth), ("flag", focused_flag, bfs_flag)):
            ratio = f / b if b else float("inf")
            ok = ratio >= TARGET_RATIO and f >= TARGET_ABSOLUTE
            print(f"    by {name:<5}: focused/BFS = {ratio:.2f} (target >= {TARGET_RATIO}), "
                  f"focused = {f:.3f} (target >= {TARGET_ABSOLUTE}): {'MET' if ok else 'NOT MET'}")
            if window == windows[-1] and name == "truth":
                met = ok
    for crawl in crawls:
        hosts = Counter(urlsplit(url).hostname for url in crawl.urls[: windows[-1]])
        print(f"  {crawl.label}: first {windows[-1]} pages by host: "
              + ", ".join(f"{host} {count}" for host, count in hosts.most_common()))
    for crawl in crawls:
        first = next((i for i, u in enumerate(crawl.urls, 1) if web.topic_of(u) == TOPIC), None)
        print(f"  {crawl.label}: {len(crawl.urls)} pages stored in {crawl.seconds:.1f} s, "
              f"first {TOPIC} page at fetch #{first}")
    return met, by_window


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500, help="fetched pages measured")
    parser.add_argument("--scenario", action="append",
                        choices=[*SCENARIOS, *SCENARIO_SETS],
                        help="scenarios to run, or a set of them (java-site, neutral-host: "
                             "its 7 places); default: java-site")
    parser.add_argument("--scheduler", choices=("auto", "scrapy", "frontier"), default="auto",
                        help="auto: the SCHEDULER of crawler/settings.py")
    parser.add_argument("--database-url", help="server URL (default: CRAWLER_TEST_DATABASE_URL)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting for both crawls (repeatable)")
    parser.add_argument("--focused-set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting for the focused crawl only (repeatable)")
    options = parser.parse_args()

    configured = getattr(project_settings, "SCHEDULER", None)
    frontier = options.scheduler == "frontier" or (
        options.scheduler == "auto" and configured == FRONTIER_SCHEDULER
    )
    common: dict[str, object] = {
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        "STORE_FLUSH_INTERVAL": 0.5,
        "SEARCH_INDEX_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        # stop a little after the measured window (requests in flight finish)
        "CLOSESPIDER_PAGECOUNT": options.pages + 60,
    }
    for item in options.set:
        name, _, value = item.partition("=")
        common[name] = value
    focused_extra: dict[str, object] = {}
    for item in options.focused_set:
        name, _, value = item.partition("=")
        focused_extra[name] = value
    if frontier:
        common["SCHEDULER"] = FRONTIER_SCHEDULER
        bfs_args, bfs_settings = {"strategy": "bfs"}, {}
        order = "project frontier (BestFirstScheduler): general -a strategy=bfs"
    else:
        common["SCHEDULER"] = SCRAPY_SCHEDULER
        bfs_args, bfs_settings = {}, dict(SCRAPY_BFS)
        order = "Scrapy's scheduler, DEPTH_PRIORITY=1, FIFO queues, ScrapyPriorityQueue"
    print(f"query {QUERY!r}; BFS order: {order}")
    if options.set:
        print(f"settings: {', '.join(options.set)}")
    if options.focused_set:
        print(f"focused crawl only: {', '.join(options.focused_set)}")
    print(f"measured: harvest rate over the first {options.pages} fetched pages; targets: "
          f"focused >= {TARGET_ABSOLUTE} and >= {TARGET_RATIO}x BFS")

    server_url = database_url(options.database_url)
    db_name = f"crawler_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db_name)))
    db_url = psycopg.conninfo.make_conninfo(server_url, dbname=db_name)
    model = RelevanceModel(parse_query(QUERY), weights=WeightParams())
    windows = sorted({w for w in (100, 250, options.pages) if w <= options.pages})
    results = {}
    try:
        chosen = [scenario for name in options.scenario or DEFAULT_SCENARIOS
                  for scenario in SCENARIO_SETS.get(name, [name])]
        for name in dict.fromkeys(chosen):
            web_args, description = SCENARIOS[name]
            print(f"\nscenario {name}: {description}")
            web = build_synthetic_web(**web_args)
            server = SandboxServer(web)
            server.start()
            crawls = []
            try:
                with tempfile.TemporaryDirectory() as tmp, psycopg.connect(db_url) as conn:
                    workdir = Path(tmp)
                    for label, spider, args, extra in (
                        ("focused -a query=java", "focused", {"query": QUERY}, focused_extra),
                        ("general (BFS)", "general", bfs_args, bfs_settings),
                    ):
                        crawl_id, seconds = run_crawl(
                            spider, proxy=server.proxy_url, db_url=db_url, workdir=workdir,
                            args={"seed_urls": web.portal, **args},
                            settings={**common, "CRAWLER_DATA_DIR": str(workdir / ".crawl"),
                                      **extra},
                        )
                        rows = stored_pages(conn, crawl_id, options.pages)
                        flags = []
                        for _url, final_url, title, text, relevant, outlinks in rows:
                            if relevant is None:  # general: judge the stored page the same way
                                relevant = model.judge(
                                    url=final_url, title=title, text=text, outlinks=outlinks
                                ).relevant
                            flags.append(bool(relevant))
                        crawls.append(CrawlPages(label, crawl_id, seconds,
                                                 [r[0] for r in rows], flags))
            finally:
                server.stop()
            results[name] = report(name, web, crawls, windows)
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                          .format(sql.Identifier(db_name)))
    print(f"\nsummary, harvest rate by ground truth, focused / BFS (targets over the first "
          f"{options.pages}: focused >= {TARGET_ABSOLUTE} and >= {TARGET_RATIO}x BFS)")
    print(f"  {'scenario':<16}" + "".join(f"{'first ' + str(w):>17}" for w in windows)
          + f"{'ratio':>8}  target")
    for name, (met, by_window) in results.items():
        cells = "".join(f"{f'{f:.3f} / {b:.3f}':>17}" for f, b in by_window.values())
        f, b = by_window[windows[-1]]
        ratio = f"{f / b:.2f}" if b else "inf"
        print(f"  {name:<16}{cells}{ratio:>8}  {'MET' if met else 'NOT MET'}")
    for set_name in SCENARIO_SETS:
        grouped = [by_window[windows[-1]] for name, (_, by_window) in results.items()
                   if name.startswith(f"{set_name}@")]
        if len(grouped) < 2:
            continue
        worst_focused = min(f for f, _ in grouped)
        best_bfs = max(b for _, b in grouped)
        ratio = worst_focused / best_bfs if best_bfs else float("inf")
        ok = worst_focused >= TARGET_ABSOLUTE and ratio >= TARGET_RATIO
        print(f"  {set_name}, all {len(grouped)} places: lowest focused {worst_focused:.3f}, "
              f"highest BFS {best_bfs:.3f}, lowest/highest = {ratio:.2f}: "
              f"{'MET' if ok else 'NOT MET'}")


if __name__ == "__main__":
    main()
