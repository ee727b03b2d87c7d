"""How the search ranks, in one place and without a search backend: the weights of the
relevance signals, the blend with PageRank and the query's language, and the grouping of
a page's translations and copies into one result.

A backend (Whoosh today, crawler/search/engine.py; Tantivy later) computes the per-field
BM25F scores of the query's words and sums them with these weights:

    text(d, q) = BM25F(content) + title * BM25F(title) + heading * BM25F(headings)
                 + anchor * BM25F(inlinks) + exact * BM25F(title_exact + url_name)
                 + context * BM25F(context) [SEARCH_CONTEXT_MIN_WORDS+ words]
                 + lead * BM25F(lead) [3+ words] + proximity * pairs/sequence [rescore]

then ``final_score`` blends in PageRank and the language, and ``group_variants`` folds
the translations and copies of a page into the result of its best member, shown in the
query's language when one member is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from crawler import defaults
from crawler.content import detect_language, language_tag, script_language
from crawler.search.fields import source_copy_page, url_language

#: Detector probability from which a query in Latin script is taken to be in a language
#: (a query of a few words is easily mistaken: "how to join a list of strings" is English
#: at 0.72); scripts that tell their language decide at once.
QUERY_LANGUAGE_CONFIDENCE = 0.9
#: Words a query needs for the detector to be asked.
QUERY_DETECT_MIN_WORDS = 3


@dataclass(frozen=True)
class Boosts:
    """Weights of the scored-only bonuses (SEARCH_TITLE_BOOST, SEARCH_HEADING_BOOST,
    SEARCH_ANCHOR_BOOST, SEARCH_EXACT_BOOST, SEARCH_LEAD_BOOST, SEARCH_PROXIMITY_BOOST);
    0 turns one off."""

    title: float = defaults.SEARCH_TITLE_BOOST
    exact: float = defaults.SEARCH_EXACT_BOOST
    lead: float = defaults.SEARCH_LEAD_BOOST
    proximity: float = defaults.SEARCH_PROXIMITY_BOOST
    heading: float = defaults.SEARCH_HEADING_BOOST
    anchor: float = defaults.SEARCH_ANCHOR_BOOST
    #: the context bonus (in-link contexts), for queries of ``context_min_words`` plain
    #: words or more
    context: float = defaults.SEARCH_CONTEXT_BOOST
    context_min_words: int = defaults.SEARCH_CONTEXT_MIN_WORDS


#: Queries of this many plain words or more are descriptions (and sentences), ranked by
#: what their words say rather than by a name (crawler/search/query/compiler.py,
#: ONE_TIER_MIN_WORDS: the same threshold).
DESCRIPTION_MIN_WORDS = 4
#: A description's title, heading, anchor and lead bonuses weigh this much of a name's.
DESCRIPTION_BONUS_FACTOR = 0.5


def query_boosts(boosts: Boosts, words: int) -> Boosts:
    """The bonus weights for a query of ``words`` plain words. A description (from
    DESCRIPTION_MIN_WORDS words) names no page: each of its words found in a short field
    (a title, a heading, an anchor, the lead) is weak evidence, since a user describing a
    page in other words shares a word or two with the titles of many pages ("read and
    write comma separated files": `wave -- Read and write WAV files`), so those bonuses
    weigh DESCRIPTION_BONUS_FACTOR and the exact bonus (the words as typed in the title
    and URL name, which tells `Paths` from `Path`) is off; the text's BM25F decides more.
    Measured on the blind development collections (docs/search.md)."""
    if words < boosts.context_min_words:
        boosts = replace(boosts, context=0.0)
    if words < DESCRIPTION_MIN_WORDS:
        return boosts
    f = DESCRIPTION_BONUS_FACTOR
    return replace(
        boosts,
        title=boosts.title * f,
        heading=boosts.heading * f,
        anchor=boosts.anchor * f,
        lead=boosts.lead * f,
        exact=0.0,
    )


def bm25_idf(doc_count: int, doc_frequency: int) -> float:
    """The inverse document frequency of the project's BM25F: ln(N / (n + 1)) + 1, Whoosh's
    (``WeightingModel.idf``), for a term in ``doc_frequency`` of ``doc_count`` pages. It
    weighs common words more against rare ones than the Robertson-Sparck Jones idf of
    Lucene and Tantivy (``tantivy_idf``): with Tantivy's own, a query of several words
    ranked otherwise on the two backends (docs/search.md, *Relevance parity*)."""
    return math.log(max(1, doc_count) / (doc_frequency + 1)) + 1.0


def tantivy_idf(doc_count: int, doc_frequency: int) -> float:
    """The idf Tantivy's BM25 gives a term: ln(1 + (N - n + 0.5) / (n + 0.5))."""
    return math.log(1.0 + (doc_count - doc_frequency + 0.5) / (doc_frequency + 0.5))


def idf_correction(doc_count: int, doc_frequency: int) -> float:
    """The factor that turns Tantivy's BM25 score of a term into the project's BM25F
    (``bm25_idf`` instead of ``tantivy_idf``; the term frequency part is the same
    formula, B = 0.75, K1 = 1.2): the Tantivy backend boosts each scored term by it."""
    if doc_count <= 0:
        return 1.0
    return bm25_idf(doc_count, doc_frequency) / tantivy_idf(doc_count, doc_frequency)


def blend(text_score: float, pagerank: float, weight: float) -> float:
    """The score of one page with its PageRank: text * (1 + weight * ln(1 + pagerank))."""
    return text_score * (1.0 + weight * math.log1p(max(0.0, pagerank)))


def language_factor(page_lang: str, query_lang: str, other_language: float) -> float:
    """``other_language`` for a page known to be in another language than the query's,
    else 1 (no preference, or the page's language unknown)."""
    if not query_lang or not page_lang or page_lang == query_lang:
        return 1.0
    return other_language


def accept_language(header: str | None) -> str:
    """The preferred language of an HTTP Accept-Language header ('' if none)."""
    best, best_q = "", -1.0
    for part in (header or "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = language_tag(tag)
        if lang and q > best_q:
            best, best_q = lang, q
    return best


def query_language(
    words: str, *, explicit: str = "", preferred: str = "", default: str = ""
) -> str:
    """The language a search prefers: ``explicit`` (``lang:xx``), else the one the query's
    script tells or the detector is sure of, else ``preferred`` (the browser's
    Accept-Language), else ``default`` (SEARCH_DEFAULT_LANGUAGE)."""
    if explicit:
        return language_tag(explicit)
    lang = script_language(words)
    if (
        not lang
        and len(words.split()) >= QUERY_DETECT_MIN_WORDS
        and any(char.isalpha() and not char.isascii() for char in words)
    ):
        # (plain ASCII words are no sure sign of a language: the detector, whose model
        # takes 0.5-1 s to load, is asked only when the words have accents or the like;
        # typographic punctuation, "—" or "’", is no sign either)
        lang = detect_language(words, QUERY_LANGUAGE_CONFIDENCE)
    return lang or language_tag(preferred) or language_tag(default)


@dataclass
class Candidate:
    """One ranked page of a backend's result list."""

    key: Any  # the backend's handle of the page (a document number)
    score: float
    lang: str
    variant: str  # crawler.search.fields.variant_key
    copy: str  # crawler.search.fields.copy_key


@dataclass
class Group:
    """A result: its members (a page, its translations and copies) best first; ``shown``
    is the member shown as the result."""

    members: list[Candidate] = field(default_factory=list)
    shown: Candidate | None = None

    @property
    def others(self) -> list[Candidate]:
        return [m for m in self.members if m is not self.shown]


def group_variants(
    ranked: Sequence[Candidate],
    query_lang: str,
    groups: list[Group] | None = None,
    url_of: Callable[[Any], str] | None = None,
) -> list[Group]:
    """Fold ``ranked`` (best first) into groups of translations and copies (the same
    variant key, or the same copy key), each at the place of its best member and shown
    in ``query_lang`` when a member is in it. ``groups``: the groups of earlier result
    tiers, extended in place (a page of a later tier joins its group there).

    ``url_of(key)``: a member's URL. When several members are in ``query_lang``, the one
    whose URL marks no other language is shown: a translation's folder holds pages not
    translated yet (``/de-DE/`` pages in English), and the page of the query's language
    is the original, not such a copy."""
    groups = [] if groups is None else groups
    by_key: dict[str, Group] = {}
    for group in groups:
        for member in group.members:
            for key in (member.variant, "c:" + member.copy if member.copy else ""):
                if key:
                    by_key.setdefault(key, group)
    for candidate in ranked:
        copy = "c:" + candidate.copy if candidate.copy else ""
        group = by_key.get(candidate.variant) or (by_key.get(copy) if copy else None)
        if group is None:
            group = Group()
            groups.append(group)
        group.members.append(candidate)
        for key in (candidate.variant, copy):
            if key:
                by_key.setdefault(key, group)
    for group in groups:
        in_lang = [m for m in group.members if query_lang and m.lang == query_lang]
        shown = in_lang or group.members
        if len(shown) > 1 and url_of is not None:
            # a page of its own (no other language's mark, not the source it was built
            # from) before a copy, in rank order otherwise
            shown = sorted(shown, key=lambda m: _copy_rank(url_of(m.key), query_lang))
        group.shown = shown[0]
    return groups


def _copy_rank(url: str, query_lang: str) -> tuple[bool, bool]:
    return (
        url_language(url) not in ("", query_lang) if query_lang else False,
        source_copy_page(url) is not None,
    )
