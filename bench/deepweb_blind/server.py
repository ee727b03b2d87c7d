"""HTTP proxy on 127.0.0.1 that serves a generated web (webgen.Web) under fake host names.

Every request is logged (phase, time, method, host, path, query, POST body, status).
https (CONNECT) is refused at once with 502. Run alone to browse a web by hand:

    python3 bench/deepweb_blind/server.py --web dev --port 8898
    curl -x http://127.0.0.1:8898 http://www.openlinkdirectory.test/
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import re
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from webgen import Web


class Log:
    def __init__(self, path: str | None = None) -> None:
        self.entries: list[dict] = []
        self.phase = "idle"
        self.lock = threading.Lock()
        self.file = open(path, "a", encoding="utf-8") if path else None

    def add(self, entry: dict) -> None:
        with self.lock:
            entry["phase"] = self.phase
            entry["n"] = len(self.entries)
            self.entries.append(entry)
            if self.file:
                self.file.write(json.dumps(entry) + "\n")
                self.file.flush()


def make_server(web: Web, log: Log, port: int = 0, latency: bool = True) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        server_version = "nginx/1.22.1"
        sys_version = ""

        def log_message(self, *args) -> None:  # quiet
            pass

        def _serve(self, method: str) -> None:
            target = self.path
            parts = urllib.parse.urlsplit(target)
            host = (parts.netloc or self.headers.get("Host", "")).lower()
            if host.endswith(":80"):
                host = host[:-3]
            path = parts.path or "/"
            body = ""
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                body = self.rfile.read(length).decode("utf-8", "replace")
            status, ctype, text = web.respond(method, host, path, parts.query, body)
            if latency:  # a little deterministic server time, 10-60 ms
                h = int(hashlib.md5(target.encode()).hexdigest()[:4], 16)
                time.sleep(0.01 + (h % 50) / 1000)
            data = text.encode("utf-8")
            listed = re.search(r'class="count">(\d+)', text)
            results = int(listed.group(1)) if listed else (0 if 'class="noresults"' in text else None)
            log.add(
                {
                    "results": results,
                    "t": time.time(),
                    "method": method,
                    "host": host,
                    "path": path,
                    "query": parts.query,
                    "body": body[:500],
                    "status": status,
                    "bytes": len(data),
                    "ua": self.headers.get("User-Agent", "")[:80],
                }
            )
            self.send_response(status)
            self.send_header("Content-Type", f"{ctype}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            if 300 <= status < 400:  # heldout43-45: a redirect's target is the one link of its body
                loc = re.search(r'href="([^"]*)"', text)
                if loc:
                    self.send_header("Location", html.unescape(loc.group(1)))
            self.send_header("Connection", "close")
            self.end_headers()
            if method != "HEAD":
                self.wfile.write(data)

        def do_GET(self) -> None:
            self._serve("GET")

        def do_POST(self) -> None:
            self._serve("POST")

        def do_HEAD(self) -> None:
            self._serve("HEAD")

        def do_CONNECT(self) -> None:
            log.add(
                {
                    "t": time.time(),
                    "method": "CONNECT",
                    "host": self.path,
                    "path": "",
                    "query": "",
                    "body": "",
                    "status": 502,
                    "bytes": 0,
                    "ua": self.headers.get("User-Agent", "")[:80],
                }
            )
            self.send_response(502, "Bad Gateway (evaluation web: no https)")
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--web", default="dev")
    ap.add_argument("--port", type=int, default=8898)
    ap.add_argument("--log")
    args = ap.parse_args()
    web = Web(args.web)
    server = make_server(web, Log(args.log), args.port)
    print(f"serving web {args.web} on http://127.0.0.1:{server.server_address[1]}; seeds: {' '.join(web.seeds)}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
