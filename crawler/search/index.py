"""Opening, writing and rebuilding the search index (Whoosh; Tantivy through
crawler/search/tantivy_index.py, chosen by SEARCH_BACKEND).

Whoosh allows one writer at a time per index (a file lock in the index folder) and any
number of readers: a reader sees the last committed generation and picks up newer ones
when refreshed, so searches run while a crawl writes. Every writer here waits up to
``writer_timeout`` seconds for the lock instead of failing at once.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.filedb.filestore import FileStorage
from whoosh.index import FileIndex, LockError

from crawler import defaults
from crawler.search.schema import (
    INDEX_SCHEMA_VERSION,
    build_schema,
    document_from_stored,
    index_schema_version,
)

logger = logging.getLogger(__name__)

INDEX_NAME = "pages"
#: The search backends (SEARCH_BACKEND); an index folder holds one or the other.
BACKENDS = ("whoosh", "tantivy")


class SearchIndexError(RuntimeError):
    """The index cannot be opened or written (missing, older schema, locked)."""


def index_path(settings: Any) -> Path:
    """SEARCH_INDEX_DIR, else CRAWLER_DATA_DIR/index."""
    configured = settings.get("SEARCH_INDEX_DIR", defaults.SEARCH_INDEX_DIR)
    if configured:
        return Path(configured)
    return Path(settings.get("CRAWLER_DATA_DIR", defaults.CRAWLER_DATA_DIR)) / "index"


def search_backend(settings: Any) -> str:
    """SEARCH_BACKEND, checked (an unknown one is a SearchIndexError naming the others)."""
    name = str(settings.get("SEARCH_BACKEND", defaults.SEARCH_BACKEND) or "").strip().lower()
    if name not in BACKENDS:
        raise SearchIndexError(
            f"SEARCH_BACKEND must be one of {', '.join(BACKENDS)}, not {name!r}"
        )
    return name


def folder_backend(path: str | Path) -> str | None:
    """The backend of the index in ``path`` (None: no index there)."""
    from crawler.search.tantivy_index import is_tantivy_index

    if is_tantivy_index(path):
        return "tantivy"
    if whoosh_index.exists_in(str(path), indexname=INDEX_NAME):
        return "whoosh"
    return None


def _check_schema(ix: FileIndex, path: Path) -> None:
    expected = set(build_schema().names())
    found = set(ix.schema.names())
    if found != expected or (
        index_schema_version(ix.schema["content"].analyzer) != INDEX_SCHEMA_VERSION
    ):
        raise SearchIndexError(
            f"the index in {path} was built with another schema; rebuild it with `scrapy reindex`"
        )


def open_index(path: str | Path, *, create: bool = True, backend: str | None = None) -> Any:
    """Open the index in ``path``, creating an empty one when missing (if ``create``).

    ``backend``: the one a writer needs (SEARCH_BACKEND): an index of the other backend
    is refused with the advice to convert it with `scrapy reindex`; None (readers) opens
    whichever the folder holds (a new one: Whoosh)."""
    path = Path(path)
    found = folder_backend(path)
    if backend is not None and found is not None and found != backend:
        raise SearchIndexError(
            f"the index in {path} is a {found} index and SEARCH_BACKEND is {backend}: "
            "convert it with `scrapy reindex`"
        )
    if found == "tantivy" or (found is None and backend == "tantivy"):
        from crawler.search.tantivy_index import TantivyIndex, TantivyIndexError

        try:
            return TantivyIndex(path, create=create)
        except TantivyIndexError as exc:
            raise SearchIndexError(str(exc)) from exc
    if found == "whoosh":
        ix = _storage(path).open_index(INDEX_NAME)
        _check_schema(ix, path)
        return ix
    if not create:
        raise SearchIndexError(
            f"no search index in {path}: crawl with the search pipeline enabled or run "
            "`scrapy reindex`"
        )
    path.mkdir(parents=True, exist_ok=True)
    try:
        return whoosh_index.create_in(str(path), build_schema(), indexname=INDEX_NAME)
    except LockError:  # pragma: no cover - another process created it at the same time
        return _storage(path).open_index(INDEX_NAME)


def _storage(path: Path) -> FileStorage:
    """The folder's storage, reading segment files without mmap. Whoosh maps a compound
    segment file (``.seg``) and opens each file inside it as a ``BytesIO`` of the mapped
    bytes, which copies the whole file (postings, terms, stored fields: tens of MB for
    a few thousand pages) when a searcher opens: most of a one-shot search's time
    (`scrapy search`: 34-39 ms -> 14 ms of CPU for a name query on 526 pages, 60 -> 37
    ms for a description; docs/search.md, *Latency*). Read through the file instead,
    nothing is copied; a warm searcher's reads cost about a tenth more."""
    storage = FileStorage(str(path))
    storage.supports_mmap = False
    return storage


class BatchWriter:
    """What both backends' writers share: their settings, and ``write`` as an ``apply``
    that deletes nothing (each backend implements ``apply``)."""

    def __init__(
        self,
        ix: Any,
        *,
        writer_timeout: float = defaults.SEARCH_WRITER_TIMEOUT,
        limitmb: int = defaults.SEARCH_WRITER_LIMITMB,
    ) -> None:
        self.ix = ix
        self.writer_timeout = writer_timeout
        self.limitmb = limitmb

    def write(self, documents: Iterable[dict[str, Any]], *, keep_pagerank: bool = True) -> int:
        docs = list(documents)
        if not docs:
            return 0
        self.apply(docs, (), keep_pagerank=keep_pagerank)
        return len(docs)

    def apply(
        self,
        documents: Iterable[dict[str, Any]],
        deleted_urls: Iterable[str],
        *,
        keep_pagerank: bool = True,
        merge: bool = True,
        optimize: bool = False,
    ) -> None:
        raise NotImplementedError


class IndexWriter(BatchWriter):
    """Writes batches of documents: one Whoosh writer and one commit per batch.

    A document whose URL is already indexed replaces it. Unless the new document brings
    a PageRank score, the old document's score is kept (a re-fetched page keeps its rank
    until the next `scrapy pagerank`).

    ``limitmb``: memory of Whoosh's segment pool per writer (MB) before it spills runs to
    disk. Commits that do not ``merge`` write one new segment and leave the merging of
    small segments to a later merging commit (docs/search.md, *Indexer CPU*).
    """

    def __new__(cls, ix: Any, **kwargs: Any) -> Any:
        # the writer of the index's backend (a Tantivy index gets TantivyIndexWriter)
        if cls is IndexWriter and getattr(ix, "backend", "whoosh") == "tantivy":
            from crawler.search.tantivy_index import TantivyIndexWriter

            return TantivyIndexWriter(ix, **kwargs)
        return super().__new__(cls)

    def apply(
        self,
        documents: Iterable[dict[str, Any]],
        deleted_urls: Iterable[str],
        *,
        keep_pagerank: bool = True,
        merge: bool = True,
        optimize: bool = False,
    ) -> None:
        """Index ``documents`` (replacing same-URL documents) and remove the documents
        of ``deleted_urls``, in one commit. Idempotent: applying it again leaves the
        same index (``url`` is unique)."""
        docs = list(documents)
        deleted = list(deleted_urls)
        try:
            writer = self.ix.writer(timeout=self.writer_timeout, delay=0.05, limitmb=self.limitmb)
        except LockError as exc:
            raise SearchIndexError(
                f"the search index is locked by another writer for more than "
                f"{self.writer_timeout:g} s"
            ) from exc
        try:
            if keep_pagerank and docs:
                with writer.searcher() as searcher:
                    for doc in docs:
                        if doc.get("pagerank"):
                            continue
                        docnum = searcher.document_number(url=doc["url"])
                        if docnum is not None:
                            old = searcher.stored_fields(docnum).get("pagerank") or 0.0
                            doc["pagerank"] = float(old)
            for url in deleted:
                writer.delete_by_term("url", url)
            for doc in docs:
                writer.update_document(**doc)
        except BaseException:
            writer.cancel()
            raise
        if optimize:
            writer.commit(optimize=True)
        elif merge:
            writer.commit()
        else:
            writer.commit(merge=False)


def rebuild_index(
    path: str | Path,
    documents: Iterable[dict[str, Any]],
    *,
    writer_timeout: float = defaults.SEARCH_WRITER_TIMEOUT,
    backend: str = defaults.SEARCH_BACKEND,
) -> int:
    """Build a new index from ``documents`` beside ``path``, then swap it in.

    Readers of the old index keep working and see the new one when they refresh. The old
    index's write lock is held during the swap, so a crawl writing to it waits. The new
    index is of ``backend``, whichever the old one was: this converts an index.
    """
    path = Path(path)
    new_path = path.with_name(f"{path.name}.new-{os.getpid()}")
    if new_path.exists():
        shutil.rmtree(new_path)
    new_path.mkdir(parents=True)
    count = 0
    if backend == "tantivy":
        from crawler.search.tantivy_index import rebuild_tantivy_index

        try:
            count = rebuild_tantivy_index(path, new_path, documents)
            _swap_in(path, new_path, writer_timeout)
        finally:
            if new_path.exists():
                shutil.rmtree(new_path, ignore_errors=True)
        return count
    try:
        ix = whoosh_index.create_in(str(new_path), build_schema(), indexname=INDEX_NAME)
        writer = ix.writer(limitmb=256)
        try:
            for doc in documents:
                writer.add_document(**doc)
                count += 1
        except BaseException:
            writer.cancel()
            raise
        writer.commit(optimize=True)
        ix.close()
        _swap_in(path, new_path, writer_timeout)
    finally:
        if new_path.exists():
            shutil.rmtree(new_path, ignore_errors=True)
    return count


def _swap_in(path: Path, new_path: Path, writer_timeout: float) -> None:
    old_lock: Any = None
    if folder_backend(path) == "tantivy":
        from crawler.search.tantivy_index import HeldTantivyLock, TantivyIndexError

        try:
            old_lock = HeldTantivyLock(path, writer_timeout)
        except TantivyIndexError as exc:
            raise SearchIndexError(f"the search index in {path} stays locked by a writer") from exc
    elif whoosh_index.exists_in(str(path), indexname=INDEX_NAME):
        old_lock = whoosh_index.open_dir(str(path), indexname=INDEX_NAME).lock("WRITELOCK")
        deadline = time.monotonic() + writer_timeout
        while not old_lock.acquire(blocking=False):
            if time.monotonic() > deadline:
                raise SearchIndexError(f"the search index in {path} stays locked by a writer")
            time.sleep(0.05)
    old_path = path.with_name(f"{path.name}.old-{os.getpid()}")
    try:
        if path.exists():
            path.rename(old_path)
        new_path.rename(path)
    finally:
        if old_lock is not None:
            old_lock.release()
        if old_path.exists():
            shutil.rmtree(old_path, ignore_errors=True)


def update_pagerank(
    ix: FileIndex,
    scores: Mapping[str, float],
    *,
    writer_timeout: float = defaults.SEARCH_WRITER_TIMEOUT,
) -> int:
    """Set the pagerank field of indexed pages whose URL has a score; returns how many
    documents changed. Whoosh cannot change one field in place: each such document is
    re-added from its stored fields."""
    if getattr(ix, "backend", "whoosh") == "tantivy":
        from crawler.search.tantivy_index import TantivyIndexError, update_tantivy_pagerank

        try:
            return update_tantivy_pagerank(ix, scores, writer_timeout=writer_timeout)
        except TantivyIndexError as exc:
            raise SearchIndexError(str(exc)) from exc
    try:
        writer = ix.writer(timeout=writer_timeout, delay=0.05, limitmb=256)
    except LockError as exc:
        raise SearchIndexError("the search index is locked by another writer") from exc
    changed = 0
    try:
        with writer.searcher() as searcher:
            reader = searcher.reader()
            updates = []
            for _docnum, stored in reader.iter_docs():
                score = scores.get(stored["url"])
                if score is None or abs(score - (stored.get("pagerank") or 0.0)) < 1e-12:
                    continue
                updates.append(document_from_stored(stored, pagerank=score))
        for doc in updates:
            writer.update_document(**doc)
            changed += 1
    except BaseException:
        writer.cancel()
        raise
    if changed:
        writer.commit()
    else:
        writer.cancel()
    return changed


def stored_documents(ix: Any) -> list[dict[str, Any]]:
    """The stored fields of every document of an index (either backend; for checks and
    small indexes: it loads them all)."""
    if getattr(ix, "backend", "whoosh") == "tantivy":
        from crawler.search.tantivy_index import all_stored

        return all_stored(ix)
    with ix.searcher() as searcher:
        return list(searcher.all_stored_fields())
