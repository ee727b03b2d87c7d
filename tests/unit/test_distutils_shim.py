"""setuptools' distutils shim is settled on the main thread before a crawl's threads start
(crawler/distutils_shim.py): importing distutils through it from the warm-up thread, while
the main thread imported Scrapy's modules, hung one crawl start in about thirty."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str) -> Any:
    """What ``script``, run in a fresh interpreter, printed as JSON on its last line."""
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120).stdout
    return json.loads(out.splitlines()[-1])


def test_a_spider_settles_the_shim_before_its_first_thread_starts() -> None:
    result = _run("""
import json, sys, threading
from crawler.distutils_shim import distutils_shim_pending
pending_at_start = distutils_shim_pending()
started = []
original_start = threading.Thread.start
def start(thread):
    started.append((thread.name, distutils_shim_pending(), "distutils" in sys.modules))
    return original_start(thread)
threading.Thread.start = start
from scrapy.utils.test import get_crawler
from crawler.spiders.general import GeneralSpider
get_crawler(GeneralSpider)._create_spider(seed_urls="http://a.test/", crawl_id="shim")
print(json.dumps({"pending_at_start": pending_at_start, "started": started}))
""")
    # this project's environment has the shim (setuptools < 81, scrapyd's pkg_resources)
    # and redis 2.x (pywb's), so the hazard is real here
    assert result["pending_at_start"] is True
    assert result["started"][0] == ["load-language-model", False, True]


def test_the_shim_is_left_alone_when_nothing_would_import_distutils() -> None:
    result = _run("""
import json, sys
from crawler.distutils_shim import settle_distutils_shim
settled = settle_distutils_shim(importers=("no_such_module_here",))
print(json.dumps([settled, "distutils" in sys.modules, "setuptools" in sys.modules]))
""")
    assert result == [False, False, False]


def test_settling_imports_setuptools_distutils_once() -> None:
    result = _run("""
import json, sys
from crawler.distutils_shim import distutils_shim_pending, settle_distutils_shim
first = settle_distutils_shim()
print(json.dumps([first, settle_distutils_shim(), distutils_shim_pending(),
                  sys.modules["distutils"] is sys.modules["setuptools._distutils"]]))
""")
    assert result == [True, False, False, True]
