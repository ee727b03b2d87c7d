"""A descriptive User-Agent naming a contact URL (CRAWLER_CONTACT_URL).

``USER_AGENT = "crawler/0.1 (+https://example.invalid/crawler-contact)"`` with
``CRAWLER_CONTACT_URL = "https://example.org/about-our-crawler"`` sends
``crawler/0.1 (+https://example.org/about-our-crawler)``. The robots.txt product token
(``crawler``) comes from the same string.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.downloadermiddlewares.useragent import UserAgentMiddleware

from crawler import defaults

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

_CONTACT_COMMENT = re.compile(r"\(\+[^)]*\)")
PLACEHOLDER_CONTACT = "example.invalid"


def with_contact(user_agent: str, contact_url: str | None) -> str:
    """``user_agent`` whose ``(+URL)`` comment names ``contact_url`` (added if missing)."""
    if not contact_url:
        return user_agent
    if _CONTACT_COMMENT.search(user_agent):
        return _CONTACT_COMMENT.sub(lambda _: f"(+{contact_url})", user_agent, count=1)
    return f"{user_agent} (+{contact_url})"


def crawler_user_agent(settings: Any) -> str:
    """The User-Agent the crawler sends: USER_AGENT with CRAWLER_CONTACT_URL applied."""
    return with_contact(
        settings.get("USER_AGENT") or "",
        settings.get("CRAWLER_CONTACT_URL", defaults.CRAWLER_CONTACT_URL),
    )


class ContactUserAgentMiddleware(UserAgentMiddleware):
    """Scrapy's UserAgentMiddleware sending :func:`crawler_user_agent`."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ContactUserAgentMiddleware:
        user_agent = crawler_user_agent(crawler.settings)
        if PLACEHOLDER_CONTACT in user_agent:
            logger.warning(
                "the User-Agent %r names no real contact: set CRAWLER_CONTACT_URL before "
                "crawling the real web", user_agent,
            )
        middleware = cls(user_agent)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        return middleware
