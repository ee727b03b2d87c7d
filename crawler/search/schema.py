"""The Whoosh schema of the search index and the document of one crawled page.

Text goes through a stemming analyzer (Porter stemmer, lower case, English stop words
removed), the same one the query parser uses, so "connections" finds "connected".

Words without a field prefix search one ``content`` field holding the title, the text and
the URL words of the page, the title and URL words weighted (CONTENT_WEIGHTS): a word's
frequency in it is ``3 * tf(title) + tf(body) + 2 * tf(URL)``, which BM25 then saturates
and normalises by length, as BM25F prescribes. One field (rather than one query clause per
field) keeps queries fast. ``title``, ``body`` and ``url_text`` are also indexed alone for
the ``title:``, ``body:`` and ``url:`` prefixes.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from whoosh import columns
from whoosh.analysis import STOP_WORDS, Analyzer, Token
from whoosh.fields import DATETIME, ID, KEYWORD, NUMERIC, STORED, TEXT, Schema

from crawler import defaults
from crawler.search.analysis import WordAnalyzer, fuse
from crawler.search.fields import (
    ANCHOR_SEPARATOR,
    anchor_share,
    copy_key,
    hub_score,
    join_anchors,
    url_language,
    url_name,
    variant_key,
)
from crawler.urls import registered_domain

#: Version of the index layout (fields, analyzers, weights); an index built with another
#: version is refused with the advice to run `scrapy reindex`. 2: exact title and URL
#: name fields, anchor-text and hub demotion of text words. 3: the page content model
#: (body = main content, headings, language), in-link anchor text, translation groups.
#: 4: the in-link context field (``context``).
INDEX_SCHEMA_VERSION = 4

#: Text fields searched by words without a field prefix ("anywhere").
TEXT_FIELDS = ("content",)
#: Weights of a word found in the title, the text and the URL, in the ``content`` field.
CONTENT_WEIGHTS = {"title": 3.0, "body": 1.0, "url": 2.0}
#: Separates the parts of a ``content`` value; positions jump by POSITION_GAP between
#: parts, so phrases and NEAR never join the end of the title to the start of the text.
PART_SEPARATOR = "\x1f"
POSITION_GAP = 1000
#: Words of the page text from its start that make its ``lead`` field (the first
#: paragraph, as far as the flat stored text tells: navigation comes first on many pages).
LEAD_WORDS = 150
#: Weight factor of a text word found only in link text (anchor share 1), in ``content``.
ANCHOR_WEIGHT = 0.3
#: A hub page's text words weigh ``1 - HUB_DEMOTION * hub score`` (title and URL: full).
HUB_DEMOTION = 0.8

#: Friendly file-format names (the `format:` prefix, the advanced search's file format)
#: for content types; other types are named by their subtype (application/pdf -> pdf).
FORMAT_NAMES = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/plain": "text",
}


# The analyzers are WordAnalyzers (crawler/search/analysis.py): the tokens of Whoosh's
# chains named in each docstring, in one pass. Indexes whose schema was pickled with those
# chains get WordAnalyzers when opened (the __setstate__ methods below, with fuse).


def text_analyzer() -> Analyzer:
    r"""Words (letters, digits, underscore), lower case, stop words out, Porter stems:
    ``StemmingAnalyzer(expression=r"\w+", minsize=1, maxsize=60)``."""
    return WordAnalyzer(r"\w+", stoplist=STOP_WORDS, minsize=1, maxsize=60, stem=True)


def exact_analyzer() -> Analyzer:
    r"""Words (letters, digits, underscore), lower case, nothing removed, no stemming: the
    exact title and URL name fields, where "Paths" is not "Path" (``RegexTokenizer(r"\w+")
    | LowercaseFilter()``)."""
    return WordAnalyzer(r"\w+", stoplist=None, stem=False)


def url_analyzer() -> Analyzer:
    r"""URL words: runs of letters and digits (``sql-createindex.html`` -> sql, createindex,
    html), lower case, stemmed (``RegexTokenizer(r"[^\W_]+") | LowercaseFilter() |
    StemFilter()``)."""
    return WordAnalyzer(r"[^\W_]+", stoplist=None, stem=True)


class PageTextAnalyzer(Analyzer):
    """text_analyzer() that remembers, per thread, the terms and positions of the last text
    it analysed for indexing: the ``content`` field re-uses the body's analysis of a page
    instead of repeating it (Whoosh indexes a document's fields in name order, body
    before content)."""

    def __init__(self) -> None:
        self.inner = text_analyzer()
        self._local = threading.local()

    def __getstate__(self) -> dict[str, Any]:
        return {"inner": self.inner}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.inner = fuse(state["inner"])
        self._local = threading.local()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PageTextAnalyzer)

    def __hash__(self) -> int:
        return hash(PageTextAnalyzer)

    def has_morph(self) -> bool:
        return True

    def __call__(self, value: str, **kwargs: Any) -> Any:
        if kwargs.get("mode") != "index" or not kwargs.get("positions"):
            yield from self.inner(value, **kwargs)
            return
        self._local.last = None
        terms: list[tuple[str, int]] = []
        if isinstance(self.inner, WordAnalyzer):
            yield from self.inner(value, record=terms, **kwargs)
        else:  # a chain fuse() did not replace
            for token in self.inner(value, **kwargs):
                if not token.stopped:
                    terms.append((token.text, token.pos))
                yield token
        self._local.last = (value, terms)

    def replay(self, value: str) -> list[tuple[str, int]] | None:
        """(term, position) of ``value`` if it is the text this thread analysed last."""
        last = getattr(self._local, "last", None)
        if last is not None and last[0] == value:
            return last[1]
        return None


class ContentAnalyzer(Analyzer):
    """Analyses "title<US>text<US>URL<US>hub<RS>anchors" with the text and URL analyzers,
    giving each part's tokens its CONTENT_WEIGHTS boost; a value without separator (a
    query) is plain text.

    A text word is demoted where it is link text rather than the page's own words: times
    ``1 - (1 - ANCHOR_WEIGHT) * share`` (share: of the word's occurrences in the text, how
    many are anchor text of the page's links) and times ``1 - HUB_DEMOTION * hub`` (the
    page's hub score, crawler.search.fields.hub_score). Title and URL words keep their
    weight: a hub page named by the query still ranks.
    """

    def __init__(self, text: PageTextAnalyzer) -> None:
        self.text = text
        self.url = url_analyzer()
        # pickled with the index's schema: an index of another layout is recognised
        self.version = INDEX_SCHEMA_VERSION

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.url = fuse(self.url)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ContentAnalyzer) and index_schema_version(
            other
        ) == index_schema_version(self)

    def __hash__(self) -> int:
        return hash(ContentAnalyzer)

    def has_morph(self) -> bool:
        return True

    def __call__(self, value: str, **kwargs: Any) -> Any:
        parts = value.split(PART_SEPARATOR)
        if len(parts) == 1:
            yield from self.text.inner(value, **kwargs)
            return
        kwargs.pop("start_pos", None)
        kwargs.pop("boost", None)
        kwargs["chars"] = False  # offsets would point into the joined value: not kept
        title, body, url = (parts + ["", "", ""])[:3]
        hub, anchors = _split_links_part(parts[3] if len(parts) > 3 else "")
        # title, text, URL in this order; positions jump by POSITION_GAP between them
        last = -POSITION_GAP
        for tok in self.text.inner(title, start_pos=0, **kwargs):
            tok.boost = CONTENT_WEIGHTS["title"]  # (the tokenizer resets boost per token)
            last = tok.pos
            yield tok
        offset = last + POSITION_GAP
        terms = self.text.replay(body)
        if terms is None:
            terms = [(t.text, t.pos) for t in self.text.inner(body, **kwargs) if not t.stopped]
        weights = self._text_weights(terms, anchors, hub)
        token = Token(positions=True, mode=kwargs.get("mode", ""))
        for term, position in terms:
            token.text, token.pos = term, position + offset
            token.boost = weights.get(term, CONTENT_WEIGHTS["body"])
            last = token.pos
            yield token
        offset = max(offset, last + POSITION_GAP)
        for tok in self.url(url, start_pos=offset, **kwargs):
            tok.boost = CONTENT_WEIGHTS["url"]
            yield tok

    def _text_weights(
        self, terms: list[tuple[str, int]], anchors: str, hub: float
    ) -> dict[str, float]:
        """Weight of each text term that is not the plain body weight."""
        base = CONTENT_WEIGHTS["body"] * (1.0 - HUB_DEMOTION * hub)
        if not anchors:
            return {} if hub <= 0 else {term: base for term, _ in terms}
        body_terms = Counter(term for term, _ in terms)
        anchor_terms = Counter(t.text for t in self.text.inner(anchors) if not t.stopped)
        shares = anchor_share(body_terms, anchor_terms)
        return {
            term: base * (1.0 - (1.0 - ANCHOR_WEIGHT) * shares.get(term, 0.0))
            for term in body_terms
        }


class LeadAnalyzer(Analyzer):
    """Analyses "hub<US>text" with the text analyzer, each token weighing
    ``1 - HUB_DEMOTION * hub`` (the start of a list page is no summary of a topic); a
    value without separator (a query) is plain text."""

    def __init__(self) -> None:
        self.inner = text_analyzer()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.inner = fuse(self.inner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LeadAnalyzer)

    def __hash__(self) -> int:
        return hash(LeadAnalyzer)

    def has_morph(self) -> bool:
        return True

    def __call__(self, value: str, **kwargs: Any) -> Any:
        head, separator, text = value.partition(PART_SEPARATOR)
        if not separator:
            yield from self.inner(value, **kwargs)
            return
        hub, _ = _split_links_part(head)
        kwargs.pop("boost", None)
        for token in self.inner(text, **kwargs):
            token.boost = 1.0 - HUB_DEMOTION * hub
            yield token


def lead_value(body: str, hub: float) -> str:
    """The value indexed in the ``lead`` field: the first LEAD_WORDS words of the text."""
    words = body.split(maxsplit=LEAD_WORDS)
    return f"{hub:.4f}{PART_SEPARATOR}" + " ".join(words[:LEAD_WORDS]).replace(PART_SEPARATOR, " ")


def index_schema_version(analyzer: Any) -> int:
    """The INDEX_SCHEMA_VERSION an index's content analyzer was built with (1: before
    versions were recorded)."""
    return int(getattr(analyzer, "version", 1))


def _split_links_part(part: str) -> tuple[float, str]:
    """(hub score, anchor texts) of the content value's last part."""
    head, _, anchors = part.partition(ANCHOR_SEPARATOR)
    try:
        return max(0.0, min(1.0, float(head))), anchors
    except ValueError:
        return 0.0, ""


def content_value(title: str, body: str, url: str, hub: float = 0.0, anchors: str = "") -> str:
    """The value indexed in the ``content`` field."""
    clean = [part.replace(PART_SEPARATOR, " ") for part in (title, body, url, anchors)]
    return PART_SEPARATOR.join([*clean[:3], f"{hub:.4f}{ANCHOR_SEPARATOR}{clean[3]}"])


class FloatColumnNumeric(NUMERIC):
    """A float NUMERIC field with a per-document column defaulting to 0.0.

    (Whoosh's own float column default is NaN, which its integer column cannot pack.)
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(numtype=float, bits=64, default=0.0, **kwargs)

    def default_column(self) -> columns.Column:
        return columns.NumericColumn(self.sortable_typecode, default=self.to_column_value(0.0))


def build_schema() -> Schema:
    """The schema of the index (changing it needs `scrapy reindex`)."""
    text = PageTextAnalyzer()
    return Schema(
        url=ID(unique=True, stored=True),
        content=TEXT(analyzer=ContentAnalyzer(text)),  # title + text + URL words, weighted
        url_text=TEXT(analyzer=url_analyzer()),
        title=TEXT(analyzer=text, stored=True),
        # the title and the URL's last path segment unstemmed (scored above stemmed
        # matches: the exact bonus of crawler.search.query.compiler)
        title_exact=TEXT(analyzer=exact_analyzer()),
        url_name=TEXT(analyzer=exact_analyzer()),
        # the first words of the text (see LEAD_WORDS): the lead bonus
        lead=TEXT(analyzer=LeadAnalyzer()),
        # the headings of the main content (crawler/content.py): the heading bonus
        headings=TEXT(analyzer=text_analyzer(), stored=True),
        # anchor texts of the links to the page (crawler.search.fields.inlink_anchor_text):
        # the anchor bonus
        inlinks=TEXT(analyzer=text_analyzer(), stored=True),
        # the words around the links to the page on the pages linking it
        # (crawler.search.fields.inlink_context_text): the context bonus
        context=TEXT(analyzer=text_analyzer(), stored=True),
        # the page's language ('' unknown) and the keys grouping its translations and
        # copies into one result (crawler.search.fields.variant_key, copy_key); columns,
        # read for the hits of a search
        lang=ID(stored=True, sortable=True),
        variant=ID(stored=True, sortable=True),
        copy=ID(stored=True, sortable=True),
        # hub score (crawler.search.fields.hub_score) and the page's link texts, kept to
        # rebuild the content field from stored fields (scrapy pagerank)
        hub=FloatColumnNumeric(stored=True, sortable=True),
        anchor_text=STORED(),
        # chars=True: character offsets in the postings, for fast snippet highlighting
        body=TEXT(analyzer=text, stored=True, chars=True),
        host=ID(stored=True),
        domain=ID(stored=True),
        # every dot-suffix of the host (docs.python.org, python.org, org), for site:
        site=KEYWORD(lowercase=True),
        content_type=ID(stored=True),
        format=ID(stored=True),
        crawl_id=ID(stored=True),
        fetched=DATETIME(stored=True),
        modified=DATETIME(stored=True),  # the server's Last-Modified, when it sent one
        updated=DATETIME(),  # modified when known, else fetched: "updated within"
        depth=NUMERIC(int, stored=True),
        # relative PageRank (1.0 = average page; 0 = not ranked yet), read per document
        # from its column when blending with BM25F
        pagerank=FloatColumnNumeric(stored=True, sortable=True),
    )


def format_name(content_type: str) -> str:
    """html, text, pdf...: the file format of a content type."""
    mime = content_type.split(";", 1)[0].strip().lower()
    if mime in FORMAT_NAMES:
        return FORMAT_NAMES[mime]
    return mime.rsplit("/", 1)[-1] or "unknown"


def host_suffixes(host: str) -> str:
    """Space-separated dot-suffixes of a host name: a.b.c -> 'a.b.c b.c c'."""
    labels = host.lower().strip(".").split(".")
    return " ".join(".".join(labels[i:]) for i in range(len(labels)) if labels[i])


def _naive_utc(value: datetime | None) -> datetime | None:
    # Whoosh stores naive datetimes; keep them in UTC
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value


def headings_with_names(
    headings: Sequence[str] | str, names: Sequence[str] | str, max_names: int
) -> str:
    """The text of the index's ``headings`` field: the page's headings, then the first
    ``max_names`` of the names it defines that are not one of them, one per line (each
    given as a list, or as stored: one per line)."""
    heading_text = headings if isinstance(headings, str) else "\n".join(headings)
    name_list = names.split("\n") if isinstance(names, str) else list(names)
    if max_names <= 0:
        return heading_text
    seen = set(heading_text.split("\n"))
    extra = [name for name in name_list[:max_names] if name and name not in seen]
    if not extra:
        return heading_text
    return "\n".join([heading_text, *extra]) if heading_text else "\n".join(extra)


def page_document(
    *,
    url: str,
    title: str,
    text: str,
    host: str,
    content_type: str,
    fetched_at: datetime,
    last_modified: datetime | None = None,
    depth: int = 0,
    crawl_id: str = "",
    pagerank: float = 0.0,
    max_body_chars: int | None = None,
    anchors: Sequence[str] | str = (),
    main_text: str | None = None,
    headings: Sequence[str] | str = (),
    lang: str = "",
    inlinks: str = "",
    context: str = "",
    names: Sequence[str] | str = (),
    max_names: int = defaults.SEARCH_NAMES_PER_PAGE,
) -> dict[str, Any]:
    """The index document of a crawled page (the arguments mirror PageItem's fields;
    ``anchors``: the anchor texts of its out-links, or them joined as stored;
    ``main_text``: the main content, the indexed body when there is one, else ``text``;
    ``inlinks``: crawler.search.fields.inlink_anchor_text of its in-links; ``context``:
    crawler.search.fields.inlink_context_text of its in-links; ``names``: the
    names it defines, the first ``max_names`` of them indexed after its headings)."""
    host = host.lower()
    fetched = _naive_utc(fetched_at)
    modified = _naive_utc(last_modified)
    body = main_text if main_text and main_text.strip() else text
    body = body if max_body_chars is None else body[:max_body_chars]
    heading_text = headings_with_names(headings, names, max_names)
    joined = anchors if isinstance(anchors, str) else join_anchors(anchors, max_body_chars)
    links = joined.count(ANCHOR_SEPARATOR) + 1 if joined else 0
    hub = hub_score(len(body.split()), len(joined.split()), links)
    doc: dict[str, Any] = {
        "url": url,
        "content": content_value(title, body, url, hub, joined),
        "url_text": url,
        "title": title,
        "title_exact": title,
        "url_name": url_name(url),
        "lead": lead_value(body, hub),
        "hub": hub,
        "anchor_text": joined,
        "body": body,
        "headings": heading_text,
        "inlinks": inlinks,
        "context": context,
        "lang": lang or url_language(url),
        "variant": variant_key(url),
        "copy": copy_key(title, body),
        "host": host,
        "domain": registered_domain(host) if host else "",
        "site": host_suffixes(host),
        "content_type": content_type,
        "format": format_name(content_type),
        "crawl_id": crawl_id,
        "fetched": fetched,
        "updated": modified or fetched,
        "depth": int(depth),
        "pagerank": float(pagerank),
    }
    if modified is not None:
        doc["modified"] = modified
    return doc


def document_from_stored(stored: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """Rebuild a full index document from a document's stored fields (all indexed fields
    are stored or derived from stored ones), with ``changes`` applied."""
    values = {
        "url": stored["url"],
        "title": stored.get("title", ""),
        "text": stored.get("body", ""),
        "host": stored.get("host", ""),
        "content_type": stored.get("content_type", ""),
        "fetched_at": stored.get("fetched") or datetime(1970, 1, 1),
        "last_modified": stored.get("modified"),
        "depth": stored.get("depth", 0),
        "crawl_id": stored.get("crawl_id", ""),
        "pagerank": stored.get("pagerank", 0.0),
        "anchors": stored.get("anchor_text", ""),
        "headings": stored.get("headings", ""),
        "lang": stored.get("lang", ""),
        "inlinks": stored.get("inlinks", ""),
        "context": stored.get("context", ""),
    }
    values.update(changes)
    return page_document(**values)
