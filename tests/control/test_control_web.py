"""The control form of a crawl's page in `scrapy serve`: only a request carrying the
server's token records an action (a stranger cannot stop a crawl)."""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest
from scrapy.settings import Settings

from crawler.search import open_index
from crawler.web.app import create_app
from tests.commands import scrapy_env


@pytest.fixture
def crawl_id(migrated, db) -> str:
    crawl = f"web-control-{uuid.uuid4().hex[:8]}"
    db.execute("INSERT INTO crawls (id, spider, arguments) VALUES (%s, 'general', '{}')",
               (crawl,))
    db.execute("INSERT INTO pages (crawl_id, url, final_url, host, status, content_type, "
               "fetched_at, depth, size, content_md5) VALUES (%s, 'http://a.test/', "
               "'http://a.test/', 'a.test', 200, 'text/html', now(), 0, 10, 'x')", (crawl,))
    return crawl


def _recorded(db, crawl: str) -> list[tuple]:
    return db.execute("SELECT action, argument, source FROM crawl_control WHERE crawl_id = %s "
                      "ORDER BY id", (crawl,)).fetchall()


def _post(host: str, port: int, path: str, form: dict[str, str]) -> tuple[int, str, str]:
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("POST", path, body=urlencode(form),
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, response.getheader("Location") or "", body


def test_serve_prints_a_token_and_refuses_actions_without_it(crawl_id, migrated, db,
                                                              tmp_path: Path) -> None:
    open_index(tmp_path / "index").close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "scrapy", "serve", "--port", "0", "--index",
         str(tmp_path / "index")],
        cwd=tmp_path, env=scrapy_env(migrated), stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
    )
    try:
        first = proc.stdout.readline()  # type: ignore[union-attr]
        match = re.search(r"http://(127\.0\.0\.1):(\d+)/", first)
        assert match, f"scrapy serve did not start: {first!r}"
        second = proc.stdout.readline()  # type: ignore[union-attr]
        token_line = re.fullmatch(r"control token \(crawl pages\): (\S{32})\n", second)
        assert token_line, second
        token = token_line.group(1)
        host, port = match.group(1), int(match.group(2))
        path = f"/crawls/{crawl_id}/control"
        # a wrong token: the right one with its last character changed (a token that
        # ends in "x" made "x" the right one: 1 run in 64 failed)
        wrong = token[:-1] + ("y" if token.endswith("x") else "x")
        for form in ({"action": "stop"}, {"action": "stop", "token": ""},
                     {"action": "stop", "token": wrong}):
            status, _, body = _post(host, port, path, form)
            assert status == 403 and "wrong or missing control token" in body
        assert _recorded(db, crawl_id) == []
        # a GET never changes anything
        conn = http.client.HTTPConnection(host, port, timeout=30)
        conn.request("GET", f"{path}?action=stop&token={token}")
        assert conn.getresponse().status == 405
        conn.close()
        status, location, _ = _post(host, port, path, {"action": "pause", "token": token})
        assert status == 303
        assert location.startswith(f"/crawls/{crawl_id}?control=pause+recorded+as+action+")
        assert location.endswith("#control")
        assert _recorded(db, crawl_id) == [("pause", None, "web")]
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_control_form_with_a_configured_token(crawl_id, migrated, db, tmp_path: Path) -> None:
    ix = open_index(tmp_path / "index")
    app = create_app(Settings({"CRAWLER_DATABASE_URL": migrated, "CONTROL_TOKEN": "s3cret"}),
                     ix)
    client = app.test_client()
    try:
        path = f"/crawls/{crawl_id}/control"
        assert client.post(path, data={"action": "stop", "token": "guess"}).status_code == 403
        bad = client.post(path, data={"action": "exclude", "argument": "+re:/x/",
                                      "token": "s3cret"})
        assert bad.status_code == 400
        assert "exclude takes an exclude rule" in bad.get_data(as_text=True)
        assert client.post("/crawls/nope/control",
                           data={"action": "stop", "token": "s3cret"}).status_code == 404
        done = client.post(path, data={"action": "add-seeds", "token": "s3cret",
                                       "argument": "http://a.test/x\nhttp://b.test/\n"})
        assert done.status_code == 303
        client.post(path, data={"action": "exclude", "argument": "http://(test,b,)/",
                                "token": "s3cret"})
        assert _recorded(db, crawl_id) == [
            ("add-seeds", ["http://a.test/x", "http://b.test/"], "web"),
            ("exclude", "-http://(test,b,)/", "web"),
        ]
        page = client.get(f"/crawls/{crawl_id}?control=x").get_data(as_text=True)
        history = re.search(r'<table id="control-history".*?</table>', page, re.S)
        assert history is not None
        assert "add-seeds (2 URLs)" in history.group(0)
        assert "exclude -http://(test,b,)/" in history.group(0)
        assert 'type="password" name="token"' in page
        # no token configured at all: every action is refused
        bare = create_app(Settings({"CRAWLER_DATABASE_URL": migrated}), ix,
                          control_token=None)
        assert bare.test_client().post(path, data={"action": "stop", "token": ""}
                                       ).status_code == 403
        bare.config["SEARCH_ENGINE"].close()
    finally:
        app.config["SEARCH_ENGINE"].close()
        ix.close()
