"""Focused crawling (docs/focused.md): page weight, query, link relevance, tunnelling,
topic by example and harvest rate, without Scrapy imports."""

from crawler.focus.classifier import (
    COSINE,
    NAIVE_BAYES,
    Example,
    ExamplesError,
    TopicClassifier,
    document_text,
    read_examples,
    read_local_example,
)
from crawler.focus.harvest import HarvestIntervals, HarvestSample
from crawler.focus.links import LinkScoreParams, link_relevance, parent_share, priority_bucket
from crawler.focus.query import Clause, FocusQuery, QueryError, parse_query, terms
from crawler.focus.relevance import Judgement, RelevanceModel
from crawler.focus.tunnel import TunnelPolicy
from crawler.focus.weight import PageWeight, WeightParams, page_weight

__all__ = [
    "COSINE",
    "NAIVE_BAYES",
    "Clause",
    "Example",
    "ExamplesError",
    "FocusQuery",
    "HarvestIntervals",
    "HarvestSample",
    "Judgement",
    "LinkScoreParams",
    "PageWeight",
    "QueryError",
    "RelevanceModel",
    "TopicClassifier",
    "TunnelPolicy",
    "WeightParams",
    "document_text",
    "link_relevance",
    "page_weight",
    "parent_share",
    "parse_query",
    "priority_bucket",
    "read_examples",
    "read_local_example",
    "terms",
]
