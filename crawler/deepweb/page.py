"""What the smart crawler reads from a page besides its forms: each link with its anchor
text and the text around it (the paper's A and T link features)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crawler.urls import canonical_url

#: words of the text around a link kept on each side
AROUND_WORDS = 12


@dataclass(frozen=True)
class LinkContext:
    url: str  # canonical
    anchor: str
    around: str  # words of the enclosing block, anchor excluded


def _words(text: str | None) -> list[str]:
    return (text or "").split()


def link_contexts(doc: Any, around_words: int = AROUND_WORDS) -> list[LinkContext]:
    """The http(s) links of a parsed page (crawler.deepweb.forms.parse_html, links made
    absolute), first occurrence of each URL, with anchor and surrounding text."""
    if doc is None:
        return []
    found: dict[str, LinkContext] = {}
    for element in doc.iter("a", "area"):
        href = element.get("href")
        url = canonical_url(href.strip()) if href else None
        if url is None or url in found:
            continue
        anchor = " ".join(_words(element.text_content())) if element.tag == "a" else (
            element.get("alt") or "")
        parent = element.getparent()
        before: list[str] = []
        after: list[str] = []
        if parent is not None:
            before = _words(parent.text)
            seen = False
            for child in parent:
                if child is element:
                    seen = True
                    after += _words(child.tail)
                    continue
                words = _words(child.text_content()) + _words(child.tail)
                (after if seen else before).extend(words)
        around = before[-around_words:] + after[:around_words]
        found[url] = LinkContext(url, anchor, " ".join(around))
    return list(found.values())
