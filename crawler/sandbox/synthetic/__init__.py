"""Deterministic synthetic web: topical sites, mirrors, robots rules, a spider trap, faults.

:func:`build_synthetic_web` returns a :class:`~crawler.sandbox.web.SandboxWeb` whose
content only depends on its arguments. Each feature draws from its own
``random.Random`` stream derived from the seed, so switching a feature off removes its
pages and links without reshuffling the rest of the web.

One module per job: ``words`` (vocabulary), ``hosts`` (host names and their roles),
``model`` (sites, pages, links before rendering), ``text`` (random text and link
placement), ``sites`` (structure and links of the content sites), ``render`` (HTML),
``faults`` (error and odd pages, URL explosions), ``trap`` (the infinite calendar) and
``build`` (putting it together).
"""

from crawler.sandbox.synthetic.build import build_synthetic_web
from crawler.sandbox.synthetic.hosts import (
    DEAD_HOST,
    DEFAULT_SITES,
    MIRROR_HOST,
    NEAR_MIRROR_HOST,
    PORTAL_HOST,
    ROBOTS_5XX_HOST,
    TRAP_ENTRY,
    TRAP_HOST,
)
from crawler.sandbox.synthetic.sites import MIN_SITE_PAGES
from crawler.sandbox.synthetic.words import COMMON_WORDS, TOPIC_LABELS, TOPIC_SECTIONS, TOPIC_WORDS

__all__ = [
    "COMMON_WORDS",
    "DEAD_HOST",
    "DEFAULT_SITES",
    "MIN_SITE_PAGES",
    "MIRROR_HOST",
    "NEAR_MIRROR_HOST",
    "PORTAL_HOST",
    "ROBOTS_5XX_HOST",
    "TOPIC_LABELS",
    "TOPIC_SECTIONS",
    "TOPIC_WORDS",
    "TRAP_ENTRY",
    "TRAP_HOST",
    "build_synthetic_web",
]
