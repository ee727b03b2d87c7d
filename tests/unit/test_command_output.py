"""Commands whose reader goes away (``scrapy search x | head -1``) stop quietly."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from crawler.search.index import rebuild_index
from crawler.search.schema import page_document
from tests.commands import scrapy_env

PIPE_CAPACITY = 64 * 1024  # Linux default: more output than this cannot fit in the pipe


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("search") / "index"
    # long URLs: 100 results print far more than the pipe holds, so the writer must meet
    # the closed pipe, whatever the timing
    docs = [
        page_document(
            url=f"http://a.test/{'long-path-segment/' * 60}{i}.html",
            title=f"Python page {i}", text=f"python json word{i} " * 20, host="a.test",
            content_type="text/html", fetched_at=datetime(2026, 1, 1, tzinfo=UTC),
        )
        for i in range(120)
    ]
    assert rebuild_index(path, docs) == 120
    return path


def search_into_head(index: Path, *options: str) -> tuple[int, str, str]:
    """``scrapy search ... python | head -1`` with real pipes: (status, stderr, head's line)."""
    env = scrapy_env()
    search = subprocess.Popen(
        [sys.executable, "-m", "scrapy", "search", "--index", str(index), "-n", "100",
         *options, "python"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=index.parent,
    )
    assert search.stdout is not None and search.stderr is not None
    head = subprocess.run(["head", "-1"], stdin=search.stdout, capture_output=True,
                          text=True, timeout=60)
    search.stdout.close()  # head holds the only read end; it has exited
    stderr = search.stderr.read().decode()
    return search.wait(timeout=60), stderr, head.stdout


def test_search_output_larger_than_the_pipe(index_dir: Path) -> None:
    env = scrapy_env()
    full = subprocess.run(
        [sys.executable, "-m", "scrapy", "search", "--index", str(index_dir), "-n", "100",
         "python"], capture_output=True, env=env, cwd=index_dir.parent, timeout=60,
    )
    assert full.returncode == 0 and full.stderr == b""
    assert len(full.stdout) > 2 * PIPE_CAPACITY
    assert full.stdout.decode().startswith("1-100 of 120 results (")


def test_search_piped_into_head_exits_quietly(index_dir: Path) -> None:
    status, stderr, line = search_into_head(index_dir)
    assert (status, stderr) == (0, "")
    assert line.startswith("1-100 of 120 results (") and line.endswith(", page 1 of 2\n")


def test_search_json_piped_into_head_exits_quietly(index_dir: Path) -> None:
    status, stderr, line = search_into_head(index_dir, "--json")
    assert (status, stderr, line) == (0, "", "{\n")


def test_a_query_starting_with_dashes_comes_after_a_double_dash(tmp_path: Path) -> None:
    # a command-line option's name is a query a user types (scons' --debug=explain)
    path = tmp_path / "index"
    docs = [
        page_document(url=f"http://a.test/{name}.html", title=title, text=text, host="a.test",
                      content_type="text/html", fetched_at=datetime(2026, 1, 1, tzinfo=UTC))
        for name, title, text in (
            ("explain", "Why a target is rebuilt", "the --debug=explain option prints why"),
            ("install", "Installing", "how to install the program"),
        )
    ]
    assert rebuild_index(path, docs) == 2

    def search(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "scrapy", "search", "--index", str(path), "--json", *args],
            capture_output=True, text=True, env=scrapy_env(), cwd=tmp_path, timeout=60,
        )

    found = search("--", "--debug=explain")
    assert found.returncode == 0, found.stderr
    assert [r["url"] for r in json.loads(found.stdout)["results"]] == [
        "http://a.test/explain.html"]
    refused = search("--debug=explain")
    assert (refused.returncode, refused.stderr.strip()) == (
        2, "error: unrecognized option --debug=explain (see scrapy search -h)")
