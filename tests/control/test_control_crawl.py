"""End-to-end: `scrapy control` on a real running crawl (sandbox web, real PostgreSQL):
pause stops new requests, exclude keeps queued URLs from being fetched, add-seeds queues
new URLs, resume goes on, stop closes the crawl with every fetched page stored; the
history lists the actions. Bad input: one error line, exit status 2."""

from __future__ import annotations

import re
import socket
import subprocess
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from crawler.control import store
from crawler.control.actions import make_argument
from crawler.sandbox.web import Resource, SandboxWeb, html_page
from tests.commands import run_scrapy
from tests.conftest import crawl_command
from tests.politeness.logs import target
from tests.waiting import poll_until

HUB = "http://hub.test"
# slow pages of another host, most of them still queued when the crawl is paused
B_PAGES = [f"http://b.test/b/{n}" for n in range(10)]
B_DELAY = 1.5
DELAY = 0.25  # seconds per page of the hub: the crawl runs until it is stopped


def _page(name: str, *links: str) -> bytes:
    text = f"<p>Page {name}: its own words {name} {name[::-1]}.</p>"
    return html_page(name, text + "".join(f'<a href="{u}">{u}</a>' for u in links))


def control_web() -> SandboxWeb:
    web = SandboxWeb()
    web.add_page(f"{HUB}/", _page("hub", *[f"/a/{n}" for n in range(5)], *B_PAGES))

    def chain(path: str, query: str) -> Resource | None:
        # /a/N links /a/N+1 (and /b/N is a leaf): long enough never to end by itself
        kind, _, number = path.strip("/").partition("/")
        if not number.isdigit():
            return None
        links = [f"/a/{int(number) + 1}"] if kind == "a" and int(number) < 500 else []
        delay = DELAY if kind == "a" else B_DELAY
        return Resource(_page(f"{kind}{number}", *links), delay=delay)

    web.add_dynamic("hub.test", "/a/", chain)
    web.add_dynamic("b.test", "/b/", chain)
    web.add_page("http://seeds.test/new.html", _page("new seed"))
    return web


def _page_requests(server) -> list:
    return [r for r in server.requests_for() if r.method == "GET" and r.path != "/robots.txt"]


def _url(record) -> str:
    return f"http://{record.host}{target(record)}"


@pytest.mark.slow
def test_control_actions_on_a_running_crawl(sandbox, database_url, db, tmp_path: Path):
    server = sandbox(control_web())
    crawl_id = f"control-{uuid.uuid4().hex[:8]}"
    cmd, env = crawl_command(
        "general", database_url=database_url, workdir=tmp_path, proxy=server.proxy_url,
        args={"seed_urls": f"{HUB}/", "crawl_id": crawl_id},
        settings={"CONTROL_POLL_INTERVAL": 0.3, "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
                  "DEDUP_ENABLED": False, "DEPTH_LIMIT": 0},
    )
    log = tmp_path / "crawl.log"

    def control(*args: str) -> subprocess.CompletedProcess[str]:
        return run_scrapy("control", "--crawl-id", crawl_id, *args,
                          database_url=database_url, cwd=tmp_path)

    def logged(text: str) -> bool:
        return text in log.read_text()

    def tail() -> str:
        return log.read_text()[-3000:]

    with log.open("w") as err:
        proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                                stderr=err)
    try:
        poll_until(lambda: len(_page_requests(server)) >= 2, 90, what="2 pages", details=tail)

        def give(action: str, argument: object = None) -> None:
            """Record an action as `scrapy control` does (crawler/control/store.py),
            without the command's start-up: seconds on a loaded machine, long enough for
            the b.test pages to be fetched before the pause (the command itself gives
            the stop below, and is tested on its own in test_control_bad_input...)."""
            with psycopg.connect(database_url) as conn:
                store.record(conn, crawl_id, action, argument, "cli")

        # pause: no new request (the one in flight finishes)
        give("pause")
        poll_until(lambda: logged("control: pause (action"), 30, what="pause", details=tail)
        paused_at = time.time()
        time.sleep(B_DELAY + 0.5)
        before = len(_page_requests(server))
        assert all(r.started < paused_at + B_DELAY + 0.3 for r in _page_requests(server))

        # exclude while paused (a SURT prefix): the b.test pages queued are never fetched
        give("exclude", "-http://(test,b,)/")
        poll_until(lambda: logged("control: exclude -http://(test,b,)/"), 30, what="exclude",
                   details=tail)
        seeds = tmp_path / "new-seeds.txt"
        seeds.write_text("http://seeds.test/new.html\n")
        give("add-seeds", make_argument("add-seeds", str(seeds)))
        poll_until(lambda: logged("control: add-seeds (1 URL)"), 30, what="add-seeds",
                   details=tail)
        time.sleep(1.0)
        assert len(_page_requests(server)) == before  # still paused: nothing fetched

        give("resume")
        poll_until(lambda: any(_url(r) == "http://seeds.test/new.html"
                               for r in _page_requests(server)), 30, what="the added seed",
                   details=tail)
        poll_until(lambda: len(_page_requests(server)) > before + 2, 30,
                   what="the crawl going on", details=tail)

        def b_accounted() -> tuple[set[str], set[str]] | None:
            stored = {u for (u,) in db.execute(
                "SELECT url FROM pages WHERE crawl_id = %s AND host = 'b.test'", (crawl_id,))}
            refused = {u for (u,) in db.execute(
                "SELECT url FROM uncrawled WHERE crawl_id = %s AND category = 'out_of_scope'",
                (crawl_id,))}
            return (stored, refused) if stored | refused == set(B_PAGES) else None

        stored_b, refused_b = poll_until(b_accounted, 30, what="every /b/ page accounted",
                                         details=tail)
        fetched_b = {_url(r) for r in _page_requests(server) if r.host == "b.test"}
        assert fetched_b == stored_b  # fetched before the pause, never after
        assert not stored_b & refused_b and len(refused_b) >= 5, (stored_b, refused_b)
        assert all(r.started < paused_at + 0.3
                   for r in _page_requests(server) if r.host == "b.test")

        # stop: the crawl closes by itself, every page fetched is stored
        assert control("stop").returncode == 0
        assert proc.wait(timeout=60) == 0, tail()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reason = db.execute("SELECT finish_reason FROM crawls WHERE id = %s", (crawl_id,)).fetchone()
    assert reason == ("control_stop",)
    answered = {_url(r) for r in _page_requests(server) if r.status == 200}
    stored = {u for (u,) in db.execute("SELECT url FROM pages WHERE crawl_id = %s", (crawl_id,))}
    assert answered == stored
    history = control()
    assert history.returncode == 0
    lines = history.stdout.splitlines()
    assert lines[0] == f"Crawl {crawl_id}: 5 control action(s)"
    rows = [re.fullmatch(r" *\d+  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ  cli   (.+)", line)
            for line in lines[1:]]
    assert [row.group(1) if row else line for row, line in zip(rows, lines[1:], strict=True)] == [
        "pause", "exclude -http://(test,b,)/",
        f"add-seeds (1 URL)  (queued by {socket.gethostname()}-{proc.pid})", "resume", "stop"]

def test_control_bad_input_one_error_line(migrated, db, tmp_path: Path):
    crawl_id = f"control-bad-{uuid.uuid4().hex[:8]}"
    db.execute("INSERT INTO crawls (id, spider, arguments, finished_at) "
               "VALUES (%s, 'general', '{}', now())",
               (crawl_id,))
    # (every message of a bad argument: tests/scope/test_control_actions.py)
    cases = [
        (["--crawl-id", crawl_id, "halt"],
         "error: unknown action 'halt' (one of: add-seeds, exclude, pause, resume, stop)"),
        (["--crawl-id", "no-such-crawl", "pause"], "error: no crawl with id 'no-such-crawl' in "),
        (["--crawl-id", crawl_id, "exclude", "-re:(b"],
         "error: bad rule: '-re:(b': bad regular expression: missing ), unterminated "
         "subpattern at position 0"),
        (["--crawl-id", crawl_id, "stop", "--force"],
         "error: unrecognized option --force (see scrapy control -h)"),
    ]
    for args, message in cases:
        proc = run_scrapy("control", *args, database_url=migrated, cwd=tmp_path)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(message), (
            args, proc.stderr)
    # nothing was recorded
    assert db.execute("SELECT count(*) FROM crawl_control WHERE crawl_id = %s",
                      (crawl_id,)).fetchone() == (0,)
    # a rule with its "-" after "--" (else "-http..." reads as the -h option)
    done = run_scrapy("control", "--crawl-id", crawl_id, "exclude", "--",
                      "-http://(test,hub,)/b/", database_url=migrated, cwd=tmp_path)
    assert done.returncode == 0
    assert "(the crawl is not running: its processes apply it when it runs again)" in (
        done.stdout)
    assert db.execute(
        "SELECT action, argument, source FROM crawl_control WHERE crawl_id = %s",
        (crawl_id,)).fetchall() == [("exclude", "-http://(test,hub,)/b/", "cli")]
