"""The topic's word family: a site of the topic that says "to rent", never "rentals"."""

from __future__ import annotations

import urllib.request

from lxml import html

from crawler.deepweb.relevance import TopicVocabulary, link_names_topic
from crawler.deepweb.site_classifier import SiteClassifier
from crawler.deepweb.word_family import WordFamily, family_roots, same_family
from crawler.focus import parse_query
from crawler.focus.query import terms
from crawler.sandbox.web import SandboxWeb, html_page


def test_same_family_needs_a_derivational_suffix_and_a_long_enough_root():
    assert same_family("rental", "rent") and same_family("rent", "renter")
    assert same_family("grant", "grantor") and same_family("genealog", "genealogist")
    assert not same_family("rent", "current")  # not a prefix
    assert not same_family("trial", "tri")  # root of 3 letters
    assert not same_family("event", "eventu")  # "u" is no suffix
    assert not same_family("plant", "plantat")
    assert family_roots(["rental"]) == {"rental", "rent"}
    # the development and held-out topics other than rentals keep their stems alone
    for topic in "books movies jobs autos courses pets hotels plants trials patents grants":
        assert family_roots(terms(topic)) == set(terms(topic)), topic


def test_inflected_and_derived_words_of_a_topic_word_are_its_family():
    family = WordFamily(terms("rentals"))
    words = "rent renting rented rental rentals renter rentable"
    assert all(t in family for t in terms(words))
    assert not any(t in family for t in terms("current parent lettings sale recipes"))
    assert not WordFamily([]) and "rent" not in WordFamily([])
    # SMART_TOPIC_WORD_FAMILY off: the stems alone
    stems_only = WordFamily(terms("rentals"), derived=False)
    assert "rental" in stems_only and "rent" not in stems_only
    classifier = SiteClassifier(parse_query("rentals", "any"), word_family=False)
    assert classifier.keyword_hits("homes to rent, renting made simple") == 0
    assert not TopicVocabulary(terms("rentals"), word_family=False).marks_topic("rent")


# a letting agent's home page as such sites are written: "to rent", "renting",
# "lettings", never "rentals"; a recipe site and a car dealer beside it
LETTING_AGENT = html_page(
    "Keyhole Lettings",
    "<h1>Keyhole Lettings</h1><p>Flats and houses to rent across the city. Renting made "
    "simple: furnished studios, two-bedroom flats, family houses to let.</p>"
    "<p>Landlords: free valuation of your rent.</p><a href='/search'>Find a home</a>",
)
RECIPES = html_page(
    "Basil & Brine",
    "<h1>Recipes</h1><p>Slow-cooked stews, bread and cakes: our kitchen's best recipes."
    "</p><p>Cook with us this week.</p>",
)
CARS = html_page(
    "Highway Auto Sales",
    "<h1>Used cars</h1><p>Certified pre-owned cars, trucks and SUVs. Finance available.</p>",
)


def fetched_home_text(server, url: str) -> str:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": server.proxy_url}))
    with opener.open(url, timeout=10) as answer:
        doc = html.fromstring(answer.read())
    return f"{doc.findtext('.//title') or ''}\n{doc.text_content()}"


def test_a_home_page_served_that_says_to_rent_is_on_topic_for_rentals(sandbox):
    web = SandboxWeb()
    web.add_page("http://www.keyholelettings.test/", LETTING_AGENT)
    web.add_page("http://www.basilbrine.test/", RECIPES)
    web.add_page("http://www.highwayautosales.test/", CARS)
    server = sandbox(web)
    classifier = SiteClassifier(parse_query("rentals", "any"), min_hits=2, min_examples=5)
    letting = fetched_home_text(server, "http://www.keyholelettings.test/")
    # "rent" twice, "renting" once: three words of the family of "rentals", none itself
    assert "rental" not in terms(letting)
    assert classifier.keyword_hits(letting) == 3
    verdict = classifier.classify(letting)
    assert (verdict.relevant, verdict.model, verdict.score) == (True, "keywords", 1.0)
    for url in ("http://www.basilbrine.test/", "http://www.highwayautosales.test/"):
        other = classifier.classify(fetched_home_text(server, url))
        assert (other.relevant, other.score) == (False, 0.0)


def test_the_vocabulary_and_links_name_the_topic_by_its_family():
    words = TopicVocabulary(terms("rentals"), min_pages=2, min_ratio=3.0, max_chance=1.0)
    assert words.marks_topic("rent") and words.marks_topic("renter")
    assert not words.marks_topic("lett")  # a synonym is learned, not derived
    assert words.names_topic(terms("Homes to rent in Leeds"))
    assert link_names_topic(words, "http://dir.test/dir/homes-to-rent/", "Keyhole")
    assert not link_names_topic(words, "http://dir.test/dir/real-estate-listings/", "Gable")
    # a form's own words count a word of the family as the topic's stem (1.0)
    assert words.evidence(terms("Property to rent: area, bedrooms")) == 1.0
    assert words.share({"rent": 2, "flat": 1, "home": 1}) == 0.5
