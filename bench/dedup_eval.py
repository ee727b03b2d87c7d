"""Evaluate the content-seen algorithms on the documentation corpus (prints numbers).

Run: ``.venv/bin/python bench/dedup_eval.py [--quick]`` from the repository root.

1. Sweep of K, W and threshold on verified Jaccard: candidates from an LSH index at a
   low threshold (0.6), every candidate checked on the true Jaccard; for each
   threshold a query "matches" its most similar page at or above it.
1b. Second stage (word alignment of candidates with Jaccard in [candidate threshold,
   threshold)): alignment of edited pages vs the closest distinct pages, and a sweep of
   candidate and alignment thresholds.
2. The chosen defaults with the real ``ContentSeenTest`` (its own LSH banding, both
   stages): precision and recall per edit class, false positives among distinct pages.
   ``--candidate-threshold 0.8`` (= the threshold) is the first stage alone.
3. Per-page cost on a 30 KB text: fingerprint (karp_rabin, xxh64, md5), LSH query, the
   crawl's path, and the second stage's path (a 5 %-edited copy in the band).
4. Memory: tracemalloc while inserting many signatures / minutiae arrays / word-hash
   arrays, extrapolated linearly to 1M pages.

``--content main`` fingerprints each page's main content only: the paragraphs that are
not per-site boilerplate (a paragraph found on at least 2 % of its site's pages and on
at least 5 of them, ``dedup_corpus.boilerplate_paragraphs``) are kept, in the distinct
pages and in the edited ones alike.  ``--threshold`` sets the threshold of section 2,
``--thresholds`` those of the sweep (LSH candidates are taken at the lowest);
``--candidate-threshold`` and ``--alignment-threshold`` the second stage of section 2.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
import tracemalloc
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dedup_corpus import (  # noqa: E402
    EDIT_CLASSES,
    EXTRA_SITES,
    SITES,
    SOURCE_TWIN_RATIO,
    EditedPage,
    Page,
    boilerplate_paragraphs,
    content_ratio,
    corpus_vocabulary,
    load_pages,
    main_content,
    make_edits,
    replace_words,
)
from crawler import defaults  # noqa: E402
from crawler.dedup.alignment import word_alignment, word_hashes  # noqa: E402
from crawler.dedup.content_seen import ContentSeenTest  # noqa: E402
from crawler.dedup.near_duplicates import NearDuplicateIndex  # noqa: E402
from crawler.dedup.winnowing import DEFAULT_K, DEFAULT_W, WinnowingFingerprint  # noqa: E402

TARGET_EDITS = ("banner", "date", "words_1", "words_5", "reorder")  # "edits up to 5 %"
DEFAULT_THRESHOLD = defaults.DEDUP_THRESHOLD
DEFAULT_CANDIDATE_THRESHOLD = defaults.DEDUP_CANDIDATE_THRESHOLD
DEFAULT_ALIGNMENT_THRESHOLD = defaults.DEDUP_ALIGNMENT_THRESHOLD
STAGE2_CANDIDATE_THRESHOLDS = (0.5, 0.55, 0.6)
STAGE2_ALIGNMENT_THRESHOLDS = (0.88, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95)
SWEEP_THRESHOLDS = (0.6, 0.7, 0.8, 0.9)
CANDIDATE_THRESHOLD = 0.6


class SourceTwins:
    """Is a pair of distinct pages a duplicate in the source (content ratio >= 0.9)?"""

    def __init__(self, pages: list[Page]) -> None:
        self.pages = {page.key: page for page in pages}
        self.boilerplate = boilerplate_paragraphs(pages)
        self.ratios: dict[tuple[str, str], float] = {}

    def ratio(self, key_a: str, key_b: str) -> float:
        pair = (min(key_a, key_b), max(key_a, key_b))
        if pair not in self.ratios:
            self.ratios[pair] = content_ratio(
                self.pages[pair[0]], self.pages[pair[1]], self.boilerplate
            )
        return self.ratios[pair]

    def __call__(self, key_a: str, key_b: str) -> bool:
        return self.ratio(key_a, key_b) >= SOURCE_TWIN_RATIO


@dataclass
class Outcome:
    """Most similar other page (verified Jaccard) for one query."""

    key: str  # the query page (the base page for an edited one)
    expected: str | None  # base key for an edited page, None for an original page
    edit: str
    site: str
    best_key: str | None
    best_similarity: float
    base_similarity: float  # Jaccard with the base page (edited queries only)


def fingerprint_all(
    fingerprint: WinnowingFingerprint, pages: list[Page], edits: list[EditedPage]
) -> tuple[dict[str, np.ndarray], list[np.ndarray]]:
    originals = {page.key: fingerprint.minutiae_array(page.text) for page in pages}
    edited = [fingerprint.minutiae_array(edit.text) for edit in edits]
    return originals, edited


def best_other(
    index: NearDuplicateIndex, minutiae: np.ndarray, exclude: str | None
) -> tuple[str | None, float]:
    best_key, best_similarity = None, 0.0
    for key in index.candidates(minutiae):
        if key == exclude:
            continue
        similarity = index.similarity(key, minutiae)
        if best_key is None or (similarity, best_key) > (best_similarity, key):
            best_key, best_similarity = key, similarity
    return best_key, best_similarity


def collect_outcomes(
    index: NearDuplicateIndex,
    pages: list[Page],
    originals: dict[str, np.ndarray],
    edits: list[EditedPage],
    edited: list[np.ndarray],
) -> list[Outcome]:
    site_of = {page.key: page.site for page in pages}
    outcomes = []
    for page in pages:
        key, similarity = best_other(index, originals[page.key], exclude=page.key)
        outcomes.append(Outcome(page.key, None, "distinct", page.site, key, similarity, 0.0))
    for edit, minutiae in zip(edits, edited, strict=True):
        key, similarity = best_other(index, minutiae, exclude=None)
        base_similarity = index.similarity(edit.base_key, minutiae)
        outcomes.append(
            Outcome(
                edit.base_key,
                edit.base_key,
                edit.edit,
                site_of[edit.base_key],
                key,
                similarity,
                base_similarity,
            )
        )
    return outcomes


@dataclass
class Scores:
    recall: dict[str, float]
    precision: dict[str, float]
    same_site_fp: int
    cross_site_fp: int
    twins_flagged: int
    distinct_max: float


def score(
    outcomes: list[Outcome], threshold: float, site_of: dict[str, str], twins: SourceTwins
) -> Scores:
    matched: dict[str, int] = defaultdict(int)
    correct: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    same_site_fp = cross_site_fp = twins_flagged = 0
    distinct_max = 0.0
    for outcome in outcomes:
        flagged = outcome.best_key is not None and outcome.best_similarity >= threshold
        if outcome.expected is None:
            if outcome.best_key is not None and not twins(outcome.best_key, outcome.key):
                distinct_max = max(distinct_max, outcome.best_similarity)
            if flagged:
                if twins(outcome.best_key, outcome.key):
                    twins_flagged += 1
                elif site_of[outcome.best_key] == outcome.site:
                    same_site_fp += 1
                else:
                    cross_site_fp += 1
            continue
        total[outcome.edit] += 1
        if flagged:
            matched[outcome.edit] += 1
            correct[outcome.edit] += outcome.best_key == outcome.expected
    recall = {edit: correct[edit] / total[edit] for edit in total}
    precision = {edit: (correct[edit] / matched[edit] if matched[edit] else 1.0) for edit in total}
    return Scores(recall, precision, same_site_fp, cross_site_fp, twins_flagged, distinct_max)


def median_base_similarity(outcomes: list[Outcome], edit: str) -> float:
    return float(np.median([o.base_similarity for o in outcomes if o.edit == edit]))


def sweep(
    pages: list[Page],
    edits: list[EditedPage],
    configs: list[tuple[int, int]],
    twins: SourceTwins,
    thresholds: tuple[float, ...] = SWEEP_THRESHOLDS,
) -> None:
    site_of = {page.key: page.site for page in pages}
    candidate_threshold = min(min(thresholds), CANDIDATE_THRESHOLD)
    print(f"\n== 1. Sweep (verified Jaccard; LSH candidates at threshold {candidate_threshold}) ==")
    print(
        "recall per edit class at each threshold; FP = distinct pages flagged (same site /"
        " cross site; source twins excluded, their count after '+'); max J = highest Jaccard"
        " between distinct non-twin pages; medJ = median Jaccard of edited page vs its base"
    )
    header = "K   W   minutiae/page  thr  " + " ".join(f"{e:>8}" for e in EDIT_CLASSES)
    print(header + "   FP same/cross  max J distinct")
    for k, w in configs:
        fingerprint = WinnowingFingerprint(k, w)
        originals, edited = fingerprint_all(fingerprint, pages, edits)
        index = NearDuplicateIndex(threshold=candidate_threshold)
        index.add_many(originals.items())
        outcomes = collect_outcomes(index, pages, originals, edits, edited)
        mean_size = np.mean([array.size for array in originals.values()])
        medians = " ".join(f"{median_base_similarity(outcomes, e):8.3f}" for e in EDIT_CLASSES)
        print(f"{k:<3} {w:<3} {mean_size:13.0f}  medJ " + medians)
        for threshold in thresholds:
            scores = score(outcomes, threshold, site_of, twins)
            recalls = " ".join(f"{scores.recall[e]:8.3f}" for e in EDIT_CLASSES)
            fp = f"{scores.same_site_fp}/{scores.cross_site_fp} +{scores.twins_flagged}"
            print(
                f"{'':<3} {'':<3} {'':13}  {threshold:.1f}  {recalls}   "
                f"{fp:>13}  {scores.distinct_max:.3f}"
            )


@dataclass
class BandOutcome:
    """All verified candidates (Jaccard >= the lowest candidate threshold) of a query."""

    expected: str | None  # base key of an edited page; None for a distinct page
    key: str  # the query page (the base page for an edited one)
    edit: str
    site: str
    candidates: list[tuple[str, float, float]]  # (key, Jaccard, word alignment)


def stage2_decision(
    outcome: BandOutcome, threshold: float, candidate_threshold: float, alignment: float
) -> tuple[str | None, bool]:
    """(page matched or None, whether the second stage decided) as ContentSeenTest."""
    first = [(j, key) for key, j, _ in outcome.candidates if j >= threshold]
    if first:
        return min(first, key=lambda t: (-t[0], t[1]))[1], False
    band = [
        (a, j, key)
        for key, j, a in outcome.candidates
        if candidate_threshold <= j < threshold and a >= alignment
    ]
    if not band:
        return None, False
    return min(band, key=lambda t: (-t[0], -t[1], t[2]))[2], True


def second_stage_sweep(
    pages: list[Page], edits: list[EditedPage], twins: SourceTwins, threshold: float
) -> None:
    lowest = min(STAGE2_CANDIDATE_THRESHOLDS)
    print(
        f"\n== 1b. Second stage: word alignment of candidates with Jaccard in [c, {threshold})"
        f" (K={DEFAULT_K} W={DEFAULT_W}; LSH candidates at {lowest}) =="
    )
    site_of = {page.key: page.site for page in pages}
    fingerprint = WinnowingFingerprint()
    originals, edited = fingerprint_all(fingerprint, pages, edits)
    words = {page.key: word_hashes(page.text) for page in pages}
    index = NearDuplicateIndex(threshold=lowest)
    index.add_many(originals.items())

    def candidates(minutiae, query_words, exclude):
        found = []
        for key in index.candidates(minutiae):
            if key == exclude:
                continue
            j = index.similarity(key, minutiae)
            if j >= lowest:
                found.append((key, j, word_alignment(query_words, words[key])))
        return found

    outcomes = [
        BandOutcome(None, page.key, "distinct", page.site,
                    candidates(originals[page.key], words[page.key], page.key))
        for page in pages
    ]
    outcomes += [
        BandOutcome(edit.base_key, edit.base_key, edit.edit, site_of[edit.base_key],
                    candidates(minutiae, word_hashes(edit.text), None))
        for edit, minutiae in zip(edits, edited, strict=True)
    ]
    print("word alignment (2 LCS / (n + m) of word hashes) of edited pages vs their base:")
    for edit in EDIT_CLASSES:
        values = [word_alignment(word_hashes(e.text), words[e.base_key])
                  for e in edits if e.edit == edit]
        base_j = [j for o in outcomes if o.edit == edit
                  for key, j, _ in o.candidates if key == o.expected]
        print(f"  {edit:<9} alignment min {min(values):.3f} median {np.median(values):.3f}"
              f"   (Jaccard median {np.median(base_j) if base_j else 0.0:.3f})")
    pairs = {}
    for outcome in outcomes:
        if outcome.expected is None:
            for key, j, a in outcome.candidates:
                if j < threshold:
                    pairs[tuple(sorted((outcome.key, key)))] = (j, a)
    distinct = sorted(
        ((a, j, pair) for pair, (j, a) in pairs.items() if not twins(*pair)), reverse=True
    )
    twin_pairs = sum(1 for pair in pairs if twins(*pair))
    print(
        f"distinct page pairs with Jaccard in [{lowest}, {threshold}): {len(pairs)} "
        f"({twin_pairs} source twins); highest alignments of the non-twins:"
    )
    for a, j, (key_a, key_b) in distinct[:8]:
        print(f"  {key_a} ~ {key_b}: J={j:.3f} alignment={a:.3f} "
              f"content ratio={twins.ratio(key_a, key_b):.3f}")
    header = "cand  align " + " ".join(f"{e:>8}" for e in EDIT_CLASSES)
    print(header + "   FP same/cross  +twins  stage-2 matches")
    for candidate_threshold in STAGE2_CANDIDATE_THRESHOLDS:
        for alignment in STAGE2_ALIGNMENT_THRESHOLDS:
            correct: dict[str, int] = defaultdict(int)
            total: dict[str, int] = defaultdict(int)
            same = cross = twin = second = 0
            for outcome in outcomes:
                key, by_stage2 = stage2_decision(
                    outcome, threshold, candidate_threshold, alignment)
                second += by_stage2
                if outcome.expected is None:
                    if key is None:
                        continue
                    if twins(key, outcome.key):
                        twin += 1
                    elif site_of[key] == outcome.site:
                        same += 1
                    else:
                        cross += 1
                    continue
                total[outcome.edit] += 1
                correct[outcome.edit] += key == outcome.expected
            recalls = " ".join(f"{correct[e] / total[e]:8.3f}" for e in EDIT_CLASSES)
            print(f"{candidate_threshold:<5.2f} {alignment:<5.2f} {recalls}   "
                  f"{f'{same}/{cross}':>13}  {twin:6d}  {second:15d}")


def evaluate_defaults(
    pages: list[Page],
    edits: list[EditedPage],
    twins: SourceTwins,
    threshold: float = DEFAULT_THRESHOLD,
    candidate_threshold: float = DEFAULT_CANDIDATE_THRESHOLD,
    alignment_threshold: float = DEFAULT_ALIGNMENT_THRESHOLD,
    short_page_words: int = defaults.DEDUP_SHORT_PAGE_WORDS,
    same_host_titles_differ: bool = defaults.DEDUP_SAME_HOST_TITLES_DIFFER,
) -> ContentSeenTest:
    site_of = {page.key: page.site for page in pages}
    test = ContentSeenTest(
        threshold=threshold,
        candidate_threshold=candidate_threshold,
        alignment_threshold=alignment_threshold,
        short_page_words=short_page_words,
        same_host_titles_differ=same_host_titles_differ,
    )
    # the test sees URLs (one host per site) and titles, as in a crawl; an edited page
    # is a copy on its base's host with its base's title (the edits keep the title)
    url_of = {page.key: page_url(page.site, page.key) for page in pages}
    key_of = {url: key for key, url in url_of.items()}
    title_of = {page.key: page.title for page in pages}
    fingerprint = test.winnowing
    stage2 = (
        f"second stage: Jaccard in [{candidate_threshold}, {threshold}) and word alignment "
        f">= {alignment_threshold}, pages under {short_page_words} words by the alignment "
        "alone" if test.second_stage else "no second stage"
    )
    print(
        f"\n== 2. Defaults: K={fingerprint.k} W={fingerprint.w} hash={fingerprint.hash_name} "
        f"threshold={threshold}, {stage2}; same host, other title: other document "
        f"{'on' if same_host_titles_differ else 'off'} (real ContentSeenTest) =="
    )
    prints = {page.key: test.fingerprint(page.text) for page in pages}
    edited = [test.fingerprint(edit.text) for edit in edits]
    started = time.perf_counter()
    for page in pages:
        test.add(url_of[page.key], prints[page.key], page.title)
    add_seconds = time.perf_counter() - started
    print(
        f"LSH bands b={test.index.bands[0]} rows r={test.index.bands[1]}; add of {len(test)} "
        f"pages in {add_seconds:.2f} s ({add_seconds / len(test) * 1e3:.3f} ms/page)"
    )
    matched: dict[str, int] = defaultdict(int)
    correct: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    by_stage2: dict[str, int] = defaultdict(int)
    for number, (edit, page_fingerprint) in enumerate(zip(edits, edited, strict=True)):
        base_site = site_of[edit.base_key]
        match = test.find(page_url(base_site, f"{base_site}:edit/{number}"), page_fingerprint,
                          title=title_of[edit.base_key])
        total[edit.edit] += 1
        if match is not None:
            matched[edit.edit] += 1
            correct[edit.edit] += key_of[match.original] == edit.base_key
            by_stage2[edit.edit] += match.alignment is not None
    same_site_fp = cross_site_fp = twins_flagged = 0
    flagged_examples = []
    candidates = verified = 0
    for page in pages:
        url = url_of[page.key]
        match = test.find(url, prints[page.key], title=page.title)  # never matches itself
        candidates += len(test.candidates(url, prints[page.key]))
        verified += len(test.similarities(url, prints[page.key], title=page.title))
        if match is not None:
            original = key_of[match.original]
            ratio = twins.ratio(page.key, original)
            flagged_examples.append((page.key, match, ratio))
            if ratio >= SOURCE_TWIN_RATIO:
                twins_flagged += 1
            elif site_of[original] == page.site:
                same_site_fp += 1
            else:
                cross_site_fp += 1
    print(
        f"{'edit class':<10} {'queries':>7} {'flagged':>7} {'precision':>9} {'recall':>7}  "
        f"{'stage 2':>7}  target"
    )
    all_tp = all_flagged = 0
    for edit in EDIT_CLASSES:
        precision = correct[edit] / matched[edit] if matched[edit] else 1.0
        recall = correct[edit] / total[edit]
        if edit in TARGET_EDITS:
            target = "P>=0.99 R>=0.95"
        elif edit.startswith("words_"):
            target = "(none: beyond 5 %)"
        else:
            target = "(none: extra class)"
        verdict = ""
        if edit in TARGET_EDITS:
            all_tp += correct[edit]
            all_flagged += matched[edit]
            verdict = "ok" if precision >= 0.99 and recall >= 0.95 else "MISSED"
        print(
            f"{edit:<10} {total[edit]:7d} {matched[edit]:7d} {precision:9.3f} {recall:7.3f}  "
            f"{by_stage2[edit]:7d}  {target} {verdict}"
        )
    combined_precision = all_tp / (all_flagged + same_site_fp + cross_site_fp)
    print(
        f"edits up to 5 % with the {len(pages)} distinct pages as negatives: "
        f"precision {combined_precision:.4f}"
    )
    print(
        f"distinct pages flagged: same site (same template) {same_site_fp}  "
        f"[target 0 {'ok' if same_site_fp == 0 else 'MISSED'}], cross site {cross_site_fp}; "
        f"source twins flagged (correctly) {twins_flagged}"
    )
    print(
        f"LSH candidates per distinct-page query: mean {candidates / len(pages):.2f} "
        f"({candidates / len(pages) / len(pages) * 1e3:.3f} per 1,000 indexed pages), "
        f"of which verified Jaccard >= {candidate_threshold}: {verified / len(pages):.2f}"
    )
    for query_key, match, ratio in flagged_examples:
        aligned = "" if match.alignment is None else f" alignment={match.alignment:.3f}"
        original = key_of[match.original]
        print(f"  flagged: {query_key} ~ {original} J={match.similarity:.3f}{aligned} "
              f"content ratio={ratio:.3f} titles {title_of[query_key]!r} ~ "
              f"{title_of[original]!r}")
    return test


def page_url(site: str, key: str) -> str:
    """A corpus key ``site:path`` as a URL of the site's own host."""
    return f"http://{site}.test/{key.partition(':')[2]}"


def timeit_ms(function, repeat: int = 7, number: int = 20) -> float:
    """Best of ``repeat`` runs of ``number`` calls, in CPU milliseconds per call.

    CPU time of this process (not wall time): the machine is shared, and wall time
    also counts the time other processes hold the cores.
    """
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(number):
            function()
        best = min(best, (time.process_time() - started) / number)
    return best * 1e3


def sample_30kb_text(pages: list[Page]) -> tuple[str, str]:
    """(key, first 30,000 characters) of the median-length page of at least 30 KB."""
    long_pages = sorted((page for page in pages if len(page.text) >= 30000), key=lambda p: p.key)
    page = long_pages[len(long_pages) // 2]
    return page.key, page.text[:30000]


def measure_costs(pages: list[Page], test: ContentSeenTest) -> None:
    print("\n== 3. Per-page cost, 30 KB of text (best of 7 x 20 runs, CPU time) ==")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    index = test.index
    key, text = sample_30kb_text(pages)
    fingerprint = WinnowingFingerprint()
    minutiae = fingerprint.minutiae_array(text)
    print(
        f"page {key}: 30000 chars, "
        f"{len(minutiae)} minutiae (K={fingerprint.k}, W={fingerprint.w}); "
        f"index holds {len(index)} pages, LSH {index.bands[0]} x {index.bands[1]}"
    )
    query_ms = timeit_ms(lambda: index.query(minutiae))
    for hash_name in ("karp_rabin", "xxh64", "md5"):
        config = WinnowingFingerprint(fingerprint.k, fingerprint.w, hash_name)
        number = 20 if hash_name == "karp_rabin" else 3
        fingerprint_ms = timeit_ms(
            lambda config=config: config.minutiae_array(text), repeat=5, number=number
        )
        total = fingerprint_ms + query_ms
        verdict = "ok" if total <= 2.0 else "over"
        print(
            f"{hash_name:<10} fingerprint {fingerprint_ms:7.3f} ms + LSH query {query_ms:.3f} ms"
            f" = {total:7.3f} ms   target <= 2 ms: {verdict}"
        )
    as_set = frozenset(minutiae.tolist())
    print(
        f"(frozenset API: minutiae() {timeit_ms(lambda: fingerprint.minutiae(text)):.3f} ms, "
        f"query(frozenset) {timeit_ms(lambda: index.query(as_set)):.3f} ms)"
    )
    # What the crawl's spider middleware does per page: exact digest, minutiae, MinHash
    # signature and word hashes (ContentSeenTest.fingerprint), then the exact and near
    # tests (find: LSH, verified Jaccard, and the second stage for band candidates).
    page_ms = timeit_ms(lambda: test.fingerprint(text))
    words_ms = timeit_ms(lambda: word_hashes(text))
    seen = test.fingerprint(text)
    find_ms = timeit_ms(lambda: test.find("query", seen))
    total = page_ms + find_ms
    words = f"and word hashes {page_ms:.3f} ms" if test.second_stage else f"{page_ms:.3f} ms"
    print(
        f"crawl path (ContentSeenTest, karp_rabin, {len(test)} pages admitted): fingerprint "
        f"with exact digest, signature {words} + find {find_ms:.3f} ms = {total:.3f} ms   "
        f"target <= 2 ms: {'ok' if total <= 2.0 else 'over'}"
    )
    if test.second_stage:
        # the same text without word hashes, in the same run (the machine is shared)
        first_only = ContentSeenTest(threshold=test.threshold,
                                     candidate_threshold=test.threshold)
        first_ms = timeit_ms(lambda: first_only.fingerprint(text))
        print(
            f"  (same run: fingerprint without word hashes {first_ms:.3f} ms; word_hashes() "
            f"alone {words_ms:.3f} ms)"
        )
    if not test.second_stage:
        return
    # A page with a second-stage candidate: the 30 KB text admitted, a copy with 5 % of
    # its words replaced (scattered) judged.
    vocabulary = corpus_vocabulary(pages)
    edited = replace_words(text, 0.05, vocabulary, random.Random(5))
    test.add("original-30kb", seen)
    edited_print = test.fingerprint(edited)
    duplicate = test.find("edited-30kb", edited_print)
    edited_ms = timeit_ms(lambda: test.fingerprint(edited))
    band_ms = timeit_ms(lambda: test.find("edited-30kb", edited_print))
    align_ms = timeit_ms(lambda: word_alignment(edited_print.words, seen.words))
    found = duplicate.detail if duplicate else "not found"
    print(
        f"second-stage path (copy with 5 % of the words replaced: {found}):"
        f" fingerprint {edited_ms:.3f} ms + find {band_ms:.3f} ms (alignment without cutoff of "
        f"{edited_print.words.size} and {seen.words.size} words {align_ms:.3f} ms) = "
        f"{edited_ms + band_ms:.3f} ms"
    )
    print(
        f"word hashes of a stored 30 KB text (fetched from `pages` after a restart or in "
        f"lookup mode): {words_ms:.3f} ms per candidate page, plus the query; verified "
        f"Jaccard: {timeit_ms(lambda: test.similarities('edited-30kb', edited_print)):.3f} ms"
        " for this page's candidates"
    )
    test.index.remove("original-30kb")


def bytes_per_held_array(arrays: list[np.ndarray], count: int) -> float:
    """Memory per entry of a dict of ``count`` copies of these arrays (cycled), as a
    crawl keeps one per admitted page."""
    _, held = traced_bytes(
        lambda: {f"k{number}": arrays[number % len(arrays)].copy() for number in range(count)}
    )
    return held / count


def traced_bytes(build):
    """(object built, bytes allocated and still held according to tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        built = build()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return built, held


def measure_memory(pages: list[Page], inserted: int, bands: tuple[int, int] | None) -> None:
    print(
        f"\n== 4. Memory (tracemalloc over {inserted} inserted pages, extrapolated "
        "linearly to 1M) =="
    )
    rng = np.random.default_rng(7)
    signatures = rng.integers(0, 2**32, size=(inserted, 128), dtype=np.uint32)
    keys = [f"https://example.org/page/{number:012d}" for number in range(inserted)]
    empty = np.zeros(1, dtype=np.uint64)

    def build_index() -> NearDuplicateIndex:
        index = NearDuplicateIndex(lookup=lambda key: empty, params=bands)
        index.add_many(
            (key, empty, signature) for key, signature in zip(keys, signatures, strict=True)
        )
        return index

    index, held = traced_bytes(build_index)
    lsh_per_page = held / inserted
    bands, rows = index.bands
    print(
        f"LSH tables ({bands} bands x {rows} rows, 37-char keys, lookup mode): "
        f"{lsh_per_page:,.0f} B/page -> {lsh_per_page * 1e6 / 2**30:.2f} GiB per 1M pages "
        "(extrapolated; keys not counted)"
    )
    del index
    fingerprint = WinnowingFingerprint()
    arrays = [fingerprint.minutiae_array(page.text) for page in pages]
    mean_size = float(np.mean([array.size for array in arrays]))
    count = min(inserted, 20000)
    per_set = bytes_per_held_array(arrays, count)
    print(
        f"in-memory verification sets (lookup=None): mean {mean_size:.0f} minutiae/page "
        f"on this corpus, {per_set:,.0f} B/page -> "
        f"{per_set * 1e6 / 2**30:.2f} GiB per 1M such pages (extrapolated; keys not counted)"
    )
    words = [word_hashes(page.text) for page in pages]
    mean_words = float(np.mean([array.size for array in words]))
    per_words = bytes_per_held_array(words, count)
    print(
        f"in-memory word hashes (second stage only, uint16): mean {mean_words:.0f} words/page on "
        f"this corpus, {per_words:,.0f} B/page -> {per_words * 1e6 / 2**30:.2f} GiB per 1M "
        "such pages (extrapolated; keys not counted)"
    )
    titles = [page.title for page in pages]
    urls = [f"https://example.org/page/{number:012d}" for number in range(count)]
    test = ContentSeenTest()

    def title_keys() -> dict[str, int]:
        # the URL strings exist anyway (index keys): only the dict and the keys count
        for url, number in zip(urls, range(count), strict=True):
            test._remember_title(url, titles[number % len(titles)])
        return test._titles

    titled, per_title = traced_bytes(title_keys)
    print(
        f"in-memory title keys (same-host rule, 8-byte BLAKE2b of the normalised title): "
        f"{len(titled)} of {count} pages titled, {per_title / count:,.1f} B/page -> "
        f"{per_title / count * 1e6 / 2**30:.3f} GiB per 1M such pages (keys not counted)"
    )
    _, text = sample_30kb_text(pages)
    print(
        f"(the 30 KB text of section 3 has {fingerprint.minutiae_array(text).size} minutiae: "
        f"{fingerprint.minutiae_array(text).size * 8 / 1024:.1f} KiB as uint64)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sweep and memory test")
    parser.add_argument("--bases", type=int, default=300, help="base pages for edits")
    parser.add_argument(
        "--content", choices=("all", "main", "model"), default="all",
        help="fingerprint all of each page's text, its main content (per-site boilerplate "
        "paragraphs dropped), or what the crawl's content model finds (DEDUP_CONTENT=main)",
    )
    parser.add_argument(
        "--sites", default=",".join(SITES),
        help=f"comma-separated sites of the corpus ({', '.join((*SITES, *EXTRA_SITES))})",
    )
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                        help="threshold of section 2")
    parser.add_argument("--candidate-threshold", type=float,
                        default=DEFAULT_CANDIDATE_THRESHOLD,
                        help="second stage of section 2 from this Jaccard (= --threshold: off)")
    parser.add_argument("--alignment-threshold", type=float,
                        default=DEFAULT_ALIGNMENT_THRESHOLD,
                        help="word alignment of the second stage of section 2")
    parser.add_argument("--short-page-words", type=int,
                        default=defaults.DEDUP_SHORT_PAGE_WORDS,
                        help="pages of fewer words judged by the alignment alone (0: off)")
    parser.add_argument("--titles-same-document", action="store_true",
                        help="DEDUP_SAME_HOST_TITLES_DIFFER=False in section 2 (before it)")
    parser.add_argument("--no-sweep", action="store_true", help="skip sections 1 and 1b")
    parser.add_argument("--thresholds", default=",".join(map(str, SWEEP_THRESHOLDS)),
                        help="comma-separated thresholds of the sweep")
    parser.add_argument("--no-memory", action="store_true", help="skip section 4")
    arguments = parser.parse_args()
    thresholds = tuple(float(t) for t in arguments.thresholds.split(","))
    started = time.perf_counter()
    known = {**SITES, **EXTRA_SITES}
    sites = {name: known[name] for name in arguments.sites.split(",") if name}
    pages = load_pages(sites)
    twins = SourceTwins(pages)  # judged on the full pages, whatever is fingerprinted
    if arguments.content == "model":  # the edits are made on what the model keeps
        pages = load_pages(sites, model=True)
    edits = make_edits(pages, base_count=arguments.bases)
    if arguments.content == "main":
        pages, edits = main_content(pages, edits)
    site_counts = defaultdict(int)
    for page in pages:
        site_counts[page.site] += 1
    print(
        f"corpus: {len(pages)} distinct pages {dict(site_counts)}; {len(edits)} edited pages "
        f"({arguments.bases} bases x {len(EDIT_CLASSES)} edit classes); "
        f"loaded in {time.perf_counter() - started:.1f} s; fingerprinted content: "
        f"{arguments.content}"
    )
    if arguments.quick:
        configs = [(DEFAULT_K, DEFAULT_W)]
    else:
        configs = [(k, DEFAULT_W) for k in (5, 8, 12, 16)]
        configs += [(DEFAULT_K, w) for w in (15, 50, 100) if w != DEFAULT_W]
        configs = list(dict.fromkeys(configs))
    if not arguments.no_sweep:
        section_started = time.perf_counter()
        sweep(pages, edits, configs, twins, thresholds)
        second_stage_sweep(pages, edits, twins, arguments.threshold)
        print(f"(sweeps: {time.perf_counter() - section_started:.0f} s)")
    test = evaluate_defaults(
        pages, edits, twins, arguments.threshold,
        min(arguments.candidate_threshold, arguments.threshold), arguments.alignment_threshold,
        arguments.short_page_words, not arguments.titles_same_document,
    )
    measure_costs(pages, test)
    if not arguments.no_memory:
        section_started = time.perf_counter()
        measure_memory(pages, 20000 if arguments.quick else 50000, test.index.bands)
        print(f"(memory: {time.perf_counter() - section_started:.0f} s)")
    print(
        f"\ntotal run time {time.perf_counter() - started:.0f} s wall, "
        f"{time.process_time():.0f} s CPU"
    )


if __name__ == "__main__":
    main()
