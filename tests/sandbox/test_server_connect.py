"""The sandbox proxy answers CONNECT (https through the proxy) at once with 502.

Before, it closed the connection without an answer and a crawler waited for its download
timeout on every https link.
"""

from __future__ import annotations

import json
import socket
import time
from collections import Counter

import pytest

from crawler.sandbox import SandboxServer, SandboxWeb, html_page
from crawler.sandbox.server import CONNECT_REFUSED_BODY


def _read_until_closed(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(4096):
        chunks.append(chunk)
    return b"".join(chunks)


def test_connect_is_answered_with_502_and_logged(tmp_path) -> None:
    web = SandboxWeb()
    web.add_page("http://a.test/", html_page("A", ""))
    log_path = tmp_path / "requests.jsonl"
    with SandboxServer(web, log_path=log_path) as server:
        before = time.time()
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(b"CONNECT a.test:443 HTTP/1.1\r\nHost: a.test:443\r\n\r\n")
            answer = _read_until_closed(sock)  # the server closes: no tunnel follows
        head, _, body = answer.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in header_lines)
        assert status_line == "HTTP/1.1 502 Bad Gateway (sandbox web: no https)"
        assert body == CONNECT_REFUSED_BODY
        assert (headers["Content-Type"], headers["Content-Length"], headers["Connection"]) == (
            "text/plain; charset=utf-8", str(len(CONNECT_REFUSED_BODY)), "close")

        # plain http on the same server still works and is logged after the CONNECT
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(b"GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\n"
                         b"Connection: close\r\n\r\n")
            assert _read_until_closed(sock).startswith(b"HTTP/1.1 200 OK\r\n")

        records = server.requests_for()
        assert [(r.host, r.path, r.query, r.method, r.status) for r in records] == [
            ("a.test:443", "", "", "CONNECT", 502),
            ("a.test", "/", "", "GET", 200),
        ]
        assert before <= records[0].started <= records[0].finished <= time.time()
        assert server.requests_for("a.test:443") == records[:1]
    logged = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [(r["host"], r["method"], r["status"]) for r in logged] == [
        ("a.test:443", "CONNECT", 502), ("a.test", "GET", 200)]


@pytest.mark.slow
def test_crawl_records_https_links_fast(sandbox, run_crawl, db) -> None:
    """A real crawl through the sandbox: https links fail at once, not after a timeout.

    The crawler asks for robots.txt before any page of an https host; the tunnel is
    refused, so robots.txt is unreachable and (RFC 9309) the whole host is disallowed:
    every https URL lands in ``robots_disallowed`` with the tunnel error as its detail.
    """
    web = SandboxWeb()
    web.add_page("http://a.test/", html_page("A", (
        '<a href="https://s.test/page.html">s</a> <a href="https://a.test/x.html">x</a> '
        '<a href="/local.html">local</a>')))
    web.add_page("http://a.test/local.html", html_page("Local", "<p>here</p>"))
    server = sandbox(web)
    timeout = 20
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": "http://a.test/"},
        settings={"DOWNLOAD_TIMEOUT": timeout},
    ).check()

    pages = db.execute(
        "SELECT url FROM pages WHERE crawl_id = %s ORDER BY url", (result.crawl_id,)
    ).fetchall()
    assert pages == [("http://a.test/",), ("http://a.test/local.html",)]
    uncrawled = db.execute(
        "SELECT url, category, detail FROM uncrawled WHERE crawl_id = %s ORDER BY url",
        (result.crawl_id,),
    ).fetchall()
    assert [(url, category) for url, category, _ in uncrawled] == [
        ("https://a.test/x.html", "robots_disallowed"),
        ("https://s.test/page.html", "robots_disallowed"),
    ]
    for url, _, detail in uncrawled:
        origin = url.split("/")[2]
        assert detail.startswith(f"robots.txt of https://{origin}:443 unreachable (TunnelError:")
        assert "'status': 502" in detail

    # one CONNECT per https origin: a refused tunnel makes the origin dead, robots.txt is
    # not retried (RETRY_TIMES = 1 notwithstanding) and its URLs cost no request
    connects = [r for r in server.requests_for() if r.method == "CONNECT"]
    assert Counter((r.host, r.status) for r in connects) == {
        ("a.test:443", 502): 1, ("s.test:443", 502): 1}
    elapsed = db.execute(
        "SELECT (stats->>'elapsed_time_seconds')::float8 FROM crawls WHERE id = %s",
        (result.crawl_id,),
    ).fetchone()[0]
    # an unanswered CONNECT would hold the crawl for at least the download timeout
    assert elapsed < timeout
