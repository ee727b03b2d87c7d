"""Outputs held until the crawl ends: relevant forms of sites judged on topic by the
topic's meaning alone.

The meaning's verdict is relative (:mod:`crawler.deepweb.meaning`): a home page stands
out among the home pages embedded so far, and among the first twenty a site near the
topic may stand out and be judged on topic, then fall back among the pages met later
(heldout26, dictionaries: three book shops stood out among the first home pages, taught
the vocabulary and were judged on topic; at the crawl's end their z was 0.72-0.95 among
35 home pages, the dictionaries' 2.05-3.13; their searches had been written to ``-o``).
An item written to ``-o`` cannot be taken back, so the relevant forms of such a site are
held (stored as not relevant) and, when the crawl ends by itself, output if its meaning
still stands near the topic (z at least the near-topic ``min_z``) and taken back if not.
A site whose own database answered the topic (a probe listed records for the topic's
words) no longer rests on its meaning, and its forms are not held. No Scrapy imports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class HeldOutputs:
    """Items (with ``site``, ``page_url``, ``form_index``) held until the crawl ends."""

    min_z: float  # a held site's meaning z at the end for its forms to be output
    items: dict[tuple[str, str, int], Any] = field(default_factory=dict)

    @staticmethod
    def key(item: Any) -> tuple[str, str, int]:
        return (item.site, item.page_url, item.form_index)

    def hold(self, item: Any) -> None:
        self.items[self.key(item)] = item

    def drop(self, item: Any) -> bool:
        """A later judgement of a held form (not relevant, or of a site that no longer
        rests on its meaning) replaces it. Returns whether it was held."""
        return self.items.pop(self.key(item), None) is not None

    def release(
        self, z_of: Callable[[str], float | None], rests_on_meaning: Callable[[str], bool]
    ) -> tuple[list[Any], list[tuple[Any, float | None]]]:
        """At the crawl's end: (the items to output, the items taken back with their
        site's z). An item is output when its site no longer rests on its meaning or its
        meaning z among every home page embedded is at least ``min_z``."""
        released: list[Any] = []
        taken_back: list[tuple[Any, float | None]] = []
        for item in self.items.values():
            z = z_of(item.site)
            if not rests_on_meaning(item.site) or (z is not None and z >= self.min_z):
                released.append(item)
            else:
                taken_back.append((item, z))
        self.items = {}
        return released, taken_back
