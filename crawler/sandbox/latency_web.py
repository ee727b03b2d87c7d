"""A latency-bound sandbox web for distributed crawls: many hosts, slow answers.

``build_latency_web(hosts=64, pages_per_host=8, delay=0.2)`` makes ``hosts`` hosts
(``h00.lat.test`` ...) of ``pages_per_host`` pages each; every page answers after
``delay`` seconds and links to the next pages of its own host and to the home pages of
a few other hosts, so that a crawl from one seed reaches every page and spends its time
waiting, not parsing: the speed of a crawl is then its number of requests in flight,
which is what adding agents multiplies. Deterministic (no randomness).
"""

from __future__ import annotations

import hashlib

from crawler.sandbox.web import SandboxWeb, html_page

_WORDS = (
    "river stone maple copper lantern orchard harbor violet summit meadow falcon ember "
    "glacier canyon willow thistle beacon cobalt prairie saffron tundra quartz juniper "
    "marble cedar dune fjord lagoon mesa nectar opal pepper quill reef sable tide umber "
    "vale wharf yarrow zephyr basalt cinder delta fern grove heath iris jade kelp loam"
).split()


def _text(host: str, page: int, words: int = 80) -> str:
    """Distinct text for each page (the content-seen test must not merge them)."""
    digest = hashlib.sha256(f"{host}/{page}".encode()).digest() * 3
    return " ".join(_WORDS[b % len(_WORDS)] for b in digest[:words])


def latency_host(i: int) -> str:
    return f"h{i:02d}.lat.test"


def build_latency_web(
    hosts: int = 64,
    pages_per_host: int = 8,
    *,
    delay: float = 0.2,
    cross_links: int = 3,
    robots: str | None = None,
    flat: bool = False,
) -> SandboxWeb:
    """The web; ``web.seeds`` is the first host's home page. ``robots``: a robots.txt
    served by every host (for example with a Crawl-delay). ``flat``: the seed is a portal
    page (``portal.lat.test``) linking every host's home page, and each home page links
    every page of its host, so that all the work is in sight after two fetches and the
    crawl is bound by the requests in flight alone (the speed-up benchmark)."""
    web = SandboxWeb()
    for i in range(hosts):
        host = latency_host(i)
        for p in range(pages_per_host):
            ahead = pages_per_host if flat and p == 0 else min(p + 3, pages_per_host)
            links = [f"http://{host}/p{q}" for q in range(p + 1, ahead)]
            if p == 0:
                links += [f"http://{latency_host((i * 7 + k * 13 + 1) % hosts)}/p0"
                          for k in range(cross_links)]
                links.append(f"http://{latency_host((i + 1) % hosts)}/p0")
            body = "".join(f'<p><a href="{u}">page {u}</a></p>' for u in links)
            text = f"<p>Page {p} of {host}: {_text(host, p)}.</p>{body}"
            web.add_page(f"http://{host}/p{p}", html_page(f"{host} page {p}", text), delay=delay)
        if robots is not None:
            web.set_robots(host, robots)
    web.seeds = [f"http://{latency_host(0)}/p0"]
    if flat:
        homes = "".join(f'<p><a href="http://{latency_host(i)}/p0">{latency_host(i)}</a></p>'
                        for i in range(hosts))
        web.add_page("http://portal.lat.test/", html_page("Portal", homes), delay=delay)
        web.seeds = ["http://portal.lat.test/"]
    return web
