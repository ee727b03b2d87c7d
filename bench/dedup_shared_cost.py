"""Per-page cost of the shared content-seen test (PostgreSQL, several agents) next to the
in-memory one (one agent), on the same pages, in the same run.

Input: the Debian documentation pages (text from their HTML with w3lib), plus an exact
copy (upper case) of every 10th page and a near copy (one word in 40 replaced) of every
10th page shifted by 5, so both decisions run. Each path checks every page in the same
order: the in-memory ``ContentSeenTest.check``, and ``SharedContentSeen.check`` (one
transaction per page: advisory locks on digest and band keys, exact and candidate
queries, inserts) from one agent, then from ``--agents`` concurrent agents (separate
connections) splitting the pages. Fingerprinting is timed apart (both paths share it).
Both paths must reach the same decisions with one agent (the pages rows, whose words the
second stage aligns, are stored beforehand, as a crawl stores them).

Target: the shared path costs a few ms per page of database round trips; an agent keeps
well above the crawl's per-agent page rate (tens of pages/s in the sandbox crawls).

    unshare -n sh -c 'ip link set lo up && \
      CRAWLER_TEST_DATABASE_URL="postgresql:///postgres?host=/var/run/postgresql&user=postgres" \
      .venv/bin/python bench/dedup_shared_cost.py [--pages 2000] [--agents 2]'
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

import psycopg
from psycopg_pool import AsyncConnectionPool

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))

from scratch import debian_doc_texts, scratch_database  # noqa: E402

from crawler.dedup import ContentSeenTest  # noqa: E402
from crawler.dedup.shared import SharedContentSeen  # noqa: E402


def doc_texts(limit: int) -> dict[str, str]:
    texts = {url: text for url, _title, text in debian_doc_texts(limit)}
    originals = list(texts.items())
    for i, (url, text) in enumerate(originals):
        if i % 10 == 0:
            texts[f"{url}?exact-copy"] = text.upper()
        if i % 10 == 5:
            words = text.split()
            texts[f"{url}?near-copy"] = " ".join(
                "zzzqqq" if j % 40 == 20 else w for j, w in enumerate(words))
    return texts


async def shared_run(url: str, crawl_id: str, prints: dict, agents: int) -> tuple[float, dict]:
    items = list(prints.items())
    decisions: dict = {}

    async def agent(part: list) -> None:
        async with AsyncConnectionPool(url, min_size=1, max_size=1, open=False) as pool:
            shared = SharedContentSeen(pool, crawl_id, ContentSeenTest(keep_minutiae=False))
            for key, fingerprint in part:
                decisions[key] = await shared.check(key, fingerprint)

    started = time.perf_counter()
    await asyncio.gather(*(agent(items[i::agents]) for i in range(agents)))
    return time.perf_counter() - started, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000, help="original pages")
    parser.add_argument("--agents", type=int, default=2)
    args = parser.parse_args()
    with scratch_database("bench_dedup") as url:
        texts = doc_texts(args.pages)
        test = ContentSeenTest()
        started = time.perf_counter()
        prints = {key: test.fingerprint(text) for key, text in texts.items()}
        prints = {k: v for k, v in prints.items() if v is not None}
        fingerprint_s = time.perf_counter() - started
        n = len(prints)
        print(f"input: {n} pages ({len(texts) - n} empty skipped); load average "
              f"{os.getloadavg()}")
        print(f"fingerprint (both paths):       {fingerprint_s * 1000 / n:7.3f} ms/page")

        started = time.perf_counter()
        memory = {}
        for key, fingerprint in prints.items():
            duplicate = test.find(key, fingerprint)
            if duplicate is None:
                test.add(key, fingerprint)
            memory[key] = duplicate
        memory_s = time.perf_counter() - started
        dups = sum(d is not None for d in memory.values())
        print(f"in memory, 1 agent:             {memory_s * 1000 / n:7.3f} ms/page "
              f"({dups} duplicates); load average {os.getloadavg()[0]:.2f}")

        with psycopg.connect(url, autocommit=True) as conn:
            for crawl in ("one", "many"):
                conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'bench')", (crawl,))
                # the pages rows the second stage reads its candidates' words from (in a
                # crawl they are stored within STORE_FLUSH_INTERVAL of admission)
                conn.execute(
                    "INSERT INTO pages (crawl_id, url, final_url, host, status, fetched_at,"
                    " depth, text, content_md5, size) SELECT %s, u, u, 'h', 200, now(), 0,"
                    " t, 'x', 1 FROM unnest(%s::text[], %s::text[]) AS x(u, t)",
                    (crawl, list(texts), [texts[k] for k in texts]))
        seconds, shared = asyncio.run(shared_run(url, "one", prints, 1))
        same = "same decisions" if shared == memory else "DECISIONS DIFFER"
        print(f"shared in PostgreSQL, 1 agent:  {seconds * 1000 / n:7.3f} ms/page "
              f"({sum(d is not None for d in shared.values())} duplicates, {same}); "
              f"load average {os.getloadavg()[0]:.2f}")
        seconds, shared = asyncio.run(shared_run(url, "many", prints, args.agents))
        print(f"shared in PostgreSQL, {args.agents} agents: {seconds * 1000 / n:7.3f} ms/page "
              f"of wall time for the crawl ({n / seconds:.0f} pages/s together, "
              f"{sum(d is not None for d in shared.values())} duplicates); "
              f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
