"""Tests of the sandbox web: model, ground truth, synthetic generator, server and CLI."""

from __future__ import annotations

import difflib
import gzip
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from crawler.sandbox import (
    DEFAULT_SITES,
    SandboxServer,
    SandboxWeb,
    add_debian_docs,
    build_synthetic_web,
    html_page,
)
from crawler.sandbox.corpora import DEBIAN_DOC_SITES
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


# -- fixtures ---------------------------------------------------------------------------


def small_web() -> SandboxWeb:
    """a.test/ -> x.html, b.test/, /secret/ (robots), mailto; x -> /old (301), /missing."""
    web = SandboxWeb()
    web.add_page("http://a.test/", html_page("A", (
        '<a href="/x.html">x</a> <a href="http://b.test/">b</a> '
        '<a href="/secret/s.html">secret</a> <a href="mailto:me@a.test">mail</a> '
        '<a href="javascript:void(0)">js</a>')))
    web.add_page("http://a.test/x.html", html_page("X", (
        '<a href="old">old</a> <a href="/missing#frag">missing</a> <a href="/x.html#top">self</a>'
    )))
    web.add_redirect("http://a.test/old", "/new.html")
    web.add_page("http://a.test/new.html", html_page("New", '<a href="deep.html">deep</a>'))
    web.add_page("http://a.test/deep.html", html_page("Deep", "<p>bottom</p>"))
    web.add_page("http://a.test/secret/s.html", html_page("S", '<a href="/hidden.html">h</a>'))
    web.add_page("http://a.test/hidden.html", html_page("H", ""))
    web.set_robots("a.test", "User-agent: *\nDisallow: /secret/\n")
    web.add_page("http://b.test/", html_page("B", (
        '<a href="http://c.test/">c</a> <a href="http://d.test/img.png">img</a>')))
    web.add_page("http://c.test/", html_page("C", "<p>c</p>"))
    web.set_robots("c.test", "oops", status=503)
    web.add_page("http://d.test/img.png", b"\x89PNG", content_type="image/png")
    web.set_robots("d.test", "nothing here", status=404)
    web.add_page("http://a.test/slow.html", html_page("Slow", ""), delay=0.6)
    web.add_page("http://a.test/list.html?view=1", html_page("List", "list"), any_query=True)
    return web


@pytest.fixture(scope="module")
def web() -> SandboxWeb:
    return small_web()


@pytest.fixture(scope="module")
def server(web: SandboxWeb, tmp_path_factory: pytest.TempPathFactory):
    log_path = tmp_path_factory.mktemp("sandbox") / "requests.jsonl"
    with SandboxServer(web, log_path=log_path) as running:
        yield running


@pytest.fixture(scope="module")
def synthetic() -> SandboxWeb:
    return build_synthetic_web()


@pytest.fixture(scope="module")
def clean() -> SandboxWeb:
    return build_synthetic_web(trap=False, faults=False)


def via_proxy(server: SandboxServer, url: str, method: str = "GET"):
    opener = urllib.request.build_opener(
        urllib.request.ProxyHandler({"http": server.proxy_url}),
        urllib.request.HTTPRedirectHandler(),
    )
    request = urllib.request.Request(url, method=method)
    try:
        response = opener.open(request, timeout=10)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    with response:
        return response.status, dict(response.headers), response.read()


# -- server -----------------------------------------------------------------------------


def test_proxy_form_request(server: SandboxServer, web: SandboxWeb) -> None:
    status, headers, body = via_proxy(server, "http://a.test/x.html")
    assert status == 200
    assert body == web.resource("http://a.test/x.html").body
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Content-Length"] == str(len(body))


def test_host_header_request_and_keep_alive(server: SandboxServer, web: SandboxWeb) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/deep.html", headers={"Host": "a.test"})
        first = conn.getresponse()
        assert first.status == 200
        assert first.read() == web.resource("http://a.test/deep.html").body
        sock = conn.sock
        conn.request("GET", "http://b.test/")
        second = conn.getresponse()
        assert second.status == 200
        second.read()
        assert conn.sock is sock  # same keep-alive connection
        conn.request("GET", "/nothing-here", headers={"Host": "a.test"})
        missing = conn.getresponse()
        assert missing.status == 404
        assert b"404" in missing.read()
        assert missing.getheader("Content-Type").startswith("text/html")
    finally:
        conn.close()


def test_head_redirect_any_query(server: SandboxServer) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("HEAD", "http://a.test/x.html")
        head = conn.getresponse()
        assert head.status == 200
        assert int(head.getheader("Content-Length")) > 0
        assert head.read() == b""
        conn.request("GET", "http://a.test/old")
        redirect = conn.getresponse()
        redirect.read()
        assert (redirect.status, redirect.getheader("Location")) == (301, "/new.html")
    finally:
        conn.close()
    for query in ("", "?view=1", "?view=2&sort=a", "?sid=1"):
        status, _, body = via_proxy(server, f"http://a.test/list.html{query}")
        assert (status, b"list" in body) == (200, True)


def test_unknown_host_closes_connection(server: SandboxServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET http://nowhere.test/ HTTP/1.1\r\nHost: nowhere.test\r\n\r\n")
        assert sock.recv(1024) == b""
    records = server.requests_for("nowhere.test")
    assert records and records[-1].status == 0


def test_request_log_and_json_lines(server: SandboxServer) -> None:
    server.clear_log()
    before = time.time()
    via_proxy(server, "http://a.test/list.html?b=2&a=1")
    via_proxy(server, "http://b.test/")
    (record,) = server.requests_for("a.test")
    assert (record.host, record.path, record.query, record.method, record.status) == (
        "a.test", "/list.html", "b=2&a=1", "GET", 200)
    assert before <= record.started <= record.finished <= time.time()
    assert [r.host for r in server.requests_for()] == ["a.test", "b.test"]
    lines = server.log_path.read_text().splitlines()
    last = json.loads(lines[-1])
    assert last["host"] == "b.test" and last["path"] == "/" and last["status"] == 200
    assert set(last) == {"host", "path", "query", "method", "status", "started", "finished",
                         "user_agent"}


def test_server_counts_requests_in_flight_and_open_connections() -> None:
    with SandboxServer(small_web()) as server:
        assert (server.in_flight, server.open_connections) == (0, 0)
        conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
        conn.request("GET", "http://a.test/list.html")
        response = conn.getresponse()
        assert response.status == 200 and response.read()
        # answered; the keep-alive connection stays open, waiting for the next request
        wait_until(lambda: server.in_flight == 0, timeout=10, interval=0.005,
                   what="the request to be done")
        assert server.open_connections == 1
        conn.close()
        wait_until(lambda: server.open_connections == 0, timeout=10, interval=0.005,
                   what="the server to see the connection closed")


def test_delay_does_not_block_other_requests(server: SandboxServer) -> None:
    results: dict[str, float] = {}

    def slow() -> None:
        start = time.monotonic()
        via_proxy(server, "http://a.test/slow.html")
        results["slow"] = time.monotonic() - start

    wait_until(lambda: server.in_flight == 0, timeout=10, interval=0.005,
               what="earlier tests' requests to be done")
    thread = threading.Thread(target=slow)
    thread.start()
    wait_until(lambda: server.in_flight == 1, timeout=10, interval=0.005,
               what="the slow request to be in flight")
    start = time.monotonic()
    status, _, _ = via_proxy(server, "http://a.test/deep.html")
    fast = time.monotonic() - start
    thread.join()
    # the count drops just after the last byte is written: the client may be faster
    wait_until(lambda: server.in_flight == 0, timeout=10, interval=0.005,
               what="the server to be idle")
    assert status == 200
    assert fast < 0.4
    assert results["slow"] >= 0.6
    record = server.requests_for("a.test")[-1]
    assert record.path == "/slow.html" and record.finished - record.started >= 0.6


# -- model and ground truth -------------------------------------------------------------


def test_outlinks_resolution() -> None:
    web = SandboxWeb()
    web.add_page("http://h.test/dir/page.html", html_page("P", (
        '<a href="../up.html">up</a> <a href=" rel.html#frag ">rel</a> '
        '<a href="//other.test/p?b=2&amp;a=1">proto</a> <a href="javascript:go()">js</a> '
        '<a href="mailto:x@h.test">m</a> <a href="tel:+1">t</a> <a href="data:text/html,x">d</a>'
        '<a href="ftp://h.test/f">ftp</a> <a>no href</a> <a href="/up.html">dup</a>'
        '<map name="m"><area href="/area.html" alt="a"></map> <link href="/style.css">')))
    assert web.outlinks("http://h.test/dir/page.html") == [
        "http://h.test/up.html",
        "http://h.test/dir/rel.html",
        "http://other.test/p?a=1&b=2",
        "http://h.test/area.html",
    ]
    web.add_page("http://h.test/dir/based.html", (
        '<html><head><base href="/other/dir/"></head><body>'
        '<a href="x.html">x</a> <a href="../y.html">y</a> <a href="#s">frag</a>'
        '<a href="http://abs.test/">abs</a></body></html>'))
    assert web.outlinks("http://h.test/dir/based.html") == [
        "http://h.test/other/dir/x.html",
        "http://h.test/other/y.html",
        "http://h.test/other/dir/",
        "http://abs.test/",
    ]
    web.add_page("http://h.test/t.txt", '<a href="/no.html">x</a>', content_type="text/plain")
    assert web.outlinks("http://h.test/t.txt") == []
    assert web.outlinks("http://h.test/missing") == []


def test_reachable_exact(web: SandboxWeb) -> None:
    assert web.reachable(["http://a.test/"]) == {
        "http://a.test/": 0,
        "http://a.test/x.html": 1,
        "http://b.test/": 1,
        "http://a.test/old": 2,
        "http://a.test/new.html": 2,
        "http://a.test/missing": 2,
        "http://d.test/img.png": 2,
        "http://a.test/deep.html": 3,
    }
    assert web.reachable(["http://a.test/"], obey_robots=False) == {
        "http://a.test/": 0,
        "http://a.test/x.html": 1,
        "http://b.test/": 1,
        "http://a.test/secret/s.html": 1,
        "http://a.test/old": 2,
        "http://a.test/new.html": 2,
        "http://a.test/missing": 2,
        "http://c.test/": 2,
        "http://d.test/img.png": 2,
        "http://a.test/hidden.html": 2,
        "http://a.test/deep.html": 3,
    }
    assert web.reachable(["http://a.test/"], max_depth=1) == {
        "http://a.test/": 0, "http://a.test/x.html": 1, "http://b.test/": 1}
    assert len(web.reachable(["http://a.test/"], max_pages=4)) == 4
    assert "http://d.test/img.png" not in web.reachable(["http://a.test/"],
                                                        deny_extensions=["png"])
    web_with_dead_link = small_web()
    web_with_dead_link.add_page("http://c.test/", html_page("C", '<a href="http://x.test/">x'))
    assert "http://x.test/" in web_with_dead_link.reachable(["http://c.test/"],
                                                             obey_robots=False)
    assert "http://x.test/" not in web_with_dead_link.reachable(
        ["http://c.test/"], obey_robots=False, known_hosts_only=True)
    assert web.robots_allows("http://a.test/x.html")
    assert not web.robots_allows("http://a.test/secret/s.html")
    assert not web.robots_allows("http://c.test/")  # robots.txt answers 503
    assert web.robots_allows("http://d.test/img.png")  # robots.txt answers 404
    assert web.is_html_ok("http://a.test/old")
    assert not web.is_html_ok("http://a.test/missing")
    assert not web.is_html_ok("http://d.test/img.png")
    assert web.final_url("http://a.test/old") == "http://a.test/new.html"
    graph = web.link_graph(["http://a.test/"])
    assert set(graph) == {"http://a.test/", "http://a.test/x.html", "http://b.test/",
                          "http://a.test/new.html", "http://a.test/deep.html"}
    assert graph["http://a.test/new.html"] == ["http://a.test/deep.html"]
    assert "http://a.test/hidden.html" in web.link_graph()


def test_directory_site_with_gz_fallback(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text('<a href="sub/">sub</a> <a href="page.html">p</a>')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "index.html").write_text("<p>sub index</p>")
    (tmp_path / "page.html.gz").write_bytes(gzip.compress(b"<p>unzipped</p>"))
    (tmp_path / "style.css").write_text("p {}")
    web = SandboxWeb()
    web.add_directory_site("files.test", tmp_path)
    assert web.outlinks("http://files.test/") == [
        "http://files.test/sub/", "http://files.test/page.html"]
    with SandboxServer(web) as server:
        assert via_proxy(server, "http://files.test/page.html")[::2] == (200, b"<p>unzipped</p>")
        status, headers, body = via_proxy(server, "http://files.test/style.css")
        assert (status, headers["Content-Type"], body) == (200, "text/css", b"p {}")
        # urllib follows the 301 from /sub to /sub/
        assert via_proxy(server, "http://files.test/sub")[::2] == (200, b"<p>sub index</p>")
        assert via_proxy(server, "http://files.test/../../etc/passwd")[0] == 404
        assert via_proxy(server, "http://files.test/nope.html")[0] == 404
    assert web.resource("http://files.test/sub").status == 301


def test_debian_docs() -> None:
    web = SandboxWeb()
    seeds = add_debian_docs(web)
    missing = [path for path in DEBIAN_DOC_SITES.values()
               if not (Path(path) / "index.html").is_file()]
    # scripts/setup.sh --test installs them (python3.11-doc, postgresql-doc-15,
    # python-django-doc); a machine without them cannot run the documentation crawls
    assert missing == [], (
        f"Debian documentation not installed: {missing}; run scripts/setup.sh --test as root")
    assert seeds == [f"http://{host}/" for host in DEBIAN_DOC_SITES]
    for seed in seeds:
        assert web.is_html_ok(seed)
        assert len(web.outlinks(seed)) > 10
    local = web.reachable(seeds[:1], max_depth=1, known_hosts_only=True)
    assert len(local) > 10
    assert {urlsplit(url).netloc for url in local} == {urlsplit(seeds[0]).netloc}


# -- synthetic web ----------------------------------------------------------------------


def snapshot(web: SandboxWeb) -> dict[str, tuple]:
    return {url: (r.status, r.body, r.content_type, r.headers, r.delay)
            for url in web.urls() for r in [web.resource(url)]}


def test_determinism(synthetic: SandboxWeb) -> None:
    again = build_synthetic_web(7)
    assert snapshot(again) == snapshot(synthetic)
    assert again.seeds == synthetic.seeds and again.faults == synthetic.faults
    assert again.topics == synthetic.topics
    other = build_synthetic_web(8)
    assert snapshot(other) != snapshot(synthetic)
    assert other.seeds == synthetic.seeds  # same hosts, different pages


def test_clean_synthetic_web(clean: SandboxWeb) -> None:
    reachable = clean.reachable(clean.seeds)
    assert all(clean.is_html_ok(url) for url in reachable)
    per_host = Counter(urlsplit(url).netloc for url in reachable)
    assert sum(per_host.values()) >= 400
    for host in DEFAULT_SITES:
        assert 50 <= per_host[host] <= 120, (host, per_host[host])
    assert not clean.faults and not clean.traps
    assert not any("trap" in host or host == "old.delta.test" for host in clean.hosts)
    assert clean.reachable([clean.portal]).keys() >= set(reachable)
    # robots-disallowed directory: linked, served, but not reachable when obeying robots
    members = [u for u in clean.urls() if u.startswith("http://www.beta.test/members/")]
    assert members and not set(members) & set(reachable)
    ignoring = clean.reachable(clean.seeds, obey_robots=False)
    assert set(members) <= set(ignoring)
    allowed_drafts = [u for u in reachable if "/drafts/" in u]
    assert len(allowed_drafts) == 1


def test_topics_and_links(clean: SandboxWeb) -> None:
    java = [u for u in clean.urls() if u.startswith("http://www.javadev.test/")
            and clean.is_html_ok(u)]
    assert java and all(clean.topic_of(u) == "java" for u in java)
    body = clean.resource(java[-1]).body.decode()
    assert len(re.findall(r"\b(java|jvm|class|bytecode|spring|garbage collector)\b",
                          body.lower())) >= 1
    assert clean.topic_of("http://www.alpha.test/") == "cooking"
    html_bodies = b"".join(clean.resource(u).body for u in clean.urls())
    for marker in (b"<b><a ", b"<strong><a ", b"<i><a ", b"<em><a ", b"<b><i><a ",
                   b'style="font-weight:bold"', b'style="font-style:italic"', b"<area ",
                   b'href="../', b'href="#sec', b"<base href=", b'href="mailto:',
                   b'href="javascript:', b'href="//'):
        assert marker in html_bodies, marker
    # in-link distribution is skewed: the most linked page has many times the median
    inlinks = Counter(link for links in clean.link_graph(clean.seeds).values()
                      for link in set(links))
    counts = sorted(inlinks.values())
    assert counts[-1] >= 8 * counts[len(counts) // 2]
    portal_links = clean.outlinks(clean.portal)
    assert portal_links == clean.seeds


def test_mirrors(clean: SandboxWeb) -> None:
    assert len(clean.duplicate_of) == len(clean.near_duplicate_of) == 21  # 19 articles, 2 indexes
    reachable = clean.reachable(clean.seeds)
    for mirror, original in clean.duplicate_of.items():
        assert clean.resource(mirror).body == clean.resource(original).body
        assert mirror in reachable
        # the copy's local links stay inside the copied pages or point to the original
        for link in clean.outlinks(mirror):
            assert clean.is_html_ok(link)
    ratios = []
    for near, original in clean.near_duplicate_of.items():
        assert near in reachable
        a = clean.resource(original).body.decode()
        b = clean.resource(near).body.decode()
        assert a != b and "Archived copy" in b and "Archived copy" not in a
        words_a, words_b = re.findall(r"\w+", a), re.findall(r"\w+", b)
        ratios.append(difflib.SequenceMatcher(None, words_a, words_b, autojunk=False).ratio())
    assert 0.9 < min(ratios) and max(ratios) < 1.0


def test_faults_trap_and_robots(synthetic: SandboxWeb, monkeypatch: pytest.MonkeyPatch) -> None:
    faults = synthetic.faults
    expected_status = {"not_found": 404, "forbidden": 403, "unavailable": 503, "slow": 200,
                       "image": 200, "pdf": 200, "text": 200, "broken_html": 200,
                       "windows_1252": 200, "no_charset": 200, "redirect": 301, "large": 200,
                       "query_explosion": 200, "session_id": 200, "robots_5xx": 200}
    for kind, status in expected_status.items():
        assert synthetic.fetch(faults[kind]).status == status, kind
    assert synthetic.fetch(faults["dead_host"]) is None
    assert synthetic.resource(faults["slow"]).delay == 1.5
    assert synthetic.resource(faults["image"]).body.startswith(b"\x89PNG")
    assert synthetic.resource(faults["pdf"]).content_type == "application/pdf"
    assert len(synthetic.resource(faults["large"]).body) >= 3_000_000
    cp1252 = synthetic.resource(faults["windows_1252"])
    assert cp1252.content_type == "text/html"
    assert "crème brûlée" in cp1252.body.decode("cp1252")
    assert b'<meta charset="windows-1252">' in cp1252.body
    assert b"charset" not in synthetic.resource(faults["no_charset"]).body
    assert synthetic.is_html_ok(faults["redirect"])
    assert not synthetic.robots_allows(faults["robots_5xx"])

    monkeypatch.setattr("crawler.sandbox.web.SAFETY_LIMIT", 200)
    with pytest.raises(RuntimeError, match="max_pages"):
        synthetic.reachable([synthetic.traps["calendar"]])
    reachable = synthetic.reachable(synthetic.seeds, max_pages=1500)
    assert len(reachable) == 1500  # the calendar trap never ends
    assert synthetic.traps["calendar"] in reachable
    for kind, url in faults.items():
        if kind != "robots_5xx":
            assert url in reachable or kind in ("query_explosion", "session_id"), kind
    listing = faults["query_explosion"]
    variants = [u for u in reachable if u.startswith(listing + "?")]
    assert len(variants) == 48
    assert len({synthetic.resource(u).body for u in variants}) == 1
    sessions = [u for u in reachable if "/account/login" in u]
    assert {"sid=", "jsessionid=", "PHPSESSID="} <= {
        m for u in sessions for m in ("sid=", "jsessionid=", "PHPSESSID=") if m in u}
    assert len({synthetic.resource(u).body for u in sessions}) == 1

    calendar = synthetic.outlinks(synthetic.traps["calendar"])
    assert "http://calendar.trap.test/cal/2026/12" in calendar
    assert "http://calendar.trap.test/cal/2026/10" in calendar
    assert "http://calendar.trap.test/cal/2026/11/30" in calendar
    assert synthetic.is_html_ok("http://calendar.trap.test/cal/31999/01/30")
    assert not synthetic.is_html_ok("http://calendar.trap.test/cal/2026/13")
    assert synthetic.fetch("http://www.beta.test/robots.txt").status == 200
    assert synthetic.fetch("http://news.alpha.test/robots.txt").status == 404


def test_synthetic_served_through_proxy(synthetic: SandboxWeb) -> None:
    with SandboxServer(synthetic) as server:
        for seed in synthetic.seeds:
            status, headers, body = via_proxy(server, seed)
            assert (status, body) == (200, synthetic.resource(seed).body)
        status, headers, body = via_proxy(server, synthetic.faults["image"])
        assert (status, headers["Content-Type"]) == (200, "image/png")
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "http://calendar.trap.test/cal/2027/02")
        response = conn.getresponse()
        assert response.status == 200 and b"/cal/2027/02/28" in response.read()
        conn.close()
    assert [r.host for r in server.log[:len(synthetic.seeds)]] == [
        urlsplit(s).netloc for s in synthetic.seeds]


# -- CLI --------------------------------------------------------------------------------


def test_cli_serves_until_sigterm(tmp_path: Path) -> None:
    log_path = tmp_path / "log.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "crawler.sandbox", "--no-docs", "--log", str(log_path)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        first = process.stdout.readline().split()
        assert first[0] == "proxy" and first[1].startswith("http://127.0.0.1:")
        seeds = [process.stdout.readline().strip() for _ in DEFAULT_SITES]
        assert seeds == build_synthetic_web().seeds
        proxy = urllib.request.ProxyHandler({"http": first[1]})
        with urllib.request.build_opener(proxy).open(seeds[0], timeout=10) as response:
            assert response.status == 200
        assert json.loads(log_path.read_text().splitlines()[0])["host"] == "www.alpha.test"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
