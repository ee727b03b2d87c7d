"""End-to-end: no host stops being crawled while it has URLs queued (issue 31).

Real crawls against the sandbox server on 127.0.0.1, the request log read back:

- every way a request leaves the downloader without a response (a 503 retried by
  Scrapy's RetryMiddleware, a download timeout, IgnoreRequest from the robots.txt
  middleware, a redirect to a URL already seen that the frontier drops) on a host at a
  per-host concurrency of 1, where one request counted in flight for ever would stop the
  host: every URL is requested exactly as often as expected;
- the issue's site in small: pages answering 503 the first time, four requests at a
  time, a per-host buffer of 3 (a refill excludes the host at almost every round);
- a scheduler with a known accounting fault (tests/frontier/stall_faults.py): the stall
  is reported (WARNING line, ``frontier/stalls``, the progress line).
"""

from __future__ import annotations

import re
import threading
from collections import Counter

import pytest

from crawler.sandbox import SandboxWeb, html_page
from crawler.sandbox.web import Resource
from tests.frontier.stall_faults import GHOST
from tests.waiting import poll_until

pytestmark = pytest.mark.slow


class FirstTime503:
    """Pages of a dynamic site: ``/n<i>`` links to its children; those listed in
    ``busy`` answer 503 (Retry-After: 0) the first time they are asked for."""

    def __init__(self, pages: int, busy: set[int], links=None) -> None:
        self.pages, self.busy = pages, busy
        self.links = links or (lambda i: [c for c in (2 * i + 1, 2 * i + 2) if c < pages])
        self.asked: set[int] = set()
        self.lock = threading.Lock()

    def __call__(self, path: str, query: str) -> Resource | None:
        try:
            i = int(path.removeprefix("/n"))
        except ValueError:
            return None
        if not 0 <= i < self.pages:
            return None
        with self.lock:
            first = i not in self.asked
            self.asked.add(i)
        if first and i in self.busy:
            return Resource(html_page("busy", "busy"), 503, headers={"Retry-After": "0"})
        body = " ".join(f'<a href="/n{c}">n{c}</a>' for c in self.links(i))
        return Resource(html_page(f"page {i}", f"page {i} {body}"))


def stat(stderr: str, name: str) -> int | None:
    found = re.search(rf"'{re.escape(name)}': (\d+),", stderr)
    return int(found.group(1)) if found else None


def paths_web() -> SandboxWeb:
    web = SandboxWeb()
    h = "http://paths.test"
    web.set_robots("paths.test", "User-agent: *\nDisallow: /private/\n")
    links = ["/p0", "/p1", "/p2", "/p3", "/p4", "/busy", "/slow", "/private/x", "/moved", "/gone"]
    web.add_page(f"{h}/", html_page("paths", " ".join(f'<a href="{u}">{u}</a>' for u in links)))
    for i in range(4):
        web.add_page(f"{h}/p{i}", html_page(f"p{i}", f"page p{i}"))
    web.add_page(f"{h}/p4", html_page("p4", '<a href="/r0">r0</a> <a href="/r1">r1</a>'))
    for name in ("r0", "r1", "q0", "q1", "q2"):
        web.add_page(f"{h}/{name}", html_page(name, f"page {name}"))
    asked = set()

    def busy(path: str, query: str) -> Resource | None:
        if path != "/busy":
            return None
        if path not in asked:
            asked.add(path)
            return Resource(html_page("busy", "busy"), 503, headers={"Retry-After": "0"})
        return Resource(html_page("busy", " ".join(f'<a href="/q{i}">q</a>' for i in range(3))))

    web.add_dynamic("paths.test", "/busy", busy)
    web.add_page(f"{h}/slow", html_page("slow", "slow"), delay=1.5)
    web.add_page(f"{h}/private/x", html_page("private", "private"))
    web.add_redirect(f"{h}/moved", "/p1", status=302)
    web.add_page(f"{h}/gone", html_page("gone", "gone"), status=404)
    return web


def test_every_way_out_of_the_downloader_frees_the_hosts_place(sandbox, run_crawl):
    server = sandbox(paths_web())
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://paths.test/"},
        settings={
            "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
            "RETRY_TIMES": 1,
            "DOWNLOAD_TIMEOUT": 1,
            "CLOSESPIDER_TIMEOUT": 60,
        },
        timeout=120,
    ).check()
    # the sandbox logs /slow when it answers (1.5 s after it was asked), which the second
    # ask's answer may do after the crawl has exited: wait for it, not for a guessed time
    poll_until(
        lambda: len([r for r in server.requests_for("paths.test") if r.path == "/slow"]) >= 2,
        timeout=5,
        what="the answer to the second ask of /slow",
    )
    requests = Counter((r.path, r.status) for r in server.requests_for("paths.test"))
    assert requests == Counter(
        {
            ("/robots.txt", 200): 1,
            ("/", 200): 1,
            **{(f"/p{i}", 200): 1 for i in range(5)},  # /p1 once: the redirect's copy dropped
            ("/busy", 503): 1,
            ("/busy", 200): 1,  # retried through RetryMiddleware
            **{(f"/q{i}", 200): 1 for i in range(3)},  # found on the retried page
            ("/slow", 200): 2,  # timed out twice (the server answers after the client gave up)
            ("/moved", 302): 1,
            ("/gone", 404): 1,
            ("/r0", 200): 1,
            ("/r1", 200): 1,
        }
    )  # /private/x: refused by the robots.txt middleware (IgnoreRequest), never asked
    assert "finish_reason': 'finished'" in result.stderr
    assert stat(result.stderr, "frontier/stalls") is None  # set once a stall happens
    assert not re.search(r"\bstall", result.stderr.replace("frontier/stall", ""))


def test_a_host_answering_503_first_is_crawled_to_its_last_page(sandbox, run_crawl):
    pages = 120
    handler = FirstTime503(
        pages,
        busy=set(range(3, pages, 5)),
        links=lambda i: [c for c in (2 * i + 1, 2 * i + 2, (7 * i + 3) % pages) if c < pages],
    )
    web = SandboxWeb()
    web.add_dynamic("docs.test", "/n", handler)
    server = sandbox(web)
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://docs.test/n0", "allowed_domains": "docs.test"},
        settings={
            "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
            "DEPTH_LIMIT": 0,
            "FRONTIER_BUFFER_PER_HOST": 3,
            "FRONTIER_FLUSH_INTERVAL": 0.05,
            "CLOSESPIDER_TIMEOUT": 60,
        },
        timeout=120,
    ).check()
    requests = Counter((r.path, r.status) for r in server.requests_for("docs.test"))
    expected = Counter({(f"/n{i}", 200): 1 for i in range(pages)})
    expected.update({(f"/n{i}", 503): 1 for i in handler.busy})
    expected[("/robots.txt", 404)] = 1
    assert requests == expected
    assert "finish_reason': 'finished'" in result.stderr
    assert stat(result.stderr, "frontier/stalls") is None  # set once a stall happens


def test_a_host_counted_busy_with_nothing_in_flight_is_reported_as_a_stall(sandbox, run_crawl):
    web = SandboxWeb()
    for host in (GHOST, "ok.test"):
        links = " ".join(f'<a href="/p{i}">p{i}</a>' for i in range(4))
        web.add_page(f"http://{host}/", html_page(host, links))
        for i in range(4):
            web.add_page(f"http://{host}/p{i}", html_page(f"{host} {i}", f"{host} page {i}"))
    web.add_page(
        "http://portal.test/",
        html_page("portal", f'<a href="http://{GHOST}/">g</a> <a href="http://ok.test/">o</a>'),
    )
    server = sandbox(web)
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://portal.test/"},
        settings={
            "SCHEDULER": "tests.frontier.stall_faults.PhantomInFlightScheduler",
            "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
            "DOWNLOAD_TIMEOUT": 1,
            "FRONTIER_STALL_CHECK_INTERVAL": 0.2,
            "PROGRESS_INTERVAL": 0.5,
            "CLOSESPIDER_TIMEOUT": 5,
        },
        timeout=60,
    ).check()
    # the other host was crawled; ghost.test only its first page
    assert {r.path for r in server.requests_for("ok.test")} == {
        "/robots.txt",
        "/",
        "/p0",
        "/p1",
        "/p2",
        "/p3",
    }
    assert {r.path for r in server.requests_for(GHOST)} == {"/robots.txt", "/"}
    warnings = re.findall(r"WARNING: frontier: stall: (.*)", result.stderr)
    assert len(warnings) == 1, result.stderr[-4000:]
    assert warnings[0].startswith(
        f"host {GHOST} has 4 URLs waiting in the buffer and no request in flight for "
    )
    assert "allowed 1.0 s: delay 0.00 s + DOWNLOAD_TIMEOUT 1 s" in warnings[0]
    assert "in flight 0, readiness busy" in warnings[0]
    assert stat(result.stderr, "frontier/stalls") == 1
    assert f"| STALLED 1 ({GHOST}) |" in result.stderr
