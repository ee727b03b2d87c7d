#!/usr/bin/env python3
"""Blind real-time evaluation of `scrapy crawl incremental` on a news site it has never seen.

    python3 bench/freshness_blind/run.py --project DIR --model dev --minutes 15 [--json OUT]

Inside a loopback-only network namespace: starts the news site (server.py, an HTTP proxy for
http://www.dailynews.test/), creates a fresh PostgreSQL database, runs a general crawl of the
whole site, checks it fetched every page, starts the site's clock, runs the incremental crawl
for --minutes at 1 request/s, stops the site, drops the database and prints the scores, the
baselines replayed on the same trace at the same request times, and the issue's targets.
See README.md beside this file.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import newssite  # noqa: E402
import score  # noqa: E402

PORT = 8931
PG_HOST = "/var/run/postgresql"
WARMUP_MINUTES = 5


def error(msg: str, code: int = 2) -> None:
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(code)


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description="Blind real-time freshness evaluation of the incremental crawler (issue 26).",
        epilog="Models: "
        + "; ".join(
            f"{m.name} ({m.role}, default seed {m.default_seed}): {m.description}"
            for m in newssite.MODELS.values()
        ),
    )
    ap.add_argument(
        "--project",
        default=str(HERE.parent.parent),
        help="crawler checkout with its .venv (default: this repo)",
    )
    ap.add_argument("--model", default="dev", help="change model: " + ", ".join(newssite.MODELS))
    ap.add_argument("--seed", type=int, default=None, help="trace seed (default: the model's own)")
    ap.add_argument(
        "--minutes", type=float, default=15.0, help="length of the incremental crawl (default 15)"
    )
    ap.add_argument(
        "--objective",
        default=None,
        help="freshness|age: passed as -s INCREMENTAL_OBJECTIVE= when given",
    )
    ap.add_argument("--json", default=None, help="write every number to this file")
    ap.add_argument(
        "--workdir",
        default=None,
        help="keep logs here (default: /tmp/freshness_blind/<model>-<seed>-<time>)",
    )
    ap.add_argument(
        "--rescore",
        default=None,
        metavar="WORKDIR",
        help="only score the logs of an earlier run (its workdir)",
    )
    ap.add_argument("--_inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rescore:
        return args
    if args.model not in newssite.MODELS:
        error(f"unknown --model {args.model!r}; choose one of {', '.join(newssite.MODELS)}")
    if args.objective not in (None, "freshness", "age"):
        error(f"--objective must be freshness or age, not {args.objective!r}")
    if not (1.0 <= args.minutes <= 240):
        error("--minutes must be between 1 and 240")
    project = Path(args.project).resolve()
    if not (project / ".venv" / "bin" / "scrapy").exists():
        error(f"{project}: no .venv/bin/scrapy (run scripts/setup.sh there first)")
    if not (project / "scrapy.cfg").exists():
        error(f"{project}: no scrapy.cfg, not a crawler checkout")
    args.project = str(project)
    if args.seed is None:
        args.seed = newssite.MODELS[args.model].default_seed
    if args.json:
        args.json = str(Path(args.json).resolve())
    return args


# -- outer: re-run inside a loopback-only network namespace ----------------------------------------
def outer(args: argparse.Namespace, argv: list[str]) -> int:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        error("unshare and ip are needed (util-linux, iproute2)")
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    workdir = Path(args.workdir or f"/tmp/freshness_blind/{args.model}-{args.seed}-{stamp}")
    workdir.mkdir(parents=True, exist_ok=True)
    inner_argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--_inner",
        "--workdir",
        str(workdir),
    ]
    inner_argv += ["--project", args.project, "--model", args.model, "--seed", str(args.seed)]
    inner_argv += ["--minutes", str(args.minutes)]
    if args.objective:
        inner_argv += ["--objective", args.objective]
    if args.json:
        inner_argv += ["--json", args.json]
    flag = "-n" if os.geteuid() == 0 else "-rn"
    cmd = ["unshare", flag, "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *inner_argv]
    proc = subprocess.Popen(cmd)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.send_signal(signal.SIGINT)
        return proc.wait()


# -- inner ---------------------------------------------------------------------------------
def psql(sql: str) -> None:
    r = subprocess.run(
        [
            "psql",
            "-h",
            PG_HOST,
            "-U",
            "postgres",
            "-d",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-qc",
            sql,
        ],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise RuntimeError(f"psql {sql!r}: {r.stderr.strip()}")


def control(path: str) -> dict:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"http://127.0.0.1:{PORT}/__control/{path}", timeout=10) as r:
        return json.loads(r.read())


def crawl_env(project: str, db_url: str) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k.lower() not in ("no_proxy", "http_proxy", "https_proxy")
    }
    proxy = f"http://127.0.0.1:{PORT}"
    env.update(http_proxy=proxy, https_proxy=proxy, HTTP_PROXY=proxy, HTTPS_PROXY=proxy)
    env["CRAWLER_DATABASE_URL"] = db_url
    env["PATH"] = f"{project}/.venv/bin:" + env.get("PATH", "")
    env.pop("VIRTUAL_ENV", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def run_crawl(
    cmd: list[str], cwd: str, env: dict, log_path: Path, timeout: float
) -> tuple[int, float]:
    start = time.time()
    with open(log_path, "w") as log:
        log.write("$ " + shlex.join(cmd) + "\n")
        log.flush()
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                rc = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                rc = proc.wait()
            rc = rc if rc else -999
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
    return rc, time.time() - start


def inner(args: argparse.Namespace) -> int:
    workdir = Path(args.workdir)
    model = newssite.MODELS[args.model]
    seconds = args.minutes * 60.0
    horizon = seconds + 600.0
    req_log, trace_path = workdir / "requests.jsonl", workdir / "trace.jsonl"
    general_log, incr_log = workdir / "general.log", workdir / "incremental.log"
    data_dir = workdir / "crawl-data"
    if data_dir.exists():
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    seeds = workdir / "seeds.txt"
    seeds.write_text(newssite.BASE + "/\n")
    server_out = open(workdir / "server.out", "w")
    server = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "server.py"),
            "--model",
            args.model,
            "--seed",
            str(args.seed),
            "--port",
            str(PORT),
            "--horizon",
            str(horizon),
            "--log",
            str(req_log),
            "--trace",
            str(trace_path),
        ],
        stdout=server_out,
        stderr=subprocess.STDOUT,
    )
    db = f"freshness_blind_{args.model}_{os.getpid()}_{int(time.time())}"
    db_created = False
    print(
        f"news site: model {args.model} ({model.role}), seed {args.seed}; logs in {workdir}",
        flush=True,
    )
    saved = {k: getattr(args, k) for k in ("project", "model", "seed", "minutes", "objective")}
    (workdir / "run.json").write_text(json.dumps(saved))
    try:
        for _ in range(100):
            try:
                control("ping")
                break
            except OSError:
                if server.poll() is not None:
                    error(f"the news site did not start: see {workdir / 'server.out'}", 1)
                time.sleep(0.1)
        psql(f'CREATE DATABASE "{db}"')
        db_created = True
        db_url = f"postgresql:///{db}?host={PG_HOST}&user=postgres"
        env = crawl_env(args.project, db_url)
        scrapy = f"{args.project}/.venv/bin/scrapy"
        crawl_id = f"news-{args.model}-{args.seed}"
        common = ["-s", f"CRAWLER_DATA_DIR={data_dir}"]
        general = [
            scrapy,
            "crawl",
            "general",
            "-a",
            f"seeds={seeds}",
            "-a",
            f"crawl_id={crawl_id}",
            "-s",
            "DOWNLOAD_DELAY=0",
            *common,
        ]
        print("general crawl of the whole site ...", flush=True)
        rc, took = run_crawl(general, args.project, env, general_log, timeout=1800)
        if rc != 0:
            error(f"the general crawl failed (exit status {rc}): see {general_log}", 1)
        log = score.load_log(req_log) if req_log.exists() else []
        fetched = {r["url"] for r in log if r["status"] == 200 and r["phase"] == "general"}
        site = newssite.Site(model, args.seed, horizon)
        missing = sorted(newssite.BASE + p for p in site.pages if newssite.BASE + p not in fetched)
        if missing:
            error(
                f"the general crawl fetched {len(site.pages) - len(missing)} of "
                f"{len(site.pages)} pages "
                f"(missing e.g. {', '.join(missing[:3])}): see {general_log} and {req_log}",
                1,
            )
        print(f"general crawl: all {len(site.pages)} pages fetched in {took:.0f} s", flush=True)
        incremental = [
            scrapy,
            "crawl",
            "incremental",
            "-a",
            f"crawl_id={crawl_id}",
            "-s",
            "DOWNLOAD_DELAY=1",
            "-s",
            "CONCURRENT_REQUESTS_PER_DOMAIN=1",
            "-s",
            "RANDOMIZE_DOWNLOAD_DELAY=False",
            "-s",
            f"CLOSESPIDER_TIMEOUT={int(seconds)}",
            *common,
        ]
        if args.objective:
            incremental += ["-s", f"INCREMENTAL_OBJECTIVE={args.objective}"]
        t0 = control("start")["t0"]
        while time.time() < t0:
            time.sleep(0.01)
        until = time.strftime("%H:%M:%S", time.localtime(t0 + seconds))
        print(f"incremental crawl for {args.minutes:g} min (until {until}) ...", flush=True)
        rc, took = run_crawl(incremental, args.project, env, incr_log, timeout=seconds + 180)
        if rc != 0:
            error(
                f"the incremental crawl failed (exit status {rc}) after {took:.0f} s: "
                f"see {incr_log}",
                1,
            )
        saved["incremental_seconds"] = took
        (workdir / "run.json").write_text(json.dumps(saved))
        control("stop")
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
        if db_created:
            try:
                psql(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
            except RuntimeError as exc:
                print(f"warning: {exc}", file=sys.stderr)
    report = evaluate(args, workdir, took)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
        print(f"numbers written to {args.json}")
    return 0


# -- scoring and report ---------------------------------------------------------------------------
def fmt_row(name: str, r: score.Result, extra: str = "") -> str:
    return (
        f"  {name:<34} freshness {r.freshness:.3f}   mean age {r.age:7.1f} s   "
        f"requests {r.requests:5d}{extra}"
    )


def crawler_errors(path: Path) -> int:
    try:
        with open(path, errors="replace") as f:
            return sum(1 for line in f if "] ERROR:" in line)
    except OSError:
        return 0


def evaluate(args: argparse.Namespace, workdir: Path, incr_took: float) -> dict:
    trace = score.load_trace(workdir / "trace.jsonl")
    log = score.load_log(workdir / "requests.jsonl")
    t0 = trace.t0
    seconds = args.minutes * 60.0
    t_end = t0 + seconds
    warm = round(min(WARMUP_MINUTES, args.minutes / 3), 2)
    window = (t0 + warm * 60, t_end)
    n_min = int(args.minutes)
    minutes = [(t0 + 60 * k, t0 + 60 * (k + 1)) for k in range(n_min)]
    copies, counts, st = score.project_copies(trace, log, t_end)
    times = sorted(st["request_times"])
    project = score.evaluate("project", trace, copies, window, minutes, counts, len(times))

    general = [
        r for r in log if r["phase"] == "general" and r["status"] == 200 and r["url"] in trace.pages
    ]
    order, seen = [], set()
    for r in general:
        if r["url"] not in seen:
            seen.add(r["url"])
            order.append(r["url"])
    order += sorted(u for u in trace.pages if u not in seen)
    rates = {u: p.rate for u, p in trace.pages.items()}
    n_pages = len(trace.pages)
    results = {"project": project}

    def baseline(name: str, chooser, req_times: list[float]) -> score.Result:
        c, k = score.replay(trace, req_times, chooser)
        return score.evaluate(name, trace, c, window, minutes, k, len(req_times))

    budget = len(times) / seconds
    results["uniform"] = baseline("uniform", score.uniform_chooser(order), times)
    f_opt = score.optimal_frequencies(rates, budget, "freshness")
    results["optimal_freshness"] = baseline(
        "optimal_freshness", score.periodic_chooser(f_opt, t0, args.seed), times
    )
    a_opt = score.optimal_frequencies(rates, budget, "age")
    results["optimal_age"] = baseline(
        "optimal_age", score.periodic_chooser(a_opt, t0, args.seed), times
    )
    full = [t0 + 1.0 + i for i in range(int(seconds))]
    results["uniform_1rps"] = baseline("uniform_1rps", score.uniform_chooser(order), full)
    f_opt1 = score.optimal_frequencies(rates, 1.0, "freshness")
    results["optimal_1rps"] = baseline(
        "optimal_1rps", score.periodic_chooser(f_opt1, t0, args.seed), full
    )

    proj, unif = results["project"], results["uniform"]
    opt, opt_age = results["optimal_freshness"], results["optimal_age"]
    gap = opt.freshness - unif.freshness
    share = (proj.freshness - unif.freshness) / gap if gap > 0 else float("nan")
    first_min = int(warm)
    per_min_ok = [
        proj.per_minute_freshness[k] >= unif.per_minute_freshness[k]
        for k in range(first_min, n_min)
    ]
    age_gap = unif.age - opt_age.age
    age_share = (unif.age - proj.age) / age_gap if age_gap > 0 else float("nan")
    in_window = [t for t in times if window[0] <= t <= window[1]]
    rps_run = len(times) / seconds
    rps_window = len(in_window) / (window[1] - window[0])
    page_req = st["page_requests"]
    share304 = st["page_304"] / page_req if page_req else 0.0
    classes = {c: sum(1 for p in trace.pages.values() if p.cls == c) for c in score.RATE_CLASSES}
    changes_in_window = sum(
        1 for p in trace.pages.values() for c in p.changes if window[0] <= c <= window[1]
    )
    target_fresh = proj.freshness >= unif.freshness + 0.5 * gap
    target_every_min = all(per_min_ok)
    target_age = proj.age < unif.age

    model = newssite.MODELS[args.model]
    objective = args.objective or "(crawler default)"
    out = []
    w = out.append
    w("")
    w("=" * 100)
    w(f"freshness_blind: incremental crawler on www.dailynews.test   project {args.project}")
    w(f"model {args.model} [{model.role}] seed {args.seed}: {model.description}")
    w(
        f"pages {n_pages} (fast <60 s: {classes['fast']}, medium 60-900 s: {classes['medium']}, "
        f"slow >900 s: {classes['slow']}, never: {classes['never']}); "
        f"{changes_in_window} changes in the scored window"
    )
    w(
        f"incremental run {args.minutes:g} min (process took {incr_took:.0f} s); "
        f"scored window: minutes {warm:g}-{args.minutes:g}; objective {objective}"
    )
    w(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    w("-" * 100)
    w(
        f"requests sent: {len(times)} in {seconds:.0f} s = {rps_run:.3f}/s (allowed 1/s); "
        f"in the scored window {rps_window:.3f}/s"
    )
    w(
        f"  pages {page_req} (200: {st['page_200']}, 304: {st['page_304']}; "
        f"304 share {share304:.3f}; conditional {st['conditional']}), "
        f"feed {st['feed_requests']}, sitemap {st['sitemap_requests']}, "
        f"robots.txt {st['robots_requests']}, other {st['other_requests']}"
    )
    w(f"  304s that hid a change: {st['hidden_by_304']}")
    w("-" * 100)
    w(f"minutes {warm:g}-{args.minutes:g}, same requests at the same times as the project:")
    w(fmt_row("PROJECT", proj))
    w(fmt_row("uniform round robin", unif))
    w(fmt_row("optimal (true rates, freshness)", opt))
    w(fmt_row("optimal (true rates, age)", opt_age))
    w("budget actually allowed (1 request/s from the clock start):")
    w(fmt_row("uniform at 1/s", results["uniform_1rps"]))
    w(fmt_row("optimal at 1/s (freshness)", results["optimal_1rps"]))
    ratio = proj.freshness / opt.freshness if opt.freshness > 0 else float("nan")
    w(
        f"share of the uniform-to-optimal freshness gap achieved: {share:+.3f}   (gap {gap:.3f}; "
        f"project / optimal {ratio:.3f})"
    )
    w(
        f"share of the uniform-to-optimal age gap achieved:       {age_share:+.3f}   "
        f"(uniform {unif.age:.1f} s, optimal-age {opt_age.age:.1f} s)"
    )
    w("-" * 100)
    w("per minute, freshness project / uniform / optimal (* = project below uniform, scored)")
    w("            and mean age project / uniform / optimal-age:")
    pf, uf, of = proj.per_minute_freshness, unif.per_minute_freshness, opt.per_minute_freshness
    pa, ua, oa = proj.per_minute_age, unif.per_minute_age, opt_age.per_minute_age
    for k in range(n_min):
        mark = "*" if k >= first_min and pf[k] < uf[k] else " "
        w(
            f"  min {k:2d}-{k + 1:<3d} {pf[k]:.3f} / {uf[k]:.3f} / {of[k]:.3f} {mark}   "
            f"age {pa[k]:7.1f} / {ua[k]:7.1f} / {oa[k]:7.1f} s"
        )
    w(f"by rate class (minutes {warm:g}-{args.minutes:g}):")
    w(
        f"  {'class':<8}{'pages':>6}   {'freshness P / U / O':<24}"
        f"{'mean age s P / U / O-age':<30}fetches/page P / U / O (whole run)"
    )
    for c in score.RATE_CLASSES:
        if not classes[c]:
            continue
        fr = [r.by_class_freshness[c] for r in (proj, unif, opt)]
        ag = [r.by_class_age[c] for r in (proj, unif, opt_age)]
        fe = [r.fetches_per_page[c] for r in (proj, unif, opt)]
        w(
            f"  {c:<8}{classes[c]:>6}   {fr[0]:.3f} / {fr[1]:.3f} / {fr[2]:.3f}"
            f"     {ag[0]:7.1f} / {ag[1]:7.1f} / {ag[2]:7.1f}"
            f"      {fe[0]:5.2f} / {fe[1]:5.2f} / {fe[2]:5.2f}"
        )
    w("-" * 100)
    w("targets (issue 26):")
    w(
        f"  freshness >= uniform + half the gap ({unif.freshness + 0.5 * gap:.3f}): "
        f"{proj.freshness:.3f}  {'MET' if target_fresh else 'NOT MET'}"
    )
    bad = [k for k, ok in zip(range(first_min, n_min), per_min_ok, strict=True) if not ok]
    verdict = "MET" if target_every_min else f"NOT MET (minutes {', '.join(map(str, bad))})"
    w(f"  freshness >= uniform at every minute from {first_min}: {verdict}")
    w(
        f"  mean age below uniform's ({unif.age:.1f} s): {proj.age:.1f} s  "
        f"{'MET' if target_age else 'NOT MET'}"
        + ("" if args.objective == "age" else "   (a target only with --objective age)")
    )
    incr_log = workdir / "incremental.log"
    errors = crawler_errors(incr_log)
    if errors:
        w(f"  note: the incremental crawl logged {errors} ERROR line(s): see {incr_log}")
    if incr_took < seconds - 30:
        w(
            f"  warning: the incremental crawl stopped after {incr_took:.0f} s, "
            f"before the {seconds:.0f} s asked"
        )
    w("=" * 100)
    print("\n".join(out), flush=True)
    return {
        "project": args.project,
        "model": args.model,
        "role": model.role,
        "seed": args.seed,
        "minutes": args.minutes,
        "objective": args.objective,
        "window_minutes": [warm, args.minutes],
        "load_average": os.getloadavg(),
        "pages": n_pages,
        "pages_by_class": classes,
        "requests_per_second": rps_run,
        "requests_per_second_window": rps_window,
        "share_304": share304,
        "log_stats": {k: v for k, v in st.items() if k != "request_times"},
        "gap_share_freshness": share,
        "gap_share_age": age_share,
        "project_over_optimal_freshness": proj.freshness / opt.freshness if opt.freshness else None,
        "targets": {
            "freshness_half_gap": target_fresh,
            "freshness_every_minute": target_every_min,
            "age_below_uniform": target_age,
        },
        "results": {k: v.as_dict() for k, v in results.items()},
        "workdir": str(workdir),
    }


def rescore(args: argparse.Namespace) -> int:
    workdir = Path(args.rescore)
    try:
        saved = json.loads((workdir / "run.json").read_text())
    except (OSError, ValueError) as exc:
        error(f"{workdir}: not the workdir of a finished run ({exc})")
    if "incremental_seconds" not in saved:
        error(f"{workdir}: the run did not finish its incremental crawl")
    for k in ("project", "model", "seed", "minutes", "objective"):
        setattr(args, k, saved[k])
    report = evaluate(args, workdir, saved["incremental_seconds"])
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
        print(f"numbers written to {args.json}")
    return 0


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.rescore:
        return rescore(args)
    if args._inner:
        return inner(args)
    return outer(args, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
