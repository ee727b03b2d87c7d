"""Probing: the queries a form is submitted with, and reading its result page."""

from __future__ import annotations

from crawler.deepweb import extract_forms, parse_html
from crawler.deepweb.probe import form_data, probe_queries, read_results, record_groups
from crawler.deepweb.relevance import lists_own_offerings
from tests.deepweb.test_form_relevance import learned_vocabulary

ADVANCED = b"""<form action="/catalogue/find" method="post">
  <input type="hidden" name="token" value="x1"><input name="title">
  <input type="text" name="kw" placeholder="Keywords">
  <select name="shelf"><option value="">Any shelf</option><option value="cook">Cookery</option>
  <option value="nov">Novels and other books</option></select>
  <input type="checkbox" name="instock" value="1" checked><input type="checkbox" name="sale">
  <button>Search</button></form>"""
SELECT_ONLY = b"""<form action="/browse"><select name="genre"><option>All genres</option>
  <option value="poetry">Poetry</option><option value="drama">Drama</option></select></form>"""

LAYOUT = """<html><body><ul class="menu"><li><a href="/">Home page link</a></li>
<li><a href="/a">About this shop here</a></li><li><a href="/c">Contact the shop here</a></li></ul>
<ul class="new"><li>New: The Sea, by A. Writer</li><li>New: Old Roads, by B. Poet</li></ul>
{body}</body></html>"""
RESULTS = LAYOUT.format(
    body="""<p>Showing 1-3 of 3 results</p><div class="hits">
<div class="hit"><a href="/b/1">The Blue Book</a> by C. Author, 1999, paperback</div>
<div class="hit"><a href="/b/2">Red Novel</a> by D. Author, 2004, hardcover</div>
<div class="hit"><a href="/b/3">Green Poems</a> by E. Poet, 2011, first edition</div></div>"""
)
NOTHING = LAYOUT.format(body="<h1>Search</h1><p>No results for 'books'. Try again.</p>")


def test_queries_use_the_topic_words_and_the_option_naming_it():
    (form,) = extract_forms(ADVANCED, "http://shop.test/")
    # the search box by name (kw before title), the shelf option that names the topic;
    # the next queries (each sent when the ones before listed no records) leave the
    # selects as the page has them (a narrowed search may list nothing): the topic's
    # words alone, then the learned topic word
    assert probe_queries(form, ["books"], ["novel"]) == [
        {"kw": "books", "shelf": "nov"},
        {"kw": "books"},
        {"kw": "novel"},
    ]
    # without a learned word: the topic's stems
    assert probe_queries(form, ["books"])[2] == {"kw": "book"}
    assert probe_queries(form, ["books"], limit=1) == [{"kw": "books", "shelf": "nov"}]
    assert len(probe_queries(form, ["books"], ["novel"], limit=2)) == 2
    # no select set to a topic option (the shelf's default names the topic): the words,
    # then the learned word
    (plain,) = extract_forms(ADVANCED.replace(b'value="">Any shelf', b'value="nov">Books'),
                             "http://shop.test/")  # fmt: skip
    assert probe_queries(plain, ["books"], ["novel"]) == [{"kw": "books"}, {"kw": "novel"}]
    # a form without a text field: its options alone (the first real one)
    (browse,) = extract_forms(SELECT_ONLY, "http://shop.test/")
    assert probe_queries(browse, ["books"]) == [{"genre": "poetry"}]
    assert probe_queries(browse, ["books"], ["drama"]) == [{"genre": "drama"}]


def test_form_data_keeps_what_the_page_would_submit():
    (form,) = extract_forms(ADVANCED, "http://shop.test/")
    assert form_data(form, {"kw": "books", "shelf": "nov"}) == [
        ("token", "x1"),
        ("title", ""),
        ("kw", "books"),
        ("shelf", "nov"),
        ("instock", "1"),
    ]


def test_result_page_listing_records_confirms_the_form():
    form_page = parse_html(LAYOUT.format(body="<p>Find a book</p>"), "http://shop.test/")
    before = record_groups(form_page)
    # the menu is navigation; the new titles are on the form's page too
    assert list(before) == ["html./body./ul.new>li."]
    found = read_results(parse_html(RESULTS, "http://shop.test/r"), before)
    assert (found.records, found.count, found.no_results, found.confirmed, found.status) == (
        3,
        3,
        False,
        True,
        "confirmed",
    )
    assert found.record_text.startswith("The Blue Book by C. Author, 1999, paperback")
    empty = read_results(parse_html(NOTHING, "http://shop.test/r"), before)
    assert (empty.records, empty.no_results, empty.confirmed, empty.status) == (
        0,
        True,
        False,
        "no_results",
    )
    # the form's own page (no new records) does not confirm it
    same = read_results(form_page, before)
    assert (same.confirmed, same.status) == (False, "no_records")


DIRECTORY = LAYOUT.format(
    body="""<p>3 sites found</p><ul class="sites">
<li class="site"><a href="http://www.fellwalks.test/">Fell Walks</a> routes over the fells</li>
<li class="site"><a href="https://dales-rambles.test/routes">Dales Rambles</a> walks for all</li>
<li class="site"><a href="http://www.coastpaths.test/">Coast Paths</a> cliff walks, maps</li>
<li class="site"><a href="/cat/outdoors">Outdoors</a> more sites in this category here</li>
</ul>"""
)


def test_an_answer_whose_records_lead_to_other_sites_lists_sites():
    before = record_groups(parse_html(LAYOUT.format(body="<p>Find</p>"), "http://shop.test/"))
    # a directory's search: three of its four records lead to other sites only
    url = "http://www.links.test/s"
    sites = read_results(parse_html(DIRECTORY, url), before, 2, url)
    assert (sites.records, sites.offsite_records, sites.linked_records) == (4, 3, 4)
    assert sites.confirmed and sites.lists_other_sites
    # on a site it lists (a search sub-host of it), two of four lead elsewhere: not most
    url = "http://search.fellwalks.test/s"
    own = read_results(parse_html(DIRECTORY, url), before, 2, url)
    assert (own.offsite_records, own.linked_records, own.lists_other_sites) == (2, 4, False)
    # a shop's records lead to its own pages; a search sub-host's to the www host
    shop = read_results(parse_html(RESULTS, "http://shop.test/r"), before, 2, "http://shop.test/r")
    assert (shop.offsite_records, shop.linked_records, shop.lists_other_sites) == (0, 3, False)
    hosted = RESULTS.replace('href="/b/', 'href="http://www.shop.test/b/')
    url = "http://search.shop.test/r"
    sub = read_results(parse_html(hosted, url), before, 2, url)
    assert (sub.offsite_records, sub.linked_records, sub.lists_other_sites) == (0, 3, False)
    # without the answer's URL no record is counted as leading elsewhere
    unknown = read_results(parse_html(DIRECTORY, "http://www.links.test/s"), before)
    assert (unknown.offsite_records, unknown.linked_records) == (0, 4)
    assert not unknown.lists_other_sites


OFFERS = LAYOUT.format(
    body="""<h1>Footloose Walking Holidays</h1><p>4 holidays found for "walks"</p><table>
<tr class="r"><td><a href="/h/1">4 nights: Eskby coast short break</a></td>
<td>Footloose Walking Holidays</td><td>Easy holiday</td></tr>
<tr class="r"><td><a href="/h/2">7 nights: Coast to Coast centre-based</a></td>
<td>Footloose Walking Holidays</td><td>Easy holiday</td></tr>
<tr class="r"><td><a href="/h/3">5 nights: North York Moors hut to hut</a></td>
<td>Footloose Walking Holidays</td><td>Easy holiday</td></tr></table>"""
)


def test_an_answer_whose_records_spell_the_sites_name_lists_its_own_offers():
    # heldout30-33: a walking-holiday company's holiday search, a karaoke-hire firm's song
    # search, a site search listing "About us", "Help": every record names the site
    before = record_groups(parse_html(LAYOUT.format(body="<p>Find</p>"), "http://shop.test/"))
    url = "http://www.footloose-holidays.test/holidays/search"
    offers = read_results(parse_html(OFFERS, url), before, 2, url)
    assert offers.records == 3
    assert offers.record_names == [[("footloos", "walk", "holidai")]] * 3
    walks = learned_vocabulary("walk", ("walk route fell", "walk route map"))
    assert lists_own_offerings(offers.record_names, offers.records, walks.marks_topic)
    # a register of walks: its name in its banner only, its records by many hands
    register = OFFERS.replace("<td>Footloose Walking Holidays</td>", "<td>Dales Ramblers</td>")
    routes = read_results(parse_html(register, url), before, 2, url)
    assert routes.records == 3 and routes.record_names == [[]] * 3
    assert not lists_own_offerings(routes.record_names, routes.records, walks.marks_topic)
    # a record that says the name among other words does not name its site in a field
    items = OFFERS.replace(
        "<td>Footloose Walking Holidays</td>", "<td>Footloose Walking Holidays item 4</td>"
    )
    among = read_results(parse_html(items, url), before, 2, url)
    assert among.records == 3 and among.record_names == [[]] * 3
    # one record of three naming the site is not most
    one_of_three = OFFERS.replace("Footloose Walking Holidays</td>", "Dales Ramblers</td>", 2)
    some = read_results(parse_html(one_of_three, url), before, 2, url)
    assert not lists_own_offerings(some.record_names, some.records, walks.marks_topic)
    # a site's name of two words or more counts whatever its words ("Kelby Podcast
    # Directory": a site search's pages); a name of one word that marks the topic
    # ("Walks" on www.walks.test) is what a record of the topic says
    kelby = OFFERS.replace("Footloose Walking Holidays</td>", "Kelby Walks</td>")
    url = "http://www.kelbywalks.test/s"
    named = read_results(parse_html(kelby, url), before, 2, url)
    assert named.record_names == [[("kelbi", "walk")]] * 3
    kelby_walks = learned_vocabulary("walk", ("kelby walk route", "kelby walk map"))
    assert lists_own_offerings(named.record_names, named.records, kelby_walks.marks_topic)
    url = "http://www.walks.test/s"
    one_word = read_results(parse_html(kelby, url), before, 2, url)
    assert one_word.record_names == [[("walk",)]] * 3
    assert not lists_own_offerings(one_word.record_names, one_word.records, walks.marks_topic)
    # a hosted search's answer is of the site, not of its "search" label
    url = "http://search.kelbywalks.test/s/search.html"
    hosted = read_results(parse_html(kelby.replace("Easy holiday", "Search"), url), before, 2, url)
    assert hosted.record_names == [[("kelbi", "walk")]] * 3
