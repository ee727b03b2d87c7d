"""Page weight (design-and-implementation paper), normalised for page length.

The paper: ``weight(page) = weight(URL) + weight(outlinks) + weight(title) + weight(body)``
with weight(URL) = W_URL if the search string occurs in the URL else 0, weight(title) =
W_TITLE likewise, weight(body) = occurrences x W_BODY, weight(outlinks) = number of
outlinks x W_LINK; a page is relevant when its weight is above a threshold.

Raw counts grow with the page: a long page mentioning the topic in passing would outweigh
a short page about it, and a link-heavy index page would pass any threshold. So the two
size-dependent parts are normalised (docs/focused.md):

- body: occurrences per ``body_words`` words (words the analyzer keeps) for pages longer
  than that; shorter pages count their occurrences as they are, so a short page is not
  inflated either. weight(body) = W_BODY x occurrences x body_words / max(words, body_words)
- outlinks: counted up to ``outlinks_cap``, as a share of it: weight(outlinks) =
  W_LINK x min(outlinks, outlinks_cap) / outlinks_cap, at most W_LINK.

URL and title are yes/no parts. A threshold therefore reads the same on a 200-word page
and on a 20,000-word page of the same density.
"""

from __future__ import annotations

from dataclasses import dataclass

from crawler import defaults
from crawler.focus.query import FocusQuery, terms


@dataclass(frozen=True)
class WeightParams:
    """Weights of the four parts, the two normalisation units and the threshold."""

    url: float = defaults.FOCUS_WEIGHT_URL
    title: float = defaults.FOCUS_WEIGHT_TITLE
    body: float = defaults.FOCUS_WEIGHT_BODY
    outlinks: float = defaults.FOCUS_WEIGHT_OUTLINKS
    body_words: int = defaults.FOCUS_BODY_WORDS
    outlinks_cap: int = defaults.FOCUS_OUTLINKS_CAP
    threshold: float = defaults.FOCUS_THRESHOLD
    max_text_chars: int = defaults.FOCUS_MAX_TEXT_CHARS

    def __post_init__(self) -> None:
        if self.body_words < 1 or self.outlinks_cap < 1:
            raise ValueError("body_words and outlinks_cap must be at least 1")


@dataclass(frozen=True)
class PageWeight:
    """A page's weight, part by part, and whether it is above the threshold."""

    url: float
    title: float
    body: float
    outlinks: float
    occurrences: float  # query occurrences in the body (before normalisation)
    words: int  # words of the body the analyzer kept
    threshold: float

    @property
    def total(self) -> float:
        return self.url + self.title + self.body + self.outlinks

    @property
    def relevant(self) -> bool:
        return self.total > self.threshold


def page_weight(
    query: FocusQuery,
    *,
    url: str,
    title: str,
    text: str,
    outlinks: int,
    params: WeightParams | None = None,
) -> PageWeight:
    """The weight of one page for ``query`` (see the module docstring for the formula)."""
    p = params or WeightParams()
    body_terms = terms(text[: p.max_text_chars] if p.max_text_chars > 0 else text)
    occurrences = query.occurrences(body_terms)
    words = len(body_terms)
    return PageWeight(
        url=p.url if query.occurs_in_url(url) else 0.0,
        title=p.title if query.occurs(terms(title)) else 0.0,
        body=p.body * occurrences * p.body_words / max(words, p.body_words),
        outlinks=p.outlinks * min(max(outlinks, 0), p.outlinks_cap) / p.outlinks_cap,
        occurrences=occurrences,
        words=words,
        threshold=p.threshold,
    )
