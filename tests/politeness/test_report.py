"""The error-taxonomy report (`scrapy report`) and the weak uncrawled categories."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime

import pytest

from crawler.commands.report import REPORT_SQL, ErrorTaxonomy, format_report, report_parameters
from crawler.storage.database import CrawlDatabase
from tests.commands import run_scrapy

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def schema(database_url):
    CrawlDatabase(url=database_url).prepare()


def add_crawl(db, crawl_id: str, started: str = "2026-01-01") -> None:
    db.execute("INSERT INTO crawls (id, spider, started_at) VALUES (%s, 'general', %s)",
               (crawl_id, started))


def add_pages(db, crawl_id: str, urls: list[str]) -> None:
    for url in urls:
        db.execute(
            "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth, "
            "content_md5, size) VALUES (%s, %s, %s, 'a.test', 200, %s, 0, '', 0)",
            (crawl_id, url, url, NOW),
        )


def add_uncrawled(db, crawl_id: str, rows: list[tuple[str, str]]) -> None:
    """Insert like the storage pipeline does: an upsert replacing the category."""
    for url, category in rows:
        db.execute(
            "INSERT INTO uncrawled (crawl_id, url, category, detail) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (crawl_id, url) DO UPDATE SET category = EXCLUDED.category, "
            "detail = EXCLUDED.detail", (crawl_id, url, category, category),
        )


def categories(db, crawl_id: str) -> dict[str, str]:
    return dict(db.execute("SELECT url, category FROM uncrawled WHERE crawl_id = %s",
                           (crawl_id,)).fetchall())


@pytest.fixture
def rolled_back(schema, db):
    """The test's rows are never committed: other tests see no extra crawl."""
    with db.transaction(force_rollback=True):
        yield db


def test_weak_categories_never_mask_pages_or_failures(rolled_back):
    db = rolled_back
    add_crawl(db, "weak")
    add_pages(db, "weak", ["http://a.test/page"])
    add_uncrawled(db, "weak", [
        ("http://a.test/page", "depth_exceeded"),  # already a page: skipped
        ("http://a.test/gone", "http_404"),
        ("http://a.test/gone", "trap"),  # a real failure is kept
        ("http://a.test/deep", "depth_exceeded"),
        ("http://a.test/deep", "trap"),  # the first refusal is kept
        ("http://a.test/later", "depth_exceeded"),
        ("http://a.test/later", "timeout"),  # a real failure replaces a refusal
    ])
    assert categories(db, "weak") == {
        "http://a.test/gone": "http_404",
        "http://a.test/deep": "depth_exceeded",
        "http://a.test/later": "timeout",
    }


def sample_crawl(db, crawl_id: str, started: str) -> None:
    add_crawl(db, crawl_id, started)
    add_pages(db, crawl_id, [f"http://a.test/p{i}" for i in range(90)])
    counts = {"http_404": 4, "http_403": 2, "http_503": 1, "http_other": 1,
              "unsupported_mime": 3, "other": 1, "timeout": 2, "connection": 1,
              "robots_disallowed": 5, "depth_exceeded": 7, "trap": 3}
    add_uncrawled(db, crawl_id, [(f"http://a.test/{category}/{i}", category)
                                 for category, n in counts.items() for i in range(n)])


def test_report_query_and_tables(rolled_back):
    db = rolled_back
    sample_crawl(db, "report-a", "2026-01-01")
    rows = db.execute(REPORT_SQL, report_parameters("report-a")).fetchall()
    taxonomy = ErrorTaxonomy.from_rows(rows)
    assert taxonomy is not None
    assert (taxonomy.pages, taxonomy.uncrawled, taxonomy.errors, taxonomy.http_errors) == (
        90, 30, 15, 8)
    assert [c.category for c in taxonomy.categories][:7] == [
        "http_404", "http_403", "http_503", "http_other", "unsupported_mime", "other",
        "timeout"]
    assert taxonomy.count("evicted") == 0
    text = format_report(taxonomy)
    lines = text.splitlines()
    assert lines[0] == "Crawl report-a"
    titles = [line for line in lines if line.startswith("Table")]
    assert len(titles) == 3 == len(set(titles))  # every table has its own title
    assert "  Crawled pages                            90   85.71% of pages + errors" in lines
    assert "  404                                       4    26.67%       13.33%" in lines
    assert "  Unknown errors                            1     6.67%        3.33%" in lines
    assert "  Beyond the depth threshold                7         -       23.33%" in lines
    assert "  HTTP status codes                         8    53.33%" in lines
    assert "  Other errors                              7    46.67%" in lines
    table_iii = lines[lines.index("Table III: HTTP status errors of uncrawled URLs") + 1:]
    assert table_iii == [
        "  404                                       4    50.00%",
        "  403                                       2    25.00%",
        "  503                                       1    12.50%",
        "  Other HTTP status codes                   1    12.50%",
    ]
    assert db.execute(REPORT_SQL, report_parameters("no-such-crawl")).fetchall() == []


def run_report(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_scrapy("report", *args, database_url=database_url)


def test_latest_crawl_by_default(rolled_back):
    db = rolled_back
    add_crawl(db, "report-latest", "2100-01-01")  # no rows at all
    taxonomy = ErrorTaxonomy.from_rows(db.execute(REPORT_SQL, report_parameters(None)).fetchall())
    assert taxonomy is not None
    assert (taxonomy.crawl_id, taxonomy.pages, taxonomy.uncrawled) == ("report-latest", 0, 0)
    assert "  Total                                     0" in format_report(taxonomy)


def test_scrapy_report_command(schema, db, database_url):
    sample_crawl(db, "report-b", "2000-01-01")
    try:
        named = run_report(database_url, "--crawl-id", "report-b")
    finally:
        db.execute("DELETE FROM crawls WHERE id = 'report-b'")
    assert named.returncode == 0, named.stderr
    assert named.stdout.splitlines()[0] == "Crawl report-b"
    assert "  Timeouts                                  2    13.33%        6.67%" in named.stdout
    missing = run_report(database_url, "--crawl-id", "nope")
    assert missing.returncode == 2  # as `scrapy pagerank`
    assert missing.stderr == "error: no crawl with id 'nope' in the database\n"
    bogus = run_report(database_url, "--bogus")
    assert (bogus.returncode, bogus.stderr) == (2, "error: unrecognized arguments: --bogus\n")
