#!/usr/bin/env python3
"""Blind evaluation of search relevance (issue 25): crawl documentation collections as a
user would, query them with ``scrapy search --json``, score known-item queries.

    python3 bench/search_blind/run.py --project DIR --collections all --work /tmp/sb
    python3 bench/search_blind/run.py --project DIR --collections all --work /tmp/sb --reuse

See README.md beside this file. Only the Python standard library is needed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from collections_def import COLLECTIONS, Collection, load_queries, page_set, resolve  # noqa: E402

KINDS = ("name", "description", "word", "paraphrase")
TOP_K = 10
TARGETS = {"mrr": 0.9, "p1": 0.8, "lang_above": 0, "p95_ms": 100.0}
PG_SOCKET = "/var/run/postgresql"
CRAWL_TIMEOUT_S = 1800
SEARCH_TIMEOUT_S = 600  # the machine may be loaded (load average 30 on 2 cores seen)


class HarnessError(Exception):
    """A failure of the run (not of a score): printed as one error line."""


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


# --------------------------------------------------------------------------- packages


def ensure_packages(colls: list[Collection]) -> None:
    missing: list[str] = []
    helpers: list[str] = []
    for c in colls:
        for pkg in c.packages:
            r = subprocess.run(
                ["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True
            )
            if "install ok installed" not in r.stdout and pkg not in missing:
                missing.append(pkg)
                helpers += [h for h in c.install_with if h not in helpers]
    if not missing:
        return
    if os.geteuid() != 0:
        raise HarnessError(
            f"Debian packages needed: {' '.join(missing)} (run as root, or: sudo apt-get "
            f"install --no-install-recommends {' '.join(helpers + missing)})"
        )
    log(f"installing {' '.join(helpers + missing)} with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    # the helpers come first in the same command, so that apt takes them to satisfy an
    # alternative dependency (gimp-help-*: "gimp-helpbrowser | www-browser")
    install = ["apt-get", "install", "-y", "--no-install-recommends", *helpers, *missing]
    r = subprocess.run(install, env=env, capture_output=True, text=True)
    if r.returncode != 0:  # a stale package list: update it once and try again
        subprocess.run(["apt-get", "update"], env=env, capture_output=True)
        r = subprocess.run(install, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise HarnessError(f"apt-get install {' '.join(missing)} failed: {r.stderr.strip()[-500:]}")


# --------------------------------------------------------------------------- database


def psql(sql: str, db: str = "postgres") -> str:
    r = subprocess.run(
        [
            "psql",
            "-h",
            PG_SOCKET,
            "-U",
            "postgres",
            "-d",
            db,
            "-v",
            "ON_ERROR_STOP=1",
            "-XAtq",
            "-c",
            sql,
        ],
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise HarnessError(f"psql on {db} failed: {r.stderr.strip()}")
    return r.stdout


def db_url(db: str) -> str:
    return f"postgresql:///{db}?host={PG_SOCKET}&user=postgres"


def db_exists(db: str) -> bool:
    return psql(f"SELECT 1 FROM pg_database WHERE datname = '{db}'").strip() == "1"


def drop_db(db: str) -> None:
    psql(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def create_db(db: str) -> None:
    drop_db(db)
    psql(f'CREATE DATABASE "{db}"')


# --------------------------------------------------------------------------- crawl


def inner_crawl(spec_path: str) -> int:
    """Runs inside the network namespace: starts the proxy, runs the crawl command."""
    from proxy import DocsProxy

    spec = json.loads(Path(spec_path).read_text())
    coll = COLLECTIONS[spec["collection"]]
    proxy = DocsProxy([coll], {coll.name: set(spec["allowed"])}, log_path=spec["proxy_log"]).start()
    proxy_url = f"http://127.0.0.1:{proxy.port}"
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "all_proxy")}
    env.update(spec["env"])
    env.update(
        http_proxy=proxy_url, https_proxy=proxy_url, HTTP_PROXY=proxy_url, HTTPS_PROXY=proxy_url
    )
    try:
        with open(spec["log"], "ab") as out:
            r = subprocess.run(
                spec["argv"],
                cwd=spec["cwd"],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=CRAWL_TIMEOUT_S,
            )
        return r.returncode
    except subprocess.TimeoutExpired:
        return 124
    finally:
        proxy.stop()


def netns_prefix() -> list[str]:
    ns = ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]
    r = subprocess.run([*ns, "sh", "-c", "ip link set lo up && true"], capture_output=True)
    if r.returncode != 0:
        raise HarnessError(
            f"cannot create a loopback-only network namespace ({' '.join(ns)}): "
            f"{r.stderr.decode().strip()}"
        )
    return ns


def setting_args(settings: list[str]) -> list[str]:
    """``--setting NAME=VALUE`` options of the harness as Scrapy ``-s`` options. They come
    after the harness's own ``-s`` options, so that a later one overrides an earlier one."""
    out: list[str] = []
    for s in settings:
        out += ["-s", s]
    return out


def run_crawl(
    project: Path,
    coll: Collection,
    pages: list[str],
    cdir: Path,
    db: str,
    crawl_id: str,
    settings: list[str],
) -> float:
    seeds = cdir / "seeds.txt"
    seeds.write_text("".join(u + "\n" for u in coll.seed_urls()))
    data_dir = cdir / "data"
    if data_dir.exists():
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    crawl_log = cdir / "crawl.log"
    crawl_log.write_text("")
    pagecount = 2 * len(pages) + 200
    argv = [
        str(project / ".venv/bin/scrapy"),
        "crawl",
        "general",
        "-a",
        f"seeds={seeds}",
        "-a",
        f"crawl_id={crawl_id}",
        "-s",
        f"CRAWLER_DATA_DIR={data_dir}",
        "-s",
        "DOWNLOAD_DELAY=0",
        "-s",
        f"CLOSESPIDER_PAGECOUNT={pagecount}",
        "-s",
        "CONCURRENT_REQUESTS_PER_DOMAIN=8",
        "-s",
        "PROGRESS_INTERVAL=30",
        *setting_args(settings),
    ]
    spec = {
        "collection": coll.name,
        "allowed": pages,
        "argv": argv,
        "cwd": str(project),
        "env": {"CRAWLER_DATABASE_URL": db_url(db)},
        "log": str(crawl_log),
        "proxy_log": str(cdir / "proxy.jsonl"),
    }
    spec_path = cdir / "crawl-spec.json"
    spec_path.write_text(json.dumps(spec))
    (cdir / "proxy.jsonl").write_text("")
    inner = f'ip link set lo up && exec "$0" "{HERE / "run.py"}" --_inner-crawl "{spec_path}"'
    cmd = [*netns_prefix(), "sh", "-c", inner, sys.executable]
    log(f"{coll.name}: crawling {len(pages)} pages (log {crawl_log})")
    t0 = time.monotonic()
    # its own process group, so that an interrupted run stops the crawl and the proxy too
    proc = subprocess.Popen(cmd, cwd=str(project), start_new_session=True)
    try:
        returncode = proc.wait()
    except BaseException:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        raise
    elapsed = time.monotonic() - t0
    if returncode != 0:
        tail = crawl_log.read_text(errors="replace").strip().splitlines()[-5:]
        raise HarnessError(
            f"{coll.name}: the project's crawl failed (exit status {returncode}"
            f"{', timed out' if returncode == 124 else ''}); log: {crawl_log}\n  "
            + "\n  ".join(tail)
        )
    return elapsed


def run_reindex(project: Path, cdir: Path, db: str, crawl_id: str, settings: list[str]) -> float:
    reindex_log = cdir / "reindex.log"
    argv = [
        str(project / ".venv/bin/scrapy"),
        "reindex",
        "--crawl-id",
        crawl_id,
        "-s",
        f"CRAWLER_DATA_DIR={cdir / 'data'}",
        *setting_args(settings),
    ]
    env = dict(os.environ, CRAWLER_DATABASE_URL=db_url(db))
    t0 = time.monotonic()
    with open(reindex_log, "wb") as out:
        r = subprocess.run(argv, cwd=str(project), env=env, stdout=out, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        tail = reindex_log.read_text(errors="replace").strip().splitlines()[-5:]
        raise HarnessError(
            f"scrapy reindex failed (exit status {r.returncode}); log: {reindex_log}\n  "
            + "\n  ".join(tail)
        )
    return time.monotonic() - t0


def fetched_urls(db: str, crawl_id: str) -> dict[str, str]:
    """URL of each stored page -> its final URL (after redirects)."""
    cols = set(
        psql(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'pages'", db
        ).split()
    )
    final = "final_url" if "final_url" in cols else "url"
    status = "AND (status IS NULL OR status < 400)" if "status" in cols else ""
    rows = psql(
        f"SELECT url, coalesce({final}, url) FROM pages WHERE crawl_id = '{crawl_id}' {status}", db
    )
    out = {}
    for line in rows.splitlines():
        if "|" in line:
            u, f = line.split("|", 1)
            out[u] = f
    return out


# --------------------------------------------------------------------------- search


def run_search(
    project: Path, cdir: Path, db: str, query: str, settings: list[str]
) -> tuple[list[str], float, float | None]:
    """Result URLs of ``scrapy search --json``, the command's wall time (ms), and the
    search time the JSON reports (ms), if it reports one."""
    argv = [
        str(project / ".venv/bin/scrapy"),
        "search",
        "--json",
        "-n",
        str(TOP_K),
        "-s",
        f"CRAWLER_DATA_DIR={cdir / 'data'}",
        *setting_args(settings),
        "--nolog",
        # a query that starts with "-" (scons: "--debug=explain") would be taken for an
        # option, and `scrapy search` accepts no "--" separator: a leading space keeps it
        # a query, as a user would type it (the engine strips it)
        " " + query if query.startswith("-") else query,
    ]
    env = dict(os.environ, CRAWLER_DATABASE_URL=db_url(db))
    t0 = time.perf_counter()
    try:
        r = subprocess.run(
            argv,
            cwd=str(project),
            env=env,
            capture_output=True,
            text=True,
            timeout=SEARCH_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as e:
        raise HarnessError(f"scrapy search {query!r} took over {SEARCH_TIMEOUT_S} s") from e
    wall_ms = (time.perf_counter() - t0) * 1000
    if r.returncode != 0:
        raise HarnessError(
            f"scrapy search failed for {query!r} (exit status {r.returncode}): "
            f"{r.stderr.strip()[-400:]}"
        )
    try:
        doc = json.loads(r.stdout)
    except json.JSONDecodeError as e:
        raise HarnessError(
            f"scrapy search --json printed no JSON for {query!r}: {e}: {r.stdout[:200]!r}"
        ) from e
    results = doc.get("results", doc) if isinstance(doc, dict) else doc
    urls = []
    for item in results or []:
        if isinstance(item, dict):
            u = item.get("url") or item.get("final_url")
            if u:
                urls.append(u)
            # copies grouped under a result (translations, duplicates) are no ranked position
        elif isinstance(item, str):
            urls.append(item)
    reported = None
    if isinstance(doc, dict):
        for key in ("took_ms", "elapsed_ms", "time_ms", "search_ms", "latency_ms"):
            if isinstance(doc.get(key), (int, float)):
                reported = float(doc[key])
                break
        else:
            for key in ("took", "elapsed", "seconds", "time"):
                if isinstance(doc.get(key), (int, float)):
                    reported = float(doc[key]) * 1000
                    break
    return urls[:TOP_K], wall_ms, reported


# --------------------------------------------------------------------------- baseline


class _TextExtractor(HTMLParser):
    SKIP = {"script", "style", "noscript", "template"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: list[str] = []
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.SKIP:
            self._skip += 1
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self._skip:
            self._skip -= 1
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title.append(data)
        elif not self._skip:
            self.parts.append(data)


def page_text(path: str) -> str:
    raw = Path(path).read_bytes()
    m = re.search(rb"charset=[\"']?([A-Za-z0-9_-]+)", raw[:2048])
    enc = m.group(1).decode() if m else "utf-8"
    try:
        text = raw.decode(enc, errors="replace")
    except LookupError:
        text = raw.decode("utf-8", errors="replace")
    p = _TextExtractor()
    p.feed(text)
    return " ".join(p.title) + " " + " ".join(p.parts)


TOKEN = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower())


class BM25:
    """Okapi BM25 (k1 = 1.2, b = 0.75) over title + visible text: the naive baseline."""

    def __init__(self, docs: dict[str, str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.ids = sorted(docs)
        self.tf = [Counter(tokens(docs[i])) for i in self.ids]
        self.len = [sum(c.values()) for c in self.tf]
        self.avg = sum(self.len) / max(1, len(self.len))
        df: Counter = Counter()
        for c in self.tf:
            df.update(c.keys())
        n = len(self.ids)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, c in enumerate(self.tf):
            for t in c:
                self.postings[t].append(i)

    def search(self, query: str, k: int = TOP_K) -> list[str]:
        scores: dict[int, float] = defaultdict(float)
        for t in set(tokens(query)):
            idf = self.idf.get(t)
            if idf is None:
                continue
            for i in self.postings[t]:
                f = self.tf[i][t]
                scores[i] += (
                    idf
                    * f
                    * (self.k1 + 1)
                    / (f + self.k1 * (1 - self.b + self.b * self.len[i] / self.avg))
                )
        ranked = sorted(scores.items(), key=lambda x: (-x[1], self.ids[x[0]]))
        return [self.ids[i] for i, _ in ranked[:k]]


# --------------------------------------------------------------------------- scoring


def canonical_rel(coll: Collection, url: str) -> str | None:
    """The file a URL serves (aliases and folders resolved), as a path below the prefix."""
    rel = coll.rel(url)
    if rel is None:
        return None
    for _ in range(5):
        kind, val = resolve(coll, rel)
        if kind in ("redirect", "dir"):
            rel = val  # type: ignore[assignment]
            continue
        return rel if kind == "file" else None
    return None


def score_query(coll: Collection, q: dict, result_rels: list[str | None]) -> dict:
    good = {q["target"], *q.get("equivalent", [])}
    good_files = {canonical_rel(coll, coll.url(g)) for g in good}
    others = set(q.get("other_languages", []))
    rank = None
    first_other = None
    for i, rel in enumerate(result_rels, 1):
        if rel in good_files and rank is None:
            rank = i
        if rel in others and first_other is None:
            first_other = i
    lang_above = first_other is not None and (rank is None or first_other < rank)
    return {
        "rank": rank,
        "rr": 1.0 / rank if rank else 0.0,
        "p1": 1.0 if rank == 1 else 0.0,
        "r10": 1.0 if rank else 0.0,
        "lang_above": lang_above,
    }


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * p
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def bootstrap_ci(values: list[float], seed: int = 25, resamples: int = 2000) -> tuple[float, float]:
    """95% bootstrap interval of a mean (fixed seed: the same figures give the same interval)."""
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(rng.choice(values) for _ in range(n)) / n for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def aggregate(rows: list[dict], latency_key: str) -> dict:
    n = len(rows)
    if not n:
        return {"n": 0}
    lat = [r[latency_key] for r in rows if r.get(latency_key) is not None]
    return {
        "n": n,
        "mrr": sum(r["rr"] for r in rows) / n,
        "p1": sum(r["p1"] for r in rows) / n,
        "r10": sum(r["r10"] for r in rows) / n,
        "lang_above": sum(1 for r in rows if r["lang_above"]),
        "p50_ms": pct(lat, 0.5),
        "p95_ms": pct(lat, 0.95),
    }


# --------------------------------------------------------------------------- one collection


def evaluate(
    project: Path,
    coll: Collection,
    work: Path,
    keep: bool,
    reuse: bool,
    show_queries: bool,
    settings: list[str] | None = None,
) -> dict:
    settings = list(settings or [])
    cdir = work / coll.name
    cdir.mkdir(parents=True, exist_ok=True)
    tag = hashlib.sha1(str(work.resolve()).encode()).hexdigest()[:8]
    db = f"search_blind_{tag}_{coll.name}"
    crawl_id = f"blind-{coll.name}"
    queries = load_queries(coll.name)
    pages = page_set(coll)
    out: dict = {
        "collection": coll.name,
        "role": coll.role,
        "package": " ".join(coll.packages),
        "pages_served": len(pages),
        "queries": len(queries),
        "settings": settings,
    }
    t_start = time.monotonic()
    try:
        if reuse and db_exists(db) and (cdir / "data").exists():
            out["reindex_s"] = round(run_reindex(project, cdir, db, crawl_id, settings), 1)
            log(f"{coll.name}: reused the kept crawl, reindexed in {out['reindex_s']} s")
        else:
            if reuse:
                log(f"{coll.name}: nothing kept to reuse in {cdir} (database {db}): crawling")
            create_db(db)
            out["crawl_s"] = round(run_crawl(project, coll, pages, cdir, db, crawl_id, settings), 1)
            log(f"{coll.name}: crawl done in {out['crawl_s']} s")
        fetched = fetched_urls(db, crawl_id)
        fetched_files = {}
        for u, f in fetched.items():
            rel = canonical_rel(coll, f) or canonical_rel(coll, u)
            if rel and rel.endswith((".html", ".htm")):
                fetched_files[rel] = True
        out["pages_stored"] = len(fetched)
        out["html_files_stored"] = len(fetched_files)

        # a target counts as not fetched only when no equally correct copy of it
        # (``equivalent``) was fetched either: a crawl that stores one of identical copies
        # (postfix's sendmail.1/mailq.1/newaliases.1) has the page
        def was_fetched(q: dict) -> bool:
            return any(g in fetched_files for g in (q["target"], *q.get("equivalent", [])))

        missing = [q for q in queries if not was_fetched(q)]
        out["missing_targets"] = len({q["target"] for q in missing})
        if missing:
            log(
                f"{coll.name}: {out['missing_targets']} target pages were not fetched by the "
                "crawl (count as misses)"
            )

        log(f"{coll.name}: baseline BM25 over {len(fetched_files)} fetched pages")
        bm25 = BM25({rel: page_text(resolve(coll, rel)[1]) for rel in fetched_files})  # type: ignore[arg-type]

        rows, base_rows = [], []
        n_reported = 0
        log(f"{coll.name}: {len(queries)} queries through scrapy search --json")
        for q in queries:
            urls, wall_ms, reported = run_search(project, cdir, db, q["query"], settings)
            if reported is not None:
                n_reported += 1
            rels = [canonical_rel(coll, u) for u in urls]
            s = score_query(coll, q, rels)
            if not was_fetched(q):
                s.update(rank=None, rr=0.0, p1=0.0, r10=0.0)
            s.update(
                kind=q["kind"],
                wall_ms=wall_ms,
                reported_ms=reported,
                query=q["query"],
                target=q["target"],
                top=[r or u for r, u in zip(rels, urls, strict=True)][:3],
            )
            rows.append(s)
            t0 = time.perf_counter()
            b_rels = bm25.search(q["query"])
            b_ms = (time.perf_counter() - t0) * 1000
            bs = score_query(coll, q, b_rels)
            bs.update(
                kind=q["kind"],
                wall_ms=b_ms,
                reported_ms=None,
                query=q["query"],
                target=q["target"],
                top=b_rels[:3],
            )
            base_rows.append(bs)
        latency_key = "reported_ms" if n_reported == len(queries) else "wall_ms"
        out["latency_source"] = (
            "search time reported by scrapy search --json"
            if latency_key == "reported_ms"
            else "wall time of the scrapy search command (process start included)"
        )
        out["product"] = {
            k: aggregate([r for r in rows if r["kind"] == k], latency_key) for k in KINDS
        }
        out["product"]["all"] = aggregate(rows, latency_key)
        out["product"]["all"]["mrr_ci95"] = bootstrap_ci([r["rr"] for r in rows])
        out["product"]["all"]["p1_ci95"] = bootstrap_ci([r["p1"] for r in rows])
        out["product"]["wall_all"] = aggregate(rows, "wall_ms")
        out["baseline"] = {
            k: aggregate([r for r in base_rows if r["kind"] == k], "wall_ms") for k in KINDS
        }
        out["baseline"]["all"] = aggregate(base_rows, "wall_ms")
        if show_queries:
            out["per_query"] = [
                {k: r[k] for k in ("kind", "query", "target", "rank", "lang_above", "top")}
                | {"baseline_rank": b["rank"]}
                for r, b in zip(rows, base_rows, strict=True)
            ]
        out["load_average"] = load_average()
    finally:
        out["wall_s"] = round(time.monotonic() - t_start, 1)
        if not keep:
            try:
                drop_db(db)
            except HarnessError as e:
                log(str(e))
    return out


# --------------------------------------------------------------------------- printing


def fmt(v: float | None, nd: int = 3) -> str:
    return "-" if v is None else f"{v:.{nd}f}"


def print_collection(res: dict, show_queries: bool) -> None:
    name, role = res["collection"], res["role"]
    label = "DEVELOPMENT (tuning allowed)" if role == "dev" else "HELD OUT (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "fresh":
        label = "HELD OUT, FRESH SET of 2026-11-26 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "third":
        label = "HELD OUT, THIRD SET of 2026-11-26 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "fourth":
        label = "HELD OUT, FOURTH SET of 2026-11-26 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "fifth":
        label = "HELD OUT, FIFTH SET of 2026-11-26 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "sixth":
        label = "HELD OUT, SIXTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "seventh":
        label = "HELD OUT, SEVENTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "eighth":
        label = "HELD OUT, EIGHTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "ninth":
        label = "HELD OUT, NINTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "tenth":
        label = "HELD OUT, TENTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "eleventh":
        label = "HELD OUT, ELEVENTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "twelfth":
        label = "HELD OUT, TWELFTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "thirteenth":
        label = "HELD OUT, THIRTEENTH SET of 2026-11-27 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "fourteenth":
        label = "HELD OUT, FOURTEENTH SET of 2026-11-28 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "fifteenth":
        label = "HELD OUT, FIFTEENTH SET of 2026-11-28 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "sixteenth":
        label = "HELD OUT, SIXTEENTH SET of 2026-11-28 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "seventeenth":
        label = "HELD OUT, SEVENTEENTH SET of 2026-11-28 (never tune on it)"
    if COLLECTIONS.get(name) is not None and COLLECTIONS[name].group == "eighteenth":
        label = "HELD OUT, EIGHTEENTH SET of 2026-11-28 (never tune on it)"
    print(f"\n== {name}: {label} -- Debian package(s) {res['package']}")
    if "error" in res:
        print(f"   FAILED: {res['error']}")
        return
    how = (
        f"crawled in {res['crawl_s']} s"
        if "crawl_s" in res
        else f"reused kept crawl, reindexed in {res['reindex_s']} s"
    )
    print(
        f"   {res['pages_served']} HTML pages served, {res['pages_stored']} pages stored "
        f"({res['html_files_stored']} distinct HTML files), "
        f"{how}; {res['queries']} queries; missing target pages: {res['missing_targets']} "
        f"(counted as misses); load avg {res['load_average']}"
    )
    print(f"   latency: product = {res['latency_source']}; baseline = in-process BM25 call")
    hdr = (
        f"   {'kind':<12}{'n':>3} | {'MRR':>6} {'P@1':>6} {'R@10':>6} {'lang>':>5} "
        f"{'p50ms':>7} {'p95ms':>7} | {'MRR':>6} {'P@1':>6} {'R@10':>6} {'lang>':>5} "
        f"{'p50ms':>7} {'p95ms':>7}"
    )
    print(
        f"   {'':<15} | {'product (scrapy search)':<45} | {'naive baseline: BM25 title+text':<45}"
    )
    print(hdr)
    print("   " + "-" * (len(hdr) - 3))
    for k in (*KINDS, "all"):
        p, b = res["product"][k], res["baseline"][k]
        if not p.get("n"):
            continue
        print(
            f"   {k:<12}{p['n']:>3} | {fmt(p['mrr']):>6} {fmt(p['p1']):>6} {fmt(p['r10']):>6} "
            f"{p['lang_above']:>5} {fmt(p['p50_ms'], 0):>7} {fmt(p['p95_ms'], 0):>7}"
            f" | {fmt(b['mrr']):>6} {fmt(b['p1']):>6} {fmt(b['r10']):>6} {b['lang_above']:>5}"
            f" {fmt(b['p50_ms'], 1):>7} {fmt(b['p95_ms'], 1):>7}"
        )
    a = res["product"]["all"]
    print(
        f"   95% bootstrap interval over the queries (fixed seed): MRR {a['mrr_ci95'][0]:.3f}-"
        f"{a['mrr_ci95'][1]:.3f}, P@1 {a['p1_ci95'][0]:.3f}-{a['p1_ci95'][1]:.3f}"
    )
    w = res["product"]["wall_all"]
    print(
        "   wall time of one scrapy search command (process start included): p50 "
        f"{fmt(w['p50_ms'], 0)} ms, p95 {fmt(w['p95_ms'], 0)} ms"
    )
    if show_queries and res.get("per_query"):
        print("   queries not ranked first (development collection only):")
        for r in res["per_query"]:
            if r["rank"] != 1:
                print(
                    f"     [{r['kind']}] {r['query']!r} -> {r['target']}: rank {r['rank']} "
                    f"(baseline {r['baseline_rank']}); top: {r['top']}"
                )


def verdict(res: dict) -> list[str]:
    if "error" in res:
        return ["run failed"]
    p = res["product"]
    fails = []
    if p["all"]["mrr"] < TARGETS["mrr"]:
        fails.append(f"MRR {p['all']['mrr']:.3f} < {TARGETS['mrr']}")
    if p["all"]["p1"] < TARGETS["p1"]:
        fails.append(f"P@1 {p['all']['p1']:.3f} < {TARGETS['p1']}")
    if p["all"]["lang_above"] > TARGETS["lang_above"]:
        fails.append(
            f"{p['all']['lang_above']} queries with another-language copy above the English page"
        )
    for k in KINDS:
        v = p[k].get("p95_ms")
        if v is not None and v >= TARGETS["p95_ms"]:
            fails.append(f"p95 {k} {v:.0f} ms >= {TARGETS['p95_ms']:.0f}")
    return fails


# --------------------------------------------------------------------------- main


def select(spec: str) -> list[Collection]:
    if spec == "all":
        return list(COLLECTIONS.values())
    if spec == "dev":
        return [c for c in COLLECTIONS.values() if c.role == "dev"]
    if spec == "heldout":
        # the first held-out set, as the search author has seen it scored
        return [c for c in COLLECTIONS.values() if c.role == "heldout" and not c.group]
    if spec == "fresh":
        # the held-out set added on 2026-11-26, never run before the tuning it judges
        return [c for c in COLLECTIONS.values() if c.group == "fresh"]
    if spec == "third":
        # the third held-out set, added after the scores of the first two had been read
        return [c for c in COLLECTIONS.values() if c.group == "third"]
    if spec == "fourth":
        # the fourth held-out set, added after the scores of the first three had been read
        return [c for c in COLLECTIONS.values() if c.group == "fourth"]
    if spec == "fifth":
        # the fifth held-out set, added after the scores of the first four had been read
        return [c for c in COLLECTIONS.values() if c.group == "fifth"]
    if spec == "sixth":
        # the sixth held-out set, added after the scores of the first five had been read
        return [c for c in COLLECTIONS.values() if c.group == "sixth"]
    if spec == "seventh":
        # the seventh held-out set, added after the scores of the first six had been read
        return [c for c in COLLECTIONS.values() if c.group == "seventh"]
    if spec == "eighth":
        # the eighth held-out set, added after the scores of the first seven had been read
        return [c for c in COLLECTIONS.values() if c.group == "eighth"]
    if spec == "ninth":
        # the ninth held-out set, added after the scores of the first eight had been read
        return [c for c in COLLECTIONS.values() if c.group == "ninth"]
    if spec == "tenth":
        # the tenth held-out set, added after the scores of the first nine had been read
        return [c for c in COLLECTIONS.values() if c.group == "tenth"]
    if spec == "eleventh":
        # the eleventh held-out set, added after the scores of the first ten had been read
        return [c for c in COLLECTIONS.values() if c.group == "eleventh"]
    if spec == "twelfth":
        # the twelfth held-out set, added after the scores of the first eleven had been read
        return [c for c in COLLECTIONS.values() if c.group == "twelfth"]
    if spec == "thirteenth":
        # the thirteenth held-out set, added after the scores of the first twelve had been read
        return [c for c in COLLECTIONS.values() if c.group == "thirteenth"]
    if spec == "fourteenth":
        # the fourteenth held-out set, added after the scores of the first thirteen had been read
        return [c for c in COLLECTIONS.values() if c.group == "fourteenth"]
    if spec == "fifteenth":
        # the fifteenth held-out set, added after the scores of the first fourteen had been read
        return [c for c in COLLECTIONS.values() if c.group == "fifteenth"]
    if spec == "sixteenth":
        # the sixteenth held-out set, added after the scores of the first fifteen had been read
        return [c for c in COLLECTIONS.values() if c.group == "sixteenth"]
    if spec == "seventeenth":
        # the seventeenth held-out set, added after the scores of the first sixteen had been read
        return [c for c in COLLECTIONS.values() if c.group == "seventeenth"]
    if spec == "eighteenth":
        # the eighteenth held-out set, added after the scores of the first seventeen had been read
        return [c for c in COLLECTIONS.values() if c.group == "eighteenth"]
    out = []
    for name in spec.split(","):
        if name.strip() not in COLLECTIONS:
            raise HarnessError(
                f"unknown collection {name!r} (known: {', '.join(COLLECTIONS)}, or dev, "
                "heldout, fresh, third, fourth, fifth, sixth, seventh, eighth, ninth, tenth, "
                "eleventh, twelfth, thirteenth, fourteenth, fifteenth, sixteenth, seventeenth, "
                "eighteenth, all)"
            )
        out.append(COLLECTIONS[name.strip()])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--project",
        default=str(HERE.parent.parent),
        help="checkout of the crawler with its own .venv (default: the repo holding this harness)",
    )
    ap.add_argument(
        "--collections",
        default="all",
        help=(
            "dev | heldout (the first held-out set) | fresh (the held-out set of 2026-11-26) "
            "| third (the third held-out set, 2026-11-26) "
            "| fourth (the fourth held-out set, 2026-11-26) "
            "| fifth (the fifth held-out set, 2026-11-26) "
            "| sixth (the sixth held-out set, 2026-11-27) "
            "| seventh (the seventh held-out set, 2026-11-27) "
            "| eighth (the eighth held-out set, 2026-11-27) "
            "| ninth (the ninth held-out set, 2026-11-27) "
            "| tenth (the tenth held-out set, 2026-11-27) "
            "| eleventh (the eleventh held-out set, 2026-11-27) "
            "| twelfth (the twelfth held-out set, 2026-11-27) "
            "| thirteenth (the thirteenth held-out set, 2026-11-27) "
            "| fourteenth (the fourteenth held-out set, 2026-11-28) "
            "| fifteenth (the fifteenth held-out set, 2026-11-28) "
            "| sixteenth (the sixteenth held-out set, 2026-11-28) "
            "| seventeenth (the seventeenth held-out set, 2026-11-28) "
            "| eighteenth (the eighteenth held-out set, 2026-11-28) "
            f"| all | NAME,NAME (names: {', '.join(COLLECTIONS)})"
        ),
    )
    ap.add_argument(
        "--work",
        help=(
            "folder keeping each collection's crawl data and database (default: a temporary "
            "folder, removed)"
        ),
    )
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="with --work: skip the crawl, run scrapy reindex on the kept data and query again",
    )
    ap.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=(
            "a Scrapy setting passed as -s NAME=VALUE to every crawl, reindex and search "
            "command of the run (repeatable), e.g. --setting SEARCH_BACKEND=tantivy"
        ),
    )
    ap.add_argument("--json", help="write the scores (aggregates only) to this file")
    ap.add_argument("--_inner-crawl", dest="inner", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        return inner_crawl(args.inner)
    # SIGTERM unwinds like Ctrl-C: the crawl's process group is stopped, databases dropped
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        project = Path(args.project).resolve()
        if not (project / ".venv/bin/scrapy").exists():
            raise HarnessError(
                f"{project}/.venv/bin/scrapy not found: run scripts/setup.sh in {project} first"
            )
        if args.reuse and not args.work:
            raise HarnessError("--reuse needs --work (the folder kept by an earlier run)")
        for setting in args.setting:
            name, eq, _ = setting.partition("=")
            if not eq or not name.strip() or name != name.strip():
                raise HarnessError(f"--setting {setting!r}: expected NAME=VALUE")
        colls = select(args.collections)
        ensure_packages(colls)
        if shutil.which("psql") is None:
            raise HarnessError("psql not found (apt-get install postgresql-client)")
        psql("SELECT 1")
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    keep = args.work is not None
    work = Path(args.work) if keep else Path(tempfile.mkdtemp(prefix="search-blind-"))
    work.mkdir(parents=True, exist_ok=True)
    head = subprocess.run(
        ["git", "-C", str(project), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(
        f"search_blind: project {project} ({head or 'no git'}), collections "
        f"{', '.join(c.name for c in colls)}, load avg {load_average()}"
        + (f", settings {' '.join(args.setting)}" if args.setting else "")
    )
    t0 = time.monotonic()
    results = []
    try:
        for c in colls:
            try:
                results.append(
                    evaluate(
                        project,
                        c,
                        work,
                        keep,
                        args.reuse,
                        show_queries=(c.role == "dev"),
                        settings=args.setting,
                    )
                )
            except HarnessError as e:
                log(f"error: {e}")
                results.append(
                    {
                        "collection": c.name,
                        "role": c.role,
                        "package": " ".join(c.packages),
                        "error": str(e),
                    }
                )
    finally:
        if not keep:
            if any("error" in r for r in results):
                log(f"kept {work} for the logs of the failed run (its databases were dropped)")
            else:
                shutil.rmtree(work, ignore_errors=True)
    total = time.monotonic() - t0
    for role in ("dev", "heldout"):
        for res in results:
            if res["role"] == role:
                print_collection(res, show_queries=(role == "dev"))
    print(
        "\n== targets (issue 25): MRR >= 0.9 and P@1 >= 0.8 on every collection; no "
        "other-language copy above the English page; p95 < 100 ms per query kind"
    )
    ok = True
    for res in results:
        fails = verdict(res)
        ok &= not fails
        print(
            f"   {res['collection']:<8} ({res['role']:<7}): "
            f"{'MEETS the targets' if not fails else 'misses: ' + '; '.join(fails)}"
        )
    print(f"\nrun wall time {total:.0f} s; load avg {load_average()}")
    if args.json:
        slim = [
            {k: v for k, v in r.items() if k != "per_query" or r["role"] == "dev"} for r in results
        ]
        Path(args.json).write_text(
            json.dumps(
                {
                    "project": str(project),
                    "head": head,
                    "settings": args.setting,
                    "wall_s": round(total, 1),
                    "targets": TARGETS,
                    "results": slim,
                },
                indent=1,
            )
        )
    if any("error" in r for r in results):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
