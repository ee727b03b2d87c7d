"""Feature vectors of the smart crawler's rankings and their cosine similarity.

A site or a link is described by three bags of stemmed terms (the search index's
analyzer: stop words out, Porter stems, crawler.focus.query.terms): its URL (for an
in-site link: its path only), the anchor texts of the links to it and the text around
those links. A known set (the deep-web sites found, the links that led to searchable
forms) is the sum of its members' bags.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from crawler.focus.query import terms

_URL_SPLIT = re.compile(r"[^A-Za-z0-9]+")
# URL words that name no topic
_URL_NOISE = frozenset(
    {
        "http",
        "https",
        "www",
        "html",
        "htm",
        "php",
        "asp",
        "aspx",
        "jsp",
        "index",
        "test",
        "com",
        "org",
        "net",
    }
)


def text_vector(text: str) -> Counter[str]:
    """Stemmed, stop-word-free term counts of a text."""
    return Counter(terms(text))


def url_vector(url: str, *, path_only: bool = False) -> Counter[str]:
    """Term counts of a URL: its words (split at anything but letters and digits; single
    characters and numbers dropped: ``/s2/`` is ``s2``, not ``s``) stemmed like text;
    ``path_only`` drops scheme and host (in-site links)."""
    if path_only:
        parts = urlsplit(url)
        url = parts.path + " " + parts.query
    words = [
        w
        for w in _URL_SPLIT.split(unquote(url).lower())
        if len(w) > 1 and not w.isdigit() and w not in _URL_NOISE
    ]
    return Counter(terms(" ".join(words)))


def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """Sim(V1, V2) = V1.V2 / (|V1| |V2|); 0 when either is empty."""
    if not a or not b:
        return 0.0
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    dot = sum(value * large.get(key, 0.0) for key, value in small.items())
    if not dot:
        return 0.0
    norm = math.sqrt(sum(v * v for v in a.values())) * math.sqrt(sum(v * v for v in b.values()))
    return dot / norm


@dataclass
class Features:
    """URL (or path), anchor and around-text bags of one site or link, or of a known set."""

    url: Counter[str] = field(default_factory=Counter)
    anchor: Counter[str] = field(default_factory=Counter)
    around: Counter[str] = field(default_factory=Counter)

    def add(self, other: Features) -> None:
        self.url.update(other.url)
        self.anchor.update(other.anchor)
        self.around.update(other.around)

    def add_link(self, anchor: str, around: str) -> None:
        self.anchor.update(text_vector(anchor))
        self.around.update(text_vector(around))

    def similarity(self, other: Features) -> float:
        """Sim(U, U_s) + Sim(A, A_s) + Sim(T, T_s): 0..3."""
        return (
            cosine(self.url, other.url)
            + cosine(self.anchor, other.anchor)
            + cosine(self.around, other.around)
        )

    @classmethod
    def of_terms(cls, words: Iterable[str]) -> Features:
        """The same words in all three bags (a topic's keywords as prior knowledge)."""
        bag = text_vector(" ".join(words))
        return cls(Counter(bag), Counter(bag), Counter(bag))
