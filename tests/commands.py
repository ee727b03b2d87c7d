"""Running the project's ``scrapy`` commands in a child process, as a user does."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent


def scrapy_env(database_url: str | None = None, **extra: str) -> dict[str, str]:
    """The environment of a ``scrapy`` command of this project: its settings module, no
    proxy (a test that crawls passes the sandbox's, see ``crawl_command``), the database
    ``database_url`` (none when None: a test never reaches the user's database) and
    ``extra`` variables."""
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.pop("CRAWLER_DATABASE_URL", None)
    env.update(SCRAPY_SETTINGS_MODULE="crawler.settings", PYTHONPATH=str(PROJECT_DIR))
    if database_url:
        env["CRAWLER_DATABASE_URL"] = database_url
    env.update(extra)
    return env


def run_scrapy(
    *args: str,
    database_url: str | None = None,
    cwd: Path = PROJECT_DIR,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``scrapy ARGS...`` run to its end, its output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=cwd,
        env=scrapy_env(database_url),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
