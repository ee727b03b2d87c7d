"""Relevance of a searchable form to the topic: the form's own words, its site."""

from __future__ import annotations

import pytest

from crawler.deepweb import extract_forms
from crawler.deepweb.relevance import (
    NO_RECORDS,
    NOTHING_FOR_TOPIC,
    SITE_SEARCH_EVIDENCE,
    UNKNOWN,
    RelevanceWeights,
    TopicVocabulary,
    broad_answer_counts,
    broad_answer_evidence,
    chance_of_at_least,
    compound_pattern,
    form_terms,
    join_compounds,
    judge_form,
    site_evidence,
)

BOOK_FORM = b"""<form action="/catalogue/results" method="get">
  <label for="t">Title or author</label><input id="t" name="kw" placeholder="e.g. Dickens">
  <select name="shelf"><option value="">Any shelf</option><option value="fic">Novels</option>
  <option value="poe">Poetry</option></select><button>Go</button></form>"""
DOCS_BOX = b"""<form action="/search.html" method="get"><input type="search" name="q"
  placeholder="Search the docs"><input type="submit" value="Search"></form>"""


def learned_vocabulary(topic: str, topic_pages: tuple[str, ...]) -> TopicVocabulary:
    """A vocabulary of ``topic`` that learned ``topic_pages`` as on topic and three
    unrelated pages as off topic."""
    words = TopicVocabulary([topic], min_pages=2, min_ratio=3.0, max_chance=1.0)
    for text in topic_pages:
        words.learn(text, True)
    for text in ("football scores", "garden tools", "recipes and wine"):
        words.learn(text, False)
    return words


def vocabulary() -> TopicVocabulary:
    # (no binomial test: three topic pages are too few for it, see
    # test_a_word_on_few_topic_pages_is_learned_only_past_chance)
    words = TopicVocabulary(["book"], min_pages=2, min_ratio=3.0, max_chance=1.0)
    for text in (
        "books novels poetry shop",
        "novels by author, poetry readings",
        "novels and books",
    ):
        words.learn(text, True)
    for text in (
        "recipes and novels",
        "football scores",
        "python module reference",
        "garden tools shop",
    ):
        words.learn(text, False)
    return words


def test_form_terms_cover_labels_names_options_placeholders_and_action():
    (form,) = extract_forms(BOOK_FORM, "http://shop.test/")
    assert form_terms(form) == {
        "titl",
        "author",
        "kw",
        "dicken",
        "shelf",
        "novel",
        "poetri",
        "fic",
        "poe",
        "go",
        "catalogu",
        "result",
        "ani",
        "e",
        "g",
    }


def test_vocabulary_learns_words_that_mark_the_topic():
    words = vocabulary()
    # "novel": on 3 of 3 topic pages (4/5), 1 of 4 others (2/6): ratio 2.4 < 3
    # "poetri": 2 of 3 (3/5) against 0 of 4 (1/6): 3.6 >= 3; "shop": 1 topic page only
    assert [w for w in ("book", "novel", "poetri", "shop", "author") if words.marks_topic(w)] == [
        "book",
        "poetri",
    ]
    assert words.evidence({"book"}) == 1.0
    assert words.evidence({"poetri", "novel", "shelf"}, learned_weight=0.25) == 0.25
    # "book" twice, "poetri" (learned) once, "map" once, "rare" once
    assert words.share({"book": 2, "poetri": 1, "map": 1, "rare": 1}) == pytest.approx(3 / 5)


def test_a_home_page_that_never_names_the_topic_is_on_topic_by_its_learned_words():
    words = vocabulary()
    words.learn("poetry sonnets verse anthology", True)
    words.learn("sonnets and verse, anthology of poetry", True)
    words.learn("a verse anthology, new sonnets", True)
    # a shop of the topic that never says "books": poetri, sonnet, vers, antholog
    home = {"poetri": 2, "sonnet": 1, "vers": 1, "antholog": 1, "shop": 2, "welcom": 1}
    assert words.marks_site(home, min_share=0.15, min_words=3)
    # the same share from two distinct words is not enough
    assert not words.marks_site({"poetri": 3, "sonnet": 2, "shop": 1}, 0.15, 3)
    # three words, too small a share of the page
    few = {"poetri": 1, "sonnet": 1, "vers": 1, **{f"w{i}": 1 for i in range(30)}}
    assert not words.marks_site(few, 0.15, 3)


def test_site_wide_box_of_an_off_topic_site_is_not_relevant():
    words = vocabulary()
    weights = RelevanceWeights(site=0.6, form=0.4, result=0.4, threshold=0.5, density=0.01)
    (docs,) = extract_forms(DOCS_BOX, "http://docs.test/")
    (books,) = extract_forms(BOOK_FORM, "http://shop.test/")
    # the manual's home page mentions books: on topic by the classifier, but 2 words in 400
    manual = site_evidence(True, 2 / 400, weights.density)
    assert manual == pytest.approx(0.5)
    docs_box = judge_form(True, manual, words.form_evidence(docs), 0.0, weights)
    assert (docs_box.relevant, docs_box.score) == (False, 0.3)
    # the same box on a books site is relevant; so is the book form on a weak site
    shop = site_evidence(True, 0.04, weights.density)
    assert judge_form(True, shop, 0.0, 0.0, weights).relevant
    # (options: "poetri" marks the topic; 1 of the 2 options that are choices, "Any
    # shelf" is none: 0.25 / 2)
    book_form = judge_form(True, manual, words.form_evidence(books), 0.0, weights)
    assert (book_form.relevant, book_form.form) == (False, pytest.approx(0.25 / 2))
    # ... once a probe's records speak of the topic
    assert judge_form(True, manual, book_form.form, 1.0, weights).score == pytest.approx(
        0.3 + 0.1 / 2 + 0.4
    )
    # never when not searchable, never for an off-topic site on its site alone
    assert not judge_form(False, shop, 1.0, 1.0, weights).relevant
    assert site_evidence(False, 0.5, 0.01) == 0.0


def test_store_locator_is_about_places_and_an_off_topic_site_never_relevant():
    words = vocabulary()
    locator = b"""<form action="/stores/find"><label for="pc">Find a store near you</label>
      <input id="pc" name="postcode"><select name="radius"><option>5 miles</option></select>
      <button>Find</button></form>"""
    (form,) = extract_forms(locator, "http://shop.test/")
    assert words.form_evidence(form) == -1.0
    # a place word beside the topic's own word is not a locator ("books near you")
    (near,) = extract_forms(
        b'<form><input name="q" placeholder="Books near you"></form>', "http://shop.test/"
    )
    assert words.form_evidence(near) == 1.0
    # a finder of the site's own offices is a locator though its place box's word marks
    # the topic (heldout35: "town" learned on map sites) or the site's name does
    branch_finder = b"""<form action="/offices/near" class="branch-finder">
      <label for="l">Town or postcode</label><input id="l" name="location">
      <select name="radius"><option>5 miles</option></select><button>Find offices</button>
      </form>"""
    (offices,) = extract_forms(branch_finder, "http://maps.test/stores")
    maps = learned_vocabulary("maps", ("Old town maps", "Street maps of every town"))
    assert maps.marks_topic("town")
    assert maps.form_evidence(offices) == -1.0
    (named,) = extract_forms(
        branch_finder.replace(b"Find offices", b"Find a Bookworm Books branch"),
        "http://shop.test/",
    )
    assert words.form_evidence(named) == -1.0
    # a select whose options name the topic among others: their share counts
    sections = b"""<form action="/s"><input name="q"><select name="section">
      <option value="">All</option><option>World</option><option>Sport</option>
      <option>Business</option><option>Books</option></select></form>"""
    (news,) = extract_forms(sections, "http://news.test/")
    # (1 of the 5 options with words, the empty one does not count: a search over many
    # subjects, the topic one of them)
    assert words.form_evidence(news) == -1.0
    # the same select behind words that name the topic is a topic search
    (books_first,) = extract_forms(
        sections.replace(b'<input name="q">', b'<input name="q" placeholder="Search books">'),
        "http://news.test/",
    )
    assert words.form_evidence(books_first) == 1.0
    weights = RelevanceWeights(site=0.4, form=0.4, result=0.4, threshold=0.5, density=0.03)
    # on a books site, whatever its probe says, a locator is not relevant
    assert not judge_form(True, 1.0, -1.0, 1.0, weights).relevant
    # a generic box on a books site: relevant while its probe's answer is unknown (0.5) or
    # lists records with topic words; not when the answer lists nothing
    assert judge_form(True, 1.0, 0.0, weights=weights).score == pytest.approx(0.6)
    assert judge_form(True, 1.0, 0.0, 0.25, weights).relevant
    assert not judge_form(True, 1.0, 0.0, 0.0, weights).relevant
    # the topic's words in a form of a site judged off topic do not make it relevant
    assert not judge_form(True, 0.0, 1.0, 1.0, weights).relevant


def test_a_box_that_searches_the_site_is_not_a_search_of_the_topics_records():
    words = vocabulary()
    (site_box,) = extract_forms(
        b'<form action="/site-search" method="get"><input name="q" title="Search this site">'
        b'<button aria-label="Search this site"></button></form>',
        "http://shop.test/",
    )
    assert words.form_evidence(site_box) == -1.0
    # the topic's word in it: a search of the records after all
    (book_box,) = extract_forms(
        b'<form action="/search"><input name="q" placeholder="Search books on this site"></form>',
        "http://shop.test/",
    )
    assert words.form_evidence(book_box) == 1.0
    assert words.names_topic({"art", "book", "store"})
    assert not words.names_topic({"novel", "store"})


def test_a_site_whose_search_answers_the_topic_has_site_evidence():
    # on topic, few of its words mark the topic: small evidence, unless its search
    # listed records for the topic's words
    assert site_evidence(True, 0.01, 0.08) == pytest.approx(0.125)
    assert site_evidence(True, 0.01, 0.08, answers_topic=True) == 0.75
    assert site_evidence(True, 0.2, 0.08, answers_topic=True) == 1.0
    assert site_evidence(False, 0.2, 0.08, answers_topic=True) == 0.0


def test_a_probe_listing_records_for_the_topic_says_the_site_answers_it():
    words = vocabulary()
    (package_search,) = extract_forms(
        b'<form action="/packages/search"><input name="q" placeholder="Package name"></form>',
        "http://docs.test/packages/",
    )
    (book_search,) = extract_forms(
        b'<form action="/results"><input name="q" placeholder="Search our books"></form>',
        "http://shop.test/",
    )
    # a manual's search lists pages for "book": nothing else says it is about books
    assert not words.answers_topic(package_search, {"book"}, 0.0, False)
    assert words.answers_topic(package_search, {"book"}, 0.25, False)  # records say novel
    assert words.answers_topic(package_search, {"book"}, 0.0, True)  # listed as books
    assert words.answers_topic(book_search, {"book"}, 0.0, False)  # the form says books
    assert not words.answers_topic(book_search, {"recip"}, 1.0, True)  # not a topic query


def test_a_topic_word_written_as_two_words_is_joined():
    pattern = compound_pattern(["realestate", "books"])
    assert (
        join_compounds("Real Estate listings, /dir/business-real-estate-listings/", pattern)
        == "realestate listings, /dir/business-realestate-listings/"
    )
    assert join_compounds("text books, real estates", pattern) == "text books, real estates"
    assert join_compounds("anything", compound_pattern(["q1"])) == "anything"


def test_a_word_on_few_topic_pages_is_learned_only_past_chance():
    words = TopicVocabulary(["hotel"], min_pages=2, min_ratio=3.0, max_chance=0.05)
    for text in ("hotel room march", "hotel room march", "hotel room", "hotel room", "inn"):
        words.learn(text, True)
    for i in range(10):
        words.learn(f"recipes {i}", False)
    # "march" on 2 of 5 topic pages, on none of 10 others: 5 times as frequent (add-one
    # smoothed), but a word with 1 chance in 12 per page is on 2 of 5 pages 6% of the time
    assert chance_of_at_least(2, 5, 1 / 12) == pytest.approx(0.0586, abs=1e-4)
    assert not words.marks_topic("march")
    # "room" on 4 of 5: 0.02% of the time by chance
    assert chance_of_at_least(4, 5, 1 / 12) == pytest.approx(0.000225, abs=1e-6)
    assert words.marks_topic("room")
    # without the test (max_chance 1) the ratio alone learns "march"
    loose = TopicVocabulary(["hotel"], min_pages=2, min_ratio=3.0, max_chance=1.0)
    loose.frequency, loose.pages = words.frequency, words.pages
    assert loose.marks_topic("march")
    assert chance_of_at_least(0, 5, 0.5) == 1.0


def test_a_form_whose_probe_answers_with_nothing_is_not_relevant_on_a_learned_word():
    weights = RelevanceWeights()  # 0.4, 0.4, 0.4, threshold 0.5
    # a nursery's delivery checker: one learned word ("delivery", in its shops' menus)
    assert judge_form(True, 1.0, 0.25, UNKNOWN, weights).relevant  # not probed: 0.7
    unanswered = judge_form(True, 1.0, 0.25, NO_RECORDS, weights)
    assert (unanswered.relevant, unanswered.score) == (False, 0.4)
    # a form whose own words name the topic stays relevant
    assert judge_form(True, 1.0, 1.0, NO_RECORDS, weights).score == pytest.approx(0.7)


def test_a_search_over_many_subjects_marking_the_topic_by_a_learned_word():
    words = vocabulary()  # "poetri" learned
    (magazine,) = extract_forms(
        b"""<form action="/search/"><input name="s"><select name="section">
        <option value="">All sections</option><option>Travel</option><option>Poetry</option>
        <option>Food</option><option>Music</option></select></form>""",
        "http://mag.test/",
    )
    assert words.form_evidence(magazine) == -1.0
    # a search by several named fields is a database's: its select of subjects is its
    # classification (evidence of the options: one of four marks the topic, 0.25 / 4)
    (register,) = extract_forms(
        b"""<form action="/find"><input name="author"><input name="title"><select
        name="class"><option value="">All classes</option><option>Travel</option>
        <option>Poetry</option><option>Food</option><option>Music</option></select></form>""",
        "http://register.test/",
    )
    assert words.form_evidence(register) == pytest.approx(0.25 / 4)
    # "Any" is no choice: three real options, one marking the topic, is not many subjects
    (shop,) = extract_forms(
        b"""<form action="/find"><input name="q"><select name="shelf"><option>Any</option>
        <option>Novels</option><option>Poetry</option><option>Essays</option></select></form>""",
        "http://shop.test/",
    )
    assert words.form_evidence(shop) == pytest.approx(0.25 / 3)
    # a range of fees with one option marking the topic is no list of subjects
    (fees,) = extract_forms(
        b"""<form action="/find"><input name="q"><select name="fee"><option>Any</option>
        <option>Free poetry</option><option>Under 50</option><option>50-150</option>
        <option>150 and over</option></select></form>""",
        "http://shop.test/",
    )
    assert words.form_evidence(fees) == pytest.approx(0.25 / 4)


def test_several_options_marking_the_topic_are_its_own_classification():
    # a thesis repository's departments: the repositories' home pages taught
    # "comput", "scienc", "econom"; two of eight departments mark the topic
    words = learned_vocabulary(
        "theses",
        (
            "research repository computer science economics",
            "doctoral research computer science economics",
            "dissertations computer science economics",
        ),
    )
    departments = "".join(
        f"<option>{d}</option>"
        for d in ("Chemistry", "Law", "Music", "Physics", "Nursing", "Geography")
    )
    (repository,) = extract_forms(
        f"""<form action="/find"><input name="author"><select name="dept"><option value="">Any
        </option><option>Computer science</option><option>Economics</option>{departments}
        </select></form>""".encode(),
        "http://repo.test/",
    )
    # 2 of 8 options mark the topic, their words 3 learned ones: 2/8 x 0.75
    assert words.form_evidence(repository) == pytest.approx(0.1875)
    # one of them only: the topic one subject among others
    (one,) = extract_forms(
        f"""<form action="/find"><input name="author"><select name="dept"><option value="">Any
        </option><option>Economics</option><option>History</option>{departments}
        </select></form>""".encode(),
        "http://repo.test/",
    )
    assert words.form_evidence(one) == -1.0


def test_options_of_a_select_inside_a_label_are_not_the_forms_own_words():
    words = vocabulary()
    (packages,) = extract_forms(
        b"""<form action="/packages/search"><label>Category <select name="category">
        <option>All</option><option>Web</option><option>Database</option>
        <option>Media (movies, music)</option><option>Text &amp; books</option></select>
        </label><input name="q" placeholder="Package name"></form>""",
        "http://docs.test/packages/",
    )
    assert packages.text == "Category Package name category q"
    assert packages.fields[0].option_labels[-1] == "Text & books"
    # "books" is one subject of four, not the form's own word: a search over many subjects
    assert words.form_evidence(packages) == -1.0


def test_a_select_of_places_is_no_list_of_subjects():
    # "poetri" learned to mark the topic is also a place here (every topic site of a
    # web in one town learns the town's name): a select labelled as places holding it
    # among other places is a choice of where, not a search over many subjects
    words = vocabulary()
    (by_town,) = extract_forms(
        b"""<form action="/find"><input name="q"><label for="t">Town</label><select id="t"
        name="area"><option value="">Any town</option><option>Ashby</option>
        <option>Poetry</option><option>Dunmore</option><option>Eastwick</option></select>
        </form>""",
        "http://shop.test/",
    )
    assert words.form_evidence(by_town) == pytest.approx(0.25 / 4)
    # the same options under "Section" make a search over many subjects
    (magazine,) = extract_forms(
        b"""<form action="/find"><input name="q"><label for="t">Section</label><select
        id="t" name="sect"><option value="">Any</option><option>Ashby</option>
        <option>Poetry</option><option>Dunmore</option><option>Eastwick</option></select>
        </form>""",
        "http://shop.test/",
    )
    assert words.form_evidence(magazine) == -1.0


def test_a_site_name_ending_in_y_is_the_sites_name_in_its_box():
    # "kelbi" (Porter's stem of "Kelby") learned to mark the topic: in the box of
    # www.kelbyannouncements.test, "Search Kelby Announcements", it is the site's name
    words = learned_vocabulary(
        "obituaries", ("kelby obituaries notices", "kelby obituaries funeral", "kelby tributes")
    )
    assert words.marks_topic("kelbi")
    (box,) = extract_forms(
        b"""<form class="site-search" action="http://search.kelbyannouncements.test/s/search"
        ><input type="hidden" name="collection" value="web"><input name="query"
        aria-label="Search Kelby Announcements"><button>Go</button></form>""",
        "http://www.kelbyannouncements.test/",
    )
    assert words.form_evidence(box) == SITE_SEARCH_EVIDENCE


def test_a_broad_querys_records_count_only_for_a_site_whose_pages_speak_of_the_topic():
    # heldout29: a general book shop's search asked the learned word "map" (the second,
    # broad query) listed 11 books; its pages' share of topic words was 0.012
    assert broad_answer_counts(False, 0.012, 0.08) is False
    assert broad_answer_counts(False, 0.08, 0.08) is True  # a car dealer saying "car"
    assert broad_answer_counts(True, 0.0, 0.08) is True  # the topic's own words asked


def test_a_broad_querys_records_that_do_not_count_say_nothing_of_the_topic():
    # heldout32: a preprint archive's paper search, "archives" answered with nothing,
    # "paper" (learned from the archives' "estate papers") with papers holding one learned
    # word, on a site whose pages' share of topic words was 0.065: output at 0.524
    weights = RelevanceWeights(site=0.4, form=0.4, result=0.4, threshold=0.5, density=0.08)
    counts = broad_answer_counts(False, 0.065, weights.density)
    result = broad_answer_evidence(0.25, counts)
    assert result == NOTHING_FOR_TOPIC
    assert not judge_form(True, 0.065 / 0.08, 0.25, result, weights).relevant
    assert judge_form(True, 0.065 / 0.08, 0.25, 0.25, weights).relevant  # as it was
    # records that count keep their evidence: a site speaking of the topic, or the
    # topic's own words asked
    assert broad_answer_evidence(0.25, broad_answer_counts(False, 0.116, 0.08)) == 0.25
    assert broad_answer_evidence(0.75, broad_answer_counts(True, 0.0, 0.08)) == 0.75
