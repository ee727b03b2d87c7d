"""Fixtures of the frontier tests: crawl rows, a crawl process that can be killed (the
migrated database is in tests/conftest.py)."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.conftest import crawl_command


@pytest.fixture
def crawl_row(migrated: str):
    """Insert a `crawls` row (evicted URLs reference it); returns its id."""

    def make(crawl_id: str | None = None) -> str:
        crawl_id = crawl_id or f"t-{uuid.uuid4().hex[:12]}"
        with psycopg.connect(migrated, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO crawls (id, spider) VALUES (%s, 'test') ON CONFLICT DO NOTHING",
                (crawl_id,),
            )
        return crawl_id

    return make


@pytest.fixture
def spawn_crawl(database_url: str, tmp_path: Path):
    """Start `scrapy crawl` in the background (like run_crawl, but returns the Popen)."""
    procs: list[subprocess.Popen[str]] = []

    def spawn(spider: str = "general", *, proxy: str, args: dict[str, str],
              settings: dict[str, object]) -> subprocess.Popen[str]:
        cmd, env = crawl_command(spider, database_url=database_url, workdir=tmp_path,
                                 proxy=proxy, args=args, settings=settings)
        proc = subprocess.Popen(
            cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
            stderr=open(tmp_path / f"crawl-{len(procs)}.log", "w"), text=True,  # noqa: SIM115
        )
        procs.append(proc)
        return proc

    yield spawn
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
