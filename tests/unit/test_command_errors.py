"""One error convention for every command of the project: a usage or input error prints
one ``error: ...`` line on stderr (no usage text, no ``scrapy: error:``, no traceback)
and exits with status 2. Each case runs the real command as a subprocess."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from crawler.search.index import rebuild_index
from crawler.search.schema import page_document
from crawler.storage.schema import MIGRATIONS
from tests.commands import free_port, scrapy_env
from tests.waiting import wait_until


def scrapy(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args], cwd=cwd, env=scrapy_env(**env),
        capture_output=True, text=True, timeout=120,
    )


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("errors") / "index"
    docs = [
        page_document(url=f"http://a.test/{i}.html", title=f"Python page {i}",
                      text=f"python json page {i}", host="a.test", content_type="text/html",
                      fetched_at=datetime(2026, 1, 1, tzinfo=UTC))
        for i in range(25)
    ]
    assert rebuild_index(path, docs) == 25
    return path


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["serve", "--port", "-5"], "error: argument --port: must be from 0 to 65535, not -5"),
        (["serve", "--port", "80000"],
         "error: argument --port: must be from 0 to 65535, not 80000"),
        (["serve", "--port", "http"], "error: argument --port: not an integer: 'http'"),
        (["serve", "index"], "error: serve takes no arguments, got 'index'"),
        (["search", "-n", "0", "python"],
         "error: argument -n/--results: must be from 1 to 100, not 0"),
        (["search", "-n", "-3", "python"],
         "error: argument -n/--results: must be from 1 to 100, not -3"),
        (["search", "--page", "0", "python"], "error: argument --page: must be 1 or more, not 0"),
        (["search", "--bogus", "python"],
         "error: unrecognized option --bogus (see scrapy search -h)"),
        (["search"], "error: give a query, e.g. scrapy search 'python json'"),
        (["pagerank", "--bogus"], "error: unrecognized option --bogus (see scrapy pagerank -h)"),
        (["pagerank", "--top", "-1"], "error: argument --top: must be 0 or more, not -1"),
        (["pagerank", "--damping", "1.5"], "error: --damping must be in [0, 1)"),
        (["reindex", "extra"], "error: reindex takes no arguments, got 'extra'"),
        (["replayspill", "--batch-size", "0"],
         "error: argument --batch-size: must be 1 or more, not 0"),
        (["replayspill", "--bogus"],
         "error: unrecognized option --bogus (see scrapy replayspill -h)"),
        (["crawl", "general", "-a", "seeds"], "error: Invalid -a value, use -a NAME=VALUE"),
        (["freshness", "--bogus"],
         "error: unrecognized option --bogus (see scrapy freshness -h)"),
        (["freshness"], "error: give the crawl with --crawl-id ID"),
        (["report", "--bogus"], "error: unrecognized arguments: --bogus"),
        (["agents", "--bogus"], "error: unrecognized option --bogus (see scrapy agents -h)"),
        (["agents", "web1"], "error: agents takes no arguments, got 'web1'"),
        (["urlrules", "--bogus"],
         "error: unrecognized option --bogus (see scrapy urlrules -h)"),
        (["index", "--bogus"], "error: unrecognized option --bogus (see scrapy index -h)"),
        (["index", "web1"], "error: index takes no arguments, got 'web1'"),
        (["warc"], "error: warc needs a subcommand: list, check or index"),
    ],
)
def test_usage_errors_are_one_line(tmp_path: Path, args: list[str], line: str) -> None:
    result = scrapy(tmp_path, *args)
    assert (result.returncode, result.stderr, result.stdout) == (2, line + "\n", "")


def last_line(text: str) -> str:
    return text.rstrip("\n").splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["crawl"], "error: give a spider to run: scrapy crawl SPIDER (scrapy list shows them)"),
        (["crawl", "nope"], "error: no spider named 'nope'"),
        (["crawl", "general", "--bogus"],
         "error: unrecognized option --bogus (see scrapy crawl -h)"),
    ],
)
def test_crawl_usage_errors(tmp_path: Path, args: list[str], line: str) -> None:
    # `scrapy crawl` logs Scrapy's start (versions) before it reads its arguments
    result = scrapy(tmp_path, *args)
    assert result.returncode == 2
    assert last_line(result.stderr) == line
    assert "Traceback" not in result.stderr and "usage" not in result.stderr.lower()


def test_search_page_past_the_end_and_bad_near(index_dir: Path) -> None:
    past = scrapy(index_dir.parent, "search", "--index", str(index_dir), "--page", "99999",
                  "python")
    assert (past.returncode, past.stdout) == (2, "")
    assert past.stderr == (
        "error: --page 99999 is past the last page of results (25 results, 3 pages of 10)\n"
    )
    last = scrapy(index_dir.parent, "search", "--index", str(index_dir), "--page", "3",
                  "python")
    assert last.returncode == 0 and "21-25 of 25 results" in last.stdout

    near = scrapy(index_dir.parent, "search", "--index", str(index_dir), "python NEAR/x json")
    assert (near.returncode, near.stdout) == (2, "")
    assert near.stderr == "error: NEAR/x: NEAR/ takes a number of words, e.g. python NEAR/5 json\n"
    far = scrapy(index_dir.parent, "search", "--index", str(index_dir), "python NEAR/99999 json")
    assert far.returncode == 0 and "of 25 results" in far.stdout  # read as NEAR/500


def test_unknown_crawl_id_is_an_input_error(tmp_path: Path, database_url: str) -> None:
    result = scrapy(tmp_path, "pagerank", "--crawl-id", "no-such-crawl",
                    CRAWLER_DATABASE_URL=database_url)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: no crawl with id 'no-such-crawl' in the database\n"


@pytest.mark.parametrize("command", ["report", "agents", "urlrules", "freshness"])
def test_every_command_rejects_an_unknown_crawl_id_alike(tmp_path: Path, database_url: str,
                                                        command: str) -> None:
    result = scrapy(tmp_path, command, "--crawl-id", "no-such-crawl",
                    CRAWLER_DATABASE_URL=database_url)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "no-such-crawl" in result.stderr


def test_crawl_refuses_http_proxy_without_https_proxy(tmp_path: Path, sandbox,
                                                      database_url: str) -> None:
    from crawler.sandbox import SandboxWeb, html_page

    web = SandboxWeb()
    web.add_page("http://a.test/", html_page("A", "<p>a</p>"))
    server = sandbox(web)
    args = ["crawl", "general", "-a", "seed_urls=http://a.test/", "-s", "DOWNLOAD_DELAY=0",
            "-s", f"CRAWLER_DATA_DIR={tmp_path / '.crawl'}"]
    refused = scrapy(tmp_path, *args, http_proxy=server.proxy_url,
                     CRAWLER_DATABASE_URL=database_url)
    assert refused.returncode == 2
    assert last_line(refused.stderr) == (
        "error: http_proxy is set but https_proxy is not: https URLs would bypass the proxy "
        "and be fetched from the network directly; set https_proxy too "
        "(scripts/sandbox-crawl.sh sets both for the sandbox web), or "
        "-s CRAWLER_REQUIRE_HTTPS_PROXY=False to crawl https URLs directly"
    )
    assert server.requests_for() == []  # refused before anything was fetched

    allowed = scrapy(tmp_path, *args, "-s", "CRAWLER_REQUIRE_HTTPS_PROXY=False",
                     http_proxy=server.proxy_url, CRAWLER_DATABASE_URL=database_url)
    assert allowed.returncode == 0, allowed.stderr[-3000:]
    assert (
        "WARNING: http_proxy is set but https_proxy is not: https URLs would bypass the "
        "proxy and be fetched from the network directly (CRAWLER_REQUIRE_HTTPS_PROXY=False)"
    ) in allowed.stderr
    assert ("a.test", "/") in [(r.host, r.path) for r in server.requests_for()]


def test_invalid_seed_lines_are_warned_once(tmp_path: Path, run_crawl, sandbox) -> None:
    from crawler.sandbox import SandboxWeb, html_page

    web = SandboxWeb()
    web.add_page("http://a.test/", html_page("A", "<p>a</p>"))
    server = sandbox(web)
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://a.test/\nnot a url\n")
    result = run_crawl(proxy=server.proxy_url, args={"seeds": str(seeds)}).check()
    warning = f"ignoring invalid seed URL at {seeds}:2: 'not a url'"
    assert result.stderr.count(warning) == 1, result.stderr[-3000:]



def test_embedded_database_commands_are_quiet(open_tmp_path: Path) -> None:
    tmp_path = open_tmp_path
    # a fresh embedded database: started, migrated, stopped, with no INFO lines of the
    # embedded server and no runtime-dir warning around the command's own error
    env = scrapy_env()
    env.pop("XDG_RUNTIME_DIR", None)
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "pagerank", "-s",
         f"CRAWLER_DATA_DIR={tmp_path / '.crawl'}"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert (tmp_path / ".crawl" / "pgdata" / "PG_VERSION").is_file()
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: the database holds no crawl yet\n"
    # on request (-L INFO) the migrations are summed up in one line; still no server noise
    verbose = subprocess.run(
        [sys.executable, "-m", "scrapy", "pagerank", "-L", "INFO", "-s",
         f"CRAWLER_DATA_DIR={tmp_path / 'fresh'}"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    lines = verbose.stderr.splitlines()
    assert [re.sub(r"^\d{4}-\d\d-\d\d \S+ ", "", ln) for ln in lines] == [
        f"[crawler.storage.database] INFO: database embedded PostgreSQL in "
        f"{tmp_path / 'fresh' / 'pgdata'}: {len(MIGRATIONS)} schema migration(s) applied",
        "error: the database holds no crawl yet",
    ], lines


def test_serve_port_in_use(index_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = scrapy(index_dir.parent, "serve", "--port", str(port), "--index",
                        str(index_dir), "-s", "LOG_LEVEL=WARNING")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serve_log_has_no_colour_codes_when_not_a_terminal(index_dir: Path,
                                                           tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    port = free_port()
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scrapy", "serve", "--port", str(port), "--index",
             str(index_dir)],
            cwd=index_dir.parent, env=scrapy_env(), stdout=subprocess.PIPE, stderr=stderr,
            text=True,
        )
        try:
            assert "search UI on" in proc.stdout.readline()  # type: ignore[union-attr]
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            with opener.open(f"http://127.0.0.1:{port}/", timeout=10) as page:
                assert page.status == 200
            with pytest.raises(urllib.error.HTTPError) as missing:
                opener.open(f"http://127.0.0.1:{port}/nope", timeout=10)
            assert missing.value.code == 404
            wait_until(lambda: '"GET /nope HTTP/1.1" 404' in log.read_text(), timeout=10,
                       what="the 404 in the serve log", details=log.read_text)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    text = log.read_text()
    assert "\x1b[" not in text
    assert '"GET / HTTP/1.1" 200' in text and '"GET /nope HTTP/1.1" 404' in text
