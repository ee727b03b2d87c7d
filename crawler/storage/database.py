"""Which PostgreSQL a crawl uses, and getting it ready.

``CRAWLER_DATABASE_URL`` (setting, else environment variable) names an external server.
Without it an embedded PostgreSQL (pgserver) is started with its data under
``CRAWLER_DATA_DIR/pgdata`` and stopped when the last process using it exits.
"""

from __future__ import annotations

import logging
import os
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg

from crawler import defaults
from crawler.storage.schema import migrate

logger = logging.getLogger(__name__)

ENV_DATABASE_URL = "CRAWLER_DATABASE_URL"


class DatabaseUnavailable(RuntimeError):
    """The database cannot be reached or prepared; the message names it (password masked)."""


def mask_password(url: str) -> str:
    """The URL with its password replaced by ***, for messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparsable database URL>"
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def configured_url(settings: Any) -> str | None:
    """The external database URL from the setting or the environment, if any."""
    return settings.get("CRAWLER_DATABASE_URL") or os.environ.get(ENV_DATABASE_URL) or None


def check_connection(url: str, timeout: float = defaults.CRAWLER_DB_CONNECT_TIMEOUT) -> None:
    """Open and close one connection; raise DatabaseUnavailable with a clear message."""
    try:
        with psycopg.connect(url, connect_timeout=max(1, int(timeout))) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DatabaseUnavailable(
            f"cannot connect to PostgreSQL at {mask_password(url)}: {reason}"
        ) from exc


@dataclass
class EmbeddedPostgres:
    """A pgserver-managed PostgreSQL whose data lives in ``data_dir``."""

    data_dir: Path
    _server: Any = field(default=None, repr=False)

    def start(self) -> str:
        # pgserver logs every initdb/pg_ctl call with its whole output at INFO, and
        # platformdirs warns (at pgserver's import) that XDG_RUNTIME_DIR is unset, where
        # it then uses /tmp/runtime-UID: noise around every command's own output. Its
        # warnings and errors still show.
        logging.getLogger("pgserver").setLevel(logging.WARNING)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            try:
                import pgserver
            except ImportError as exc:  # pragma: no cover - installed with the project
                raise DatabaseUnavailable(
                    "CRAWLER_DATABASE_URL is not set and the embedded PostgreSQL (pgserver) "
                    "is not installed"
                ) from exc
            self.data_dir.mkdir(parents=True, exist_ok=True)
            try:
                # 'stop': the server stops when the last process that asked for it exits.
                self._server = pgserver.get_server(str(self.data_dir), cleanup_mode="stop")
            except Exception as exc:
                raise DatabaseUnavailable(
                    f"cannot start the embedded PostgreSQL in {self.data_dir}: {exc}"
                ) from exc
        return self._server.get_uri()

    def stop(self) -> None:
        if self._server is not None:
            self._server.cleanup()
            self._server = None


def with_idle_transaction_timeout(url: str, seconds: float) -> str:
    """``url`` whose sessions end a transaction left idle for ``seconds``.

    An agent cut off from the database in the middle of a transaction leaves its server
    session open (TCP keepalive notices only after hours), and with it the row locks of
    the transaction: the other agents' claims of those frontier rows would wait forever.
    The server aborts such a transaction once it has been idle for the agent's lease
    time, when the agent has stopped fetching anyway (docs/distributed.md).
    """
    options = psycopg.conninfo.conninfo_to_dict(url).get("options") or ""
    option = f"-c idle_in_transaction_session_timeout={max(1, int(seconds * 1000))}"
    return psycopg.conninfo.make_conninfo(url, options=f"{options} {option}".strip())


@dataclass
class CrawlDatabase:
    """The database of one crawler process: its URL, started and migrated on demand."""

    url: str
    embedded: EmbeddedPostgres | None = None
    prepared: bool = False
    _preparing: threading.Thread | None = field(default=None, repr=False, compare=False)
    _prepare_error: BaseException | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_settings(cls, settings: Any) -> CrawlDatabase:
        url = configured_url(settings)
        if url:
            agents = settings.get("AGENTS_ENABLED", defaults.AGENTS_ENABLED)
            if str(agents).lower() in ("1", "true", "yes"):
                ttl = settings.getfloat("AGENT_LEASE_TTL", defaults.AGENT_LEASE_TTL)
                url = with_idle_transaction_timeout(url, ttl)
            return cls(url=url)
        data_dir = Path(settings.get("CRAWLER_DATA_DIR", defaults.CRAWLER_DATA_DIR))
        return cls(url="", embedded=EmbeddedPostgres(data_dir / "pgdata"))

    @property
    def display_url(self) -> str:
        if self.embedded is not None:
            return f"embedded PostgreSQL in {self.embedded.data_dir}"
        return mask_password(self.url)

    def start_preparing(self, timeout: float = defaults.CRAWLER_DB_CONNECT_TIMEOUT) -> None:
        """Begin :meth:`prepare` on a thread; the next :meth:`prepare` waits for it (and
        raises what it raised).

        A crawl calls this as soon as its spider exists: the server's work on a new
        database's schema (0.4-0.7 s) then overlaps with Scrapy building the crawl's
        components, instead of holding the start of the crawl (issue 29).
        """
        if self.prepared or self._preparing is not None:
            return

        def prepare_on_thread() -> None:
            try:
                self.prepare(timeout)
            except BaseException as exc:  # handed to the thread that waits for it
                self._prepare_error = exc

        self._preparing = threading.Thread(
            target=prepare_on_thread, name="prepare-database", daemon=True
        )
        self._preparing.start()

    def prepare(self, timeout: float = defaults.CRAWLER_DB_CONNECT_TIMEOUT) -> None:
        """Start the embedded server if needed, check the connection, migrate the schema."""
        preparing = self._preparing
        if preparing is not None and preparing is not threading.current_thread():
            preparing.join()
            self._preparing = None
            error, self._prepare_error = self._prepare_error, None
            if error is not None:
                raise error
        if self.prepared:
            return
        if self.embedded is not None and not self.url:
            self.url = self.embedded.start()
        check_connection(self.url, timeout)
        with psycopg.connect(self.url, autocommit=True) as conn:
            applied = migrate(conn)
        if applied:
            logger.info("database %s: %d schema migration(s) applied", self.display_url, applied)
        self.prepared = True

    def connect(self, **kwargs: Any) -> psycopg.Connection:
        return psycopg.connect(self.url, **kwargs)

    def close(self) -> None:
        if self.embedded is not None:
            self.embedded.stop()
            self.url = ""
            self.prepared = False


def crawl_database(crawler: Any) -> CrawlDatabase:
    """The CrawlDatabase of a crawler, created once per crawler (not per process)."""
    db = getattr(crawler, "crawl_database", None)
    if db is None:
        db = CrawlDatabase.from_settings(crawler.settings)
        crawler.crawl_database = db
    return db
