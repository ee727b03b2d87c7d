"""`scrapy crawl general -a seeds=seeds.txt`: the best-first general crawl."""

from __future__ import annotations

from crawler.spiders.base import CrawlerSpider


class GeneralSpider(CrawlerSpider):
    """Crawls from the seeds, following every http(s) link of every HTML page."""

    name = "general"
    # its link requests are link_request()'s: links to seen URLs skip them
    absorbs_known_links = True
