"""The spider trap: an infinite calendar, generated on request."""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Callable
from random import Random

from crawler.sandbox.synthetic.render import simple_page
from crawler.sandbox.synthetic.text import plain_paragraphs
from crawler.sandbox.web import Resource


def calendar_handler(seed: int) -> Callable[[str, str], Resource | None]:
    """The dynamic handler of the calendar trap: month pages link the months before and
    after and their days, without end."""
    pattern = re.compile(r"/cal/(\d+)/(\d{2})(?:/(\d{2}))?")

    def month_days(year: int, month: int) -> int:
        return calendar.monthrange(year, month)[1] if year <= 9999 else 30

    # Crawlers and ground-truth walks ask for the same pages repeatedly.
    @functools.lru_cache(maxsize=4096)
    def handler(path: str, query: str) -> Resource | None:
        match = pattern.fullmatch(path)
        if query or match is None:
            return None
        year, month = int(match[1]), int(match[2])
        if not 1 <= month <= 12 or year < 1:
            return None
        rng = Random(f"{seed}:{path}")
        prev_ym = (year, month - 1) if month > 1 else (year - 1, 12)
        next_ym = (year, month + 1) if month < 12 else (year + 1, 1)
        if match[3] is None:
            title = f"Events {year}-{month:02d}"
            links = [
                (f"/cal/{prev_ym[0]}/{prev_ym[1]:02d}", "previous month"),
                (f"/cal/{next_ym[0]}/{next_ym[1]:02d}", "next month"),
            ]
            links += [
                (f"/cal/{year}/{month:02d}/{d:02d}", f"day {d}")
                for d in range(1, month_days(year, month) + 1)
            ]
        else:
            day = int(match[3])
            if not 1 <= day <= month_days(year, month):
                return None
            title = f"Events {year}-{month:02d}-{day:02d}"
            links = [(f"/cal/{year}/{month:02d}", "month view")]
            if day > 1:
                links.append((f"/cal/{year}/{month:02d}/{day - 1:02d}", "previous day"))
            if day < month_days(year, month):
                links.append((f"/cal/{year}/{month:02d}/{day + 1:02d}", "next day"))
        body = simple_page(title, plain_paragraphs(rng, "events", 1), links)
        return Resource(body.encode("utf-8"))

    return handler
