"""The synthetic web's benchmark options: site sizes, topic mentions, portal order,
neutral URLs."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from urllib.parse import urlsplit

import pytest

from crawler.focus import document_text, parse_query
from crawler.sandbox import DEFAULT_SITES, SandboxWeb, build_synthetic_web

JAVA = "www.javadev.test"
BEANERY = "www.beanery.test"
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
                                      portal_order=list(DEFAULT_SITES),
                                      neutral_urls={})) == expected


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


def test_neutral_urls_serve_the_same_web_under_urls_without_the_topic():
    # the benchmark's web (bench/focused_harvest.py, neutral-host@N) without the trap
    options = {"site_sizes": SIZES, "mentions": 0.3, "trap": False}
    plain = build_synthetic_web(**options)
    neutral = build_synthetic_web(**options, neutral_urls={JAVA: BEANERY},
                                  portal_order=list(reversed(DEFAULT_SITES)))
    # pages are added in the same order: the i-th URL of one web is the i-th of the other
    assert len(plain.urls()) == len(neutral.urls()) == 2290
    renamed = dict(zip(plain.urls(), neutral.urls(), strict=True))
    changed = {old: new for old, new in renamed.items() if old != new}
    # 481 pages and listings, the login page and its 5 jsessionid copies, the release
    # notes (text/plain fault page), robots.txt
    assert len(changed) == 489
    assert {urlsplit(old).hostname for old in changed} == {JAVA}
    assert {urlsplit(new).hostname for new in changed.values()} == {BEANERY}
    assert not any(JAVA in url for url in neutral.urls())
    assert changed["http://www.javadev.test/"] == "http://www.beanery.test/"
    assert changed["http://www.javadev.test/tutorials/"] == "http://www.beanery.test/s1/"
    assert changed["http://www.javadev.test/java/page-2"] == "http://www.beanery.test/s5/page-2"
    assert (changed["http://www.javadev.test/files/release-notes.txt"]
            == "http://www.beanery.test/files/release-notes.txt")

    # no URL of the topic site says "java", not even glued into a word as the crawler's
    # URL match sees it; in the plain web every one does (its host name)
    query = parse_query("java")
    reachable = neutral.reachable([neutral.portal])
    topic_urls = [url for url in reachable if neutral.topic_of(url) == "java"]
    assert len(topic_urls) == 497  # 481 + the release notes + 15 session-id login URLs
    assert all(urlsplit(url).hostname == BEANERY for url in topic_urls)
    assert not [url for url in [*neutral.urls(), *reachable] if query.fraction_in_url(url)]
    assert all(query.fraction_in_url(url) == 1.0 for url in changed)
    # the other sites keep their URLs (and their links to the topic site are renamed)
    assert {old for old in renamed if old == renamed[old]} == set(plain.urls()) - set(changed)

    def moved(url: str) -> str:
        # URLs that are no static page (the login's query-string variants) change host only
        return renamed.get(url, url.replace(f"//{JAVA}/", f"//{BEANERY}/"))

    # the same link graph, topics and text; the pages of the topic site keep their titles
    # and anchor texts, which say "java" as before
    for old, new in renamed.items():
        assert neutral.topic_of(new) == plain.topic_of(old)
        if old == plain.portal:
            continue
        assert neutral.outlinks(new) == [moved(link) for link in plain.outlinks(old)], old
        before, after = plain.resource(old), neutral.resource(new)
        assert after.status == before.status and after.content_type == before.content_type
        if before.is_html and before.status == 200:
            text = document_text(before.body, html=True, url=old, encoding="utf-8")
            assert document_text(after.body, html=True, url=new, encoding="utf-8") == (
                text.replace(JAVA, BEANERY)), old
    assert sorted(neutral.outlinks(neutral.portal)) == sorted(
        moved(link) for link in plain.outlinks(plain.portal))
    assert neutral.outlinks(neutral.portal)[0] == "http://www.beanery.test/"
    assert Counter(reachable.values()) == Counter(plain.reachable([plain.portal]).values())
    # the topic site: home, 18 sections /s1/ ... /s18/, numbered articles (450 pages as
    # site_sizes asks) and 31 more listing pages, as on www.javadev.test
    paths = Counter(
        re.sub(r"\d+", "N", urlsplit(url).path.split(";")[0]) for url in neutral.urls()
        if urlsplit(url).hostname == BEANERY and neutral.is_html_ok(url)
    )
    assert paths == {"/": 1, "/sN/": 18, "/sN/N": 431, "/sN/page-N": 31, "/account/login": 6}
    assert neutral.resource("http://www.beanery.test/robots.txt").body.endswith(
        b"Sitemap: http://www.beanery.test/sitemap.xml\n")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"site_sizes": {"www.nowhere.test": 100}}, "unknown content host 'www.nowhere.test'"),
        ({"site_sizes": {JAVA: 39}}, "site size of 'www.javadev.test' must be an integer >= 40"),
        ({"site_sizes": {JAVA: 100.5}}, "must be an integer >= 40, not 100.5"),
        ({"mentions": 1.5}, "mentions must be a share between 0 and 1, not 1.5"),
        ({"portal_order": [JAVA]}, "portal_order must list each content host once"),
        ({"portal_order": [*DEFAULT_SITES, JAVA]}, "portal_order must list each content host"),
        ({"neutral_urls": {"www.nowhere.test": BEANERY}},
         "unknown content host 'www.nowhere.test'"),
        ({"neutral_urls": {JAVA: "Beanery"}},
         "neutral_urls: 'Beanery' is not a lower-case host name"),
        ({"neutral_urls": {JAVA: "www.beta.test"}},
         "neutral_urls: host name 'www.beta.test' is already used"),
        ({"neutral_urls": {JAVA: BEANERY, "www.beta.test": BEANERY}},
         "neutral_urls: host name 'www.beanery.test' is already used"),
        ({"neutral_urls": {JAVA: "www.portal.test"}},
         "neutral_urls: host name 'www.portal.test' is already used"),
    ],
)
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        build_synthetic_web(**kwargs)
