"""End-to-end: back-off by answer (issue 30, item 2) on the sandbox server's request log.

Each host answers one URL with 429 or 503 the first time(s) it is asked for: Retry-After
in seconds, as an HTTP date, absent (BACKOFF_DEFAULT_PAUSE), ten years (RETRY_AFTER_MAX),
twice in a row (the pause doubles). No request to the host may start during the pause
after a throttling answer, the URL is fetched after it, and the other hosts go on.
"""

from __future__ import annotations

import re
import threading
import time
from datetime import UTC, datetime
from email.utils import format_datetime

import pytest

from crawler.sandbox import SandboxWeb, html_page
from crawler.sandbox.web import Resource
from tests.politeness.logs import by_host

pytestmark = pytest.mark.slow

DEFAULT_PAUSE = 1.5
MAX_PAUSE = 2.0
SLOP = 0.01  # the server logs a response just before sending it


class FirstAnswers:
    """``/p1`` of a host answers ``status`` with ``headers()`` the first ``times`` times."""

    def __init__(self, name: str, status: int, headers, times: int = 1) -> None:
        self.name, self.status, self.headers, self.times = name, status, headers, times
        self.asked = 0
        self.lock = threading.Lock()
        self.sent: list[dict[str, str]] = []

    def __call__(self, path: str, query: str) -> Resource | None:
        if path != "/p1":
            return None
        body = html_page(f"p1 of {self.name}", '<a href="/p2">p2</a>')
        with self.lock:
            self.asked += 1
            if self.asked <= self.times:
                headers = self.headers()
                self.sent.append(headers)
                return Resource(html_page("busy", "busy"), self.status, headers=headers)
        return Resource(body)


def http_date_in(seconds: float) -> str:
    return format_datetime(datetime.fromtimestamp(time.time() + seconds, UTC), True)


SITES = {
    "one.test": FirstAnswers("one", 503, lambda: {"Retry-After": "1"}),
    "date.test": FirstAnswers("date", 503, lambda: {"Retry-After": http_date_in(2)}),
    "twice.test": FirstAnswers("twice", 503, lambda: {"Retry-After": "1"}, times=2),
    "nohint.test": FirstAnswers("nohint", 429, dict),
    "decade.test": FirstAnswers("decade", 503, lambda: {"Retry-After": str(10 * 365 * 86400)}),
}


def backoff_web() -> SandboxWeb:
    web = SandboxWeb()
    web.add_page(
        "http://portal.test/",
        html_page(
            "Portal", " ".join(f'<a href="http://{h}/">{h}</a>' for h in [*SITES, "free.test"])
        ),
    )
    for host, handler in SITES.items():
        web.add_page(f"http://{host}/", html_page(host, '<a href="/p1">p1</a>'))
        web.add_dynamic(host, "/p1", handler)
        web.add_page(f"http://{host}/p2", html_page(f"{host} p2", ""))
    links = " ".join(f'<a href="/f{i}">f{i}</a>' for i in range(30))
    web.add_page("http://free.test/", html_page("free", links))
    for i in range(30):
        web.add_page(f"http://free.test/f{i}", html_page(f"free {i}", ""), delay=0.3)
    return web


def test_a_throttling_answer_pauses_its_host_for_the_time_asked(sandbox, run_crawl):
    for handler in SITES.values():
        handler.asked = 0
        handler.sent.clear()
    server = sandbox(backoff_web())
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://portal.test/"},
        settings={
            "RETRY_TIMES": 2,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
            "BACKOFF_DEFAULT_PAUSE": DEFAULT_PAUSE,
            "RETRY_AFTER_MAX": MAX_PAUSE,
        },
        timeout=120,
    ).check()
    log = by_host(server)

    # every URL fetched, the throttled ones after their throttling answers
    for host in SITES:
        answers = [(r.path, r.status) for r in log[host]]
        throttled = [(p, s) for p, s in answers if s in (429, 503)]
        assert sorted(answers) == sorted(
            [("/robots.txt", 404), ("/", 200), ("/p1", 200), ("/p2", 200), *throttled]
        ), host
        assert len(throttled) == SITES[host].times, host
    assert len([r for r in log["free.test"] if r.status == 200]) == 31

    def pauses(host: str) -> list[tuple[float, float]]:
        """(end of the throttling answer, earliest start of the host's next request)."""
        records = log[host]
        out = []
        for r in records:
            if r.status in (429, 503):
                later = [s.started for s in records if s.started > r.finished]
                out.append((r.finished, min(later)))
        return out

    expected = {
        "one.test": [1.0],
        "twice.test": [1.0, 2.0],
        "nohint.test": [DEFAULT_PAUSE],
        "decade.test": [MAX_PAUSE],
    }
    for host, asked in expected.items():
        gaps = [start - end for end, start in pauses(host)]
        assert len(gaps) == len(asked), host
        for gap, pause in zip(gaps, asked, strict=True):
            assert gap >= pause - SLOP, (host, gaps)
            assert gap < pause + 1.0, (host, gaps)  # and not much longer
    # an HTTP date: nothing before that time (whole seconds: 1 to 2 s after the answer)
    ((end, start),) = pauses("date.test")
    date = datetime.strptime(
        SITES["date.test"].sent[0]["Retry-After"], "%a, %d %b %Y %H:%M:%S GMT"
    ).replace(tzinfo=UTC)
    assert start >= date.timestamp() - SLOP
    assert start - end < 3.0

    # the other hosts went on meanwhile: free.test was fetched during twice.test's pauses
    for end, start in pauses("twice.test"):
        assert any(end < r.started < start for r in log["free.test"])

    stats = result.stderr
    assert re.search(r"'backoff/paused': 6,", stats), stats[-3000:]
    assert re.search(r"'backoff/capped': 1,", stats)
    assert "Traceback" not in stats
