"""Page extraction: title, visible text and links with their attributes.

Plain lxml + w3lib, no Scrapy imports, so it is tested directly. Link attributes follow
the effective-crawler paper, section 5.3:

- visibility: link text bold and italic = 3, bold or italic = 2, else 1 (``<b>``,
  ``<strong>``, ``<i>``, ``<em>`` around or inside the link, and inline CSS
  ``font-weight`` / ``font-style``);
- position: where the link text starts in the page's visible text: first third = 3,
  middle third = 2, last third = 1;
- distance: destination on another host = 5, same host = 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin

import lxml.etree
import lxml.html

from crawler.urls import canonical_url, url_host

# Elements whose text a reader never sees.
_INVISIBLE = frozenset({"script", "style", "noscript", "template", "head", "title"})
_BOLD_TAGS = frozenset({"b", "strong"})
_ITALIC_TAGS = frozenset({"i", "em"})
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)\b", re.I)
_ITALIC_STYLE = re.compile(r"font-style\s*:\s*(italic|oblique)\b", re.I)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class ExtractedLink:
    """One out-link of a page: canonical target URL, anchor text and attributes."""

    url: str
    anchor_text: str
    visibility: int
    position: int
    distance: int


@dataclass(slots=True)
class ExtractedPage:
    title: str = ""
    text: str = ""
    links: list[ExtractedLink] = field(default_factory=list)


def _collapse(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _emphasis(el: lxml.etree._Element) -> tuple[bool, bool]:
    """Whether an element is bold / italic by its tag or inline style."""
    tag = el.tag if isinstance(el.tag, str) else ""
    style = el.get("style") or ""
    bold = tag in _BOLD_TAGS or bool(_BOLD_STYLE.search(style))
    italic = tag in _ITALIC_TAGS or bool(_ITALIC_STYLE.search(style))
    return bold, italic


def link_visibility(link: lxml.etree._Element) -> int:
    """3 if the link text is bold and italic, 2 if one of them, else 1."""
    bold = italic = False
    for el in (*link.iterancestors(), *link.iter()):
        b, i = _emphasis(el)
        bold, italic = bold or b, italic or i
    return 1 + bold + italic


def position_score(offset: int, length: int) -> int:
    """3 for text starting in the first third of the page, 2 the middle, 1 the last."""
    if length <= 0:
        return 3
    ratio = offset / length
    if ratio < 1 / 3:
        return 3
    if ratio < 2 / 3:
        return 2
    return 1


def _parse(html: bytes | str, encoding: str | None) -> lxml.etree._Element | None:
    parser = lxml.html.HTMLParser(encoding=encoding if isinstance(html, bytes) else None)
    try:
        root = lxml.html.fromstring(html, parser=parser)
    except (lxml.etree.ParserError, ValueError):
        return None
    return root


def _visible_text_with_offsets(
    root: lxml.etree._Element,
) -> tuple[str, dict[lxml.etree._Element, int]]:
    """Visible text of the document and the text offset where each link starts."""
    chunks: list[str] = []
    length = 0
    # keyed by the element itself: holding the proxy keeps it identical for root.iter()
    starts: dict[lxml.etree._Element, int] = {}

    def add(text: str | None) -> None:
        nonlocal length
        if text:
            piece = _collapse(text)
            if piece:
                if chunks:
                    chunks.append(" ")
                    length += 1
                chunks.append(piece)
                length += len(piece)

    def walk(el: lxml.etree._Element) -> None:
        tag = el.tag if isinstance(el.tag, str) else None
        if tag is None or tag in _INVISIBLE:
            # comments, processing instructions and invisible elements: keep only the tail
            add(el.tail)
            return
        if tag in ("a", "area"):
            starts[el] = length + (1 if chunks else 0)
        add(el.text)
        for child in el:
            walk(child)
        add(el.tail)

    walk(root)
    return "".join(chunks), starts


def extract_page(
    html: bytes | str,
    page_url: str,
    *,
    encoding: str | None = None,
    anchor_max_chars: int = 500,
) -> ExtractedPage:
    """Extract the title, visible text and out-links of an HTML page.

    Links come from ``<a href>`` and ``<area href>``, resolved against ``<base href>`` and
    the page URL, canonicalised; non-http(s) schemes are dropped. A target linked more
    than once keeps its first occurrence.
    """
    root = _parse(html, encoding)
    if root is None:
        return ExtractedPage()
    title_el = root.find(".//title")
    title = _collapse(title_el.text_content()) if title_el is not None else ""
    body = root.find(".//body")
    text, starts = _visible_text_with_offsets(body if body is not None else root)

    base_url = page_url
    base_el = root.find(".//base[@href]")
    if base_el is not None:
        base_url = urljoin(page_url, base_el.get("href", "").strip())
    page_host = url_host(page_url)
    links: list[ExtractedLink] = []
    seen: set[str] = set()
    for el in root.iter("a", "area"):
        href = el.get("href")
        if not href:
            continue
        try:
            target = canonical_url(urljoin(base_url, href.strip()))
        except ValueError:
            target = None
        if target is None or target in seen:
            continue
        seen.add(target)
        anchor = _collapse(el.text_content() if el.tag == "a" else (el.get("alt") or ""))
        links.append(
            ExtractedLink(
                url=target,
                anchor_text=anchor[:anchor_max_chars],
                visibility=link_visibility(el),
                position=position_score(starts.get(el, 0), len(text)),
                distance=1 if url_host(target) == page_host else 5,
            )
        )
    return ExtractedPage(title=title, text=text, links=links)
