"""Forms that look like searches but do not search the topic's records: bookings and
"check availability" of a visit, fee calculators, locale and currency preferences; and the
site-wide box of a site named like the topic's sites. Judged from the form itself."""

from __future__ import annotations

import urllib.parse
import urllib.request

from crawler.deepweb import classify_form, extract_forms, parse_html
from crawler.deepweb.forms import not_a_record_search
from crawler.deepweb.probe import read_results, record_groups
from crawler.deepweb.relevance import (
    NOTHING_FOR_TOPIC,
    SITE_SEARCH_EVIDENCE,
    UNKNOWN,
    no_results_evidence,
    site_name_run_terms,
)
from crawler.sandbox.web import SandboxWeb, html_page
from tests.deepweb.test_form_relevance import learned_vocabulary

TICKETS = """<form action="/tickets/availability" method="get"><fieldset><legend>Plan your
  visit</legend><label for="d">Date of visit</label><input type="date" id="d" name="date">
  <label for="a">Adults</label><select id="a" name="adults">{counts}</select>
  <label for="c">Children</label><select id="c" name="children">{counts}</select>
  <button type="submit">Check availability</button></fieldset></form>""".format(
    counts="".join(f"<option>{n}</option>" for n in range(7))
)
# a hotel's "Request a booking": arrival as a text field, nights and guests as counts
ROOM_REQUEST = """<form action="/book" method="get"><label for="ar">Arrival date</label>
  <input id="ar" name="arrival" placeholder="dd/mm/yyyy"><label for="n">Nights</label>
  <input type="number" id="n" name="nights"><label for="g">Guests</label>
  <select id="g" name="guests"><option>1</option><option>2</option><option>3</option></select>
  <button>Request a booking</button></form>"""
FEES = """<form class="calc" action="/costs/calculate" method="get">
  <label for="cl">Number of claims</label><input id="cl" name="claims">
  <label for="b">Classification</label><select id="b" name="band"><option value="a">A - Human
  necessities</option><option value="b">B - Operations</option><option value="c">C -
  Chemistry</option></select><button>Calculate</button></form>"""
LOCALE = """<form class="locale" action="/prefs"><select name="lang"><option>English</option>
  <option>Cymraeg</option></select><select name="region"><option>UK</option><option>EU
  </option></select><button>Save</button></form>"""
CURRENCY = """<form class="prefs" action="/prefs"><label for="cu">Currency</label>
  <select id="cu" name="currency"><option>GBP</option><option>EUR</option><option>USD</option>
  </select><button>Update</button></form>"""
DELIVERY = """<form action="/delivery" method="get"><label for="pc">Your postcode</label>
  <input id="pc" name="postcode"><button>Check delivery</button></form>"""
VOUCHER = """<form action="/vouchers/balance" method="get"><label for="c">Voucher code</label>
  <input id="c" name="code"><label for="p">PIN</label><input id="p" name="pin">
  <button>Check balance</button></form>"""
STORES = """<form action="/stores" method="get"><label for="pc">Find a store near you</label>
  <input id="pc" name="postcode"><button>Find</button></form>"""
# real searches with days and counts in them
COLLECTION = """<form action="/collections/find" method="get"><label for="m">Maker or
  artist</label><input id="m" name="maker"><label for="o">Object name</label>
  <input id="o" name="object"><label for="f">From</label><input type="date" id="f" name="from">
  <label for="t">To</label><input type="date" id="t" name="to"><select name="cat">
  <option value="">Any collection</option><option value="ceramics">Ceramics</option>
  <option value="textiles">Textiles</option></select><button>Search the collection</button>
  </form>"""
HOTELS = """<form action="/availability" method="get"><label for="p">Place or hotel
  name</label><input id="p" name="where"><label for="ar">Arriving</label><input type="date"
  id="ar" name="arrive"><label for="g">Guests</label><select id="g" name="guests"><option>1
  </option><option>2</option></select><button>Check availability</button></form>"""
STAYS = """<form action="/stays" method="get"><label for="r">Region</label><select id="r"
  name="area"><option>Lakes</option><option>Dales</option><option>Coast</option></select>
  <label for="d">Available from</label><input type="date" id="d" name="from">
  <label for="n">Nights</label><select id="n" name="nights"><option>1</option><option>2
  </option></select><button>Show stays</button></form>"""
# a site's box whose label holds "Visit" (the site's name) and a box searching by date
VISIT_BOX = """<form class="site-search" action="/search"><label for="q">Search Visit
  Eastmoor</label><input type="search" id="q" name="q"><button>Search</button></form>"""
BY_DATE = """<form action="/archive"><label for="q">Search by title or date</label>
  <input id="q" name="when"><button>Go</button></form>"""
YEARS = """<form action="/judgments" method="get"><label for="y">Year</label><select id="y"
  name="year"><option>2024</option><option>2023</option><option>2022</option></select>
  <button>Browse judgments</button></form>"""

# an auction house's lot search: "Estimate" (a band of prices) among its selects, and a
# choice of the answers' order and count per page
LOTS = """<form class="browseForm" action="/search" method="get"><label for="q">Search
  lots</label><input id="q" name="q"><label for="d">Department</label><select id="d"
  name="category"><option>Ceramics</option><option>Clocks</option></select>
  <label for="e">Estimate</label><select id="e" name="band"><option>Under 100</option>
  <option>100-500</option></select><label for="s">Sort by</label><select id="s"
  name="sort"><option>Lot number</option><option>Estimate</option></select>
  <label for="n">Results per page</label><select id="n" name="per_page"><option>20</option>
  <option>50</option></select><button>Show results</button></form>"""


def one(html: str, url: str = "http://www.museum.test/"):
    (form,) = extract_forms(html.encode(), url)
    return form


def test_bookings_calculators_and_preferences_are_not_record_searches():
    assert not_a_record_search(one(TICKETS)) == "booking"
    assert not_a_record_search(one(ROOM_REQUEST)) == "booking"
    assert not_a_record_search(one(FEES)) == "calculator"
    assert not_a_record_search(one(LOCALE)) == "preference"
    assert not_a_record_search(one(CURRENCY)) == "preference"
    assert not_a_record_search(one(DELIVERY)) == "delivery"
    # each is judged not searchable, whatever its search words ("Check availability")
    for html in (TICKETS, ROOM_REQUEST, FEES, LOCALE, CURRENCY, DELIVERY):
        verdict = classify_form(one(html))
        assert (verdict.searchable, verdict.score) == (False, 0.0)


def test_a_form_that_sorts_or_pages_its_answers_lists_records():
    # "Estimate" would make it a calculator; its "Sort by" and "Results per page" say it
    # answers with a list of records
    assert not_a_record_search(one(LOTS)) == ""
    assert classify_form(one(LOTS)).searchable
    without_order = LOTS.replace('name="sort"', 'name="s1"').replace("Sort by", "Lot")
    without_order = without_order.replace('name="per_page"', 'name="n"')
    without_order = without_order.replace("Results per page", "Lots")
    # without them it is still a search: "Estimate" labels a select of price bands (a
    # criterion), not what the form does
    assert not_a_record_search(one(without_order)) == ""
    # heldout20's other lot search: keywords, lot number, sale name, an "Estimate" select
    lots = """<form class="searchform" action="/find" method="post"><label for="k">Keywords
      </label><input id="k" name="keywords"><label for="l">Lot number</label><input id="l"
      name="lot"><label for="p">Estimate</label><select id="p" name="price"><option>Under
      100</option><option>100-500</option></select><button>Find</button></form>"""
    assert not_a_record_search(one(lots)) == "" and classify_form(one(lots)).searchable
    # "Get an estimate" is what a form does: a calculator
    quote = lots.replace("<button>Find</button>", "<button>Get an estimate</button>")
    assert not_a_record_search(one(quote)) == "calculator"


def test_a_voucher_balance_check_is_a_lookup_of_ones_own_voucher():
    verdict = classify_form(one(VOUCHER))
    assert not_a_record_search(one(VOUCHER)) == ""
    assert (verdict.searchable, verdict.features["non_search_words"]) == (False, 3.0)
    # a store locator's postcode box stays a search (of stores: the locator rule of
    # relevance keeps it off a topic's output)
    assert not_a_record_search(one(STORES)) == "" and classify_form(one(STORES)).searchable


def test_searches_with_dates_and_counts_stay_searches():
    # a collection search with a date range; a hotel search by place with dates and
    # guests; a search of stays by region (a select of words); a browse by year (a select
    # of numbers that are not small counts); a box labelled with the site's name "Visit
    # Eastmoor"; a box whose label says it searches by date
    for html in (COLLECTION, HOTELS, STAYS, YEARS, VISIT_BOX, BY_DATE):
        form = one(html)
        assert not_a_record_search(form) == ""
        assert classify_form(form).searchable


def test_a_site_box_named_after_its_site_is_not_a_topic_search():
    # "eastmoor" learned to mark the topic (a museums site of that town is named after
    # it), but in the tourism site's own box it is the site's name: a site-wide search
    words = learned_vocabulary(
        "museum", ("eastmoor museum collection", "eastmoor museum art", "eastmoor museum maps")
    )
    assert words.marks_topic("eastmoor")
    box = """<form class="site-search" action="/search"><input type="search" name="q"
      aria-label="Search Visit Eastmoor"><button>Search</button></form>"""
    assert words.form_evidence(one(box, "http://www.visiteastmoor.test/")) == SITE_SEARCH_EVIDENCE
    # on a site not so named the learned word still counts
    assert words.form_evidence(one(box, "http://www.tourist-office.test/")) == 0.25


def test_a_site_box_that_spells_its_sites_name_is_a_site_search():
    # heldout20: an auction house's box ("Search Lot 42 Auctions", class site-search) sent
    # to a hosted search service with a hidden "collection"; the name holds the topic's
    # stem and a learned word ("lot"), the hidden field's name another ("collect")
    words = learned_vocabulary(
        "auction",
        ("auction lot collection sale", "auction lot collection bid", "auction lot collection"),
    )
    assert words.marks_topic("lot") and words.marks_topic("collect")
    box = """<form class="site-search" action="http://search.lot42auctions.test/s/search.html">
      <input type="hidden" name="collection" value="lot42-web"><label for="q">Search Lot 42
      Auctions</label><input id="q" name="query"><button>Go</button></form>"""
    home = "http://www.lot42auctions.test/"
    assert site_name_run_terms(one(box, home)) == {"lot", "42", "auction"}
    assert words.form_evidence(one(box, home)) == SITE_SEARCH_EVIDENCE
    # a host with a hyphen; a name that spells most of its host ("recalls", "Recall
    # Watch"); one word of a name is not enough unless it is the whole host's
    named = box.replace("Lot 42\n      Auctions", "{name}")
    for host, name, stems in (
        ("www.fairrent-advice.test", "Fair Rent Advice", {"fair", "rent", "advic"}),
        ("www.childsafetyrecalls.test", "Child Safety Recall Watch", {"child", "safeti", "recal"}),
        ("www.harbourside.test", "Harbourside Arts Centre", {"harboursid"}),
        ("www.harbourside-arts.test", "Harbourside Gallery", set()),
        # words the host leaves out: one word of content, stop words (heldout29-30)
        (
            "www.footloose-holidays.test",
            "Footloose Walking Holidays",
            {"footloos", "walk", "holidai"},
        ),
        ("www.westbrookarts.test", "Westbrook School of Arts", {"westbrook", "school", "art"}),
        ("www.footloose-holidays.test", "Footloose Lake Walking Holidays", set()),
        ("www.footloose-holidays.test", "Footloose Walking", set()),
        # a host that cuts the name's last word short (heldout34); not a word that only
        # shares its first letters with the cut; a cut of fewer than 3 letters is not
        # one (the first words spell three quarters of that host: they are its name)
        ("www.eskbydruginfo.test", "Eskby Drug Information Centre", {"eskbi", "drug", "inform"}),
        ("www.eskbydruginfo.test", "Eskby Drug Interactions", set()),
        ("www.eskbydrugin.test", "Eskby Drug Information", {"eskbi", "drug"}),
    ):
        assert site_name_run_terms(one(named.format(name=name), f"http://{host}/")) == stems
    # the same box on a site of another name: it names auctions, not its site
    assert site_name_run_terms(one(box, "http://www.bidhouse.test/")) == set()
    assert words.form_evidence(one(box, "http://www.bidhouse.test/")) == 1.0
    # a database search of the same site: its words are the records' ("lot number")
    lots = """<form class="site-search" action="/lots"><label for="n">Lot number</label>
      <input id="n" name="lot"><button>Search</button></form>"""
    assert words.form_evidence(one(lots, home)) == 0.25  # one learned word


def test_a_site_box_whose_sites_name_holds_the_topics_word_is_a_site_search():
    # heldout30: a walking-holiday company's box, "Search Footloose Walking Holidays"
    # (class site-search), was saved by "walking" (the topic's family) and output
    words = learned_vocabulary("walk", ("walk route fell", "walk route map"))
    box = """<form class="site-search" action="/search"><label for="q">Search Footloose
      Walking Holidays</label><input id="q" type="search" name="q"><button>Search</button>
      </form>"""
    assert words.form_evidence(one(box, "http://www.footloose-holidays.test/")) == (
        SITE_SEARCH_EVIDENCE
    )
    # the same words on a site of another name: "walking" is the topic's
    assert words.form_evidence(one(box, "http://www.hillroutes.test/")) == 1.0


def test_a_field_labelled_site_is_no_site_search():
    # heldout33: a bird records search three links deep, a box labelled "Site or town"
    # (field "filters[site]") beside selects of species groups and record types, was read
    # as a box that searches the site by "site" and never output (form evidence -1); its
    # select of record types, one of them learned ("Breeding evidence"), beside the
    # species groups read it as a search over many subjects
    words = learned_vocabulary(
        "sighting", ("bird mammal butterfly breeding", "bird mammal butterfly breeding")
    )
    records = """<form class="c-search__form" action="/shop/list.asp"><label for="s">Site or
      town</label><input id="s" name="filters[site]"><label for="g">Group</label>
      <select id="g" name="filters[group]"><option value="">All groups</option>
      <option>Birds</option><option>Mammals</option><option>Butterflies</option></select>
      <label for="t">Record type</label><select id="t" name="filters[type]">
      <option value="">Any type</option><option>Casual record</option><option>Roost
      count</option><option>Breeding evidence</option><option>Migration</option></select>
      <button>Show records</button></form>"""
    assert words.marks_topic("breed") and not words.marks_topic("roost")
    assert words.form_evidence(one(records)) > 0
    # one marking word in several options is no classification of the topic: a
    # legislation search's status ("In force", "Not yet in force") beside its types, one
    # of them learned ("Regulation"), stays a search over many subjects (heldout25)
    laws = learned_vocabulary("permit", ("permit regulation force", "permit regulation force"))
    statutes = """<form action="/find"><label for="n">Number</label><input id="n" name="number">
      <label for="f">Type</label><select id="f" name="fmt"><option value="">Any</option>
      <option>Act</option><option>Order</option><option>Regulation</option><option>Bill
      </option></select><label for="v">Status</label><select id="v" name="value"><option
      value="">Any</option><option>In force</option><option>Not yet in force</option>
      <option>Repealed</option></select><button>Show results</button></form>"""
    assert laws.form_evidence(one(statutes)) == -1.0
    # "site" beside a search word still says the site: "Search this site", "site-search"
    for box in (
        records.replace("Site or\n      town", "Search this site"),
        records.replace('class="c-search__form"', 'class="site-search"').replace(
            "Site or\n      town", "Town"
        ),
    ):
        assert "Site or" not in box
        assert words.form_evidence(one(box)) == SITE_SEARCH_EVIDENCE


def museum_web() -> SandboxWeb:
    web = SandboxWeb()
    home = "http://www.museum.test/"
    web.add_page(
        home,
        html_page(
            "Harbour Museum",
            '<ul class="menu"><li><a href="/collections/">Collections online</a></li>'
            '<li><a href="/visit/">Plan your visit</a></li></ul><p>Open daily.</p>',
        ),
    )
    web.add_page(home + "collections/", html_page("Collections online", COLLECTION))
    web.add_page(home + "visit/", html_page("Plan your visit", TICKETS))
    # the ticket check answers prices and times, not records
    web.add_page(
        home + "tickets/availability",
        html_page(
            "Availability",
            "<h1>Tickets</h1><p>Tickets are available on the day you chose.</p>"
            "<p>Adults 8.00, children free. Last entry 4pm.</p>"
            '<p><a href="/visit/">Change your visit</a></p>',
        ),
        any_query=True,
    )
    rows = "".join(
        f'<li class="object"><a href="/object/{n}">Blue jug {n}</a> ceramics, made in '
        f"Delft, {1700 + n}</li>"
        for n in range(4)
    )
    web.add_page(
        home + "collections/find",
        html_page("Results", f'<p>4 objects</p><ul class="results">{rows}</ul>'),
        any_query=True,
    )
    return web


def test_served_booking_and_collection_search(sandbox):
    # the forms as a crawl meets them: pages served on 127.0.0.1, each form submitted
    server = sandbox(museum_web())
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": server.proxy_url}))

    def get(url: str) -> bytes:
        with opener.open(url, timeout=10) as answer:
            return answer.read()

    verdicts = {}
    for path in ("collections/", "visit/"):
        page = f"http://www.museum.test/{path}"
        body = get(page)
        (form,) = extract_forms(body, page)
        verdict = classify_form(form)
        query = {f.name: f.options[1] if f.options else "jug" for f in form.fields if f.name}
        answer = get(form.action_url + "?" + urllib.parse.urlencode(query))
        before = record_groups(parse_html(body, page))
        result = read_results(parse_html(answer, form.action_url), before)
        verdicts[form.action_url] = (not_a_record_search(form), verdict.searchable, result.status)
    assert verdicts == {
        "http://www.museum.test/collections/find": ("", True, "confirmed"),
        # not searchable from the form alone; and its answer lists no records either
        "http://www.museum.test/tickets/availability": ("booking", False, "no_records"),
    }


def test_no_results_for_the_topic_is_evidence_only_against_a_form_without_topic_words():
    # a car dealer's search (form words mark the topic) answering "no results" for
    # "autos" says nothing; an events search without a topic word that finds nothing for
    # "museums" nor for the topic's learned word is not the topic's search
    assert no_results_evidence(0.25) == UNKNOWN == 0.5
    assert no_results_evidence(0.0) == NOTHING_FOR_TOPIC == 0.0
    # heldout29: a course lookup whose evidence is one select option's ("Free"), its own
    # words marking nothing: its "no results" is evidence against it
    assert no_results_evidence(0.0625, own_words_mark=False) == NOTHING_FOR_TOPIC
    assert no_results_evidence(0.0625, own_words_mark=True) == UNKNOWN
    assert no_results_evidence(0.0, own_words_mark=True) == NOTHING_FOR_TOPIC


# lookups of one's own record: an identifier and what verifies its holder
EXAM_RESULTS = """<form action="/results/check" method="post"><h3>Exam results</h3>
  <label for="s">Student number</label><input id="s" name="student_no">
  <label for="b">Date of birth</label><input type="date" id="b" name="dob">
  <button>Check</button></form>"""
ORDER = """<form action="/orders/track" method="get"><label for="r">Order reference</label>
  <input id="r" name="ref"><label for="p">Postcode</label><input id="p" name="postcode">
  <button>Track</button></form>"""
BOOKING = """<form action="/manage" method="get"><label for="r">Booking reference</label>
  <input id="r" name="booking_ref"><label for="n">Surname</label><input id="n" name="surname">
  <button>Find my booking</button></form>"""
# searches with an identifier in them
CASES = """<form action="/cases" method="get"><label for="c">Case number</label>
  <input id="c" name="case_no"><label for="n">Party surname</label><input id="n" name="party">
  <button>Search cases</button></form>"""
DECIDED = """<form action="/judgments" method="get"><label for="c">Case number</label>
  <input id="c" name="case_no"><label for="d">Decided on</label><input type="date" id="d"
  name="decided"><button>Go</button></form>"""
BIRTHS = """<form action="/records" method="get"><label for="n">Surname</label>
  <input id="n" name="surname"><label for="b">Year of birth</label><input id="b" name="born">
  <button>Go</button></form>"""


def test_a_lookup_of_ones_own_record_is_not_a_record_search():
    assert not_a_record_search(one(EXAM_RESULTS)) == "lookup"
    assert not_a_record_search(one(ORDER)) == "lookup"
    for html in (EXAM_RESULTS, ORDER):
        verdict = classify_form(one(html))
        assert (verdict.searchable, verdict.score, verdict.reason) == (False, 0.0, "lookup")


def test_searches_by_an_identifier_or_a_birth_year_stay_searches():
    # a case search by number and party surname (its words say search); a case number
    # with the day of a decision (a date that is no birth date); a search of birth
    # records by surname and year of birth (no identifier)
    for html in (CASES, DECIDED, BIRTHS):
        assert not_a_record_search(one(html)) == ""
    # a surname verifies only where the form's words do not say search: "Find my
    # booking" says find, so this one is left to the classifier
    assert not_a_record_search(one(BOOKING)) == ""
    assert not_a_record_search(one(BOOKING.replace("Find my booking", "View"))) == "lookup"


def test_a_lookup_whose_labels_are_not_bound_to_its_fields():
    # labels not bound to the fields (no "for"): "ref" is an identifier by its name,
    # "check" takes the form's "Date of birth"
    loose = """<form action="/exam-results/check" method="post"><label>Student number</label>
      <input name="ref"><label>Date of birth</label><input name="check"><button>Check</button>
      </form>"""
    assert not_a_record_search(one(loose)) == "lookup"
    # the same two loose fields in a form whose words say search stay a search
    search = loose.replace("Check</button>", "Search</button>")
    assert not_a_record_search(one(search)) == ""


APPLICATION = """<form action="/admissions/apply" method="post">
  <label for="s">Child's surname</label><input id="s" name="surname">
  <label for="f">Child's first name</label><input id="f" name="forename">
  <label for="d">Date of birth</label><input type="date" id="d" name="dob">
  <label for="p">Home postcode</label><input id="p" name="postcode">
  <label for="ph">Phase</label><select id="ph" name="phase"><option>Primary</option>
  <option>Secondary</option></select>
  <label for="p1">First preference</label><select id="p1" name="pref1"><option>Oakfield
  Primary</option><option>Moor Lane School</option></select>
  <button>Send application</button></form>"""
# a genealogy search by names and birth year, and a given name with a surname and a day
# of death (an obituary search): searches
ANCESTORS = """<form action="/records" method="post"><label for="s">Surname</label>
  <input id="s" name="surname"><label for="f">First name</label><input id="f" name="first">
  <label for="b">Date of birth</label><input type="date" id="b" name="dob">
  <button>Search records</button></form>"""
OBITUARIES = """<form action="/notices" method="get"><label for="f">Forename</label>
  <input id="f" name="forename"><label for="s">Surname</label><input id="s" name="surname">
  <label for="d">Date of death</label><input type="date" id="d" name="died">
  <button>Show notices</button></form>"""


def test_a_form_that_records_a_person_is_never_a_search():
    # heldout29: a school place application (names, date of birth, postcode, selects of
    # schools) was judged searchable and probed on every schools site
    verdict = classify_form(one(APPLICATION))
    assert (verdict.searchable, verdict.score, verdict.reason) == (False, 0.0, "application")
    assert not_a_record_search(one(ANCESTORS)) == ""
    assert not_a_record_search(one(OBITUARIES)) == ""
    # "First preference" is no given name: a surname, a birth date and a preference
    assert not_a_record_search(one(APPLICATION.replace("Child's first name", "Class")
                                   .replace('name="forename"', 'name="klass"'))) != "application"


# a renters' network's rent checker (heldout37/38): a postcode, a count of bedrooms and the
# rent paid, "Check my rent"
RENT_CHECK = """<form action="/rent-check/result" method="get"><label for="pc">Postcode</label>
  <input id="pc" name="postcode"><label for="b">Bedrooms</label><select id="b" name="beds">
  <option>1</option><option>2</option><option>3</option><option>4</option></select>
  <label for="r">Rent per calendar month</label><input type="number" id="r" name="rent">
  <button>Check my rent</button></form>"""
# a recall check of the asker's vehicle by its registration: a search of the recalls
RECALL_CHECK = """<form action="/recalls/search" method="get"><label for="reg">Registration
  </label><input id="reg" name="reg"><label for="mk">Make</label><select id="mk" name="make">
  <option>Ford</option><option>Vauxhall</option></select><button>Check your vehicle</button>
  </form>"""


def test_a_check_of_the_askers_own_number_is_a_calculator():
    assert not_a_record_search(one(RENT_CHECK)) == "calculator"
    assert classify_form(one(RENT_CHECK)).searchable is False
    # the same words without a number to type in: a check of records (of recalls)
    assert not_a_record_search(one(RECALL_CHECK)) == ""
    # a number to type in without the words: a search (a rental search by its top rent)
    by_rent = RENT_CHECK.replace("Check my rent", "Find homes to rent")
    assert not_a_record_search(one(by_rent)) == ""
