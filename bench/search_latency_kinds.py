"""Search latency by query kind, in-process, on a kept index (issue 25): what a search
costs without the command-line start, and what the first search of a process costs.

Queries are drawn from the indexed pages themselves (seed 25; not the blind harness's
queries): ``name`` the first three words of a title, ``word`` one word of a title,
``description`` a 5-word window of the text, ``sentence`` a 10-word window. Each query
is searched once in a fresh engine per round (10 results with snippets, as
``scrapy search`` does).

    .venv/bin/python bench/search_latency_kinds.py DIR [DIR ...] [--queries 40] [--rounds 3]
    .venv/bin/python bench/search_latency_kinds.py DIR --blind NAME [--rounds 3]

(DIR: an index folder, e.g. a crawl's CRAWLER_DATA_DIR/index, either backend.) With
``--blind NAME`` the queries are the blind harness's of that collection
(``bench/search_blind/queries/NAME.json``, by their kind: name, description, word,
paraphrase), each searched as the first search of a fresh engine, as ``scrapy search``
does once per process: the harness's latency, without the command's start, with its CPU
time beside (what does not depend on the machine's load).

Prints, per kind, p50 / p95 / mean of the wall time and of the CPU time
(``time.process_time``) of ``SearchEngine.search`` on a warm engine, and the same for
the first search of a freshly opened engine (what ``scrapy search --json`` reports as
``elapsed_ms``: the index's columns are read on the first search).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawler.search import SearchEngine, open_index  # noqa: E402
from crawler.search.index import stored_documents  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def queries(docs: list[dict], n: int, rng: random.Random) -> dict[str, list[str]]:
    titled = [d for d in docs if d.get("title") and len((d.get("body") or "").split()) > 80]
    sample = rng.sample(titled, min(n, len(titled)))

    def window(doc: dict, size: int) -> str:
        words = doc["body"].split()
        start = rng.randrange(0, max(1, len(words) - size))
        return " ".join(words[start : start + size])

    def word(doc: dict) -> str:
        words = [w for w in doc["title"].split() if w.isalpha() and len(w) > 3]
        return rng.choice(words) if words else doc["title"].split()[0]

    return {
        "name": [" ".join(d["title"].replace("—", " ").split()[:3]) for d in sample],
        "word": [word(d) for d in sample],
        "description": [window(d, 5) for d in sample],
        "sentence": [window(d, 10) for d in sample],
    }


def blind_queries(name: str) -> dict[str, list[str]]:
    path = Path(__file__).resolve().parent / "search_blind" / "queries" / f"{name}.json"
    kinds: dict[str, list[str]] = {}
    for q in json.loads(path.read_text())["queries"]:
        kinds.setdefault(q["kind"], []).append(q["query"])
    return kinds


def first_searches(folder: Path, kinds: dict[str, list[str]], rounds: int) -> None:
    """Each query as the first search of a fresh engine, ``rounds`` times."""
    print("| kind | first-search wall p50 / p95 / mean ms | CPU p50 / p95 / mean ms |")
    print("|---|---|---|")
    every_wall: list[float] = []
    every_cpu: list[float] = []
    for kind, texts in kinds.items():
        wall: list[float] = []
        cpu: list[float] = []
        for _ in range(rounds):
            for text in texts:
                ix = open_index(folder, create=False)
                engine = SearchEngine(ix)
                c0, w0 = time.process_time(), time.perf_counter()
                engine.search(text, per_page=10)
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
                engine.close()
                ix.close()
        print(row(kind, wall, cpu))
        every_wall += wall
        every_cpu += cpu
    print(row("all", every_wall, every_cpu))


def row(label: str, wall: list[float], cpu: list[float]) -> str:
    return (
        f"| {label} | {percentile(wall, 0.5):.1f} / {percentile(wall, 0.95):.1f} / "
        f"{statistics.fmean(wall):.1f} | {percentile(cpu, 0.5):.1f} / "
        f"{percentile(cpu, 0.95):.1f} / {statistics.fmean(cpu):.1f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("indexes", type=Path, nargs="+")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--blind", help="the blind harness's queries of this collection")
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for folder in args.indexes:
        if args.blind:
            print(f"\n{folder}: queries of {args.blind}")
            first_searches(folder, blind_queries(args.blind), args.rounds)
            continue
        ix = open_index(folder, create=False)
        docs = stored_documents(ix)
        kinds = queries(docs, args.queries, random.Random(25))
        print(f"\n{folder}: {len(docs)} pages, {getattr(ix, 'backend', 'whoosh')}")
        print("| kind | warm wall p50 / p95 / mean ms | warm CPU p50 / p95 / mean ms |")
        print("|---|---|---|")
        first_wall: list[float] = []
        first_cpu: list[float] = []
        for kind, texts in kinds.items():
            wall: list[float] = []
            cpu: list[float] = []
            for _ in range(args.rounds):
                engine = SearchEngine(open_index(folder, create=False))
                # the first search of the process opens the searcher and reads columns
                c0, w0 = time.process_time(), time.perf_counter()
                engine.search(texts[0], per_page=10)
                first_cpu.append((time.process_time() - c0) * 1000)
                first_wall.append((time.perf_counter() - w0) * 1000)
                for text in texts[1:]:
                    c0, w0 = time.process_time(), time.perf_counter()
                    engine.search(text, per_page=10)
                    cpu.append((time.process_time() - c0) * 1000)
                    wall.append((time.perf_counter() - w0) * 1000)
                engine.close()
            print(row(kind, wall, cpu))
        print(row("first search of an engine", first_wall, first_cpu))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
