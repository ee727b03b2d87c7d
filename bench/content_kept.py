"""How much of a page's visible text the content model keeps, per collection of crawled
pages (issue 25): the main content (crawler.content) against the visible text
(crawler.extract), and how much repeated boilerplate it holds.

Pages: the HTML responses of WARC files (a crawl with ``WARC_DIR`` set), or the HTML files
of folders. Per collection: the share of each page's visible words found in its main
content (mean, 10th percentile, median), and the share of the main content's 6-word
shingles that occur in at least a tenth of the collection's visible texts (navigation,
footers and other boilerplate repeated on every page), beside that share in the visible
text itself; CPU milliseconds of ``main_content`` per page.

    .venv/bin/python bench/content_kept.py NAME=WARC_OR_FOLDER [NAME=...]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from crawler.content import main_content  # noqa: E402
from crawler.extract import extract_page  # noqa: E402

_WORD = re.compile(r"\w+")
SHINGLE = 6
BOILERPLATE_SHARE = 0.1


def warc_pages(path: Path) -> Iterator[tuple[str, bytes, str]]:
    from warcio.archiveiterator import ArchiveIterator

    with open(path, "rb") as f:
        for record in ArchiveIterator(f):
            http = record.http_headers
            if record.rec_type != "response" or http is None:
                continue
            if http.get_statuscode() != "200" or "html" not in (
                http.get_header("Content-Type") or ""
            ):
                continue
            yield (
                record.rec_headers.get_header("WARC-Target-URI"),
                record.content_stream().read(),
                http.get_header("Content-Language") or "",
            )


def pages(source: Path) -> dict[str, tuple[bytes, str]]:
    found: dict[str, tuple[bytes, str]] = {}
    if source.is_dir():
        for path in sorted(source.rglob("*.htm*")):
            found[str(path)] = (path.read_bytes(), "")
        for path in sorted(source.rglob("*.warc.gz")):
            found.update((u, (b, c)) for u, b, c in warc_pages(path))
    elif source.name.endswith(".warc.gz"):
        found.update((u, (b, c)) for u, b, c in warc_pages(source))
    else:
        raise SystemExit(f"error: {source} is neither a folder nor a .warc.gz file")
    return found


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def shingles(ws: list[str]) -> list[str]:
    return [" ".join(ws[i : i + SHINGLE]) for i in range(len(ws) - SHINGLE + 1)]


def measure(name: str, collection: dict[str, tuple[bytes, str]]) -> str:
    visible: dict[str, list[str]] = {}
    main: dict[str, list[str]] = {}
    cpu = 0.0
    for url, (body, content_language) in collection.items():
        visible[url] = words(extract_page(body, url).text)
        started = time.process_time()
        text = main_content(body, content_language=content_language).text
        cpu += time.process_time() - started
        main[url] = words(text)
    frequency: Counter[str] = Counter()
    for ws in visible.values():
        frequency.update(set(shingles(ws)))
    limit = max(5, BOILERPLATE_SHARE * len(visible))
    boilerplate = {s for s, n in frequency.items() if n >= limit}

    def share(ws: list[str]) -> float:
        found = shingles(ws)
        return sum(1 for s in found if s in boilerplate) / len(found) if found else 0.0

    kept = sorted(
        sum((Counter(visible[u]) & Counter(main[u])).values()) / len(visible[u])
        for u in visible
        if visible[u]
    )
    if not kept:
        return f"{name:12s} no pages"
    return (
        f"{name:12s} {len(kept):6d} {statistics.mean(kept):6.3f} {kept[len(kept) // 10]:6.3f} "
        f"{statistics.median(kept):7.3f} {statistics.mean(share(w) for w in main.values()):10.3f} "
        f"{statistics.mean(share(w) for w in visible.values()):10.3f} "
        f"{1000 * cpu / len(collection):8.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collections", nargs="+", metavar="NAME=PATH")
    args = parser.parse_args()
    print(f"content kept, {time.strftime('%Y-%m-%d %H:%M:%S')}, load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'collection':12s} {'pages':>6s} {'kept':>6s} {'p10':>6s} {'median':>7s} "
          f"{'boiler main':>10s} {'boiler vis':>10s} {'CPU ms':>8s}")
    for item in args.collections:
        name, _, path = item.partition("=")
        print(measure(name, pages(Path(path))), flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
