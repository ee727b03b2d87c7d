"""Sandbox webs for crawl hygiene (docs/politeness.md, docs/dedup.md): dead hosts, a
parameter explosion, a paging site and a mirror reached before its original.

Each builder returns a hand-made :class:`~crawler.sandbox.web.SandboxWeb` whose ground
truth the tests assert exactly.
"""

from __future__ import annotations

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
