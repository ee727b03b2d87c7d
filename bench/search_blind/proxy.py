"""A small HTTP proxy serving the collections under their fake host names.

It answers absolute-URI requests (``GET http://git-manual.test/docs/git.html``) from the
Debian packages' files, with a Content-Type from the file's extension (and the charset
the HTML declares), a robots.txt allowing everything, 301 redirects for the packages'
symbolic links and for folders, 404 for anything else, and 502 to CONNECT (no https).
Only the pages of a collection's page set are served as HTML (the deterministic cap).
Every request is appended to a log (JSON lines). Binds to 127.0.0.1 only.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from collections_def import Collection, content_type, resolve


class _Handler(BaseHTTPRequestHandler):
    server_version = "search-blind-docs/1.0"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def _log(self, status: int) -> None:
        srv: DocsProxy = self.server.docs  # type: ignore[attr-defined]
        srv.record(self.command, self.path, status)

    def _send(
        self,
        status: int,
        body: bytes,
        ctype: str = "text/plain; charset=utf-8",
        extra: dict | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self._log(status)

    def do_CONNECT(self) -> None:  # noqa: N802
        self._send(502, b"no https here\n", extra={"Connection": "close"})
        self.close_connection = True

    def do_HEAD(self) -> None:  # noqa: N802
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802
        srv: DocsProxy = self.server.docs  # type: ignore[attr-defined]
        parts = urlsplit(self.path)
        host = (parts.hostname or self.headers.get("Host", "").split(":")[0]).lower()
        coll = srv.by_host.get(host)
        if coll is None:
            self._send(404, f"unknown host {host}\n".encode())
            return
        if parts.path == "/robots.txt":
            self._send(200, b"User-agent: *\nAllow: /\n")
            return
        rel = coll.rel(f"http://{host}{parts.path}")
        if rel is None:
            self._send(404, b"not found\n")
            return
        kind, val = resolve(coll, rel)
        if kind in ("redirect", "dir"):
            self._send(301, b"moved\n", extra={"Location": coll.url(val)})  # type: ignore[arg-type]
            return
        if kind != "file":
            self._send(404, b"not found\n")
            return
        allowed = srv.allowed.get(coll.name)
        if allowed is not None and rel.endswith((".html", ".htm")) and rel not in allowed:
            self._send(404, b"not in this collection\n")
            return
        with open(val, "rb") as f:  # type: ignore[arg-type]
            body = f.read()
        self._send(200, body, content_type(rel, body))


class DocsProxy:
    def __init__(
        self,
        collections: list[Collection],
        allowed: dict[str, set[str]],
        log_path: str | None = None,
        port: int = 0,
    ) -> None:
        self.by_host = {c.host: c for c in collections}
        self.allowed = allowed
        self._log_file = open(log_path, "a", encoding="utf-8") if log_path else None  # noqa: SIM115
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.docs = self  # type: ignore[attr-defined]
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def record(self, method: str, url: str, status: int) -> None:
        if self._log_file is None:
            return
        with self._lock:
            self._log_file.write(
                json.dumps(
                    {"t": round(time.time(), 3), "method": method, "url": url, "status": status}
                )
                + "\n"
            )
            self._log_file.flush()

    def start(self) -> DocsProxy:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        if self._log_file:
            self._log_file.close()
