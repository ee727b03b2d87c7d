"""The request codec's fast path looks at a request's headers without building them
(Scrapy builds a Headers object on first access), and still stores headers that were set."""

from __future__ import annotations

import scrapy

from crawler.schedulers import serialization
from crawler.schedulers.serialization import RequestCodec


class _Spider(scrapy.Spider):
    name = "codec-headers"

    def parse(self, response):
        pass


def test_encoding_a_plain_request_does_not_build_its_headers():
    spider = _Spider()
    codec = RequestCodec(spider)
    request = scrapy.Request("http://h.test/a", callback=spider.parse, meta={"depth": 2})
    decoded = codec.decode(codec.encode(request))
    assert decoded.url == request.url and decoded.meta == {"depth": 2}
    assert decoded.callback == spider.parse
    if serialization._LAZY_HEADERS:
        assert request._headers is None


def test_headers_set_after_construction_are_stored():
    spider = _Spider()
    codec = RequestCodec(spider)
    request = scrapy.Request("http://h.test/b", callback=spider.parse)
    request.headers["X-Test"] = "1"
    assert codec.decode(codec.encode(request)).headers.get("X-Test") == b"1"
    empty = scrapy.Request("http://h.test/c")
    assert not empty.headers  # built, empty: the same as never built
    assert codec.decode(codec.encode(empty)).headers == {}
