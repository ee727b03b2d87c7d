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

import math
from collections import Counter
from collections.abc import Iterable
from urllib.parse import urlsplit

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
        listing = min(1.0, math.log(links / LIST_MIN_LINKS)
                      / math.log(LIST_FULL_LINKS / LIST_MIN_LINKS))
    return max(min(1.0, share / HUB_FULL_SHARE) * many, listing)


def anchor_share(body_terms: Counter[str], anchor_terms: Counter[str]) -> dict[str, float]:
    """term -> share (0..1] of its occurrences in the text that are anchor text."""
    return {
        term: min(1.0, count / body_terms[term])
        for term, count in anchor_terms.items()
        if body_terms.get(term)
    }
