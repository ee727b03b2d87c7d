"""Issue 29: crawl speed over the whole run on a web like the real one, against plain Scrapy.

    python3 bench/realweb_blind/speed.py --project DIR [--pages 3000] [--rounds 1]

Blind evaluation web ``realweb`` (webs.py): four large documentation sites (cmake-doc, rust-doc's
std/core/alloc, python-pandas-doc, sqlite3-doc: 12,824 pages), 320 small sites of 1-30 pages,
60 dead outside hosts (refused, DNS failure answered 502, hanging 2-5 s then 504), about 1 % of
pages slow (0.5-3 s), broken links (404), varied robots.txt. Per round, alternating which goes
first, each side with a fresh server, inside a loopback-only network namespace:

1. plain Scrapy: a CrawlSpider following every link (LinkExtractor()), ``python -m scrapy
   runspider`` with the project's .venv python from an empty temporary folder (no scrapy.cfg
   above it), Scrapy's own settings and scheduler;
2. the project: ``DIR/.venv/bin/scrapy crawl general -a seeds=FILE`` (every pipeline on, fresh
   PostgreSQL database, fresh CRAWLER_DATA_DIR), cwd=DIR.

Both: CONCURRENT_REQUESTS=16, CONCURRENT_REQUESTS_PER_DOMAIN=8, DOWNLOAD_DELAY=0,
CLOSESPIDER_PAGECOUNT=--pages; plain Scrapy also ROBOTSTXT_OBEY=True.

Targets (issue 29): 2xx pages/s over the span of requests >= 1.0x plain Scrapy; process
start-to-exit <= 1.2x plain Scrapy's; close after the limit <= 5 s plus the slowest in-flight
response (i.e. exit <= 5 s after the last response).
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import webs  # noqa: E402

PLAIN_SPIDER = """
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class PlainSpider(CrawlSpider):
    name = "plain"
    rules = (Rule(LinkExtractor(), follow=True),)

    def __init__(self, seeds=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        with open(seeds) as fh:
            self.start_urls = [line.strip() for line in fh if line.strip()]
"""

COMMON = ["CONCURRENT_REQUESTS=16", "CONCURRENT_REQUESTS_PER_DOMAIN=8", "DOWNLOAD_DELAY=0"]
FIRST = 20.0
ELAPSED = re.compile(r"'elapsed_time_seconds':\s*([0-9.]+)")
FINISH = re.compile(r"'finish_reason':\s*'([^']*)'")


def metrics(reqs: list[harness.Request], t0: float, t1: float, limit: int) -> dict:
    if not reqs:
        return {"pages": 0, "requests": 0}
    first = reqs[0].start
    by_end = sorted(reqs, key=lambda r: r.end)
    last = by_end[-1].end
    pages = [r.end for r in by_end if 200 <= r.status < 300]
    span = last - first
    n = len(pages)
    first20 = sum(1 for t in pages if t <= first + FIRST)
    t90 = pages[int(0.9 * n) - 1] if n >= 10 else last
    steady_n = sum(1 for t in pages if first + FIRST < t <= t90)
    steady_s = t90 - first - FIRST
    t_limit = pages[limit - 1] if n >= limit else None  # the limit-th 2xx page
    # bytes of the 2xx bodies: the two sides choose different pages (best-first takes the
    # large documentation pages first), so pages/s alone does not compare their work
    page_bytes = sum(r.size for r in by_end if 200 <= r.status < 300)
    return {
        "pages": n,
        "requests": len(reqs),
        "span": span,
        "rate": n / span if span > 0 else 0.0,
        "mb": page_bytes / 1e6,
        "mb_rate": page_bytes / 1e6 / span if span > 0 else 0.0,
        "first20": first20 / FIRST,
        "steady": steady_n / steady_s if steady_s > 1 else float("nan"),
        "wall": t1 - t0,
        "startup": first - t0,
        "after_last": t1 - last,
        "after_limit": (t1 - t_limit) if t_limit else None,
        "inflight_after_limit": (last - t_limit) if t_limit else None,
        "hosts": len({r.host for r in reqs}),
        "max_resp": max(r.end - r.start for r in reqs),
    }


def run_side(
    side: str, project: Path, web: webs.Web, work: Path, pages: int, timeout: float
) -> dict:
    rdir = work / side
    if rdir.exists():
        shutil.rmtree(rdir)
    rdir.mkdir(parents=True)
    seeds = rdir / "seeds.txt"
    seeds.write_text("\n".join(web.seeds) + "\n")
    server = harness.start_server("realweb", rdir / "requests.tsv", seed=web.seed)
    db = None
    try:
        if side == "plain":
            folder = Path(tempfile.mkdtemp(prefix="plainscrapy-", dir="/tmp"))
            (folder / "plain_spider.py").write_text(PLAIN_SPIDER)
            env = harness.proxy_env(server)
            env.pop("SCRAPY_SETTINGS_MODULE", None)
            cmd = [
                str(project / ".venv/bin/python"),
                "-m",
                "scrapy",
                "runspider",
                "plain_spider.py",
                "-a",
                f"seeds={seeds}",
            ]
            for s in COMMON + [f"CLOSESPIDER_PAGECOUNT={pages}", "ROBOTSTXT_OBEY=True"]:
                cmd += ["-s", s]
            cwd = folder
        else:
            db = harness.Database("blindspeed")
            env = harness.proxy_env(server, {"CRAWLER_DATABASE_URL": db.url})
            cmd = [str(project / ".venv/bin/scrapy"), "crawl", "general", "-a", f"seeds={seeds}"]
            for s in COMMON + [
                f"CLOSESPIDER_PAGECOUNT={pages}",
                f"CRAWLER_DATA_DIR={rdir / 'data'}",
            ]:
                cmd += ["-s", s]
            cwd = project
        load = harness.uptime()
        # CPU of the side's whole process tree (the crawl, its page-analysis worker and
        # indexer; not PostgreSQL, not the server): every descendant is waited for, so its
        # time rolls up into RUSAGE_CHILDREN. Unlike pages/s it hardly moves with the load.
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        backends = harness.BackendCPU(db.name) if db is not None else None
        rc, t0, t1 = harness.run_logged(cmd, cwd, env, rdir / "crawl.log", timeout)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        db_cpu = backends.stop() if backends is not None else None
    finally:
        server.stop()
        if db is not None:
            db.drop()
        if side == "plain":
            shutil.rmtree(folder, ignore_errors=True)
    m = metrics(harness.read_log(rdir / "requests.tsv"), t0, t1, pages)
    text = (rdir / "crawl.log").read_text(errors="replace")
    e = ELAPSED.search(text)
    f = FINISH.search(text)
    m.update(
        rc=rc,
        load=load,
        server_cpu=server.cpu(),
        cpu=cpu,
        db_cpu=db_cpu,
        elapsed=float(e.group(1)) if e else None,
        finish=f.group(1) if f else "?",
    )
    # CPU per 2xx page (None: no pages, or no database: plain Scrapy)
    pages = m.get("pages") or 0
    m["cpu_ms"] = 1000 * cpu / pages if pages else None
    m["db_ms"] = 1000 * db_cpu / pages if pages and db_cpu is not None else None
    shutil.rmtree(rdir / "data", ignore_errors=True)
    return m


def fmt(m: dict) -> str:
    if not m.get("pages"):
        return f"no pages (exit {m.get('rc')}, finish {m.get('finish')})"
    al = (
        f"exit {m['after_limit']:.1f} s after the limit-th 2xx page (the last response ended "
        f"{m['inflight_after_limit']:.1f} s after it)"
        if m["after_limit"] is not None
        else "fewer 2xx pages than the limit"
    )
    el = f"{m['elapsed']:.1f}" if m["elapsed"] is not None else "?"
    return (
        f"pages {m['pages']} requests {m['requests']} hosts {m['hosts']} | span {m['span']:.1f} s, "
        f"{m['rate']:.1f} pages/s, {m['mb']:.1f} MB of 2xx pages ({m['mb_rate']:.2f} MB/s, "
        f"{1000 * m['mb'] / m['pages']:.1f} kB per page); "
        f"first {FIRST:.0f} s {m['first20']:.1f} pages/s; steady "
        f"{m['steady']:.1f} pages/s | "
        f"start-to-exit {m['wall']:.1f} s (first request after {m['startup']:.1f} s; "
        f"elapsed_time_seconds {el}) | "
        f"exit {m['after_last']:.1f} s after the last response; {al} | "
        f"exit {m['rc']}, finish {m['finish']}; CPU {m['cpu']:.1f} s "
        f"({m['cpu_ms']:.1f} ms per 2xx page)"
        + (
            f" + PostgreSQL's backends {m['db_cpu']:.1f} s ({m['db_ms']:.1f} ms per 2xx page)"
            if m["db_ms"] is not None
            else ""
        )
        + f"; server CPU {m['server_cpu']}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--project", required=True, help="project folder with .venv (e.g. /work/main)")
    ap.add_argument("--pages", type=int, default=3000, help="CLOSESPIDER_PAGECOUNT (default 3000)")
    ap.add_argument(
        "--rounds", type=int, default=1, help="rounds of (plain, ours), alternating who goes first"
    )
    ap.add_argument("--seed", type=int, default=29, help="the web's seed (default 29)")
    ap.add_argument(
        "--timeout", type=float, default=900, help="kill a side after this many seconds"
    )
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    project = harness.check_project(args.project)
    if args.pages < 10 or args.rounds < 1:
        raise SystemExit("error: --pages must be >= 10 and --rounds >= 1")
    web = webs.build("realweb", args.seed)
    harness.enter_netns()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="realweb_blind-speed-"))
    print(f"speed (blind web realweb): {web.describe()}")
    print(f"seeds: {' '.join(web.seeds)}")
    print(
        f"plain Scrapy: {project}/.venv/bin/python -m scrapy runspider plain_spider.py "
        "(CrawlSpider, Rule(LinkExtractor(), "
        "follow=True)) from an empty folder in /tmp, Scrapy's own settings + -s "
        f"{' -s '.join(COMMON)} "
        f"-s CLOSESPIDER_PAGECOUNT={args.pages} -s ROBOTSTXT_OBEY=True"
    )
    print(
        f"ours: {project}/.venv/bin/scrapy crawl general -a seeds=FILE -s {' -s '.join(COMMON)} "
        f"-s CLOSESPIDER_PAGECOUNT={args.pages} -s CRAWLER_DATA_DIR=<fresh> (fresh PostgreSQL "
        "database, "
        f"every pipeline on, the project's own defaults otherwise)"
    )
    print(
        "rates: 2xx pages over the span first request -> last response (server log); first "
        f"{FIRST:.0f} s after the "
        f"first request; steady = from {FIRST:.0f} s to the 90% page. Logs in {work}"
    )
    results: dict[str, list[dict]] = {"plain": [], "ours": []}
    for rnd in range(1, args.rounds + 1):
        order = ("plain", "ours") if rnd % 2 == 1 else ("ours", "plain")
        for side in order:
            m = run_side(side, project, web, work / f"round{rnd}", args.pages, args.timeout)
            results[side].append(m)
            print(f"round {rnd} {side:5s}: {fmt(m)} | {m['load']}", flush=True)
        p, o = results["plain"][-1], results["ours"][-1]
        if p.get("pages") and o.get("pages"):
            print(
                f"round {rnd} ours/plain: span rate x{o['rate'] / p['rate']:.2f} "
                f"(MB/s x{o['mb_rate'] / p['mb_rate']:.2f}), first "
                f"{FIRST:.0f} s "
                f"x{o['first20'] / max(p['first20'], 1e-9):.2f}, steady "
                f"x{o['steady'] / p['steady']:.2f}, "
                f"start-to-exit x{o['wall'] / p['wall']:.2f}, requests "
                f"x{o['requests'] / p['requests']:.2f}",
                flush=True,
            )
    print()
    print("SUMMARY speed (medians over rounds; per-round values in brackets)")
    for side in ("plain", "ours"):
        ms = [m for m in results[side] if m.get("pages")]
        if not ms:
            print(f"  {side}: no pages")
            continue
        for key, label in (
            ("rate", "span pages/s"),
            ("mb_rate", "span MB/s of 2xx pages"),
            ("first20", f"first {FIRST:.0f} s pages/s"),
            ("steady", "steady pages/s"),
            ("wall", "start-to-exit s"),
            ("after_last", "exit after last response s"),
            ("requests", "requests"),
            ("pages", "pages"),
            ("cpu", "CPU s (process tree)"),
            ("cpu_ms", "CPU ms per 2xx page"),
            ("db_ms", "PostgreSQL CPU ms per 2xx page"),
        ):
            vals = [m[key] for m in ms]
            if None in vals:
                continue  # PostgreSQL's CPU: plain Scrapy has no database
            print(
                f"  {side:5s} {label:28s} {statistics.median(vals):8.1f}  "
                f"[{', '.join(f'{v:.1f}' for v in vals)}]"
            )
    pr, orr = results["plain"], results["ours"]
    pairs = [(p, o) for p, o in zip(pr, orr, strict=True) if p.get("pages") and o.get("pages")]
    if pairs:
        rr = [o["rate"] / p["rate"] for p, o in pairs]
        wr = [o["wall"] / p["wall"] for p, o in pairs]
        al = [o["after_last"] for p, o in pairs]
        print(
            f"  ours/plain span rate: median x{statistics.median(rr):.2f} "
            f"[{', '.join(f'x{v:.2f}' for v in rr)}]  target >= x1.00"
        )
        br = [o["mb_rate"] / p["mb_rate"] for p, o in pairs]
        print(
            f"  ours/plain span MB/s of 2xx pages: median x{statistics.median(br):.2f} "
            f"[{', '.join(f'x{v:.2f}' for v in br)}]  (no target: the work beside the pages)"
        )
        print(
            f"  ours/plain start-to-exit: median x{statistics.median(wr):.2f} "
            f"[{', '.join(f'x{v:.2f}' for v in wr)}]  target <= x1.20"
        )
        print(
            f"  ours: exit after the last response: max {max(al):.1f} s  target <= 5 s (close "
            "after the limit <= 5 s + the slowest in-flight response)"
        )
    print(f"  {harness.uptime()}")


if __name__ == "__main__":
    main()
