from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from crawler.items import UncrawledItem
from crawler.middlewares.callback_errors import CallbackErrorMiddleware


def test_callback_exception_becomes_uncrawled_item():
    crawler = get_crawler()
    crawler.stats.open_spider()
    mw = CallbackErrorMiddleware.from_crawler(crawler)
    request = Request("http://b.test/final", meta={"redirect_urls": ["http://A.test/x?b=1&a=2"]})
    response = HtmlResponse("http://b.test/final", body=b"<html>", request=request)
    out = list(mw.process_spider_exception(response, ValueError("bad markup")))
    assert out == [UncrawledItem("http://a.test/x?a=2&b=1", "other",
                                 "callback error: ValueError: bad markup")]
    assert crawler.stats.get_value("spider_exceptions/recorded") == 1
