"""CPU ms per page of extraction and of the spider's parse, on the crawl-speed benchmark's
sandbox web (prints numbers).

Collects the first ``--pages`` HTML pages of that web breadth-first (the synthetic web
without traps and faults, plus the Debian documentation sites installed here), then runs
``crawler.extract.extract_page`` and ``GeneralSpider.parse`` (HtmlResponse in, items and
link requests out) over them, timed by ``time.process_time`` (CPU, not wall clock, so the
load of a shared machine matters less). ``--root`` imports ``crawler`` from another
checkout: run it once with ``--root /work/main`` and once without for a before/after in
the same conditions.

    .venv/bin/python bench/extract_speed.py --pages 1000 [--root CHECKOUT] [--profile] [--docs]

No target of its own: it explains the "extraction" row of bench/crawl_speed.py.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collect_pages(count: int, docs_only: bool = False) -> list[tuple[str, bytes, str]]:
    from crawler.sandbox import add_debian_docs, build_synthetic_web, extract_links

    web = build_synthetic_web(7, trap=False, faults=False)
    docs = add_debian_docs(web)
    seeds = docs if docs_only else list(web.seeds) + docs
    queue, seen = deque(seeds), set(seeds)
    pages: list[tuple[str, bytes, str]] = []
    while queue and len(pages) < count:
        url = queue.popleft()
        resource = web.fetch(url)
        if resource is None or resource.status != 200 or not resource.is_html:
            continue
        pages.append((url, resource.body, resource.content_type or "text/html"))
        for link in extract_links(resource.body, resource.content_type, url):
            if link not in seen and ".test" in link:
                seen.add(link)
                queue.append(link)
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--root", default=str(ROOT), help="checkout to import crawler from")
    parser.add_argument("--profile", action="store_true", help="print the top functions")
    parser.add_argument(
        "--docs",
        action="store_true",
        help="only the Debian documentation sites (their pages have many more links)",
    )
    args = parser.parse_args()
    if args.pages < 1 or not (Path(args.root) / "crawler").is_dir():
        print("error: --pages must be >= 1 and --root a checkout with crawler/", file=sys.stderr)
        sys.exit(2)
    sys.path.insert(0, str(Path(args.root).resolve()))
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.test import get_crawler

    from crawler.extract import extract_page
    from crawler.spiders.general import GeneralSpider

    pages = collect_pages(args.pages, args.docs)
    size = sum(len(body) for _, body, _ in pages) / max(1, len(pages))
    print(f"crawler from {args.root}; {len(pages)} pages, {size / 1024:.1f} KiB on average; "
          f"load average {os.getloadavg()[0]:.2f}")
    started = time.process_time()
    for url, body, _ in pages:
        extract_page(body, url, encoding="utf-8")
    print(f"  extract_page   {1000 * (time.process_time() - started) / len(pages):6.2f} "
          "CPU ms/page")
    spider = GeneralSpider.from_crawler(get_crawler(GeneralSpider, {}),
                                        seed_urls="http://a.test/", allowed_domains="test")
    responses = [HtmlResponse(url, body=body, headers={"Content-Type": ctype},
                              request=Request(url, meta={"depth": 1}))
                 for url, body, ctype in pages]
    import crawler.urls

    for cached in (crawler.urls.canonical_url, crawler.urls.url_host):
        if hasattr(cached, "cache_clear"):  # parse starts as cold as extract_page did
            cached.cache_clear()
    import crawler.extract

    if hasattr(crawler.extract, "LinkResolver"):  # its links' resolutions too
        crawler.extract._resolver = crawler.extract.LinkResolver()
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    if profiler is not None:
        profiler.enable()
    started = time.process_time()
    outputs = sum(1 for response in responses for _ in spider.parse(response))
    elapsed = time.process_time() - started
    if profiler is not None:
        profiler.disable()
    print(f"  spider parse   {1000 * elapsed / len(pages):6.2f} CPU ms/page "
          f"({outputs} items and requests){' under cProfile' if profiler else ''}")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
