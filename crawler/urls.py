"""URL normalisation shared by the spiders, the URL-seen test and the link rules."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

import tldextract
from w3lib.url import canonicalize_url, safe_url_string

CRAWLABLE_SCHEMES = frozenset({"http", "https"})

# The bundled Public Suffix List snapshot: a crawler must not fetch the list at run time.
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def canonical_url(url: str) -> str | None:
    """Return the canonical form of an absolute http(s) URL, or None if not crawlable.

    Canonical form is w3lib's: percent-encoding normalised, query arguments sorted,
    fragment dropped, host lower-cased. The URL-seen test compares this form.
    """
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in CRAWLABLE_SCHEMES or not parts.hostname:
        return None
    try:
        return canonicalize_url(safe_url_string(url), keep_fragments=False)
    except ValueError:
        return None


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
