"""The categories of uncrawled URLs in the priority-queue paper's order (its Table I),
grouped as HTTP status errors, other errors, and refusals by the crawler's own policy."""

from __future__ import annotations

from crawler.items import UNCRAWLED_CATEGORIES

HTTP = "http"  # HTTP status errors (Table III)
ERROR = "error"  # other errors of fetched or attempted URLs
POLICY = "policy"  # refused or skipped by the crawler's own rules, never an error

# (category, label, group) in the paper's order first, then the project's categories.
TAXONOMY: list[tuple[str, str, str]] = [
    ("http_404", "404", HTTP),
    ("http_403", "403", HTTP),
    ("http_503", "503", HTTP),
    ("http_other", "Other HTTP status codes", HTTP),
    ("unsupported_mime", "Unsupported MIME type", ERROR),
    ("other", "Unknown errors", ERROR),
    ("timeout", "Timeouts", ERROR),
    ("connection", "Connection errors", ERROR),
    ("too_large", "Too large", ERROR),
    ("robots_disallowed", "Disallowed by robots.txt", POLICY),
    ("depth_exceeded", "Beyond the depth threshold", POLICY),
    ("trap", "Refused as a spider trap", POLICY),
    ("evicted", "Evicted from the frontier", POLICY),
    ("duplicate_content", "Duplicate content", POLICY),
    ("duplicate_url", "Redirect to a known URL", POLICY),
]
_KNOWN = {category for category, _, _ in TAXONOMY}
# Categories added to items.py later are reported as errors until they get a row above.
TAXONOMY += [(c, c, ERROR) for c in UNCRAWLED_CATEGORIES if c not in _KNOWN]
