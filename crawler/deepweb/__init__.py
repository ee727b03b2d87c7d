"""Deep-web crawling (docs/deepweb.md): the smart crawler's two stages without Scrapy
imports. Stage 1, site locating: site frontier, site ranking, site classifier, reverse
searching. Stage 2, in-site exploring: link ranking, link tree, stop rules. Forms:
extraction and the searchable-form classifier."""

from crawler.deepweb.exploration import SiteExploration, StopRules, release_out_links
from crawler.deepweb.forms import (
    FORM_FEATURE_WEIGHTS,
    Form,
    FormField,
    FormVerdict,
    classify_form,
    extract_forms,
    forms_of,
    parse_html,
)
from crawler.deepweb.link_tree import LinkRanker, LinkTree, directory_of, link_features
from crawler.deepweb.page import LinkContext, link_contexts
from crawler.deepweb.reverse import ReverseLink, reverse_search
from crawler.deepweb.similarity import Features, cosine, text_vector, url_vector
from crawler.deepweb.site_classifier import SiteClassifier, SiteVerdict
from crawler.deepweb.site_frontier import SiteCandidate, SiteFrontier, SiteRanker, home_of, site_of

__all__ = [
    "FORM_FEATURE_WEIGHTS",
    "Features",
    "Form",
    "FormField",
    "FormVerdict",
    "LinkContext",
    "LinkRanker",
    "LinkTree",
    "ReverseLink",
    "SiteCandidate",
    "SiteClassifier",
    "SiteExploration",
    "SiteFrontier",
    "SiteRanker",
    "SiteVerdict",
    "StopRules",
    "classify_form",
    "cosine",
    "directory_of",
    "extract_forms",
    "forms_of",
    "home_of",
    "link_contexts",
    "link_features",
    "parse_html",
    "release_out_links",
    "reverse_search",
    "site_of",
    "text_vector",
    "url_vector",
]
