"""Main-content extractors compared: quality against the pages' own content containers, and
CPU per page (issue 25, the page content model).

Pages: a seeded sample of the Debian documentation the sandbox serves (Python 3.11,
PostgreSQL 15, Django: Sphinx and DocBook pages with navigation bars, sidebars, footers).
The reference main content of each page is its content container, known per site and
never given to the extractors: Sphinx's ``div[@role='main']`` (Python), Django's
``div[@id='yui-main']``, DocBook's body without ``navheader``/``navfooter`` (PostgreSQL).

Per extractor: word-level precision and recall of its output against the reference (bags
of lower-case words), the share of pages whose output still holds the navigation
(``Prev Up Home Next``, ``index modules | next | previous``, "Table of contents" or
"Found a bug?" lines) and CPU milliseconds per page (time.process_time, one process).

    .venv/bin/python bench/content_extract.py --pages 300
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import lxml.html

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

SITES = {
    "python": ("/usr/share/doc/python3.11/html", "//div[@role='main']"),
    "django": ("/usr/share/doc/python-django-doc/html", "//div[@id='yui-main']"),
    "postgresql": ("/usr/share/doc/postgresql-doc-15/html", "//body"),
}
_DROP = "//div[@class='navheader' or @class='navfooter']"
#: Navigation that must not be in the main content.
_NAVIGATION = re.compile(
    r"Prev\s+Up\s+.*Home\s+Next|index\s+modules\s*\|\s*next|modules\s*\|\s*next\s*\|"
    r"|Found a bug|Table of contents\s+Search page|Python Module Index",
    re.I | re.S,
)
_WORD = re.compile(r"\w+")


def words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in _WORD.findall(text))


def reference(html: bytes, xpath: str) -> str:
    root = lxml.html.fromstring(html)
    for el in root.xpath(_DROP):
        el.drop_tree()
    found = root.xpath(xpath)
    return " ".join(found[0].text_content().split()) if found else ""


def sample(pages: int, seed: int) -> list[tuple[str, Path]]:
    rng = random.Random(seed)
    chosen = []
    for site, (root, _) in SITES.items():
        files = sorted(Path(root).rglob("*.html"))
        chosen += [(site, f) for f in rng.sample(files, min(len(files), pages // len(SITES)))]
    return chosen


def extractors() -> dict[str, Callable[[bytes], str]]:
    import trafilatura
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    from crawler.content import main_content
    from crawler.extract import extract_page

    return {
        "none (all visible text)": lambda html: extract_page(html, "http://x.test/").text,
        "resiliparse main_content": lambda html: extract_plain_text(
            HTMLTree.parse_from_bytes(html), main_content=True, alt_texts=False
        ),
        "trafilatura": lambda html: trafilatura.extract(html) or "",
        "trafilatura fast": lambda html: trafilatura.extract(html, fast=True) or "",
        "crawler.content (chosen)": lambda html: main_content(html).text,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    pages = sample(args.pages, args.seed)
    docs = [(site, path.read_bytes()) for site, path in pages]
    refs = [words(reference(html, SITES[site][1])) for site, html in docs]
    print(
        f"content extraction benchmark, {time.strftime('%Y-%m-%d %H:%M:%S')}, {len(docs)} "
        f"pages ({', '.join(SITES)}), load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'extractor':28s} {'precision':>9s} {'recall':>7s} {'F1':>6s} {'nav left':>9s} "
        f"{'empty':>6s} {'CPU ms/page':>12s}"
    )
    for name, extract in extractors().items():
        started = time.process_time()
        outputs = [extract(html) for _, html in docs]
        cpu = (time.process_time() - started) * 1000 / len(docs)
        tp = fp = fn = 0
        for out, ref in zip(outputs, refs, strict=True):
            got = words(out)
            common = sum((got & ref).values())
            tp += common
            fp += sum(got.values()) - common
            fn += sum(ref.values()) - common
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        nav = sum(1 for out in outputs if _NAVIGATION.search(out)) / len(outputs)
        empty = sum(1 for out in outputs if not out.strip()) / len(outputs)
        print(
            f"{name:28s} {precision:9.3f} {recall:7.3f} {f1:6.3f} {nav:9.3f} "
            f"{empty:6.3f} {cpu:12.1f}"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
