"""`scrapy report --html`: per-interval series from the crawl's rows, the charts, the
self-contained report, two crawls compared, and the bad inputs."""

from __future__ import annotations

import base64
import re
import subprocess
from pathlib import Path

import pytest

from crawler.reporting.figures import CHARTS
from crawler.reporting.series import choose_interval, load_info, load_series, top_level_domain
from tests.commands import run_scrapy
from tests.operations.conftest import png_size


def report(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_scrapy("report", *args, database_url=database_url, timeout=120)


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
