"""Link rules, strategies, the fingerprint set and the request codec."""

from __future__ import annotations

import random

import pytest
import scrapy

from crawler.frontier.scores import (
    UrlStats,
    attribute_score,
    link_score,
    make_strategy,
    page_link_kinds,
    weighted_terms,
)
from crawler.frontier.seen import FingerprintSet, url_fingerprint
from crawler.schedulers.serialization import RequestCodec


def test_link_score_worked_example_of_the_paper():
    # page A: 5 links to other domains (B..F), 2 to its own (G, H)
    assert link_score(5, 2, inter=True) == pytest.approx(2.31)
    assert link_score(5, 2, inter=False) == pytest.approx(1.155)


def test_beta_zero_counts_as_one_link_of_the_missing_kind():
    assert link_score(0, 50, inter=False) == pytest.approx(50 * 0.33)
    assert link_score(1, 49, inter=False) == pytest.approx(50 * 0.33)  # continuous
    assert link_score(3, 0, inter=True) == pytest.approx(3 * 0.66)


def test_attribute_score_and_page_link_kinds():
    assert attribute_score(3, 3, 5) == 1.0 and attribute_score(1, 1, 1) == 3 / 11
    n_inter, n_intra, kinds = page_link_kinds("http://news.bbc.co.uk/a", [
        "http://www.bbc.co.uk/", "http://bbc.com/", "http://sport.bbc.co.uk/x",
        "http://other.co.uk/",
    ])
    assert (n_inter, n_intra) == (2, 2)
    assert kinds["http://bbc.com/"] and not kinds["http://www.bbc.co.uk/"]


def test_spider_score_terms_are_weighted():
    assert weighted_terms({"relevance": 0.5, "other": 2.0}, {"relevance": 4.0}) == 4.0
    strategy = make_strategy("bfs")
    assert strategy.score(UrlStats(depth=2, extra=0.25)) == -1.75


def test_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="unknown frontier strategy 'pagerank'"):
        make_strategy("pagerank")


def test_fingerprint_set_is_exact_across_merges():
    rng = random.Random(7)
    values = [rng.getrandbits(64) - 2**63 for _ in range(20000)]
    fps = FingerprintSet(values[:5000], merge_min=1000)
    reference = set(values[:5000])
    for value in values[5000:15000]:
        assert fps.add(value) == (value not in reference)
        reference.add(value)
    assert len(fps) == len(reference)
    assert all(v in fps for v in values[:15000])
    assert not any(v in fps for v in values[15000:] if v not in reference)


def test_url_fingerprint_is_a_signed_64_bit_integer():
    fp = url_fingerprint("http://a.test/")
    assert -(2**63) <= fp < 2**63 and fp == url_fingerprint("http://a.test/")
    assert url_fingerprint("http://a.test/", "POST", b"x") != fp


class _Spider(scrapy.Spider):
    name = "codec"

    def parse(self, response):
        pass

    def on_error(self, failure):
        pass


def test_request_codec_round_trip():
    spider = _Spider()
    codec = RequestCodec(spider)
    request = scrapy.Request(
        "http://a.test/x?b=1", callback=spider.parse, errback=spider.on_error,
        meta={"depth": 3, "custom": [1, 2]}, priority=5, headers={"X-A": "1"},
    )
    again = codec.decode(codec.encode(request))
    assert (again.url, again.priority, again.meta, again.headers.get("X-A")) == (
        request.url, 5, {"depth": 3, "custom": [1, 2]}, b"1")
    assert again.callback == spider.parse and again.errback == spider.on_error
    plain = codec.decode(codec.encode(scrapy.Request("http://a.test/", dont_filter=True)))
    assert plain.callback is None and plain.dont_filter and plain.method == "GET"
    assert len(codec.encode(scrapy.Request("http://a.test/"))) < 60


def test_request_codec_compact_form_of_a_plain_link_request():
    """Stored beside its URL, a link request is a tag, its depth and its two method
    names; anything more (another URL, meta, priority, dont_filter) is pickled."""
    spider = _Spider()
    codec = RequestCodec(spider)
    url = "http://a.test/some/long/path/of/a/link.html"
    link = scrapy.Request(url, callback=spider.parse, errback=spider.on_error,
                          meta={"depth": 4})
    payload = codec.encode(link, url)
    assert payload == b"\x01\x00\x00\x00\x04parse\x00on_error"
    again = codec.decode(payload, url)
    assert (type(again), again.url, again.meta, again.priority, again.dont_filter) == (
        scrapy.Request, url, {"depth": 4}, 0, False)
    assert again.callback == spider.parse and again.errback == spider.on_error
    bare = codec.decode(codec.encode(scrapy.Request(url), url), url)
    assert (bare.callback, bare.errback, bare.meta) == (None, None, {})
    with pytest.raises(ValueError, match="needs the URL"):
        codec.decode(payload)
    pickled = [
        codec.encode(link, url + "?other"),
        codec.encode(link.replace(meta={"depth": 4, "custom": 1}), url),
        codec.encode(link.replace(meta={"depth": "4"}), url),
        codec.encode(link.replace(priority=2), url),
        codec.encode(link.replace(dont_filter=True), url),
        codec.encode(link),
    ]
    assert all(p[:1] == b"\x80" for p in pickled)
    assert codec.decode(pickled[1], url).meta == {"depth": 4, "custom": 1}
    assert codec.decode(pickled[3], "ignored").priority == 2
