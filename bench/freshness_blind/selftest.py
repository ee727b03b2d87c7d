#!/usr/bin/env python3
"""Checks of the evaluation's own parts (no crawler needed, a few seconds):

    python3 bench/freshness_blind/selftest.py

- the scorer's integration of freshness and age on a hand-computed page;
- Cho and Garcia-Molina's optimal allocation (budget spent, too-fast pages given up for
  freshness, visited for age, never-changing pages never visited);
- the news site over a real socket: 200 with ETag and Last-Modified, 304 for a matching
  If-None-Match and If-Modified-Since, a change after the clock starts alters the body and
  answers the old ETag with 200, the log records it all, the trace is reproducible.
"""

from __future__ import annotations

import email.utils
import json
import math
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import newssite  # noqa: E402
import score  # noqa: E402


def check(cond: bool, what: str) -> None:
    if not cond:
        print(f"FAIL: {what}")
        sys.exit(1)
    print(f"ok: {what}")


def test_integration() -> None:
    s = score.integrate_page(
        [10.0, 20.0], [(15.0, 1)], [(0.0, 30.0), (0.0, 10.0), (10.0, 20.0)], 0.0
    )
    check(
        math.isclose(s.fresh[0], 15.0) and math.isclose(s.age[0], 12.5 + 50.0),
        "freshness 15 s, age integral 62.5 s^2",
    )
    check(
        math.isclose(s.fresh[1], 10.0) and math.isclose(s.age[1], 0.0),
        "first window fresh throughout",
    )
    check(
        math.isclose(s.fresh[2], 5.0) and math.isclose(s.age[2], 12.5),
        "second window: stale 10-15, fresh 15-20",
    )


def test_optimal() -> None:
    rates = {"fast": 1.0, "a": 0.01, "b": 0.002, "never": 0.0}
    f = score.optimal_frequencies(rates, 0.02, "freshness")
    check(
        math.isclose(sum(f.values()), 0.02, rel_tol=1e-6), "freshness allocation spends the budget"
    )
    check(
        f["fast"] == 0.0 and f["never"] == 0.0 and f["a"] > f["b"] > 0,
        f"freshness gives up the fast page: {f}",
    )
    a = score.optimal_frequencies(rates, 0.02, "age")
    check(a["fast"] > 0 and a["never"] == 0.0, f"age visits the fast page: {a}")


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        lines = [
            f"GET {newssite.BASE}{path} HTTP/1.1",
            f"Host: {newssite.HOST}",
            "Connection: close",
        ]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    first, *rest = head.decode("latin-1").split("\r\n")
    hdrs = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in rest)}
    return int(first.split()[1]), hdrs, body


def _control(port: int, what: str) -> dict:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET /__control/{what} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return json.loads(data.partition(b"\r\n\r\n")[2])


def test_server() -> None:
    site = newssite.Site(newssite.MODELS["dev"], 26, 300)
    fast = min((p for p in site.pages.values() if p.rate > 0), key=lambda p: 1 / p.rate)
    never = next(p for p in site.pages.values() if p.rate == 0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        log, trace = Path(tmp) / "req.jsonl", Path(tmp) / "trace.jsonl"
        proc = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "server.py"),
                "--model",
                "dev",
                "--seed",
                "26",
                "--port",
                str(port),
                "--horizon",
                "300",
                "--log",
                str(log),
                "--trace",
                str(trace),
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                try:
                    _control(port, "ping")
                    break
                except OSError:
                    time.sleep(0.05)
            st, h, body = _get(port, fast.path)
            check(
                st == 200 and "etag" in h and "last-modified" in h,
                f"200 with ETag and Last-Modified for {fast.path}",
            )
            st2, h2, _ = _get(port, fast.path, {"If-None-Match": h["etag"]})
            check(
                st2 == 304 and h2["etag"] == h["etag"],
                "304 for a matching If-None-Match while the clock is frozen",
            )
            st3, _, _ = _get(
                port, never.path, {"If-Modified-Since": _get(port, never.path)[1]["last-modified"]}
            )
            check(st3 == 304, "304 for If-Modified-Since equal to Last-Modified")
            _control(port, "start")
            time.sleep(2 + 3 / fast.rate)
            st4, h4, body4 = _get(port, fast.path, {"If-None-Match": h["etag"]})
            check(
                st4 == 200 and h4["etag"] != h["etag"] and body4 != body,
                "a change: new ETag, new body, 200",
            )
            st5, _, _ = _get(port, fast.path, {"If-Modified-Since": h["last-modified"]})
            check(st5 == 200, "If-Modified-Since older than the change: 200")
            st6, _, feed = _get(port, "/feed.xml")
            check(
                st6 == 200 and feed.count(b"<item>") == 30,
                "the feed lists 30 recent article changes",
            )
            st7, _, sm = _get(port, "/sitemap.xml")
            check(
                st7 == 200 and sm.count(b"<lastmod>") == len(site.pages),
                "the sitemap has a lastmod for every page",
            )
            v0 = email.utils.parsedate_to_datetime(h["last-modified"]).strftime(
                "%Y-%m-%dT%H:%M:%SZ"
            )
            entry = f"<loc>{newssite.BASE}{fast.path}</loc><lastmod>{v0}</lastmod>".encode()
            check(entry in sm, "the sitemap lags: regenerated once per compressed day")
            _control(port, "stop")
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
        rows = [json.loads(x) for x in log.read_text().splitlines()]
        check(
            [r["status"] for r in rows if r["url"] == newssite.BASE + fast.path]
            == [200, 304, 200, 200],
            "the log has every request",
        )
        t = score.load_trace(trace)
        check(len(t.pages) == len(site.pages), "the trace lists every page")
        again = newssite.Site(newssite.MODELS["dev"], 26, 300)
        same = all(
            [round(c, 4) for c in again.pages[p].changes]
            == [round(c - t.t0, 4) for c in t.pages[newssite.BASE + p].changes]
            for p in again.pages
        )
        check(same, "the trace is a function of the model and seed")


if __name__ == "__main__":
    test_integration()
    test_optimal()
    test_server()
    print("all checks passed")
