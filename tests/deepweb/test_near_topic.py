"""In-site evidence of a site near the topic before the off_topic stop
(crawler/deepweb/near_topic.py, the exploration's trial)."""

from __future__ import annotations

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
