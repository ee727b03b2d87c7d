"""Stage 2: link ranking learned online, the link tree, stop rules."""

from __future__ import annotations

import math

import pytest

from crawler import defaults
from crawler.deepweb import (
    Form,
    FormField,
    LinkRanker,
    LinkTree,
    SiteExploration,
    StopRules,
    directory_of,
    link_contexts,
    link_features,
    parse_html,
)
from crawler.deepweb.exploration import ResumePolicy
from crawler.deepweb.page import (
    language_entry,
    list_page_words,
    names_site_map,
    sitemap_locations,
)
from crawler.deepweb.relevance import TopicVocabulary, compound_pattern, link_names_topic
from crawler.deepweb.site_frontier import same_site
from crawler.focus.query import terms


def test_link_rank_learns_from_links_that_led_to_forms():
    ranker = LinkRanker(["search"])
    # path "search" = known path, anchor {search, catalogu} against {search}: 1/sqrt(2)
    assert ranker.rank(link_features("http://a.test/search/", "Search catalogue", "")) == (
        pytest.approx(1 + 1 / math.sqrt(2) + 0, abs=1e-12)
    )
    unnamed = link_features("http://a.test/s2/more-2.html", "Continue", "")
    assert ranker.rank(unnamed) == 0.0
    ranker.learn(link_features("http://b.test/s2/more-1.html", "Continue", "next"))
    # known: path {search, s, more} (stems), anchor {search, continu}, around {next}
    assert ranker.learned == 1
    assert ranker.rank(unnamed) > 0.0


def test_link_tree_balances_directories():
    tree = LinkTree(LinkRanker(), penalty=0.5)
    for url in (
        "http://a.test/a/1.html",
        "http://a.test/a/2.html",
        "http://a.test/a/3.html",
        "http://a.test/b/1.html",
    ):
        assert tree.add(url, 1)
    assert not tree.add("http://a.test/a/1.html", 2)  # once per site
    order = [tree.pop()[0] for _ in range(4)]
    assert order == [
        "http://a.test/a/1.html",
        "http://a.test/b/1.html",
        "http://a.test/a/2.html",
        "http://a.test/a/3.html",
    ]
    assert tree.pop() is None
    assert (
        directory_of("http://a.test/x.html"),
        directory_of("http://a.test/d/"),
        directory_of("http://a.test/d/e/f.html"),
    ) == ("", "d", "d")


def test_link_tree_takes_the_best_ranked_link_first():
    tree = LinkTree(LinkRanker(["search"]))
    tree.add("http://a.test/about.html", 1, "About us")
    tree.add("http://a.test/find/", 1, "Search", "search our catalogue")
    assert tree.pop()[0] == "http://a.test/find/"


def form(index: int, action: str) -> Form:
    return Form("http://a.test/p", index, action, "GET", [FormField("q", "text")], "search")


def test_stop_rule_pages_without_form_ends_a_site():
    site = SiteExploration.start(
        "a.test", "http://a.test/", StopRules(max_pages_without_form=2), LinkRanker()
    )
    site.relevant = True
    site.page_done(False)
    assert not site.stopped
    site.page_done(False)
    assert site.stopped == "pages_without_form" and site.done
    assert site.next_links(5) == []
    assert not site.resumable  # no link left
    assert site.add_link("http://a.test/late.html", 1)  # kept for a resumed round
    assert site.resumable
    site.resume()
    assert (site.stopped, site.budget, site.rounds) == ("", 22, 2)
    assert [url for url, _, _ in site.next_links(5)] == ["http://a.test/late.html"]


def test_pages_without_form_waits_for_likely_links_then_stops():
    prior = LinkRanker(["search", "catalogue"])
    site = SiteExploration.start(
        "a.test",
        "http://a.test/",
        StopRules(max_pages_without_form=2),
        LinkRanker(["search"]),
        prior=prior,
    )
    site.relevant = True
    site.add_link("http://a.test/about.html", 1, "About us")
    site.add_link("http://a.test/news/1.html", 1, "News")
    site.add_link("http://a.test/cat/", 1, "Catalogue")  # named like a search: likely
    site.add_link("http://a.test/shelves/", 1, "Shelves", navigation=True)  # a menu link
    site.page_done(False)
    site.page_done(False)
    assert site.stopped == "" and site.tree.likely_waiting() == 2
    # the catalogue (prior LT 1/sqrt(2)) before the menu link (0 + bonus 0.3)
    taken = [url for url, _, _ in site.next_links(2)]
    assert taken == ["http://a.test/cat/", "http://a.test/shelves/"]
    site.in_flight = 0
    site.page_done(False)
    assert site.stopped == "pages_without_form" and site.resumable  # about, news left


def test_resume_order_topic_sites_first_then_seeds_then_off_topic():
    def stopped(name: str, relevant: bool | None, score: float) -> SiteExploration:
        site = SiteExploration.start(name, f"http://{name}/", StopRules(), LinkRanker())
        site.relevant, site.relevance = relevant, score
        site.add_link(f"http://{name}/x.html", 1)
        return site

    sites = [
        stopped("off.test", False, 0.9),
        stopped("seed.test", None, 0.1),
        stopped("weak.test", True, 0.6),
        stopped("strong.test", True, 0.9),
    ]
    order = [s.site for s in sorted(sites, key=SiteExploration.resume_order)]
    assert order == ["strong.test", "weak.test", "seed.test", "off.test"]
    off = sites[0]
    off.page_done(False)
    assert off.stopped == "off_topic" and off.resumable
    off.resume()
    off.page_done(False)
    assert off.stopped == ""  # a resumed off-topic site is explored (its out links)
    assert off.rounds == 2
    # judged on topic again after its home page: its exploration starts, round 1
    late = stopped("late.test", False, 0.1)
    late.page_done(False)
    assert late.stopped == "off_topic"
    late.relevant = True
    late.resume()
    assert (late.rounds, late.stopped, late.budget) == (1, "", 1 + StopRules().max_pages)


def test_stop_rule_max_pages_counts_pages_in_flight():
    site = SiteExploration.start("a.test", "http://a.test/", StopRules(max_pages=3), LinkRanker())
    site.relevant = True
    for n in range(5):
        site.add_link(f"http://a.test/{n}.html", 1)
    site.page_done(True)  # the home page
    assert [url for url, _, _ in site.next_links(5)] == [
        "http://a.test/0.html",
        "http://a.test/1.html",
    ]  # 1 fetched + 2 in flight = 3
    site.in_flight -= 2
    site.page_done(True)
    site.page_done(True)
    assert site.stopped == "max_pages"


def test_stop_rules_depth_forms_and_off_topic():
    site = SiteExploration.start(
        "a.test", "http://a.test/", StopRules(max_depth=2, max_forms=1), LinkRanker()
    )
    assert site.add_link("http://a.test/2.html", 2)
    assert not site.add_link("http://a.test/3.html", 3)  # deeper than max_depth
    site.relevant = True
    fresh = site.new_forms([form(0, "http://a.test/s"), form(1, "http://a.test/s")], [True, True])
    assert [f.index for f in fresh] == [0]  # the same form twice on a page counts once
    site.page_done(True)
    assert site.stopped == "max_forms"
    off = SiteExploration.start("b.test", "http://b.test/", StopRules(), LinkRanker())
    off.relevant = False
    off.page_done(False)
    assert off.stopped == "off_topic"


def test_link_contexts_anchor_and_text_around():
    doc = parse_html(
        b'<p>Find rare books in our <a href="/search?b=2&a=1">catalog search</a>'
        b" today. <b>Open</b></p><a href='mailto:x@y.test'>mail</a>",
        "http://a.test/dir/",
    )
    (link,) = link_contexts(doc)
    assert (link.url, link.anchor, link.around) == (
        "http://a.test/search?a=1&b=2",
        "catalog search",
        "Find rare books in our today. Open",
    )


def test_link_contexts_read_image_buttons_alt_text_and_a_later_text_link():
    doc = parse_html(
        b"""<html><body><table><tr><td><a href="/finder/"><img src="b1.gif" alt="Title finder">
        </a></td><td><a href="/vault/"><img src="b2.gif"></a></td></tr></table>
        <p><a href="/finder/">Finder</a> | <a href="/vault/">The vault</a></p></body></html>""",
        "http://shop.test/",
    )
    assert [(ln.url, ln.anchor) for ln in link_contexts(doc)] == [
        ("http://shop.test/finder/", "Title finder"),
        ("http://shop.test/vault/", "The vault"),
    ]


def test_link_contexts_mark_menu_links():
    doc = parse_html(
        b'<header><ul class="menu"><li><a href="/shelves/">Shelves</a></li></ul>'
        b'</header><div class="main-nav"><a href="/stock/">Stock</a></div>'
        b'<div role="navigation"><a href="/r/">R</a></div>'
        b'<p><a href="/about/">About</a></p><footer><a href="/c/">C</a></footer>',
        "http://a.test/",
    )
    assert [(ln.url, ln.navigation) for ln in link_contexts(doc)] == [
        ("http://a.test/shelves/", True),
        ("http://a.test/stock/", True),
        ("http://a.test/r/", True),
        ("http://a.test/about/", False),
        ("http://a.test/c/", False),
    ]


def test_link_contexts_read_frames_as_part_of_the_page():
    # a search widget shown in an iframe of the home page: its src is a link of the page,
    # embedded, named by the frame's title (the first words found for a URL are kept, an
    # <a> to the same page later changes neither)
    doc = parse_html(
        b'<p>Welcome.</p><iframe src="/widget/find.html" title="Song finder"></iframe>'
        b'<iframe src="https://maps.test/embed?x=1"></iframe>'
        b'<p><a href="/about/">About</a> <a href="/widget/find.html">Finder</a></p>',
        "http://lyrics.test/",
    )
    assert [(ln.url, ln.anchor, ln.embedded) for ln in link_contexts(doc)] == [
        ("http://lyrics.test/widget/find.html", "Song finder", True),
        ("https://maps.test/embed?x=1", "", True),
        ("http://lyrics.test/about/", "About", False),
    ]


def test_link_tree_takes_a_pages_frame_before_better_ranked_links():
    tree = LinkTree(LinkRanker(["search"]))
    tree.add("http://a.test/find/", 1, "Search", "search our catalogue")
    tree.add("http://a.test/about.html", 1, "About us")
    tree.add("http://a.test/w/box.html", 1, "", embedded=True)
    assert tree.likely_waiting() == 2  # the frame and the search link
    assert [tree.pop()[0] for _ in range(3)] == [
        "http://a.test/w/box.html",
        "http://a.test/find/",
        "http://a.test/about.html",
    ]
    # a link queued first as a link becomes the page's frame when a page frames it
    tree.add("http://a.test/news.html", 1, "News")
    tree.add("http://a.test/other.html", 1, "Search the catalogue", "search")
    assert not tree.add("http://a.test/news.html", 2, "", embedded=True)
    assert tree.pop()[0] == "http://a.test/news.html"


def test_resume_policy_decides_on_evidence():
    def stopped(name: str, relevant: bool | None, forms: int = 0) -> SiteExploration:
        site = SiteExploration.start(name, f"http://{name}/", StopRules(), LinkRanker())
        site.relevant, site.searchable_forms, site.topic_forms = relevant, forms, forms
        site.add_link(f"http://{name}/x.html", 1)
        site.stopped = "pages_without_form"
        return site

    policy = ResumePolicy("all", max_rounds=2, discovery_pages=2)
    bare, done, off = (
        stopped("bare.test", True),
        stopped("done.test", True, 1),
        stopped("off.test", False),
    )
    # a topic site without a form yet: resumed; with its form found and no likely link
    # left: not; an off-topic site: for discovery, while discovery pays
    assert [policy.allows(s) for s in (bare, done, off)] == [True, False, True]
    off.resume()
    policy.page_fetched(off)
    assert not policy.stops(off)
    policy.page_fetched(off)
    assert policy.stops(off) and off.stopped == "discovery_unproductive"
    other = stopped("other.test", False)
    assert not policy.allows(other)
    assert policy.refusal([other]) == "discovery_unproductive"
    policy.sites_queued(1)  # a new site in the frontier: discovery paid
    assert policy.allows(other)
    # never beyond max_rounds, never against the mode
    bare.resume()
    bare.stopped = "max_pages"
    assert not policy.allows(bare)
    assert not ResumePolicy("topic").allows(other) and ResumePolicy("topic").allows(
        stopped("t.test", True)
    )
    assert policy.refusal([]) == "no_site_left"


def test_a_site_keeps_its_pages_terms_even_when_judged_off_topic():
    # a site judged off topic on its home page may be judged on topic again later
    site = SiteExploration.start("a.test", "http://a.test/", StopRules(), LinkRanker())
    site.add_page_terms(["book", "book", "map"])
    site.relevant = True
    site.add_page_terms(["book"])
    assert dict(site.words) == {"book": 3, "map": 1}
    site.relevant = False
    site.add_page_terms(["car"])
    assert dict(site.words) == {"book": 3, "map": 1, "car": 1}


def test_list_page_words_name_the_category_of_a_page_that_lists_sites():
    listing = parse_html(
        b'<h1>Video stores</h1><a href="http://a.test/">A</a><a href="http://b.test/">B</a>'
        b'<a href="http://c.test/">C</a><a href="/dir/">Up</a>',
        "http://dir.test/dir/arts-movies-video-stores/",
    )
    words = list_page_words(
        "http://dir.test/dir/arts-movies-video-stores/", "Arts: Movies", link_contexts(listing)
    )
    assert words == {"art", "movi", "video", "store", "dir"}
    # two other sites: not a list of sites, its title and path say nothing of them
    partners = parse_html(
        b'<a href="http://a.test/">A</a><a href="http://b.test/">B</a>',
        "http://shop.test/movies/partners.html",
    )
    assert list_page_words("http://shop.test/movies/", "Movies", link_contexts(partners)) == set()


def test_a_seeds_link_that_names_the_topic_comes_first_and_is_likely():
    # a directory's category of the topic lists the topic's sites: read before the
    # others, and the seed is not ended while it waits
    vocabulary = TopicVocabulary(terms("genealogy"))  # its stems, as the spider builds it
    genealogy = "http://d.test/dir/society-genealogy-records-online/"
    assert link_names_topic(vocabulary, genealogy, "Records online")
    assert link_names_topic(vocabulary, "http://d.test/c/7/", "Genealogy")
    assert not link_names_topic(vocabulary, "http://d.test/dir/arts-movies/", "Movies")
    estate = TopicVocabulary(terms("realestate"))
    assert link_names_topic(
        estate, "http://d.test/dir/real-estate/", "", compound_pattern(["realestate"])
    )
    prior = LinkRanker(["search"])
    tree = LinkTree(LinkRanker(["search"]), prior=prior, topic_bonus=1.0)
    tree.add("http://d.test/dir/arts-movies/", 1, "Movies", navigation=True)
    tree.add("http://d.test/about.html", 1, "About")
    tree.add(genealogy, 1, "Records online")
    assert tree.likely_waiting() == 1  # the menu link only
    tree.add(genealogy, 2, "Genealogy", topical=True)  # seen again, naming the topic
    assert tree.likely_waiting() == 2
    # genealogy 0 + 1.0, the menu link 0 + 0.3, about 0
    assert [tree.pop()[0] for _ in range(3)] == [
        genealogy,
        "http://d.test/dir/arts-movies/",
        "http://d.test/about.html",
    ]


def test_resume_policy_says_why_a_stopped_site_is_not_resumed():
    def stopped(name: str, relevant: bool, forms: int = 0, rounds: int = 1) -> SiteExploration:
        site = SiteExploration.start(name, f"http://{name}/", StopRules(), LinkRanker())
        site.relevant, site.topic_forms, site.rounds = relevant, forms, rounds
        site.add_link(f"http://{name}/x.html", 1)
        site.stopped = "pages_without_form"
        return site

    policy = ResumePolicy("all", max_rounds=2, discovery_pages=1)
    off = stopped("off.test", False)
    sites = [stopped("bare.test", True), stopped("done.test", True, 1), off]
    sites.append(stopped("twice.test", True, rounds=2))
    assert [policy.why_not(s) for s in sites] == ["", "form_found", "", "max_rounds"]
    boxed = stopped("boxed.test", True)
    boxed.searchable_forms = 1  # its "Search this site" box: not the search of records
    assert policy.why_not(boxed) == ""
    off.resume()
    policy.page_fetched(off)  # a discovery page, no new site: discovery stops paying
    off.stopped = "discovery_unproductive"
    empty = stopped("empty.test", False)
    empty.tree.pop()
    assert policy.why_not(stopped("other.test", False)) == "discovery_unproductive"
    assert policy.why_not(empty) == "not_resumable"
    assert ResumePolicy("topic").why_not(stopped("o.test", False)) == "mode"
    assert dict(policy.not_resumed(sites + [empty])) == {
        "topic:allowed": 1,
        "topic:form_found": 1,
        "topic:max_rounds": 1,
        "not_resumable": 2,  # no link left; ended as discovery_unproductive
    }


def test_a_link_to_a_page_listing_sites_comes_after_search_links_and_is_likely():
    # a shop's "Partners" page links to the topic's other shops (site locating)
    prior = LinkRanker(defaults.SMART_LINK_PRIOR_WORDS.split())
    sites = LinkRanker(defaults.SMART_LINK_SITES_WORDS.split())
    tree = LinkTree(LinkRanker(defaults.SMART_LINK_PRIOR_WORDS.split()), prior=prior, sites=sites)
    for url, anchor in [
        ("http://a.test/news/", "News"),
        ("http://a.test/partners", "Partners"),
        ("http://a.test/search/", "Search"),
        ("http://a.test/about", "About us"),
    ]:
        tree.add(url, 1, anchor)
    assert tree.likely_waiting() == 2
    # search 0.603 (the prior words), partners 0.5 * 2/sqrt(6) = 0.408, the others 0
    assert [tree.pop()[0] for _ in range(4)] == [
        "http://a.test/search/",
        "http://a.test/partners",
        "http://a.test/news/",
        "http://a.test/about",
    ]


def test_a_site_map_link_is_named_by_its_anchor_or_its_path():
    assert names_site_map("http://a.test/sitemap", "Site map")
    assert names_site_map("http://a.test/site-map.html", "Pages")
    assert names_site_map("http://a.test/help/index-2", "Site index")
    assert names_site_map("http://a.test/sitemap/", "")
    assert not names_site_map("http://a.test/sitemap.xml", "")  # not a page to follow
    assert not names_site_map("http://a.test/maps/site/", "Site maps of the area")
    assert not names_site_map("http://a.test/map", "Map")


def test_the_site_map_is_read_early_and_keeps_the_site_going():
    # a search linked from the site map alone (heldout34-36): the footer's "Site map"
    # comes after a menu link named like a search, before the other menu links and
    # the links of the text, and is likely: the site is not given up before it
    tree = LinkTree(LinkRanker(["search"]), prior=LinkRanker(["search"]))
    tree.add("http://a.test/about.html", 1, "About us", navigation=True)
    tree.add("http://a.test/news/1.html", 1, "Read more")
    tree.add("http://a.test/sitemap", 1, "Site map", site_map=True)
    tree.add("http://a.test/search/", 1, "Search", navigation=True)
    assert tree.likely_waiting() == 3  # the two menu links and the site map
    assert [tree.pop()[0] for _ in range(4)] == [
        "http://a.test/search/",
        "http://a.test/sitemap",
        "http://a.test/about.html",
        "http://a.test/news/1.html",
    ]
    # a site map link met first in a page's text and later named so is one
    tree.add("http://a.test/pages.html", 1, "Pages")
    tree.add("http://a.test/news/2.html", 1, "More news")
    assert tree.likely_waiting() == 0
    assert not tree.add("http://a.test/pages.html", 2, "", site_map=True)
    assert tree.likely_waiting() == 1
    assert tree.pop()[0] == "http://a.test/pages.html"


def test_pages_without_form_wait_for_the_site_map():
    rules = StopRules(max_depth=3, max_pages=20, max_pages_without_form=2)
    site = SiteExploration.start("a.test", "http://a.test/", rules, LinkRanker())
    site.relevant = True
    site.add_link("http://a.test/sitemap", 1, "Site map", site_map=True)
    site.add_link("http://a.test/x.html", 1, "X")
    for _ in range(3):
        site.page_done(False)
    assert site.stopped == ""  # the site map waits
    assert site.next_links(1)[0][0] == "http://a.test/sitemap"
    site.page_done(False)
    assert site.stopped == "pages_without_form"


def test_another_host_of_the_same_registered_domain_is_part_of_the_site():
    assert same_site("lookup.kelby.test", "www.kelby.test")
    assert same_site("kelby.test", "www.kelby.test")
    assert same_site("search.kelby.co.uk", "www.kelby.co.uk")
    assert not same_site("www.other.test", "www.kelby.test")
    assert not same_site("www.kelby.co.uk", "www.other.co.uk")  # a public suffix of two
    assert not same_site("lookup.kelby.test:8081", "www.kelby.test:8080")
    assert not same_site("127.0.0.2:8080", "127.0.0.1:8080")
    assert same_site("127.0.0.1:8080", "127.0.0.1:8080")


def test_a_language_chooser_leads_to_the_crawls_language():
    def entry(body: bytes) -> str | None:
        return language_entry("http://a.test/", link_contexts(parse_html(body, "http://a.test/")))

    chooser = (
        b'<h1>Choose your language</h1><a href="/de/">Deutsch</a> <a href="/en/">English</a>'
        b'<footer><a href="/imprint">Imprint</a> <a href="http://b.test/">B</a></footer>'
    )
    assert entry(chooser) == "http://a.test/en/"
    assert entry(b'<a href="/fr-fr/">Fran\xc3\xa7ais</a><a href="/de/index.html">D</a>') == (
        "http://a.test/fr-fr/"  # no English part: the first language
    )
    # a site in one language with a language switch in its menu is no chooser
    assert (
        entry(b'<nav><a href="/books/">Books</a><a href="/de/">DE</a><a href="/fr/">FR</a></nav>')
        is None
    )
    assert entry(b'<a href="/en/">English</a><a href="/about/">About</a>') is None  # one
    assert entry(b'<a href="/en/">E</a><a href="http://c.test/de/">D</a>') is None


def test_the_site_map_waits_once_a_form_that_may_be_relevant_is_found():
    rules = StopRules(max_depth=3, max_pages=20, max_pages_without_form=2)
    site = SiteExploration.start("a.test", "http://a.test/", rules, LinkRanker())
    site.relevant = True
    site.add_link("http://a.test/about.html", 1, "About", navigation=True)
    site.add_link("http://a.test/sitemap", 1, "Site map", site_map=True)
    site.topic_forms = 1  # its search found on the home page
    site.page_done(True)
    site.page_done(False)
    assert site.next_links(1)[0][0] == "http://a.test/about.html"
    site.page_done(False)
    assert site.stopped == "pages_without_form"  # the site map is not likely now


def test_an_xml_sitemap_lists_the_sites_pages():
    body = (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<url><loc>http://a.test/find?b=2&amp;a=1</loc></url>"
        b"<url><loc>http://a.test/about/</loc><lastmod>2026-01-01</lastmod></url>"
        b"<url><loc>http://a.test/about/</loc></url><url><loc>mailto:x@a.test</loc></url>"
        b"</urlset>"
    )
    assert sitemap_locations(body) == ["http://a.test/find?a=1&b=2", "http://a.test/about/"]
    assert sitemap_locations(body, limit=1) == ["http://a.test/find?a=1&b=2"]
    index = (
        b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<sitemap><loc>http://a.test/s1.xml</loc></sitemap></sitemapindex>"
    )
    assert sitemap_locations(index) == []  # names sitemaps, no page
    assert sitemap_locations(b"<html><body>Not found</body></html>") == []
