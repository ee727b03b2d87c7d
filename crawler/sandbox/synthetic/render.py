"""HTML of the synthetic pages: every link form (absolute, root, relative,
protocol-relative), styles, image maps, tables of contents."""

from __future__ import annotations

import html
import posixpath
from collections.abc import Sequence
from random import Random
from urllib.parse import urlsplit

from crawler.sandbox.synthetic.model import Link, Page
from crawler.sandbox.synthetic.text import mutate_word


def _href(page: Page, link: Link, mirrored: set[str]) -> str:
    parts = urlsplit(link.target)
    form = link.form
    if parts.netloc != page.host and form in ("root", "relative"):
        form = "absolute"
    # Mirrored pages only use local links among themselves, so copies stay consistent.
    if page.mirrored and parts.netloc == page.host and link.target not in mirrored:
        form = "absolute"
    path_query = parts.path + (f"?{parts.query}" if parts.query else "")
    if form == "absolute":
        href = link.target
    elif form == "protocol":
        href = f"//{parts.netloc}{path_query}"
    elif form == "root":
        href = path_query
    else:
        base_path = urlsplit(page.base).path if page.base else page.path
        href = posixpath.relpath(parts.path, posixpath.dirname(base_path))
        if href == ".":
            href = "./"
        elif parts.path.endswith("/"):
            href += "/"
        href += f"?{parts.query}" if parts.query else ""
    if link.fragment:
        href += f"#{link.fragment}"
    return html.escape(href)


def _render_link(page: Page, link: Link, mirrored: set[str]) -> str:
    href = _href(page, link, mirrored)
    text = html.escape(link.text)
    style = link.style
    if style == "style-bold":
        return f'<a href="{href}" style="font-weight:bold">{text}</a>'
    if style == "style-italic":
        return f'<a href="{href}" style="font-style:italic">{text}</a>'
    anchor = f'<a href="{href}">{text}</a>'
    if style == "span-bold":
        return f'<span style="font-weight: bold">{anchor}</span>'
    if style == "bi":
        return f"<b><i>{anchor}</i></b>"
    if style:
        return f"<{style}>{anchor}</{style}>"
    return anchor


def render_page(
    page: Page,
    mirrored: set[str],
    *,
    banner: str = "",
    date: str | None = None,
    mutate: Random | None = None,
    mutate_rate: float = 0.03,
) -> bytes:
    def link(item: Link) -> str:
        return _render_link(page, item, mirrored)

    out = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        f"<title>{html.escape(page.title)}</title>\n",
        f'<meta name="description" content="{html.escape(page.title.lower())}">\n',
    ]
    if page.base:
        out.append(f'<base href="{page.base}">\n')
    out.append("</head>\n<body>\n")
    if banner:
        out.append(f'<div class="banner">{banner}</div>\n')
    out.append("<header><nav>" + " | ".join(link(item) for item in page.nav) + "</nav></header>\n")
    out.append(f"<main>\n<h1>{html.escape(page.title)}</h1>\n")
    out.append(f'<p class="byline">Published {date or page.date} by {page.author}</p>\n')
    if page.areas:
        out.append(
            f'<img src="/sitemap.png" usemap="#sitemap" alt="Site map of {page.host}">\n'
            '<map name="sitemap">\n'
        )
        for index, area in enumerate(page.areas):
            coords = f"{index * 100},0,{index * 100 + 99},60"
            out.append(
                f'<area shape="rect" coords="{coords}" href="{_href(page, area, mirrored)}"'
                f' alt="{html.escape(area.text)}">\n'
            )
        out.append("</map>\n")
    if page.toc:
        out.append(
            '<ol class="toc">'
            + "".join(
                f'<li><a href="#sec{i + 1}">{html.escape(h)}</a></li>'
                for i, h in enumerate(page.headings)
            )
            + "</ol>\n"
        )
    for index, tokens in enumerate(page.paragraphs):
        if index % 2 == 0:
            heading = html.escape(page.headings[index // 2])
            out.append(f'<h2 id="sec{index // 2 + 1}">{heading}</h2>\n')
        words = []
        for token in tokens:
            if isinstance(token, Link):
                words.append(link(token))
            elif mutate is not None and mutate.random() < mutate_rate:
                words.append(mutate_word(token, mutate))
            else:
                words.append(token)
        out.append("<p>" + " ".join(words) + "</p>\n")
    if page.listing:
        out.append(
            '<ul class="articles">\n'
            + "".join(f"<li>{link(item)}</li>\n" for item in page.listing)
            + "</ul>\n"
        )
    out.append("</main>\n<footer>")
    out.append(
        f'<a href="mailto:editor@{page.host}">Contact the editors</a> · '
        '<a href="javascript:window.print()">Print this page</a> · '
        '<a href="tel:+15550100">Call us</a> · <a name="bottom">&copy; 2025</a>'
    )
    out.append("</footer>\n</body>\n</html>\n")
    return "".join(out).encode("utf-8")


def simple_page(
    title: str,
    paragraphs: Sequence[str],
    links: Sequence[tuple[str, str]] = (),
    charset: str | None = "utf-8",
) -> str:
    meta = f'<meta charset="{charset}">\n' if charset else ""
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs)
    body += "".join(f'<p><a href="{html.escape(u)}">{html.escape(t)}</a></p>\n' for u, t in links)
    return (
        f"<!DOCTYPE html>\n<html>\n<head>\n{meta}<title>{title}</title>\n</head>\n"
        f"<body>\n<h1>{title}</h1>\n{body}</body>\n</html>\n"
    )
