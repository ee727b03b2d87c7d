"""Stage 1: site ranking, the two-queue site frontier, the site classifier, reverse
searching."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from crawler.deepweb import (
    Features,
    LinkRanker,
    SiteClassifier,
    SiteExploration,
    SiteFrontier,
    SiteRanker,
    StopRules,
    release_out_links,
    reverse_search,
    url_vector,
)
from crawler.focus import parse_query
from crawler.storage.schema import migrate


def hand_built() -> tuple[SiteRanker, SiteFrontier]:
    """One known deep-web site; three candidates whose ranks are worked out below."""
    ranker = SiteRanker(alpha=0.5)
    ranker.add_known(
        "deep.test",
        Features(
            url=Counter({"book": 1}), anchor=Counter({"book": 1, "search": 1}), around=Counter()
        ),
    )
    frontier = SiteFrontier(ranker)
    # URL "book" (www, test: noise) = known URL: 1; anchor = known anchor: 1; no text
    # around: 0. ST = 2; linked from the known site: SF = 1.
    frontier.offer("http://www.book.test/shelf.html", anchor="book search", source_site="deep.test")
    # URL "car": 0; anchor {book} against {book, search}: 1/sqrt(2); SF = 0
    frontier.offer("http://cars.test/", anchor="book", source_site="x.test", high=True)
    # no words at all; linked from the known site and from another one: SF = 1
    frontier.offer("http://c.test/", source_site="deep.test")
    frontier.offer("http://c.test/x", source_site="y.test")
    return ranker, frontier


def test_exact_ranks_of_hand_built_sites():
    ranker, frontier = hand_built()
    ranks = {site: ranker.rank(c) for site, c in frontier.candidates.items()}
    assert ranks == {
        "www.book.test": pytest.approx(0.5 * 2 + 0.5 * math.log(2), abs=1e-12),
        "cars.test": pytest.approx(0.5 * (1 / math.sqrt(2)), abs=1e-12),
        "c.test": pytest.approx(0.5 * math.log(2), abs=1e-12),
    }
    assert {s: ranker.similarity(c) for s, c in frontier.candidates.items()} == {
        "www.book.test": pytest.approx(2.0),
        "cars.test": pytest.approx(1 / math.sqrt(2)),
        "c.test": 0.0,
    }
    assert {s: ranker.frequency(c) for s, c in frontier.candidates.items()} == {
        "www.book.test": 1,
        "cars.test": 0,
        "c.test": 1,
    }
    # alpha 1: similarity alone; alpha 0: frequency alone
    assert SiteRanker(1.0).rank(frontier.candidates["c.test"]) == 0.0
    with pytest.raises(ValueError):
        SiteRanker(1.5)


def test_high_queue_first_then_low_queue_by_rank():
    _, frontier = hand_built()
    assert frontier.high == ["cars.test"]
    assert frontier.low == ["www.book.test", "c.test"]
    # the high queue is served first although its site ranks below www.book.test
    order = [frontier.pop().site for _ in range(3)]
    assert order == ["cars.test", "www.book.test", "c.test"]
    assert frontier.pop() is None
    # a site taken is never queued again
    assert not frontier.offer("http://cars.test/again", source_site="z.test")


def test_entry_links_and_home_of_a_site():
    _, frontier = hand_built()
    book = frontier.candidates["www.book.test"]
    assert book.home == "http://www.book.test/"
    assert book.entries == {"http://www.book.test/shelf.html": ("book search", "")}
    assert book.features.url == url_vector("http://www.book.test/") == Counter({"book": 1})
    # links within one site are not offered
    assert not frontier.offer("http://d.test/a", source_site="d.test")


def exploration(site: str, links: dict[str, tuple[str, str]], forms: int) -> SiteExploration:
    explored = SiteExploration.start(site, f"http://{site}/", StopRules(), LinkRanker())
    explored.out_links = links
    explored.searchable_forms = forms
    return explored


def test_high_priority_queue_receives_out_of_site_links_of_form_sites():
    frontier = SiteFrontier(SiteRanker())
    released = release_out_links(
        exploration(
            "form.test",
            {
                "http://a.test/": ("books", ""),
                "http://b.test/page": ("more", "see also"),
            },
            forms=1,
        ),
        frontier,
    )
    assert released == 2
    release_out_links(
        exploration(
            "plain.test",
            {
                "http://c.test/": ("", ""),
                "http://a.test/other": ("", ""),
            },
            forms=0,
        ),
        frontier,
    )
    assert frontier.high == ["a.test", "b.test"]
    assert frontier.low == ["c.test"]
    assert frontier.candidates["a.test"].linked_from == {"form.test", "plain.test"}


def home(topic_words: str) -> str:
    return f"Welcome. {topic_words} and some common words about people and time."


def test_site_classifier_naive_bayes_from_examples():
    classifier = SiteClassifier(
        None,
        on_topic=[home("novel author library books reading"), home("bookshop paperback isbn")],
        off_topic=[home("recipe oven flour butter"), home("stocks bond dividend market")],
    )
    assert classifier.bayes is not None and classifier.bayes.model == "naive_bayes"
    on = classifier.classify(home("new novel by the author, books to read in the library"))
    off = classifier.classify(home("bake the flour with butter in the oven"))
    assert (on.relevant, off.relevant) == (True, False)
    assert on.model == off.model == "naive_bayes"


def test_site_classifier_online_keywords_then_naive_bayes():
    classifier = SiteClassifier(
        parse_query("books", "any"), min_hits=2, min_examples=2, retrain_every=100
    )
    first = classifier.classify(home("books books novel"))
    assert (first.relevant, first.model, first.score) == (True, "keywords", 1.0)
    assert classifier.classify(home("one book only")).relevant is False  # 1 hit < 2
    assert classifier.classify(home("recipe oven flour butter")).model == "keywords"
    # two home pages of each label: Naive Bayes is trained and decides
    verdict = classifier.classify(home("book books author library"))
    assert verdict.model == "naive_bayes" and verdict.relevant
    # a seed's home page is judged without joining the training set
    seen = len(classifier.examples[True]) + len(classifier.examples[False])
    classifier.classify(home("books books"), learn=False)
    assert len(classifier.examples[True]) + len(classifier.examples[False]) == seen


def test_reverse_search_in_the_links_table(db):
    migrate(db)
    db.execute(
        "INSERT INTO crawls (id, spider) VALUES ('old', 'general'), ('new', 'smart') "
        "ON CONFLICT DO NOTHING"
    )
    db.execute("DELETE FROM links WHERE crawl_id IN ('old', 'new')")
    rows = [
        # a center page (earlier crawl) links to the known deep site and to two others
        ("old", "http://hub.test/list", "http://deep.test/", "deep books"),
        ("old", "http://hub.test/list", "http://other.test/", "other books"),
        ("old", "http://hub.test/list", "http://third.test/x", "third"),
        # this crawl: another center page
        ("new", "http://blog.test/p", "http://deep.test/search", "search"),
        ("new", "http://blog.test/p", "http://fourth.test/", "fourth"),
        # no link to a known site: not a center page
        ("new", "http://far.test/", "http://never.test/", "never"),
    ]
    with db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO links (crawl_id, source_url, target_url, anchor_text) "
            "VALUES (%s, %s, %s, %s)",
            rows,
        )
    found = reverse_search(db, ["deep.test"])
    assert [(r.center, r.url, r.anchor) for r in found] == [
        ("http://blog.test/p", "http://fourth.test/", "fourth"),
        ("http://hub.test/list", "http://other.test/", "other books"),
        ("http://hub.test/list", "http://third.test/x", "third"),
    ]
    assert reverse_search(db, []) == []


def test_online_naive_bayes_needs_a_topic_word_on_the_home_page():
    classifier = SiteClassifier(parse_query("books", "any"), min_hits=1, min_examples=1)
    classifier.classify(home("books novel author"))
    classifier.classify(home("recipe oven flour"))
    assert classifier.bayes is not None
    # words Naive Bayes never saw (only the common ones count): no topic word, no verdict
    unseen = classifier.classify(home("striker goalkeeper penalty"), learn=False)
    assert unseen.model == "naive_bayes" and not unseen.relevant
