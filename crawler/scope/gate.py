"""The crawl's scope as the scheduler and the live control see it (glue, no Scrapy
imports): the rules of ``-a scope=FILE`` or ``CRAWL_SCOPE_FILE`` plus the excludes
added while the crawl runs (``scrapy control ... exclude RULE``), and what a refusal
records.

One :class:`ScopeGate` per crawler (:func:`scope_gate`): the best-first scheduler asks it
before a URL enters the frontier (seeds, links, redirects, sitemaps: every request the
engine schedules) and again when a queued URL leaves the frontier (so an exclude added
live applies to URLs already queued); the control poller adds rules to it.
"""

from __future__ import annotations

import logging
from typing import Any

from crawler import defaults
from crawler.scope.rules import Rule, Scope, load_scope

logger = logging.getLogger(__name__)

#: request.meta key: why the scheduler refused the request (str), set when the refusal
#: is to be recorded in ``uncrawled`` as ``out_of_scope`` (the storage pipeline reads it
#: on ``request_dropped``).
SCOPE_REFUSAL_META = "scope_refusal"
#: the ``uncrawled`` category of a URL refused by the scope
OUT_OF_SCOPE = "out_of_scope"


class ScopeGate:
    def __init__(self, scope: Scope, *, record: bool, stats: Any = None) -> None:
        self.scope = scope
        self.record = record  # record refused links and seeds (redirects and queued: always)
        self.stats = stats

    def refusal(self, url: str, *, kind: str) -> str | None:
        """None when ``url`` may enter (or leave) the frontier, else the reason; counts
        the refusal as ``scope/refused`` and ``scope/refused/KIND`` (link, seed, redirect,
        queued)."""
        if not self.scope:
            return None
        reason = self.scope.refusal(url)
        if reason is not None and self.stats is not None:
            self.stats.inc_value("scope/refused")
            self.stats.inc_value(f"scope/refused/{kind}")
        return reason

    def exclude(self, rule: Rule) -> bool:
        """Add a rule while the crawl runs; True if it is new."""
        added = self.scope.add(rule)
        if added and self.stats is not None:
            self.stats.set_value("scope/rules", len(self.scope.rules))
        return added


def scope_file_setting(settings: Any, spider_args: dict[str, Any]) -> str | None:
    """The scope file a crawl uses: ``-a scope=FILE``, else ``CRAWL_SCOPE_FILE``."""
    return spider_args.get("scope") or settings.get("CRAWL_SCOPE_FILE", defaults.CRAWL_SCOPE_FILE)


def scope_gate(crawler: Any) -> ScopeGate:
    """The ScopeGate of a crawler, created once (by the first component that asks, once
    the spider exists). Raises ScopeFileError for an unusable file."""
    gate = getattr(crawler, "scope_gate", None)
    if gate is None:
        settings = crawler.settings
        spider = getattr(crawler, "spider", None)
        path = scope_file_setting(settings, {"scope": getattr(spider, "scope", None)})
        scope = load_scope(path) if path else Scope([], "")
        gate = ScopeGate(
            scope,
            record=settings.getbool(
                "SCOPE_RECORD_OUT_OF_SCOPE", defaults.SCOPE_RECORD_OUT_OF_SCOPE
            ),
            stats=crawler.stats,
        )
        if scope:
            crawler.stats.set_value("scope/rules", len(scope.rules))
            logger.info("crawl scope: %d rules from %s", len(scope.rules), path)
        crawler.scope_gate = gate
    return gate
