"""Fixtures of the search tests: running the project's scrapy commands as subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]


@dataclass
class CommandResult:
    returncode: int
    stdout: str
    stderr: str

    def check(self) -> CommandResult:
        assert self.returncode == 0, f"command failed ({self.returncode}):\n{self.stderr[-4000:]}"
        return self


def scrapy_env(database_url: str | None) -> dict[str, str]:
    env = {
        **os.environ,
        "SCRAPY_SETTINGS_MODULE": "crawler.settings",
        "PYTHONPATH": str(PROJECT_DIR),
    }
    if database_url:
        env["CRAWLER_DATABASE_URL"] = database_url
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        env.pop(var, None)
    return env


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
