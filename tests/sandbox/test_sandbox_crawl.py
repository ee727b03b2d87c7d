"""The safe way to crawl the sandbox web: `scripts/sandbox-crawl.sh` and
`python -m crawler.sandbox.run` give the command BOTH proxies and no proxy exceptions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from crawler.sandbox.run import is_crawl_without_seeds, sandbox_env
from tests.commands import PROJECT_DIR


def test_sandbox_env_sets_every_proxy_and_drops_exceptions() -> None:
    env = sandbox_env("http://127.0.0.1:1234",
                      {"PATH": "/bin", "no_proxy": "*", "NO_PROXY": "a.test",
                       "https_proxy": "http://elsewhere:3128"})
    assert env == {
        "PATH": "/bin", "SCRAPY_SETTINGS_MODULE": "crawler.settings",
        "http_proxy": "http://127.0.0.1:1234", "https_proxy": "http://127.0.0.1:1234",
        "HTTP_PROXY": "http://127.0.0.1:1234", "HTTPS_PROXY": "http://127.0.0.1:1234",
    }


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["scrapy", "crawl", "general"], True),
        ([".venv/bin/scrapy", "crawl", "focused", "-a", "query=java"], True),
        (["python", "-m", "scrapy", "crawl", "general", "-s", "X=1"], True),
        (["scrapy", "crawl", "general", "-a", "seeds=my.txt"], False),
        (["scrapy", "crawl", "general", "-aseed_urls=http://a.test/"], False),
        (["scrapy", "search", "python"], False),
        (["sh", "-c", "scrapy crawl general"], False),
    ],
)
def test_which_commands_get_the_sandbox_seeds(command: list[str], expected: bool) -> None:
    assert is_crawl_without_seeds(command) is expected


def test_runner_gives_both_proxies_and_the_exit_status(tmp_path: Path) -> None:
    env = {**os.environ, "no_proxy": "*", "PYTHONPATH": str(PROJECT_DIR)}
    env.pop("https_proxy", None)
    result = subprocess.run(
        [sys.executable, "-m", "crawler.sandbox.run", "--no-docs", "--",
         "sh", "-c", 'echo "$http_proxy|$https_proxy|$HTTP_PROXY|$HTTPS_PROXY|'
                     '${no_proxy-unset}"; exit 3'],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 3
    proxy = result.stdout.split("|")[0]
    assert proxy.startswith("http://127.0.0.1:")
    assert result.stdout == f"{proxy}|{proxy}|{proxy}|{proxy}|unset\n"
    assert result.stderr.startswith(f"sandbox: web on {proxy} (")
    assert result.stderr.endswith("http_proxy and https_proxy point at it\n")


@pytest.mark.slow
def test_sandbox_crawl_script_crawls_the_sandbox_only(
    tmp_path: Path, database_url: str, db
) -> None:
    crawl_id = f"sandbox-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env["CRAWLER_DATABASE_URL"] = database_url
    log = tmp_path / "requests.jsonl"
    result = subprocess.run(
        [str(PROJECT_DIR / "scripts" / "sandbox-crawl.sh"), "--no-docs", "--log", str(log),
         "--", "scrapy", "crawl", "general", "-a", f"crawl_id={crawl_id}",
         "-s", "CLOSESPIDER_PAGECOUNT=20", "-s", "DOWNLOAD_DELAY=0",
         "-s", f"CRAWLER_DATA_DIR={tmp_path / '.crawl'}", "-s", "LOG_LEVEL=WARNING"],
        cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    hosts = {host for (host,) in db.execute(
        "SELECT DISTINCT host FROM pages WHERE crawl_id = %s", (crawl_id,))}
    pages = db.execute("SELECT count(*) FROM pages WHERE crawl_id = %s",
                       (crawl_id,)).fetchone()[0]
    arguments, finish_reason = db.execute(
        "SELECT arguments, finish_reason FROM crawls WHERE id = %s", (crawl_id,)).fetchone()
    # it ran to its limit: 20 responses, robots.txt files, redirects and error pages among
    # them, so fewer pages may be stored (more when responses in flight at the close
    # arrive: how many depends on timing)
    assert finish_reason == "closespider_pagecount"
    assert pages >= 10 and hosts and all(host.endswith(".test") for host in hosts)
    assert arguments["seeds"].endswith("/sandbox-seeds.txt")  # given by the runner
    # every request, https ones too (CONNECT), arrived at the sandbox's proxy
    requested = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(requested) >= pages


def test_docs_never_set_http_proxy_alone() -> None:
    """A doc line pointing http_proxy at the sandbox without https_proxy would send a
    reader's https requests to the real network."""
    pages = [PROJECT_DIR / "README.md", *sorted((PROJECT_DIR / "docs").glob("*.md"))]
    alone = [f"{page.name}:{number}: {line}"
             for page in pages
             for number, line in enumerate(page.read_text().splitlines(), 1)
             if "http_proxy=" in line and "https_proxy" not in line]
    assert alone == []
    readme = (PROJECT_DIR / "README.md").read_text()
    assert "scripts/sandbox-crawl.sh scrapy crawl" in readme
    assert "scripts/sandbox-crawl.sh scrapy crawl focused" in (
        PROJECT_DIR / "docs" / "focused.md").read_text()
