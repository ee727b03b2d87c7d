"""Shared fixtures: a real PostgreSQL database per test session, the sandbox web, and a
runner for real `scrapy crawl` processes.

The database is CRAWLER_TEST_DATABASE_URL when set (a server with rights to create
databases), else an embedded PostgreSQL (pgserver) in a temporary folder.

Helpers shared by the tests: tests/commands.py (the environment and runner of the
project's scrapy commands, a free port) and tests/waiting.py (waiting on a condition
instead of sleeping).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from tests.commands import PROJECT_DIR as PROJECT_DIR  # imported from here by tests
from tests.commands import scrapy_env


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On pytest-xdist workers (scripts/test.sh), the files with `slow` tests come first
    (otherwise in their order): the workers take whole files in this order
    (--no-loadscope-reorder), so the long end-to-end files start early and the many short
    files even out the end, instead of one worker running a long file alone at the end."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: keeps the rest


@pytest.fixture(autouse=True)
def _timing_isolation(request: pytest.FixtureRequest,
                      tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """On pytest-xdist workers, a test marked `alone` runs while no `slow` test runs on
    the other worker: it times a real crawl against a bound (a kill's window, a server's
    delay across agents), and another end-to-end crawl on the same 2 cores made it miss:
    pages of the kill-window test stored 0.4-1.1 s past their allowance (clean-clone runs
    and runs beside other crawls, 2026-11-27). Its assertions stay as strict.

    Two locks, so that the `alone` test is not starved by the other worker's next slow
    tests: the gate (exclusive while an `alone` test waits or runs) and the run lock."""
    alone = request.node.get_closest_marker("alone") is not None
    if not os.environ.get("PYTEST_XDIST_WORKER") or not (
        alone or request.node.get_closest_marker("slow") is not None
    ):
        yield
        return
    folder = tmp_path_factory.getbasetemp().parent  # shared by the run's workers
    with (folder / "timing.gate").open("a") as gate, (folder / "timing.run").open("a") as run:
        if alone:
            fcntl.flock(gate, fcntl.LOCK_EX)
            fcntl.flock(run, fcntl.LOCK_EX)
        else:
            fcntl.flock(gate, fcntl.LOCK_SH)
            fcntl.flock(run, fcntl.LOCK_SH)
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(run, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


def _with_dbname(url: str, dbname: str) -> str:
    return psycopg.conninfo.make_conninfo(url, dbname=dbname)


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    url = os.environ.get("CRAWLER_TEST_DATABASE_URL")
    if url:
        yield url
        return
    import pgserver

    with tempfile.TemporaryDirectory(prefix="crawler-test-pg-") as data_dir:
        server = pgserver.get_server(data_dir, cleanup_mode="stop")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()


@pytest.fixture(scope="session")
def database_url(server_url: str) -> Iterator[str]:
    """A database created for this test session and dropped at its end (a pytest-xdist
    worker is a session of its own: each worker has its own database, named after it)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    name = f"crawler_test_{worker + '_' if worker else ''}{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield _with_dbname(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture
def db(database_url: str) -> Iterator[psycopg.Connection]:
    with psycopg.connect(database_url, autocommit=True) as conn:
        yield conn


@pytest.fixture(scope="session")
def migrated(database_url: str) -> str:
    """The session's database with the schema migrated (for tests that use the tables
    before any crawl has created them)."""
    from crawler.storage.schema import migrate

    with psycopg.connect(database_url, autocommit=True) as conn:
        migrate(conn)
    return database_url


@dataclass
class CrawlResult:
    returncode: int
    stdout: str
    stderr: str
    crawl_id: str

    def check(self) -> CrawlResult:
        assert self.returncode == 0, f"crawl failed ({self.returncode}):\n{self.stderr[-6000:]}"
        return self


def crawl_command(
    spider: str,
    *,
    database_url: str,
    workdir: Path,
    proxy: str | None,
    args: dict[str, str],
    settings: dict[str, object] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[list[str], dict[str, str]]:
    """The `scrapy crawl` command line and environment of a test crawl."""
    full_settings: dict[str, object] = {
        "CRAWLER_DATA_DIR": str(workdir / ".crawl"),
        "LOG_LEVEL": "INFO",
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        "STORE_FLUSH_INTERVAL": 0.5,
    }
    full_settings.update(settings or {})
    cmd = [sys.executable, "-m", "scrapy", "crawl", spider]
    for key, value in args.items():
        cmd += ["-a", f"{key}={value}"]
    for key, value in full_settings.items():
        cmd += ["-s", f"{key}={value}"]
    child_env = scrapy_env(database_url)
    if proxy:
        child_env["http_proxy"] = child_env["https_proxy"] = proxy
    child_env.update(env or {})
    return cmd, child_env


@pytest.fixture
def run_crawl(database_url: str, tmp_path: Path):
    """Run `scrapy crawl SPIDER` in a subprocess against the test database.

    ``proxy`` is the sandbox's proxy URL; extra ``settings`` become -s options and
    ``args`` -a options. Returns a CrawlResult; its crawl_id is unique per call unless
    given in ``args``.
    """

    def run(
        spider: str = "general",
        *,
        proxy: str | None,
        args: dict[str, str] | None = None,
        settings: dict[str, object] | None = None,
        timeout: float = 300,
        env: dict[str, str] | None = None,
    ) -> CrawlResult:
        args = dict(args or {})
        args.setdefault("crawl_id", f"test-{uuid.uuid4().hex[:12]}")
        cmd, child_env = crawl_command(spider, database_url=database_url, workdir=tmp_path,
                                       proxy=proxy, args=args, settings=settings, env=env)
        proc = subprocess.run(
            cmd,
            cwd=tmp_path,
            env=child_env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        return CrawlResult(proc.returncode, proc.stdout, proc.stderr, args["crawl_id"])

    return run


@pytest.fixture
def sandbox():
    """Start a SandboxServer for a given SandboxWeb; stopped at the end of the test."""
    from crawler.sandbox import SandboxServer

    servers = []

    def start(web):
        server = SandboxServer(web)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def open_tmp_path() -> Iterator[Path]:
    """A temporary folder the embedded PostgreSQL's own user can enter: pgserver runs the
    server as user 'pgserver' when started by root, and pytest's tmp_path is root's alone.
    For tests whose command starts the embedded database under its data folder."""
    path = Path(tempfile.mkdtemp(prefix="crawler-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)
