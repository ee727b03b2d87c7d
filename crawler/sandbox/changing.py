"""A sandbox site whose pages change as Poisson processes with known rates.

Ground truth for the incremental crawler (docs/incremental.md): every page ``/p/NNN`` of
the site has a known change rate (changes per second, from several per minute to one in
hours, and some pages that never change). Its change times are drawn once from the
page's own random stream, so what a page shows at time ``t`` depends only on the seed,
the page and ``t`` (the site's ``clock``: real time in tests, a simulated clock in the
benchmark). Each page serves ``ETag`` (its version) and ``Last-Modified`` (the time of its
last change); the sandbox server answers conditional GETs with 304
(crawler/sandbox/server.py).

Some pages also show a footer with the current minute, as many real pages do: their ETag
changes every minute while their text does not really change (a "boilerplate" change the
crawler must tell from a real one).

Tests may change the site while it is served: :meth:`ChangingSite.touch` adds a change at
the current time, :attr:`ChangingSite.gone` maps a path to the status (404 or 410) it
answers from then on.
"""

from __future__ import annotations

import bisect
import math
import random
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import format_datetime

from crawler.sandbox.web import Resource, SandboxWeb, html_page

# Words of the generated paragraphs (deterministic per page and version).
_WORDS = (
    "river harbour lantern orchard meadow granite violet copper summit canyon willow "
    "thunder ember glacier prairie falcon velvet marble cedar tundra lagoon quartz "
    "beacon saffron timber cobalt juniper basalt monsoon walnut ivory citadel"
).split()


def spread_rates(
    pages: int,
    seed: int,
    *,
    fastest: float = 5.0,
    slowest: float = 6 * 3600.0,
    never_share: float = 0.2,
) -> list[float]:
    """Change rates (per second) of ``pages`` pages: a share ``never_share`` never
    changes; the others have mean intervals log-uniform in [fastest, slowest] seconds."""
    rng = random.Random(f"rates:{seed}")
    rates = []
    for _ in range(pages):
        if rng.random() < never_share:
            rates.append(0.0)
        else:
            mean = math.exp(rng.uniform(math.log(fastest), math.log(slowest)))
            rates.append(1.0 / mean)
    return rates


def http_date(t: float) -> str:
    return format_datetime(datetime.fromtimestamp(t, UTC), usegmt=True)


class ChangingSite:
    """The site's ground truth and its HTTP answers.

    ``rates[i]`` is the change rate of ``/p/{i:03d}``; ``epoch`` is the time the site was
    created (default: the clock's time at construction); every page carries a footer
    with the current minute when ``i % boilerplate_every == 0`` (0 disables). With
    ``sitemap``, robots.txt names ``/sitemap.xml``, which dates every page's last change.
    """

    def __init__(
        self,
        rates: list[float],
        *,
        host: str = "changing.test",
        seed: int = 7,
        clock: Callable[[], float] = time.time,
        epoch: float | None = None,
        boilerplate_every: int = 10,
        paragraph_words: int = 120,
        sitemap: bool = False,
    ) -> None:
        self.rates = list(rates)
        self.sitemap = sitemap
        self.host = host
        self.seed = seed
        self.clock = clock
        self.epoch = clock() if epoch is None else epoch
        self.boilerplate_every = boilerplate_every
        self.paragraph_words = paragraph_words
        self.gone: dict[str, int] = {}
        self._changes: list[list[float]] = [[] for _ in rates]
        self._next: list[float] = []
        self._rngs = [random.Random(f"changes:{seed}:{i}") for i in range(len(rates))]
        for i, rate in enumerate(self.rates):
            self._next.append(self._draw(i, self.epoch) if rate > 0 else math.inf)
        self._lock = threading.Lock()

    # -- ground truth ---------------------------------------------------------------
    def path(self, i: int) -> str:
        return f"/p/{i:03d}"

    def url(self, i: int) -> str:
        return f"http://{self.host}{self.path(i)}"

    @property
    def urls(self) -> list[str]:
        return [self.url(i) for i in range(len(self.rates))]

    def _draw(self, i: int, after: float) -> float:
        return after + self._rngs[i].expovariate(self.rates[i])

    def change_times(self, i: int, until: float) -> list[float]:
        """The change times of page ``i`` up to ``until`` (drawn lazily, never redrawn)."""
        with self._lock:
            changes = self._changes[i]
            while self._next[i] <= until:
                changes.append(self._next[i])
                self._next[i] = self._draw(i, self._next[i])
            end = bisect.bisect_right(changes, until)
            return changes[:end]

    def touch(self, i: int, at: float | None = None) -> None:
        """Add a change of page ``i`` at ``at`` (default: now), e.g. in a test."""
        at = self.clock() if at is None else at
        self.change_times(i, at)
        with self._lock:
            bisect.insort(self._changes[i], at)

    def version(self, i: int, t: float) -> tuple[int, float]:
        """(number of changes, time of the last change or the epoch) of page ``i`` at t."""
        changes = self.change_times(i, t)
        return len(changes), (changes[-1] if changes else self.epoch)

    def next_change_after(self, i: int, t: float) -> float:
        """The first change of page ``i`` strictly after ``t`` (inf if none)."""
        self.change_times(i, t)
        with self._lock:
            changes = self._changes[i]
            at = bisect.bisect_right(changes, t)
            return changes[at] if at < len(changes) else self._next[i]

    # -- HTTP --------------------------------------------------------------------------
    def body(self, i: int, version: int, minute: int | None) -> bytes:
        rng = random.Random(f"text:{self.seed}:{i}:{version}")
        words = " ".join(rng.choice(_WORDS) for _ in range(self.paragraph_words))
        n = len(self.rates)
        links = "".join(
            f'<li><a href="{self.path(j)}">page {j}</a></li>'
            for j in sorted({(i + 1) % n, (i * 7 + 3) % n})
        )
        footer = ""
        if minute is not None:
            stamp = datetime.fromtimestamp(minute * 60, UTC).strftime("%Y-%m-%d %H:%M")
            footer = f"<footer>Page generated on {stamp} UTC</footer>"
        return html_page(f"Page {i}", f"<h1>Page {i}</h1><p>{words}</p><ul>{links}</ul>{footer}")

    def page(self, i: int, t: float | None = None) -> Resource:
        """What page ``i`` answers at time ``t`` (default: now)."""
        t = self.clock() if t is None else t
        version, modified = self.version(i, t)
        boilerplate = self.boilerplate_every and i % self.boilerplate_every == 0
        minute = int(t // 60) if boilerplate else None
        etag = f'"{i}-{version}' + (f"-{minute}" if minute is not None else "") + '"'
        return Resource(
            self.body(i, version, minute),
            headers={"ETag": etag, "Last-Modified": http_date(modified)},
        )

    def home(self) -> Resource:
        links = "".join(
            f'<li><a href="{self.path(i)}">page {i}</a></li>' for i in range(len(self.rates))
        )
        return Resource(html_page("Changing site", f"<ul>{links}</ul>"))

    def sitemap_xml(self, t: float | None = None) -> Resource:
        """Every page with its last change as ``<lastmod>`` (W3C datetime, seconds)."""
        t = self.clock() if t is None else t
        entries = "".join(
            f"<url><loc>{self.url(i)}</loc><lastmod>"
            f"{datetime.fromtimestamp(self.version(i, t)[1], UTC).isoformat(timespec='seconds')}"
            "</lastmod></url>"
            for i in range(len(self.rates))
        )
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
        )
        return Resource(body.encode(), content_type="application/xml")

    def handle(self, path: str, query: str) -> Resource | None:
        if self.sitemap and path == "/sitemap.xml":
            return self.sitemap_xml()
        status = self.gone.get(path)
        if status is not None:
            return Resource(html_page("Gone", f"<h1>{status}</h1>"), status=status)
        if path == "/":
            return self.home()
        if path.startswith("/p/"):
            try:
                i = int(path[3:])
            except ValueError:
                return None
            if 0 <= i < len(self.rates) and path == self.path(i):
                return self.page(i)
        return None

    def add_to(self, web: SandboxWeb) -> str:
        """Serve the site in ``web``; returns its seed URL."""
        web.add_dynamic(self.host, "/", self.handle)
        sitemap = f"Sitemap: http://{self.host}/sitemap.xml\n" if self.sitemap else ""
        web.set_robots(self.host, "User-agent: *\nAllow: /\n" + sitemap)
        return f"http://{self.host}/"
