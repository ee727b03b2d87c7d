"""HTTP server for a :class:`~crawler.sandbox.web.SandboxWeb`, reached as an HTTP proxy.

Crawlers point ``http_proxy`` at :attr:`SandboxServer.proxy_url`; requests then arrive in
absolute form (``GET http://www.alpha.test/a HTTP/1.1``). Origin-form requests are
resolved with the Host header. Every request is recorded in :attr:`SandboxServer.log`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from email.utils import parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import IO, Any
from urllib.parse import urlsplit

from crawler.sandbox.web import Resource, SandboxWeb, html_page, normalize_host

_SERVER_ERROR = Resource(html_page("Error", "<h1>500 Internal Server Error</h1>"), status=500)

# Answer to CONNECT (https through the proxy): the sandbox web serves plain http only.
CONNECT_STATUS = 502
CONNECT_REASON = "Bad Gateway (sandbox web: no https)"
CONNECT_REFUSED_BODY = b"The sandbox web serves http only; https tunnels are refused.\n"


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request seen by the server. ``status`` is 0 when the connection was dropped
    (unknown host). A CONNECT (https through the proxy) is answered with
    :data:`CONNECT_STATUS` and logged with ``host`` the tunnel's authority as sent
    (``a.test:443``: the port stays, as for any port but 80) and an empty ``path``.
    ``started`` (request parsed) and ``finished`` (response about to be sent, after any
    delay) are ``time.time()`` values. Records are logged before the response is sent,
    so a client that has its response always finds it logged."""

    host: str
    path: str
    query: str
    method: str
    status: int
    started: float
    finished: float
    user_agent: str = ""  # the User-Agent header (tells the agents of a crawl apart)


_VALIDATORS = ("etag", "last-modified")


def _not_modified(request_headers: Any, resource: Resource) -> bool:
    """Whether a 200 answer becomes 304: If-None-Match matches the resource's ETag, or
    (without If-None-Match) If-Modified-Since is not before its Last-Modified."""
    if resource.status != 200:
        return False
    headers = {k.lower(): v for k, v in resource.headers.items()}
    if_none_match = request_headers.get("If-None-Match")
    if if_none_match is not None:
        etag = headers.get("etag")
        return etag is not None and etag in {t.strip() for t in if_none_match.split(",")}
    since, modified = request_headers.get("If-Modified-Since"), headers.get("last-modified")
    if since is None or modified is None:
        return False
    try:
        return parsedate_to_datetime(modified) <= parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "SandboxWeb/1.0"
    sys_version = ""
    # Small header and body writes must not wait on delayed ACKs (40 ms stalls).
    disable_nagle_algorithm = True
    timeout = 120
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def do_GET(self) -> None:
        with self.server.sandbox._answering():
            self._serve(head=False)

    def do_HEAD(self) -> None:
        with self.server.sandbox._answering():
            self._serve(head=True)

    def do_POST(self) -> None:
        with self.server.sandbox._answering():
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            self._serve(head=False)

    def do_CONNECT(self) -> None:
        with self.server.sandbox._answering():
            self._refuse_tunnel()

    def _refuse_tunnel(self) -> None:
        # No TLS tunnelling. Answer at once, as a real proxy does when it cannot reach the
        # origin: a crawler then fails the https URL immediately instead of waiting for
        # its download timeout on a connection that never answers.
        started = time.time()
        body = CONNECT_REFUSED_BODY
        self.send_response(CONNECT_STATUS, CONNECT_REASON)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.server.sandbox._record(
            RequestRecord(
                normalize_host(self.path),
                "",
                "",
                self.command,
                CONNECT_STATUS,
                started,
                time.time(),
            )
        )
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def _serve(self, head: bool) -> None:
        started = time.time()
        target = self.path
        if target.startswith(("http://", "https://")):
            parts = urlsplit(target)
            host, path, query, url = parts.netloc, parts.path or "/", parts.query, target
        else:
            host = self.headers.get("Host", "")
            path, _, query = target.partition("?")
            url = f"http://{host}{target}"
        host = normalize_host(host)
        sandbox = self.server.sandbox
        try:
            resource = sandbox.web.fetch(url)
        except Exception:  # a broken dynamic handler must not kill the connection
            resource = _SERVER_ERROR
        if resource is None:
            self.close_connection = True
            sandbox._record(
                RequestRecord(
                    host,
                    path,
                    query,
                    self.command,
                    0,
                    started,
                    started,
                    self.headers.get("User-Agent", ""),
                )
            )
            return
        if resource.delay:
            time.sleep(resource.delay)
        if _not_modified(self.headers, resource):
            # conditional GET (RFC 9110 13.1): same validators, no body
            resource = Resource(
                b"",
                status=304,
                content_type=None,
                headers={k: v for k, v in resource.headers.items() if k.lower() in _VALIDATORS},
            )
        body = resource.body
        self.send_response(resource.status)
        if resource.content_type:
            self.send_header("Content-Type", resource.content_type)
        for name, value in resource.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        # Recorded before sending, so a client that got its response also finds it logged.
        sandbox._record(
            RequestRecord(
                host,
                path,
                query,
                self.command,
                resource.status,
                started,
                time.time(),
                self.headers.get("User-Agent", ""),
            )
        )
        self.end_headers()
        if not head and body:
            self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 1024
    sandbox: SandboxServer

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.sandbox._lock:
            self.sandbox._connection_count += 1
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        # called once per accepted connection, when its thread is done with it
        super().shutdown_request(request)
        with self.sandbox._lock:
            self.sandbox._connection_count -= 1

    def handle_error(self, request: object, client_address: object) -> None:
        # A crawler that aborts a download (max size, shutdown) resets its connection:
        # routine for this server, not worth a traceback on stderr.
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class SandboxServer:
    """Threaded HTTP/1.1 server (keep-alive, Content-Length) for a sandbox web.

    Use ``start()``/``stop()`` or ``with SandboxServer(web) as server:``. ``port=0``
    picks a free port. With ``log_path`` every request is also appended to that file as
    a JSON line, flushed immediately, so another process can follow it.
    :attr:`in_flight` and :attr:`open_connections` let a test wait for the server to be
    done instead of sleeping.
    """

    def __init__(
        self,
        web: SandboxWeb,
        host: str = "127.0.0.1",
        port: int = 0,
        log_path: str | Path | None = None,
    ) -> None:
        self.web = web
        self.host = host
        self.port = port
        self.log_path = Path(log_path) if log_path is not None else None
        self.log: list[RequestRecord] = []
        self._lock = threading.Lock()
        self._answering_count = 0
        self._connection_count = 0
        self._log_file: IO[str] | None = None
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def proxy_url(self) -> str:
        """``http://HOST:PORT``, the value for ``http_proxy``."""
        return f"http://{self.host}:{self.port}"

    def start(self) -> SandboxServer:
        """Bind and serve in a background daemon thread; returns self."""
        if self._server is not None:
            return self
        if self.log_path is not None:
            self._log_file = self.log_path.open("a", encoding="utf-8")
        server = _Server((self.host, self.port), _Handler)
        server.sandbox = self
        self.port = server.server_address[1]
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.1},
            name=f"sandbox-server-{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop accepting requests and close the listening socket and the log file."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        with self._lock:
            if self._log_file is not None:
                self._log_file.close()
                self._log_file = None

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def requests_for(self, host: str | None = None) -> list[RequestRecord]:
        """Snapshot of the log, optionally only the requests for ``host``."""
        with self._lock:
            if host is None:
                return list(self.log)
            host = host.lower()
            return [record for record in self.log if record.host == host]

    @property
    def in_flight(self) -> int:
        """How many requests are being answered now (parsed, response not yet sent)."""
        with self._lock:
            return self._answering_count

    @property
    def open_connections(self) -> int:
        """How many client connections are open (accepted, not yet closed by either side).
        After a client process has died this drops to 0 once every request it had sent
        has been answered and logged."""
        with self._lock:
            return self._connection_count

    def clear_log(self) -> None:
        """Forget the in-memory log (the JSON log file is left alone)."""
        with self._lock:
            self.log.clear()

    def _record(self, record: RequestRecord) -> None:
        with self._lock:
            self.log.append(record)
            if self._log_file is not None:
                self._log_file.write(json.dumps(asdict(record)) + "\n")
                self._log_file.flush()

    @contextmanager
    def _answering(self) -> Iterator[None]:
        with self._lock:
            self._answering_count += 1
        try:
            yield
        finally:
            with self._lock:
                self._answering_count -= 1
