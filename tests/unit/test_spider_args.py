import re

import pytest

from crawler.seeds import SeedError
from crawler.spiders.base import make_crawl_id
from crawler.spiders.general import GeneralSpider


def test_allowed_domains_scope():
    spider = GeneralSpider(seed_urls="http://www.a.test/", allowed_domains="a.test, Example.org")
    assert spider.allowed_domains == ["a.test", "example.org"]
    assert spider.in_scope("http://www.a.test/x")
    assert spider.in_scope("http://a.test/")
    assert spider.in_scope("https://docs.example.org/")
    assert not spider.in_scope("http://b.test/")
    assert not spider.in_scope("http://nota.test/")
    assert GeneralSpider(seed_urls="http://www.a.test/").in_scope("http://anything.test/")


def test_preflight_rejects_bad_seeds(tmp_path):
    with pytest.raises(SeedError):
        GeneralSpider.preflight({"seeds": str(tmp_path / "none.txt")})
    GeneralSpider.preflight({"seed_urls": "http://a.test/"})


def test_crawl_id_sources():
    assert make_crawl_id("general", {}, {"crawl_id": "mine", "_job": "j"}) == "mine"
    assert make_crawl_id("general", {}, {"_job": "job42"}) == "job42"
    assert make_crawl_id("general", {"JOBDIR": "/tmp/jobs/run7/"}, {}) == "run7"
    generated = make_crawl_id("general", {}, {})
    assert re.fullmatch(r"general-\d{8}T\d{6}-[0-9a-f]{6}", generated)
