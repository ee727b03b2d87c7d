"""The page content model: main content apart from boilerplate, headings, language.

A documentation or news page repeats its site's navigation bars, sidebars, menus and
footers on every page ("index modules | next | previous", "Prev Up Home Next"). Indexed
as the page's words they make pages look alike and fill the snippets. The main content
is extracted with resiliparse's main-content extractor (``extract_plain_text(...,
main_content=True)``, lexbor's HTML parser in C), compared with trafilatura in
``bench/content_extract.py`` (docs/search.md, *Page content model*), and told to skip
the navigation blocks that the common documentation generators and ARIA mark as such.

No Scrapy imports: plain functions, tested directly.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from typing import Any

from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding
from resiliparse.parse.html import DOMNode, HTMLTree, NodeType

#: Blocks that are navigation by their markup, whatever the site: ARIA landmarks, HTML5
#: elements, and the navigation classes of DocBook XSL (navheader, navfooter), Sphinx
#: (related, sphinxsidebar, footer), texinfo (nav-panel, header) and Javadoc (top-nav,
#: sub-nav). resiliparse's own heuristics miss DocBook's navigation tables.
NAVIGATION_SELECTORS = (
    "nav",
    "footer",
    "[role=navigation]",
    "[role=banner]",
    "[role=contentinfo]",
    "[role=search]",
    ".navheader",
    ".navfooter",
    ".related",
    ".sphinxsidebar",
    ".nav-panel",
    ".top-nav",
    ".sub-nav",
)
#: Permalink signs after headings (Sphinx's and MkDocs' "¶"): not words of the page.
PERMALINK_SELECTORS = ("a.headerlink",)
#: A page whose main content has fewer words is a list or a menu page (a table of
#: contents, an index): its text without the navigation blocks is kept instead.
MIN_MAIN_WORDS = 30
#: Words of the block around a page's first h1 that are put back before the main content
#: when the extractor dropped that heading (a block of more words, or with more than
#: TITLE_BLOCK_LINK_SHARE of its words in links, a menu: the h1 alone).
TITLE_BLOCK_WORDS = 60
TITLE_BLOCK_LINK_SHARE = 0.25
#: The content container: the deepest element holding at least this share of the main
#: content's words. Its whole text (without the navigation blocks) is the main content:
#: resiliparse's heuristics leave out boxes and lists inside it (DocBook's sidebars and
#: notes, itemized lists) that are the page's own words.
CONTAINER_SHARE = 0.9
#: An element holding at least this share of its parent's text is a wrapper of it: the
#: search for the container goes into it without comparing words.
WRAPPER_SHARE = 0.97
#: ... unless the other children hold more text of their own (not link text, not
#: navigation) than this share of the child's: then the element itself is the container
#: (the later sections of a page whose first section holds most of the main content).
OUTSIDE_SHARE = 0.25
#: Headings kept per page, and characters per heading.
MAX_HEADINGS = 200
MAX_HEADING_CHARS = 200
#: Characters of main content given to the language detector.
DETECT_CHARS = 2000
#: Detector probability below which a page's language is left unknown ('').
MIN_PAGE_CONFIDENCE = 0.8

_LANG_TAG = re.compile(r"[A-Za-z]{2,3}(?=$|[-_])")
_HEADINGS = "h1, h2, h3, h4, h5, h6"
#: Sphinx and others append a permalink sign to headings.
_HEADING_TRAIL = re.compile(r"[\s¶#§]+$")


@dataclass(frozen=True, slots=True)
class PageContent:
    text: str  # the main content, white space collapsed ('' when the page has none)
    headings: list[str]  # h1..h6 texts within the main content, in page order
    lang: str  # ISO 639 primary language subtag, lower case ('' unknown)


def language_tag(value: str | None) -> str:
    """The primary language subtag of a language tag or a Content-Language header
    (``en-US`` -> ``en``, ``pt_BR`` -> ``pt``, ``de, en`` -> ``de``); '' if none."""
    if not value:
        return ""
    first = value.split(",", 1)[0].strip()
    match = _LANG_TAG.match(first)
    if not match or first.lower() in ("und", "mul", "zxx"):
        return ""
    return match.group(0).lower()


def content_mime(value: bytes | str | None) -> str:
    """The MIME type of a Content-Type header, lower case, without parameters
    (``b"text/HTML; charset=utf-8"`` -> ``text/html``); '' if none."""
    if not value:
        return ""
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return value.split(";", 1)[0].strip().lower()


class _Detector:
    """py3langid's model, loaded once per process on first use (crawler/language_model.py)."""

    _lock = threading.Lock()
    _identifier: Any = None

    @classmethod
    def get(cls) -> Any:
        if cls._identifier is None:
            with cls._lock:
                if cls._identifier is None:
                    from crawler.language_model import load_identifier

                    cls._identifier = load_identifier()
        return cls._identifier


def load_language_model() -> None:
    """Load py3langid's model now (it is loaded on first use otherwise): a fraction of a
    second from the cached uncompressed copy, about 0.5 s of CPU the first time (LZMA
    decompression, which releases the GIL), so a thread can do it while the crawl starts
    instead of the first page's parse holding the crawl's loop."""
    _Detector.get()


def detect_language(text: str, min_confidence: float = MIN_PAGE_CONFIDENCE) -> str:
    """The language of ``text`` by py3langid when it is at least ``min_confidence``
    sure, else ''."""
    if not text.strip():
        return ""
    lang, probability = _Detector.get().classify(text[:DETECT_CHARS])
    return str(lang) if probability >= min_confidence else ""


def script_language(text: str) -> str:
    """The language a script alone tells (Hangul -> ko, kana -> ja, Hanzi -> zh, ...),
    '' for Latin and mixed text: a short query in such a script needs no detector."""
    counts: dict[str, int] = {}
    for char in text:
        if not char.isalpha() or char.isascii():
            continue
        name = unicodedata.name(char, "")
        for prefix, lang in _SCRIPTS:
            if name.startswith(prefix):
                counts[lang] = counts.get(lang, 0) + 1
                break
    if not counts:
        return ""
    if "ja" in counts:  # kana: Japanese, whatever Hanzi it also has
        return "ja"
    return max(counts, key=lambda lang: counts[lang])


_SCRIPTS = (
    ("HANGUL", "ko"),
    ("HIRAGANA", "ja"),
    ("KATAKANA", "ja"),
    ("CJK UNIFIED", "zh"),
    ("CYRILLIC", "ru"),
    ("GREEK", "el"),
    ("ARABIC", "ar"),
    ("HEBREW", "he"),
    ("THAI", "th"),
    ("DEVANAGARI", "hi"),
)


def join_headings(headings: list[str]) -> str:
    """Headings as stored (``pages.headings``): one per line."""
    return "\n".join(" ".join(h.split()) for h in headings if h.strip())


def split_headings(stored: str | None) -> list[str]:
    return [h for h in (stored or "").split("\n") if h]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _tree(html: bytes | str, encoding: str | None) -> HTMLTree:
    if isinstance(html, str):
        return HTMLTree.parse(html)
    return HTMLTree.parse(bytes_to_str(html, encoding or detect_encoding(html)))


def main_content(
    html: bytes | str,
    *,
    encoding: str | None = None,
    content_language: str | None = None,
    detect: bool = True,
) -> PageContent:
    """The main content, headings and language of an HTML page.

    Language: ``<html lang>``, else the Content-Language header, else (``detect``)
    py3langid on the main content; '' when unknown.
    """
    try:
        tree = _tree(html, encoding)
    except (ValueError, LookupError):
        return PageContent("", [], language_tag(content_language))
    if tree.body is None:
        return PageContent("", [], language_tag(content_language))
    options = {
        "alt_texts": False,
        "skip_elements": [*NAVIGATION_SELECTORS, *PERMALINK_SELECTORS],
    }
    text = _collapse(extract_plain_text(tree, main_content=True, **options))
    headings = _heading_texts(tree)
    if len(text.split()) < MIN_MAIN_WORDS:
        # a list page: its links are its content
        whole = _collapse(extract_plain_text(tree, main_content=False, **options))
        if len(whole) > len(text):
            text = whole
    else:
        title = _title_block(tree, text)
        box = _container(tree.body, text)
        if box != tree.body:
            # the container's whole text: what the extractor dropped inside it is content
            _keep_only(tree, box)
            whole = _collapse(extract_plain_text(tree, main_content=False, **options))
            if len(whole) > len(text):
                text = whole
                if title and title.strip() in text:
                    title = ""
        text = title + text
    headings = _found_headings(headings, text)
    return PageContent(text, headings, _page_language(tree, text, content_language, detect))


def whole_page_content(
    html: bytes | str,
    text: str,
    *,
    encoding: str | None = None,
    content_language: str | None = None,
    detect: bool = True,
) -> PageContent:
    """The content of a page too large for the main-content extractor: ``text`` (the
    page's whole visible text, crawler.extract's) as its main content, its first
    MAX_HEADINGS headings, its language as main_content() finds it.

    On 13 documentation pages of 0.3-3 MB main_content() cost 1.1-4.6 times (most of
    them 2-3 times) the rest of the analysis, and what it left out was 0.5-31 % of the
    visible text (docs/performance.md, "Large pages"): nothing of the page is dropped
    here, the boilerplate is kept instead."""
    text = _collapse(text)
    try:
        tree = _tree(html, encoding)
    except (ValueError, LookupError):
        return PageContent(text, [], language_tag(content_language))
    headings: list[str] = []
    if tree.body is not None:
        for heading in _heading_texts(tree):
            if heading and heading not in headings:
                headings.append(heading)
                if len(headings) >= MAX_HEADINGS:
                    break
    return PageContent(text, headings, _page_language(tree, text, content_language, detect))


def _page_language(
    tree: HTMLTree, text: str, content_language: str | None, detect: bool
) -> str:
    """``<html lang>``, else the Content-Language header, else (``detect``) py3langid on
    ``text``; '' when unknown."""
    root = tree.document.query_selector("html")
    lang = language_tag(root.getattr("lang") if root is not None else None)
    lang = lang or language_tag(content_language)
    if not lang and detect:
        lang = detect_language(text)
    return lang


def _title_block(tree: HTMLTree, text: str) -> str:
    """The page's first h1 and the short block around it when the main content lacks
    them (followed by a space), else ''. resiliparse takes a ``<div id="header">`` for a
    site header, but AsciiDoc's man pages (git's) keep there their h1 and the NAME
    section, the one-line summary of the command: its best description."""
    h1 = tree.body.query_selector("h1")
    if h1 is None:
        return ""
    heading = _HEADING_TRAIL.sub("", _collapse(h1.text))
    if not heading or heading in text:
        return ""
    block = h1.parent
    if (
        block is not None
        and block.tag not in ("body", "html")
        and not any(block.query_selector(s) for s in NAVIGATION_SELECTORS)
    ):
        # (block.text runs adjacent elements' words together: "PageNAME")
        words = _collapse(extract_plain_text(block.html, alt_texts=False))
        count = len(words.split())
        linked = sum(len(a.text.split()) for a in _elements(block, "a"))
        if (
            heading in words
            and count <= TITLE_BLOCK_WORDS
            and linked <= TITLE_BLOCK_LINK_SHARE * count
        ):
            return words + " "
    return heading + " "


def _elements(root: DOMNode, selector: str) -> list[DOMNode]:
    """The elements below ``root`` matching a CSS selector, in document order.

    Through ``values()``: taking the items of resiliparse's DOMCollection one at a time
    (iterating it) costs time that grows with the document (6 ms per item on a 1.8 MB
    rustdoc page, whose 2,113 headings took 9 s), which blocked the crawl's event loop
    for tens of seconds on large pages; ``values()`` builds the list in 6 ms."""
    return root.query_selector_all(selector).values()


def _heading_texts(tree: HTMLTree) -> list[str]:
    """The h1-h6 texts of the page, in page order, permalink signs removed."""
    return [
        _HEADING_TRAIL.sub("", _collapse(el.text))[:MAX_HEADING_CHARS]
        for el in _elements(tree.body, _HEADINGS)
    ]


def _found_headings(headings: list[str], text: str) -> list[str]:
    """The headings found in the main content (a sidebar's "Previous topic" or "Quick
    search" is not), each once, at most MAX_HEADINGS."""
    found: list[str] = []
    for heading in headings:
        if heading and heading in text and heading not in found:
            found.append(heading)
            if len(found) >= MAX_HEADINGS:
                break
    return found


_WORD = re.compile(r"\w{4,}")
#: Words of the main content looked for in a candidate container (spread over the text).
PROBE_WORDS = 64


def _probes(text: str) -> list[str]:
    """Up to PROBE_WORDS distinct words (4+ letters, lower case) spread over ``text``."""
    distinct = list(dict.fromkeys(_WORD.findall(text.lower())))
    step = max(1, len(distinct) // PROBE_WORDS)
    return distinct[::step][:PROBE_WORDS]


def _children(node: DOMNode) -> list[DOMNode]:
    found = []
    child = node.first_child
    while child is not None:
        if child.type == NodeType.ELEMENT:
            found.append(child)
        child = child.next
    return found


def _container(body: DOMNode, main: str) -> DOMNode:
    """The deepest element holding CONTAINER_SHARE of the words of ``main`` (the
    extractor's main content), going down from ``body`` one child at a time.

    ``DOMNode.text`` walks the element's whole subtree (50 ms on a 3 MB rustdoc page), so
    each element's text is built at most once, and not at all where the length is
    enough: an element's text is its children's texts (elements and text nodes, not
    comments) one after another, so an only element child's length is its parent's
    less the parent's own text, and a page's chain of wrappers costs no walk."""
    probes = _probes(main)
    node: DOMNode = body
    size: int | None = None  # len(node.text), built only when needed
    while node.tag not in _TEXT_BLOCKS:
        children, own_chars = _children_and_own_chars(node)
        texts: list[str | None]
        if len(children) == 1 and own_chars == 0:
            node = children[0]  # a wrapper with nothing beside it: same text, same size
            continue
        if len(children) == 1:
            texts, lengths = [None], [len(children[0].text) if size is None else size - own_chars]
        else:
            texts = [child.text for child in children]
            lengths = [len(text) for text in texts]
        if size is None:
            size = own_chars + sum(lengths)
        # a wrapper (nearly all of its parent's text) is gone into at once: the words of
        # the page's outer wrappers are not counted again and again
        wrapper = next(
            (i for i, length in enumerate(lengths) if length >= WRAPPER_SHARE * size), None
        )
        if wrapper is not None:
            node, size = children[wrapper], lengths[wrapper]
            continue
        best = None
        for i, (length, child) in enumerate(zip(lengths, children, strict=True)):
            if length < CONTAINER_SHARE * len(main) * 0.8:
                continue  # too short to hold the main content's words
            held = (texts[i] if texts[i] is not None else child.text).lower()
            if sum(1 for word in probes if word in held) >= CONTAINER_SHARE * len(probes):
                best = i
                break  # (at most one child holds more than half of the words)
        if best is None:
            return node
        outside = sum(
            _own_text_chars(child, length)
            for i, (length, child) in enumerate(zip(lengths, children, strict=True))
            if i != best and length and not _is_navigation(child)
        )
        if outside > OUTSIDE_SHARE * lengths[best]:
            return node
        node, size = children[best], lengths[best]
    return node


def _children_and_own_chars(node: DOMNode) -> tuple[list[DOMNode], int]:
    """The element children of ``node`` and the characters of its own text nodes."""
    found = []
    own = 0
    child = node.first_child
    while child is not None:
        if child.type == NodeType.ELEMENT:
            found.append(child)
        elif child.type == NodeType.TEXT:
            own += len(child.text)
        child = child.next
    return found, own


#: Elements that are text, not containers of blocks: the search for the container stops
#: at them without walking their children (a help page's one <pre> holds thousands of
#: text nodes and links).
_TEXT_BLOCKS = frozenset({"p", "pre", "table", "ul", "ol", "dl", "blockquote"})


def _own_text_chars(node: DOMNode, length: int) -> int:
    """Characters of ``node``'s text that are not link text."""
    return length - sum(len(a.text) for a in _elements(node, "a"))


_NAV_TAGS = frozenset(s for s in NAVIGATION_SELECTORS if s.isalpha())
_NAV_ROLES = frozenset(s[6:-1] for s in NAVIGATION_SELECTORS if s.startswith("[role="))
_NAV_CLASSES = frozenset(s[1:] for s in NAVIGATION_SELECTORS if s.startswith("."))


def _is_navigation(node: DOMNode) -> bool:
    """Whether an element is one of NAVIGATION_SELECTORS' blocks."""
    return (
        node.tag in _NAV_TAGS
        or (node.getattr("role") or "") in _NAV_ROLES
        or not _NAV_CLASSES.isdisjoint((node.getattr("class") or "").split())
    )


def _keep_only(tree: HTMLTree, box: DOMNode) -> None:
    """Remove from the tree everything but ``box`` and its ancestors."""
    node = box
    while node != tree.body:
        parent = node.parent
        for sibling in _children(parent):
            if sibling != node:
                parent.remove_child(sibling)
        node = parent
