"""Per-host page budget (TRAP_HOST_PAGE_BUDGET) as a downloader middleware.

Counts the requests each host actually gets (after the URL-seen test, robots.txt
fetches excluded) and refuses the ones beyond the budget with :class:`HostBudgetExhausted`,
recorded as ``trap``. Counting at the downloader needs no per-URL memory, and a URL
linked many times counts once. Counters are per crawl id and in memory: a resumed crawl
starts them afresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.utils.httpobj import urlparse_cached

from crawler import defaults
from crawler.politeness.traps import HostRequestBudget

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler


class HostBudgetExhausted(IgnoreRequest):
    """The request's host has used its TRAP_HOST_PAGE_BUDGET."""

    uncrawled_category = "trap"


class HostBudgetMiddleware:
    def __init__(self, crawler: Crawler, budget: int) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.budget = budget
        self._budgets: dict[str, HostRequestBudget] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HostBudgetMiddleware:
        budget = crawler.settings.getint("TRAP_HOST_PAGE_BUDGET", defaults.TRAP_HOST_PAGE_BUDGET)
        if budget <= 0:
            raise NotConfigured
        return cls(crawler, budget)

    def process_request(self, request: Request) -> None:
        if request.meta.get("dont_obey_robotstxt"):  # robots.txt itself
            return
        spider = self.crawler.spider
        crawl_id = str(getattr(spider, "crawl_id", "") or getattr(spider, "name", ""))
        budget = self._budgets.get(crawl_id)
        if budget is None:
            budget = self._budgets[crawl_id] = HostRequestBudget(self.budget)
        refusal = budget.admit(urlparse_cached(request).hostname or "")
        if refusal is not None:
            self.stats.inc_value("trap/refused")
            self.stats.inc_value(f"trap/refused/{refusal.kind}")
            raise HostBudgetExhausted(str(refusal))
