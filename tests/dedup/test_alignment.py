"""The second stage of the near-duplicate decision: word hashes, word alignment, and the
two-stage decision of ContentSeenTest on hand-made texts (docs/dedup.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crawler.dedup import (
    ContentSeenTest,
    Duplicate,
    StoredFingerprint,
    WinnowingFingerprint,
    normalize_text,
    word_alignment,
    word_hashes,
)
from crawler.dedup.near_duplicates import sorted_jaccard
from crawler.dedup.winnowing import kgram_hashes

# ----------------------------------------------------------------------- word hashes


def test_words_are_runs_of_kept_characters_hashed_wherever_they_are():
    words = word_hashes("Don't  STOP! ﬁne, Straße")
    # don / t / stop / fine (NFKC of the ligature) / strasse (case fold)
    expected = [int(kgram_hashes(w, len(w))[0]) & 0xFFFF
                for w in ("don", "t", "stop", "fine", "strasse")]
    assert words.dtype == np.uint16 and words.tolist() == expected
    assert word_hashes("...  \n ").size == 0 and word_hashes("").size == 0
    assert word_hashes("stop").tolist() == [expected[2]]


_WORD = st.text("abcxyzÄéß0123", min_size=1, max_size=8)
_SEPARATOR = st.text(" \n\t,.;:!?-()\"'", min_size=1, max_size=4)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(_WORD, _SEPARATOR), max_size=40), st.booleans())
def test_word_hashes_ignore_separators_and_case(pairs, upper):
    words = [word for word, _ in pairs]
    written = "".join(word + separator for word, separator in pairs)
    written = written.upper() if upper else written
    np.testing.assert_array_equal(word_hashes(written), word_hashes(" ".join(words)))
    assert word_hashes(written).size == len(words)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=400))
def test_analyse_equals_the_separate_computations(text):
    for winnowing in (WinnowingFingerprint(), WinnowingFingerprint(5, 4, "md5")):
        normalized, minutiae, words = winnowing.analyse(text)
        assert normalized == normalize_text(text)
        np.testing.assert_array_equal(minutiae, winnowing.minutiae_array(text))
        np.testing.assert_array_equal(words, word_hashes(text))


# ----------------------------------------------------------------------- alignment


def test_word_alignment_is_twice_the_lcs_over_the_total_length():
    words = np.arange(20, dtype=np.uint16)
    one_replaced = words.copy()
    one_replaced[7] = 999
    assert word_alignment(words, words) == 1.0
    assert word_alignment(words, one_replaced) == 2 * 19 / 40  # 5 % replaced: 0.95
    assert word_alignment(words, words[:10]) == pytest.approx(2 * 10 / 30, abs=1e-12)
    empty = np.zeros(0, dtype=np.uint16)
    assert word_alignment(empty, empty) == 1.0 and word_alignment(words, empty) == 0.0
    # below the cutoff: 0.0 (the length bound alone rules out 2 * 10 / 30 >= 0.9)
    assert word_alignment(words, words[:10], score_cutoff=0.9) == 0.0
    assert word_alignment(words, one_replaced, score_cutoff=0.95) == 0.95


# ----------------------------------------------------------------------- the decision

_VOCABULARY = [
    "".join(random.Random(number).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7))
    for number in range(4000)
]


def prose(seed: int, words: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(_VOCABULARY) for _ in range(words)]


TEMPLATE_TOP = ("Example Project documentation home download community search "
                "previous next table of contents release notes index")
TEMPLATE_BOTTOM = "Copyright the Example Project contributors last updated with Sphinx"


def page(*parts: list[str] | str) -> str:
    """A page of the site template around the given paragraphs."""
    paragraphs = [part if isinstance(part, str) else " ".join(part) for part in parts]
    return "\n\n".join([TEMPLATE_TOP, *paragraphs, TEMPLATE_BOTTOM])


def scattered_edit(words: list[str], every: int) -> list[str]:
    """One word in ``every`` replaced (scattered), by a word of no other page."""
    return [f"edit{i}" if i % every == every // 2 else w for i, w in enumerate(words)]


ORIGINAL = "http://docs.test/release-1.html"
# page(ADVISORY) has 424 words; a scattered edit of one word in 20 replaces 20 of them
# (the template's words are not edited): alignment 2 * 404 / 848, as rapidfuzz computes it
ALIGNED_5 = 1 - 40 / 848
ADVISORY = prose(1, 400)  # shared by the two release notes below


def test_a_5_percent_scattered_edit_is_caught_by_the_second_stage():
    test = ContentSeenTest()
    original = page(ADVISORY)
    assert test.check(ORIGINAL, original)[1] is None
    fingerprint, duplicate = test.check("http://mirror.test/r1.html",
                                        page(scattered_edit(ADVISORY, 20)))
    jaccard = sorted_jaccard(fingerprint.minutiae, test.index.stored_minutiae(ORIGINAL))
    assert 0.55 <= jaccard < 0.8  # the first stage alone misses it
    # 20 of the 424 words replaced: alignment 2 * 404 / 848
    assert duplicate == Duplicate(ORIGINAL, jaccard, exact=False, alignment=ALIGNED_5)
    assert duplicate.detail == (
        f"near duplicate of {ORIGINAL} (similarity {int(jaccard * 1000) / 1000:.3f}, "
        "alignment 0.952)")
    assert "http://mirror.test/r1.html" not in test

    # the first stage alone (candidate threshold = threshold): not a duplicate
    first_only = ContentSeenTest(candidate_threshold=0.8)
    first_only.check(ORIGINAL, original)
    assert first_only.check("http://mirror.test/r1.html",
                            page(scattered_edit(ADVISORY, 20)))[1] is None


def release_notes(version: str, bug_fixes_seed: int) -> str:
    """Release notes of one branch: the shared security advisory, naming the version
    every 50 words, then the branch's own 60 words of bug fixes (as Django's notes of
    two branches for one security release)."""
    parts = [f"Django {version} release notes"]
    for start in range(0, 400, 50):
        parts.append(" ".join(ADVISORY[start:start + 50]) + f" Fixed in Django {version}.")
    return page(*parts, prose(bug_fixes_seed, 60))


def test_a_distinct_page_of_the_same_template_sharing_a_passage_is_not_flagged():
    # Same template, same advisory, another version and other bug fixes: 11 % of the
    # words differ.  Jaccard in the second stage's band, alignment below 0.93.
    test = ContentSeenTest()
    first = release_notes("1.8.14", 2)
    test.check(ORIGINAL, first)
    second = release_notes("1.9.8", 3)
    fingerprint = test.fingerprint(second)
    similarities = test.similarities("http://docs.test/release-2.html", fingerprint)
    assert list(similarities) == [ORIGINAL] and 0.55 <= similarities[ORIGINAL] < 0.8
    alignment = word_alignment(fingerprint.words, word_hashes(first))
    assert alignment == pytest.approx(0.8978, abs=1e-4)  # the Django pairs reach 0.902
    assert test.find("http://docs.test/release-2.html", fingerprint) is None
    assert test.check("http://docs.test/release-2.html", second)[1] is None
    assert len(test) == 2
    # while the same notes with 5 % of their words replaced are a copy
    _, duplicate = test.check("http://mirror.test/", page(scattered_edit(first.split(), 20)))
    assert duplicate.original == ORIGINAL and duplicate.alignment >= 0.93


def test_first_stage_decides_above_the_threshold():
    test = ContentSeenTest()
    test.check(ORIGINAL, page(ADVISORY))
    _, duplicate = test.check("http://mirror.test/r1.html", page(scattered_edit(ADVISORY, 100)))
    assert duplicate.original == ORIGINAL and duplicate.similarity >= 0.8
    assert duplicate.alignment is None  # decided on the Jaccard alone


def test_the_best_aligned_candidate_is_the_original():
    test = ContentSeenTest()
    for url, text in (("http://a.test/far", page(scattered_edit(ADVISORY, 14))),
                      ("http://a.test/near", page(ADVISORY))):
        test.add(url, test.fingerprint(text))
    _, duplicate = test.check("http://m.test/", page(scattered_edit(ADVISORY, 20)))
    assert duplicate.original == "http://a.test/near" and duplicate.alignment is not None


def test_loaded_pages_need_their_words_fetched():
    source = ContentSeenTest()
    fingerprint, _ = source.check(ORIGINAL, page(ADVISORY))
    rebuilt = ContentSeenTest()
    rebuilt.load([StoredFingerprint(ORIGINAL, fingerprint.digest,
                                    fingerprint.minutiae.tobytes(), None)])
    copy = rebuilt.fingerprint(page(scattered_edit(ADVISORY, 20)))
    similarities = rebuilt.similarities("http://m.test/", copy)
    assert rebuilt.words_needed(similarities) == [ORIGINAL]
    # without the words the band candidate cannot be aligned: not a duplicate
    assert rebuilt.decide(copy, similarities) is None
    found = rebuilt.decide(copy, similarities, {ORIGINAL: word_hashes(page(ADVISORY))})
    assert found == Duplicate(ORIGINAL, similarities[ORIGINAL], False, ALIGNED_5)
    # a first-stage match needs no words
    close = rebuilt.fingerprint(page(scattered_edit(ADVISORY, 100)))
    assert rebuilt.words_needed(rebuilt.similarities("http://m.test/", close)) == []
    assert ContentSeenTest(keep_minutiae=False).fingerprint("a b").words.size == 2


def test_lookup_mode_passes_minutiae_and_words():
    test = ContentSeenTest(keep_minutiae=False)
    fingerprint = test.fingerprint(page(ADVISORY))
    test.add(ORIGINAL, fingerprint)
    copy = test.fingerprint(page(scattered_edit(ADVISORY, 20)))
    stored = {key: fingerprint.minutiae for key in test.candidates("http://m.test/", copy)}
    similarities = test.similarities("http://m.test/", copy, stored)
    assert test.words_needed(similarities) == [ORIGINAL]  # no words kept in lookup mode
    assert test.find("http://m.test/", copy, stored) is None
    assert test.find("http://m.test/", copy, stored, {ORIGINAL: fingerprint.words}) == (
        Duplicate(ORIGINAL, similarities[ORIGINAL], False, ALIGNED_5))


def test_detail_with_alignment_parses_back():
    duplicate = Duplicate("http://a.test/", 0.69999, exact=False, alignment=0.95099)
    assert duplicate.detail == (
        "near duplicate of http://a.test/ (similarity 0.699, alignment 0.950)")
    assert Duplicate.parse_detail(duplicate.detail) == Duplicate(
        "http://a.test/", 0.699, False, 0.95)
    with pytest.raises(ValueError):
        Duplicate.parse_detail("near duplicate of http://a.test/ (similarity x)")


def test_invalid_thresholds_are_refused():
    with pytest.raises(ValueError):
        ContentSeenTest(candidate_threshold=0.9)  # above the threshold 0.8
    with pytest.raises(ValueError):
        ContentSeenTest(alignment_threshold=0.0)
