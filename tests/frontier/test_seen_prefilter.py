"""The seen set's bitmap prefilter never changes an answer: a fingerprint added is always
seen, one never added is reported unseen, whatever bits fingerprints share."""

from __future__ import annotations

import random

import numpy as np
import pytest

from crawler.frontier import seen
from crawler.frontier.seen import FingerprintSet, sorted_unique

LOW, HIGH = -(2**63), 2**63 - 1


def sharing_top_bits(rng: random.Random, count: int) -> list[int]:
    """Fingerprints in clusters that share their top 32 bits (so their bitmap bits), and
    the extremes of the int64 range."""
    out = [LOW, LOW + 1, -1, 0, 1, HIGH - 1, HIGH]
    while len(out) < count:
        top = rng.randrange(-(2**31), 2**31) << 32
        out.extend(top | rng.randrange(2**32) for _ in range(rng.randrange(1, 6)))
    return out[:count]


def assert_exact(fps: FingerprintSet, added: set[int], probes: list[int]) -> None:
    assert len(fps) == len(added)
    for fp in added:
        assert fp in fps, fp
    for fp in probes:
        assert (fp in fps) == (fp in added), fp


@pytest.mark.parametrize("merge_min", [1, 50, 1000])
def test_added_is_seen_and_not_added_is_unseen_across_merges_and_growth(merge_min):
    rng = random.Random(merge_min)
    values = sharing_top_bits(rng, 40_000)
    half = len(values) // 2
    fps, added = FingerprintSet(merge_min=merge_min), set()
    for i, fp in enumerate(values[:half]):
        assert fps.add(fp) == (fp not in added)
        added.add(fp)
        assert fps.add(fp) is False  # at once seen
        if i % 997 == 0:
            assert_exact(fps, added, values[half : half + 200])
    # the bitmap grew from its smallest size on the way (at least 16 bits per member)
    assert len(fps._bitmap) * 8 >= 16 * len(added)
    assert_exact(fps, added, values[half:])
    for fp in values[half:]:  # add_new: the caller knows it is new
        if fp not in added:
            fps.add_new(fp)
            added.add(fp)
    assert_exact(fps, added, [rng.randrange(LOW, HIGH) for _ in range(20_000)])


def test_built_from_stored_fingerprints_with_repeats(monkeypatch):
    monkeypatch.setattr(seen, "_CHUNK", 1000)  # bits set in many chunks, bytes split
    rng = random.Random(7)
    values = sharing_top_bits(rng, 30_000)
    stored = np.array(values + values[::3], dtype=np.int64)
    rng.shuffle(stored)
    kept = stored.copy()
    fps = FingerprintSet(stored, merge_min=100)
    assert np.array_equal(stored, kept)  # the caller's array is left alone
    present = set(values)
    others = [v + 1 for v in values if v + 1 not in present and v < HIGH]
    assert_exact(fps, set(values), others)
    assert fps.add(values[5]) is False
    assert fps.add(others[0]) is True


def test_sorted_unique():
    for data in ([], [3], [3, 3], [5, -1, 5, LOW, HIGH, -1, 0], list(range(10, 0, -1))):
        array = np.array(data, dtype=np.int64)
        assert sorted_unique(array).tolist() == sorted(set(data))
