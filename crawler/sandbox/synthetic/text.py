"""Random text drawn from a topic's word pool, and links placed into it."""

from __future__ import annotations

import datetime
import re
from random import Random

from crawler.sandbox.synthetic.model import Link, Page
from crawler.sandbox.synthetic.words import COMMON_WORDS, TOPIC_WORDS

_AUTHORS = [
    "Ann Miller",
    "Bo Chen",
    "Carla Ruiz",
    "Dev Patel",
    "Eva Novak",
    "Femi Okafor",
    "Greta Lund",
    "Hiro Sato",
    "Ines Costa",
    "Jon Berg",
]


_POOLS: dict[str, list[str]] = {}


def _pool(topic: str) -> list[str]:
    """Word pool where about a third of the draws are topic words."""
    pool = _POOLS.get(topic)
    if pool is None:
        topical = [word.replace("-", " ") for word in TOPIC_WORDS[topic]]
        pool = COMMON_WORDS + topical * max(1, round(len(COMMON_WORDS) / 2 / len(topical)))
        _POOLS[topic] = pool
    return pool


def _sentence(rng: Random, topic: str) -> list[str]:
    words = rng.choices(_pool(topic), k=rng.randint(7, 16))
    words[0] = words[0].capitalize()
    words[-1] += "."
    return words


def random_paragraph(rng: Random, topic: str) -> list[str | Link]:
    """Two to five sentences, as words (links are inserted among them later)."""
    tokens: list[str | Link] = []
    for _ in range(rng.randint(2, 5)):
        tokens.extend(_sentence(rng, topic))
    return tokens


def random_title(rng: Random, topic: str) -> str:
    """A title of two or three topic words, sometimes with a common word."""
    words = rng.sample(TOPIC_WORDS[topic], rng.randint(2, 3))
    if rng.random() < 0.5:
        words.insert(rng.randint(0, len(words)), rng.choice(COMMON_WORDS))
    return " ".join(w.replace("-", " ") for w in words).title()


def slug_of(text: str) -> str:
    """``text`` as a URL path segment: lower-case words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def random_date(rng: Random) -> str:
    """An ISO date in the 1,000 days from 2023-01-01."""
    day = datetime.date(2023, 1, 1) + datetime.timedelta(days=rng.randrange(1000))
    return day.isoformat()


def fill_text(page: Page, rng: Random) -> None:
    """Give ``page`` its paragraphs, headings, date, author and maybe a table of contents."""
    count = rng.randint(4, 8) if page.kind == "article" else rng.randint(2, 3)
    page.paragraphs = [random_paragraph(rng, page.topic) for _ in range(count)]
    page.headings = [random_title(rng, page.topic) for _ in range((count + 1) // 2)]
    page.date = random_date(rng)
    page.author = rng.choice(_AUTHORS)
    page.toc = page.kind == "article" and rng.random() < 0.3


def insert_link(page: Page, link: Link, rng: Random, third: int | None = None) -> None:
    """Insert ``link`` at a word boundary of a paragraph in the given third of the body."""
    count = len(page.paragraphs)
    if third is None:
        index = rng.randrange(count)
    else:
        lo = count * third // 3
        hi = max(count * (third + 1) // 3, lo + 1)
        index = rng.randrange(lo, min(hi, count))
    tokens = page.paragraphs[index]
    tokens.insert(rng.randint(0, len(tokens)), link)


def mention(rng: Random, topic: str) -> list[str]:
    """A sentence of common words naming ``topic`` in passing: its first topic word (the
    word a query for it would use, e.g. "java") and one more."""
    words = rng.choices(COMMON_WORDS, k=rng.randint(6, 12))
    for word in (TOPIC_WORDS[topic][0], rng.choice(TOPIC_WORDS[topic][1:])):
        words.insert(rng.randint(0, len(words)), word.replace("-", " "))
    words[0] = words[0].capitalize()
    words[-1] += "."
    return words


def mutate_word(word: str, rng: Random) -> str:
    """A common word in place of ``word`` (same capitalisation and final full stop)."""
    replacement = rng.choice(COMMON_WORDS)
    if word[:1].isupper():
        replacement = replacement.capitalize()
    return replacement + ("." if word.endswith(".") else "")


def plain_paragraphs(rng: Random, topic: str, paragraphs: int) -> list[str]:
    """``paragraphs`` paragraphs of plain text (for the hand-made fault and trap pages)."""
    return [
        " ".join(t for t in random_paragraph(rng, topic) if isinstance(t, str))
        for _ in range(paragraphs)
    ]
