"""Items the spiders yield and the storage pipeline writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class LinkRecord:
    target_url: str
    anchor_text: str
    visibility: int
    position: int
    distance: int
    # the words around the link on the page (crawler.extract.link_context), '' none
    context: str = ""


@dataclass
class PageItem:
    """A fetched page (HTML or stored text type)."""

    url: str  # canonical URL that was scheduled (first of a redirect chain)
    final_url: str  # URL of the response after redirects
    host: str
    status: int
    content_type: str
    fetched_at: datetime
    depth: int
    size: int
    content_md5: str
    title: str = ""
    text: str = ""
    last_modified: datetime | None = None
    links: list[LinkRecord] = field(default_factory=list)
    # focused crawl (docs/focused.md): page weight and weight > threshold; None elsewhere
    weight: float | None = None
    relevant: bool | None = None
    # ETag of the response (incremental crawler: conditional GETs, docs/incremental.md)
    etag: str | None = None
    # <link rel="canonical"> of an HTML page (evidence for the content-seen test's choice
    # of the copy to keep, docs/dedup.md); not stored
    canonical: str | None = None
    # page content model (crawler/content.py, docs/search.md): the main content without
    # navigation and boilerplate (None: not extracted, e.g. a text/plain page), the
    # headings in it, the language ('' unknown)
    main_text: str | None = None
    headings: list[str] = field(default_factory=list)
    lang: str = ""
    # the names the page defines that its headings may not say (a reference page's
    # functions, options: crawler.extract.defined_names), at most extract.MAX_NAMES
    names: list[str] = field(default_factory=list)
    # time.time() when the engine received the response (RECEIVED_AT_META): the storage
    # deadline counts from it, so a response's wait to be parsed counts too; not stored
    received_at: float | None = None


# request.meta key of the time the engine received the response (PostgresStorePipeline)
RECEIVED_AT_META = "received_at"


# Categories of URLs that were scheduled and not stored as pages.
UNCRAWLED_CATEGORIES = (
    "http_404",
    "http_403",
    "http_503",
    "http_other",
    "unsupported_mime",
    "timeout",
    "connection",
    "robots_disallowed",
    "depth_exceeded",
    "evicted",
    "duplicate_content",
    "duplicate_url",  # redirected to a URL the crawl had already seen
    "too_large",
    "trap",
    "other",
    "out_of_scope",  # refused by the crawl scope (crawler/scope)
)

# Refusals recorded before a URL is queued: they never replace another outcome of the same
# URL (the pipeline and a database trigger apply this) and do not mean it was fetched.
WEAK_CATEGORIES = frozenset({"depth_exceeded", "trap", "out_of_scope"})
# Categories that do not say a URL was fetched: the weak refusals, and the frontier giving
# up on a queued URL. A URL evicted, then queued again (dont_filter) and fetched keeps its
# `evicted` row, which must not pass for the result of that fetch (storage/saved_results.py).
NOT_FETCHED_CATEGORIES = WEAK_CATEGORIES | {"evicted"}


@dataclass
class UncrawledItem:
    url: str
    category: str
    detail: str = ""
    at: datetime | None = None

    def __post_init__(self) -> None:
        if self.category not in UNCRAWLED_CATEGORIES:
            raise ValueError(f"unknown uncrawled category {self.category!r}")


@dataclass
class FormItem:
    """A form seen by the smart crawler (docs/deepweb.md): stored in `forms`; the relevant
    searchable ones are its output items."""

    site: str
    page_url: str
    form_index: int  # position among the page's forms, from 0
    action_url: str  # absolute
    method: str  # GET or POST
    fields: list[dict[str, object]]  # {"name", "type", "options"}
    searchable: bool
    searchable_score: float
    relevant: bool  # searchable, and its topic evidence reached the threshold
    relevance_score: float  # the weighted evidence (crawler/deepweb/relevance.py)
    site_score: float = 0.0  # the site's evidence (classifier score scaled by density)
    form_score: float = 0.0  # the topic evidence of the form's own words
    # probing (crawler/deepweb/probe.py): "" not probed, "pending" (a final item follows),
    # "confirmed", "no_results", "no_records", "robots_disallowed", "http_error",
    # "failed", "no_query" (no field to put a query in)
    probe: str = ""
    confirmed: bool | None = None  # None: not probed (or no answer)
    probe_url: str = ""  # the last probe's URL (GET: with its query)
    result_records: int = 0  # records the last result page listed
