"""CPU per page of the search index's text analysis and of in-process indexing (prints
numbers).

Input: the Debian documentation pages (bench/scratch.py ``debian_doc_texts``), made into
index documents by ``crawler.search.schema.page_document``. Two measures, each with
``time.process_time`` (CPU, not wall clock):

- analysis: every indexed field of every document through its field's ``index``
  (analyzer, then the posting format's encoding), in Whoosh's field order;
- indexing: the documents added to a new index in a temporary folder with one writer,
  committed every ``--batch`` documents (analysis plus writing postings and segments).

``--root`` imports ``crawler`` from another checkout: run it once with ``--root
/work/main`` and once without for a before/after in the same conditions.

    .venv/bin/python bench/analysis_speed.py [--pages 1500] [--rounds 2] [--root CHECKOUT]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--root", default=str(ROOT), help="checkout to import crawler from")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.root).resolve()))
    import crawler.search.schema as schema_module  # before scratch, which adds ROOT

    assert schema_module.__file__.startswith(str(Path(args.root).resolve()))
    sys.path.insert(1, str(ROOT / "bench"))
    from scratch import debian_doc_texts
    from whoosh import index as whoosh_index

    now = datetime(2026, 11, 25, tzinfo=UTC)
    docs = [
        schema_module.page_document(
            url=url,
            title=title,
            text=text,
            host=url.split("/")[2],
            content_type="text/html",
            fetched_at=now,
        )
        for url, title, text in debian_doc_texts(args.pages)
    ]
    print(f"{len(docs)} pages from {args.root}; load average {os.getloadavg()[0]:.2f}")
    for round_ in range(1, args.rounds + 1):
        schema = schema_module.build_schema()
        start = time.process_time()
        for doc in docs:
            for name in sorted(doc):
                field = schema[name]
                if field.indexed:
                    for _ in field.index(doc[name]):
                        pass
        analysis = time.process_time() - start
        with tempfile.TemporaryDirectory(prefix="analysis-speed-") as folder:
            ix = whoosh_index.create_in(folder, schema_module.build_schema(), indexname="pages")
            start = time.process_time()
            for i in range(0, len(docs), args.batch):
                writer = ix.writer(limitmb=128)
                for doc in docs[i : i + args.batch]:
                    writer.add_document(**doc)
                writer.commit()
            indexing = time.process_time() - start
            ix.close()
        print(
            f"  round {round_}: analysis {1000 * analysis / len(docs):.2f} ms/page, "
            f"indexing {1000 * indexing / len(docs):.2f} ms/page "
            f"(load average {os.getloadavg()[0]:.2f})",
            flush=True,
        )


if __name__ == "__main__":
    main()
