"""In-site evidence of a site near the topic before the off_topic stop
(crawler/deepweb/near_topic.py, the exploration's trial)."""

from __future__ import annotations

import json
import re

import pytest

from crawler.deepweb import LinkRanker, SiteExploration, StopRules
from crawler.deepweb.exploration import TRIAL_RUNNING
from crawler.deepweb.near_topic import (
    GIVE_UP,
    KEEP,
    WAIT,
    InnerPages,
    NearTopicRules,
    TopicNames,
    near_topic,
    topic_word_forms,
    weigh_in_site,
)
from crawler.deepweb.word_family import WordFamily
from crawler.focus.query import terms
from crawler.sandbox.web import SandboxWeb, html_page

RULES = NearTopicRules(
    pages=3,
    min_z=1.0,
    min_pages_seen=20,
    min_hits=2,
    min_pages_naming=1,
    min_record_hits=1,
    until_sites=3,
)


def test_topic_word_forms_add_the_singular_the_analyzer_does_not_fold():
    # "theses" is stemmed "these", "thesis" "thesi": a repository's records say "thesis"
    assert topic_word_forms(["theses"]) == {"these", "thesi"}
    # plurals the analyzer folds need nothing more
    assert topic_word_forms(["permits"]) == {"permit"}
    assert topic_word_forms(["Dictionaries"]) == {"dictionari"}
    assert topic_word_forms(["analyses"]) == {"analys", "analysi"}
    assert topic_word_forms(["buses"]) == {"buse"}  # five letters: not a Greek plural


def test_near_topic_by_meaning_while_the_topics_sites_are_not_found():
    # a planning register's home page: z 1.81 among 30 home pages, no topic site found
    assert near_topic(1.81, 30, 0, RULES) == "its meaning z 1.81 among 30 home pages"
    assert near_topic(1.81, 30, 2, RULES) == "its meaning z 1.81 among 30 home pages"
    assert near_topic(0.99, 30, 0, RULES) == ""  # not near: given up after its home page
    assert near_topic(2.5, 19, 0, RULES) == ""  # too few home pages for a z
    assert near_topic(None, 0, 0, RULES) == ""  # not embedded
    # three topic sites found: the vocabulary judges, no site is weighed page by page
    assert near_topic(2.5, 30, 3, RULES) == ""
    # off: no site is near
    off = NearTopicRules(pages=0, min_z=1.0, min_pages_seen=20, min_hits=2, min_pages_naming=1)
    assert near_topic(3.0, 30, 0, off) == ""


def test_records_that_name_the_topic_keep_the_site():
    names = TopicNames(WordFamily(terms("permits")), topic_word_forms(["permits"]))
    inner = InnerPages()
    inner.add(terms("Search planning applications by reference or street"), names)
    assert weigh_in_site(inner, RULES) == WAIT
    # its search, asked "permits": 8 records, one "Advertisement consent permit"
    records = terms("12 High St: illuminated fascia sign, advertisement consent permit")
    assert inner.add_records(8, records, names) == 1
    assert weigh_in_site(inner, RULES) == KEEP
    assert inner.summary() == (
        "1 inner pages, topic words 0 times on 0 of them (none); "
        "a probe with the topic's words: 8 records, topic words 1 times"
    )
    # one record is no list
    single = InnerPages()
    single.add_records(1, terms("permit permit"), names)
    assert weigh_in_site(single, RULES) == WAIT


def test_inner_pages_that_name_the_topic_keep_the_site_whose_search_lists_records():
    names = TopicNames(WordFamily(terms("permits")), topic_word_forms(["permits"]))
    inner = InnerPages()
    page = terms("Browse the register: 13 Advertisement consent permits. 4 Tree works permit")
    assert inner.add(page, names) == 2
    assert inner.names_topic(RULES)
    # a neighbour's pages name the topic too (a papers archive says "thesis"): not alone
    assert weigh_in_site(inner, RULES) == WAIT
    inner.add_records(11, terms("Extension, rear, single storey"), names)  # no topic word
    assert weigh_in_site(inner, RULES) == KEEP


def test_inner_pages_without_the_topic_give_the_site_up():
    names = TopicNames(WordFamily(terms("permits")), topic_word_forms(["permits"]))
    inner = InnerPages()
    for text in ("Statutes by year", "Search the statute book", "Permit"):  # once: not enough
        inner.add(terms(text), names)
    assert (inner.pages, inner.topic_hits, inner.pages_naming) == (3, 1, 1)
    assert not inner.names_topic(RULES)
    inner.add_records(5, terms("Highways Act 1980"), names)
    assert weigh_in_site(inner, RULES) == GIVE_UP
    # two pages naming it are asked for: the same word twice on one page is not enough
    strict = NearTopicRules(pages=3, min_z=1.0, min_pages_seen=20, min_hits=2, min_pages_naming=2)
    one_page = InnerPages()
    one_page.add(terms("permit permit"), names)
    assert not one_page.names_topic(strict)


def test_theses_are_named_by_thesis_in_records():
    names = TopicNames(WordFamily(terms("theses")), topic_word_forms(["theses"]))
    inner = InnerPages()
    inner.add_records(5, terms("'Rivers of the Dales' (PhD thesis, 2019)"), names)
    assert weigh_in_site(inner, RULES) == KEEP


def test_a_site_on_trial_is_stopped_off_topic_after_its_inner_pages():
    site = SiteExploration.start("a.test", "http://a.test/", StopRules(), LinkRanker())
    site.relevant = False
    site.start_trial(2)  # judged off topic on its home page, near the topic
    assert site.trial == TRIAL_RUNNING
    site.page_done(False)  # the home page
    assert not site.stopped
    site.page_done(False)
    assert not site.stopped
    site.page_done(False)  # 2 inner pages
    assert site.stopped == "off_topic"
    assert site.rounds == 1
    # stopped off topic after its home page, found near later: resumed in its first round
    late = SiteExploration.start("b.test", "http://b.test/", StopRules(), LinkRanker())
    late.add_link("http://b.test/search", 1, "Search")
    late.relevant = False
    late.page_done(False)
    assert late.stopped == "off_topic"
    late.start_trial(3)
    late.resume()
    assert (late.rounds, late.stopped, late.off_topic_after) == (1, "", 4)
    for _ in range(3):
        late.page_done(False)
    assert late.stopped == "off_topic"


# --- a real crawl: planning registers that never say "permit" on their home pages ------

REGISTERS = {
    "www.dalesplanning.test": (
        "Dales Planning Online",
        "Planning applications and building control for the dales: applications "
        "received, decisions and appeals.",
    ),
    "www.fosseplanning.test": (
        "Fosse Valley Planning Online",
        "Planning applications and building regulations for the valley: applications "
        "received, decisions and appeals.",
    ),
}
NEIGHBOUR = {"www.statutefinder.test": ("Statute Finder", "Acts and regulations, revised online.")}
OTHER_SITES = {
    "www.highwayautos.test": ("Highway Auto Sales", "New and used cars, trucks and SUVs."),
    "www.luckytails.test": ("Lucky Tails Sanctuary", "Dogs and cats looking for a home."),
    "www.staffline.test": ("Staffline Recruiting", "Job openings and careers in nursing."),
    "www.riverbendcc.test": ("Riverbend College", "Evening classes and short courses."),
    "www.baytreedeli.test": ("The Bay Tree Deli", "Cheese, bread, olives and coffee."),
    "www.hollinsplumbing.test": ("Hollins Plumbing", "Boilers fitted and leaks fixed."),
    "www.skylinemet.test": ("Skyline Met", "Local forecasts, radar and travel weather."),
    "www.gigsnap.test": ("Gigsnap Tickets", "Tickets for comedy, theatre and festivals."),
    "www.kelbytennis.test": ("Kelby Tennis Club", "Courts, coaching and club nights."),
    "www.greavesjoinery.test": ("Greaves Joinery", "Kitchens, doors and staircases made."),
    "www.sharpcuts.test": ("Sharp Cuts Barbers", "Haircuts and beard trims, walk in."),
    "www.birchwoodvets.test": ("Birchwood Vets", "Vaccinations, neutering, pet care."),
}
SEARCH_PAGE = (
    "<h1>Search</h1>"
    '<form action="/results" method="get"><label for="q">Keyword or reference number'
    '</label><input id="q" name="q" type="text"><button>Go</button></form>'
)


def registers_web() -> SandboxWeb:
    web = SandboxWeb()
    sites = {**REGISTERS, **NEIGHBOUR, **OTHER_SITES}
    links = "".join(
        f'<li><a href="http://{host}/">{title}</a></li>' for host, (title, _) in sites.items()
    )
    web.add_page(
        "http://www.linkatlas.test/",
        html_page("Link Atlas", f"<h1>Link Atlas</h1><p>Sites we like.</p><ul>{links}</ul>"),
    )
    for host, (title, text) in sites.items():
        body = f'<h1>{title}</h1><p>{text}</p><p><a href="/find">Search</a></p>'
        web.add_page(f"http://{host}/", html_page(title, body))
        web.add_page(f"http://{host}/find", html_page(f"Search | {title}", SEARCH_PAGE))
        if host in REGISTERS:  # its records name what they are: permits
            rows = "".join(
                f'<li class="hit"><a href="/app/{n}">{n} High Street</a> {kind}, decided</li>'
                for n, kind in enumerate(
                    ("Advertisement consent permit", "Rear extension", "Tree works permit")
                )
            )
            results = f'<p>3 applications found</p><ul class="hits">{rows}</ul>'
        else:
            results = "<p>No results found.</p>"
        web.add_page(f"http://{host}/results", html_page("Results", results), any_query=True)
    return web


@pytest.mark.slow
def test_a_crawl_keeps_the_near_sites_whose_records_name_the_topic(sandbox, run_crawl, tmp_path):
    server = sandbox(registers_web())
    output = tmp_path / "forms.jsonl"
    result = run_crawl(
        "smart",
        proxy=server.proxy_url,
        args={"topic": "permits", "seed_urls": "http://www.linkatlas.test/"},
        settings={
            # the meaning judges no site on its own here: the registers are near, no more
            "SMART_MEANING_MIN_Z": 9.0,
            "SMART_MEANING_MIN_PAGES": 10,
            "SMART_NEAR_TOPIC_MIN_HOME_PAGES": 10,
            "SMART_NEAR_TOPIC_MIN_Z": 0.8,
            "FEEDS": json.dumps({str(output): {"format": "jsonlines"}}),
        },
    ).check()
    exported = {
        json.loads(line)["action_url"]: json.loads(line) for line in output.read_text().splitlines()
    }
    assert sorted((url, f["probe"], f["confirmed"]) for url, f in exported.items()) == [
        ("http://www.dalesplanning.test/results", "confirmed", True),
        ("http://www.fosseplanning.test/results", "confirmed", True),
    ]
    assert "'smart/near_topic/kept_by_records': 2" in result.stderr
    assert "'smart/sites_on_topic_by_meaning'" not in result.stderr
    # the statute finder is near the topic too: its search has nothing for "permits",
    # its inner pages do not name them: given up, with the evidence logged
    assert re.search(
        r"site www\.statutefinder\.test near the topic given up: near the topic, given up: "
        r"[01] inner pages, topic words 0 times on 0 of them \(none\); a probe with the "
        r"topic's words: no records",
        result.stderr,
    )
    # the near sites' searches were asked (the statute finder's twice: its first answer
    # listed nothing); no other site's form was submitted
    probes = sorted(r.host for r in server.log if r.path == "/results")
    assert probes == [
        "www.dalesplanning.test",
        "www.fosseplanning.test",
        "www.statutefinder.test",
        "www.statutefinder.test",
    ]
    # a site far from the topic is given up after its home page, the reason logged
    assert re.search(
        r"site www\.baytreedeli\.test ended \(off_topic: home page off topic, not near",
        result.stderr,
    )
