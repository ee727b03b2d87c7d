"""The Tantivy backend's index: layout, analyzers, documents, writer, rebuild (no Scrapy).

Tantivy (https://github.com/quickwit-oss/tantivy, through the ``tantivy`` Python package)
indexes and searches in Rust. It gets the same index documents as Whoosh
(crawler.search.schema.page_document) and lays them out so the same query language and
the same relevance signals work on it (docs/search.md, *Backends*):

- text is analysed in Rust as Whoosh's analyzer does it (words of letters, digits and
  ``_``, lower case, English stop words out, stemmed: Tantivy's Snowball English stemmer
  instead of Whoosh's Porter, which stems a few words differently). Stop words are cut out
  of the text before Tantivy sees it, so positions are counted without them, as Whoosh's
  stop filter renumbers them (phrases, NEAR/n).
- Whoosh's ``content`` field weighs each token (title 3, URL 2, text 1 demoted by the
  anchor share and hub score, CONTENT_WEIGHTS, ANCHOR_WEIGHT, HUB_DEMOTION); Tantivy
  counts tokens. ``content_w`` holds the page's terms, each repeated as often as its
  weighted frequency in Whoosh's content field rounds to (at least once): BM25 on it is
  Whoosh's BM25F on content up to that rounding. It is what words without a prefix match
  and are scored by; phrases and NEAR without a prefix are matched in the positions of
  ``title``, ``body`` and ``url_text``.
- stored fields are one JSON value (``stored``) with Whoosh's stored field names, so a
  document can be rebuilt from them (scrapy pagerank) exactly as with Whoosh.
- the PageRank, language and grouping keys are fast fields (columns), read for the hits.
- ``url_key`` (layout 3) is a hash of the URL, indexed and a fast field: the proximity
  rescore reads it for its best hits and restricts its phrases to them by it, instead of
  reading each hit's whole stored document for its URL (docs/search.md, 2026-11-27).
- ``pagerank_blend`` is the PageRank blend's factor in the form Tantivy's score weighting
  takes (``weight_by_field``: score x log2(2 + value)), for the blend weight recorded in
  the marker: Tantivy then ranks by the blended score itself, in one pass over the
  matches, instead of a window of raw-score hits blended in Python.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import tantivy
import xxhash
from whoosh.analysis import STOP_WORDS

from crawler import defaults
from crawler.search.fields import anchor_share
from crawler.search.index import BatchWriter
from crawler.search.query.compiler import NAME_PART_MIN_CHARS
from crawler.search.ranking import blend
from crawler.search.schema import (
    ANCHOR_WEIGHT,
    CONTENT_WEIGHTS,
    HUB_DEMOTION,
    INDEX_SCHEMA_VERSION,
    LEAD_WORDS,
    document_from_stored,
)

logger = logging.getLogger(__name__)

#: The file that marks a crawler's Tantivy index and records its layout.
MARKER = "crawler-index.json"
#: Version of this backend's layout (beside INDEX_SCHEMA_VERSION, the documents' own).
#: 2: the ``pagerank_blend`` fast field. 3: the ``url_key`` field.
LAYOUT_VERSION = 3
#: Older layouts still opened, read and written (without what came after them: an index
#: of layout 2 has no ``url_key``, and its rescore reads the hits' stored URLs, slower);
#: `scrapy reindex` rebuilds one in the current layout.
OPENED_LAYOUTS = (2, LAYOUT_VERSION)
#: The PageRank weight ``pagerank_blend`` is computed for (recorded in the marker); an
#: engine with another SEARCH_PAGERANK_WEIGHT blends a window of hits in Python instead.
BLEND_WEIGHT = defaults.SEARCH_PAGERANK_WEIGHT
#: Stored fields kept in the ``stored`` JSON value (Whoosh's stored field names).
STORED_FIELDS = (
    "url",
    "title",
    "body",
    "headings",
    "inlinks",
    "context",
    "anchor_text",
    "lang",
    "variant",
    "copy",
    "host",
    "domain",
    "content_type",
    "format",
    "crawl_id",
    "fetched",
    "modified",
    "depth",
    "hub",
    "pagerank",
)
#: The name-part vocabulary: the terms of the exact title and URL name (NAME_FIELDS) that
#: hold a run of NAME_PART_MIN_CHARS letters, one a line, appended by the writers before
#: each commit. It holds every such term of the index (and those of deleted pages: a
#: superset does no harm, a term query of a term no page holds matches nothing), so the
#: engine finds the terms holding a query word there (the name-part bonus) instead of a
#: regular expression over the fields' whole term dictionaries.
NAME_TERMS = "name-terms.txt"
NAME_FIELDS = ("title_exact", "url_name")
_NAME_TERM = re.compile(rf"[^\W\d_]{{{NAME_PART_MIN_CHARS},}}")
#: A lead weighing less than this (a hub page's, 1 - HUB_DEMOTION * hub) is not indexed:
#: Tantivy cannot weigh a field's tokens below one occurrence.
MIN_LEAD_WEIGHT = 0.5

def _trie_pattern(words: Iterable[str]) -> str:
    """A regular expression matching exactly ``words``, as a trie (alternatives share
    their prefixes: several times faster than a flat alternation of 170 words)."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        ends = "" in node
        branches = [re.escape(c) + pattern(child) for c, child in sorted(node.items()) if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if ends else body

    return pattern(trie)


_STOP = re.compile(r"\b" + _trie_pattern(STOP_WORDS) + r"\b", re.IGNORECASE)
TEXT_ANALYZER = "crawler_text"
EXACT_ANALYZER = "crawler_exact"
URL_ANALYZER = "crawler_url"


class TantivyIndexError(RuntimeError):
    pass


def without_stop_words(text: str) -> str:
    """``text`` with the English stop words (Whoosh's list) cut out."""
    return _STOP.sub("", text)


def analyzers() -> dict[str, Any]:
    """The Tantivy analyzers by name (registered with every index opened)."""

    def build(pattern: str, stem: bool) -> Any:
        builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.regex(pattern)).filter(
            tantivy.Filter.lowercase()
        )
        builder = builder.filter(tantivy.Filter.remove_long(61))
        if stem:
            builder = builder.filter(tantivy.Filter.stemmer("english"))
        return builder.build()

    return {
        TEXT_ANALYZER: build(r"\w+", True),
        EXACT_ANALYZER: build(r"\w+", False),
        URL_ANALYZER: build(r"[^\W_]+", True),
    }


_ANALYZERS = analyzers()


def analyze(kind: str, text: str) -> list[str]:
    """The terms of ``text`` for a field analysed by ``kind`` (TEXT_, EXACT_, URL_ANALYZER),
    stop words out for the text analyzer, as indexed."""
    if kind == TEXT_ANALYZER:
        text = without_stop_words(text)
    return _ANALYZERS[kind].analyze(text)


def build_tantivy_schema(*, url_key: bool = True) -> Any:
    """The schema of a new index (``url_key=False``: layout 2's, for the tests of an
    index in it)."""
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("url", tokenizer_name="raw", index_option="basic")
    # weighted terms of title, text and URL (module docstring): match and score
    sb.add_text_field("content_w", tokenizer_name="whitespace", index_option="freq")
    for name in ("title", "body", "headings", "inlinks", "context", "lead"):
        sb.add_text_field(name, tokenizer_name=TEXT_ANALYZER)
    sb.add_text_field("url_text", tokenizer_name=URL_ANALYZER)
    sb.add_text_field("title_exact", tokenizer_name=EXACT_ANALYZER)
    sb.add_text_field("url_name", tokenizer_name=EXACT_ANALYZER)
    for name in ("host", "domain", "site", "content_type", "format", "crawl_id"):
        sb.add_text_field(name, tokenizer_name="raw", index_option="basic")
    sb.add_date_field("updated", indexed=True, fast=True)
    sb.add_float_field("pagerank", fast=True)
    sb.add_float_field("pagerank_blend", fast=True)
    # language (ASCII packed in 8 bytes) and hashes of the grouping keys
    sb.add_unsigned_field("lang_code", fast=True)
    sb.add_unsigned_field("variant_key", fast=True)
    sb.add_unsigned_field("copy_key", fast=True)
    if url_key:
        # the URL's hash (url_key_of), indexed and a column: the rescore's best hits read
        # it by address (a column read; Tantivy's columns of text are not readable from
        # Python, and the stored document is the page's whole text) and are found again
        # by it, a term of each
        sb.add_unsigned_field("url_key", indexed=True, fast=True)
    sb.add_bytes_field("stored", stored=True)
    return sb.build()


def blend_weight_value(pagerank: float, weight: float = BLEND_WEIGHT) -> float:
    """The ``pagerank_blend`` value of a page: v with log2(2 + v), the factor Tantivy's
    ``weight_by_field`` multiplies a score by, equal to the blend's 1 + w * ln(1 + PR)
    (crawler.search.ranking.blend; the factor is at least 1, so v >= 0)."""
    return 2.0 ** blend(1.0, pagerank, weight) - 2.0


def lang_code(lang: str) -> int:
    return int.from_bytes(lang.encode("ascii", "ignore")[:8].ljust(8, b"\0"), "big")


def lang_from_code(code: int | None) -> str:
    if not code:
        return ""
    return code.to_bytes(8, "big").rstrip(b"\0").decode("ascii", "ignore")


def key_hash(value: str) -> int:
    return xxhash.xxh64_intdigest(value.encode()) if value else 0


def url_key_of(url: str) -> int:
    """The ``url_key`` of a page: the 64-bit hash of its URL (two of a million pages'
    URLs share one with a probability of about 3e-8; the rescore tolerates a shared one,
    see TantivySearchEngine._rescored)."""
    return xxhash.xxh64_intdigest(url.encode())


def is_tantivy_index(path: str | Path) -> bool:
    return (Path(path) / MARKER).exists()


class TantivyIndex:
    """A crawler's Tantivy index in a folder (the marker file tells its layout)."""

    backend = "tantivy"

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        marker = self.path / MARKER
        if marker.exists():
            info = json.loads(marker.read_text())
            if (
                info.get("schema_version") != INDEX_SCHEMA_VERSION
                or info.get("layout") not in OPENED_LAYOUTS
            ):
                raise TantivyIndexError(
                    f"the index in {self.path} was built with another schema; rebuild it "
                    "with `scrapy reindex`"
                )
            self.index = tantivy.Index.open(str(self.path))
            self.layout = int(info["layout"])
            if self.layout != LAYOUT_VERSION:
                logger.warning(
                    "the search index in %s has layout %d (current: %d): it works, but "
                    "its queries are slower (no url_key field); rebuild it with "
                    "`scrapy reindex`",
                    self.path, self.layout, LAYOUT_VERSION,
                )
        elif not create:
            raise TantivyIndexError(
                f"no search index in {self.path}: crawl with the search pipeline enabled "
                "or run `scrapy reindex`"
            )
        else:
            self.path.mkdir(parents=True, exist_ok=True)
            self.index = tantivy.Index(build_tantivy_schema(), path=str(self.path), reuse=True)
            self.layout = LAYOUT_VERSION
            tmp = marker.with_suffix(".tmp")
            tmp.write_text(
                json.dumps(
                    {
                        "backend": "tantivy",
                        "schema_version": INDEX_SCHEMA_VERSION,
                        "layout": LAYOUT_VERSION,
                        "blend_weight": BLEND_WEIGHT,
                    }
                )
            )
            os.replace(tmp, marker)
            (self.path / NAME_TERMS).touch()
        for name, analyzer in _ANALYZERS.items():
            self.index.register_tokenizer(name, analyzer)
        self.schema = self.index.schema
        #: the index has the ``url_key`` field (layout 3 on)
        self.has_url_key = self.layout >= 3
        #: the PageRank weight of the ``pagerank_blend`` field
        self.blend_weight = float(json.loads(marker.read_text()).get("blend_weight", BLEND_WEIGHT))

    def close(self) -> None:
        pass  # (the Rust index is released with the object)

    def writer(self, *, timeout: float, heap_mb: int, threads: int = 1) -> Any:
        """A Tantivy writer, waiting up to ``timeout`` seconds for the folder's write lock."""
        deadline = time.monotonic() + timeout
        heap = max(15, heap_mb) * 1_000_000 * max(1, threads)
        while True:
            try:
                return self.index.writer(heap_size=heap, num_threads=threads)
            except ValueError as exc:
                if "lock" not in str(exc).lower() or time.monotonic() > deadline:
                    raise TantivyIndexError(
                        f"the search index is locked by another writer for more than {timeout:g} s"
                    ) from exc
                time.sleep(0.05)

    def searcher(self) -> Any:
        self.index.reload()
        return self.index.searcher()


def _json_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def stored_value(doc: Mapping[str, Any]) -> dict[str, Any]:
    return {name: _json_value(doc[name]) for name in STORED_FIELDS if doc.get(name) is not None}


_URL_FIRST = b'{"url": '
_DECODER = json.JSONDecoder()


def stored_url(raw: bytes) -> str:
    """The URL of a ``stored`` value without decoding the rest (the page's text): it is
    the value's first key (STORED_FIELDS)."""
    if raw.startswith(_URL_FIRST):
        try:
            url, _ = _DECODER.raw_decode(raw[len(_URL_FIRST) : 8192].decode(errors="ignore"))
        except ValueError:
            pass
        else:
            if isinstance(url, str):
                return url
    return load_stored(raw)["url"]


def load_stored(raw: bytes) -> dict[str, Any]:
    stored = json.loads(raw)
    for name in ("fetched", "modified"):
        if stored.get(name):
            stored[name] = datetime.fromisoformat(stored[name])
    return stored


def content_terms(title: str, body: str, url: str, hub: float, anchors: str) -> list[str]:
    """The terms of Whoosh's ``content`` field, each as often as its weighted frequency
    rounds to (at least once); ``title`` and ``body`` without stop words already."""
    text = _ANALYZERS[TEXT_ANALYZER]
    title_terms = text.analyze(title)
    body_terms = text.analyze(body)
    url_terms = analyze(URL_ANALYZER, url)
    terms = title_terms * int(CONTENT_WEIGHTS["title"]) + url_terms * int(CONTENT_WEIGHTS["url"])
    base = CONTENT_WEIGHTS["body"] * (1.0 - HUB_DEMOTION * hub)
    if not anchors and base == 1.0:
        return terms + body_terms
    counts = Counter(body_terms)
    shares = anchor_share(counts, Counter(analyze(TEXT_ANALYZER, anchors))) if anchors else {}
    for term, count in counts.items():
        weight = base * (1.0 - (1.0 - ANCHOR_WEIGHT) * shares.get(term, 0.0))
        terms += [term] * max(1, round(count * weight))
    return terms


def tantivy_document(
    doc: Mapping[str, Any], blend_weight: float = BLEND_WEIGHT, *, url_key: bool = True
) -> Any:
    """The Tantivy document of an index document (crawler.search.schema.page_document),
    its ``pagerank_blend`` for the index's ``blend_weight``; ``url_key``: with that field
    (an index of layout 3 on)."""
    hub = float(doc.get("hub") or 0.0)
    title, body, url = doc.get("title") or "", doc.get("body") or "", doc["url"]
    title_words, body_words = without_stop_words(title), without_stop_words(body)
    out = tantivy.Document()
    out.add_text("url", url)
    if url_key:
        out.add_unsigned("url_key", url_key_of(url))
    anchors = doc.get("anchor_text") or ""
    out.add_text("content_w", " ".join(content_terms(title_words, body_words, url, hub, anchors)))
    out.add_text("title", title_words)
    out.add_text("body", body_words)
    for name in ("headings", "inlinks", "context"):
        if doc.get(name):
            out.add_text(name, without_stop_words(doc[name]))
    if 1.0 - HUB_DEMOTION * hub >= MIN_LEAD_WEIGHT:
        words = body.split(maxsplit=LEAD_WORDS)
        out.add_text("lead", without_stop_words(" ".join(words[:LEAD_WORDS])))
    out.add_text("url_text", url)
    out.add_text("title_exact", title)
    out.add_text("url_name", doc.get("url_name") or "")
    for name in ("host", "domain", "content_type", "format", "crawl_id"):
        out.add_text(name, doc.get(name) or "")
    for suffix in (doc.get("site") or "").split():
        out.add_text("site", suffix.lower())
    updated = doc.get("updated") or doc.get("fetched")
    if updated is not None:
        out.add_date("updated", updated)
    pagerank = float(doc.get("pagerank") or 0.0)
    out.add_float("pagerank", pagerank)
    out.add_float("pagerank_blend", blend_weight_value(pagerank, blend_weight))
    out.add_unsigned("lang_code", lang_code(doc.get("lang") or ""))
    out.add_unsigned("variant_key", key_hash(doc.get("variant") or ""))
    out.add_unsigned("copy_key", key_hash(doc.get("copy") or ""))
    out.add_bytes("stored", json.dumps(stored_value(doc)).encode())
    return out


def stored_by_url(ix: TantivyIndex, searcher: Any, urls: list[str]) -> dict[str, dict[str, Any]]:
    """The stored fields of the indexed documents of ``urls``."""
    found: dict[str, dict[str, Any]] = {}
    for start in range(0, len(urls), 1000):
        chunk = urls[start : start + 1000]
        query = tantivy.Query.term_set_query(ix.schema, "url", chunk)
        result = searcher.search(query, len(chunk) + 1, count=False)
        for _score, address in result.hits:
            stored = load_stored(searcher.doc(address).get_first("stored"))
            found[stored["url"]] = stored
    return found


def all_stored(ix: TantivyIndex) -> list[dict[str, Any]]:
    """The stored fields of every document."""
    searcher = ix.searcher()
    if not searcher.num_docs:
        return []
    result = searcher.search(tantivy.Query.all_query(), searcher.num_docs, count=False)
    return [load_stored(searcher.doc(address).get_first("stored")) for _, address in result.hits]


class TantivyIndexWriter(BatchWriter):
    """Writes batches of documents: one Tantivy writer and one commit per batch (the
    Whoosh IndexWriter's interface and guarantees: a document replaces the one of its URL
    and keeps its PageRank unless it brings one; applying a batch again leaves the same
    index)."""

    _name_terms: NameTermsWriter | None = None

    def apply(
        self,
        documents: Iterable[dict[str, Any]],
        deleted_urls: Iterable[str],
        *,
        keep_pagerank: bool = True,
        merge: bool = True,
        optimize: bool = False,
    ) -> None:
        """Index ``documents`` (replacing same-URL documents) and remove the documents of
        ``deleted_urls``, in one commit. (``merge`` and ``optimize`` are Whoosh's: Tantivy
        merges segments in its own threads by its merge policy.)"""
        docs = list(documents)
        deleted = list(deleted_urls)
        if not docs and not deleted:
            return
        if keep_pagerank and docs:
            missing = [doc["url"] for doc in docs if not doc.get("pagerank")]
            if missing:
                old = stored_by_url(self.ix, self.ix.searcher(), missing)
                for doc in docs:
                    if not doc.get("pagerank") and doc["url"] in old:
                        doc["pagerank"] = float(old[doc["url"]].get("pagerank") or 0.0)
        converted = [
            tantivy_document(doc, self.ix.blend_weight, url_key=self.ix.has_url_key)
            for doc in docs
        ]
        writer = self.ix.writer(timeout=self.writer_timeout, heap_mb=self.limitmb)
        try:
            if docs:
                if self._name_terms is None or self._name_terms.ix is not self.ix:
                    self._name_terms = NameTermsWriter(self.ix)
                self._name_terms.add(set().union(*(name_terms(doc) for doc in docs)))
            for url in deleted:
                writer.delete_documents_by_term("url", url)
            for doc, tdoc in zip(docs, converted, strict=True):
                writer.delete_documents_by_term("url", doc["url"])
                writer.add_document(tdoc)
            writer.commit()
        except BaseException:
            writer.rollback()
            raise
        finally:
            writer.wait_merging_threads()  # releases the write lock


def name_terms(doc: Mapping[str, Any]) -> set[str]:
    """The name-part vocabulary's terms of an index document (its exact title's and URL
    name's terms holding a run of NAME_PART_MIN_CHARS letters)."""
    exact = _ANALYZERS[EXACT_ANALYZER]
    return {
        term
        for text in (doc.get("title") or "", doc.get("url_name") or "")
        for term in exact.analyze(text)
        if _NAME_TERM.search(term)
    }


def read_name_terms(path: Path) -> str | None:
    """The name-part vocabulary of the index in ``path`` as one string, a term a line
    (a line being appended is left out); None for an index written before it existed."""
    try:
        text = (path / NAME_TERMS).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return text[: text.rfind("\n") + 1]


def terms_holding(vocabulary: str, word: str) -> list[str]:
    """The terms of ``vocabulary`` (read_name_terms) that hold ``word`` inside them and are
    longer: what the regular expression ``.+word.*|.*word.+`` matches."""
    found: dict[str, None] = {}
    start = vocabulary.find(word)
    while start >= 0:
        begin = vocabulary.rfind("\n", 0, start) + 1
        end = vocabulary.find("\n", start)
        if end - begin > len(word):
            found[vocabulary[begin:end]] = None
        start = vocabulary.find(word, end)
    return list(found)


class NameTermsWriter:
    """Appends the name-part vocabulary of an index (its writer's side; call ``add``
    holding the index's write lock, before the commit)."""

    def __init__(self, ix: TantivyIndex) -> None:
        self.ix = ix
        self.known: set[str] = set()
        self.stamp: tuple[int, int] | None = None  # the file's (inode, size) as known

    def add(self, terms: Iterable[str]) -> None:
        if self.stamp is None or self.stamp != self._stamp():
            # first use, or another writer appended (or a rebuild replaced the folder)
            self.known = self._load()
        new = set(terms) - self.known
        if new:
            with open(self.ix.path / NAME_TERMS, "a", encoding="utf-8") as out:
                out.write("".join(f"{term}\n" for term in sorted(new)))
            self.known |= new
        self.stamp = self._stamp()

    def _stamp(self) -> tuple[int, int] | None:
        try:
            stat = (self.ix.path / NAME_TERMS).stat()
        except FileNotFoundError:
            return None
        return stat.st_ino, stat.st_size

    def _load(self) -> set[str]:
        text = read_name_terms(self.ix.path)
        if text is not None:
            return set(text.split("\n")[:-1])
        # an index written before the vocabulary existed: its terms, read once
        searcher = self.ix.searcher()
        known = {
            term
            for fieldname in NAME_FIELDS
            for term, _ in searcher.terms_with_prefix(fieldname, "")
            if _NAME_TERM.search(term)
        }
        tmp = self.ix.path / f"{NAME_TERMS}.tmp"
        tmp.write_text("".join(f"{term}\n" for term in sorted(known)), encoding="utf-8")
        os.replace(tmp, self.ix.path / NAME_TERMS)
        return known


def rebuild_tantivy_index(
    path: Path, new_path: Path, documents: Iterable[dict[str, Any]], *, threads: int = 1
) -> int:
    """Build a Tantivy index of ``documents`` in ``new_path`` (to be swapped in for
    ``path``); the number of documents."""
    ix = TantivyIndex(new_path)
    writer = ix.writer(timeout=0, heap_mb=256, threads=threads)
    count = 0
    vocabulary: set[str] = set()
    try:
        for doc in documents:
            writer.add_document(tantivy_document(doc))
            vocabulary |= name_terms(doc)
            count += 1
        NameTermsWriter(ix).add(vocabulary)
        writer.commit()
    except BaseException:
        writer.rollback()
        raise
    finally:
        writer.wait_merging_threads()
    return count


class HeldTantivyLock:
    """The write lock of a Tantivy index, held (a writer open) until released."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.writer = TantivyIndex(path, create=False).writer(timeout=timeout, heap_mb=15)

    def release(self) -> None:
        self.writer.wait_merging_threads()
        self.writer = None


def update_tantivy_pagerank(
    ix: TantivyIndex,
    scores: Mapping[str, float],
    *,
    writer_timeout: float = defaults.SEARCH_WRITER_TIMEOUT,
) -> int:
    """Set the pagerank of indexed pages whose URL has a score (each re-added from its
    stored fields, as with Whoosh); returns how many documents changed."""
    searcher = ix.searcher()
    urls = list(scores)
    updates = []
    for start in range(0, len(urls), 1000):
        for url, stored in stored_by_url(ix, searcher, urls[start : start + 1000]).items():
            score = scores[url]
            if abs(score - (stored.get("pagerank") or 0.0)) < 1e-12:
                continue
            updates.append(document_from_stored(stored, pagerank=score))
    if updates:
        TantivyIndexWriter(ix, writer_timeout=writer_timeout, limitmb=64).apply(
            updates, (), keep_pagerank=False
        )
    return len(updates)


def remove_index_folder(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
