"""The offline demo (`python -m crawler.demo`) with a search index of an older schema in
its data folder: the demo rebuilds its own index; a user's crawl keeps the clear error."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from whoosh import index as whoosh_index
from whoosh.fields import ID, TEXT, Schema

from crawler.demo import NEXT_QUERIES
from crawler.sandbox import SandboxWeb, html_page
from crawler.search.index import INDEX_NAME, open_index
from crawler.storage.database import CrawlDatabase, EmbeddedPostgres
from tests.commands import PROJECT_DIR

pytestmark = pytest.mark.slow



def old_schema_index(path: Path) -> None:
    """An index as an older version of the project could have left it."""
    path.mkdir(parents=True)
    ix = whoosh_index.create_in(
        str(path), Schema(url=ID(stored=True, unique=True), body=TEXT), indexname=INDEX_NAME)
    writer = ix.writer()
    writer.add_document(url="http://old.test/", body="old")
    writer.commit()
    ix.close()


def indexed_urls(path: Path) -> set[str]:
    ix = open_index(path, create=False)
    try:
        with ix.searcher() as searcher:
            return {fields["url"] for fields in searcher.all_stored_fields()}
    finally:
        ix.close()


def run_demo(cwd: Path, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_DIR),
           # ignored: the demo's crawl and summary both use its embedded database
           "CRAWLER_DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none"}
    for var in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        env.pop(var, None)
    # a run that hangs shows where: SIGABRT makes every Python process of the demo (its
    # crawl and indexer too) print all its threads' stacks (a CI run once waited 300 s
    # with no line from the crawl)
    env["PYTHONFAULTHANDLER"] = "1"
    cmd = [sys.executable, "-m", "crawler.demo", "--data-dir", str(data_dir), "--no-docs",
           "--max-pages", "20"]
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, process_group=0)
    try:
        out, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGABRT)
        time.sleep(2)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the demo did not end in 300 s; stdout:\n{out[-2000:]}\n"
                    f"stacks:\n{err[-30000:]}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def test_demo_rebuilds_its_own_outdated_index(tmp_path: Path) -> None:
    data_dir = tmp_path / ".crawl"
    index_dir = data_dir / "index"
    old_schema_index(index_dir)

    first = run_demo(tmp_path, data_dir)
    assert first.returncode == 0, first.stderr[-4000:]
    lines = first.stdout.splitlines()
    assert lines[:2] == [
        f"demo: the search index in {index_dir} was built with another schema (an older "
        f"version); rebuilding the demo's index from embedded PostgreSQL in "
        f"{data_dir / 'pgdata'}",
        f"demo: search index {index_dir} rebuilt: 0 pages",  # a new database: no pages yet
    ]
    assert "SearchIndexError" not in first.stderr
    first_crawl = re.search(r"^crawl (demo-\S+) \(general\): ", first.stdout, re.M)
    assert first_crawl, first.stdout

    # the index is current now: a second demo run does not rebuild it and adds its pages
    second = run_demo(tmp_path, data_dir)
    assert second.returncode == 0, second.stderr[-4000:]
    assert not second.stdout.startswith("demo:")
    second_crawl = re.search(r"^crawl (demo-\S+) \(general\): ", second.stdout, re.M)
    assert second_crawl and second_crawl[1] != first_crawl[1]

    db = CrawlDatabase(url="", embedded=EmbeddedPostgres(data_dir / "pgdata"))
    db.prepare()
    try:
        with db.connect() as conn:
            stored = {url for (url,) in conn.execute("SELECT DISTINCT url FROM pages")}
            crawls = conn.execute("SELECT count(*) FROM crawls").fetchone()[0]
    finally:
        db.close()
    assert crawls == 2 and stored
    assert indexed_urls(index_dir) == stored  # the old document went with the old schema


def test_a_users_crawl_keeps_the_error(sandbox, run_crawl, tmp_path: Path) -> None:
    web = SandboxWeb()
    web.add_page("http://a.test/", html_page("A", "<p>a</p>"))
    server = sandbox(web)
    index_dir = tmp_path / ".crawl" / "index"  # run_crawl's CRAWLER_DATA_DIR
    old_schema_index(index_dir)
    result = run_crawl(proxy=server.proxy_url, args={"seed_urls": "http://a.test/"})
    assert (
        f"SearchIndexError: the index in {index_dir} was built with another schema; rebuild "
        "it with `scrapy reindex`"
    ) in result.stderr
    ix = whoosh_index.open_dir(str(index_dir), indexname=INDEX_NAME)
    try:
        assert set(ix.schema.names()) == {"url", "body"}  # left as it was
        assert ix.doc_count() == 1
    finally:
        ix.close()



def test_demo_ends_with_the_next_commands_and_they_work(open_tmp_path: Path) -> None:
    data_dir = open_tmp_path / ".crawl"
    demo = run_demo(PROJECT_DIR, data_dir)  # from the project folder, as scripts/demo.sh
    assert demo.returncode == 0, demo.stderr[-4000:]
    assert ("demo: the sandbox web has deliberately faulty pages (server errors, dropped "
            "connections, slow pages, a calendar trap, robots.txt rules): log lines about "
            "them below are expected; the summary counts them under 'not crawled'"
            ) in demo.stdout.splitlines()
    crawl_id = re.search(r"^crawl (demo-\S+) \(general\): ", demo.stdout, re.M)[1]
    lines = demo.stdout.splitlines()
    assert lines[-4] == "next: search, browse and report on the demo's data (paste these here):"
    search, serve, report = (line.strip() for line in lines[-3:])
    scrapy = os.path.relpath(Path(sys.executable).with_name("scrapy"), PROJECT_DIR)
    # the demo's data, whatever CRAWLER_DATABASE_URL says (run_demo sets one)
    prefix, suffix = f"CRAWLER_DATABASE_URL= {scrapy} ", f" -s CRAWLER_DATA_DIR={data_dir}"
    query = re.fullmatch(re.escape(prefix) + r"search (\S+)" + re.escape(suffix), search)
    assert query and query[1] in NEXT_QUERIES, search
    assert serve == (f"{prefix}serve{suffix}    # then open http://127.0.0.1:8080/ (Ctrl-C "
                     "stops it)")
    assert report == f"{prefix}report --crawl-id {crawl_id}{suffix}"

    env = {**os.environ, "CRAWLER_DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none"}
    for command in (search, report):  # pasted into a shell in the project folder
        done = subprocess.run(["bash", "-c", command], cwd=PROJECT_DIR, env=env,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (command, done.stderr[-3000:])
        assert done.stdout.strip()
    found = subprocess.run(["bash", "-c", search], cwd=PROJECT_DIR, env=env,
                           capture_output=True, text=True, timeout=300)
    assert re.match(r"1-\d+ of \d+ results", found.stdout), found.stdout[:500]

    server = subprocess.Popen(["bash", "-c", serve], cwd=PROJECT_DIR, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              start_new_session=True)
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("search UI on http://127.0.0.1:8080/ "), line
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open("http://127.0.0.1:8080/search?q=" + query[1], timeout=30) as page:
            assert 'id="count">' in page.read().decode()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
