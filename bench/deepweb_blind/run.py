#!/usr/bin/env python3
"""Blind deep-web evaluation of `scrapy crawl smart` (issue 27), against the general crawl.

    python3 bench/deepweb_blind/run.py --project DIR --web dev        # development web (books)
    python3 bench/deepweb_blind/run.py --project DIR --web heldout1   # held out (movies)
    python3 bench/deepweb_blind/run.py --project DIR --web heldout2   # held out (jobs)
    python3 bench/deepweb_blind/run.py --project DIR --web heldout31  # held out (lyrics; every web: README.md)

Inside a loopback-only network namespace, with http_proxy and https_proxy pointing at this
harness's own server of the generated web, with a fresh PostgreSQL database per crawl (unix
socket) and a fresh CRAWLER_DATA_DIR, from DIR, it runs what a user runs:

    DIR/.venv/bin/scrapy crawl smart -a topic=TOPIC -a seeds=FILE -s CLOSESPIDER_PAGECOUNT=N -o forms.jsonl
    DIR/.venv/bin/scrapy crawl general -a seeds=FILE -s CLOSESPIDER_PAGECOUNT=N

and scores the smart crawl's -o output and both crawls' requests (from the server's log)
against the generator's ground truth. Needs only the Python standard library.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from webgen import WEBS, Web  # noqa: E402

TARGETS = {"found": 4, "of": 5, "precision": 0.8, "yield_ratio": 3.0}
PSQL = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "/var/run/postgresql", "-U", "postgres", "-d", "postgres"]


def fail(msg: str) -> None:
    print(f"error: {msg}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------- outer
def outer(args: argparse.Namespace) -> None:
    project = Path(args.project).resolve()
    scrapy = project / ".venv/bin/scrapy"
    if not scrapy.exists():
        fail(f"{scrapy} not found (run scripts/setup.sh in the project first)")
    if args.web not in WEBS:
        fail(f"unknown web {args.web!r}; choose from {', '.join(WEBS)}")
    work = Path(tempfile.mkdtemp(prefix=f"deepweb-blind-{args.web}-"))
    stamp = f"{os.getpid()}_{int(time.time())}"
    dbs = {f"smart{k}": f"deepweb_blind_smart{k}_{stamp}" for k in range(1, args.repeat + 1)}
    dbs["general"] = f"deepweb_blind_general_{stamp}"
    for db in dbs.values():
        r = subprocess.run(PSQL + ["-c", f'CREATE DATABASE "{db}"'], capture_output=True, text=True)
        if r.returncode:
            fail(f"cannot create database {db}: {r.stderr.strip()}")
    inner_cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--inner",
        "--work",
        str(work),
        "--project",
        str(project),
        "--web",
        args.web,
        "--pages",
        str(args.pages),
        "--db-smart",
        ",".join(v for k, v in dbs.items() if k != "general"),
        "--repeat",
        str(args.repeat),
        "--db-general",
        dbs["general"],
        "--timeout",
        str(args.timeout),
    ]
    if args.topic:
        inner_cmd += ["--topic", args.topic]
    if args.json:
        inner_cmd += ["--json", str(Path(args.json).resolve())]
    if args.no_general:
        inner_cmd.append("--no-general")
    for extra in args.smart_arg or []:
        inner_cmd += ["--smart-arg", extra]
    unshare = ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]
    try:
        r = subprocess.run(unshare + ["sh", "-c", 'ip link set lo up && exec "$@"', "sh"] + inner_cmd)
        status = r.returncode
    finally:
        for db in dbs.values():
            subprocess.run(PSQL + ["-c", f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'], capture_output=True)
        if args.keep:
            print(f"kept: {work} (logs, outputs, request log)")
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(status)


# ---------------------------------------------------------------------------- inner
def run_crawl(args, name: str, cmd: list[str], db: str, log, proxy: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "http_proxy", "https_proxy")}
    env.update(
        {
            "http_proxy": proxy,
            "https_proxy": proxy,
            "HTTP_PROXY": proxy,
            "HTTPS_PROXY": proxy,
            "CRAWLER_DATABASE_URL": f"postgresql:///{db}?host=/var/run/postgresql&user=postgres",
            "PYTHONUNBUFFERED": "1",
        }
    )
    data_dir = Path(args.work) / f"data-{name}"
    cmd = cmd + ["-s", f"CRAWLER_DATA_DIR={data_dir}"]
    log.phase = name
    start = time.time()
    with open(Path(args.work) / f"{name}.stdout", "w") as out, open(Path(args.work) / f"{name}.log", "w") as err:
        try:
            proc = subprocess.run(["nice", "-n", "5"] + cmd, cwd=args.project, env=env, stdout=out, stderr=err, timeout=args.timeout)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    log.phase = "idle"
    elapsed = time.time() - start
    text = (Path(args.work) / f"{name}.log").read_text(errors="replace")
    finish = None
    for line in text.splitlines():
        if "'finish_reason':" in line:
            finish = line.split("'finish_reason':", 1)[1].strip().strip(",").strip("'\"")
    errors = [line for line in text.splitlines() if line.startswith("error:") or "Traceback" in line]
    return {
        "command": " ".join(cmd),
        "exit_status": rc,
        "seconds": round(elapsed, 1),
        "finish_reason": finish,
        "error_lines": errors[:5],
        "log": str(Path(args.work) / f"{name}.log"),
    }


def norm(url: str, base: str | None = None) -> str:
    if base:
        url = urllib.parse.urljoin(base, url)
    p = urllib.parse.urlsplit(url)
    host = (p.hostname or "").lower()
    port = f":{p.port}" if p.port and p.port != 80 else ""
    return f"{p.scheme or 'http'}://{host}{port}{p.path or '/'}"


def pick(d: dict, *names: str):
    for n in names:
        if n in d and d[n] not in (None, ""):
            return d[n]
    return None


def parse_output(path: Path) -> tuple[list[dict], list[str]]:
    """-o forms.jsonl rows -> [{page, action, method, confirmed, raw}] (tolerant of the field names)."""
    rows, problems = [], []
    if not path.exists():
        return rows, [f"no output file {path.name}"]
    for i, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            problems.append(f"line {i}: not JSON")
            continue
        form = item.get("form") if isinstance(item.get("form"), dict) else item
        if not isinstance(form, dict) or not any(
            k in form for k in ("action_url", "action", "form_action", "action_absolute", "fields", "form_index", "searchable")
        ):
            problems.append(
                f"line {i}: not a form row, ignored (keys {sorted(item)[:8] if isinstance(item, dict) else type(item).__name__})"
            )
            continue
        page = pick(form, "page_url", "url", "page", "source_url", "found_on") or pick(item, "page_url", "url", "page")
        action = pick(form, "action_url", "action", "form_action", "action_absolute")
        method = pick(form, "method", "form_method")
        confirmed = (
            pick(form, "confirmed", "probe_confirmed", "verified")
            if any(k in form for k in ("confirmed", "probe_confirmed", "verified"))
            else None
        )
        if confirmed is None and "probe" in form and isinstance(form["probe"], dict):
            confirmed = form["probe"].get("confirmed")
        if confirmed is None and isinstance(pick(form, "probe_status", "status"), str):
            confirmed = pick(form, "probe_status", "status") == "confirmed"
        if page is None and action is None:
            problems.append(f"line {i}: no page or action URL in {sorted(item)[:8]}")
            continue
        if action is None:
            action = page  # a form without action submits to its page
        if form.get("relevant") is False or form.get("searchable") is False:
            # the output says itself that this form is not a relevant searchable form
            problems.append(f"line {i}: marked relevant={form.get('relevant')} searchable={form.get('searchable')}, not counted")
            continue
        rows.append(
            {"page": page, "action": norm(str(action), page), "method": (method or "").lower() or None, "confirmed": confirmed, "raw": item}
        )
    return rows, problems


def match(row: dict, truth_by_action: dict) -> dict | None:
    """The ground-truth form with the row's action (and method), if the row's page carries it.

    A row whose page is neither a page of that form nor a page of its action (a results page
    repeating the form) does not match: an action URL guessed without its form is not a find.
    """
    cands = truth_by_action.get(row["action"], [])
    page = norm(str(row["page"])) if row["page"] else None
    cands = [c for c in cands if page is None or page == norm(c["action"]) or page in c["norm_pages"]]
    if not cands:
        return None
    if row["method"]:
        same = [c for c in cands if c["method"] == row["method"]]
        if same:
            return same[0]
    return cands[0]


def score(args, web: Web, log, smart: dict, general: dict | None, phase: str = "smart", output: str = "forms.jsonl") -> dict:
    topic = args.topic
    gt = web.ground_truth()
    forms = gt["forms"]
    topic_forms = [f for f in forms if f["kind"] == "search" and f["topic"] == topic]
    truth_by_action: dict = {}
    for f in forms:
        f["norm_pages"] = {norm(p) for p in f["pages"]}
        truth_by_action.setdefault(norm(f["action"]), []).append(f)
    actions = {(urllib.parse.urlsplit(f["action"]).netloc, urllib.parse.urlsplit(f["action"]).path): f for f in forms}
    page_to_topic_forms: dict = {}
    for f in topic_forms:
        for p in f["pages"]:
            page_to_topic_forms.setdefault(norm(p), []).append(f["action"])

    def phase_stats(phase: str) -> dict:
        entries = [e for e in log.entries if e["phase"] == phase]
        requests = len(entries)
        robots = sum(1 for e in entries if e["path"] == "/robots.txt")
        first_seen: dict = {}
        probes = {"topic_search": 0, "other_search": 0, "not_search": 0, "robots_disallowed": 0, "with_results": 0}
        probed_forms: set = set()
        for i, e in enumerate(entries, 1):
            url = norm(f"http://{e['host']}{e['path']}")
            if e["method"] == "GET" and not e["query"]:
                for a in page_to_topic_forms.get(url, []):
                    first_seen.setdefault(a, i)
            f = actions.get((e["host"], e["path"]))
            is_submission = f is not None and (e["method"] == "POST" or (e["method"] == "GET" and e["query"]))
            # a GET of a search page's own URL with its search parameters is a submission too
            if is_submission:
                if f["kind"] == "search" and f["topic"] == topic:
                    probes["topic_search"] += 1
                    probes["with_results"] += bool(e.get("results"))
                elif f["kind"] == "search":
                    probes["other_search"] += 1
                else:
                    probes["not_search"] += 1
                if f["action_disallowed_by_robots"]:
                    probes["robots_disallowed"] += 1
                probed_forms.add(f["action"])
        hosts = {e["host"] for e in entries if e["method"] != "CONNECT"}
        per_host: dict = {}
        for e in entries:
            if e["path"] != "/robots.txt":
                per_host[e["host"]] = per_host.get(e["host"], 0) + 1
        topic_hosts = {h for h, s in gt["sites"].items() if s["topic"] == topic and s["kind"] == "topic"}
        return {
            "requests": requests,
            "robots_txt": robots,
            "pages": requests - robots,
            "first_seen": first_seen,
            "probes": probes,
            "probed_forms": probed_forms,
            "hosts": len(hosts),
            "per_host": per_host,
            "topic_sites_visited": len(hosts & topic_hosts),
            "topic_sites": len(topic_hosts),
            "statuses": {str(s): sum(1 for e in entries if e["status"] == s) for s in sorted({e["status"] for e in entries})},
            "seconds_span": round(entries[-1]["t"] - entries[0]["t"], 1) if entries else 0.0,
        }

    s = phase_stats(phase)
    rows, problems = parse_output(Path(args.work) / output)
    found: dict = {}
    distinct: dict = {}
    for r in rows:
        m = match(r, truth_by_action)
        key = (r["action"], r["method"] or (m["method"] if m else None))
        distinct.setdefault(key, {"truth": m, "confirmed": False, "page": r["page"]})
        if r["confirmed"]:
            distinct[key]["confirmed"] = True
        if m and m["kind"] == "search" and m["topic"] == topic:
            found.setdefault(m["action"], r)
    correct_distinct = [k for k, v in distinct.items() if v["truth"] and v["truth"]["kind"] == "search" and v["truth"]["topic"] == topic]
    wrong = []
    for k, v in distinct.items():
        t = v["truth"]
        if not (t and t["kind"] == "search" and t["topic"] == topic):
            wrong.append(
                f"{k[0]} ({t['kind'] + ' form, ' + ('topic ' + t['topic'] if t['topic'] != 'none' else 'no topic') if t else 'no form of this web has this action on this page'})"
            )
    below = [f for f in topic_forms if (f["depth"] or 0) >= 1]
    res = {
        "web": args.web,
        "heldout": gt["heldout"],
        "seed": gt["seed"],
        "topic": topic,
        "pages_limit": args.pages,
        "web_size": {
            "sites": len(gt["sites"]),
            "static_pages": gt["static_pages"],
            "forms": len(forms),
            "topic_search_forms": len(topic_forms),
            "topic_search_forms_below_home": len(below),
            "searchable_forms_other": sum(1 for f in forms if f["kind"] == "search" and f["topic"] != topic),
        },
        "smart": {
            **{k: smart[k] for k in ("exit_status", "seconds", "finish_reason", "error_lines")},
            "requests": s["requests"],
            "robots_txt_requests": s["robots_txt"],
            "hosts": s["hosts"],
            "topic_sites_visited": f"{s['topic_sites_visited']}/{s['topic_sites']}",
            "stopped_before_limit": s["requests"] < args.pages,
            "statuses": s["statuses"],
            "output_rows": len(rows),
            "output_problems": problems[:5],
            "output_rows_not_counted": len(problems),
            "output_distinct_forms": len(distinct),
            "found": len(found),
            "found_of": len(topic_forms),
            "found_within_limit": sum(1 for a in found if s["first_seen"].get(a, 10**9) <= args.pages),
            "found_below_home": sum(1 for f in below if f["action"] in found),
            "below_home_of": len(below),
            "precision": round(len(correct_distinct) / len(distinct), 3) if distinct else None,
            "precision_rows": round(
                sum(1 for r in rows if (m := match(r, truth_by_action)) and m["kind"] == "search" and m["topic"] == topic) / len(rows), 3
            )
            if rows
            else None,
            "false_positives": wrong[:12],
            "topic_form_pages_fetched": len(s["first_seen"]),
            "topic_form_pages_fetched_at_request": sorted(s["first_seen"].values()),
            "probes": s["probes"],
            "forms_probed": len(s["probed_forms"]),
            "output_marked_confirmed": sum(1 for v in distinct.values() if v["confirmed"]),
            "output_confirmed_topic_forms": sum(1 for k in correct_distinct if distinct[k]["confirmed"]),
            "confirmation_field_present": any(r["confirmed"] is not None for r in rows),
            "per_form": [
                {
                    "action": f["action"],
                    "method": f["method"],
                    "depth": f["depth"],
                    "action_disallowed_by_robots": f["action_disallowed_by_robots"],
                    "page_fetched_at_request": s["first_seen"].get(f["action"]),
                    "site_requests": s["per_host"].get(f["host"], 0),
                    "in_output": f["action"] in found,
                    "probed": f["action"] in s["probed_forms"],
                }
                for f in topic_forms
            ],
        },
    }
    res["smart"]["yield_per_1000"] = round(1000 * len(found) / s["requests"], 2) if s["requests"] else 0.0
    if general is not None:
        g = phase_stats("general")
        res["general"] = {
            **{k: general[k] for k in ("exit_status", "seconds", "finish_reason", "error_lines")},
            "requests": g["requests"],
            "hosts": g["hosts"],
            "topic_form_pages_fetched": len(g["first_seen"]),
            "topic_form_pages_fetched_at_request": sorted(g["first_seen"].values()),
            "yield_per_1000": round(1000 * len(g["first_seen"]) / g["requests"], 2) if g["requests"] else 0.0,
        }
        gy = res["general"]["yield_per_1000"]
        res["yield_ratio"] = round(res["smart"]["yield_per_1000"] / gy, 2) if gy else None
    sm = res["smart"]
    res["targets"] = {
        "found_in_limit": {
            "target": f">= {TARGETS['found']} of {len(topic_forms)} within {args.pages} requests",
            "value": f"{sm['found_within_limit']} of {sm['found_of']}",
            "met": sm["found_within_limit"] >= TARGETS["found"],
        },
        "precision": {
            "target": f">= {TARGETS['precision']}",
            "value": sm["precision"],
            "met": sm["precision"] is not None and sm["precision"] >= TARGETS["precision"],
        },
        "yield_ratio": {
            "target": f">= {TARGETS['yield_ratio']}x the general crawl's per request",
            "value": res.get("yield_ratio"),
            "met": res.get("yield_ratio") is not None and res["yield_ratio"] >= TARGETS["yield_ratio"],
        }
        if general is not None
        else {"target": ">= 3x", "value": "not run (--no-general)", "met": None},
    }
    probed_topic = sum(1 for f in topic_forms if f["action"] in s["probed_forms"])
    res["checks"] = {
        "probing": {
            "target": "topic search forms probed by default, the output says which are confirmed (build item 3)",
            "value": f"{probed_topic} of {len(topic_forms)} probed; "
            + (
                f"{sm['output_confirmed_topic_forms']} confirmed in output"
                if sm["confirmation_field_present"]
                else "no confirmation field in output"
            ),
            "met": probed_topic > 0 and sm["confirmation_field_present"],
        },
        "robots": {
            "target": "0 submissions to actions robots.txt disallows",
            "value": sm["probes"]["robots_disallowed"],
            "met": sm["probes"]["robots_disallowed"] == 0,
        },
        "not_search_probes": {
            "target": "0 submissions of forms that are not searches (login, newsletter, ...)",
            "value": sm["probes"]["not_search"],
            "met": sm["probes"]["not_search"] == 0,
        },
    }
    return res


def report(res: dict, load: str) -> None:
    sm = res["smart"]
    kind = "HELD-OUT web (never tune on it)" if res["heldout"] else "DEVELOPMENT web (tuning allowed)"
    print(f"\n=== deep-web blind evaluation: web {res['web']} = {kind}, topic {res['topic']}, page limit {res['pages_limit']} ===")
    ws = res["web_size"]
    print(
        f"web: {ws['sites']} sites, {ws['static_pages']} pages, {ws['forms']} distinct forms; "
        f"{ws['topic_search_forms']} {res['topic']} search forms ({ws['topic_search_forms_below_home']} below the home page), "
        f"{ws['searchable_forms_other']} searchable forms of other topics/off-topic sites"
    )
    print(f"load average: {load}; harness {res.get('harness', '?')}")
    print(
        f"\nsmart crawl: exit {sm['exit_status']}, {sm['seconds']} s, finish reason {sm['finish_reason']}, "
        f"{sm['requests']} requests ({sm['robots_txt_requests']} robots.txt) to {sm['hosts']} hosts, "
        f"topic sites visited {sm['topic_sites_visited']}"
    )
    if sm["stopped_before_limit"]:
        print(f"  stopped by itself before the page limit: after {sm['requests']} of {res['pages_limit']} requests")
    for line in sm["error_lines"]:
        print(f"  ! {line[:200]}")
    print(
        f"  topic search forms found (in -o output): {sm['found']} / {sm['found_of']} "
        f"({sm['found_within_limit']} with their page fetched within the first {res['pages_limit']} requests)"
    )
    print(f"  of those below the home page:          {sm['found_below_home']} / {sm['below_home_of']}")
    print(
        f"  output precision (distinct forms):     {sm['precision']}  ({sm['output_distinct_forms']} distinct forms, "
        f"{sm['output_rows']} rows; row precision {sm['precision_rows']})"
    )
    for fp in sm["false_positives"]:
        print(f"    not a {res['topic']} search form: {fp}")
    if sm["output_rows_not_counted"]:
        print(f"    {sm['output_rows_not_counted']} output lines not counted; the first of them:")
    for p in sm["output_problems"]:
        print(f"    output line not counted: {p}")
    print(
        f"  topic search-form pages fetched:       {sm['topic_form_pages_fetched']} / {sm['found_of']} "
        f"(at request #{sm['topic_form_pages_fetched_at_request']})"
    )
    pr = sm["probes"]
    print(
        f"  form submissions (probes) seen:        {pr['topic_search']} to topic search forms ({pr['with_results']} answered with records), {pr['other_search']} to other "
        f"searches, {pr['not_search']} to forms that are not searches; {pr['robots_disallowed']} to actions robots.txt disallows; "
        f"{sm['forms_probed']} distinct forms probed"
    )
    conf = (
        "no confirmation field in the output"
        if not sm["confirmation_field_present"]
        else f"{sm['output_marked_confirmed']} output forms marked confirmed ({sm['output_confirmed_topic_forms']} of them topic search forms)"
    )
    print(f"  confirmed:                             {conf}")
    print(f"  yield: {sm['yield_per_1000']} topic search forms per 1,000 requests")
    print("  per topic search form (depth = links below its site's home):")
    for f in sm["per_form"]:
        print(
            f"    depth {f['depth']} {f['method'].upper():4} {'(action disallowed by robots.txt) ' if f['action_disallowed_by_robots'] else ''}"
            f"{f['site_requests']} requests to its site (robots.txt aside), "
            f"page fetched at request {f['page_fetched_at_request']}, in output: {f['in_output']}, probed: {f['probed']}"
        )
    if "general" in res:
        g = res["general"]
        print(
            f"\ngeneral crawl (baseline, same web, same seeds, same limit): exit {g['exit_status']}, {g['seconds']} s, "
            f"finish reason {g['finish_reason']}, {g['requests']} requests to {g['hosts']} hosts"
        )
        for line in g["error_lines"]:
            print(f"  ! {line[:200]}")
        print(
            f"  topic search-form pages fetched: {g['topic_form_pages_fetched']} / {sm['found_of']} "
            f"(at request #{g['topic_form_pages_fetched_at_request']})"
        )
        print(f"  yield: {g['yield_per_1000']} per 1,000 requests")
        print(f"\nyield ratio smart / general: {res.get('yield_ratio')}")
    print("\ntargets (issue 27):")
    for name, t in res["targets"].items():
        print(
            f"  {name:16} target {t['target']:45} value {str(t['value']):12} {'MET' if t['met'] else ('-' if t['met'] is None else 'NOT MET')}"
        )
    print("other checks (issue 27's build items, not numbered targets):")
    for name, t in res["checks"].items():
        print(f"  {name:18} {t['target']}: {t['value']} -> {'ok' if t['met'] else 'NO'}")


def inner(args: argparse.Namespace) -> None:
    from server import Log, make_server

    web = Web(args.web)
    log = Log(str(Path(args.work) / "requests.jsonl"))
    server = make_server(web, log, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    proxy = f"http://127.0.0.1:{server.server_address[1]}"
    seeds = Path(args.work) / "seeds.txt"
    seeds.write_text("# seeds of the blind deep-web evaluation web\n" + "\n".join(web.seeds) + "\n")
    scrapy = str(Path(args.project) / ".venv/bin/scrapy")
    smart_cmd = [
        scrapy,
        "crawl",
        "smart",
        "-a",
        f"topic={args.topic}",
        "-a",
        f"seeds={seeds}",
        "-s",
        f"CLOSESPIDER_PAGECOUNT={args.pages}",
    ]
    for extra in args.smart_arg or []:
        smart_cmd += ["-a", extra]
    runs = []
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"web {args.web} ({'held out' if web.heldout else 'development'}), topic {args.topic}: running the smart crawl...", flush=True)
    for k, db in enumerate(args.db_smart.split(","), 1):
        name, output = ("smart", "forms.jsonl") if args.repeat == 1 else (f"smart{k}", f"forms{k}.jsonl")
        if args.repeat > 1:
            print(f"  smart crawl {k} of {args.repeat}", flush=True)
        runs.append((name, output, run_crawl(args, name, smart_cmd + ["-o", str(Path(args.work) / output)], db, log, proxy)))
    general = None
    if not args.no_general:
        print("running the general crawl (baseline)...", flush=True)
        general = run_crawl(
            args,
            "general",
            [scrapy, "crawl", "general", "-a", f"seeds={seeds}", "-s", f"CLOSESPIDER_PAGECOUNT={args.pages}"],
            args.db_general,
            log,
            proxy,
        )
    load += " -> " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    server.shutdown()
    commit = subprocess.run(["git", "-C", str(HERE), "log", "-1", "--format=%h %cI", "--", "."], capture_output=True, text=True)
    results = []
    for name, output, smart in runs:
        res = score(args, web, log, smart, general, name, output)
        res["load_average"] = load
        res["harness"] = f"bench/deepweb_blind at {commit.stdout.strip() or 'unknown commit'}"
        res["commands"] = {"smart": smart["command"], "general": general["command"] if general else None}
        if len(runs) > 1:
            print(f"\n##### smart crawl {name[5:]} of {len(runs)}")
        report(res, load)
        results.append(res)
    if len(results) > 1:
        print(
            f"\n=== summary of {len(results)} smart crawls (web {args.web}, topic {args.topic}; {'no' if general is None else 'one'} general crawl) ==="
        )
        for key, label in (
            ("found_within_limit", "found within limit"),
            ("found_below_home", "found below home"),
            ("precision", "precision"),
            ("requests", "requests"),
            ("yield_per_1000", "yield per 1,000"),
        ):
            print(f"  {label:20} {[r['smart'][key] for r in results]}")
        print(f"  {'yield ratio':20} {[r.get('yield_ratio') for r in results]}")
        for t in ("found_in_limit", "precision", "yield_ratio"):
            print(f"  {t:20} met in {sum(bool(r['targets'][t]['met']) for r in results)} of {len(results)} runs")
    if args.json:
        doc = results[0] if len(results) == 1 else {"runs": results}
        Path(args.json).write_text(json.dumps(doc, indent=2, default=str) + "\n")
        print(f"\njson: {args.json}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--project",
        default=str(HERE.parents[1]),
        help="a checkout of the crawler with its own .venv (default: the repository holding this harness)",
    )
    ap.add_argument(
        "--web",
        default="dev",
        help="one of " + ", ".join(f"{k} ({v[1]}, {'held out' if v[3] else 'development'})" for k, v in WEBS.items()),
    )
    ap.add_argument("--topic", help="topic to crawl for (default: the web's designated topic)")
    ap.add_argument("--pages", type=int, default=600, help="CLOSESPIDER_PAGECOUNT of both crawls (default 600)")
    ap.add_argument("--json", help="also write the scores as JSON to this file")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds before a crawl is killed (default 1800)")
    ap.add_argument("--repeat", type=int, default=1, help="run the smart crawl K times (fresh database each) and summarise (default 1)")
    ap.add_argument("--no-general", action="store_true", help="skip the general crawl (no yield ratio)")
    ap.add_argument("--smart-arg", action="append", help="extra -a NAME=VALUE for the smart crawl (repeatable)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (logs, -o output, request log)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--work", help=argparse.SUPPRESS)
    ap.add_argument("--db-smart", help=argparse.SUPPRESS)
    ap.add_argument("--db-general", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.web in WEBS and not args.topic:
        args.topic = WEBS[args.web][1]
    if args.web in WEBS and args.topic not in WEBS[args.web][2]:
        fail(f"topic {args.topic!r} is not in web {args.web} (topics: {', '.join(WEBS[args.web][2])})")
    if args.repeat < 1:
        fail("--repeat must be positive")
    if args.pages < 1:
        fail("--pages must be positive")
    if args.inner:
        inner(args)
    else:
        outer(args)


if __name__ == "__main__":
    main()
