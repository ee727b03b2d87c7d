"""Indexer CPU benchmark: CPU seconds per 1,000 pages indexed by the outbox indexer,
for several commit cadences and merge policies, on the same input (issue 14).

Input: the Debian documentation pages (Python 3.11, PostgreSQL 15, Django; text from
their HTML with w3lib), stored once as pages of one crawl with write_batch (so the
search outbox holds one upsert per page, as after a crawl). Every configuration then
indexes the whole outbox into a fresh index folder in a spawned process of its own
(CPU = that process's user + system time, from getrusage of children), and the top 10
results of a few queries are compared with the first configuration's (they must be
identical: the merge policy changes segments, not documents).

Target (issue 14): cut the indexer's CPU per page (62.6 % of a full-speed crawl's CPU,
43 % in SegmentWriter.commit) without changing search results.

Run inside a loopback-only namespace, like the tests:

    unshare -n sh -c 'ip link set lo up && \
      CRAWLER_TEST_DATABASE_URL="postgresql:///postgres?host=/var/run/postgresql&user=postgres" \
      .venv/bin/python bench/indexer_cpu.py [--pages 3000]'
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import resource
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import psycopg

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from scratch import debian_doc_texts, scratch_database  # noqa: E402

from crawler.items import PageItem  # noqa: E402
from crawler.pipelines.postgres import write_batch  # noqa: E402
from crawler.search import SearchEngine  # noqa: E402
from crawler.search.indexer import (  # noqa: E402
    IndexerConfig,
    index_key,
    register_crawls,
    run_indexer,
)

QUERIES = ["json dumps", "create index", "transaction isolation", "queryset filter",
           "template", "vacuum", "unicode string", "middleware"]

#: (name, SEARCH_BATCH_SIZE, SEARCH_MERGE_EVERY, SEARCH_WRITER_LIMITMB)
CONFIGS = [
    ("batch 500, merge every commit (before)", 500, 1, 128),
    ("batch 500, merge every 10th commit", 500, 10, 128),
    ("batch 2000, merge every commit", 2000, 1, 128),
    ("batch 2000, merge every 10th commit", 2000, 10, 128),
    ("batch 2000, merge every 10th, limitmb 256", 2000, 10, 256),
]


def doc_pages(limit: int) -> list[PageItem]:
    now = datetime.now(UTC)
    return [
        PageItem(url=url, final_url=url, host=url.split("/")[2], status=200,
                 content_type="text/html", fetched_at=now, depth=1, size=len(text),
                 content_md5="x", title=title, text=text)
        for url, title, text in debian_doc_texts(limit)
    ]


def _index(config: IndexerConfig, crawl_id: str) -> None:
    run_indexer(config, [crawl_id], follow=False, stop=threading.Event(),
                report=lambda r: None)


def measure(config: IndexerConfig, crawl_id: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one spawned indexer process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = multiprocessing.get_context("spawn").Process(target=_index,
                                                           args=(config, crawl_id))
    process.start()
    process.join()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def top10(path: Path) -> dict[str, list[str]]:
    engine = SearchEngine(path, pagerank_weight=0.0)
    try:
        return {q: [h.url for h in engine.search(q).hits] for q in QUERIES}
    finally:
        engine.close()


def segments(path: Path) -> int:
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(path), indexname="pages")
    try:
        return len(ix._segments())
    finally:
        ix.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=1, help="runs per configuration")
    parser.add_argument(
        "--config", action="append", default=[], metavar="BATCH:MERGE_EVERY:LIMITMB",
        help="configurations to run instead of the default list (repeatable)",
    )
    args = parser.parse_args()
    configs = CONFIGS
    if args.config:
        configs = []
        for spec in args.config:
            batch, merge_every, limitmb = (int(v) for v in spec.split(":"))
            configs.append((f"batch {batch}, merge every {merge_every}, limitmb {limitmb}",
                            batch, merge_every, limitmb))
    with scratch_database("bench_indexer") as url:
        pages = doc_pages(args.pages)
        crawl_id = "bench-indexer"
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'bench')", (crawl_id,))

        async def store() -> None:
            async with await psycopg.AsyncConnection.connect(url) as conn:
                for i in range(0, len(pages), 500):
                    await write_batch(conn, crawl_id, pages[i:i + 500], [])
        asyncio.run(store())
        chars = sum(len(p.text) for p in pages)
        print(f"input: {len(pages)} pages, {chars / len(pages):.0f} characters of text each "
              f"on average; load average {os.getloadavg()}")
        with tempfile.TemporaryDirectory(prefix="bench-indexer-") as tmp:
            runs = [(c, r) for r in range(args.repeat) for c in configs]
            folders = [Path(tmp) / f"index-{i}" for i in range(len(runs))]
            with psycopg.connect(url, autocommit=True) as conn:
                for folder in folders:  # every folder registered first: nothing pruned
                    register_crawls(conn, index_key(folder), [crawl_id])
            baseline = None
            print(f"{'configuration':45} {'CPU s':>7} {'CPU s/1000 pages':>17} "
                  f"{'wall s':>7} {'segments':>8}  load average")
            for ((label, batch, merge_every, limitmb), _), folder in zip(runs, folders,
                                                                          strict=True):
                config = IndexerConfig(url, str(folder), batch_size=batch, poll_interval=0.05,
                                       limitmb=limitmb, merge_every=merge_every)
                cpu, wall = measure(config, crawl_id)
                results = top10(folder)
                baseline = baseline or results
                same = "same results" if results == baseline else "RESULTS DIFFER"
                print(f"{label:45} {cpu:7.2f} {cpu * 1000 / len(pages):17.2f} {wall:7.1f} "
                      f"{segments(folder):8d}  {os.getloadavg()[0]:.2f}  {same}")


if __name__ == "__main__":
    main()
