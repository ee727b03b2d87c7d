"""Searching the index: ranking, result tiers, pagination, snippets, suggestions.

Ranking blends Whoosh's BM25F with the page's PageRank::

    score(d, q) = BM25F(d, q) * (1 + w * ln(1 + PR(d)))

BM25F(d, q) is Whoosh's BM25F (B = 0.75, K1 = 1.2) of the query's words in the page's
``content`` field (title, text and URL words, weighted, see crawler.search.schema), plus
SEARCH_TITLE_BOOST times their BM25F in the title field alone. PR(d) is the relative
PageRank stored in the index (1.0 = average page, 0 = not ranked yet) and w is
SEARCH_PAGERANK_WEIGHT; w = 0 ranks by BM25F alone. The factor is at least 1 and grows
slowly, so link popularity lifts the pages a site links to most (its reference pages)
among similarly relevant ones without letting a popular page that barely matches
overtake a strong text match.
"""

from __future__ import annotations

import functools
import html
import math
import re
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from whoosh import query as wq
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
from whoosh.collectors import TopCollector
from whoosh.columns import NumericColumn, TranslatingColumnReader
from whoosh.highlight import Formatter, Fragment, Highlighter, PinpointFragmenter, get_text
from whoosh.index import FileIndex
from whoosh.scoring import BM25F, BM25FScorer
from whoosh.searching import Results, Searcher
from whoosh.util.numeric import byte_to_length

from crawler import defaults
from crawler.search.index import open_index
from crawler.search.proximity import Proximity, proximity_scores
from crawler.search.query import (
    Boosts,
    ParsedQuery,
    QueryCompiler,
    QuerySyntaxError,
    leaves,
)
from crawler.search.query.compiler import AndNot
from crawler.search.ranking import (
    Candidate,
    Group,
    blend,
    group_variants,
    language_factor,
    query_language,
)

MAX_PER_PAGE = 100
#: Hits of the first tier that get the proximity bonus before the page is cut; for
#: queries of LONG_RESCORE_TERMS words or more, LONG_RESCORE_WINDOW.
RESCORE_WINDOW = 100
LONG_RESCORE_TERMS = 5
LONG_RESCORE_WINDOW = 40
#: Query words highlighted in snippets at most (the rarest).
SNIPPET_TERMS = 6
#: Matches of a page from which its snippet fragments are chosen at most (its first):
#: a common word's hundreds of matches in a long page made a fragment each, scored and
#: sorted, about a third of a short query's time (docs/search.md, *Latency*).
SNIPPET_MATCHES = 60
#: Hits ranked beyond the last one shown, so that the translations and copies of the
#: shown pages are found and grouped with them (and a page demoted for its language
#: finds its place).
GROUP_WINDOW = 30
_MARK = re.compile(r"</?mark>")
#: ``lang:xx`` in a query: the language preferred, not a filter.
_LANG_PREFIX = re.compile(r"(?<!\S)lang:([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*)(?!\S)")


def field_lengths(reader: Any, fieldname: str) -> Callable[[int], Any] | None:
    """The length of ``fieldname`` by document number in one segment, from its length
    column read whole once per reader (one byte a page), or None (not a Whoosh 3
    segment): Whoosh's ``doc_field_length`` reads the column's byte through the compound
    file for every posting it scores, 15 % of a description's CPU (docs/search.md,
    *Fifteenth round*). The same values: a byte decoded by Whoosh's own table, None for
    a page without the field as Whoosh gives."""
    per_doc = getattr(reader, "_perdoc", None)
    if not hasattr(per_doc, "_cached_reader"):
        return None
    cache = reader.__dict__.setdefault("_crawler_field_lengths", {})
    if fieldname not in cache:
        column = per_doc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if column is None or getattr(column, "_fixedlen", None) != 1:
            cache[fieldname] = None
        else:
            raw = column._dbfile.get(column._basepos, column._count)
            count = len(raw)

            def length(docnum: int, raw: bytes = raw, count: int = count) -> Any:
                byte = raw[docnum] if docnum < count else 0
                return _LENGTHS[byte]

            cache[fieldname] = length
    return cache[fieldname]


def column_values(column: Any) -> list[Any]:
    """Every document's value of a column reader, as ``list(column)`` gives them: a
    numeric column (PageRank) read whole and unpacked at once, where Whoosh's iterator
    reads each page's eight bytes through the compound file (1.4 of a description's
    24.6 ms of CPU on cmake's 2,400 pages, docs/search.md, *Sixteenth round*)."""
    raw = column.raw_column() if isinstance(column, TranslatingColumnReader) else None
    if type(raw) is not NumericColumn.Reader:
        return list(column)
    count = min(raw._count, raw._doccount)
    data = raw._dbfile.get(raw._basepos, count * raw._fixedlen)
    values = struct.unpack(f"!{count}{raw._typecode}", data)
    translate = column._translate
    memo: dict[Any, Any] = {}
    out = [memo[v] if v in memo else memo.setdefault(v, translate(v)) for v in values]
    out += [translate(raw._default)] * (raw._doccount - count)
    return out


#: A length byte's length (Whoosh's ``byte_to_length``), None for 0 (no such field).
_LENGTHS = [None] + [byte_to_length(b) for b in range(1, 256)]


class CachedLengthsBM25F(BM25F):
    """Whoosh's BM25F, its scorers reading field lengths from ``field_lengths``."""

    def scorer(self, searcher: Searcher, fieldname: str, text: Any, qf: int = 1) -> Any:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if isinstance(scorer, BM25FScorer):
            lengths = field_lengths(searcher.reader(), fieldname)
            if lengths is not None:
                scorer.dfl = lengths
        return scorer


class PageRankBM25F(CachedLengthsBM25F):
    """BM25F multiplied by 1 + weight * ln(1 + pagerank) (see the module docstring)."""

    use_final = True
    LIST_DOCS = 200_000

    def __init__(self, pagerank_weight: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pagerank_weight = pagerank_weight
        self._column: tuple[Any, Any] | None = None  # (reader, pagerank column reader)
        self._lock = threading.Lock()

    def supports_block_quality(self) -> bool:
        return False

    def _pagerank_column(self, searcher: Searcher) -> Any:
        """PageRank by document number for this searcher's reader: a plain list (fast to
        index) for indexes up to LIST_DOCS documents, else Whoosh's column reader."""
        reader = searcher.reader()
        cached = self._column
        if cached is None or cached[0] is not reader:
            with self._lock:
                column = reader.column_reader("pagerank")
                if reader.doc_count_all() <= self.LIST_DOCS:
                    column = column_values(column)
                cached = (reader, column)
                self._column = cached
        return cached[1]

    def final(self, searcher: Searcher, docnum: int, score: float) -> float:
        return blend(score, self._pagerank_column(searcher)[docnum] or 0.0, self.pagerank_weight)


class _SnippetFragmenter(PinpointFragmenter):
    """Whoosh's pinpoint fragmenter, trimming cut words only where the text is cut; a text
    no longer than ``whole_chars`` is one fragment."""

    def __init__(self, *, whole_chars: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.whole_chars = whole_chars

    def fragment_matches(self, text: str, tokens: list[Any]) -> Iterator[Fragment]:
        tokens = tokens[:SNIPPET_MATCHES]
        if len(text) <= self.whole_chars:
            if tokens:
                yield Fragment(text, tokens, 0, len(text))
            return
        yield from super().fragment_matches(text, tokens)

    @staticmethod
    def _autotrim(fragment: Any) -> None:
        start, end = fragment.startchar, fragment.endchar
        PinpointFragmenter._autotrim(fragment)
        if start == 0:
            fragment.startchar = 0
        if end >= len(fragment.text):
            fragment.endchar = end


class _SnippetFormatter(Formatter):
    """HTML-escaped fragments with the matched words in <mark>."""

    between = " … "

    def _text(self, text: str) -> str:
        return html.escape(text, quote=True)

    def format_token(self, text: str, token: Any, replace: bool = False) -> str:
        return "<mark>" + html.escape(get_text(text, token, replace), quote=True) + "</mark>"

    def format(self, fragments: list[Fragment], replace: bool = False) -> str:
        if not fragments:
            return ""
        cores = [self.format_fragment(f, replace=replace) for f in fragments]
        # an ellipsis wherever the page text is cut: before, between, after the fragments
        return (
            ("… " if fragments[0].startchar > 0 else "")
            + self.between.join(cores)
            + (" …" if fragments[-1].endchar < len(fragments[-1].text) else "")
        )


@dataclass
class SearchHit:
    rank: int  # 1-based position in the whole result list
    url: str
    title: str  # as crawled ('' when the page had none)
    snippet_html: str  # HTML-escaped text with <mark> around matches: safe to insert
    score: float
    pagerank: float
    host: str
    content_type: str
    fetched: datetime | None
    modified: datetime | None
    matched_all: bool | None  # plain-word queries: True in the all-words tier
    lang: str = ""  # the page's language ('' unknown)
    # the page's translations and copies found among the results ("other languages /
    # copies"): {"url", "title", "lang"}, best first
    variants: list[dict[str, str]] = field(default_factory=list)

    @property
    def display_title(self) -> str:
        return self.title or self.url

    @property
    def snippet(self) -> str:
        """The snippet as plain text."""
        return html.unescape(_MARK.sub("", self.snippet_html))

    def as_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "url": self.url,
            "title": self.title,
            "snippet": self.snippet,
            "snippet_html": self.snippet_html,
            "score": self.score,
            "pagerank": self.pagerank,
            "host": self.host,
            "content_type": self.content_type,
            "fetched": self.fetched.isoformat() if self.fetched else None,
            "modified": self.modified.isoformat() if self.modified else None,
            "matched_all": self.matched_all,
            "lang": self.lang,
            "variants": self.variants,
        }


@dataclass
class SearchResults:
    query: str
    hits: list[SearchHit] = field(default_factory=list)
    total: int = 0
    page: int = 1
    per_page: int = defaults.SEARCH_RESULTS_PER_PAGE
    elapsed: float = 0.0  # seconds
    suggestion: str | None = None  # "did you mean" query
    error: str | None = None  # a query syntax error, for the user
    lang: str = ""  # the language the search preferred ('' none)

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page)) if self.total else 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "total": self.total,
            "page": self.page,
            "per_page": self.per_page,
            "pages": self.pages,
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "suggestion": self.suggestion,
            "error": self.error,
            "lang": self.lang,
            "results": [hit.as_dict() for hit in self.hits],
        }


class SearchEngine:
    """Searches one index; safe to share between threads (searches are serialised).

    A new searcher is opened before a search when the index has a newer commit, so a
    running crawl's pages become visible as they are committed.
    """

    def __new__(cls, index: Any, **kwargs: Any) -> Any:
        # the engine of the index's backend: a Tantivy index (or folder holding one) gets
        # crawler.search.tantivy_engine.TantivySearchEngine, a subclass
        if cls is SearchEngine:
            from crawler.search.index import folder_backend

            if getattr(index, "backend", None) == "tantivy" or (
                isinstance(index, str | Path) and folder_backend(index) == "tantivy"
            ):
                from crawler.search.tantivy_engine import TantivySearchEngine

                return super().__new__(TantivySearchEngine)
        return super().__new__(cls)

    def __init__(
        self,
        index: FileIndex | str | Path,
        *,
        pagerank_weight: float = defaults.SEARCH_PAGERANK_WEIGHT,
        near_distance: int = defaults.SEARCH_NEAR_DISTANCE,
        boosts: Boosts | None = None,
        snippet_chars: int = defaults.SEARCH_SNIPPET_CHARS,
        default_language: str = defaults.SEARCH_DEFAULT_LANGUAGE,
        other_language: float = defaults.SEARCH_OTHER_LANGUAGE_FACTOR,
    ) -> None:
        self.ix = self._open(index)
        self.default_language = default_language
        self.other_language = other_language
        self.pagerank_weight = pagerank_weight
        self.near_distance = near_distance
        self.boosts = boosts or Boosts()
        self.snippet_chars = snippet_chars
        self._lock = threading.Lock()
        self._prepare()

    # what differs between the backends (TantivySearchEngine overrides both) ------------
    @staticmethod
    def _open(index: Any) -> Any:
        """The index to search: ``index`` itself, or the one in the folder it names."""
        return index if isinstance(index, FileIndex) else open_index(index, create=False)

    def _prepare(self) -> None:
        """The backend's own state, once the settings above are kept."""
        self._columns: tuple[Any, dict[str, _Column]] | None = None
        self._terms: tuple[Any, dict[str, list[str]]] | None = None
        if self.pagerank_weight > 0:
            self.weighting: BM25F = PageRankBM25F(self.pagerank_weight)
        else:
            self.weighting = CachedLengthsBM25F()
        self._searcher: Searcher | None = None

    @classmethod
    def from_settings(cls, settings: Any, index: FileIndex | str | Path) -> SearchEngine:
        return cls(
            index,
            pagerank_weight=settings.getfloat(
                "SEARCH_PAGERANK_WEIGHT", defaults.SEARCH_PAGERANK_WEIGHT
            ),
            near_distance=settings.getint("SEARCH_NEAR_DISTANCE", defaults.SEARCH_NEAR_DISTANCE),
            boosts=Boosts(
                title=settings.getfloat("SEARCH_TITLE_BOOST", defaults.SEARCH_TITLE_BOOST),
                exact=settings.getfloat("SEARCH_EXACT_BOOST", defaults.SEARCH_EXACT_BOOST),
                lead=settings.getfloat("SEARCH_LEAD_BOOST", defaults.SEARCH_LEAD_BOOST),
                proximity=settings.getfloat(
                    "SEARCH_PROXIMITY_BOOST", defaults.SEARCH_PROXIMITY_BOOST
                ),
                heading=settings.getfloat("SEARCH_HEADING_BOOST", defaults.SEARCH_HEADING_BOOST),
                anchor=settings.getfloat("SEARCH_ANCHOR_BOOST", defaults.SEARCH_ANCHOR_BOOST),
                context=settings.getfloat("SEARCH_CONTEXT_BOOST", defaults.SEARCH_CONTEXT_BOOST),
                context_min_words=settings.getint(
                    "SEARCH_CONTEXT_MIN_WORDS", defaults.SEARCH_CONTEXT_MIN_WORDS
                ),
            ),
            snippet_chars=settings.getint("SEARCH_SNIPPET_CHARS", defaults.SEARCH_SNIPPET_CHARS),
            default_language=settings.get(
                "SEARCH_DEFAULT_LANGUAGE", defaults.SEARCH_DEFAULT_LANGUAGE
            )
            or "",
            other_language=settings.getfloat(
                "SEARCH_OTHER_LANGUAGE_FACTOR", defaults.SEARCH_OTHER_LANGUAGE_FACTOR
            ),
        )

    def close(self) -> None:
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
                self._searcher = None

    def _current_searcher(self) -> Searcher:
        if self._searcher is None:
            self._searcher = self.ix.searcher(weighting=self.weighting)
        elif not self._searcher.up_to_date():
            # A new searcher rather than Searcher.refresh(): whoosh-reloaded 2.7.5's
            # refresh keeps the segments a merge replaced (documents show up twice) and
            # fails on an empty index.
            self._searcher.close()
            self._searcher = self.ix.searcher(weighting=self.weighting)
        return self._searcher

    def compiler(
        self, doc_frequency: Callable[[str, str], int] | None = None, doc_count: int = 0
    ) -> QueryCompiler:
        """A query compiler; with the index's document frequencies, a long query's
        common words only add their score (crawler/search/query/compiler.py)."""
        return QueryCompiler(
            self.ix.schema,
            near_distance=self.near_distance,
            boosts=self.boosts,
            doc_frequency=doc_frequency,
            doc_count=doc_count,
        )

    def _vocabulary_locked(self, reader: Any, fieldname: str) -> list[str]:
        with self._lock:
            return self._vocabulary(reader, fieldname)

    def _vocabulary(self, reader: Any, fieldname: str) -> list[str]:
        """The terms of a short field (the exact title, the URL name) of ``reader``, read
        once per reader (the name-part bonus scans them)."""
        cached = self._terms
        if cached is None or cached[0] is not reader:
            cached = (reader, {})
            self._terms = cached
        terms = cached[1].get(fieldname)
        if terms is None:
            terms = (
                [
                    t.decode("utf-8") if isinstance(t, bytes) else t
                    for t in reader.lexicon(fieldname)
                ]
                if fieldname in reader.schema
                else []
            )
            cached[1][fieldname] = terms
        return terms

    def doc_count(self) -> int:
        with self._lock:
            return self._current_searcher().doc_count()

    def formats(self) -> list[str]:
        """The file formats present in the index (for the advanced search form)."""
        with self._lock:
            reader = self._current_searcher().reader()
            return sorted(
                t.decode() if isinstance(t, bytes) else t for t in reader.field_terms("format")
            )

    def search(
        self,
        text: str,
        *,
        page: int = 1,
        per_page: int = defaults.SEARCH_RESULTS_PER_PAGE,
        lang: str = "",
    ) -> SearchResults:
        """Ranked results of ``text``; ``lang``: the language the user prefers when the
        query does not tell (the web UI's Accept-Language)."""
        started = time.perf_counter()
        page = max(1, page)
        per_page = max(1, min(MAX_PER_PAGE, per_page))
        results = SearchResults(query=text, page=page, per_page=per_page)
        explicit = _LANG_PREFIX.findall(text)
        words = _LANG_PREFIX.sub(" ", text) if explicit else text
        with self._lock:
            reader = self._current_searcher().reader()
            compiler = self.compiler(reader.doc_frequency, reader.doc_count())
            compiler.vocabulary = functools.partial(self._vocabulary_locked, reader)
        try:
            parsed = compiler.parse(words)
        except QuerySyntaxError as exc:
            results.error = str(exc)
            results.elapsed = time.perf_counter() - started
            return results
        results.lang = query_language(
            " ".join(leaf.text for leaf in leaves(parsed.tree) if not leaf.is_filter)
            if parsed.tree is not None
            else "",
            explicit=explicit[-1] if explicit else "",
            preferred=lang,
            default=self.default_language,
        )
        with self._lock:
            searcher = self._current_searcher()
            if not parsed.empty:
                self._collect(searcher, parsed, results)
            results.suggestion = self._suggest(searcher, parsed)
        results.elapsed = time.perf_counter() - started
        return results

    def _collect(self, searcher: Searcher, parsed: ParsedQuery, out: SearchResults) -> None:
        first = (out.page - 1) * out.per_page
        wanted = out.page * out.per_page
        highlighter = Highlighter(
            # fragments from the character offsets stored in the postings (body is indexed
            # with chars=True): no re-tokenising of the page text per hit
            # two fragments, each at most a third of SEARCH_SNIPPET_CHARS of matches plus
            # a sixth of context on both sides
            fragmenter=_SnippetFragmenter(
                whole_chars=self.snippet_chars,
                maxchars=max(20, self.snippet_chars // 3),
                surround=max(10, self.snippet_chars // 6),
                autotrim=True,
            ),
            formatter=_SnippetFormatter(),
        )
        tiered = len(parsed.tiers) > 1
        columns = self._page_columns(searcher)
        before: list[wq.Query] = []
        groups: list[Group] = []
        hits: dict[int, tuple[Any, int]] = {}  # docnum -> (Whoosh hit, tier)
        tier_results: list[tuple[Results, wq.Query]] = []
        matched = 0
        urls: dict[int, str] = {}

        def url_of(docnum: int) -> str:
            if docnum not in urls:
                urls[docnum] = searcher.stored_fields(docnum)["url"]
            return urls[docnum]

        for number, tier in enumerate(parsed.tiers):
            q = (
                tier
                if not before
                else AndNot(tier, before[0] if len(before) == 1 else wq.Or(before))
            )
            before.append(tier)
            if len(groups) >= wanted + GROUP_WINDOW:
                # no hit of this tier is shown on this page: count it, do not rank it. A
                # tier holds the pages of the tiers before it (all words => any word), so
                # its own pages are its matches minus those already counted.
                matched = sum(1 for _ in tier.docs(searcher))
                continue
            results = self._top(
                searcher,
                parsed.scored(q, number == 0),
                wanted + GROUP_WINDOW - len(groups),
                parsed.proximity if number == 0 else None,
                out.lang,
            )
            matched += len(results)
            tier_results.append((results, q))
            ranked = []
            for i, (score, docnum) in enumerate(results.top_n):
                hits[docnum] = (results[i], number)
                ranked.append(
                    Candidate(
                        docnum,
                        score,
                        columns["lang"][docnum],
                        columns["variant"][docnum],
                        columns["copy"][docnum],
                    )
                )
            group_variants(ranked, out.lang, groups, url_of)
        collapsed = sum(len(g.members) - 1 for g in groups)
        out.total = matched - collapsed
        # the matched body terms (for snippets) of the pages shown only: the highlighter
        # loads the character offsets of every page they are recorded for, and the
        # GROUP_WINDOW pages ranked beyond those shown were two thirds of that
        shown_docs = {group.shown.key for group in groups[first:wanted] if group.shown}
        for results, q in tier_results:
            docnums = [docnum for _, docnum in results.top_n if docnum in shown_docs]
            _attach_matched_terms(searcher, results, q, "body", docnums)
        for rank, group in enumerate(groups[first:wanted], start=first + 1):
            assert group.shown is not None
            hit, number = hits[group.shown.key]
            shown = self._hit(hit, rank, highlighter, (number == 0) if tiered else None)
            shown.score = group.members[0].score
            shown.variants = [
                self._variant(searcher, member.key, member.lang) for member in group.others
            ]
            out.hits.append(shown)

    def _variant(self, searcher: Searcher, docnum: int, lang: str) -> dict[str, str]:
        stored = searcher.stored_fields(docnum)
        return {"url": stored["url"], "title": stored.get("title", ""), "lang": lang}

    def _page_columns(self, searcher: Searcher) -> dict[str, _Column]:
        """The language and grouping keys of the documents of this searcher's reader,
        each read when first asked for and kept for the reader's life."""
        reader = searcher.reader()
        cached = self._columns
        if cached is None or cached[0] is not reader:
            cached = (reader, {name: _Column(reader, name) for name in ("lang", "variant", "copy")})
            self._columns = cached
        return cached[1]

    def _top(
        self,
        searcher: Searcher,
        q: wq.Query,
        limit: int,
        rescore: Proximity | None = None,
        lang: str = "",
    ) -> Results:
        """The best ``limit`` hits of ``q``, with their matched body terms (for snippets).

        With ``rescore`` (the proximity bonus), the best ``max(limit, RESCORE_WINDOW)`` hits of
        ``q`` get its score added (blended like theirs) before the best ``limit`` are
        kept, as Elasticsearch's rescore window: a span query probed on every match of
        common words cost more than the search itself.
        """
        window = limit
        if rescore is not None:
            # a sentence's whole sequence is probed on fewer hits (the positions of
            # 20 words per page are costly)
            long = len(rescore.terms) >= LONG_RESCORE_TERMS
            window = max(limit, LONG_RESCORE_WINDOW if long else RESCORE_WINDOW)
        # No pruning: Whoosh drops matchers whose raw score cannot reach the lowest score
        # kept so far; with the PageRank factor applied after, that loses pages that belong
        # in the top N, and the count of matches would not be exact. (Measured: pruning
        # saves nothing on these queries, the exact count costs a second pass.)
        top = TopCollector(limit=window, usequality=False, replace=0)
        searcher.search_with_collector(q, top)
        results = top.results()
        if rescore is not None:
            results.top_n = _rescored(searcher, results.top_n, rescore)[:limit]
        if lang and self.other_language != 1.0:
            languages = self._page_columns(searcher)["lang"]
            results.top_n = sorted(
                (
                    (score * language_factor(languages[docnum], lang, self.other_language), docnum)
                    for score, docnum in results.top_n
                ),
                key=lambda pair: (-pair[0], pair[1]),
            )
        return results

    def _hit(
        self, hit: Any, rank: int, highlighter: Highlighter, matched_all: bool | None
    ) -> SearchHit:
        stored = hit.fields()
        body = stored.get("body", "")
        snippet = ""
        if body:
            try:
                snippet = highlighter.highlight_hit(hit, "body", top=2)
            except KeyError:
                snippet = ""
            if not snippet:
                snippet = html.escape(_leading_text(body, self.snippet_chars), quote=True)
        return SearchHit(
            rank=rank,
            url=stored["url"],
            title=stored.get("title", ""),
            snippet_html=snippet,
            score=float(hit.score or 0.0),
            pagerank=float(stored.get("pagerank") or 0.0),
            host=stored.get("host", ""),
            content_type=stored.get("content_type", ""),
            fetched=stored.get("fetched"),
            modified=stored.get("modified"),
            matched_all=matched_all,
        )

    def _suggest(self, searcher: Searcher, parsed: ParsedQuery) -> str | None:
        """The query with unknown words replaced by the closest indexed words, if any."""
        reader = searcher.reader()
        compiler = self.compiler()
        replacements: list[tuple[int, int, str]] = []
        correctors: dict[str, Any] = {}
        for leaf in leaves(parsed.tree):
            if leaf.phrase or leaf.field not in (None, "title", "body"):
                continue
            word = leaf.text
            if len(word) < 3 or not word.isalpha():
                continue
            terms = compiler.analyze("content", word)
            if not terms:
                continue  # a stop word
            if any(reader.doc_frequency("content", term) > 0 for term in terms):
                continue
            # the stemmed vocabulary of the field the user named, else of whole pages
            name = "title" if leaf.field == "title" else "content"
            if name not in correctors:
                correctors[name] = searcher.corrector(name)
            found = correctors[name].suggest(terms[0], limit=1, maxdist=2, prefix=1)
            if found:
                fields = ("title", "body") if name == "title" else ("body", "title")
                replacements.append(
                    (leaf.start, leaf.end, _surface_word(searcher, found[0], fields))
                )
        if not replacements:
            return None
        text = parsed.text
        for start, end, word in sorted(replacements, reverse=True):
            text = text[:start] + word + text[end:]
        return text


class _Column:
    """A text column of a reader, by document number: each value read from the column
    file when first asked for. Reading the whole column of every page at a searcher's
    first search (as a list) was a tenth of a one-shot search's CPU on 814 pages (more
    with more pages), where a search looks at its best 40 or so."""

    def __init__(self, reader: Any, name: str) -> None:
        # (an index without a commit yet has no columns, and no pages)
        self._column = reader.column_reader(name) if reader.has_column(name) else None
        self._values: dict[int, str] = {}

    def __getitem__(self, docnum: int) -> str:
        value = self._values.get(docnum)
        if value is None:
            raw = self._column[docnum] if self._column is not None else ""
            value = raw.decode() if isinstance(raw, bytes) else (raw or "")
            self._values[docnum] = value
        return value


def _rescored(
    searcher: Searcher, top_n: list[tuple[float, int]], prox: Proximity
) -> list[tuple[float, int]]:
    """(score, docnum) best first, with each page's proximity bonus added (blended with
    its PageRank like the rest of its score)."""
    weighting = searcher.weighting
    extra = proximity_scores(searcher, [docnum for _, docnum in top_n], prox)
    if weighting.use_final:
        extra = {d: weighting.final(searcher, d, raw) for d, raw in extra.items()}
    rescored = [(score + extra.get(docnum, 0.0), docnum) for score, docnum in top_n]
    # best first; ties by document number, as Whoosh orders them
    return sorted(rescored, key=lambda pair: (-pair[0], pair[1]))


def _positive_terms(q: wq.Query) -> Iterator[tuple[str, Any]]:
    """The (field, text) terms of a query outside its negated parts."""
    if isinstance(q, wq.Not):
        return
    if isinstance(q, wq.AndNot):
        yield from _positive_terms(q.a)
        return
    if q.is_leaf():
        # phrases=True: a phrase's words too (Whoosh's Phrase yields none by default, so
        # a quoted query or a split word such as json.dumps had no word marked)
        yield from q.terms(phrases=True)
        return
    for child in q.children():
        yield from _positive_terms(child)


def _attach_matched_terms(
    searcher: Searcher, results: Results, q: wq.Query, field: str, docnums: list[int]
) -> None:
    """Record which query terms each of ``docnums`` (hits of ``results`` to be shown)
    holds in ``field``.

    Whoosh's highlighter builds snippets from the character offsets stored in the
    postings of these terms ("pinpoint" highlighting, no re-tokenising); asking the
    search itself to record matched terms (terms=True) would track every matching page.
    The offsets are read here too, into the highlighter's cache as its ``_load_chars``
    fills it (the same pages and words): it read the same posting blocks again, a
    tenth of a description's CPU on cmake (docs/search.md, *Sixteenth round*).
    """
    reader = searcher.reader()
    to_bytes = searcher.schema[field].to_bytes
    docnums = sorted(docnums)
    termdocs: dict[tuple[str, bytes], list[int]] = {}
    docterms: dict[int, list[tuple[str, bytes]]] = {docnum: [] for docnum in docnums}
    chars: dict[int, dict[str, Any]] | None = None
    if searcher.schema[field].supports("characters"):
        chars = {docnum: {} for _, docnum in results.top_n}
    # words searched "anywhere" (the content field) are analysed like the body's words
    wanted = {text for fieldname, text in _positive_terms(q) if fieldname in (field, "content")}
    if len(wanted) > SNIPPET_TERMS:
        # a sentence: its rarest words make the snippet (loading the character offsets
        # of every common word of every hit was a tenth of such a search)
        wanted = set(
            sorted(wanted, key=lambda t: (reader.doc_frequency(field, t), t))[:SNIPPET_TERMS]
        )
    for text in wanted:
        term = (field, to_bytes(text))
        if term not in reader:
            continue
        postings = reader.postings(*term)
        found = []
        for docnum in docnums:
            if not postings.is_active():
                break
            postings.skip_to(docnum)
            if postings.is_active() and postings.id() == docnum:
                found.append(docnum)
                docterms[docnum].append(term)
                if chars is not None:
                    chars[docnum][text] = postings.value_as("characters")
        if found:
            termdocs[term] = found
    results.termdocs = termdocs
    results.docterms = docterms
    if chars is not None:
        results._char_cache[field] = chars


def _surface_word(searcher: Searcher, term: str, fields: tuple[str, ...]) -> str:
    """A word of the indexed text whose stem is ``term`` (stems such as "databas" are no
    words to suggest): found in the first page holding the term in one of ``fields``."""
    reader = searcher.reader()
    for fieldname in fields:
        if (fieldname, term.encode("utf-8")) not in reader:
            continue
        docnum = reader.postings(fieldname, term).id()
        text = reader.stored_fields(docnum).get(fieldname) or ""
        analyzer = searcher.schema[fieldname].analyzer
        for token in analyzer(text, chars=True, mode="index"):
            if token.text == term:
                return text[token.startchar : token.endchar].lower()
    return term


def _leading_text(text: str, chars: int) -> str:
    if len(text) <= chars:
        return text
    cut = text.rfind(" ", 0, chars)
    return text[: cut if cut > chars // 2 else chars] + " …"
