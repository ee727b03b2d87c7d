"""URL normalisation shared by the spiders, the URL-seen test and the link rules."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import tldextract
from w3lib.url import canonicalize_url, url_query_cleaner

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

CRAWLABLE_SCHEMES = frozenset({"http", "https"})

# Query parameters (compared case-insensitively) that carry a session id: they make one
# page look like endless distinct URLs, so canonical_url removes them. Names starting
# with "aspsessionid" (classic ASP: ASPSESSIONIDQATSTBDA=...) are removed too.
SESSION_ID_PARAMETERS = frozenset(
    {
        "sid",
        "sessid",
        "sessionid",
        "session_id",
        "jsessionid",
        "phpsessid",
        "aspsessionid",
        "cfid",
        "cftoken",
        "zenid",
        "oscsid",
    }
)
# The same ids as path parameters: /login;jsessionid=0A1B2C?x=1 -> /login?x=1
_SESSION_PATH_PARAMETER = re.compile(
    r";(?:jsessionid|phpsessid|sessionid|sessid|sid)=[^/?#;]*", re.IGNORECASE
)


def _is_session_parameter(name: str) -> bool:
    name = name.lower()
    return name in SESSION_ID_PARAMETERS or name.startswith("aspsessionid")


def strip_session_ids(url: str) -> str:
    """``url`` without session-id query parameters and ``;jsessionid=``-style path
    parameters (see SESSION_ID_PARAMETERS). Other parameters keep their order."""
    base, hash_, fragment = url.partition("#")
    question = base.find("?")
    path, query = (base, "") if question < 0 else (base[:question], base[question:])
    if ";" in path:
        path = _SESSION_PATH_PARAMETER.sub("", path)
    if query:
        names = {part.split("=", 1)[0] for part in query[1:].split("&") if part}
        session = [name for name in names if _is_session_parameter(name)]
        if session:
            query = url_query_cleaner(
                "x:" + query, session, remove=True, unique=False, keep_fragments=True
            )[2:]
    return path + query + hash_ + fragment


# canonical_url and url_host are pure and called for every link of every page; pages of a
# site repeat most of their links (menus, indexes), and w3lib's canonicalize_url was the
# largest single cost of extraction (docs/performance.md). Entries are ~0.3 kB.
CANONICAL_URL_CACHE_SIZE = 65536

# The bundled Public Suffix List snapshot: a crawler must not fetch the list at run time.
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@lru_cache(maxsize=CANONICAL_URL_CACHE_SIZE)
def canonical_url(url: str) -> str | None:
    """Return the canonical form of an absolute http(s) URL, or None if not crawlable.

    Canonical form is w3lib's: percent-encoding normalised, query arguments sorted,
    fragment dropped, host lower-cased; session-id parameters removed
    (strip_session_ids). The URL-seen test compares this form.
    """
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in CRAWLABLE_SCHEMES or not parts.hostname:
        return None
    try:
        return strip_session_ids(canonicalize_url(url, keep_fragments=False))
    except ValueError:
        return None


def scheduled_url(request_or_response: Request | Response) -> str:
    """The canonical URL that was scheduled for a request (or the request of a
    response): the first of its redirect chain (RedirectMiddleware's
    ``meta["redirect_urls"]``), else its own URL. Pages, failures and acks are recorded
    under this URL, the one the frontier queued."""
    first = (request_or_response.meta.get("redirect_urls") or [request_or_response.url])[0]
    return canonical_url(first) or first


@lru_cache(maxsize=CANONICAL_URL_CACHE_SIZE)
def url_host(url: str) -> str:
    """The lower-cased host name of a URL ('' when it has none)."""
    return (urlsplit(url).hostname or "").lower()


@lru_cache(maxsize=65536)
def registered_domain(host: str) -> str:
    """The registered domain of a host (public-suffix aware): news.bbc.co.uk -> bbc.co.uk.

    Hosts under a suffix the list does not know (such as the reserved .test) fall back
    to their last two labels; IP addresses are their own domain.
    """
    host = host.lower().rstrip(".")
    ext = _EXTRACT(host)
    if ext.suffix and ext.domain:
        return f"{ext.domain}.{ext.suffix}"
    if ext.domain and not ext.suffix and host.replace(".", "").isdigit():
        return host
    labels = host.split(".")
    return ".".join(labels[-2:])
