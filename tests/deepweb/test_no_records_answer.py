"""A probe answered with neither records nor "no results" leaves only the topic's own
words in the form as its evidence (heldout13: every grants site's "Check eligibility"
form, its words learned from the sites that all have it, was output five times)."""

from __future__ import annotations

from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from crawler.deepweb import SiteExploration, extract_forms
from crawler.focus.query import terms
from crawler.items import FormItem
from crawler.spiders.smart import PROBE_META, ProbeState, SmartSpider
from tests.deepweb.items import pending_form_item, teach

CHECKER = """<form action="/eligibility/check" method="get"><label for="o">Your {what}</label>
<select id="o" name="orgtype"><option>Charity</option><option>Community group</option>
</select><label for="i">Annual income</label><select id="i" name="income"><option>Under
10,000</option><option>Over 10,000</option></select><button>Check eligibility</button></form>"""
ANSWER = b"""<html><head><title>Eligibility</title></head><body><h1>You may be eligible
</h1><p>Organisations of your size can apply to most of our funds.</p></body></html>"""


def probe_answer(spider: SmartSpider, what: str) -> FormItem:
    site = "www.villagehallfunding.test"
    exploration = SiteExploration.start(
        site, f"http://{site}/", spider.rules, spider.link_ranker, spider.tree_penalty
    )
    exploration.relevant = True
    exploration.add_page_terms(terms("village hall grants: grants for community buildings"))
    spider.explorations[site] = exploration
    (form,) = extract_forms(CHECKER.format(what=what).encode(), f"http://{site}/eligibility")
    item = pending_form_item(
        form, site, relevant=True, relevance_score=1.0, site_score=1.0, form_score=1.0
    )
    url = f"{form.action_url}?orgtype=Charity"
    state = ProbeState(form, item, {}, 5, {"grant"})  # its last query
    response = HtmlResponse(
        url,
        body=ANSWER,
        request=Request(url, meta={PROBE_META: state}),
        headers={"Content-Type": "text/html; charset=utf-8"},
    )
    (final,) = [o for o in spider.parse_probe(response) if isinstance(o, FormItem)]
    return final


def test_a_checker_answered_without_records_is_relevant_by_the_topics_words_only():
    spider = SmartSpider.from_crawler(get_crawler(SmartSpider), topic="grants")
    teach(spider.vocabulary, (
        "grants for charities check eligibility organisation income",
        "community grants check eligibility organisation theme",
        "grant funding check eligibility organisation",
    ))  # fmt: skip
    # its words are learned ones ("check", "elig", "organis"): not relevant
    final = probe_answer(spider, "organisation")
    assert (final.probe, final.confirmed, final.relevant) == ("no_records", False, False)
    # a form whose own words name the topic stays relevant on them
    final = probe_answer(spider, "grant application")
    assert (final.probe, final.confirmed, final.relevant) == ("no_records", False, True)
