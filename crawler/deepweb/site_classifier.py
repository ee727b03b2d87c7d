"""Stage 1: is a site on topic? Decided on its home page, before the site is explored.

The paper's classifier: multinomial Naive Bayes over the home page's stemmed terms with
stop words removed. It is the focused crawl's :class:`~crawler.focus.TopicClassifier`
(TF-IDF of the search index's stemmed terms, scikit-learn's MultinomialNB), trained

- on the home pages of example sites (``-a examples=FILE``: on- and off-topic ones), or
- with a topic by keywords alone, online: every home page seen is labelled by the topic
  terms it holds (at least ``min_hits`` occurrences of the topic's stems or of words of
  their family, :mod:`crawler.deepweb.word_family`: "rent" for "rentals"), and once
  ``min_examples`` home pages of each label exist Naive Bayes is trained on them (again
  every ``retrain_every`` new home pages) and decides from then on, among the home pages
  that hold a topic word at all: Naive Bayes has no evidence on a page of words it has
  not seen yet (a topic none of whose sites was met so far) and scores it about 0.5,
  either side of the threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crawler import defaults
from crawler.deepweb.word_family import WordFamily
from crawler.focus.classifier import ExamplesError, TopicClassifier
from crawler.focus.query import FocusQuery, terms


@dataclass(frozen=True)
class SiteVerdict:
    relevant: bool
    score: float  # Naive Bayes probability of the topic, or keyword hits / min_hits capped at 1
    model: str  # "naive_bayes" or "keywords"


class SiteClassifier:
    def __init__(
        self,
        query: FocusQuery | None,
        *,
        on_topic: Sequence[str] = (),
        off_topic: Sequence[str] = (),
        threshold: float = defaults.SMART_SITE_THRESHOLD,
        min_hits: int = defaults.SMART_SITE_MIN_HITS,
        min_examples: int = defaults.SMART_SITE_MIN_EXAMPLES,
        retrain_every: int = defaults.SMART_SITE_RETRAIN_EVERY,
        word_family: bool = defaults.SMART_TOPIC_WORD_FAMILY,
    ) -> None:
        if query is None and not on_topic:
            raise ExamplesError("the site classifier needs a topic or on-topic examples")
        self.query = query
        # the family of the topic's one-word clauses ("rentals": "rent", "renting" too)
        self.family = WordFamily(
            (c.stems[0] for c in (query.clauses if query else ()) if len(c.stems) == 1),
            word_family,
        )
        self.threshold = threshold
        self.min_hits = max(1, min_hits)
        self.min_examples = max(1, min_examples)
        self.retrain_every = max(1, retrain_every)
        self.examples: dict[bool, list[str]] = {True: list(on_topic), False: list(off_topic)}
        self.fixed = bool(on_topic and off_topic)  # trained from examples: not retrained
        self.bayes: TopicClassifier | None = None
        self._since_training = 0
        if self.fixed or query is None:
            self.bayes = TopicClassifier(on_topic, off_topic)
        else:
            self._train()

    def keyword_hits(self, text: str) -> int:
        assert self.query is not None
        tokens = terms(text)
        hits = sum(clause.count(tokens) for clause in self.query.clauses)
        # words of the topic's family that are not its stems ("rent" for "rentals")
        return hits + sum(1 for t in tokens if t not in self.family.stems and t in self.family)

    def _train(self) -> None:
        on, off = self.examples[True], self.examples[False]
        if len(on) >= self.min_examples and len(off) >= self.min_examples:
            self.bayes = TopicClassifier(on, off)
            self._since_training = 0

    def classify(self, home_text: str, *, learn: bool = True) -> SiteVerdict:
        """The verdict on a site from its home page's title and text; ``learn=False``
        keeps the page out of the online training set (a seed: a directory or portal)."""
        if learn and not self.fixed and self.query is not None:
            label = self.keyword_hits(home_text) >= self.min_hits
            self.examples[label].append(home_text)
            self._since_training += 1
            if self.bayes is None or self._since_training >= self.retrain_every:
                self._train()
        if self.bayes is not None:
            score = self.bayes.score(home_text)
            relevant = score > self.threshold
            if relevant and not self.fixed and self.query is not None:
                relevant = self.keyword_hits(home_text) > 0
            return SiteVerdict(relevant, round(score, 6), self.bayes.model)
        hits = self.keyword_hits(home_text)
        return SiteVerdict(hits >= self.min_hits, min(1.0, hits / self.min_hits), "keywords")
