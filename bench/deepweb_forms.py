"""Relevant searchable forms per 1,000 requests: `smart -a topic=books` against `general`.

Run from the repository root, inside a loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/deepweb_forms.py'

One sandbox deep web (crawler/sandbox/deepweb.py: ``--sites-per-topic`` sites of each of
five topics, a third of them with a searchable form 0-3 links deep), one sandbox server,
both crawls from the same seed (the site directory) in the same run, each in its own
database, with the project's default settings but DOWNLOAD_DELAY 0 and 4 requests per
host (the sandbox is local) and ``--max-requests`` as CLOSESPIDER_PAGECOUNT (responses,
robots.txt included; 0: until done). ``--smart-set NAME=VALUE`` changes a setting of the
smart crawl only. Counted from the sandbox server's request log, the same way for both crawls:

- requests: page requests (robots.txt requests are printed apart);
- relevant searchable forms found: pages fetched that hold a searchable form of a site
  of the topic (the sandbox's ground truth), per 1,000 page requests;
- relevant deep-web sites found: the sites of those pages.

The smart crawl's own verdict (relevant searchable rows of `forms`) is printed next to it.
``general@smart`` is a second general crawl stopped after as many responses (robots.txt
included) as the smart crawl made: both at the same budget.
Target (issue 12): smart >= 3x the general crawl's forms per 1,000 requests (the complete
general crawl).
"""

from __future__ import annotations

import argparse
import os
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

from crawler.sandbox import SandboxServer  # noqa: E402
from crawler.sandbox.deepweb import build_deepweb  # noqa: E402
from crawler.sandbox.web import canonical  # noqa: E402

TARGET = 3.0


def crawl(spider: str, args: dict[str, str], proxy: str, server_url: str,
          settings: dict[str, object]) -> tuple[float, list[str]]:
    """Run one crawl in a fresh database; returns seconds and the page URLs of its
    relevant searchable rows of `forms` (smart; none for general)."""
    name = f"bench_deepweb_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    db_url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-deepweb-") as work:
            crawl_id = f"bench-{spider}"
            cmd = [sys.executable, "-m", "scrapy", "crawl", spider, "-a", f"crawl_id={crawl_id}"]
            for key, value in args.items():
                cmd += ["-a", f"{key}={value}"]
            for key, value in {"CRAWLER_DATA_DIR": f"{work}/.crawl", **settings}.items():
                cmd += ["-s", f"{key}={value}"]
            env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings",
                   "PYTHONPATH": str(ROOT), "CRAWLER_DATABASE_URL": db_url,
                   "http_proxy": proxy, "https_proxy": proxy}
            env.pop("no_proxy", None)
            started = time.monotonic()
            proc = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
            seconds = time.monotonic() - started
            if proc.returncode != 0:
                sys.exit(f"error: {spider} crawl failed ({proc.returncode}):\n"
                         f"{proc.stderr[-4000:]}")
        with psycopg.connect(db_url) as conn:
            own = [row[0] for row in conn.execute(
                "SELECT page_url FROM forms WHERE crawl_id = %s AND searchable AND relevant",
                (crawl_id,))]
        return seconds, own
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(name)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--topic", default="books")
    parser.add_argument("--sites-per-topic", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-requests", type=int, default=0)
    parser.add_argument("--smart-set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the smart crawl only (repeatable)")
    options = parser.parse_args()
    smart_settings = {}
    for item in options.smart_set:
        name, sep, value = item.partition("=")
        if not sep or not name:
            print(f"error: --smart-set wants NAME=VALUE, not {item!r}", file=sys.stderr)
            return 2
        smart_settings[name] = value
    server_url = os.environ.get("CRAWLER_TEST_DATABASE_URL") or os.environ.get(
        "CRAWLER_DATABASE_URL")
    if not server_url:
        print("error: set CRAWLER_TEST_DATABASE_URL (a server where databases can be "
              "created)", file=sys.stderr)
        return 2
    deepweb = build_deepweb(options.seed, options.sites_per_topic)
    forms = deepweb.searchable_forms(options.topic)
    if not forms:
        print(f"error: no site of topic {options.topic!r} holds a searchable form",
              file=sys.stderr)
        return 2
    settings: dict[str, object] = {"DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
                                   "LOG_LEVEL": "WARNING"}
    if options.max_requests:
        settings["CLOSESPIDER_PAGECOUNT"] = options.max_requests
    deep_sites = len(deepweb.deep_sites(options.topic))
    print(f"sandbox deep web: {len(deepweb.sites)} sites, {len(deepweb.searchable_forms())} "
          f"searchable forms, {len(forms)} of topic {options.topic!r} on {deep_sites} sites; "
          f"seed {deepweb.directory}")
    results = {}
    budget = 0
    runs = [("smart", {"topic": options.topic}), ("general", {}), ("general@smart", {})]
    with SandboxServer(deepweb.web) as server:
        for label, args in runs:
            spider = label.split("@")[0]
            run_settings = dict(settings)
            if spider == "smart":
                run_settings.update(smart_settings)
            elif label == "general@smart":
                # the same number of responses (robots.txt included) as the smart crawl
                run_settings["CLOSESPIDER_PAGECOUNT"] = budget
            server.clear_log()
            seconds, own = crawl(spider, {"seed_urls": deepweb.directory, **args},
                                 server.proxy_url, server_url, run_settings)
            log = server.requests_for()
            if spider == "smart":
                budget = len(log)
            pages = [r for r in log if r.path != "/robots.txt"]
            fetched = {canonical(f"http://{r.host}{r.path}" + (f"?{r.query}" if r.query else ""))
                       for r in pages}
            found = sorted(url for url in forms if url in fetched)
            per_1000 = 1000 * len(found) / len(pages) if pages else 0.0
            results[label] = per_1000
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"{label:14s} page requests {len(pages):5d} (robots.txt {len(log) - len(pages)})"
                  f"  relevant searchable forms {len(found)}/{len(forms)}"
                  f"  per 1,000 requests {per_1000:.2f}"
                  f"  deep-web sites {len({u.split('/')[2] for u in found})}"
                  + (f"  own verdict {len(own)} ({len(set(own) & set(forms))} right)"
                     if spider == "smart" else "")
                  + f"  {seconds:.1f} s  load average {load}")
    equal = results["smart"] / results["general@smart"] if results["general@smart"] else (
        float("inf"))
    print(f"smart / general@smart (same number of requests): {equal:.2f}x")
    ratio = results["smart"] / results["general"] if results["general"] else float("inf")
    met = ratio >= TARGET
    print(f"smart / general forms per 1,000 requests: {ratio:.2f}x "
          f"(target >= {TARGET}x: {'met' if met else 'NOT met'})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
