"""A small sandbox web for the archive and report tests: HTML pages, two pages with the
same bytes, a binary file, a 404."""

from __future__ import annotations

from crawler.sandbox.web import SandboxWeb, html_page

PNG = bytes(range(256)) * 8  # every byte value: the archive must keep them all


def archive_web() -> SandboxWeb:
    web = SandboxWeb()
    links = "".join(
        f'<a href="/{name}">{name}</a> ' for name in ("p1", "p2", "p3", "image.png", "gone")
    )
    web.add_page("http://arch.test/", html_page("Home", f"<p>Start here. {links}</p>"))
    same = html_page("Same page", "<p>These bytes are served at two URLs.</p>")
    web.add_page("http://arch.test/p1", same)
    web.add_page("http://arch.test/p2", same)
    web.add_page("http://arch.test/p3", html_page(
        "Third", "<p>Caf\u00e9 cr\u00e8me, unicode text, and a link <a href='/'>home</a>.</p>"))
    web.add_page("http://arch.test/image.png", PNG, content_type="image/png")
    web.set_robots("arch.test", "User-agent: *\nDisallow: /private\n")
    web.seeds = ["http://arch.test/"]
    return web
