"""A crawl's start imports only what crawling needs.

Scrapy imports every command module of the project whatever the command, then the
spiders and every component of the crawl; a heavy library imported at module level by
any of them delays the first request of every crawl (issue 29: our first request came
2.1-3.3 s after the start, plain Scrapy's 0.6-1.2 s). These libraries are imported where
they are used instead: scipy (PageRank), datasketch (the first near-duplicate test; a
thread warms it up while the crawl opens), the web UI stack (`scrapy serve`), and
cdxj-indexer with pyamf and pkg_resources (WARC indexes), and the project's own search
engine (its ranking and query compiler: 50-76 ms of CPU at a crawl's start).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# what `scrapy crawl general` does before its first request, up to building its components
# (``prologue``: code run first; ``before_crawler``: what the crawl command runs before it
# builds the crawler; ``report``: the expression printed as JSON at the end)
def build_a_crawl(
    prologue: str = "", before_crawler: str = "", report: str = "sorted(sys.modules)"
) -> str:
    return f"""
import json, sys
{prologue}
from scrapy.cmdline import _get_commands_dict
from scrapy.crawler import AsyncCrawlerProcess
from scrapy.utils.misc import load_object
from scrapy.utils.project import get_project_settings

settings = get_project_settings()
_get_commands_dict(settings, True)
{before_crawler}
crawler = AsyncCrawlerProcess(settings).create_crawler("general")
crawler._apply_settings()
for name in ("DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "ITEM_PIPELINES", "EXTENSIONS"):
    for path, order in crawler.settings.getwithbase(name).items():
        if order is not None:
            load_object(path)
load_object(crawler.settings["SCHEDULER"])
print(json.dumps({report}))
"""


BUILD_A_CRAWL = build_a_crawl()

DEFERRED = ("scipy", "datasketch", "flask", "werkzeug", "jinja2", "cdxj_indexer", "pkg_resources")
DEFERRED_OWN = ("crawler.search.engine", "crawler.search.query", "crawler.search.ranking")


def _printed_json(script: str) -> Any:
    """What ``script``, run in a fresh interpreter, printed as JSON on its last line."""
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
        check=True, timeout=120,
    ).stdout
    return json.loads(out.splitlines()[-1])


def test_building_a_crawl_imports_no_deferred_library() -> None:
    modules = _printed_json(BUILD_A_CRAWL)
    assert "crawler.spiders.general" in modules  # the crawl was really built
    assert "crawler.dedup.near_duplicates" in modules
    loaded = sorted({name.split(".")[0] for name in modules} & set(DEFERRED))
    assert loaded == []
    # the search engine (ranking, query compiler) is the search commands' and the web
    # UI's; a crawl needs only the outbox and the indexer's handle
    assert "crawler.search.index" in modules
    assert [name for name in modules if name in DEFERRED_OWN] == []


def test_the_deferred_libraries_load_where_they_are_used() -> None:
    code = (
        "import sys\n"
        "from crawler.ranking import weighted_pagerank\n"
        "import numpy as np\n"
        "assert 'scipy' not in sys.modules\n"
        "result = weighted_pagerank(3, np.array([0, 1, 2]), np.array([1, 2, 0]))\n"
        "assert 'scipy' in sys.modules and abs(result.scores.sum() - 1.0) < 1e-9\n"
        "from crawler.dedup.near_duplicates import NearDuplicateIndex\n"
        "index = NearDuplicateIndex()\n"
        "assert 'datasketch' not in sys.modules and 'x' not in index\n"
        "index.add('x', [1, 2, 3, 4, 5])\n"
        "assert 'datasketch' in sys.modules and index.query([1, 2, 3, 4, 5]).key == 'x'\n"
        "print('ok')\n"
    )
    _assert_prints_ok(code)


def test_a_page_analysis_worker_fingerprints_pages_without_datasketch() -> None:
    # a worker's start would cost 1.4 s more CPU with it (crawler/page_analysis.py)
    code = (
        "import sys\n"
        "from crawler.page_analysis import _worker_analyse, _worker_init\n"
        "from crawler.dedup.content_seen import FingerprintConfig\n"
        "_worker_init()\n"
        "body = b'<html><title>T</title><body><p>' + b'word ' * 300 + b'</p></body></html>'\n"
        "config = FingerprintConfig()\n"
        "values = _worker_analyse(body, 'http://a.test/', 'utf-8', '', 100, 524288, config)\n"
        "assert 'datasketch' not in sys.modules and 'scipy' not in sys.modules\n"
        "fingerprint = values[-1][1]\n"
        "from datasketch import MinHash\n"
        "expected = MinHash(num_perm=config.num_perm, seed=1,\n"
        "                   hashfunc=lambda m: int(m) & 0xFFFFFFFF)\n"
        "expected.update_batch(fingerprint.minutiae.tolist())\n"
        "assert (fingerprint.signature == expected.hashvalues).all()\n"
        "print('ok')\n"
    )
    _assert_prints_ok(code)


def _assert_prints_ok(code: str) -> None:
    """Run ``code`` in a fresh interpreter (nothing imported yet): it must print ok."""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# Scrapy's TLS context factory calls inspect.stack() at import (two deprecated aliases):
# the crawl command imports it before the crawl's components, when the stack is short
# and few modules are loaded (crawler/commands/crawl.py, _import_tls_context_early)
STACK_CALLS_OF_A_CRAWL = build_a_crawl(
    prologue=(
        "import inspect\n"
        "calls = []\n"
        "_stack = inspect.stack\n"
        "def stack(*args, **kwargs):\n"
        "    calls.append('crawler.spiders.general' in sys.modules)\n"
        "    return _stack(*args, **kwargs)\n"
        "inspect.stack = stack\n"
    ),
    before_crawler=(
        "from crawler.commands.crawl import _import_tls_context_early\n"
        "_import_tls_context_early()\n"
    ),
    report="calls",
)

def test_the_crawl_command_imports_the_tls_context_factory_before_the_components() -> None:
    calls = _printed_json(STACK_CALLS_OF_A_CRAWL)
    assert calls and not any(calls)  # every call before the spiders were imported


def test_the_spiders_warm_up_builds_what_the_first_pages_would() -> None:
    _assert_prints_ok(
        "from crawler.dedup.normalize import _bmp_tables\n"
        "from crawler.spiders.base import _warm_up\n"
        "from crawler.urls import _EXTRACT\n"
        "assert _bmp_tables.cache_info().currsize == 0\n"
        "assert _EXTRACT._extractor is None\n"
        "_warm_up()\n"
        "assert _bmp_tables.cache_info().currsize == 1\n"
        "assert _EXTRACT._extractor is not None\n"
        "print('ok')\n"
    )


# CPython 3.11 keeps one AST recursion counter for all threads (python/cpython#106905):
# Scrapy's check of a generator callback's source (ast.parse) on the crawl's thread while
# the spider's warm-up thread read the language model (numpy: ast.literal_eval of each
# array header) failed the first page's callback, and the crawl ended after one page
AST_PARSES_OF_A_CALLBACK = """
import ast, json, types
parses = []
_parse = ast.parse
def parse(*args, **kwargs):
    parses.append(1)
    return _parse(*args, **kwargs)
ast.parse = parse
from scrapy.crawler import AsyncCrawlerProcess
from scrapy.utils.misc import warn_on_generator_with_return_value
from scrapy.utils.project import get_project_settings

crawler = AsyncCrawlerProcess(get_project_settings()).create_crawler("general")
crawler._apply_settings()
spider = types.SimpleNamespace(settings=crawler.settings)
for callback in (crawler.spidercls.parse, crawler.spidercls.on_error):
    warn_on_generator_with_return_value(spider, callback)  # what the scraper calls
print(json.dumps(len(parses)))
"""


def test_the_crawl_thread_parses_no_callback_source() -> None:
    assert _printed_json(AST_PARSES_OF_A_CALLBACK) == 0
