"""A site judged on topic because its search lists records for the topic's words teaches
the topic vocabulary its home page, as a site near the topic kept by its records does:
the sites judged off topic before are judged again by their share of the topic's words
(heldout38: a herbarium judged on topic by its probe late in the crawl taught nothing,
and a museum and a cabinet of curiosities whose home pages share its words, judged on
topic by them in the runs where the herbarium was kept on trial, were never judged
again)."""

from __future__ import annotations

from collections import Counter

from scrapy.utils.test import get_crawler

from crawler.deepweb import SiteExploration, extract_forms
from crawler.deepweb.exploration import TRIAL_GIVEN_UP, TRIAL_RUNNING
from crawler.focus.query import terms
from crawler.spiders.smart import SmartSpider
from tests.deepweb.items import teach

HERBARIUM = (
    "Dales Herbarium: pressed plants, fossils and insect drawers; catalogue of the collection"
)
CABINET = (
    "Cabinet of Curiosities: drawers of fossils, pressed plants and insects; collection catalogue"
)
BAKERY = "Blue Door Bakery: bread, cakes and coffee; our team and opening hours"
OTHER_HOMES = (
    "Harrowby Tennis Club: courts, coaching and club nights",
    "Tideway Boats: cruisers and yachts for sale",
    "Lucky Tails Sanctuary: dogs and cats looking for a home",
    "Riverbend College: evening classes and short courses",
    "Gigsnap Tickets: comedy, theatre and festivals",
    "Ridgeway Tools: hardware and garden tools",
    "Mill Lane Dental: check-ups, hygienist and emergency appointments",
    "Harbourside Arts Centre: comedy, theatre and festival tickets",
    "Harrowby Renters' Network: advice on rent and repairs",
    "Openprints: preprints and peer reviewed papers",
    "Ashdown Tree Surgeons: felling, pruning and stump grinding",
    "Harrowby Food Bank: donations and volunteering",
)
SEARCH = b"""<form action="/search/results"><label for="t">Scientific name</label>
<input id="t" name="taxon"><button>Search</button></form>"""


def judged_off_topic(spider: SmartSpider, site: str, text: str) -> SiteExploration:
    exploration = SiteExploration.start(
        site, f"http://{site}/", spider.rules, spider.link_ranker, spider.tree_penalty
    )
    exploration.relevant = False
    exploration.home_words = Counter(terms(text))
    spider.vocabulary.learn(text, False)  # as its home page's verdict taught it
    spider.explorations[site] = exploration
    return exploration


def crawl_spider() -> SmartSpider:
    spider = SmartSpider.from_crawler(get_crawler(SmartSpider), topic="specimens")
    # each word the cabinet shares with them is on one topic page: none is learned yet
    teach(spider.vocabulary, (
        "specimen database: pressed flowers in drawers, type specimens",
        "specimens online: insects and plants, type specimens",
    ))  # fmt: skip
    for text in OTHER_HOMES:
        spider.vocabulary.learn(text, False)
    return spider


def test_a_site_whose_records_answer_the_topic_teaches_its_home_page():
    spider = crawl_spider()
    herbarium = judged_off_topic(spider, "www.dalesherbarium.test", HERBARIUM)
    cabinet = judged_off_topic(spider, "www.cabinetofcuriosities.test", CABINET)
    cabinet.trial = TRIAL_GIVEN_UP  # near the topic, given up on its inner pages
    bakery = judged_off_topic(spider, "www.bluedoorbakery.test", BAKERY)
    spider.rejudge_sites()
    assert (cabinet.relevant, bakery.relevant) == (False, False)
    topic_pages = spider.vocabulary.pages[True]
    (form,) = extract_forms(SEARCH, "http://www.dalesherbarium.test/catalog/search")
    spider.site_answers_topic(herbarium, form)
    assert (herbarium.relevant, herbarium.answers_topic) == (True, True)
    assert spider.vocabulary.pages[True] == topic_pages + 1
    assert spider.crawler.stats.get_value("smart/sites_taught_by_records") == 1
    spider.rejudge_sites()  # the next fill(): the share pass
    assert (cabinet.relevant, cabinet.rejudged, bakery.relevant) == (True, True, False)


def test_a_site_on_trial_is_weighed_by_its_own_rule_and_teaches_nothing():
    spider = crawl_spider()
    herbarium = judged_off_topic(spider, "www.dalesherbarium.test", HERBARIUM)
    herbarium.trial = TRIAL_RUNNING
    topic_pages = spider.vocabulary.pages[True]
    (form,) = extract_forms(SEARCH, "http://www.dalesherbarium.test/catalog/search")
    spider.site_answers_topic(herbarium, form)
    assert (herbarium.relevant, herbarium.answers_topic) == (False, True)
    assert spider.vocabulary.pages[True] == topic_pages
