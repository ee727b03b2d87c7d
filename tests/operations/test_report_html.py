"""`scrapy report --html`: per-interval series from the crawl's rows, the charts, the
self-contained report, two crawls compared, and the bad inputs."""

from __future__ import annotations

import base64
import os
import re
import struct
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from crawler.reporting.figures import CHARTS
from crawler.reporting.series import choose_interval, load_info, load_series, top_level_domain
from crawler.storage.database import CrawlDatabase
from tests.conftest import PROJECT_DIR

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def make_crawl(db, crawl_id: str, *, finished: bool = True, pages: int = 40,
               scale: float = 1.0) -> None:
    """A crawl of 4 minutes: ``pages`` pages spread over it (sizes 1-4 KB), errors,
    evictions, crawl_stats rows every minute, PageRank for every page."""
    db.execute("INSERT INTO crawls (id, spider, started_at, finished_at, finish_reason) "
               "VALUES (%s, 'general', %s, %s, %s)",
               (crawl_id, T0, T0 + timedelta(minutes=4) if finished else None,
                "finished" if finished else None))
    for i in range(pages):
        at = T0 + timedelta(seconds=i * 240 / pages)
        host = ("a.test", "b.example.ca", "c.example.ca")[i % 3]
        url = f"http://{host}/p{i}"
        db.execute(
            "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at, depth, "
            "content_md5, size) VALUES (%s, %s, %s, %s, 200, %s, 0, '', %s)",
            (crawl_id, url, url, host, at, 1024 * (1 + i % 4)),
        )
        db.execute("INSERT INTO pagerank (crawl_id, url, score) VALUES (%s, %s, %s)",
                   (crawl_id, url, scale * (2.0 if at < T0 + timedelta(minutes=2) else 0.5)))
    rows = [("http://a.test/gone", "http_404", 30), ("http://a.test/x", "timeout", 90),
            ("http://a.test/e1", "evicted", 150), ("http://a.test/e2", "evicted", 170),
            ("http://a.test/copy", "duplicate_content", 200)]
    for url, category, second in rows:
        db.execute("INSERT INTO uncrawled (crawl_id, url, category, at) VALUES (%s, %s, %s, %s)",
                   (crawl_id, url, category, T0 + timedelta(seconds=second)))
    for minute in range(1, 5):
        db.execute(
            "INSERT INTO crawl_stats (crawl_id, at, interval_seconds, pages, queue_size, "
            "queue_inter, queue_intra, wait_min, wait_avg, wait_max, evicted, duplicates) "
            "VALUES (%s, %s, 60, 10, %s, %s, %s, 0.5, 2.0, %s, 0, %s)",
            (crawl_id, T0 + timedelta(minutes=minute), 100 * minute, 40 * minute,
             60 * minute, 5.0 * minute, 3 * minute),
        )


@pytest.fixture
def crawls(database_url, db):
    CrawlDatabase(url=database_url).prepare()
    ids = ["html-a", "html-b", "html-running", "html-empty"]
    db.execute("DELETE FROM crawls WHERE id = ANY(%s)", (ids,))
    make_crawl(db, "html-a")
    make_crawl(db, "html-b", pages=20, scale=0.5)
    make_crawl(db, "html-running", finished=False)
    db.execute("INSERT INTO crawls (id, spider, started_at, finished_at) "
               "VALUES ('html-empty', 'general', %s, %s)", (T0, T0))
    yield db
    db.execute("DELETE FROM crawls WHERE id = ANY(%s)", (ids,))


def report(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings",
           "PYTHONPATH": str(PROJECT_DIR), "CRAWLER_DATABASE_URL": database_url}
    return subprocess.run([sys.executable, "-m", "scrapy", "report", *args], cwd=PROJECT_DIR,
                          env=env, capture_output=True, text=True, timeout=120)


def test_series_per_interval(crawls) -> None:
    info = load_info(crawls, "html-a")
    assert (info.pages, info.uncrawled, info.duration) == (40, 5, 240.0)
    series = load_series(crawls, info, 60.0)
    assert [i.pages for i in series.intervals] == [10, 10, 10, 10]
    # sub-intervals of 2 s: a page every 6 s
    assert series.intervals[0].per_sub == [1, 0, 0] * 10
    assert [i.uncrawled.get("evicted", 0) for i in series.intervals] == [0, 0, 2, 0]
    assert [i.uncrawled.get("http_404", 0) for i in series.intervals] == [1, 0, 0, 0]
    assert [i.pagerank_avg for i in series.intervals] == [2.0, 2.0, 0.5, 0.5]
    assert series.intervals[0].size_min == 1024 and series.intervals[0].size_max == 4096
    assert [r.queue_size for r in series.stats] == [100, 200, 300, 400]
    assert series.tlds() == {".ca": 26, ".test": 14}
    assert top_level_domain("10.0.0.1") == "IP"
    assert choose_interval(240) == 15 and choose_interval(10 * 3600) == 1800


def test_html_report_is_self_contained(crawls, database_url, tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = report(database_url, "--crawl-id", "html-a", "--html", str(out),
                    "--interval", "60")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (f"report of html-a: {out / 'report.html'} "
                                     f"({len(CHARTS) - 1} charts, intervals of 60 s)")
    html = (out / "report.html").read_text()
    # every chart but the harvest rate (not a focused crawl), embedded as PNG data
    images = dict(re.findall(r'<figure id="chart-(\w+)">.*?src="data:image/png;base64,([^"]+)"',
                             html, re.S))
    assert set(images) == {c.name for c in CHARTS} - {"harvest"}
    for name, data in images.items():
        png = base64.b64decode(data)
        assert png_size(png) == (800, 360) or name == "errors"
        assert (out / "charts" / f"{name}.png").read_bytes() == png
    assert "No data: not a focused crawl." in html
    assert "src=\"http" not in html and "<link" not in html  # nothing fetched from outside
    assert "<tr><td>.ca</td><td>26</td><td>65.00%</td></tr>" in html
    assert html.count("Table II: HTTP status errors vs. other errors") == 1
    intervals = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td>", html.split('class="intervals"')[1])
    assert intervals == [("0", "10"), ("60", "10"), ("120", "10"), ("180", "10")]


def test_compare_two_crawls(crawls, database_url, tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    result = report(database_url, "--compare", "html-a", "html-b", "--html", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("report of html-a vs. html-b:")
    html = (out / "report.html").read_text()
    assert "<h2>Crawl html-a</h2>" in html and "<h2>Crawl html-b</h2>" in html
    assert png_size((out / "charts" / "order.png").read_bytes()) == (800, 360)


@pytest.mark.parametrize(("args", "error"), [
    (["--crawl-id", "nope"], "error: no crawl with id 'nope' in the database"),
    (["--crawl-id", "html-empty"],
     "error: crawl 'html-empty' has no pages and no uncrawled URLs: nothing to report"),
    (["--crawl-id", "html-running"],
     "error: crawl 'html-running' is still running (or was killed: it has no finish time); "
     "use --partial to report what it has so far"),
    (["--crawl-id", "html-a", "--interval", "0"], "error: --interval must be > 0 seconds"),
    (["--crawl-id", "html-a", "--interval", "x"],
     "error: --interval must be a number of seconds, not 'x'"),
    (["--compare", "html-a", "nope"], "error: no crawl with id 'nope' in the database"),
])
def test_bad_input_writes_nothing(crawls, database_url, tmp_path: Path, args, error) -> None:
    out = tmp_path / "out"
    result = report(database_url, *args, "--html", str(out))
    assert (result.returncode, result.stderr, result.stdout) == (2, error + "\n", "")
    assert not out.exists()


def test_running_crawl_with_partial_and_unwritable_dir(crawls, database_url, tmp_path):
    out = tmp_path / "partial"
    ok = report(database_url, "--crawl-id", "html-running", "--partial", "--html", str(out))
    assert ok.returncode == 0, ok.stderr
    assert "still running (partial report)" in (out / "report.html").read_text()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target in (blocker, blocker / "sub"):
        bad = report(database_url, "--crawl-id", "html-a", "--html", str(target))
        assert bad.returncode == 2 and bad.stderr.startswith("error: ")
        assert len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr
    assert blocker.read_text() == "x"
    no_html = report(database_url, "--interval", "60")
    assert (no_html.returncode, no_html.stderr) == (2, "error: --interval needs --html DIR\n")
