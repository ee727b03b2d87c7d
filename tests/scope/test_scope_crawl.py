"""End-to-end: a crawl scope file (-a scope= and CRAWL_SCOPE_FILE) decides exactly which
URLs are fetched (sandbox request log), seeds and redirects included; refusals are
recorded in `uncrawled` only when asked; a malformed rule stops `scrapy crawl` with one
error line."""

from __future__ import annotations

import pytest

from crawler.sandbox.web import SandboxWeb, html_page
from tests.commands import run_scrapy
from tests.politeness.logs import target

pytestmark = pytest.mark.slow

WWW = "http://www.alpha.test"
# the pages are tiny and alike: the content-seen test would take them for copies
NO_DEDUP = {"DEDUP_ENABLED": False}


def _links(*urls: str, name: str = "") -> str:
    """A page linking ``urls``; ``name`` makes its text its own (no duplicate content)."""
    words = f"<p>The page about {name} and nothing else.</p>" if name else ""
    return html_page(name or "p", words + "".join(f'<a href="{u}">{u}</a> ' for u in urls)).decode()


def scope_web() -> SandboxWeb:
    web = SandboxWeb()
    web.add_page(f"{WWW}/", _links(
        "/docs/a.html", "/docs/private/p.html", "/docs/print.html?print=1", "/about.html",
        "/go", "http://blog.alpha.test/", "http://beta.test/"))
    web.add_page(f"{WWW}/docs/a.html", _links("/docs/b.html"))
    for path in ("/docs/b.html", "/docs/private/p.html", "/docs/print.html?print=1",
                 "/about.html"):
        web.add_page(f"{WWW}{path}", _links("/", name=path.replace("/", " ")))
    web.add_redirect(f"{WWW}/go", "http://beta.test/landing.html")
    web.add_page("http://blog.alpha.test/", _links(f"{WWW}/about.html"))
    web.add_page("http://beta.test/", _links("/landing.html"))
    web.add_page("http://beta.test/landing.html", _links("/", name="landing"))
    return web


def _fetched(server) -> set[str]:
    return {f"http://{r.host}{target(r)}" for r in server.requests_for()
            if r.method == "GET" and r.path != "/robots.txt"}


def _uncrawled(db, crawl_id: str) -> dict[str, tuple[str, str]]:
    return {url: (category, detail) for url, category, detail in db.execute(
        "SELECT url, category, detail FROM uncrawled WHERE crawl_id = %s", (crawl_id,))}


def test_surt_and_regex_rules_decide_what_is_fetched(sandbox, run_crawl, db, tmp_path):
    server = sandbox(scope_web())
    scope = tmp_path / "scope.txt"
    scope.write_text(
        "# www.alpha.test only (not its sub-domains), without /docs/private/ and print views\n"
        "+http://(test,alpha,www,)/\n"
        "-http://(test,alpha,www,)/docs/private/\n"
        "-re:[?&]print=1\n"
    )
    result = run_crawl(
        proxy=server.proxy_url,
        args={"seed_urls": f"{WWW}/,http://beta.test/", "scope": str(scope)},
        settings=NO_DEDUP,
    ).check()
    assert _fetched(server) == {
        f"{WWW}/", f"{WWW}/docs/a.html", f"{WWW}/docs/b.html", f"{WWW}/about.html",
        f"{WWW}/go",  # in scope; its redirect to beta.test is not followed
    }
    # not recorded by default (it would flood the table), except the redirect's URL,
    # which was queued and must be accounted for
    assert _uncrawled(db, result.crawl_id) == {
        f"{WWW}/go": ("out_of_scope", "http://beta.test/landing.html: matches no include "
                      f"rule of {scope}"),
    }
    stats = db.execute("SELECT stats FROM crawls WHERE id = %s", (result.crawl_id,)).fetchone()[0]
    assert stats["scope/rules"] == 3
    # the seed beta.test; private, print, blog.alpha.test, beta.test (links); the redirect
    assert stats["scope/refused/seed"] == 1
    assert stats["scope/refused/link"] == 4
    assert stats["scope/refused/redirect"] == 1
    assert stats["scope/refused"] == 6

    # the same web with a regular-expression include, given as a setting, and the
    # refusals recorded: Heritrix's plain-host form (every sub-domain) as a second include
    server.clear_log()
    scope.write_text("+re:^http://www\\.alpha\\.test/(docs/|$)\n+blog.alpha.test\n"
                     "-re:/private/\n")
    second = run_crawl(
        proxy=server.proxy_url, args={"seed_urls": f"{WWW}/"},
        settings={"CRAWL_SCOPE_FILE": str(scope), "SCOPE_RECORD_OUT_OF_SCOPE": True,
                  **NO_DEDUP},
    ).check()
    assert _fetched(server) == {
        f"{WWW}/", f"{WWW}/docs/a.html", f"{WWW}/docs/b.html",
        f"{WWW}/docs/print.html?print=1", "http://blog.alpha.test/",
    }
    no_include = f"matches no include rule of {scope}"
    assert _uncrawled(db, second.crawl_id) == {
        f"{WWW}/docs/private/p.html": (
            "out_of_scope", f"excluded by -re:/private/ ({scope} line 3)"),
        f"{WWW}/about.html": ("out_of_scope", no_include),
        f"{WWW}/go": ("out_of_scope", no_include),
        "http://beta.test/": ("out_of_scope", no_include),
    }


def _errors(stderr: str) -> list[str]:
    """The error lines of a command (Scrapy logs its start-up first); no traceback."""
    assert "Traceback" not in stderr
    return [line for line in stderr.splitlines() if line.startswith("error:")]


@pytest.mark.parametrize(("text", "message"), [
    ("+http://(test,alpha,)/\nhttp://beta.test/\n",
     "line 2: 'http://beta.test/': a rule starts with + (include) or - (exclude)"),
    ("# c\n\n-re:(private\n",
     "line 3: '-re:(private': bad regular expression: missing ), unterminated subpattern "
     "at position 0"),
])
def test_malformed_scope_file_one_error_line(tmp_path, database_url, text, message):
    scope = tmp_path / "bad-scope.txt"
    scope.write_text(text)
    # (the setting is read by the same check: tried with the first file only, each
    # command costs a Scrapy start-up)
    options = [["-a", f"scope={scope}"]]
    if "line 2" in message:
        options.append(["-s", f"CRAWL_SCOPE_FILE={scope}"])
    for option in options:
        proc = run_scrapy("crawl", "general", "-a", "seed_urls=http://www.alpha.test/",
                          *option, database_url=database_url, cwd=tmp_path)
        assert proc.returncode == 2
        assert _errors(proc.stderr) == [f"error: scope file {scope} {message}"]
    if "line 2" not in message:
        return
    proc = run_scrapy("crawl", "general", "-a", "seed_urls=http://www.alpha.test/", "-a",
                      f"scope={tmp_path / 'none.txt'}", database_url=database_url, cwd=tmp_path)
    assert (proc.returncode, _errors(proc.stderr)) == (
        2, [f"error: scope file '{tmp_path / 'none.txt'}' does not exist"])
