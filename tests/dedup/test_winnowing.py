"""Winnowing: selection rule, normalisation, hashes and fingerprint properties."""

from __future__ import annotations

import hashlib
import random
import string
import unicodedata

import numpy as np
import pytest
import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

from crawler.dedup.winnowing import (
    DEFAULT_K,
    DEFAULT_W,
    WinnowingFingerprint,
    exact_digest,
    kgram_hashes,
    normalize_text,
    winnow,
)

ALNUM = string.ascii_lowercase + string.digits


def reference_winnow(hashes: list[int], w: int) -> list[tuple[int, int]]:
    """Literal reading of the rule: every window, rightmost minimum, record once."""
    n = len(hashes)
    if n == 0:
        return []
    windows = [range(n)] if n <= w else [range(i, i + w) for i in range(n - w + 1)]
    selected: list[tuple[int, int]] = []
    for window in windows:
        best = window[0]
        for position in window:
            if hashes[position] <= hashes[best]:
                best = position
        if not selected or selected[-1][0] != best:
            selected.append((best, hashes[best]))
    return selected


# ----------------------------------------------------------------------------- selection


def test_winnow_example_of_schleimer_et_al():
    hashes = [77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98]
    # Window 3..6 holds 17 twice: the rightmost (6) wins and is recorded; 17 at 6 stays
    # the minimum of the next window and is not recorded again.
    assert winnow(hashes, 4) == [(3, 17), (6, 17), (8, 8), (11, 39), (15, 17)]


def test_winnow_k3_w4_by_hand_with_stub_hashes():
    normalized = normalize_text("Ab, ca-b D!  c a")
    assert normalized == "abcabdca"
    grams = [normalized[i : i + 3] for i in range(len(normalized) - 3 + 1)]
    assert grams == ["abc", "bca", "cab", "abd", "bdc", "dca"]  # m - K + 1 = 6
    stub = {"abc": 5, "bca": 3, "cab": 3, "abd": 9, "bdc": 1, "dca": 4}
    hashes = [stub[gram] for gram in grams]
    # windows: [5 3 3 9] -> 3 at 2 (rightmost tie); [3 3 9 1] -> 1 at 4; [3 9 1 4] -> 1
    # at 4 again (not recorded twice)
    assert winnow(hashes, 4) == [(2, 3), (4, 1)]
    # w=2: [5 3]->1, [3 3]->2 (rightmost), [3 9]->2 (same), [9 1]->4, [1 4]->4 (same)
    assert winnow(hashes, 2) == [(1, 3), (2, 3), (4, 1)]


def test_winnow_edge_cases():
    assert winnow([], 4) == []
    assert winnow([7], 4) == [(0, 7)]
    assert winnow([4, 2, 9], 4) == [(1, 2)]  # fewer than W hashes: one window
    assert winnow([2, 5, 2], 4) == [(2, 2)]  # ...rightmost minimum
    assert winnow([3, 1, 2], 1) == [(0, 3), (1, 1), (2, 2)]  # W=1 keeps everything
    assert winnow([6, 6, 6, 6, 6], 2) == [(1, 6), (2, 6), (3, 6), (4, 6)]
    assert winnow([2**64 - 1, 2**64 - 1, 0], 2) == [(1, 2**64 - 1), (2, 0)]
    with pytest.raises(ValueError):
        winnow([1, 2], 0)


@settings(max_examples=250, deadline=None)
@given(
    hashes=st.lists(st.integers(0, 6) | st.integers(0, 2**64 - 1), max_size=80),
    w=st.integers(1, 12),
)
def test_winnow_matches_reference(hashes, w):
    assert winnow(hashes, w) == reference_winnow(hashes, w)


def test_winnow_matches_reference_on_long_tied_runs():
    rng = random.Random(5)
    for _ in range(200):
        w = rng.randint(2, 40)
        hashes = [rng.randint(0, rng.choice([2, 10, 1000])) for _ in range(rng.randint(0, 400))]
        assert winnow(hashes, w) == reference_winnow(hashes, w)


# ----------------------------------------------------------------------------- normalising


def test_normalize_drops_space_punctuation_and_folds_case():
    assert normalize_text("  Hello,\tWorld!\n-- 42 ") == "helloworld42"
    assert normalize_text("") == ""
    assert normalize_text(" \n\t.,;:!?") == ""


def test_normalize_is_unicode_aware():
    assert normalize_text("Straße, STRASSE") == "strassestrasse"
    assert normalize_text("Ünïcödé ÜNÏCÖDÉ") == "ünïcödéünïcödé"
    assert normalize_text("Ｆｕｌｌ ｗｉｄｔｈ ① ﬁ") == "fullwidth1fi"
    assert normalize_text("Привет, мир!") == "приветмир"
    assert normalize_text("हिन्दी पाठ।") == "हिन्दीपाठ"  # vowel signs (marks) kept
    assert normalize_text("数据 😀 ✓ 𝐀𝐁") == "数据ab"  # symbols dropped, math letters folded
    assert normalize_text("e\u0301") == "é"  # composed
    assert normalize_text("a\ud800b") == "ab"  # lone surrogates (bad decoding) dropped


def reference_normalize(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in folded if c.isalnum() or unicodedata.category(c).startswith("M"))


TRICKY_PIECES = [
    "a", "Z", "0", " ", ".", "é", "e\u0301", "\u0301", "\u0344", "\u0f73", "\u1100",
    "\u1161", "\u11a8", "\uac00", "\u00a0", "…", "ﬁ", "Ａ", "ß", "İ", "ǅ", "ｶ", "ﾞ",
    "\u3099", "か", "Ω", "\u212b", "\u0958", "क", "\u093c", "😀", "\U0001d400", "日",
    "①", "\u200b", "\u0345", "ᾳ", "ς", "Σ", "\ud800", "\u0627", "\u0653",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TRICKY_PIECES), max_size=30))
def test_normalize_equals_nfkc_casefold_filter(pieces):
    text = "".join(pieces)
    assert normalize_text(text) == reference_normalize(text)
    without_astral = "".join(piece for piece in pieces if ord(piece[0]) < 0x10000)
    assert normalize_text(without_astral) == reference_normalize(without_astral)


def test_exact_digest_ignores_space_case_and_punctuation():
    digest = exact_digest("The quick brown fox.")
    assert digest == exact_digest("the   QUICK\nbrown -- fox!")
    assert digest == hashlib.md5(b"thequickbrownfox").hexdigest()
    assert digest != exact_digest("The quick brown cat.")


# ----------------------------------------------------------------------------- hashes


@pytest.mark.parametrize("hash_name", ["karp_rabin", "md5", "xxh64"])
def test_kgram_hash_depends_only_on_the_kgram(hash_name):
    text = "zazbcdefghbcdefgxhé日本語bcdefghé日本語"
    k = 6
    hashes = kgram_hashes(text, k, hash_name).tolist()
    assert len(hashes) == len(text) - k + 1
    for i in range(len(hashes)):
        assert hashes[i] == kgram_hashes(text[i : i + k], k, hash_name).tolist()[0]
        assert 0 <= hashes[i] < 2**64
    assert len(set(hashes)) == len({text[i : i + k] for i in range(len(hashes))})


def test_md5_and_xxh64_hash_the_utf8_kgram():
    text = "aé日😀bc"
    md5 = kgram_hashes(text, 3, "md5").tolist()
    xxh = kgram_hashes(text, 3, "xxh64").tolist()
    grams = [text[i : i + 3].encode() for i in range(len(text) - 2)]
    assert md5 == [int.from_bytes(hashlib.md5(g).digest()[:8], "big") for g in grams]
    assert xxh == [xxhash.xxh64_intdigest(g) for g in grams]


def test_short_and_empty_texts():
    fingerprint = WinnowingFingerprint(k=8, w=4)
    assert fingerprint.minutiae("") == frozenset()
    assert fingerprint.minutiae(" ,.;") == frozenset()
    assert fingerprint.select("Short!") == [(0, kgram_hashes("short", 8)[0])]
    assert len(fingerprint.minutiae("short")) == 1
    assert fingerprint.minutiae("Short!") == fingerprint.minutiae("SHORT")
    # fewer than W hashes (8 + 4 - 2 = 10 characters give 3 hashes): one minutia
    assert len(fingerprint.select("abcdefghij")) == 1


@pytest.mark.parametrize("hash_name", ["karp_rabin", "md5", "xxh64"])
def test_fingerprint_is_winnowing_of_kgram_hashes(hash_name):
    fingerprint = WinnowingFingerprint(k=3, w=4, hash_name=hash_name)
    text = "A do run run run, a do run run"
    normalized = normalize_text(text)
    hashes = kgram_hashes(normalized, 3, hash_name).tolist()
    expected = reference_winnow(hashes, 4)
    assert fingerprint.select(text) == expected
    assert fingerprint.minutiae(text) == frozenset(h for _, h in expected)
    assert fingerprint.fingerprint(text) == fingerprint.minutiae(text)
    assert fingerprint.minutiae_array(text).tolist() == sorted({h for _, h in expected})


def test_config_is_validated():
    with pytest.raises(ValueError):
        WinnowingFingerprint(k=0, w=4)
    with pytest.raises(ValueError):
        WinnowingFingerprint(k=4, w=0)
    with pytest.raises(ValueError):
        WinnowingFingerprint(k=4, w=4, hash_name="sha1")
    assert WinnowingFingerprint() == WinnowingFingerprint(DEFAULT_K, DEFAULT_W, "karp_rabin")


# ----------------------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    k=st.integers(1, 8),
    w=st.integers(1, 10),
    hash_name=st.sampled_from(["karp_rabin", "md5"]),
)
def test_common_substring_of_w_plus_k_minus_1_shares_a_minutia(data, k, w, hash_name):
    text = st.text(alphabet=ALNUM, max_size=60)
    common = data.draw(st.text(alphabet=ALNUM, min_size=w + k - 1, max_size=w + k + 20))
    first = data.draw(text) + common + data.draw(text)
    second = data.draw(text) + common + data.draw(text)
    fingerprint = WinnowingFingerprint(k, w, hash_name)
    assert fingerprint.minutiae(first) & fingerprint.minutiae(second)


def _mangle(text: str, rng: random.Random) -> str:
    out = []
    for char in text:
        if rng.random() < 0.2:
            out.append(rng.choice([" ", "\n", "\t", ", ", ". ", "--", "!", "(", ")", "«»", "&"]))
        out.append(char.upper() if rng.random() < 0.3 else char)
    return "".join(out)


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(
        st.text(alphabet=string.ascii_letters + "éßü日本" + string.digits, min_size=1), max_size=80
    ),
    seed=st.integers(0, 10**6),
)
def test_fingerprint_invariant_under_space_case_and_punctuation(words, seed):
    text = " ".join(words)
    mangled = _mangle(text, random.Random(seed))
    fingerprint = WinnowingFingerprint(k=5, w=4)
    assert fingerprint.minutiae(mangled) == fingerprint.minutiae(text)
    assert exact_digest(mangled) == exact_digest(text)


def _random_paragraph(rng: random.Random, words: int) -> str:
    return " ".join(
        "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(2, 9)))
        for _ in range(words)
    )


def test_reordering_long_paragraphs_keeps_most_minutiae():
    rng = random.Random(11)
    fingerprint = WinnowingFingerprint()  # W + K - 1 = 41 characters
    for _ in range(5):
        paragraphs = [_random_paragraph(rng, 120) for _ in range(8)]  # ~650 chars each
        shuffled = paragraphs[:]
        rng.shuffle(shuffled)
        original = fingerprint.minutiae("\n\n".join(paragraphs))
        reordered = fingerprint.minutiae("\n\n".join(shuffled))
        assert len(original & reordered) >= 0.8 * len(original)


@pytest.mark.parametrize("w", [4, 10, 30, 50])
def test_density_is_about_two_over_w_plus_one(w):
    rng = random.Random(w)
    text = "".join(rng.choice(ALNUM) for _ in range(40000))
    fingerprint = WinnowingFingerprint(k=DEFAULT_K, w=w)
    density = len(fingerprint.select(text)) / (len(text) - DEFAULT_K + 1)
    assert density == pytest.approx(2 / (w + 1), rel=0.1)


def test_minutiae_array_is_sorted_distinct_uint64():
    array = WinnowingFingerprint().minutiae_array("lorem ipsum dolor sit amet " * 50)
    assert array.dtype == np.uint64
    assert np.all(array[1:] > array[:-1])
