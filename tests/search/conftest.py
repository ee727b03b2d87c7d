"""Fixtures of the search tests: running the project's scrapy commands as subprocesses."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from crawler.search.index import BACKENDS
from tests.commands import scrapy_env


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each search backend in turn (SEARCH_BACKEND): one suite for both."""
    return request.param


@dataclass
class CommandResult:
    returncode: int
    stdout: str
    stderr: str

    def check(self) -> CommandResult:
        assert self.returncode == 0, f"command failed ({self.returncode}):\n{self.stderr[-4000:]}"
        return self


@pytest.fixture
def run_scrapy(database_url: str, tmp_path: Path):
    """Run ``scrapy COMMAND ...`` in tmp_path with the crawl's data folder and database
    (the folder run_crawl uses: tmp_path/.crawl)."""

    def run(*args: str, timeout: float = 300) -> CommandResult:
        cmd = [sys.executable, "-m", "scrapy", *args, "-s",
               f"CRAWLER_DATA_DIR={tmp_path / '.crawl'}"]
        proc = subprocess.run(
            cmd, cwd=tmp_path, env=scrapy_env(database_url), capture_output=True, text=True,
            timeout=timeout,
        )
        return CommandResult(proc.returncode, proc.stdout, proc.stderr)

    return run
