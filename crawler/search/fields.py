"""Relevance signals of a page computed from what the crawl stores (title, text, URL and
the anchor texts of the page's out-links), for the index document.

- ``url_name``: the URL's last path segment without its extension
  (``.../java/nio/file/Paths.html`` -> ``Paths``), indexed unstemmed beside the title.
- ``hub_score``: how much a page is a list of links (a package summary, an alphabetical
  index, a module index) rather than a page about one thing: the share of its words that
  are anchor text of its out-links, counted only once it links to many pages.
- ``anchor_share``: per indexed term, the share of its occurrences in the page text that
  are anchor text, so a word found in the text of a link (a hub quoting another page's
  name) counts for less than the same word in the page's own prose.

Links are stored without their place in the page (the ``links`` table has no order), so
the anchor share is per term, not per occurrence.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlsplit

#: Out-links from which a page can be a hub; its hub score grows up to HUB_FULL_LINKS.
HUB_MIN_LINKS = 20
HUB_FULL_LINKS = 100
#: Share of anchor words at which a page with many links is a hub through and through.
HUB_FULL_SHARE = 0.5
#: A page with this many distinct out-links is a list whatever its text (an alphabetical
#: index, an all-classes page: each link followed by a one-line description keeps the
#: anchor share low); from LIST_MIN_LINKS on the score grows with log(links).
LIST_MIN_LINKS = 60
LIST_FULL_LINKS = 600
#: Separates the anchor texts of a page in the stored ``anchor_text`` field.
ANCHOR_SEPARATOR = "\n"


def url_name(url: str) -> str:
    """The last non-empty path segment of ``url`` without its extension ('' for a root)."""
    path = urlsplit(url).path
    segment = next((part for part in reversed(path.split("/")) if part), "")
    stem, dot, extension = segment.rpartition(".")
    # only a short alphabetic extension is cut (Map.Entry.html -> Map.Entry, not Map)
    if dot and stem and extension.isalpha() and len(extension) <= 5:
        return stem
    return segment


def join_anchors(anchors: Iterable[str], max_chars: int | None = None) -> str:
    """The anchor texts of a page as one stored value."""
    joined = ANCHOR_SEPARATOR.join(
        a.replace(ANCHOR_SEPARATOR, " ").strip() for a in anchors if a and a.strip()
    )
    return joined if max_chars is None else joined[:max_chars]


def hub_score(text_words: int, anchor_words: int, links: int) -> float:
    """0 for a page about one thing, up to 1 for a page that is mostly a list of links.

    The larger of two signs: the text is mostly link text (``anchor_words / text_words``,
    counted from HUB_MIN_LINKS out-links on, so a page with a short menu is no hub, and in
    full from HUB_FULL_LINKS on), or the page simply has very many links (LIST_MIN_LINKS
    to LIST_FULL_LINKS, on a log scale).
    """
    if text_words <= 0 or links < HUB_MIN_LINKS:
        return 0.0
    share = min(1.0, anchor_words / text_words)
    many = min(1.0, (links - HUB_MIN_LINKS) / (HUB_FULL_LINKS - HUB_MIN_LINKS))
    listing = 0.0
    if links > LIST_MIN_LINKS:
        listing = min(
            1.0, math.log(links / LIST_MIN_LINKS) / math.log(LIST_FULL_LINKS / LIST_MIN_LINKS)
        )
    return max(min(1.0, share / HUB_FULL_SHARE) * many, listing)


def anchor_share(body_terms: Counter[str], anchor_terms: Counter[str]) -> dict[str, float]:
    """term -> share (0..1] of its occurrences in the text that are anchor text."""
    return {
        term: min(1.0, count / body_terms[term])
        for term, count in anchor_terms.items()
        if body_terms.get(term)
    }


#: Language codes that mark a translation in a URL (a path segment ``/ko/``, a file name
#: part ``index.html.ko`` or ``index.ko.html``, a ``lang=`` parameter), with an optional
#: region (``zh-cn``, ``pt_BR``). A short fixed list: a path segment such as ``/id/`` or
#: ``/is/`` is more often a word than Indonesian or Icelandic.
TRANSLATION_LANGUAGES = frozenset(
    "ar bg ca cs da de el en es et fa fi fr he hi hr hu it ja ko lt lv nb nl pl pt ro "
    "ru sk sl sr sv th tr uk vi zh".split()
)
_LANGUAGE_MARK = re.compile(r"([a-z]{2})(?:[-_][a-z]{2,4})?", re.I)
#: Character-set parts of negotiated file names (index.html.ja.utf8, .ko.euc-kr).
_CHARSET_MARK = re.compile(
    r"utf-?8|euc-?[a-z]{2}|iso-?8859-?\d+|shift_?jis|sjis|koi8-?[ru]|big5|gb2312|gbk|"
    r"windows-?125\d|cp125\d",
    re.I,
)
_LANGUAGE_PARAMETERS = frozenset({"lang", "language", "locale", "hl", "lng"})
_INDEX_FILES = frozenset({"index.html", "index.htm", "default.html", "index.php", "index"})
#: In-link anchor text: one source host's anchors count at most this many times per
#: distinct text (a site's menu links to a page from all its pages), an anchor from
#: another host this many times more than one from the page's own host.
ANCHOR_MAX_REPEAT = 3
ANCHOR_OTHER_HOST_WEIGHT = 2
#: Distinct in-link anchor texts kept per page (the most repeated first).
ANCHOR_MAX_TEXTS = 50


def url_language(url: str) -> str:
    """The language a URL marks (``/ko/``, ``.html.ko``, ``?lang=ko``), '' if none."""
    parts = urlsplit(url)
    for name, value in parse_qsl(parts.query):
        if name.lower() in _LANGUAGE_PARAMETERS and _is_language(value):
            return value[:2].lower()
    segments = [s for s in parts.path.split("/") if s]
    for i, segment in enumerate(segments):
        pieces = segment.split(".") if i == len(segments) - 1 else [segment]
        for piece in pieces[1:] if len(pieces) > 1 else pieces:
            if _is_language(piece):
                return piece[:2].lower()
    return ""


def _is_language(value: str) -> bool:
    match = _LANGUAGE_MARK.fullmatch(value)
    return bool(match) and match.group(1).lower() in TRANSLATION_LANGUAGES


#: Sphinx's "Show Source" copies (html_copy_source, on by default): the reStructuredText
#: or Markdown a page was built from, served as text under the documentation root's
#: ``_sources/`` (``_sources/library/os.rst.txt`` beside ``library/os.html``; ``.txt``
#: alone before Sphinx 1.5). Stored and indexed like any text page, they ranked first for
#: queries their page answers (a CMake reference: 907 of 2,404 pages, twelfth blind set).
SOURCE_COPY_FOLDER = "_sources"
_SOURCE_COPY_SUFFIX = re.compile(r"(?:\.(?:rst|md|ipynb))?\.txt$", re.I)


def source_copy_page(url: str) -> str | None:
    """The path of the page a Sphinx source copy was built into (``/_sources/a/b.rst.txt``
    -> ``/a/b.html``), None for any other URL."""
    return _source_copy_path(urlsplit(url).path)


def _source_copy_path(path: str) -> str | None:
    segments = path.split("/")
    if SOURCE_COPY_FOLDER not in segments[:-1] or not _SOURCE_COPY_SUFFIX.search(segments[-1]):
        return None
    segments.remove(SOURCE_COPY_FOLDER)
    segments[-1] = _SOURCE_COPY_SUFFIX.sub("", segments[-1]) + ".html"
    return "/".join(segments)


def variant_key(url: str) -> str:
    """The URL of a page with its language marks removed: translations of a page (and
    the directory URL beside its index.html) share it, and so does a Sphinx source copy
    (:func:`source_copy_page`)."""
    parts = urlsplit(url)
    page = _source_copy_path(parts.path)
    segments = (page if page is not None else parts.path).split("/")
    kept: list[str] = []
    for i, segment in enumerate(segments):
        if i == len(segments) - 1 and "." in segment:
            name, *rest = segment.split(".")
            rest = [p for p in rest if not (_is_language(p) or _CHARSET_MARK.fullmatch(p))]
            segment = ".".join([name, *rest])
            if segment.lower() in _INDEX_FILES:
                segment = ""
        elif segment and _is_language(segment):
            continue
        kept.append(segment)
    path = "/".join(kept)
    query = "&".join(
        f"{k}={v}" for k, v in parse_qsl(parts.query) if k.lower() not in _LANGUAGE_PARAMETERS
    )
    return f"{parts.hostname or ''}{path}" + (f"?{query}" if query else "")


def copy_key(title: str, text: str) -> str:
    """The same for copies of a page under other URLs (another host's mirror, a
    ``/latest/`` beside a ``/3.11/``): a digest of its title and text, case and spacing
    folded ('' for an empty page). Pages that merely share a template and a first
    paragraph differ."""
    words = " ".join(title.lower().split()) + "\x1f" + " ".join(text.lower().split())
    return hashlib.md5(words.encode("utf-8")).hexdigest() if words.strip("\x1f") else ""


def inlink_anchor_text(
    inlinks: Iterable[tuple[str, str]], page_host: str, max_texts: int = ANCHOR_MAX_TEXTS
) -> str:
    """The anchor texts of a page's in-links (``(source URL, anchor text)``) as one text
    to index: each distinct text (case folded) repeated by how many source pages use it,
    log2-scaled and capped at ANCHOR_MAX_REPEAT per source host, and
    ANCHOR_OTHER_HOST_WEIGHT times as often for a link from another host. Texts one per
    line, the most repeated first, at most ``max_texts`` of them."""
    per_host: dict[tuple[str, str], int] = Counter()
    shown: dict[str, str] = {}
    for source, anchor in inlinks:
        text = " ".join((anchor or "").split())
        if not text:
            continue
        key = text.lower()
        shown.setdefault(key, text)
        per_host[(key, (urlsplit(source).hostname or "").lower())] += 1
    weights: Counter[str] = Counter()
    for (key, host), count in per_host.items():
        repeat = min(ANCHOR_MAX_REPEAT, 1 + int(math.log2(count)))
        if host != page_host.lower():
            repeat *= ANCHOR_OTHER_HOST_WEIGHT
        weights[key] += repeat
    best = sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:max_texts]
    return "\n".join("\n".join([shown[key]] * weight) for key, weight in best)


#: Distinct in-link contexts kept per page (crawler.extract.link_context: the words
#: around a link to the page on the page linking it), the most repeated first.
CONTEXT_MAX_TEXTS = 30


def inlink_context_text(inlinks: Iterable[tuple[str, str]], page_host: str) -> str:
    """The contexts of a page's in-links (``(source URL, context)``) as one text to index,
    weighted and capped as anchor texts are (inlink_anchor_text), at most
    CONTEXT_MAX_TEXTS distinct texts: a site's menu repeats one context on all its pages,
    a list of commands with their purposes says each once."""
    return inlink_anchor_text(inlinks, page_host, CONTEXT_MAX_TEXTS)
