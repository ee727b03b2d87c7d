"""The Tantivy proximity rescore as of 2026-11-27 against the one before, in one process
on one index, interleaved (docs/search.md, *1,000,000 pages after the parity work*, the
paragraph after it): CPU ms per query of bench/search_scale.py's queries, the median of
ROUNDS, and whether both give the same top 10 URLs and scores.

- before: the best hits found again by their URLs, read from each hit's stored document;
  each proximity clause intersected with the hits as a whole (PhraseClause.query(only)
  replaced by ``only AND clause``);
- after: the hits' ``url_key`` column; each phrase of a clause intersected with the hits.

    .venv/bin/python bench/search_rescore_ab.py DIR [--rounds 7]

DIR: a Tantivy index of layout 3 (e.g. bench/search_scale.py --keep's WORK/tantivy).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_DIR))
sys.path.insert(0, str(PROJECT_DIR / "bench"))

KINDS = ("name", "two_words", "description", "sentence", "near")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()

    from search_scale import queries, source_pages

    from crawler.search import SearchEngine, open_index
    from crawler.search import tantivy_engine as te

    engine = SearchEngine(open_index(args.index, create=False))
    if not engine.ix.has_url_key:
        raise SystemExit(f"error: {args.index} is not a Tantivy index of layout 3")
    texts = queries(source_pages())
    after_query = te.PhraseClause.query

    def before_query(self: te.PhraseClause, only: object | None = None) -> object:
        whole = after_query(self)
        return whole if only is None else te._and([only, whole])

    engine.search("python json")  # warm-up
    cpu: dict[tuple[str, str], list[float]] = {}
    results: dict[tuple[str, str], tuple[list[str], list[float]]] = {}
    for _ in range(args.rounds):
        for side in ("before", "after"):
            engine.ix.has_url_key = side == "after"
            te.PhraseClause.query = after_query if side == "after" else before_query
            for kind in KINDS:
                started = time.process_time()
                for text in texts[kind]:
                    found = engine.search(text, per_page=10)
                    results.setdefault((side, text), (
                        [h.url for h in found.hits], [h.score for h in found.hits]
                    ))
                cpu.setdefault((side, kind), []).append(
                    (time.process_time() - started) * 1000 / len(texts[kind])
                )
    te.PhraseClause.query = after_query
    print("| kind | before: CPU ms per query | after | change |")
    print("|---|---|---|---|")
    for kind in KINDS:
        a = statistics.median(cpu[("before", kind)])
        b = statistics.median(cpu[("after", kind)])
        print(f"| {kind} | {a:.2f} | {b:.2f} | {b - a:+.2f} ({(b - a) / a * 100:+.0f} %) |")
    same = all(results[("before", t)] == results[("after", t)] for s, t in results if s == "before")
    print(f"same top 10 URLs and scores: {same}")


if __name__ == "__main__":
    main()
