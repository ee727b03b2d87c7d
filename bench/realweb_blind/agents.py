"""Issue 32: speed-up of the distributed crawl (agents) on a skewed web.

    python3 bench/realweb_blind/agents.py --project DIR [--agents 1,3,4] [--seconds 120]

Blind evaluation web ``skewed`` (webs.py): 400 synthetic hosts whose sizes follow a Zipf law
(6000/rank pages: the 10 largest hosts hold 45 % of the 39,234 pages, half the hosts have 15
pages or fewer), text from Debian's nodejs/bash/sqlite documentation, pages 5-150 KB (median
15 KB), links between hosts weighted by host size, 20 dead hosts; every response delayed by
``--latency`` seconds. For each K in --agents: a fresh server listening on K ports (agent k's
proxy is port k, so the server's log tells the agents apart), one fresh PostgreSQL database,
K processes started together, each with its own CRAWLER_DATA_DIR, cwd=DIR:

    DIR/.venv/bin/scrapy crawl general -a seeds=FILE -a crawl_id=ID -s AGENTS_ENABLED=1 \\
        -s CONCURRENT_REQUESTS=4 -s CLOSESPIDER_TIMEOUT=S

(the project's defaults otherwise: robots.txt, per-host limit and delay), inside a
loopback-only network namespace. Rates count 2xx pages (robots.txt excluded) whose response
ended between the first request and S seconds after the start.

Targets (issue 32): >= 2.4x with 3 agents and >= 3.2x with 4 (over 1 agent at the same
per-agent concurrency); no page fetched twice; no host fetched by two agents at once.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import webs  # noqa: E402

IDLE = 5.0  # seconds without a request that count as an idle period
FINISH = re.compile(r"'finish_reason':\s*'([^']*)'")


def overlapping_hosts(reqs: list[harness.Request]) -> int:
    """Hosts with requests of two different agents in flight at the same moment."""
    by_host: dict[str, list[harness.Request]] = {}
    for r in reqs:
        by_host.setdefault(r.host, []).append(r)
    bad = 0
    for rs in by_host.values():
        rs.sort(key=lambda r: r.start)
        open_until: dict[int, float] = {}
        hit = False
        for r in rs:
            for via, until in open_until.items():
                if via != r.via and until > r.start:
                    hit = True
                    break
            if hit:
                break
            open_until[r.via] = max(open_until.get(r.via, 0.0), r.end)
        bad += hit
    return bad


def run_config(
    k: int, args: argparse.Namespace, project: Path, web: webs.Web, work: Path, seeds: Path
) -> dict:
    rdir = work / f"agents{k}"
    rdir.mkdir(parents=True, exist_ok=True)
    server = harness.start_server(
        "skewed",
        rdir / "requests.tsv",
        seed=args.seed,
        latency=args.latency,
        ports=k,
        skew=args.skew,
    )
    db = harness.Database("blindagents")
    crawl_id = f"blind-agents{k}-{uuid.uuid4().hex[:6]}"
    procs: list[subprocess.Popen] = []
    logs = []
    exits: list[float | None] = [None] * k
    load = harness.uptime()
    try:
        t_launch = time.time()
        for a in range(k):
            env = harness.proxy_env(server, {"CRAWLER_DATABASE_URL": db.url}, via=a)
            cmd = [
                str(project / ".venv/bin/scrapy"),
                "crawl",
                "general",
                "-a",
                f"seeds={seeds}",
                "-a",
                f"crawl_id={crawl_id}",
                "-s",
                "AGENTS_ENABLED=1",
                "-s",
                f"CONCURRENT_REQUESTS={args.concurrency}",
                "-s",
                f"CLOSESPIDER_TIMEOUT={args.seconds}",
                "-s",
                f"CRAWLER_DATA_DIR={rdir / f'data{a}'}",
            ]
            for extra in args.set:
                cmd += ["-s", extra]
            fh = (rdir / f"agent{a}.log").open("w")
            logs.append(fh)
            procs.append(
                subprocess.Popen(
                    cmd,
                    cwd=project,
                    env=env,
                    stdout=fh,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        deadline = t_launch + args.seconds + args.grace
        while time.time() < deadline and any(e is None for e in exits):
            for a, p in enumerate(procs):
                if exits[a] is None and p.poll() is not None:
                    exits[a] = time.time() - t_launch
            time.sleep(0.2)
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGINT)
        t_kill = time.time() + 30
        while time.time() < t_kill and any(p.poll() is None for p in procs):
            time.sleep(0.2)
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        for fh in logs:
            fh.close()
        server.stop()
        db.drop()
    reqs = harness.read_log(rdir / "requests.tsv")
    t_stop = t_launch + args.seconds
    first = reqs[0].start if reqs else t_launch
    pages = [r for r in reqs if 200 <= r.status < 300 and r.path != "/robots.txt"]
    in_window = [r for r in pages if r.end <= t_stop]
    rate = len(in_window) / max(1e-9, t_stop - first)
    seen: dict[tuple[str, str], int] = {}
    for r in pages:
        seen[(r.host, r.path)] = seen.get((r.host, r.path), 0) + 1
    twice = sum(1 for n in seen.values() if n > 1)
    per_agent = []
    for a in range(k):
        ra = [r for r in reqs if r.via == a]
        pa = [r for r in in_window if r.via == a]
        starts = [r.start for r in ra if r.start <= t_stop]
        idle, longest, periods = 0.0, 0.0, 0
        prev = starts[0] if starts else t_launch  # idle counted from the agent's first request
        for s in starts[1:] + [t_stop]:
            g = s - prev
            if g > IDLE:
                idle += g
                periods += 1
                longest = max(longest, g)
            prev = s
        text = (rdir / f"agent{a}.log").read_text(errors="replace")
        m = FINISH.search(text)
        per_agent.append(
            {
                "pages": len(pa),
                "requests": len(ra),
                "hosts": len({r.host for r in ra}),
                "first": (starts[0] - t_launch) if starts else None,
                "idle": idle,
                "idle_periods": periods,
                "longest_idle": longest,
                "exit": exits[a],
                "finish": m.group(1) if m else "?",
                "errors": sum(
                    1 for ln in text.splitlines() if " ERROR: " in ln or ln.startswith("error:")
                ),
            }
        )
    return {
        "k": k,
        "rate": rate,
        "pages": len(in_window),
        "pages_total": len(pages),
        "requests": len(reqs),
        "startup": first - t_launch,
        "twice": twice,
        "overlap": overlapping_hosts(reqs),
        "agents": per_agent,
        "load": load,
        "server_cpu": server.cpu(),
        "dir": rdir,
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--project", required=True, help="project folder with .venv (e.g. /work/main)")
    ap.add_argument(
        "--agents", default="1,3,4", help="agent counts to run, comma-separated (default 1,3,4)"
    )
    ap.add_argument(
        "--seconds", type=int, default=120, help="CLOSESPIDER_TIMEOUT of every agent (default 120)"
    )
    ap.add_argument(
        "--latency", type=float, default=0.2, help="seconds added to every response (default 0.2)"
    )
    ap.add_argument(
        "--concurrency", type=int, default=4, help="CONCURRENT_REQUESTS per agent (default 4)"
    )
    ap.add_argument(
        "--skew",
        type=float,
        default=1.0,
        help="Zipf exponent of host sizes: 6000/rank**skew pages (default 1.0)",
    )
    ap.add_argument("--seed", type=int, default=32, help="the web's seed (default 32)")
    ap.add_argument(
        "--grace",
        type=int,
        default=180,
        help="seconds to wait for exit after --seconds, then SIGINT, then SIGKILL",
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra -s setting for every agent",
    )
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    project = harness.check_project(args.project)
    try:
        counts = [int(x) for x in args.agents.split(",") if x.strip()]
    except ValueError:
        raise SystemExit(
            f"error: --agents must be a comma-separated list of counts, not {args.agents!r}"
        ) from None
    if not counts or min(counts) < 1 or max(counts) > 8 or args.seconds < 10:
        raise SystemExit("error: --agents counts must be 1-8 and --seconds >= 10")
    web = webs.build("skewed", args.seed, latency=args.latency, skew=args.skew)
    harness.enter_netns()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="realweb_blind-agents-"))
    work.mkdir(parents=True, exist_ok=True)
    seeds = work / "seeds.txt"
    seeds.write_text("\n".join(web.seeds) + "\n")
    print(
        f"agents (blind web skewed): {web.describe()}; largest hosts "
        f"{sorted((s.n_pages for s in web.synth.values()), reverse=True)[:5]} pages"
    )
    print(
        f"per agent: {project}/.venv/bin/scrapy crawl general -a seeds=FILE -a crawl_id=ID -s "
        "AGENTS_ENABLED=1 "
        f"-s CONCURRENT_REQUESTS={args.concurrency} -s CLOSESPIDER_TIMEOUT={args.seconds} -s "
        "CRAWLER_DATA_DIR=<own>"
        f"{''.join(' -s ' + s for s in args.set)}; one fresh database per configuration; agents "
        "told apart by "
        f"their proxy port. Logs in {work}"
    )
    results = {}
    for k in counts:
        res = run_config(k, args, project, web, work, seeds)
        results[k] = res
        print(
            f"{k} agent(s): {res['rate']:.2f} pages/s ({res['pages']} pages in the "
            f"{args.seconds}-s window, first "
            f"request {res['startup']:.1f} s after launch; {res['pages_total']} pages and "
            f"{res['requests']} requests in all); "
            f"pages fetched twice {res['twice']}; hosts fetched by two agents at once "
            f"{res['overlap']}; "
            f"server CPU {res['server_cpu']} | {res['load']}",
            flush=True,
        )
        for a, pa in enumerate(res["agents"]):
            first = f"{pa['first']:.1f}" if pa["first"] is not None else "-"
            ex = (
                f"exit at {pa['exit']:.1f} s"
                if pa["exit"] is not None
                else f"no exit within {args.seconds + args.grace} s (then SIGINT, SIGKILL)"
            )
            print(
                f"    agent {a}: {pa['pages']} pages, {pa['requests']} requests, {pa['hosts']} "
                "hosts, first request "
                f"{first} s, idle (no request for > {IDLE:.0f} s) {pa['idle']:.1f} s in "
                f"{pa['idle_periods']} period(s), "
                f"longest {pa['longest_idle']:.1f} s; {ex}; finish {pa['finish']}; error "
                f"lines {pa['errors']}"
            )
    print()
    print(
        f"SUMMARY agents (latency {args.latency} s, {args.concurrency} requests per agent, "
        f"{args.seconds} s)"
    )
    base = results.get(1)
    for k, res in results.items():
        sp = (
            f", speed-up x{res['rate'] / base['rate']:.2f} over 1 agent"
            if base and base["rate"] > 0 and k != 1
            else ""
        )
        target = {3: " (target >= x2.4)", 4: " (target >= x3.2)"}.get(k, "")
        print(
            f"  {k} agent(s): {res['rate']:.2f} pages/s{sp}{target}; per agent "
            f"{[pa['pages'] for pa in res['agents']]} pages; idle s "
            f"{[round(pa['idle'], 1) for pa in res['agents']]}; "
            f"fetched twice {res['twice']} (target 0); hosts shared at once {res['overlap']} "
            "(target 0)"
        )
    print(f"  {harness.uptime()}")


if __name__ == "__main__":
    main()
