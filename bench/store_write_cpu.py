"""Client CPU of the storage pipeline's batch write, array parameters in binary or text.

``crawler.pipelines.postgres.write_batch`` sends each batch as arrays (``unnest``). psycopg
dumps a ``%b`` array parameter in PostgreSQL's binary format and a ``%s`` one as text;
the text form quotes and escapes every element in Python. This benchmark writes the same
pages (real documentation texts, LINKS links each) both ways, alternating, into a scratch
database, and prints the writing thread's CPU per page (``time.thread_time``: the
client's side only; the server's work is not counted). The ``text`` side is the same SQL
with ``%b`` replaced by ``%s``, i.e. the code before the change. Run inside a
loopback-only network namespace like the tests:

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/store_write_cpu.py --pages 2000 --rounds 3'

Target: binary costs less CPU per page than text.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from datetime import UTC, datetime

import psycopg
from scratch import debian_doc_texts, scratch_database

from crawler.items import LinkRecord, PageItem
from crawler.pipelines import postgres as store

LINKS = 30
BATCH = 100  # STORE_BATCH_SIZE's order of magnitude


def pages_of(texts: list[tuple[str, str, str]]) -> list[PageItem]:
    now = datetime.now(UTC)
    pages = []
    for i, (url, title, text) in enumerate(texts):
        links = [
            LinkRecord(target_url=f"{url}#l{j}-{i}", anchor_text=f"link {j} of {title}"[:60],
                       visibility=1 + j % 3, position=1 + j % 3, distance=j % 5)
            for j in range(LINKS)
        ]
        pages.append(PageItem(
            url=url, final_url=url, host=url.split("/")[2], status=200,
            content_type="text/html", fetched_at=now, depth=1 + i % 5, size=len(text),
            content_md5="0" * 32, title=title, text=text, links=links, weight=0.5,
        ))
    return pages


def text_form(query: str) -> str:
    return query.replace("%b::", "%s::")


async def write_all(url: str, crawl_id: str, pages: list[PageItem]) -> float:
    """CPU seconds of this thread to write ``pages`` in batches."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        started = time.thread_time()
        for i in range(0, len(pages), BATCH):
            await store.write_batch(conn, crawl_id, pages[i:i + BATCH], [])
        return time.thread_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    texts = debian_doc_texts(args.pages)
    pages = pages_of(texts)
    size = statistics.mean(len(p.text) for p in pages)
    print(f"store write CPU: {len(pages)} pages (mean text {size:,.0f} characters, "
          f"{LINKS} links each), batches of {BATCH}")
    binary = {name: getattr(store, name) for name in dir(store) if name.endswith("_SQL")}
    text = {name: text_form(query) for name, query in binary.items()}
    assert text != binary, "write_batch sends no binary arrays"
    results: dict[str, list[float]] = {"binary": [], "text": []}
    with scratch_database("crawler_bench_store") as url:
        with psycopg.connect(url, autocommit=True) as conn:
            for r in range(args.rounds):
                for form, queries in (("binary", binary), ("text", text)):
                    for name, query in queries.items():
                        setattr(store, name, query)
                    crawl_id = f"bench-store-{uuid.uuid4().hex[:8]}"
                    conn.execute("INSERT INTO crawls (id, spider) VALUES (%s, 'bench')",
                                 (crawl_id,))
                    cpu = asyncio.run(write_all(url, crawl_id, pages))
                    results[form].append(cpu / len(pages) * 1e3)
                    print(f"  round {r + 1} {form:>6}: {results[form][-1]:.3f} ms CPU/page",
                          flush=True)
        for name, query in binary.items():
            setattr(store, name, query)
    b, t = statistics.median(results["binary"]), statistics.median(results["text"])
    load = open("/proc/loadavg").read().split()[0]
    print(f"median: binary {b:.3f} ms/page, text {t:.3f} ms/page ({t / b:.2f}x); "
          f"target binary < text: {'met' if b < t else 'NOT met'} (load average {load})")


if __name__ == "__main__":
    main()
