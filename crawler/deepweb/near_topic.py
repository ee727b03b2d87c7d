"""In-site evidence for a site near the topic, before it is given up as off topic.

A site whose home page names its topic in other words ("planning applications" for
permits, "lexicon" and "glossary" for dictionaries) is judged off topic on that page,
and the ``off_topic`` stop ends it after one request. While the topic's sites are not
found, a site whose home page is near the topic (its meaning stands somewhat above the
other home pages') gets a few of its inner pages read, taken best first by the link
ranking (its search, browse and menu pages), and its searches probed with the topic's
words; it is kept as a topic site when a probe lists records that name the topic
themselves (a register's "Advertisement consent permit"), or lists records while its
inner pages name the topic; otherwise it is given up, with the evidence logged.

The decisions are plain functions (no Scrapy): :func:`near_topic` (is a home page near
the topic?), :func:`weigh_in_site` (does the in-site evidence keep the site?).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from crawler import defaults
from crawler.focus.query import terms

#: verdicts of :func:`weigh_inner_pages`
KEEP = "keep"
WAIT = "wait"
GIVE_UP = "give_up"


@dataclass(frozen=True)
class NearTopicRules:
    """Settings SMART_NEAR_TOPIC_* (docs/deepweb.md, "Eleventh round")."""

    pages: int = defaults.SMART_NEAR_TOPIC_PAGES  # inner pages weighed; 0: off
    min_z: float = defaults.SMART_NEAR_TOPIC_MIN_Z  # meaning z of a near home page
    min_pages_seen: int = defaults.SMART_NEAR_TOPIC_MIN_HOME_PAGES  # home pages for a z
    min_hits: int = defaults.SMART_NEAR_TOPIC_MIN_HITS  # topic words on inner pages
    min_pages_naming: int = defaults.SMART_NEAR_TOPIC_MIN_PAGES_NAMING
    min_record_hits: int = defaults.SMART_NEAR_TOPIC_MIN_RECORD_HITS  # in a probe's records
    until_sites: int = defaults.SMART_MEANING_UNTIL_PAGES  # topic sites found: no more trials


class TopicNames:
    """The terms that name the topic: its stems with their word family
    (``family``, a container such as :class:`~crawler.deepweb.word_family.WordFamily`)
    and :func:`topic_word_forms`."""

    def __init__(self, family: Container[str], forms: Iterable[str]) -> None:
        self.family = family
        self.forms = frozenset(forms)

    def __contains__(self, term: object) -> bool:
        return term in self.forms or term in self.family


def topic_word_forms(topic_words: Iterable[str]) -> frozenset[str]:
    """The stems of the topic's words and of their singulars that the analyzer does not
    fold: a Greek plural in "-es" whose singular ends in "-is" ("theses" -> "these",
    "thesis" -> "thesi"; "analyses", "diagnoses"). Other plurals ("permits",
    "dictionaries") fold to their singular's stem already."""
    forms: set[str] = set()
    for word in topic_words:
        word = word.lower()
        forms.update(terms(word))
        if word.endswith("ses") and len(word) > 5:
            forms.update(terms(word[:-2] + "is"))
    return frozenset(forms)


def near_topic(z: float | None, pages_seen: int, topic_sites: int, rules: NearTopicRules) -> str:
    """Why a home page judged off topic is near the topic ("" when it is not): its
    cosine with the topic phrase is at least ``rules.min_z`` standard deviations above
    the mean of the ``pages_seen`` home pages embedded (at least
    ``rules.min_pages_seen`` of them), while the topic's sites are not found yet
    (``topic_sites``, the home pages that taught the topic vocabulary and still stand
    out, below ``rules.until_sites``). Once they are, the vocabulary's words judge the
    rest, and the neighbours of the topic are not weighed page by page (heldout23: a
    papers archive and a preprint server whose inner pages say "thesis" were kept for
    theses, taught the vocabulary their words, and 6 of the 10 forms output were theirs
    or their neighbours')."""
    if rules.pages <= 0 or topic_sites >= rules.until_sites:
        return ""
    if z is not None and pages_seen >= rules.min_pages_seen and z >= rules.min_z:
        return f"its meaning z {z:.2f} among {pages_seen} home pages"
    return ""


@dataclass
class InnerPages:
    """What a near site's inner pages and its probes' records said of the topic so far."""

    pages: int = 0
    topic_hits: int = 0  # occurrences of the topic's own words (and their family)
    pages_naming: int = 0  # inner pages holding one of them
    words: Counter[str] = field(default_factory=Counter)  # which ones, how often
    records: int = 0  # most records a probe with the topic's words listed
    record_hits: int = 0  # the topic's own words in those records

    def add(self, page_terms: Iterable[str], names_topic: Container[str]) -> int:
        """One more inner page (its terms); ``names_topic``: the terms that name the
        topic. Returns the page's topic hits."""
        hits = Counter(t for t in page_terms if t in names_topic)
        self.pages += 1
        total = sum(hits.values())
        self.topic_hits += total
        self.pages_naming += 1 if total else 0
        self.words.update(hits)
        return total

    def add_records(
        self, records: int, record_terms: Iterable[str], names_topic: Container[str]
    ) -> int:
        """A probe with the topic's words listed ``records`` (their terms). Returns the
        records' topic hits."""
        hits = sum(1 for t in record_terms if t in names_topic)
        if (hits, records) > (self.record_hits, self.records):
            self.records, self.record_hits = records, hits
        return hits

    def names_topic(self, rules: NearTopicRules) -> bool:
        """The inner pages hold the topic's own words ``rules.min_hits`` times, on
        ``rules.min_pages_naming`` pages or more."""
        return self.topic_hits >= rules.min_hits and self.pages_naming >= rules.min_pages_naming

    def summary(self) -> str:
        named = " ".join(f"{w} {n}" for w, n in self.words.most_common(5)) or "none"
        return (
            f"{self.pages} inner pages, topic words {self.topic_hits} times on "
            f"{self.pages_naming} of them ({named}); a probe with the topic's words: "
            + (
                f"{self.records} records, topic words {self.record_hits} times"
                if self.records
                else "no records"
            )
        )


def weigh_in_site(inner: InnerPages, rules: NearTopicRules, pages_left: bool = True) -> str:
    """The in-site evidence of a site near the topic: :data:`KEEP` when a probe with
    the topic's words listed records (two or more) that name the topic themselves
    (``rules.min_record_hits`` times: a register's record "Advertisement consent
    permit", a repository's "PhD thesis"), or listed records while its inner pages
    name the topic (:meth:`InnerPages.names_topic`); :data:`GIVE_UP` when
    ``rules.pages`` inner pages were read without that, or no page of the site is left
    to read (``pages_left``; a probe answered later may still keep it); :data:`WAIT`
    otherwise. Inner pages that name the topic are not enough
    alone: the topic's neighbours name it too (heldout23: a papers archive's pages say
    "thesis" 14 times on 2 pages, its search has nothing for "theses")."""
    if inner.records >= 2 and (
        inner.record_hits >= rules.min_record_hits or inner.names_topic(rules)
    ):
        return KEEP
    if inner.pages >= rules.pages or not pages_left:
        return GIVE_UP
    return WAIT
