"""Fault pages (errors, slow, binary, broken or odd HTML, a 3 MB page),
query-string and session-id explosions and a host with a 5xx robots.txt,
each linked from a normal article."""

from __future__ import annotations

import struct
import zlib
from random import Random
from urllib.parse import urlsplit

from crawler.sandbox.synthetic.hosts import DEAD_HOST, ROBOTS_5XX_HOST
from crawler.sandbox.synthetic.model import Link, Page, Site
from crawler.sandbox.synthetic.render import simple_page
from crawler.sandbox.synthetic.sites import pick_article
from crawler.sandbox.synthetic.text import insert_link, plain_paragraphs
from crawler.sandbox.web import SandboxWeb, canonical


def _png_bytes() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x80\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


_PDF_BYTES = (
    b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
    b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n"
    b"trailer << /Root 1 0 R >>\n%%EOF\n"
)


def add_faults(web: SandboxWeb, sites: dict[str, Site], rng: Random) -> None:
    """Fault pages, each linked (absolute URL) from a normal article."""
    alpha, news, beta = sites["www.alpha.test"], sites["news.alpha.test"], sites["www.beta.test"]
    gamma, delta = sites["blog.gamma.test"], sites["www.delta.test"]
    epsilon, java = sites["shop.epsilon.test"], sites["www.javadev.test"]
    faults: dict[str, tuple[str, Site]] = {}
    served_as = {key: site.host for key, site in sites.items()}

    def served(url: str) -> str:
        """``url`` on the name its content host is served under (``neutral_urls``)."""
        host = urlsplit(url).netloc
        return url.replace(host, served_as.get(host, host), 1)

    def fault(kind: str, url: str, site: Site, text: str) -> None:
        url = served(url)
        faults[kind] = (url, site)
        insert_link(pick_article(site, rng), Link(url, text, "absolute"), rng)

    fault(
        "not_found",
        "http://www.beta.test/archive/transfer-rumours-2019.html",
        beta,
        "old transfer rumours",
    )
    fault("forbidden", "http://shop.epsilon.test/admin/orders.html", epsilon, "order admin")
    web.add_page(faults["forbidden"][0], simple_page("Forbidden", ["Access denied."]), status=403)
    fault(
        "unavailable", "http://blog.gamma.test/maintenance/status.html", gamma, "maintenance status"
    )
    web.add_page(
        faults["unavailable"][0],
        simple_page("Service Unavailable", ["Back soon."]),
        status=503,
        headers={"Retry-After": "120"},
    )
    fault("slow", "http://www.delta.test/reports/slow-report.html", delta, "yearly report")
    web.add_page(
        faults["slow"][0],
        simple_page(
            "Yearly Travel Report", plain_paragraphs(rng, "travel", 4), [(delta.home.url, "home")]
        ),
        delay=1.5,
    )
    fault("image", "http://shop.epsilon.test/media/product-42.png", epsilon, "product photo")
    web.add_page(faults["image"][0], _png_bytes(), content_type="image/png")
    fault(
        "pdf", "http://news.alpha.test/download/annual-report?id=2025", news, "annual report (PDF)"
    )
    web.add_page(faults["pdf"][0], _PDF_BYTES, content_type="application/pdf")
    fault("text", "http://www.javadev.test/files/release-notes.txt", java, "release notes")
    web.add_page(
        faults["text"][0],
        "Release notes\n\n* faster class loading\n",
        content_type="text/plain; charset=utf-8",
    )

    fault("broken_html", "http://blog.gamma.test/legacy/old-page.html", gamma, "old page")
    broken = (
        b"<html><head><title>Old garden page<body><div><p>Compost <b>and <i>mulch "
        b"<table><tr><td>cell<td>\xff\xfe garbage <<< >>> &&& &nbsp &#xZZ; <p>"
        + f'<a href="{gamma.home.url}">home</a>'.encode()
        + b" </div></span></i> <li>stray <em>end</html>\x00\x01 trailing junk <"
    )
    web.add_page(faults["broken_html"][0], broken)

    fault("windows_1252", "http://www.alpha.test/legacy/cafe-menu.html", alpha, "café menu")
    menu = simple_page(
        "Caf\u00e9 menu \u2013 cr\u00e8me br\u00fbl\u00e9e",
        [
            "\u201cSpecial\u201d of the day: cr\u00e8me br\u00fbl\u00e9e "
            "for 5 \u20ac, pur\u00e9e, jalape\u00f1o na\u00efve fa\u00e7ade."
        ],
        [(alpha.home.url, "home")],
        charset="windows-1252",
    )
    web.add_page(faults["windows_1252"][0], menu.encode("cp1252"), content_type="text/html")

    fault("no_charset", "http://www.delta.test/legacy/plain-page.html", delta, "plain page")
    web.add_page(
        faults["no_charset"][0],
        simple_page(
            "Plain page",
            plain_paragraphs(rng, "travel", 2),
            [(delta.home.url, "home")],
            charset=None,
        ),
        content_type="text/html",
    )

    fault("redirect", "http://www.beta.test/old/home.html", beta, "old home")
    web.add_redirect(faults["redirect"][0], beta.articles[0].url)

    fault("large", "http://news.alpha.test/archive/full-archive.html", news, "full archive")
    chunks = plain_paragraphs(rng, "finance", 150)
    parts = [
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        "<title>Full archive</title></head>\n<body>\n<h1>Full archive</h1>\n"
    ]
    size, index = 0, 0
    while size < 3_000_000:
        target = news.articles[index % len(news.articles)].url
        piece = (
            f"<h2>Entry {index}</h2>\n<p>{chunks[index % len(chunks)]} "
            f'<a href="{target}">entry {index}</a></p>\n'
        )
        parts.append(piece)
        size += len(piece)
        index += 1
    parts.append("</body></html>\n")
    web.add_page(faults["large"][0], "".join(parts))

    # Query-string explosion: 48 parameter combinations of one listing.
    catalog = served("http://shop.epsilon.test/catalog/")
    listing = served("http://shop.epsilon.test/catalog/list.html")
    combos = [
        f"{listing}?sort={s}&view={v}&page={p}"
        for s in ("price", "name", "date", "rating")
        for v in ("grid", "list", "compact")
        for p in (1, 2, 3, 4)
    ]
    web.add_page(
        catalog,
        simple_page(
            "Catalog",
            plain_paragraphs(rng, "photography", 1),
            [(u, f"listing {i}") for i, u in enumerate(combos)],
        ),
    )
    web.add_page(
        listing,
        simple_page(
            "Product list",
            plain_paragraphs(rng, "photography", 3),
            [(epsilon.home.url, "shop home")],
        ),
        any_query=True,
    )
    insert_link(epsilon.home, Link(catalog, "catalog", "absolute"), rng)
    faults["query_explosion"] = (listing, epsilon)

    # Session ids in URLs: distinct URLs, identical content.
    login = served("http://www.javadev.test/account/login")
    web.add_page(
        login,
        simple_page("Sign in", ["Sign in to comment on tutorials."], [(java.home.url, "home")]),
        any_query=True,
    )
    used: list[Page] = []
    for _ in range(5):
        page = pick_article(java, rng, tuple(used))
        used.append(page)
        token = f"{rng.getrandbits(64):016x}"
        jsession = f"{login};jsessionid={token.upper()}"
        web.add_page(jsession, web.resource(login).body)  # type: ignore[union-attr]
        for variant in (f"{login}?sid={token}", jsession, f"{login}?PHPSESSID={token[::-1]}"):
            insert_link(page, Link(variant, "sign in", "absolute"), rng)
    faults["session_id"] = (login, java)

    fault("dead_host", f"http://{DEAD_HOST}/", delta, "a site that is gone")
    fault("robots_5xx", f"http://{ROBOTS_5XX_HOST}/", delta, "old travel site")
    old_pages = [f"http://{ROBOTS_5XX_HOST}/archive/{i}.html" for i in range(1, 4)]
    web.add_page(
        faults["robots_5xx"][0],
        simple_page(
            "Old travel site", plain_paragraphs(rng, "travel", 2), [(u, u) for u in old_pages]
        ),
    )
    for url in old_pages:
        web.add_page(url, simple_page("Old travel story", plain_paragraphs(rng, "travel", 3)))
    web.host_topics[ROBOTS_5XX_HOST] = "travel"

    for kind, (url, site) in faults.items():
        web.faults[kind] = canonical(url)
        found = web.resource(url)
        if found is not None and found.status == 200 and found.is_html:
            web.topics.setdefault(canonical(url), site.topic)
    for url in (catalog, listing):
        web.topics[canonical(url)] = epsilon.topic
    for url in old_pages:
        web.topics[canonical(url)] = "travel"
