"""Robots exclusion as a downloader middleware.

A thin subclass of Scrapy's RobotsTxtMiddleware whose refusals raise RobotsDisallowed,
so the spider's errback can record them as `robots_disallowed`.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.robotstxt import RobotParser


class RobotsDisallowed(IgnoreRequest):
    """The URL is disallowed for this crawler by its host's robots.txt."""


class RobotsExclusionMiddleware(RobotsTxtMiddleware):
    def process_request_2(self, rp: RobotParser | None, request: Request) -> None:
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest as exc:
            raise RobotsDisallowed(str(exc)) from None
