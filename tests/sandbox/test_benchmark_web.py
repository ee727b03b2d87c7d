"""The synthetic web's benchmark options: site sizes, topic mentions, portal order."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from urllib.parse import urlsplit

import pytest

from crawler.focus import document_text
from crawler.sandbox import DEFAULT_SITES, SandboxWeb, build_synthetic_web

JAVA = "www.javadev.test"
SIZES = {host: 450 if host == JAVA else 270 for host in DEFAULT_SITES}
OFF_TOPIC = set(DEFAULT_SITES) - {JAVA}
LISTING_PAGE = re.compile(r"/page-\d+(\.html)?$")


def digest(web: SandboxWeb) -> str:
    h = hashlib.sha256()
    for url in sorted(web.urls()):
        found = web.resource(url)
        assert found is not None
        h.update(url.encode())
        h.update(str(found.status).encode())
        h.update(found.body)
    h.update(repr(sorted(web.topics.items())).encode())
    h.update(repr(web.seeds).encode())
    return h.hexdigest()


@pytest.fixture(scope="module")
def bench_web() -> SandboxWeb:
    return build_synthetic_web(site_sizes=SIZES, mentions=0.3, trap=False, faults=False,
                               mirrors=False)


def test_the_options_left_at_their_defaults_change_nothing():
    # the digest of build_synthetic_web() before the options existed
    expected = "c4e952c52e97258c4be77cac2e3336f78096e005b5ad7a9424f2581cdfb355da"
    assert digest(build_synthetic_web()) == expected
    assert digest(build_synthetic_web(site_sizes={}, mentions=0.0,
                                      portal_order=list(DEFAULT_SITES))) == expected


def test_site_sizes_count_home_section_and_article_pages(bench_web):
    pages = Counter(
        urlsplit(url).hostname for url in bench_web.urls()
        if bench_web.is_html_ok(url) and urlsplit(url).hostname in DEFAULT_SITES
        and not LISTING_PAGE.search(urlsplit(url).path)
    )
    assert pages == SIZES
    # a big site is wider, not deeper: sections of about 25 pages (beta and gamma have
    # their extra members / drafts section)
    sections = Counter(
        urlsplit(url).hostname for url in bench_web.urls()
        if re.fullmatch(r"/[^/]+/", urlsplit(url).path)
    )
    assert sections == {JAVA: 18, "www.beta.test": 12, "blog.gamma.test": 12,
                        "www.alpha.test": 11, "news.alpha.test": 11, "www.delta.test": 11,
                        "shop.epsilon.test": 11}
    depths = bench_web.reachable([bench_web.portal])
    java_depths = Counter(depth for url, depth in depths.items() if JAVA in url)
    assert java_depths == {1: 1, 2: 24, 3: 207, 4: 209, 5: 39, 6: 1}
    assert sum(java_depths.values()) == 481  # 450 + the paginated listings
    assert all(bench_web.topic_of(url) == "java" for url in depths if JAVA in url)


def test_mentions_put_the_topic_word_on_off_topic_pages(bench_web):
    mentioning = Counter()
    for url in bench_web.reachable([bench_web.portal]):
        found = bench_web.resource(url)
        text = document_text(found.body, html=True, url=url, encoding="utf-8").lower()
        if urlsplit(url).hostname in OFF_TOPIC and re.search(r"\bjava\b", text):
            mentioning[urlsplit(url).hostname] += 1
    # 30% of the articles mention one of the six other topics: about 5% say "java"
    assert sum(mentioning.values()) == 112
    assert set(mentioning) == OFF_TOPIC
    plain = build_synthetic_web(site_sizes=SIZES, trap=False, faults=False, mirrors=False)
    with_anchor = [
        url for url in plain.reachable([plain.portal])
        if urlsplit(url).hostname in OFF_TOPIC and re.search(r"\bjava\b", document_text(
            plain.resource(url).body, html=True, url=url, encoding="utf-8").lower())
    ]
    # without mentions only anchor texts of links to Java articles say "java"
    assert len(with_anchor) == 38


def test_portal_order():
    order = list(reversed(DEFAULT_SITES))
    web = build_synthetic_web(portal_order=order, trap=False, faults=False, mirrors=False)
    assert web.outlinks(web.portal) == [f"http://{host}/" for host in order]
    assert web.seeds == [f"http://{host}/" for host in DEFAULT_SITES]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"site_sizes": {"www.nowhere.test": 100}}, "unknown content host 'www.nowhere.test'"),
        ({"site_sizes": {JAVA: 39}}, "site size of 'www.javadev.test' must be an integer >= 40"),
        ({"site_sizes": {JAVA: 100.5}}, "must be an integer >= 40, not 100.5"),
        ({"mentions": 1.5}, "mentions must be a share between 0 and 1, not 1.5"),
        ({"portal_order": [JAVA]}, "portal_order must list each content host once"),
        ({"portal_order": [*DEFAULT_SITES, JAVA]}, "portal_order must list each content host"),
    ],
)
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        build_synthetic_web(**kwargs)
