"""Ranking parity of the two search backends on one crawl (issue 28): known-item queries
drawn from the indexed pages themselves (the first three words of a page's title, a
5-word and a 10-word window of its text), searched in a Whoosh and a Tantivy index of
the same pages; MRR over the top 10 per backend and how often both rank the same page
first. Not blind: the queries come from the pages, seed 28.

    .venv/bin/python bench/search_backend_parity.py --whoosh DIR --tantivy DIR [--pages 60]

(DIR: index folders, e.g. a crawl's CRAWLER_DATA_DIR/index built with each
SEARCH_BACKEND, or one converted with `scrapy reindex -s SEARCH_BACKEND=...`.)

    .venv/bin/python bench/search_backend_parity.py --build 600 --work-dir DIR

builds both folders first in DIR from the first 600 Debian documentation pages on disk
(bench/scratch.py's debian_doc_texts: the Python 3.11 documentation first), one index
document each (crawler.search.schema.page_document, a seeded PageRank, no links), as
the outbox indexer writes them; no crawl or database needed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawler.search import SearchEngine, open_index  # noqa: E402
from crawler.search.index import stored_documents  # noqa: E402


def build(pages: int, work: Path) -> tuple[Path, Path]:
    """Index the first ``pages`` Debian documentation pages with both backends."""
    from datetime import UTC, datetime
    from urllib.parse import urlsplit

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from scratch import debian_doc_texts

    from crawler.search import IndexWriter
    from crawler.search.schema import page_document

    rng = random.Random(28)
    docs = [
        page_document(
            url=url, title=title, text=text, host=urlsplit(url).hostname,
            content_type="text/html", fetched_at=datetime(2026, 11, 1, tzinfo=UTC),
            crawl_id="parity", pagerank=round(rng.paretovariate(1.5) - 1.0, 4), anchors=[],
            lang="en", max_body_chars=200_000,
        )
        for url, title, text in debian_doc_texts(pages)
    ]
    folders = []
    for backend in ("whoosh", "tantivy"):
        folder = work / backend
        if not folder.exists():
            writer = IndexWriter(open_index(folder, backend=backend))
            for start in range(0, len(docs), 500):
                writer.apply(docs[start : start + 500], (), keep_pagerank=False)
        folders.append(folder)
    return folders[0], folders[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--whoosh", type=Path)
    parser.add_argument("--tantivy", type=Path)
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--build", type=int, help="index this many documentation pages first")
    parser.add_argument("--work-dir", type=Path, help="where --build puts (or finds) them")
    args = parser.parse_args()
    if args.build:
        if not args.work_dir:
            parser.error("--build needs --work-dir")
        args.whoosh, args.tantivy = build(args.build, args.work_dir)
    if not args.whoosh or not args.tantivy:
        parser.error("give --whoosh and --tantivy, or --build")
    whoosh, tantivy = open_index(args.whoosh, create=False), open_index(args.tantivy, create=False)
    docs = stored_documents(whoosh)
    rng = random.Random(28)
    sample = rng.sample([d for d in docs if d.get("title")], min(args.pages, len(docs)))
    engines = {"whoosh": SearchEngine(whoosh), "tantivy": SearchEngine(tantivy)}

    def reciprocal_rank(engine: SearchEngine, query: str, url: str) -> tuple[float, str | None]:
        hits = [h.url for h in engine.search(query, per_page=10).hits]
        return (1.0 / (hits.index(url) + 1) if url in hits else 0.0), (hits[0] if hits else None)

    def window(doc: dict, n: int) -> str:
        words = doc["body"].split()
        if len(words) < 200:
            words = words + words
        start = rng.randrange(50, max(51, len(words) - n))
        return " ".join(words[start : start + n])

    kinds = {
        "title words": lambda d: " ".join(d["title"].replace("—", " ").split()[:3]),
        "5 words of the text": lambda d: window(d, 5),
        "10 words of the text": lambda d: window(d, 10),
    }
    print(f"{len(docs)} pages; {len(sample)} queries per kind")
    print("| queries | Whoosh MRR | Tantivy MRR | same first result |\n|---|---|---|---|")
    for kind, make in kinds.items():
        rr = {name: 0.0 for name in engines}
        same = 0
        for doc in sample:
            query = make(doc)
            found = {name: reciprocal_rank(e, query, doc["url"]) for name, e in engines.items()}
            for name in engines:
                rr[name] += found[name][0]
            same += found["whoosh"][1] == found["tantivy"][1]
        print(f"| {kind} | {rr['whoosh'] / len(sample):.3f} | {rr['tantivy'] / len(sample):.3f} "
              f"| {same} / {len(sample)} |")


if __name__ == "__main__":
    main()
