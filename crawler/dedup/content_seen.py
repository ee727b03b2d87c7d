"""The content-seen test of a crawl: exact digest + near-duplicate index (no Scrapy).

A page is fingerprinted once (:meth:`ContentSeenTest.fingerprint`): the MD5 of its
normalised text (exact duplicates: equal up to white space, case and punctuation), its
winnowing minutiae and their MinHash signature (near duplicates).  :meth:`find` compares
it with the pages already admitted; :meth:`add` admits it.  The first page seen with a
content is the original: later copies are its duplicates, whichever of them is "the
real one" on the web.

Two ways to keep the minutiae needed to verify LSH candidates on their true Jaccard:

* in memory (``keep_minutiae=True``, the default): :meth:`find` needs nothing else;
* elsewhere (``keep_minutiae=False``, e.g. in PostgreSQL): the caller asks
  :meth:`candidates` for the keys to verify, fetches their minutiae and passes them to
  :meth:`find` as ``stored``.  Only the exact digests and the LSH tables stay in memory.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from crawler.dedup.near_duplicates import NearDuplicateIndex, best_match
from crawler.dedup.winnowing import WinnowingFingerprint, normalize_text

__all__ = ["ContentSeenTest", "Duplicate", "PageFingerprint", "StoredFingerprint"]


@dataclass(frozen=True)
class PageFingerprint:
    """What the content-seen test knows about one page's text."""

    digest: str  # MD5 hex of the normalised text
    minutiae: np.ndarray  # sorted distinct uint64
    signature: np.ndarray  # MinHash values, uint32, num_perm of them


@dataclass(frozen=True)
class StoredFingerprint:
    """A fingerprint as persisted: ``minutiae`` may be None (kept elsewhere), the
    signature may be None (recomputed from the minutiae)."""

    url: str
    digest: str
    minutiae: np.ndarray | bytes | None
    signature: np.ndarray | bytes | None


@dataclass(frozen=True)
class Duplicate:
    """The page is a duplicate of ``original`` (exact: same normalised text)."""

    original: str
    similarity: float
    exact: bool

    @property
    def kind(self) -> str:
        return "exact" if self.exact else "near"

    @property
    def detail(self) -> str:
        """``"<exact|near> duplicate of <URL> (similarity <J>)"``, J truncated (never
        rounded up) to 3 decimals: parse it with :meth:`parse_detail`."""
        truncated = math.floor(self.similarity * 1000) / 1000
        return f"{self.kind} duplicate of {self.original} (similarity {truncated:.3f})"

    @staticmethod
    def parse_detail(detail: str) -> Duplicate:
        """The inverse of :attr:`detail` (similarity as written, truncated)."""
        kind, rest = detail.split(" duplicate of ", 1)
        original, similarity = rest.rsplit(" (similarity ", 1)
        if kind not in ("exact", "near") or not similarity.endswith(")"):
            raise ValueError(f"not a duplicate detail: {detail!r}")
        return Duplicate(original, float(similarity[:-1]), kind == "exact")


class ContentSeenTest:
    """Exact digests and a :class:`NearDuplicateIndex` of the pages admitted so far.

    ``fingerprint``: the winnowing configuration (K, W, hash); ``threshold``: the Jaccard
    of minutiae at or above which a page is a near duplicate; ``num_perm``: MinHash
    permutations.  Keys are page URLs.
    """

    def __init__(
        self,
        fingerprint: WinnowingFingerprint | None = None,
        threshold: float = 0.8,
        num_perm: int = 128,
        *,
        keep_minutiae: bool = True,
    ) -> None:
        self.winnowing = fingerprint or WinnowingFingerprint()
        self.keep_minutiae = keep_minutiae
        self.index = NearDuplicateIndex(
            threshold, num_perm, lookup=None if keep_minutiae else self._no_lookup
        )
        self._digests: dict[bytes, str] = {}  # MD5 (16 bytes) -> first URL with it

    @property
    def threshold(self) -> float:
        return self.index.threshold

    @property
    def scheme(self) -> str:
        """Identifies the minutiae's configuration (stored with them): minutiae of
        different schemes are never compared."""
        w = self.winnowing
        return f"winnow:k={w.k}:w={w.w}:{w.hash_name}"

    @staticmethod
    def _no_lookup(key: str) -> np.ndarray:
        raise LookupError(f"minutiae of {key!r} are not kept in memory: pass them to find()")

    # ------------------------------------------------------------------ fingerprints

    def fingerprint(self, text: str) -> PageFingerprint | None:
        """The fingerprint of a page's text; None if nothing is left after normalising
        (an empty page carries no evidence and is never a duplicate)."""
        normalized = normalize_text(text)
        if not normalized:
            return None
        digest = hashlib.md5(normalized.encode("utf-8")).hexdigest()
        minutiae = self.winnowing.normalized_minutiae_array(normalized)
        return PageFingerprint(digest, minutiae, self.index.signature(minutiae))

    # ------------------------------------------------------------------ decisions

    def find_exact(self, url: str, fingerprint: PageFingerprint) -> Duplicate | None:
        """The admitted page (other than ``url``) with the same normalised text."""
        original = self._digests.get(bytes.fromhex(fingerprint.digest))
        if original is None or original == url:
            return None
        return Duplicate(original, 1.0, exact=True)

    def candidates(self, url: str, fingerprint: PageFingerprint) -> list[str]:
        """Admitted pages (other than ``url``) the LSH proposes as near duplicates:
        the keys whose minutiae :meth:`find` needs when they are not kept in memory."""
        keys = self.index.candidates(fingerprint.minutiae, signature=fingerprint.signature)
        return sorted(key for key in keys if key != url)

    def find(
        self,
        url: str,
        fingerprint: PageFingerprint,
        stored: Mapping[str, np.ndarray | Iterable[int]] | None = None,
    ) -> Duplicate | None:
        """The page ``url`` duplicates among the admitted pages, if any.

        Exact duplicates first; else the near duplicate with the highest true Jaccard
        >= threshold.  ``stored``: the minutiae of the :meth:`candidates` (required when
        minutiae are not kept in memory; candidates missing from it are skipped).
        """
        duplicate = self.find_exact(url, fingerprint)
        if duplicate is not None:
            return duplicate
        if self.keep_minutiae and stored is None:
            match = self.index.query(
                fingerprint.minutiae, signature=fingerprint.signature, exclude=url
            )
            return None if match is None else Duplicate(match.key, match.similarity, False)
        if stored is None:
            raise ValueError("minutiae are not kept in memory: pass stored=")
        keys = self.candidates(url, fingerprint)
        return self.verify(fingerprint, {key: stored[key] for key in keys if key in stored})

    def verify(
        self, fingerprint: PageFingerprint, stored: Mapping[str, np.ndarray | Iterable[int]]
    ) -> Duplicate | None:
        """The near duplicate among ``stored`` (key -> minutiae, e.g. the fetched minutiae
        of the :meth:`candidates`): highest true Jaccard >= threshold, ties to the
        smallest key."""
        match = best_match(fingerprint.minutiae, stored.items(), self.threshold)
        return None if match is None else Duplicate(match.key, match.similarity, exact=False)

    def add(self, url: str, fingerprint: PageFingerprint) -> None:
        """Admit a page (a page already admitted is re-indexed with its new content).
        The first URL with a normalised text stays its original."""
        self._digests.setdefault(bytes.fromhex(fingerprint.digest), url)
        if url in self.index:
            self.index.remove(url)
        self.index.add(url, fingerprint.minutiae, signature=fingerprint.signature)

    def check(self, url: str, text: str) -> tuple[PageFingerprint | None, Duplicate | None]:
        """Fingerprint ``text``, find what it duplicates, admit it if it is new (minutiae
        in memory only).  Returns the fingerprint (None for an empty text) and the
        duplicate found (None: the page was admitted)."""
        fingerprint = self.fingerprint(text)
        if fingerprint is None:
            return None, None
        duplicate = self.find(url, fingerprint)
        if duplicate is None:
            self.add(url, fingerprint)
        return fingerprint, duplicate

    # ------------------------------------------------------------------ rebuilding

    def load(self, rows: Iterable[StoredFingerprint]) -> tuple[int, int]:
        """Admit persisted fingerprints (in the order given: the first with a digest is
        its original).  Rows whose signature has another length than ``num_perm`` get
        it recomputed from their minutiae; rows with neither are only used for the exact
        test.  Returns (pages in the near-duplicate index, pages with the exact test
        only)."""
        exact_only = 0

        def indexable():
            nonlocal exact_only
            for row in rows:
                self._digests.setdefault(bytes.fromhex(row.digest), row.url)
                minutiae = _as_uint64(row.minutiae)
                signature = _as_uint32(row.signature)
                if signature is not None and signature.size != self.index.num_perm:
                    signature = None
                if signature is None and minutiae is None:
                    exact_only += 1
                    continue
                if row.url in self.index:  # (crawl id, URL) is unique in storage
                    continue
                if minutiae is None:  # minutiae kept elsewhere: the index never reads them
                    minutiae = np.zeros(0, dtype=np.uint64)
                yield row.url, minutiae, signature

        indexed = self.index.add_many(indexable())
        return indexed, exact_only

    def __len__(self) -> int:
        """Pages in the near-duplicate index."""
        return len(self.index)

    def __contains__(self, url: object) -> bool:
        return url in self.index


def _as_uint64(value: np.ndarray | bytes | None) -> np.ndarray | None:
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return np.frombuffer(value, dtype="<u8").astype(np.uint64, copy=False)
    return np.asarray(value, dtype=np.uint64)


def _as_uint32(value: np.ndarray | bytes | None) -> np.ndarray | None:
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return np.frombuffer(value, dtype="<u4").astype(np.uint32, copy=False)
    return np.asarray(value, dtype=np.uint32)
