"""End-to-end on a small web of three sites about events (issue 27, fourth round): a
box office's partners page leads to a theatre linked from nowhere else, and a local
business that names events twice on its home page has a site search whose answer lists
its own pages (its "Events" and "About" pages), not records: that box is not output."""

from __future__ import annotations

import json

import pytest

from crawler.sandbox.web import Resource, SandboxWeb, html_page

pytestmark = pytest.mark.slow

DIRECTORY = "http://www.linkdir.test/"
BOX = "http://www.boxoffice.test/"
THEATRE = "http://www.theatre.test/"
YOGA = "http://www.yoga.test/"
HALL = "http://www.hall.test/"


def _results(host: str, items: list[tuple[str, str]]) -> Resource:
    rows = "".join(
        f'<li class="hit"><a href="{url}">{title}</a> tickets on sale now</li>'
        for url, title in items
    )
    return Resource(html_page("Results", f'<h1>Results</h1><ul class="hits">{rows}</ul>'))


def events_web() -> SandboxWeb:
    web = SandboxWeb()
    web.add_page(
        DIRECTORY,
        html_page(
            "Link directory",
            f'<h1>Sites</h1><p><a href="{BOX}">Box office</a> <a href="{YOGA}">Yoga studio</a>'
            f'<a href="{HALL}">Community hall</a>'
            '<a href="http://www.other.test/">Other</a></p>',
        ),
    )
    web.add_page("http://www.other.test/", html_page("Other", "<p>Gardening tips.</p>"))
    # the box office: its search on the home page, eight news pages, and its partners
    # page last (the same directory), outside the menu, behind a link that names no
    # search: without the site-list words the site ends after two news pages
    news = "".join(f'<a href="/n{n}.html">News {n}</a> ' for n in range(8))
    web.add_page(
        BOX,
        html_page(
            "City box office",
            "<h1>City box office</h1><p>Events and festivals all year: buy tickets for "
            'the events of the season.</p><form action="/find" method="get">'
            '<label for="q">Find events</label><input id="q" name="q" type="text">'
            f'<input type="submit" value="Search"></form><p>{news}</p>'
            '<p><a href="/partners.html">Partners</a></p>',
        ),
    )
    for n in range(8):
        web.add_page(
            f"{BOX}n{n}.html", html_page(f"News {n}", f"<p>Box office news {n}.</p>")
        )
    web.add_page(
        f"{BOX}partners.html",
        html_page(
            "Partners",
            f'<p><a href="{THEATRE}">Theatre Royal</a> <a href="http://www.p2.test/">P2</a> '
            '<a href="http://www.p3.test/">P3</a></p>',
        ),
    )
    web.add_dynamic(
        "www.boxoffice.test",
        "/find",
        lambda path, query: _results(
            "www.boxoffice.test",
            [(f"/event/{n}", f"Jazz night number {n} at the hall") for n in range(3)],
        ),
    )
    # the theatre: on topic, its search one link below home
    web.add_page(
        THEATRE,
        html_page(
            "Theatre Royal",
            "<h1>Theatre Royal</h1><p>Live events, shows and events for families.</p>"
            '<nav><a href="/search.html">Search</a></nav>',
        ),
    )
    web.add_page(
        f"{THEATRE}search.html",
        html_page(
            "Search events",
            '<form action="/results" method="get"><label for="w">Search events</label>'
            '<input id="w" name="what" type="search"><input type="submit" value="Find"></form>',
        ),
    )
    web.add_dynamic(
        "www.theatre.test",
        "/results",
        lambda path, query: _results(
            "www.theatre.test",
            [(f"/show/{n}", f"Comedy show number {n} tonight") for n in range(3)],
        ),
    )
    # a yoga studio: "events" twice on its home page; its site search box lists its own
    # pages, linked from its menu on every page
    menu = '<nav><a href="/events/">Events</a> <a href="/about/">About</a></nav>'
    web.add_page(
        YOGA,
        html_page(
            "Lakeside yoga",
            f"{menu}<h1>Lakeside yoga studio</h1><p>Classes daily; see our events.</p>"
            '<form action="/" method="get" role="search"><input name="s" type="text">'
            '<input type="submit" value="Search"></form>',
        ),
    )
    for path in ("events/", "about/"):
        web.add_page(f"{YOGA}{path}", html_page(path, f"{menu}<p>Our studio {path}</p>"))
    web.add_dynamic(
        "www.yoga.test",
        "/",
        lambda path, query: (
            Resource(
                html_page(
                    "Search",
                    f'{menu}<div class="posts"><article class="post"><h2>'
                    '<a href="/events/">Events at the studio</a></h2><p>Our monthly '
                    'events</p></article><article class="post"><h2><a href="/about/">'
                    "About the studio</a></h2><p>Our team and events</p></article></div>",
                )
            )
            if path == "/" and query.startswith("s=")
            else None
        ),
    )
    # a community hall whose home page names events once (off topic), with two searches
    # whose own words name them: one under /cgi-bin/ (disallowed: refused, no answer),
    # one that lists events: its answer makes the hall on topic, and the refused search
    # is judged again with it
    web.add_page(
        HALL,
        html_page(
            "Community hall",
            "<h1>Community hall</h1><p>Rooms to hire.</p>"
            '<form action="/cgi-bin/find" method="get"><label for="f">Find events</label>'
            '<input id="f" name="q" type="text"><input type="submit" value="Go"></form>'
            '<form action="/listing" method="get"><input name="kw" type="search" '
            'placeholder="e.g. events this week"><input type="submit" value="Look up">'
            "</form>",
        ),
    )
    web.set_robots("www.hall.test", "User-agent: *\nDisallow: /cgi-bin/\n")
    web.add_dynamic(
        "www.hall.test",
        "/listing",
        lambda path, query: _results(
            "www.hall.test",
            [(f"/on/{n}", f"Folk music events night {n} in the main room") for n in range(3)],
        ),
    )
    web.seeds = [DIRECTORY]
    return web


def test_partners_page_and_a_site_search_of_its_own_pages(sandbox, run_crawl, db, tmp_path):
    server = sandbox(events_web())
    output = tmp_path / "forms.jsonl"
    result = run_crawl(
        "smart",
        proxy=server.proxy_url,
        args={"topic": "events", "seed_urls": DIRECTORY},
        settings={
            "SMART_SITE_MAX_PAGES_WITHOUT_FORM": 2,
            "SMART_RESUME_SITES": "none",
            "FEEDS": json.dumps({str(output): {"format": "jsonlines"}}),
        },
    ).check()
    exported = sorted(
        (f["action_url"], f["probe"], f["confirmed"])
        for f in map(json.loads, output.read_text().splitlines())
    )
    # the box office's search and the theatre's (reached through the partners page,
    # taken before the news pages); the hall's two searches (the disallowed one judged
    # again when the other's answer made the hall on topic); not the yoga studio's box
    assert exported == [
        ("http://www.boxoffice.test/find", "confirmed", True),
        ("http://www.hall.test/cgi-bin/find", "robots_disallowed", False),
        ("http://www.hall.test/listing", "confirmed", True),
        ("http://www.theatre.test/results", "confirmed", True),
    ]
    assert not [r for r in server.log if r.path.startswith("/cgi-bin/")]
    # taken with the first news page, right after the home page (two requests of a site
    # in flight; the probe of its search may come in between)
    requested = [r.path for r in server.log if r.host == "www.boxoffice.test"]
    before = requested[: requested.index("/partners.html")]
    assert [p for p in before if p.startswith("/n")] in ([], ["/n0.html"])
    rows = db.execute(
        "SELECT action_url, probe, confirmed, relevant FROM forms WHERE crawl_id = %s "
        "AND site = 'www.yoga.test'",
        (result.crawl_id,),
    ).fetchall()
    assert rows == [("http://www.yoga.test/", "site_pages", False, False)]
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()[0]
    assert stats["smart/probe_results/site_pages"] == 1
