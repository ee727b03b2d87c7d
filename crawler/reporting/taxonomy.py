"""The error taxonomy of a crawl's uncrawled URLs: the categories in the priority-queue
paper's order (its Table I), grouped as HTTP status errors, other errors, and refusals by
the crawler's own policy; the query that counts them and the text tables of `scrapy
report`. All numbers come from one SQL statement (:data:`REPORT_SQL`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
    ("out_of_scope", "Out of the crawl scope", POLICY),
]
_KNOWN = {category for category, _, _ in TAXONOMY}
# Categories added to items.py later are reported as errors until they get a row above.
TAXONOMY += [(c, c, ERROR) for c in UNCRAWLED_CATEGORIES if c not in _KNOWN]

REPORT_SQL = """
WITH crawl AS (
    SELECT id FROM crawls
    WHERE id = coalesce(%(crawl_id)s,
                        (SELECT id FROM crawls ORDER BY started_at DESC, id DESC LIMIT 1))
),
taxonomy AS (
    SELECT * FROM unnest(%(categories)b::text[], %(groups)b::text[])
        WITH ORDINALITY AS t(category, grp, ord)
),
counts AS (
    SELECT category, count(*) AS n FROM uncrawled
    WHERE crawl_id = (SELECT id FROM crawl) GROUP BY category
),
by_category AS (
    SELECT coalesce(t.category, c.category) AS category,
           coalesce(t.grp, 'error') AS grp,
           coalesce(t.ord, 1000) AS ord,
           coalesce(c.n, 0) AS n
    FROM taxonomy t FULL JOIN counts c ON c.category = t.category
)
SELECT (SELECT id FROM crawl) AS crawl_id,
       (SELECT count(*) FROM pages WHERE crawl_id = (SELECT id FROM crawl)) AS pages,
       category, grp, n,
       sum(n) OVER () AS uncrawled,
       sum(n) FILTER (WHERE grp <> 'policy') OVER () AS errors,
       sum(n) FILTER (WHERE grp = 'http') OVER () AS http_errors
FROM by_category
WHERE EXISTS (SELECT 1 FROM crawl)
ORDER BY ord, category
"""


def report_parameters(crawl_id: str | None) -> dict[str, Any]:
    return {
        "crawl_id": crawl_id,
        "categories": [category for category, _, _ in TAXONOMY],
        "groups": [group for _, _, group in TAXONOMY],
    }


@dataclass
class CategoryCount:
    category: str
    label: str
    group: str
    count: int


@dataclass
class ErrorTaxonomy:
    crawl_id: str
    pages: int
    uncrawled: int
    errors: int
    http_errors: int
    categories: list[CategoryCount]

    @classmethod
    def from_rows(cls, rows: list[tuple[Any, ...]]) -> ErrorTaxonomy | None:
        """Build from the rows of REPORT_SQL; None when the crawl does not exist."""
        if not rows:
            return None
        labels = {category: label for category, label, _ in TAXONOMY}
        crawl_id, pages, _, _, _, uncrawled, errors, http_errors = rows[0]
        return cls(
            crawl_id=crawl_id,
            pages=int(pages),
            uncrawled=int(uncrawled or 0),
            errors=int(errors or 0),
            http_errors=int(http_errors or 0),
            categories=[
                CategoryCount(row[2], labels.get(row[2], row[2]), row[3], int(row[4]))
                for row in rows
            ],
        )

    def count(self, category: str) -> int:
        return sum(c.count for c in self.categories if c.category == category)


def _share(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:6.2f}%" if whole else "     -"


def format_report(taxonomy: ErrorTaxonomy) -> str:
    """The report as plain text tables."""
    t = taxonomy
    lines = [f"Crawl {t.crawl_id}", ""]
    attempted = t.pages + t.errors
    lines += [
        "Crawled vs. uncrawled (paper, Fig. 5)",
        f"  {'Crawled pages':<34}{t.pages:>9}  {_share(t.pages, attempted)} of pages + errors",
        f"  {'Uncrawled: errors':<34}{t.errors:>9}  {_share(t.errors, attempted)}",
        f"  {'Uncrawled: refused by policy':<34}{t.uncrawled - t.errors:>9}",
        "",
        "Table I: error types of uncrawled URLs",
        f"  {'Error type':<34}{'URLs':>9}  {'% errors':>8}  {'% uncrawled':>11}",
    ]
    for c in t.categories:
        of_errors = _share(c.count, t.errors) if c.group != POLICY else "     -"
        lines.append(
            f"  {c.label:<34}{c.count:>9}  {of_errors:>8}  {_share(c.count, t.uncrawled):>11}"
        )
    lines.append(f"  {'Total':<34}{t.uncrawled:>9}")
    other_errors = t.errors - t.http_errors
    lines += [
        "",
        "Table II: HTTP status errors vs. other errors of uncrawled URLs",
        f"  {'HTTP status codes':<34}{t.http_errors:>9}  {_share(t.http_errors, t.errors):>8}",
        f"  {'Other errors':<34}{other_errors:>9}  {_share(other_errors, t.errors):>8}",
        "",
        "Table III: HTTP status errors of uncrawled URLs",
    ]
    for c in t.categories:
        if c.group == HTTP:
            lines.append(f"  {c.label:<34}{c.count:>9}  {_share(c.count, t.http_errors):>8}")
    return "\n".join(lines)
