"""NearDuplicateIndex: MinHash compatibility, verified matches, updates."""

from __future__ import annotations

import random
import string

import numpy as np
import pytest
from datasketch import MinHash
from hypothesis import given, settings
from hypothesis import strategies as st

from crawler.dedup.near_duplicates import (
    Match,
    NearDuplicateIndex,
    affine32_permutations,
    as_minutiae_array,
    candidate_probability,
    jaccard,
    recall_oriented_bands,
)
from crawler.dedup.winnowing import WinnowingFingerprint


def _words(rng: random.Random, count: int) -> list[str]:
    return [
        "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9)))
        for _ in range(count)
    ]


def _edit_words(words: list[str], fraction: float, rng: random.Random, run: int = 1) -> list[str]:
    """Replace ``fraction`` of the words, in runs of ``run`` consecutive words."""
    edited = words[:]
    starts = rng.sample(range(0, len(words) - run + 1, run), round(fraction * len(words) / run))
    for start in starts:
        edited[start : start + run] = _words(rng, run)
    return edited


def _distinct_values(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    values: dict[int, None] = {}
    while len(values) < count:
        values[rng.getrandbits(64)] = None
    return list(values)


def _sets_with_jaccard(shared: int, only_a: int, only_b: int) -> tuple[set[int], set[int]]:
    values = _distinct_values(shared + only_a + only_b, seed=shared * 7919 + only_a)
    common = set(values[:shared])
    return common | set(values[shared : shared + only_a]), common | set(values[shared + only_a :])


def test_jaccard():
    assert jaccard({1, 2, 3}, {2, 3, 4}) == 0.5
    assert jaccard(frozenset(), frozenset()) == 1.0
    assert jaccard({1}, set()) == 0.0
    assert jaccard({1, 2}, {1, 2}) == 1.0


def test_as_minutiae_array():
    assert as_minutiae_array({3, 1, 2**64 - 1}).tolist() == [1, 3, 2**64 - 1]
    assert as_minutiae_array([5, 5, 1]).tolist() == [1, 5]
    assert as_minutiae_array(np.array([9, 2, 9], dtype=np.uint64)).tolist() == [2, 9]
    assert as_minutiae_array(frozenset()).size == 0


def test_signature_equals_datasketch_update_batch():
    minutiae = set(_distinct_values(500, seed=3))
    index = NearDuplicateIndex(num_perm=64, seed=5)
    reference = MinHash(num_perm=64, seed=5, hashfunc=lambda value: int(value) & 0xFFFFFFFF)
    reference.update_batch(sorted(minutiae))
    assert np.array_equal(index.signature(minutiae), reference.hashvalues)
    assert np.array_equal(index.minhash(minutiae).hashvalues, reference.hashvalues)
    assert index.minhash(minutiae).jaccard(reference) == 1.0


@pytest.mark.parametrize(
    ("fraction", "run"),
    [(0.03, 10), (0.01, 1)],
    ids=["3% of words in runs of 10", "1% of words scattered"],
)
def test_finds_an_edited_copy_and_rejects_unrelated_text(fraction, run):
    rng = random.Random(42)
    fingerprint = WinnowingFingerprint()
    index = NearDuplicateIndex()
    pages = {f"page{number}": _words(rng, 800) for number in range(20)}
    for key, words in pages.items():
        index.add(key, fingerprint.minutiae(" ".join(words)))
    for key, words in pages.items():
        edited = " ".join(_edit_words(words, fraction, rng, run))
        match = index.query(fingerprint.minutiae(edited))
        assert match is not None and match.key == key
        assert match.similarity >= index.threshold
    assert index.query(fingerprint.minutiae(" ".join(_words(rng, 800)))) is None
    assert index.query(fingerprint.minutiae(" ".join(pages["page3"]))) == Match("page3", 1.0)


def test_threshold_is_respected_exactly_on_verified_jaccard():
    # 64 bands of 2 rows: pairs near 0.8 are candidates almost surely, so the decision
    # is the verification's.
    index = NearDuplicateIndex(threshold=0.8, params=(64, 2))
    stored, at_threshold = _sets_with_jaccard(shared=800, only_a=100, only_b=100)
    index.add("stored", stored)
    assert jaccard(stored, at_threshold) == 0.8
    assert index.query(at_threshold) == Match("stored", 0.8)
    below_stored, below = _sets_with_jaccard(shared=790, only_a=105, only_b=105)
    other = NearDuplicateIndex(threshold=0.8, params=(64, 2))
    other.add("stored", below_stored)
    assert jaccard(below_stored, below) == 0.79
    assert "stored" in other.candidates(below)  # the LSH proposes it...
    assert other.query(below) is None  # ...the true Jaccard rejects it


@settings(max_examples=40, deadline=None)
@given(
    shared=st.integers(0, 300),
    only_a=st.integers(0, 120),
    only_b=st.integers(0, 120),
    threshold=st.sampled_from([0.5, 0.7, 0.8, 0.9]),
)
def test_reported_similarity_is_the_true_jaccard_above_threshold(shared, only_a, only_b, threshold):
    stored, query = _sets_with_jaccard(shared, only_a, only_b)
    index = NearDuplicateIndex(threshold=threshold, params=(64, 2))
    if stored:
        index.add("stored", stored)
    match = index.query(query)
    true_similarity = jaccard(stored, query)
    if match is not None:
        assert match.key == "stored"
        assert match.similarity == pytest.approx(true_similarity)
        assert match.similarity >= threshold
    elif stored and query:
        assert true_similarity < threshold or "stored" not in index.candidates(query)


def test_best_match_is_the_most_similar_candidate():
    base, close = _sets_with_jaccard(shared=950, only_a=25, only_b=25)
    farther = set(list(base)[:900]) | set(range(10**6, 10**6 + 60))
    index = NearDuplicateIndex(threshold=0.7, params=(64, 2))
    index.add("farther", farther)
    index.add("close", close)
    match = index.query(base)
    assert match == Match("close", jaccard(base, close))


def test_add_remove_len_contains():
    index = NearDuplicateIndex()
    minutiae = set(range(1, 300))
    assert len(index) == 0 and "a" not in index
    index.add("a", minutiae)
    assert len(index) == 1 and "a" in index
    with pytest.raises(ValueError):
        index.add("a", minutiae)
    assert index.query(minutiae) == Match("a", 1.0)
    index.remove("a")
    assert len(index) == 0 and "a" not in index
    assert index.query(minutiae) is None
    with pytest.raises(KeyError):
        index.remove("a")
    index.add("a", minutiae)  # can be re-added
    assert index.query(minutiae) == Match("a", 1.0)


def test_empty_minutiae_never_match():
    index = NearDuplicateIndex()
    index.add("empty", frozenset())
    assert index.query(frozenset()) is None


def test_add_many_with_signatures_and_lookup_callback():
    rng = random.Random(9)
    sets = {f"k{number}": set(rng.sample(range(1, 2**40), 400)) for number in range(50)}
    builder = NearDuplicateIndex()
    signatures = {key: builder.signature(values).tobytes() for key, values in sets.items()}
    fetched: list[str] = []

    def lookup(key: str) -> frozenset[int]:
        fetched.append(key)
        return frozenset(sets[key])

    index = NearDuplicateIndex(lookup=lookup)
    count = index.add_many((key, sets[key], signatures[key]) for key in sets)
    assert count == 50 and len(index) == 50
    plain = NearDuplicateIndex()
    assert plain.add_many(sets.items()) == 50
    for key, values in sets.items():
        assert index.query(values) == Match(key, 1.0)
        assert plain.query(values) == Match(key, 1.0)
    assert set(fetched) == set(sets)
    with pytest.raises(ValueError):
        index.add("bad", {1, 2}, signature=b"\x00" * 8)


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.8, 0.9, 0.95])
def test_default_banding_proposes_pairs_at_the_threshold(threshold):
    bands, rows = recall_oriented_bands(threshold, 128)
    assert bands * rows <= 128
    assert candidate_probability(threshold, bands, rows) >= 0.95
    # one more row per band would miss the 0.95 recall at the threshold
    assert candidate_probability(threshold, 128 // (rows + 1), rows + 1) < 0.95
    assert NearDuplicateIndex(threshold).bands == (bands, rows)
    assert recall_oriented_bands(0.8, 128) == (18, 7)


@pytest.mark.parametrize(("num_perm", "seed"), [(64, 5), (128, 1), (96, 2**31)])
def test_affine32_permutations_equal_datasketch(num_perm, seed):
    a, b = affine32_permutations(num_perm, seed)
    reference = MinHash(num_perm=num_perm, seed=seed, scheme="affine32").permutations
    assert a.dtype == reference.dtype and b.dtype == reference.dtype
    assert np.array_equal(a, reference[0]) and np.array_equal(b, reference[1])
