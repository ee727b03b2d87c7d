"""Sandbox webs for crawl hygiene (docs/politeness.md, docs/dedup.md): dead hosts, a
parameter explosion, a paging site and a mirror reached before its original.

Each builder returns a hand-made :class:`~crawler.sandbox.web.SandboxWeb` whose ground
truth the tests assert exactly.
"""

from __future__ import annotations

import itertools
import random

from crawler.sandbox.synthetic import TOPIC_WORDS
from crawler.sandbox.web import Resource, SandboxWeb, html_page


def _links(*hrefs: str) -> str:
    return " ".join(f'<a href="{href}">{href}</a>' for href in hrefs)


# --- dead hosts -------------------------------------------------------------------------

#: Hosts of :func:`dead_hosts_web` the sandbox does not serve (the connection is dropped).
DROPPED_HOST = "dead.test"
#: A host the "proxy" answers 502 for, whatever the path (an outside host that does not
#: resolve, as a real proxy reports it).
BAD_GATEWAY_HOST = "gateway.test"
#: https only: the proxy refuses the CONNECT tunnel (502).
TUNNEL_HOST = "tls.test"


def dead_hosts_web() -> SandboxWeb:
    """``http://portal.test/`` links 4 URLs of each dead host (plus an https URL of
    dead.test) and ``/more.html``, which links 3 more of each: the queued and the future
    URLs of a dead host. ``http://portal.test/again.html`` (not linked) links one new URL
    of each dead origin, for a resumed crawl."""
    web = SandboxWeb()
    first = [f"http://{DROPPED_HOST}/{n}.html" for n in range(4)]
    first += [f"http://{BAD_GATEWAY_HOST}/{n}.html" for n in range(4)]
    first += [f"https://{TUNNEL_HOST}/{n}.html" for n in range(4)]
    first.append(f"https://{DROPPED_HOST}/secure.html")
    more = [f"http://{host}/more{n}.html" for host in (DROPPED_HOST, BAD_GATEWAY_HOST)
            for n in range(3)]
    more += [f"https://{TUNNEL_HOST}/more{n}.html" for n in range(3)]
    web.add_page("http://portal.test/", html_page("Portal", _links(*first, "/more.html")))
    web.add_page("http://portal.test/more.html", html_page("More", _links(*more)))
    again = [f"http://{DROPPED_HOST}/again.html", f"http://{BAD_GATEWAY_HOST}/again.html",
             f"https://{TUNNEL_HOST}/again.html"]
    web.add_page("http://portal.test/again.html", html_page("Again", _links(*again)))
    web.add_dynamic(
        BAD_GATEWAY_HOST, "/",
        lambda path, query: Resource(html_page("Bad Gateway", "<h1>502</h1>"), status=502),
    )
    return web


# --- parameter explosion and paging -----------------------------------------------------

GALLERY_HOST = "gallery.test"
GALLERIES = 20
#: Four presentation parameters: every combination (2 x 2 x 3 x 4 = 48 views) shows the
#: same gallery.
GALLERY_VIEWS: dict[str, tuple[str, ...]] = {
    "view": ("grid", "list"),
    "sort": ("name", "date"),
    "size": ("s", "m", "l"),
    "theme": ("light", "dark", "contrast", "print"),
}
PAGING_HOST = "paging.test"
PAGING_PAGES = 8


def _words(seed: int, count: int = 220) -> str:
    """A deterministic text of ``count`` words unlike any other seed's."""
    vocabulary = sorted({w for words in TOPIC_WORDS.values() for w in words})
    rng = random.Random(seed)
    return " ".join(rng.choice(vocabulary) for _ in range(count))


def gallery_views() -> list[str]:
    """The 48 query strings, ordered so that each differs from the previous one in every
    parameter where possible (a site's view switcher lists them so)."""
    combos = [dict(zip(GALLERY_VIEWS, values, strict=True))
              for values in itertools.product(*GALLERY_VIEWS.values())]
    ordered = [combos.pop(0)]
    while combos:
        last = ordered[-1]
        best = max(combos, key=lambda c: sum(c[k] != last[k] for k in c))
        combos.remove(best)
        ordered.append(best)
    return ["&".join(f"{k}={v}" for k, v in sorted(c.items())) for c in ordered]


def gallery_url(n: int, view: str | None = None) -> str:
    return f"http://{GALLERY_HOST}/gallery/{n}" + (f"?{view}" if view else "")


def paging_url(page: int, view: str | None = None) -> str:
    query = f"page={page}" + (f"&view={view}" if view else "")
    return f"http://{PAGING_HOST}/list?{query}"


def parameter_web() -> SandboxWeb:
    """A parameter-explosion site and a paging site.

    ``http://gallery.test/`` links each of :data:`GALLERIES` galleries in its default
    view; every gallery page (any query string: the parameters change nothing) links
    its 48 views and the home page. ``http://paging.test/list?page=N`` (N = 1..8) are 8
    distinct pages linked in a chain from ``http://paging.test/``; each also links itself
    in two presentation views (``&view=compact``, ``&view=full``: the same content)."""
    web = SandboxWeb()
    views = gallery_views()
    default = views[0]
    web.add_page(f"http://{GALLERY_HOST}/", html_page("Galleries", _links(
        *(gallery_url(n, default) for n in range(1, GALLERIES + 1)))))
    for n in range(1, GALLERIES + 1):
        body = (f"<h1>Gallery {n}</h1><p>{_words(1000 + n)}</p>"
                + _links(*(gallery_url(n, v) for v in views), "/"))
        web.add_page(gallery_url(n), html_page(f"Gallery {n}", body), any_query=True)
    web.add_page(f"http://{PAGING_HOST}/", html_page("Paging", _links(paging_url(1))))

    def list_page(path: str, query: str) -> Resource | None:
        params = dict(part.split("=", 1) for part in query.split("&") if "=" in part)
        try:
            page = int(params.get("page", "1"))
        except ValueError:
            return None
        if not 1 <= page <= PAGING_PAGES:
            return None
        links = [paging_url(page, "compact"), paging_url(page, "full")]
        if page < PAGING_PAGES:
            links.append(paging_url(page + 1))
        body = f"<h1>Page {page}</h1><p>{_words(2000 + page)}</p>" + _links(*links)
        return Resource(html_page(f"List page {page}", body))

    web.add_dynamic(PAGING_HOST, "/list", list_page)
    return web


# --- a mirror reached before its original -------------------------------------------

ORIGINAL_HOST = "original.test"
MIRROR_HOST = "copy.test"
MIRROR_PAGES = 12
HUB_HOSTS = ("hub1.test", "hub2.test", "hub3.test")


def mirror_web() -> SandboxWeb:
    """``http://copy.test/`` serves an exact copy of ``http://original.test/`` (a home
    page and :data:`MIRROR_PAGES` articles linked in a chain, each page's links pointing
    into its own host). The original is linked from three hub hosts, reached from
    ``http://portal.test/``; the mirror from nowhere but the seed list. Seeded with the
    mirror first, a crawl reaches every mirror page before the original's."""
    web = SandboxWeb()
    for host in (ORIGINAL_HOST, MIRROR_HOST):
        articles = [f"http://{host}/article/{n}.html" for n in range(1, MIRROR_PAGES + 1)]
        web.add_page(f"http://{host}/", html_page(
            "Field notes", f"<p>{_words(3000)}</p>" + _links(*articles[:3])))
        for n, url in enumerate(articles, start=1):
            following = articles[n:n + 2]
            web.add_page(url, html_page(f"Note {n}", f"<p>{_words(3000 + n)}</p>"
                                        + _links(*following, f"http://{host}/")))
    web.add_page("http://portal.test/", html_page("Portal", _links(
        *(f"http://{hub}/" for hub in HUB_HOSTS))))
    for n, hub in enumerate(HUB_HOSTS):
        links = _links(f"http://{ORIGINAL_HOST}/", f"http://{ORIGINAL_HOST}/article/1.html")
        web.add_page(f"http://{hub}/", html_page(f"Hub {hub}", f"<p>{_words(4000 + n)}</p>"
                                                 + links))
    return web
