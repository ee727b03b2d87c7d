"""Near-duplicate index over winnowing minutiae: MinHash LSH + exact Jaccard check.

``NearDuplicateIndex`` answers "has a page with (true) Jaccard similarity >= threshold
on its minutiae set been indexed?".  datasketch's ``MinHashLSH`` proposes candidates
from MinHash signatures; every candidate is then verified on the actual minutiae sets,
so a reported ``Match`` always has ``similarity >= threshold`` (no false positives from
the sketch).  False negatives of the LSH banding remain possible: the default banding
proposes a pair at exactly the threshold with probability >= 0.95 (0.985 for 0.8).

MinHash signatures are computed exactly as datasketch's ``MinHash.update_batch`` with
the default "affine32" scheme and an identity hash function on the low 32 bits of each
minutia (the minutiae are already uniform 64-bit hashes, so hashing them again with
SHA-1 per element, datasketch's default, would only cost time), but vectorised over the
whole set.  ``tests/dedup/test_near_duplicates.py`` checks the equivalence.

Memory (per page, measured by ``bench/dedup_eval.py`` section 4; the figures are in
docs/dedup.md, "Memory"):

* LSH tables (datasketch in-memory dict storage): a set, a band key and a dict slot per
  band, so memory grows with the number of bands (default banding 18 x 7 at threshold
  0.8).  datasketch's own banding (9 x 13) would halve it, at the price of finding
  pairs at Jaccard 0.8 only 40 % of the time; pass ``params`` to choose.
  ``ContentSeenTest`` bands for its second stage's lower candidate threshold (0.55:
  32 x 4), nearly twice the bands.
* verification sets, if kept here (``lookup=None``): sorted uint64 arrays, 8 bytes per
  minutia plus the array's overhead per page.  For large crawls pass ``lookup`` (e.g. a
  fetch of the stored minutiae from PostgreSQL) and only the LSH stays here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from crawler import defaults

if TYPE_CHECKING:
    from datasketch import MinHash, MinHashLSH

__all__ = [
    "Match",
    "NearDuplicateIndex",
    "as_minutiae_array",
    "best_match",
    "candidate_probability",
    "jaccard",
    "recall_oriented_bands",
    "sorted_jaccard",
]

_SCHEME = "affine32"
_LOW_32_BITS = np.uint64(0xFFFFFFFF)
_FMIX32 = (
    np.uint32(16),
    np.uint32(0x85EBCA6B),
    np.uint32(13),
    np.uint32(0xC2B2AE35),
    np.uint32(16),
)


def jaccard(a: set | frozenset, b: set | frozenset) -> float:
    """|a & b| / |a | b|; two empty sets are identical (1.0)."""
    if not a and not b:
        return 1.0
    shared = len(a & b) if len(a) <= len(b) else len(b & a)
    return shared / (len(a) + len(b) - shared)


def as_minutiae_array(minutiae: Iterable[int] | np.ndarray) -> np.ndarray:
    """Minutiae as a sorted array of distinct uint64 (accepts sets or arrays)."""
    if isinstance(minutiae, np.ndarray):
        array = minutiae.astype(np.uint64, copy=False)
    elif isinstance(minutiae, (set, frozenset)):
        array = np.fromiter(minutiae, dtype=np.uint64, count=len(minutiae))
    else:
        array = np.fromiter(minutiae, dtype=np.uint64)
    array = np.sort(array)
    if array.size > 1:
        distinct = np.ones(array.size, dtype=bool)
        distinct[1:] = array[1:] != array[:-1]
        array = array[distinct]
    return array


def sorted_jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Exact Jaccard of two sorted arrays of distinct values (minutiae arrays)."""
    if a.size == 0 and b.size == 0:
        return 1.0
    if a.size == 0 or b.size == 0:
        return 0.0
    if a.size > b.size:
        a, b = b, a
    slots = np.searchsorted(b, a)
    slots[slots == b.size] = 0
    shared = int(np.count_nonzero(b[slots] == a))
    return shared / (a.size + b.size - shared)


@dataclass(frozen=True)
class Match:
    """An indexed page whose minutiae have Jaccard ``similarity`` >= the threshold."""

    key: str
    similarity: float


def best_match(
    minutiae: Iterable[int] | np.ndarray,
    stored: Iterable[tuple[str, Iterable[int] | np.ndarray]],
    threshold: float,
) -> Match | None:
    """The ``(key, minutiae)`` of ``stored`` most similar to ``minutiae`` (true Jaccard)
    if that similarity is >= ``threshold``; ties go to the smallest key.

    What :meth:`NearDuplicateIndex.query` does with its LSH candidates, for callers that
    fetch the candidates' minutiae themselves (e.g. asynchronously from a database).
    """
    array = as_minutiae_array(minutiae)
    if array.size == 0:
        return None
    best: Match | None = None
    for key, other in stored:
        similarity = sorted_jaccard(array, as_minutiae_array(other))
        if similarity < threshold:
            continue
        if best is None or (similarity, best.key) > (best.similarity, key):
            best = Match(key, similarity)
    return best


def candidate_probability(similarity: float, bands: int, rows: int) -> float:
    """Probability that LSH with ``bands`` x ``rows`` proposes a pair of this Jaccard."""
    return 1.0 - (1.0 - similarity**rows) ** bands


def recall_oriented_bands(
    threshold: float, num_perm: int, min_probability: float = 0.95
) -> tuple[int, int]:
    """LSH banding ``(b, r)`` that proposes pairs at the threshold with probability >=
    ``min_probability``, with the most rows per band (fewest spurious candidates).

    Candidates are verified on true Jaccard, so LSH false positives only cost time,
    while false negatives are missed duplicates.  (datasketch's default optimiser
    weighs both equally: at threshold 0.8 and 128 permutations it picks 9 x 13, which
    proposes a pair of Jaccard 0.8 only 40 % of the time.)
    """
    for rows in range(num_perm // 2, 0, -1):
        bands = num_perm // rows
        if bands >= 2 and candidate_probability(threshold, bands, rows) >= min_probability:
            return bands, rows
    return num_perm // 2, 2


class NearDuplicateIndex:
    """MinHash LSH over minutiae sets, with candidates verified on the true Jaccard.

    ``lookup``: if given, the index keeps no minutiae and calls ``lookup(key)`` to fetch
    an indexed page's minutiae for verification (e.g. from the database); otherwise the
    minutiae are kept in memory as sorted uint64 arrays.  ``seed`` fixes the MinHash
    permutations: signatures passed to ``add(..., signature=...)`` must come from an
    index with the same ``num_perm`` and ``seed``.  The LSH banding is
    ``params=(bands, rows)`` if given, else :func:`recall_oriented_bands` (threshold 0.8,
    128 permutations: 18 bands of 7 rows; a pair at Jaccard 0.8 is proposed with
    probability 0.985, at 0.5 with 0.13).
    """

    def __init__(
        self,
        threshold: float = defaults.DEDUP_THRESHOLD,
        num_perm: int = defaults.DEDUP_NUM_PERM,
        *,
        seed: int = 1,
        lookup: Callable[[str], Iterable[int] | np.ndarray] | None = None,
        params: tuple[int, int] | None = None,
    ) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError("threshold must be in (0, 1]")
        self.threshold = threshold
        self.num_perm = num_perm
        self.seed = seed
        self._lookup = lookup
        if params is None:
            params = recall_oriented_bands(threshold, num_perm)
        self._params = params
        # datasketch (and the scipy it imports) is loaded on first use, not here: 0.3-0.8 s
        # that a crawl's start would otherwise wait for (see warm_up)
        self._lsh_index: MinHashLSH | None = None
        self._permutation_arrays: tuple[np.ndarray, np.ndarray] | None = None
        self._minutiae: dict[str, np.ndarray] = {}
        self._count = 0

    @property
    def _lsh(self) -> MinHashLSH:
        if self._lsh_index is None:
            from datasketch import MinHashLSH

            self._lsh_index = MinHashLSH(
                threshold=self.threshold, num_perm=self.num_perm, params=self._params
            )
        return self._lsh_index

    @property
    def _permutations(self) -> tuple[np.ndarray, np.ndarray]:
        if self._permutation_arrays is None:
            self._permutation_arrays = affine32_permutations(self.num_perm, self.seed)
        return self._permutation_arrays

    # ------------------------------------------------------------------ sketches

    def signature(self, minutiae: Iterable[int] | np.ndarray) -> np.ndarray:
        """MinHash hash values (uint32, ``num_perm`` of them) of a minutiae set.

        Equal to ``MinHash(num_perm, seed, hashfunc=lambda m: m & 0xFFFFFFFF)``
        ``.update_batch(minutiae)``.  Persist it (``.tobytes()``) to skip recomputing
        it when the index is rebuilt.  An empty set gives the all-ones "empty" sketch.
        """
        array = minutiae if isinstance(minutiae, np.ndarray) else as_minutiae_array(minutiae)
        if array.size == 0:
            return np.full(self.num_perm, 0xFFFFFFFF, dtype=np.uint32)
        low = (array.astype(np.uint64, copy=False) & _LOW_32_BITS).astype(np.uint32)
        s1, m1, s2, m2, s3 = _FMIX32
        low = low ^ (low >> s1)
        low = low * m1
        low = low ^ (low >> s2)
        low = low * m2
        low = low ^ (low >> s3)
        multipliers, offsets = self._permutations
        permuted = np.multiply(low[:, None], multipliers[None, :])
        np.add(permuted, offsets[None, :], out=permuted)
        return permuted.min(axis=0)

    def minhash(self, minutiae: Iterable[int] | np.ndarray) -> MinHash:
        """The datasketch ``MinHash`` of a minutiae set (see :meth:`signature`)."""
        return self._minhash_from_signature(self.signature(minutiae))

    def _minhash_from_signature(self, signature: np.ndarray) -> MinHash:
        from datasketch import MinHash

        return MinHash(
            hashvalues=signature, permutations=self._permutations, seed=self.seed, scheme=_SCHEME
        )

    # ------------------------------------------------------------------ updates

    def add(
        self,
        key: str,
        minutiae: Iterable[int] | np.ndarray,
        *,
        signature: np.ndarray | bytes | None = None,
    ) -> None:
        """Index ``key`` with its minutiae set.  Raises ValueError if already indexed.

        ``signature``: a stored :meth:`signature` (array or its bytes) for these minutiae.
        """
        if key in self:
            raise ValueError(f"key already indexed: {key!r}")
        array = as_minutiae_array(minutiae)
        self._insert(key, array, signature, self._lsh)

    def add_many(
        self,
        items: Iterable[tuple[str, Iterable[int] | np.ndarray]]
        | Iterable[tuple[str, Iterable[int] | np.ndarray, np.ndarray | bytes | None]],
    ) -> int:
        """Index many ``(key, minutiae)`` or ``(key, minutiae, signature)``; returns count.

        Meant for rebuilding the index at start-up; passing stored signatures skips the
        MinHash computation (then only LSH inserts remain).
        """
        count = 0
        iterator = iter(items)
        first = next(iterator, None)
        if first is None:
            return 0  # (a new crawl's empty index needs no datasketch yet)
        with self._lsh.insertion_session() as session:
            for item in itertools.chain((first,), iterator):
                key, minutiae = item[0], item[1]
                signature = item[2] if len(item) > 2 else None
                if key in self:
                    raise ValueError(f"key already indexed: {key!r}")
                self._insert(key, as_minutiae_array(minutiae), signature, session)
                count += 1
        return count

    def _insert(self, key: str, array: np.ndarray, signature, target) -> None:
        if signature is None:
            hashvalues = self.signature(array)
        elif isinstance(signature, (bytes, bytearray, memoryview)):
            hashvalues = np.frombuffer(signature, dtype=np.uint32)
        else:
            hashvalues = np.asarray(signature, dtype=np.uint32)
        if hashvalues.size != self.num_perm:
            raise ValueError(f"signature must have {self.num_perm} values")
        target.insert(key, self._minhash_from_signature(hashvalues), check_duplication=False)
        self._count += 1
        if self._lookup is None:
            self._minutiae[key] = array

    def remove(self, key: str) -> None:
        """Remove ``key``; raises KeyError if it is not indexed."""
        if key not in self:
            raise KeyError(key)
        self._lsh.remove(key)
        self._count -= 1
        self._minutiae.pop(key, None)

    # ------------------------------------------------------------------ queries

    def candidates(
        self, minutiae: Iterable[int] | np.ndarray, *, signature: np.ndarray | None = None
    ) -> list[str]:
        """Keys the LSH proposes (unverified; may include pages below the threshold).

        ``signature``: the :meth:`signature` of ``minutiae`` if already computed.
        """
        array = as_minutiae_array(minutiae)
        if array.size == 0:
            return []
        if signature is None:
            signature = self.signature(array)
        return self._lsh.query(self._minhash_from_signature(signature))

    def similarity(self, key: str, minutiae: Iterable[int] | np.ndarray) -> float:
        """True Jaccard between ``minutiae`` and the indexed page ``key``."""
        return sorted_jaccard(as_minutiae_array(minutiae), self._stored(key))

    def query(
        self,
        minutiae: Iterable[int] | np.ndarray,
        *,
        signature: np.ndarray | None = None,
        exclude: str | None = None,
    ) -> Match | None:
        """The indexed page most similar to ``minutiae`` if its true Jaccard >= threshold.

        Ties go to the smallest key.  An empty minutiae set never matches (it carries no
        evidence; exact duplicates are the exact-digest test's job).  ``signature``: the
        :meth:`signature` of ``minutiae`` if already computed; ``exclude``: a key never
        reported (the page itself, when it is already indexed).
        """
        array = as_minutiae_array(minutiae)
        if array.size == 0:
            return None
        if signature is None:
            signature = self.signature(array)
        best: Match | None = None
        for key in self._lsh.query(self._minhash_from_signature(signature)):
            if key == exclude:
                continue
            similarity = sorted_jaccard(array, self._stored(key))
            if similarity < self.threshold:
                continue
            if best is None or (similarity, best.key) > (best.similarity, key):
                best = Match(key, similarity)
        return best

    def stored_minutiae(self, key: str) -> np.ndarray:
        """The minutiae of the indexed page ``key`` (from memory, or ``lookup``)."""
        return self._stored(key)

    def _stored(self, key: str) -> np.ndarray:
        if self._lookup is None:
            return self._minutiae[key]
        return as_minutiae_array(self._lookup(key))

    def __len__(self) -> int:
        return self._count

    def __contains__(self, key: object) -> bool:
        return self._lsh_index is not None and key in self._lsh_index

    @property
    def bands(self) -> tuple[int, int]:
        """LSH banding ``(b, r)``: b bands of r MinHash values."""
        return self._params


def affine32_permutations(num_perm: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The (a, b) arrays of datasketch's ``MinHash(num_perm, seed, scheme="affine32")
    .permutations``, made here as datasketch makes them (its ``_init_permutations``), so
    that a signature needs no datasketch: importing it costs 1.4 s of CPU (it imports
    scipy and redis), which each page-analysis worker would pay at its start only for
    these 2 x num_perm numbers. ``tests/dedup/test_near_duplicates.py`` compares them
    with datasketch's own."""
    gen = np.random.RandomState(seed)
    a = gen.randint(0, 1 << 31, num_perm, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, num_perm, dtype=np.uint32)
    return a, b


def warm_up() -> None:
    """Import datasketch now (a background thread calls this while the crawl starts, so
    that the first near-duplicate test does not wait 0.3-0.8 s for it and scipy)."""
    import datasketch  # noqa: F401
