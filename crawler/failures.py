"""Mapping download failures to the `uncrawled` categories.

The project's own refusals (robots.txt, traps, budgets, URL rules) are IgnoreRequest
subclasses tagged with an ``uncrawled_category`` attribute: this module imports none of
them.
"""

from __future__ import annotations

from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadCancelledError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    IgnoreRequest,
    ResponseDataLossError,
)
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet import error as twisted_error
from twisted.web._newclient import ResponseFailed, ResponseNeverReceived

_TIMEOUTS = (
    DownloadTimeoutError,
    twisted_error.TimeoutError,
    twisted_error.TCPTimedOutError,
    TimeoutError,
)
_CONNECTION = (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    ResponseDataLossError,
    twisted_error.DNSLookupError,
    twisted_error.ConnectError,
    twisted_error.ConnectionLost,
    twisted_error.ConnectionDone,
    ResponseNeverReceived,
    ResponseFailed,
    ConnectionError,
)

HTTP_STATUS_CATEGORIES = {404: "http_404", 403: "http_403", 503: "http_503"}


def categorize_status(status: int) -> str:
    return HTTP_STATUS_CATEGORIES.get(status, "http_other")


def categorize_failure(exc: BaseException) -> tuple[str, str]:
    """The (category, detail) of a failed request's exception."""
    if isinstance(exc, HttpError):
        status = exc.response.status
        return categorize_status(status), f"HTTP {status}"
    category = getattr(exc, "uncrawled_category", None)
    if category:
        # middlewares of this project tag their refusals with a category
        return category, str(exc)
    if isinstance(exc, DownloadCancelledError) and "max size" in str(exc):
        return "too_large", str(exc)
    if isinstance(exc, _TIMEOUTS):
        return "timeout", str(exc) or type(exc).__name__
    if isinstance(exc, _CONNECTION):
        return "connection", f"{type(exc).__name__}: {exc}"[:500]
    if isinstance(exc, IgnoreRequest):
        return "other", f"ignored: {exc}"
    return "other", f"{type(exc).__name__}: {exc}"[:500]
