"""Scores from the server's request log and the change trace, and the counterfactual baselines.

Definitions (Cho and Garcia-Molina): the crawler's copy of page p is fresh at time t when the
version it last received (200) or had confirmed (304) is p's current version; its age is 0 when
fresh, else t minus the time of the first change after the copy's version. Freshness and age
are averaged over pages (every HTML page of the site counts once) and over time.

A 304 counts as a confirmation only when the crawler had received that version before (from
this log); a 304 for a version it never received (a change hidden by a weak validator) leaves
its copy as it was, and is counted.

Baselines replay the trace at the project's own request times (every request it sent to the
site during the run, robots.txt, feed and sitemap included, so they spend the same budget):
- uniform: the pages in a fixed cyclic order (the order the general crawl fetched them);
- optimal: Cho and Garcia-Molina's optimal revisit frequencies for the true rates (freshness:
  dF/df equal for every visited page, pages changing too fast for the budget are not visited;
  age: dA/df equal), each page revisited at its fixed interval (earliest-due page first);
- the same two at exactly 1 request/s from the clock start (the budget the crawler was allowed).
"""

from __future__ import annotations

import heapq
import json
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

RATE_CLASSES = ("fast", "medium", "slow", "never")


@dataclass
class TracePage:
    url: str
    kind: str
    rate: float
    cls: str
    changes: list[float]  # absolute times


@dataclass
class Trace:
    meta: dict
    pages: dict[str, TracePage]

    @property
    def t0(self) -> float:
        return float(self.meta["t0"])


def load_trace(path: Path) -> Trace:
    with open(path, encoding="utf-8") as f:
        meta = json.loads(f.readline())
        t0 = float(meta["t0"])
        pages = {}
        for line in f:
            r = json.loads(line)
            pages[r["url"]] = TracePage(
                r["url"], r["kind"], r["rate"], r["class"], [t0 + c for c in r["changes"]]
            )
    return Trace(meta, pages)


def load_log(path: Path) -> list[dict]:
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out


def version_at(changes: list[float], t: float) -> int:
    lo, hi = 0, len(changes)
    while lo < hi:
        mid = (lo + hi) // 2
        if changes[mid] <= t:
            lo = mid + 1
        else:
            hi = mid
    return lo


# -- integration ---------------------------------------------------------------------------------
@dataclass
class PageScore:
    fresh: list[float]  # per window: seconds fresh
    age: list[float]  # per window: integral of age (s^2)


def integrate_page(
    changes: list[float],
    copies: list[tuple[float, int]],
    windows: list[tuple[float, float]],
    start: float,
) -> PageScore:
    """Fresh time and age integral of one page in each window.

    changes: absolute change times (version k starts at changes[k-1]); copies: (time, version
    the crawler holds from then on), sorted; the copy before the first entry is version 0.
    Only [start, max window end] is integrated."""
    end = max(w[1] for w in windows)
    events: list[tuple[float, int, int]] = []  # (time, kind 0=change 1=copy, version)
    for k, c in enumerate(changes, start=1):
        if c < end:
            events.append((c, 0, k))
    for t, v in copies:
        if t < end:
            events.append((t, 1, v))
    events.sort()
    fresh = [0.0] * len(windows)
    age = [0.0] * len(windows)
    cur, copy, t = 0, 0, start

    def hold(until: float) -> None:
        """Integrate the current state over [t, until]."""
        stale_since = changes[copy] if copy < cur else None  # first change after the copy
        for w, (a, b) in enumerate(windows):
            lo, hi = max(a, t), min(b, until)
            if hi <= lo:
                continue
            if stale_since is None:
                fresh[w] += hi - lo
            else:
                age[w] += ((hi - stale_since) ** 2 - (lo - stale_since) ** 2) / 2.0

    for when, kind, v in events:  # events before `start` only set the state
        if when > t:
            hold(when)
            t = when
        if kind == 0:
            cur = v
        else:
            copy = v
    if end > t:
        hold(end)
    return PageScore(fresh, age)


@dataclass
class Result:
    name: str
    freshness: float  # main window
    age: float  # main window, seconds
    per_minute_freshness: list[float]
    per_minute_age: list[float]
    by_class_freshness: dict[str, float]
    by_class_age: dict[str, float]
    fetches_per_page: dict[str, float]
    requests: int
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "freshness": self.freshness,
            "age": self.age,
            "per_minute_freshness": self.per_minute_freshness,
            "per_minute_age": self.per_minute_age,
            "by_class_freshness": self.by_class_freshness,
            "by_class_age": self.by_class_age,
            "fetches_per_page": self.fetches_per_page,
            "requests": self.requests,
            **self.extra,
        }


def evaluate(
    name: str,
    trace: Trace,
    copies: dict[str, list[tuple[float, int]]],
    window: tuple[float, float],
    minutes: list[tuple[float, float]],
    fetch_counts: dict[str, int],
    requests: int,
) -> Result:
    windows = [window] + minutes
    start = trace.t0
    n = len(trace.pages)
    tot_f = [0.0] * len(windows)
    tot_a = [0.0] * len(windows)
    cls_f = {c: 0.0 for c in RATE_CLASSES}
    cls_a = {c: 0.0 for c in RATE_CLASSES}
    cls_n = {c: 0 for c in RATE_CLASSES}
    cls_fetch = {c: 0 for c in RATE_CLASSES}
    for url, page in trace.pages.items():
        s = integrate_page(page.changes, copies.get(url, []), windows, start)
        for w in range(len(windows)):
            tot_f[w] += s.fresh[w]
            tot_a[w] += s.age[w]
        cls_f[page.cls] += s.fresh[0]
        cls_a[page.cls] += s.age[0]
        cls_n[page.cls] += 1
        cls_fetch[page.cls] += fetch_counts.get(url, 0)
    lens = [b - a for a, b in windows]
    fr = [tot_f[w] / (n * lens[w]) for w in range(len(windows))]
    ag = [tot_a[w] / (n * lens[w]) for w in range(len(windows))]
    wl = lens[0]
    return Result(
        name=name,
        freshness=fr[0],
        age=ag[0],
        per_minute_freshness=fr[1:],
        per_minute_age=ag[1:],
        by_class_freshness={c: cls_f[c] / (cls_n[c] * wl) for c in RATE_CLASSES if cls_n[c]},
        by_class_age={c: cls_a[c] / (cls_n[c] * wl) for c in RATE_CLASSES if cls_n[c]},
        fetches_per_page={c: cls_fetch[c] / cls_n[c] for c in RATE_CLASSES if cls_n[c]},
        requests=requests,
    )


# -- the project's copies from the log -----------------------------------------------------------
def project_copies(trace: Trace, log: list[dict], t_end: float) -> tuple[dict, dict, dict]:
    """copies per page, page fetch counts in [t0, t_end], and log statistics."""
    t0 = trace.t0
    copies: dict[str, list[tuple[float, int]]] = {u: [] for u in trace.pages}
    received: dict[str, set[int]] = {u: set() for u in trace.pages}
    counts: dict[str, int] = {}
    stats = {
        "requests": 0,
        "page_requests": 0,
        "page_200": 0,
        "page_304": 0,
        "conditional": 0,
        "hidden_by_304": 0,
        "feed_requests": 0,
        "sitemap_requests": 0,
        "robots_requests": 0,
        "other_requests": 0,
        "request_times": [],
        "bytes": 0,
    }
    for r in log:
        url, t = r["url"], r["t"]
        in_run = t0 <= t <= t_end
        if in_run:
            stats["requests"] += 1
            stats["request_times"].append(t)
            stats["bytes"] += r.get("bytes", 0)
        if url in trace.pages and r["status"] in (200, 304) and r.get("version") is not None:
            v = r["version"]
            if r["status"] == 200:
                received[url].add(v)
                copies[url].append((t, v))
            elif v in received[url]:
                copies[url].append((t, v))
            elif in_run:
                stats["hidden_by_304"] += 1
            if in_run:
                counts[url] = counts.get(url, 0) + 1
                stats["page_requests"] += 1
                stats["page_200" if r["status"] == 200 else "page_304"] += 1
                if r.get("inm") or r.get("ims"):
                    stats["conditional"] += 1
        elif in_run:
            path = url.split("/", 3)[-1] if url.startswith("http://") else url
            if path.startswith("feed") or path.startswith("rss"):
                stats["feed_requests"] += 1
            elif path.startswith("sitemap"):
                stats["sitemap_requests"] += 1
            elif path == "robots.txt":
                stats["robots_requests"] += 1
            else:
                stats["other_requests"] += 1
    return copies, counts, stats


# -- baselines -----------------------------------------------------------------------------------
def replay(trace: Trace, times: list[float], chooser) -> tuple[dict, dict]:
    copies: dict[str, list[tuple[float, int]]] = {u: [] for u in trace.pages}
    counts: dict[str, int] = {}
    for t in times:
        url = chooser(t)
        if url is None:
            continue
        copies[url].append((t, version_at(trace.pages[url].changes, t)))
        counts[url] = counts.get(url, 0) + 1
    return copies, counts


def uniform_chooser(order: list[str]):
    state = {"i": 0}

    def choose(t: float) -> str:
        url = order[state["i"] % len(order)]
        state["i"] += 1
        return url

    return choose


def _freshness_marginal(rate: float, f: float) -> float:
    """dF/df for F(f) = (f/rate)(1 - exp(-rate/f))."""
    r = rate / f
    if r > 700:
        return 1.0 / rate
    return (1.0 - math.exp(-r) * (1.0 + r)) / rate


def _age_marginal(rate: float, f: float) -> float:
    """-dA/df, A(I) = I/2 - 1/rate + (1 - exp(-rate I))/(rate^2 I) the time-averaged age
    of a page revisited every I = 1/f seconds."""
    interval = 1.0 / f
    x = rate * interval
    if x < 1e-4:
        dadi = x / 3.0
    else:
        dadi = 0.5 - (1.0 - math.exp(-x)) / (x * x) + math.exp(-x) / x
    return dadi * interval * interval


def _solve_f(marginal, rate: float, mu: float, f_max: float) -> float:
    """The f with marginal(rate, f) = mu (marginal decreasing in f); 0 if even f->0 is below mu."""
    lo, hi = 1e-12, f_max
    if marginal(rate, lo) <= mu:
        return 0.0
    if marginal(rate, hi) >= mu:
        return hi
    for _ in range(80):
        mid = math.sqrt(lo * hi)
        if marginal(rate, mid) > mu:
            lo = mid
        else:
            hi = mid
    return math.sqrt(lo * hi)


def optimal_frequencies(rates: dict[str, float], budget: float, objective: str) -> dict[str, float]:
    """Revisit frequency (per second) of each page maximising mean freshness (or minimising mean
    age) under sum f = budget, for Poisson change rates (Cho and Garcia-Molina)."""
    marginal = _freshness_marginal if objective == "freshness" else _age_marginal
    active = {u: r for u, r in rates.items() if r > 0}
    if not active or budget <= 0:
        return {u: 0.0 for u in rates}
    f_max = budget

    def total(mu: float) -> float:
        return sum(_solve_f(marginal, r, mu, f_max) for r in active.values())

    lo, hi = 1e-12, 1e12
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if total(mid) > budget:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1 + 1e-9:
            break
    mu = hi
    out = {u: 0.0 for u in rates}
    for u, r in active.items():
        out[u] = _solve_f(marginal, r, mu, f_max)
    s = sum(out.values())
    if s > 0:
        out = {u: f * budget / s for u, f in out.items()}
    return out


def periodic_chooser(freqs: dict[str, float], t0: float, seed: int):
    """Each page with f > 0 revisited every 1/f seconds, staggered phases; at each request the
    earliest-due page is fetched (work-conserving: every request is used)."""
    rnd = random.Random(seed)
    heap = []
    for u in sorted(freqs):
        f = freqs[u]
        if f > 0:
            interval = 1.0 / f
            heap.append((t0 + interval * rnd.random(), u, interval))
    heapq.heapify(heap)

    def choose(t: float) -> str | None:
        if not heap:
            return None
        due, u, interval = heapq.heappop(heap)
        heapq.heappush(heap, (due + interval, u, interval))
        return u

    return choose
