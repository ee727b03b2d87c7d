"""The progress line (its content, the log line off a terminal, the in-place line on one)
and the Prometheus endpoint of a running crawl."""

from __future__ import annotations

import os
import pty
import re
import select
import socket
import subprocess
import urllib.request
from collections import Counter

import pytest

from crawler.reporting.progress import Limits, ProgressSnapshot, eta_seconds, format_progress
from crawler.sandbox.web import SandboxWeb, html_page
from tests.commands import free_port
from tests.conftest import crawl_command
from tests.waiting import poll_until


def snapshot(**kw) -> ProgressSnapshot:
    values = dict(elapsed=125.0, pages=300, responses=320, requests=330, items=310,
                  frontier=1200, duplicates=45, errors=Counter({"http_404": 7, "timeout": 2}),
                  pages_per_second=12.34)
    values.update(kw)
    return ProgressSnapshot(**values)


def test_progress_line() -> None:
    assert format_progress(snapshot(), 65.0) == (
        "2:05 | 300 pages | 12.3 pages/s | 330 requests | frontier 1200 | 45 duplicates | "
        "9 errors (http_404 7, timeout 2) | ETA 1:05")
    line = format_progress(snapshot(errors=Counter(), frontier=None, elapsed=3725), None)
    assert line == ("1:02:05 | 300 pages | 12.3 pages/s | 330 requests | frontier - | "
                    "45 duplicates | 0 errors")


def test_eta_toward_closespider_limits() -> None:
    s = snapshot()
    assert eta_seconds(s, Limits(), 10.0, 10.0) is None
    assert eta_seconds(s, Limits(pages=420), 10.0, 0.0) == 10.0  # 100 responses to go
    assert eta_seconds(s, Limits(items=1310), 0.0, 100.0) == 10.0
    assert eta_seconds(s, Limits(pages=420, seconds=130), 10.0, 0.0) == 5.0  # timeout first
    assert eta_seconds(s, Limits(pages=420), 0.0, 0.0) is None  # no rate yet


def slow_web(pages: int = 12) -> SandboxWeb:
    """Pages that each take 0.3 s: a crawl lasting a few seconds."""
    web = SandboxWeb()
    links = "".join(f'<a href="/p{i}">p{i}</a> ' for i in range(pages))
    web.add_page("http://slow.test/", html_page("Slow", f"<p>{links}</p>"))
    for i in range(pages):
        web.add_page(f"http://slow.test/p{i}", html_page(f"Page {i}", f"<p>text {i}</p>"),
                     delay=0.3)
    web.add_page("http://slow.test/missing-a", b"", status=404)
    web.seeds = ["http://slow.test/"]
    return web


@pytest.mark.slow
def test_progress_log_line_and_metrics_of_a_running_crawl(sandbox, database_url, tmp_path):
    server = sandbox(slow_web())
    port = free_port()
    cmd, env = crawl_command(
        "general", database_url=database_url, workdir=tmp_path, proxy=server.proxy_url,
        args={"seed_urls": "http://slow.test/", "crawl_id": f"metrics-{port}"},
        settings={"PROGRESS_INTERVAL": 0.5, "METRICS_PORT": port,
                  "CONCURRENT_REQUESTS_PER_DOMAIN": 1},
    )
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    def metrics_after_3_pages() -> str | None:
        assert proc.poll() is None, "the crawl ended before its metrics showed 3 pages"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
                body = r.read().decode()
        except OSError:
            return None  # not serving yet
        match = re.search(r'^crawler_pages_total\{crawl_id="[^"]+",spider="general"\} (\S+)$',
                          body, re.M)
        return body if match and float(match.group(1)) >= 3 else None

    try:
        scraped = poll_until(metrics_after_3_pages, timeout=60, interval=0.1,
                             what="3 pages in the crawl's /metrics")
    except AssertionError:
        proc.kill()
        raise
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr[-3000:]
    labels = f'crawl_id="metrics-{port}",spider="general"'
    assert re.search(rf"^crawler_requests_total\{{{labels}\}} \d+\.0$", scraped, re.M)
    assert re.search(rf"^crawler_frontier_size\{{{labels}\}} \d+\.0$", scraped, re.M)
    assert "# TYPE crawler_uncrawled_total counter" in scraped
    lines = [line for line in stderr.splitlines() if "[crawler.extensions.progress]" in line]
    assert len(lines) >= 3
    final = lines[-1].split("progress: ", 1)[1]
    assert re.fullmatch(r"0:0\d \| 13 pages \| [\d.]+ pages/s \| 14 requests \| frontier 0 \| "
                        r"\d+ duplicates \| 0 errors", final), final
    # the endpoint is gone with the crawl
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2)


@pytest.mark.slow
def test_progress_redrawn_in_place_on_a_terminal(sandbox, database_url, tmp_path):
    server = sandbox(slow_web(6))
    cmd, env = crawl_command(
        "general", database_url=database_url, workdir=tmp_path, proxy=server.proxy_url,
        args={"seed_urls": "http://slow.test/", "crawl_id": f"tty-{os.getpid()}"},
        settings={"CONCURRENT_REQUESTS_PER_DOMAIN": 1},
    )
    main, child = pty.openpty()
    proc = subprocess.Popen(cmd, cwd=tmp_path, env={**env, "TERM": "xterm"},
                            stdout=subprocess.DEVNULL, stderr=child)
    os.close(child)
    output = b""
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    proc.wait(timeout=60)
    os.close(main)
    assert proc.returncode == 0
    text = output.decode("utf-8", "replace")
    assert "\x1b[" in text  # cursor movements of the in-place redraw
    assert "[crawler.extensions.progress]" not in text  # no log lines on a terminal
    assert re.search(r"\| 7 pages \| [\d.]+ pages/s \| 8 requests \| frontier 0", text)
    assert "Spider closed (finished)" in text  # the log still scrolls above it


@pytest.mark.slow
def test_unusable_metrics_port_stops_the_crawl_before_fetching(sandbox, run_crawl):
    server = sandbox(slow_web(1))
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        busy = run_crawl(proxy=server.proxy_url, args={"seed_urls": "http://slow.test/"},
                         settings={"METRICS_PORT": port})
    bad = run_crawl(proxy=server.proxy_url, args={"seed_urls": "http://slow.test/"},
                    settings={"METRICS_PORT": 70000})
    for result, error in (
        (busy, f"error: METRICS_PORT {port} on 127.0.0.1 cannot be used: Address already in use"),
        (bad, "error: METRICS_PORT must be in 1-65535, not 70000"),
    ):
        assert result.returncode == 2
        assert [line for line in result.stderr.splitlines() if "rror" in line] == [error]
    assert server.log == []
