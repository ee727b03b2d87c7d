"""Plain classes built without arguments use crawler/defaults.py's values (docs/conventions.md).

A copied literal drifts from defaults.py unnoticed (StopRules.max_pages_without_form was 8
while SMART_SITE_MAX_PAGES_WITHOUT_FORM is 6): these tests compare the two.
"""

from __future__ import annotations

import inspect

from crawler import defaults
from crawler.dedup.content_seen import ContentSeenTest
from crawler.dedup.winnowing import WinnowingFingerprint
from crawler.deepweb.exploration import ResumePolicy, StopRules
from crawler.deepweb.link_tree import LinkRanker, LinkTree
from crawler.deepweb.relevance import RelevanceWeights, TopicVocabulary
from crawler.deepweb.site_classifier import SiteClassifier
from crawler.deepweb.site_frontier import SiteRanker
from crawler.focus.links import LinkScoreParams
from crawler.focus.relevance import RelevanceModel
from crawler.focus.tunnel import TunnelPolicy
from crawler.focus.weight import WeightParams
from crawler.incremental.policy import RevisitPlanner
from crawler.ranking.pagerank import pagerank_of_graph, weighted_pagerank
from crawler.search.query import Boosts


def test_deep_web_stop_rules_and_rankers():
    assert StopRules() == StopRules(
        max_depth=defaults.SMART_SITE_MAX_DEPTH,
        max_pages=defaults.SMART_SITE_MAX_PAGES,
        max_pages_without_form=defaults.SMART_SITE_MAX_PAGES_WITHOUT_FORM,
        max_forms=defaults.SMART_SITE_MAX_FORMS,
    )
    assert LinkTree(LinkRanker()).penalty == defaults.SMART_LINK_TREE_PENALTY
    assert SiteRanker().alpha == defaults.SMART_ALPHA
    classifier = SiteClassifier(None, on_topic=["books"])
    assert classifier.threshold == defaults.SMART_SITE_THRESHOLD
    assert classifier.min_hits == defaults.SMART_SITE_MIN_HITS
    assert classifier.min_examples == defaults.SMART_SITE_MIN_EXAMPLES
    assert classifier.retrain_every == defaults.SMART_SITE_RETRAIN_EVERY
    tree = LinkTree(LinkRanker())
    assert (tree.nav_bonus, tree.likely_rank, tree.nav_depth, tree.topic_bonus) == (
        defaults.SMART_LINK_NAV_BONUS,
        defaults.SMART_LINK_LIKELY_RANK,
        defaults.SMART_LINK_NAV_DEPTH,
        defaults.SMART_LINK_TOPIC_BONUS,
    )
    assert ResumePolicy() == ResumePolicy(
        defaults.SMART_RESUME_SITES,
        defaults.SMART_SITE_MAX_ROUNDS,
        defaults.SMART_DISCOVERY_MAX_PAGES,
    )
    assert RelevanceWeights() == RelevanceWeights(
        site=defaults.SMART_FORM_SITE_WEIGHT,
        form=defaults.SMART_FORM_WEIGHT,
        result=defaults.SMART_FORM_RESULT_WEIGHT,
        threshold=defaults.SMART_FORM_RELEVANCE_THRESHOLD,
        density=defaults.SMART_SITE_MIN_DENSITY,
    )
    vocabulary = TopicVocabulary(["book"])
    assert (vocabulary.min_pages, vocabulary.min_ratio, vocabulary.max_chance) == (
        defaults.SMART_VOCABULARY_MIN_PAGES,
        defaults.SMART_VOCABULARY_MIN_RATIO,
        defaults.SMART_VOCABULARY_MAX_CHANCE,
    )
    assert vocabulary.family.derived is defaults.SMART_TOPIC_WORD_FAMILY


def test_focused_crawl_parameters():
    assert WeightParams() == WeightParams(
        url=defaults.FOCUS_WEIGHT_URL,
        title=defaults.FOCUS_WEIGHT_TITLE,
        body=defaults.FOCUS_WEIGHT_BODY,
        outlinks=defaults.FOCUS_WEIGHT_OUTLINKS,
        body_words=defaults.FOCUS_BODY_WORDS,
        outlinks_cap=defaults.FOCUS_OUTLINKS_CAP,
        threshold=defaults.FOCUS_THRESHOLD,
        max_text_chars=defaults.FOCUS_MAX_TEXT_CHARS,
    )
    assert LinkScoreParams() == LinkScoreParams(
        parent=defaults.FOCUS_LINK_WEIGHT_PARENT,
        anchor=defaults.FOCUS_LINK_WEIGHT_ANCHOR,
        url=defaults.FOCUS_LINK_WEIGHT_URL,
    )
    assert TunnelPolicy().max_depth == defaults.FOCUS_TUNNEL_DEPTH
    parameters = inspect.signature(RelevanceModel).parameters
    assert parameters["classifier_threshold"].default == defaults.FOCUS_CLASSIFIER_THRESHOLD
    assert parameters["similarity_threshold"].default == defaults.FOCUS_SIMILARITY_THRESHOLD


def test_content_seen_test():
    test = ContentSeenTest()
    assert test.threshold == defaults.DEDUP_THRESHOLD
    assert test.index.num_perm == defaults.DEDUP_NUM_PERM
    assert test.candidate_threshold == defaults.DEDUP_CANDIDATE_THRESHOLD
    assert test.alignment_threshold == defaults.DEDUP_ALIGNMENT_THRESHOLD
    assert test.keep_minutiae == defaults.DEDUP_MINUTIAE_IN_MEMORY
    assert test.content == defaults.DEDUP_CONTENT
    assert test.short_page_words == defaults.DEDUP_SHORT_PAGE_WORDS
    assert WinnowingFingerprint() == WinnowingFingerprint(
        defaults.DEDUP_K, defaults.DEDUP_W, defaults.DEDUP_HASH
    )


def test_search_ranking_and_revisits():
    assert Boosts() == Boosts(
        title=defaults.SEARCH_TITLE_BOOST,
        exact=defaults.SEARCH_EXACT_BOOST,
        lead=defaults.SEARCH_LEAD_BOOST,
        proximity=defaults.SEARCH_PROXIMITY_BOOST,
        heading=defaults.SEARCH_HEADING_BOOST,
        anchor=defaults.SEARCH_ANCHOR_BOOST,
    )
    for function in (weighted_pagerank, pagerank_of_graph):
        parameters = inspect.signature(function).parameters
        assert parameters["damping"].default == defaults.PAGERANK_DAMPING
        assert parameters["tolerance"].default == defaults.PAGERANK_TOLERANCE
        assert parameters["max_iterations"].default == defaults.PAGERANK_MAX_ITERATIONS
    planner = RevisitPlanner()
    assert planner.policy == defaults.INCREMENTAL_POLICY
    assert planner.min_interval == defaults.INCREMENTAL_MIN_INTERVAL
    assert planner.max_interval == defaults.INCREMENTAL_MAX_INTERVAL


def test_no_page_the_crawl_accepts_stops_the_downloads_alone():
    # Scrapy's engine backs out while the responses waiting to be parsed exceed
    # SCRAPER_SLOT_MAX_ACTIVE_SIZE: one page of up to DOWNLOAD_MAXSIZE must not do it
    from crawler import settings

    assert settings.SCRAPER_SLOT_MAX_ACTIVE_SIZE >= 2 * settings.DOWNLOAD_MAXSIZE
