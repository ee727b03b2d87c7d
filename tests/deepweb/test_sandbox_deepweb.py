"""The sandbox deep web: deterministic, a third of the sites with a searchable form at
every depth 0-3, only non-searchable forms elsewhere, every site reachable."""

from __future__ import annotations

from collections import Counter

from crawler.deepweb import classify_form, extract_forms
from crawler.sandbox.deepweb import DEEPWEB_TOPICS, build_deepweb


def test_deterministic_and_shaped_as_documented():
    deepweb = build_deepweb()
    again = build_deepweb()
    assert sorted(deepweb.web.urls()) == sorted(again.web.urls())
    assert all(deepweb.web.fetch(u).body == again.web.fetch(u).body for u in deepweb.web.urls())
    assert len(deepweb.sites) == 45
    assert Counter(s.topic for s in deepweb.sites) == {t: 9 for t in DEEPWEB_TOPICS}
    with_form = [s for s in deepweb.sites if s.form_page]
    assert len(with_form) == 15  # a third
    assert {s.form_depth for s in with_form} == {0, 1, 2, 3}
    assert {(s.form_named, s.form_depth > 0) for s in with_form} >= {(True, True), (False, True)}
    assert deepweb.searchable_forms("books") == {
        "http://www.aspen.test/": "http://www.aspen.test/search/results",
        "http://www.kestrel.test/s2/more-2.html": "http://www.kestrel.test/cgi-bin/search",
        "http://www.fjord.test/search/help.html": "http://www.fjord.test/search/results",
    }
    assert not deepweb.web.robots_allows("http://www.kestrel.test/cgi-bin/search?q=x")


def test_forms_of_every_page_match_the_ground_truth():
    deepweb = build_deepweb()
    web = deepweb.web
    reachable = web.reachable(deepweb.seeds)
    searchable_pages = set()
    for url in reachable:
        found = web.fetch(url)
        if not found.is_html:
            continue
        for form in extract_forms(found.body, url):
            if classify_form(form).searchable:
                searchable_pages.add(url)
                assert form.action_url == deepweb.searchable_forms()[url]
    assert searchable_pages == set(deepweb.searchable_forms())
    hosts = {url.split("/")[2] for url in reachable}
    assert hosts == {s.host for s in deepweb.sites} | {"www.sitedirectory.test"}
