"""Page extraction: title, visible text and links with their attributes.

Plain lxml + w3lib, no Scrapy imports, so it is tested directly. The tree is built by
lxml.etree's HTML parser, not lxml.html's: lxml.html picks each element's Python class
through a Python callback, called for every element any iteration touches (itertext walks
them all), which was a fifth of the extraction's CPU; the few lxml.html helpers used here
(fromstring's choice of root, text_content, drop_tree) are the small functions below.

Link attributes follow the effective-crawler paper, section 5.3:

- visibility: link text bold and italic = 3, bold or italic = 2, else 1 (``<b>``,
  ``<strong>``, ``<i>``, ``<em>`` around or inside the link, and inline CSS
  ``font-weight`` / ``font-style``);
- position: where the link text starts in the page's visible text: first third = 3,
  middle third = 2, last third = 1;
- distance: destination on another host = 5, same host = 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import lxml.etree

from crawler import defaults
from crawler.content import NAVIGATION_SELECTORS
from crawler.urls import canonical_url, url_host

# Elements whose text a reader never sees.
_INVISIBLE = frozenset({"script", "style", "noscript", "template", "head", "title"})
# Elements whose URL attribute is a link of the page: frames are the pages a frameset
# shows (a manual's contents and cover pages), as Nutch and Heritrix follow them.
_LINK_TAGS = ("a", "area", "frame", "iframe")
_SRC_TAGS = frozenset({"frame", "iframe"})
_BOLD_TAGS = frozenset({"b", "strong"})
_ITALIC_TAGS = frozenset({"i", "em"})
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)\b", re.I)
_ITALIC_STYLE = re.compile(r"font-style\s*:\s*(italic|oblique)\b", re.I)


@dataclass(frozen=True, slots=True)
class ExtractedLink:
    """One out-link of a page: canonical target URL, anchor text and attributes."""

    url: str
    anchor_text: str
    visibility: int
    position: int
    distance: int
    # the words around the link in its list item, table row, definition or paragraph
    # (link_context), without the anchor text: what the linking page says the target is
    context: str = ""


@dataclass(slots=True)
class ExtractedPage:
    title: str = ""
    text: str = ""
    links: list[ExtractedLink] = field(default_factory=list)
    canonical: str | None = None  # <link rel="canonical" href>, canonicalised
    # the names the page defines (``extract_page(..., names=True)``; see defined_names)
    names: list[str] = field(default_factory=list)


def _collapse(text: str) -> str:
    # str.split() splits on exactly the characters re's \s matches (str.isspace), and
    # is about twice as fast as _SPACES.sub(" ", text).strip()
    return " ".join(text.split())


def _emphasis(el: lxml.etree._Element) -> tuple[bool, bool]:
    """Whether an element is bold / italic by its tag or inline style."""
    tag = el.tag if isinstance(el.tag, str) else ""
    style = el.get("style") or ""
    bold = tag in _BOLD_TAGS or bool(_BOLD_STYLE.search(style))
    italic = tag in _ITALIC_TAGS or bool(_ITALIC_STYLE.search(style))
    return bold, italic


# Elements around or inside a link that may make it bold or italic (checked in Python).
_EMPHASIS_CANDIDATES = lxml.etree.XPath(
    "ancestor-or-self::*[self::b or self::strong or self::i or self::em or @style]"
    " | descendant::*[self::b or self::strong or self::i or self::em or @style]"
)


def link_visibility(link: lxml.etree._Element) -> int:
    """3 if the link text is bold and italic, 2 if one of them, else 1."""
    bold = italic = False
    for el in _EMPHASIS_CANDIDATES(link):
        b, i = _emphasis(el)
        bold, italic = bold or b, italic or i
    return 1 + bold + italic


# Any element that may make a link bold or italic: a tag of _BOLD_TAGS or _ITALIC_TAGS,
# or an inline style (whose words _emphasis reads).
_EMPHASIS_ELEMENTS = lxml.etree.XPath(
    "//*[self::b or self::strong or self::i or self::em or @style]"
)


# (measured: pages of 60-150 links have about 1,000 elements: per link 0.62 ms, page-wide
# 1.32; pages of 150 links and more: 3.97 against 1.11 ms)
PAGE_WIDE_VISIBILITY_LINKS = 150


def link_visibilities(root: lxml.etree._Element, links: list[lxml.etree._Element]) -> list[int]:
    """``link_visibility`` of each of ``links`` (elements of the tree ``root``), found
    from the page's emphasis elements rather than link by link: a link is bold when a
    bold element is the link, holds it, or is inside it. One XPath per page instead of
    one per link (a documentation index has thousands of links and few emphasis
    elements). The page-wide XPath costs about 0.6 µs per element of the page, the
    per-link one 6.7 µs per link (Debian documentation pages, 2026-11-27): below
    PAGE_WIDE_VISIBILITY_LINKS links the per-link way is cheaper."""
    if len(links) < PAGE_WIDE_VISIBILITY_LINKS:
        return [link_visibility(el) for el in links]
    index = {id(el): i for i, el in enumerate(links)}
    bold = [False] * len(links)
    italic = [False] * len(links)
    for element in _EMPHASIS_ELEMENTS(root):
        b, i = _emphasis(element)
        if not (b or i):
            continue
        # the links of its subtree (itself included), and the links it is inside of
        for link in (*element.iter(*_LINK_TAGS), *element.iterancestors(*_LINK_TAGS)):
            k = index.get(id(link))
            if k is not None:
                bold[k] = bold[k] or b
                italic[k] = italic[k] or i
    return [1 + b + i for b, i in zip(bold, italic, strict=True)]


class LinkResolver:
    """``canonical_url(urljoin(base, href))`` for the links of one page, remembered
    across pages by the base URL's directory: pages of a site repeat their menus' relative
    links, and ``urljoin`` was a fifth of a page's analysis (docs/performance.md). A
    relative path resolves alike against every base URL of one directory (scheme, host,
    path up to its last '/'); a query, parameters or an empty href need the whole base."""

    def __init__(self, max_entries: int = 100_000) -> None:
        self.max_entries = max_entries
        self._resolved: dict[tuple[str, str], str | None] = {}

    def resolver(self, base_url: str) -> Callable[[str], str | None]:
        try:
            parts = urlsplit(base_url)
        except ValueError:
            parts = None
        directory = (
            f"{parts.scheme}://{parts.netloc}{parts.path[: parts.path.rfind('/') + 1] or '/'}"
            if parts is not None and parts.scheme and parts.netloc
            else None
        )
        resolved = self._resolved

        def resolve(href: str) -> str | None:
            whole_base = directory is None or not href or href[0] in "?;"
            key = (base_url if whole_base else directory, href)
            try:
                return resolved[key]
            except KeyError:
                pass
            try:
                target = canonical_url(urljoin(base_url, href))
            except ValueError:
                target = None
            if len(resolved) >= self.max_entries:
                resolved.clear()
            resolved[key] = target
            return target

        return resolve


_resolver = LinkResolver()


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


_LOOKS_LIKE_FULL_HTML_BYTES = re.compile(rb"^\s*<(?:html|!doctype)", re.I).match
_LOOKS_LIKE_FULL_HTML_TEXT = re.compile(r"^\s*<(?:html|!doctype)", re.I).match
_XHTML = "{http://www.w3.org/1999/xhtml}"
_text_content = lxml.etree.XPath("string()", smart_strings=False)  # lxml.html's text_content


def _drop_tree(el: lxml.etree._Element) -> None:
    """Remove ``el`` and its subtree, keeping its tail text (lxml.html's drop_tree)."""
    parent = el.getparent()
    assert parent is not None
    if el.tail:
        previous = el.getprevious()
        if previous is None:
            parent.text = (parent.text or "") + el.tail
        else:
            previous.tail = (previous.tail or "") + el.tail
    parent.remove(el)


def _anchor_text(el: lxml.etree._Element) -> str:
    """A link's words: a link's text, an image map area's alt, a frame's title."""
    if el.tag == "a":
        return _text_content(el)
    return el.get("alt" if el.tag == "area" else "title") or ""


def _expand_noframes(root: lxml.etree._Element) -> None:
    """libxml2 keeps the content of ``<noframes>`` as raw text (markup included): parse
    it, so that its links are links and its words text (a frameset's only content)."""
    for el in list(root.iter("noframes")):
        raw = el.text
        if not raw or "<" not in raw:
            continue
        doc = lxml.etree.fromstring(
            f"<html><body><div>{raw}</div></body></html>", lxml.etree.HTMLParser()
        )
        container = doc.find("body/div") if doc is not None else None
        if container is None:
            continue
        el.text = container.text
        el.extend(list(container))


def _parse(html: bytes | str, encoding: str | None) -> lxml.etree._Element | None:
    """The element lxml.html.fromstring would return, built by lxml.etree's parser:
    the document, or for a fragment (no <html>/<!doctype> first, no head) its body's
    only element, else the body."""
    if isinstance(html, bytes):
        parser = lxml.etree.HTMLParser(encoding=encoding)
        full = _LOOKS_LIKE_FULL_HTML_BYTES(html)
    else:
        parser = lxml.etree.HTMLParser()
        full = _LOOKS_LIKE_FULL_HTML_TEXT(html)
    try:
        doc = lxml.etree.fromstring(html, parser)
    except (lxml.etree.ParserError, ValueError):
        return None
    if doc is None or full:
        return doc
    bodies = doc.findall("body") or doc.findall(_XHTML + "body")
    body = bodies[0] if bodies else None
    for other in bodies[1:]:  # several bodies: merged into the first
        assert body is not None
        if other.text:
            if len(body):
                body[-1].tail = (body[-1].tail or "") + other.text
            else:
                body.text = (body.text or "") + other.text
        body.extend(other)
        _drop_tree(other)
    heads = doc.findall("head") or doc.findall(_XHTML + "head")
    if heads:
        for other in heads[1:]:
            heads[0].extend(other)
            _drop_tree(other)
        return doc
    if body is None:
        return doc
    if (
        len(body) == 1
        and (not body.text or not body.text.strip())
        and (not body[-1].tail or not body[-1].tail.strip())
    ):
        return body[0]
    # lxml.html renames this body to div or span; no tag name of it is looked at here
    return body


#: Names kept per page, and characters per name (a signature is cut, its name first):
#: 128 keep every name of 517 of python3.11-doc's 530 pages (the ninth round's 300 was
#: one page's count, stdtypes.html); docs/search.md, tenth round.
MAX_NAMES = 128
MAX_NAME_CHARS = 100
#: Elements read for names at most (empty anchors and repeats are skipped): a page of
#: thousands of anchors costs no more than this many text reads.
MAX_NAME_ELEMENTS = 4 * MAX_NAMES
#: Permalink signs after a name (Sphinx's "¶" closes every dt) and around it.
_NAME_TRIM = "¶#§ \t\n"


def _inside(el: lxml.etree._Element, ancestor: lxml.etree._Element, levels: int = 4) -> bool:
    """Whether ``ancestor`` is one of the ``levels`` nearest ancestors of ``el``."""
    parent = el.getparent()
    while parent is not None and levels:
        if parent is ancestor:
            return True
        parent = parent.getparent()
        levels -= 1
    return False


def defined_names(elements: list[lxml.etree._Element | None]) -> list[str]:
    """The names a page defines, from the elements that mark them, each once, in page
    order, at most MAX_NAMES: the terms of its definition lists (``<dt>``: Sphinx's
    signatures, DocBook's variable lists; not a term that links to another page) and the
    texts of its anchors that are no link
    (``<a id>``, ``<a name>``: Haddock's definitions). A reference page titled by its
    module or section names there what it documents, which neither its title nor its
    headings say. Not its links to its own places (``<a href="#...">``): a gtk-doc page's
    "Top | Description | Properties | Signals" bar and its summary tables put the same
    common words in every class page's names (docs/search.md, ninth round)."""
    found: dict[str, None] = {}
    for el in elements:
        if el is None:  # a term dropped by the walk
            continue
        text = _text_content(el)
        if not text:
            continue
        name = " ".join(text.split()).strip(_NAME_TRIM)[:MAX_NAME_CHARS]
        if name and name not in found and any(c.isalnum() for c in name):
            found[name] = None
            if len(found) >= MAX_NAMES:
                break
    return list(found)


#: Elements whose text is a link's context (link_context): a list item, a definition's
#: term or description, a table row (a cell is taken up to its row), a paragraph.
_CONTEXT_BLOCKS = frozenset({"li", "dt", "dd", "tr", "p", "caption", "figcaption"})
_CONTEXT_CELLS = frozenset({"td", "th"})
#: Ancestors looked at for the block, at most (a link in a div or a pre has none).
CONTEXT_LEVELS = 6
#: Elements inside a block whose text is not the link's context: a nested list or
#: table (a table of contents' item holding its sub-items), invisible text.
_CONTEXT_SKIP = frozenset(
    {"ul", "ol", "dl", "table", "script", "style", "noscript", "template"}
)
#: Words of context kept before and after the link (the anchor window).
CONTEXT_WORDS_BEFORE = 12
CONTEXT_WORDS_AFTER = 24
#: Link elements looked at for contexts per page, at most (an index of thousands).
MAX_CONTEXT_LINKS = 2000
#: The navigation blocks of crawler.content.NAVIGATION_SELECTORS (ARIA, HTML5, DocBook's
#: navheader/navfooter, Sphinx's related bar and sidebar, texinfo's, javadoc's): a link
#: there has no context (a "Prev | Up | Next" row names the neighbours' titles).
_NAV_TAGS = frozenset(s for s in NAVIGATION_SELECTORS if s.isalpha())
_NAV_ROLES = frozenset(s[6:-1] for s in NAVIGATION_SELECTORS if s.startswith("[role="))
_NAV_CLASSES = frozenset(s[1:] for s in NAVIGATION_SELECTORS if s.startswith("."))


def _is_navigation_block(el: lxml.etree._Element) -> bool:
    return (
        el.tag in _NAV_TAGS
        or el.get("role") in _NAV_ROLES
        or not _NAV_CLASSES.isdisjoint((el.get("class") or "").split())
    )


def _in_navigation(
    link: lxml.etree._Element, known: dict[lxml.etree._Element, bool]
) -> bool:
    """Whether ``link`` is inside a navigation block. Each ancestor is judged once per
    page (``known``, which also keeps the elements alive: lxml's element objects are
    made on demand). An XPath finding the blocks over the whole tree cost 2.7-4.2 ms per
    page of the speed web's documentation (its class tests on every element); links
    with a context are few, and share their ancestors."""
    path = []
    node = link.getparent()
    inside = False
    while node is not None:
        judged = known.get(node)
        if judged is not None:
            inside = judged
            break
        path.append(node)
        if _is_navigation_block(node):
            inside = True
            break
        node = node.getparent()
    for node in path:
        known[node] = inside
    return inside


def _context_block(link: lxml.etree._Element) -> lxml.etree._Element | None:
    """The block whose text is the link's context: its nearest list item, definition
    term or description, paragraph or caption, or the row of its table cell."""
    el = link.getparent()
    for _ in range(CONTEXT_LEVELS):
        if el is None:
            return None
        tag = el.tag
        if tag in _CONTEXT_BLOCKS:
            return el
        if tag in _CONTEXT_CELLS:
            row = el.getparent()
            return row if row is not None and row.tag == "tr" else el
        if tag in ("body", "pre", "ul", "ol", "dl", "table", "nav"):
            return None
        el = el.getparent()
    return None


_Layout = tuple[list[str], dict[lxml.etree._Element, tuple[int, int]]]


def _block_layout(block: lxml.etree._Element) -> _Layout:
    """The text pieces of ``block`` in order (nested lists and tables left out) and, for
    each link inside it, the span of pieces that are its own text: one walk of a block
    serves every link in it (a paragraph or a row of many links was walked once per
    link). The span dict keeps the link elements alive, so lxml hands out the same
    objects for them later."""
    pieces: list[str] = []
    spans: dict[lxml.etree._Element, tuple[int, int]] = {}

    def walk(el: lxml.etree._Element) -> None:
        start = len(pieces)
        if el.text and isinstance(el.tag, str):
            pieces.append(el.text)
        for child in el:
            if isinstance(child.tag, str) and child.tag not in _CONTEXT_SKIP:
                walk(child)
            if child.tail:
                pieces.append(child.tail)
        if el.tag == "a":
            spans[el] = (start, len(pieces))

    walk(block)
    return pieces, spans


def _words_before(pieces: list[str], end: int, count: int) -> list[str]:
    """The last ``count`` words of ``pieces[:end]`` (pieces are separate words: joined by
    spaces). From the end only: a block of n links joined its whole text before each of
    them, n times (a paragraph or row of hundreds of links)."""
    words: list[str] = []
    i = end
    while i > 0 and len(words) < count:
        i -= 1
        words[:0] = pieces[i].split()
    return words[-count:]


def _words_from(pieces: list[str], start: int, count: int) -> list[str]:
    """The words of ``pieces[start:]``, at least the first ``count`` of them (all when
    there are fewer)."""
    words: list[str] = []
    for i in range(start, len(pieces)):
        if len(words) >= count:
            break
        words += pieces[i].split()
    return words


def link_context(
    link: lxml.etree._Element,
    layouts: dict[lxml.etree._Element, _Layout] | None = None,
) -> str:
    """The words around a link in its block (a list item, a definition, a table row, a
    paragraph), at most CONTEXT_WORDS_BEFORE before and CONTEXT_WORDS_AFTER after it,
    without its own anchor text; for a definition term linking a page, its description
    too (``<dt><a>git-add(1)</a></dt><dd>Add file contents to the index.</dd>``). What
    the linking page says about the target, in words the target need not use: the
    classic anchor window. '' when the block says nothing else (a menu item).
    ``layouts``: the blocks walked so far on this page (:func:`_block_layout`)."""
    block = _context_block(link)
    if block is None:
        return ""
    return _context_in_block(link, block, {} if layouts is None else layouts)


def _context_in_block(
    link: lxml.etree._Element,
    block: lxml.etree._Element,
    layouts: dict[lxml.etree._Element, _Layout],
) -> str:
    """:func:`link_context` of a link whose context block is known."""
    layout = layouts.get(block)
    if layout is None:
        layout = layouts[block] = _block_layout(block)
    pieces, spans = layout
    span = spans.get(link)
    start, end = (len(pieces), len(pieces)) if span is None else span
    after_words = _words_from(pieces, end, CONTEXT_WORDS_AFTER)
    if block.tag == "dt" and len(after_words) < CONTEXT_WORDS_AFTER:
        description = block.getnext()
        if description is not None and description.tag == "dd":
            after_words += " ".join(_block_layout(description)[0]).split()
    words = _words_before(pieces, start, CONTEXT_WORDS_BEFORE) + after_words[:CONTEXT_WORDS_AFTER]
    if not any(c.isalnum() for w in words for c in w):
        return ""
    return " ".join(words)


def _link_contexts(root: lxml.etree._Element) -> dict[str, str]:
    """raw href (without its fragment) -> the context of its first link that has one,
    outside the navigation blocks."""
    found: dict[str, str] = {}
    known: dict[lxml.etree._Element, bool] = {}
    layouts: dict[lxml.etree._Element, _Layout] = {}
    for i, el in enumerate(root.iter("a")):
        if i >= MAX_CONTEXT_LINKS:
            break
        href = (el.get("href") or "").split("#", 1)[0].strip()
        if not href or href in found:
            continue
        # most links of a page are in no context block or in its menus: those two tests
        # first (the second memoised per ancestor), the block's words only for the rest
        block = _context_block(el)
        if block is None or _in_navigation(el, known):
            continue
        context = _context_in_block(el, block, layouts)
        if context:
            found[href] = context
    return found


_MARKER = re.compile("\ue000(\\d+)\ue001")  # private-use characters: valid XML text


def _visible_text_with_offsets(
    root: lxml.etree._Element, links: list[lxml.etree._Element]
) -> tuple[str, list[int]]:
    """Visible text of ``root`` and the text offset where each of ``links`` starts.

    C-level itertext() instead of a Python walk: each link gets a marker
    at its start, the markers' places give the offsets, then they are removed. The
    tree is modified (invisible elements dropped): pass a tree you no longer need.
    """
    for el in list(root.iter(*_INVISIBLE)):
        if el is not root:
            _drop_tree(el)  # keeps the tail text, which is visible
    for i, el in enumerate(links):
        el.text = f"\ue000{i}\ue001{el.text or ''}"
    # a space between text chunks: block elements must not glue their words together
    marked = _collapse(" ".join(root.itertext()))
    offsets = [0] * len(links)
    pieces: list[str] = []
    position = removed = 0
    for match in _MARKER.finditer(marked):
        pieces.append(marked[position : match.start()])
        index = int(match.group(1))
        if index < len(offsets):  # else the page itself contained such characters
            offsets[index] = match.start() - removed
        removed += match.end() - match.start()
        position = match.end()
    pieces.append(marked[position:])
    return _collapse("".join(pieces)), offsets


def extract_page(
    html: bytes | str,
    page_url: str,
    *,
    encoding: str | None = None,
    anchor_max_chars: int = defaults.LINK_ANCHOR_MAX_CHARS,
    names: bool = False,
    contexts: bool = False,
) -> ExtractedPage:
    """Extract the title, visible text and out-links of an HTML page (``names``: and the
    names it defines, :func:`defined_names`; ``contexts``: each link's context,
    :func:`link_context`).

    Links come from ``<a href>``, ``<area href>`` and ``<frame src>``, ``<iframe src>``
    (``<noframes>`` content included), resolved against ``<base href>`` and the page URL,
    canonicalised; non-http(s) schemes are dropped. A target linked more than once keeps
    its first occurrence.
    """
    root = _parse(html, encoding)
    if root is None:
        return ExtractedPage()
    if root.find(".//noframes") is not None:
        _expand_noframes(root)
    title_el = root.find(".//title")
    title = _collapse(_text_content(title_el)) if title_el is not None else ""
    body = root.find(".//body")
    # The first element of each distinct href: pages repeat links (menus, indexes), and
    # canonicalising every repeat was most of the cost of extraction.
    link_elements: list[lxml.etree._Element] = []
    hrefs: list[str] = []
    seen_hrefs: set[str] = set()
    if names:
        # the same walk as the links': a page's names cost no pass of their own
        named: list[lxml.etree._Element | None] = []
        term = None  # the last <dt>, until the first link after it is seen
        term_at = 0  # its place in named
        for el in root.iter(*_LINK_TAGS, "dt"):
            tag = el.tag
            if tag == "dt":
                if len(named) < MAX_NAME_ELEMENTS:
                    term, term_at = el, len(named)
                    named.append(el)
                continue
            raw = el.get("src") if tag in _SRC_TAGS else el.get("href")
            if raw:
                href = raw.split("#", 1)[0].strip()
                if term is not None and href:
                    # a term linking to another page names what that page defines (a
                    # list of classes with their purposes): not a name of this page.
                    # Its descendants come right after it, so one look per term.
                    if _inside(el, term):
                        named[term_at] = None
                    term = None
                if href not in seen_hrefs:
                    seen_hrefs.add(href)
                    link_elements.append(el)
                    hrefs.append(href)
            elif (
                tag == "a" and len(named) < MAX_NAME_ELEMENTS
                and (el.get("id") or el.get("name"))
            ):
                named.append(el)  # the place a name is defined (Haddock's a.def)
        defined = defined_names(named)
    else:
        defined = []
        for el in root.iter(*_LINK_TAGS):
            raw = el.get("src") if el.tag in _SRC_TAGS else el.get("href")
            # the fragment never reaches the canonical URL: "#a" and "#b" are one target
            href = (raw or "").split("#", 1)[0].strip()
            if raw and href not in seen_hrefs:
                seen_hrefs.add(href)
                link_elements.append(el)
                hrefs.append(href)
    anchors = [_collapse(_anchor_text(el)) for el in link_elements]
    link_contexts = _link_contexts(body if body is not None else root) if contexts else {}
    visibilities = link_visibilities(root, link_elements)
    base_url = page_url
    base_el = root.find(".//base[@href]")
    if base_el is not None:
        base_url = urljoin(page_url, base_el.get("href", "").strip())
    canonical = None
    for el in root.iterfind(".//link[@href]"):
        if "canonical" in (el.get("rel") or "").lower().split():
            canonical = canonical_url(urljoin(base_url, el.get("href", "").strip()))
            break
    text, offsets = _visible_text_with_offsets(body if body is not None else root, link_elements)
    page_host = url_host(page_url)
    links: list[ExtractedLink] = []
    seen: set[str] = set()
    resolve = _resolver.resolver(base_url)
    for i, href in enumerate(hrefs):
        target = resolve(href)
        if target is None or target in seen:
            continue
        seen.add(target)
        links.append(
            ExtractedLink(
                url=target,
                anchor_text=anchors[i][:anchor_max_chars],
                visibility=visibilities[i],
                position=position_score(offsets[i], len(text)),
                distance=1 if url_host(target) == page_host else 5,
                context=link_contexts.get(href, ""),
            )
        )
    return ExtractedPage(
        title=title, text=text, links=links, canonical=canonical, names=defined
    )
