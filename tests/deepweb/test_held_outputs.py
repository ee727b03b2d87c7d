"""Outputs held until the crawl ends (crawler.deepweb.held_outputs)."""

from __future__ import annotations

from dataclasses import replace

from crawler.deepweb.held_outputs import HeldOutputs
from crawler.items import FormItem


def item(site: str, index: int = 0, relevant: bool = True) -> FormItem:
    return FormItem(
        site=site,
        page_url=f"http://{site}/search",
        form_index=index,
        action_url=f"http://{site}/results",
        method="GET",
        fields=[{"name": "q", "type": "text", "options": []}],
        searchable=True,
        searchable_score=0.99,
        relevant=relevant,
        relevance_score=0.9,
        site_score=1.0,
        form_score=1.0,
        probe="no_results",
    )


def test_held_forms_are_output_at_the_end_only_if_their_site_still_stands_near_the_topic():
    # heldout26, the book-shop order: at the end the shops' z was 0.72-0.95 among 35 home
    # pages, the dictionaries' 2.05-3.13
    held = HeldOutputs(min_z=1.0)
    shop, dictionary, answered = item("www.shop.test"), item("www.lexicon.test"), item("a.test")
    for one in (shop, dictionary, answered, item("www.lexicon.test", 1)):
        held.hold(one)
    assert len(held.items) == 4
    z = {"www.shop.test": 0.72, "www.lexicon.test": 2.05, "a.test": 0.1}
    released, taken_back = held.release(z.get, lambda site: site != "a.test")
    # a.test no longer rests on its meaning (its database answered the topic)
    assert [(i.site, i.form_index) for i in released] == [
        ("www.lexicon.test", 0),
        ("a.test", 0),
        ("www.lexicon.test", 1),
    ]
    assert taken_back == [(shop, 0.72)]
    assert held.items == {}


def test_a_later_item_of_a_held_form_replaces_it():
    held = HeldOutputs(min_z=1.0)
    first = item("www.shop.test")
    held.hold(first)
    assert held.drop(replace(first, relevant=False)) is True
    assert held.drop(first) is False and held.items == {}
    held.hold(first)
    later = replace(first, relevance_score=1.2)
    held.hold(later)
    assert list(held.items.values()) == [later]
    # a site with no z (never embedded) that still rests on its meaning: taken back
    released, taken_back = held.release(lambda site: None, lambda site: True)
    assert released == [] and taken_back == [(later, None)]
