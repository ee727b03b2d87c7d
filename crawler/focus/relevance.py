"""Judging pages and scoring their links: the keyword page weight or a topic classifier.

:class:`RelevanceModel` puts the pieces together for the spider: the page weight of
:mod:`crawler.focus.weight` (or, with examples, the classifier's score in its place)
against a threshold, and the link relevance of :mod:`crawler.focus.links`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from crawler import defaults
from crawler.focus.classifier import NAIVE_BAYES, TopicClassifier
from crawler.focus.links import LinkScoreParams, link_relevance, parent_share
from crawler.focus.query import FocusQuery, terms
from crawler.focus.weight import PageWeight, WeightParams, page_weight
from crawler.search.schema import url_analyzer


@dataclass(frozen=True)
class Judgement:
    """How relevant one page is: its weight, the threshold, and the verdict."""

    weight: float
    threshold: float
    parts: PageWeight | None = None  # keyword mode: the four parts of the weight

    @property
    def relevant(self) -> bool:
        return self.weight > self.threshold


def url_words(url: str) -> str:
    """The words of a URL (``/java-generics`` -> ``java generics``) for a classifier."""
    return " ".join(token.text for token in url_analyzer()(url))


class RelevanceModel:
    """Keyword page weight (query) or classifier score (examples), and link scores.

    With a classifier the page weight is its score and the threshold is
    ``classifier_threshold`` (Naive Bayes) or ``similarity_threshold`` (cosine); the
    query, when also given, still scores anchor texts and URLs of links, else the
    classifier scores them too.
    """

    def __init__(
        self,
        query: FocusQuery | None,
        *,
        weights: WeightParams | None = None,
        links: LinkScoreParams | None = None,
        classifier: TopicClassifier | None = None,
        classifier_threshold: float = defaults.FOCUS_CLASSIFIER_THRESHOLD,
        similarity_threshold: float = defaults.FOCUS_SIMILARITY_THRESHOLD,
    ) -> None:
        if query is None and classifier is None:
            raise ValueError("a query or a classifier is needed")
        self.query = query
        self.weights = weights or WeightParams()
        self.links = links or LinkScoreParams()
        self.classifier = classifier
        if classifier is None:
            self.threshold = self.weights.threshold
        elif classifier.model == NAIVE_BAYES:
            self.threshold = classifier_threshold
        else:
            self.threshold = similarity_threshold

    def judge(self, *, url: str, title: str, text: str, outlinks: int) -> Judgement:
        if self.classifier is not None:
            score = self.classifier.score(f"{title}\n{text}")
            return Judgement(score, self.threshold)
        assert self.query is not None
        parts = page_weight(
            self.query, url=url, title=title, text=text, outlinks=outlinks, params=self.weights
        )
        return Judgement(parts.total, self.threshold, parts)

    def link_scores(self, page: Judgement, links: Sequence[tuple[str, str]]) -> list[float]:
        """Relevance (0..1) of each ``(anchor text, target URL)`` found on a judged page."""
        if not links:
            return []
        parent = parent_share(page.weight, self.threshold)
        if self.query is not None:
            anchors = [self.query.fraction_in(terms(anchor)) for anchor, _ in links]
            urls = [self.query.fraction_in_url(url) for _, url in links]
        else:
            assert self.classifier is not None
            anchors = self.classifier.scores([anchor for anchor, _ in links])
            urls = self.classifier.scores([url_words(url) for _, url in links])
        return [
            link_relevance(parent=parent, anchor=a, url=u, params=self.links)
            for a, u in zip(anchors, urls, strict=True)
        ]
