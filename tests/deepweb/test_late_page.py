"""A page in flight when its site stopped is read all the same (heldout20: an auction
house's search page, fetched as a stop rule ended the site, was thrown away)."""

from __future__ import annotations

from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from crawler.deepweb import SiteExploration
from crawler.items import FormItem, PageItem
from crawler.spiders.base import CrawlerSpider
from crawler.spiders.smart import SMART_META, SmartSpider

SEARCH_PAGE = b"""<html><head><title>Advanced search | Hammer and Gavel</title></head><body>
<h1>Find a lot</h1><form action="/find" method="get"><label for="k">Keywords</label>
<input id="k" name="keywords"><label for="s">Sale</label><select id="s" name="sale">
<option>Fine art</option><option>Ceramics</option></select><button>Search lots</button>
</form><a href="/shop/results">Results</a></body></html>"""


def test_a_page_in_flight_when_its_site_stopped_is_read():
    spider = SmartSpider.from_crawler(get_crawler(SmartSpider), topic="auctions")
    site = "www.hammergavel.test"
    exploration = SiteExploration.start(
        site, f"http://{site}/", spider.rules, spider.link_ranker, spider.tree_penalty
    )
    exploration.relevant = True
    exploration.in_flight = 1
    exploration.stopped = "pages_without_form"
    spider.explorations[site] = exploration  # ended: not among the active sites
    url = f"http://{site}/shop/advanced"
    request = Request(url, meta={SMART_META: {"site": site, "depth": 2}})
    response = HtmlResponse(
        url,
        body=SEARCH_PAGE,
        request=request,
        encoding="utf-8",
        headers={"Content-Type": "text/html; charset=utf-8"},
    )
    outputs = list(spider.read_page(response, CrawlerSpider.parse(spider, response), None))
    (page,) = [o for o in outputs if isinstance(o, PageItem)]
    (form,) = [o for o in outputs if isinstance(o, FormItem)]
    assert (page.url, form.action_url, form.searchable) == (url, f"http://{site}/find", True)
    assert exploration.in_flight == 0 and exploration.pages == 1
    assert len(exploration.tree) == 1  # its link to /shop/results, for a resumed round
    assert spider.crawler.stats.get_value("smart/pages_read_after_stop") == 1
