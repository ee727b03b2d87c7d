"""The content-seen test of a crawl: exact digest + near-duplicate index (no Scrapy).

A page is fingerprinted once (:meth:`ContentSeenTest.fingerprint`): the MD5 of its
normalised text (exact duplicates: equal up to white space, case and punctuation), its
winnowing minutiae and their MinHash signature (near duplicates), and its word hashes
(second stage).  :meth:`find` compares it with the pages already admitted; :meth:`add`
admits it.  The first page seen with a content is the original: later copies are its
duplicates, whichever of them is "the real one" on the web.

Near duplicates, two stages (docs/dedup.md):

1. the LSH proposes earlier pages; the one with the highest verified minutiae Jaccard,
   if it is >= ``threshold``, is the original (the issue's method);
2. otherwise the candidates whose Jaccard is in ``[candidate_threshold, threshold)`` are
   aligned word by word (:func:`~crawler.dedup.alignment.word_alignment`); the one with
   the highest alignment, if it is >= ``alignment_threshold``, is the original.  This
   catches scattered edits (low Jaccard, high alignment) without flagging distinct
   pages that share long passages (higher Jaccard, lower alignment; the figures are in
   docs/dedup.md).  ``candidate_threshold == threshold`` turns it off.

The word hashes of admitted pages are kept in memory with their minutiae (2 bytes per
word); pages loaded from storage have none: :meth:`words_needed` names the candidates
whose words the caller must fetch (e.g. re-derived from the stored page text) and pass
to :meth:`find` as ``words``.

A site's distinct titles (``same_host_titles_differ``, DEDUP_SAME_HOST_TITLES_DIFFER):
a candidate of the page's own host whose normalised title (white space collapsed, case
folded) differs from the page's is another document, never its near duplicate (in both
stages); exact duplicates, candidates of other hosts and pages without a title are
judged as before.  The test keeps an 8-byte key of each admitted page's title (pages
without a title get none); titles of pages it does not know (another agent's, in the
shared test) are passed to :meth:`similarities` as ``titles``.

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
from urllib.parse import urlsplit

import numpy as np

from crawler import defaults
from crawler.dedup.alignment import WORD_HASH_DTYPE, word_alignment
from crawler.dedup.near_duplicates import (
    NearDuplicateIndex,
    as_minutiae_array,
    recall_oriented_bands,
    sorted_jaccard,
)
from crawler.dedup.winnowing import WinnowingFingerprint, normalize_text

__all__ = [
    "CONTENT_CHOICES",
    "ContentSeenTest",
    "Duplicate",
    "FingerprintConfig",
    "PageFingerprint",
    "StoredFingerprint",
    "fingerprint_text",
    "title_key",
]


#: What the content-seen test may fingerprint (DEDUP_CONTENT).
CONTENT_CHOICES = ("main", "all")


def fingerprint_text(
    title: str, text: str, main_text: str | None = None, content: str = "all"
) -> str:
    """What the content-seen test fingerprints: the title and the text of a page; with
    ``content="main"`` the title and the main content, or the visible text when the page
    has no main content (``main_text`` None or blank: a page stored before the content
    model, a page the extractor found nothing in)."""
    if content == "main" and main_text and not main_text.isspace():
        text = main_text
    return f"{title}\n{text}" if title else text


def title_key(title: str | None) -> int | None:
    """A page title's identity for the same-host rule: 64 bits of BLAKE2b of the title
    with white space collapsed and case folded; None for no (or a blank) title."""
    normalized = " ".join((title or "").split()).casefold()
    if not normalized:
        return None
    digest = hashlib.blake2b(normalized.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def url_host(url: str) -> str:
    """The host of a page's URL (lower case, no port; '' when there is none)."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


@dataclass(frozen=True, slots=True)
class FingerprintConfig:
    """Everything a page's :class:`PageFingerprint` depends on: a process that has only
    this (a page-analysis worker, crawler/page_analysis.py) computes the fingerprint the
    crawl's :class:`ContentSeenTest` would."""

    k: int = defaults.DEDUP_K
    w: int = defaults.DEDUP_W
    hash_name: str = defaults.DEDUP_HASH
    num_perm: int = defaults.DEDUP_NUM_PERM
    threshold: float = defaults.DEDUP_THRESHOLD
    candidate_threshold: float = defaults.DEDUP_CANDIDATE_THRESHOLD
    content: str = defaults.DEDUP_CONTENT

    def test(self) -> ContentSeenTest:
        """An empty test with this configuration (for its :meth:`~ContentSeenTest.fingerprint`)."""
        return ContentSeenTest(
            WinnowingFingerprint(self.k, self.w, self.hash_name),
            self.threshold,
            self.num_perm,
            candidate_threshold=min(self.threshold, self.candidate_threshold),
            content=self.content,
        )


@dataclass(frozen=True)
class PageFingerprint:
    """What the content-seen test knows about one page's text."""

    digest: str  # MD5 hex of the normalised text
    minutiae: np.ndarray  # sorted distinct uint64
    signature: np.ndarray  # MinHash values, uint32, num_perm of them
    words: np.ndarray  # word hashes in text order, uint16 (second stage)


@dataclass(frozen=True)
class StoredFingerprint:
    """A fingerprint as persisted: ``minutiae`` may be None (kept elsewhere), the
    signature may be None (recomputed from the minutiae)."""

    url: str
    digest: str
    minutiae: np.ndarray | bytes | None
    signature: np.ndarray | bytes | None


def _truncated(value: float) -> str:
    """3 decimals, truncated (never rounded up)."""
    return f"{math.floor(value * 1000) / 1000:.3f}"


@dataclass(frozen=True)
class Duplicate:
    """The page is a duplicate of ``original`` (exact: same normalised text).

    ``similarity``: Jaccard of the minutiae (1.0 for an exact duplicate);
    ``alignment``: the word alignment, when the second stage decided (else None).
    """

    original: str
    similarity: float
    exact: bool
    alignment: float | None = None

    @property
    def kind(self) -> str:
        return "exact" if self.exact else "near"

    @property
    def detail(self) -> str:
        """``"<exact|near> duplicate of <URL> (similarity <J>)"``, or ``"... (similarity
        <J>, alignment <A>)"`` for the second stage; J and A truncated (never rounded up)
        to 3 decimals: parse it with :meth:`parse_detail`."""
        measures = f"similarity {_truncated(self.similarity)}"
        if self.alignment is not None:
            measures += f", alignment {_truncated(self.alignment)}"
        return f"{self.kind} duplicate of {self.original} ({measures})"

    @staticmethod
    def parse_detail(detail: str) -> Duplicate:
        """The inverse of :attr:`detail` (similarities as written, truncated); a reason
        appended after ``"; "`` (the copy kept by authority) is ignored."""
        detail = detail.partition("; ")[0]  # "; kept ...": why the copy was kept
        try:
            kind, rest = detail.split(" duplicate of ", 1)
            original, measures = rest.rsplit(" (similarity ", 1)
            if kind not in ("exact", "near") or not measures.endswith(")"):
                raise ValueError
            similarity, _, alignment = measures[:-1].partition(", alignment ")
            return Duplicate(
                original,
                float(similarity),
                kind == "exact",
                float(alignment) if alignment else None,
            )
        except ValueError:
            raise ValueError(f"not a duplicate detail: {detail!r}") from None


class ContentSeenTest:
    """Exact digests and a :class:`NearDuplicateIndex` of the pages admitted so far.

    ``fingerprint``: the winnowing configuration (K, W, hash); ``threshold``: the Jaccard
    of minutiae at or above which a page is a near duplicate; ``num_perm``: MinHash
    permutations; ``candidate_threshold`` (<= ``threshold``) and ``alignment_threshold``:
    the second stage (module docstring).  The LSH banding is chosen for
    ``candidate_threshold`` (it must propose the second stage's candidates too).  Keys
    are page URLs.
    """

    def __init__(
        self,
        fingerprint: WinnowingFingerprint | None = None,
        threshold: float = defaults.DEDUP_THRESHOLD,
        num_perm: int = defaults.DEDUP_NUM_PERM,
        *,
        keep_minutiae: bool = defaults.DEDUP_MINUTIAE_IN_MEMORY,
        candidate_threshold: float = defaults.DEDUP_CANDIDATE_THRESHOLD,
        alignment_threshold: float = defaults.DEDUP_ALIGNMENT_THRESHOLD,
        content: str = defaults.DEDUP_CONTENT,
        short_page_words: int = defaults.DEDUP_SHORT_PAGE_WORDS,
        same_host_titles_differ: bool = defaults.DEDUP_SAME_HOST_TITLES_DIFFER,
    ) -> None:
        if content not in CONTENT_CHOICES:
            raise ValueError(f"content must be one of {', '.join(CONTENT_CHOICES)}")
        if not 0.0 < candidate_threshold <= threshold:
            raise ValueError("candidate_threshold must be in (0, threshold]")
        if not 0.0 < alignment_threshold <= 1.0:
            raise ValueError("alignment_threshold must be in (0, 1]")
        self.winnowing = fingerprint or WinnowingFingerprint()
        self.keep_minutiae = keep_minutiae
        self.candidate_threshold = candidate_threshold
        self.alignment_threshold = alignment_threshold
        self.content = content
        self.short_page_words = max(0, short_page_words)
        self.same_host_titles_differ = same_host_titles_differ
        self.index = NearDuplicateIndex(
            threshold,
            num_perm,
            lookup=None if keep_minutiae else self._no_lookup,
            params=recall_oriented_bands(candidate_threshold, num_perm),
        )
        self._digests: dict[bytes, str] = {}  # MD5 (16 bytes) -> first URL with it
        # word hashes of the pages admitted in this process (in-memory mode only)
        self._words: dict[str, np.ndarray] = {}
        # title keys of the admitted pages that have a title (same_host_titles_differ)
        self._titles: dict[str, int] = {}

    @property
    def threshold(self) -> float:
        return self.index.threshold

    @property
    def second_stage(self) -> bool:
        """Whether candidates below ``threshold`` are aligned word by word."""
        return self.candidate_threshold < self.threshold

    @property
    def scheme(self) -> str:
        """Identifies the minutiae's configuration (stored with them): minutiae of
        different schemes are never compared."""
        w = self.winnowing
        # the whole text's scheme keeps its old name: rows stored before DEDUP_CONTENT
        # existed were made from the whole text
        suffix = ":main" if self.content == "main" else ""
        return f"winnow:k={w.k}:w={w.w}:{w.hash_name}{suffix}"

    def page_text(self, title: str, text: str, main_text: str | None = None) -> str:
        """The text of a page this test fingerprints (:func:`fingerprint_text`)."""
        return fingerprint_text(title, text, main_text, self.content)

    @property
    def fingerprint_config(self) -> FingerprintConfig:
        w = self.winnowing
        return FingerprintConfig(
            w.k,
            w.w,
            w.hash_name,
            self.index.num_perm,
            self.threshold,
            self.candidate_threshold,
            self.content,
        )

    @staticmethod
    def _no_lookup(key: str) -> np.ndarray:
        raise LookupError(f"minutiae of {key!r} are not kept in memory: pass them to find()")

    # ------------------------------------------------------------------ fingerprints

    def fingerprint(self, text: str) -> PageFingerprint | None:
        """The fingerprint of a page's text; None if nothing is left after normalising
        (an empty page carries no evidence and is never a duplicate)."""
        if not self.second_stage:
            normalized = normalize_text(text)
            minutiae = self.winnowing.normalized_minutiae_array(normalized)
            words = _NO_WORDS
        else:  # normalised once, prefix sums shared by K-gram and word hashes
            normalized, minutiae, words = self.winnowing.analyse(text)
        if not normalized:
            return None
        digest = hashlib.md5(normalized.encode("utf-8")).hexdigest()
        return PageFingerprint(digest, minutiae, self.index.signature(minutiae), words)

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

    def similarities(
        self,
        url: str,
        fingerprint: PageFingerprint,
        stored: Mapping[str, np.ndarray | Iterable[int]] | None = None,
        *,
        title: str | None = None,
        titles: Mapping[str, str | None] | None = None,
    ) -> dict[str, float]:
        """Verified Jaccard of each LSH candidate that reaches ``candidate_threshold``,
        other documents of the page's host left out (:meth:`other_documents`).

        ``stored``: the candidates' minutiae (required when minutiae are not kept in
        memory; candidates missing from it are skipped); ``title``: the page's title;
        ``titles``: titles of candidates this test has not admitted itself.
        """
        if fingerprint.minutiae.size == 0:
            return {}
        keys = self.candidates(url, fingerprint)
        if keys and self.same_host_titles_differ:
            others = self.other_documents(url, title, keys, titles)
            keys = [key for key in keys if key not in others]
        if stored is None:
            if not self.keep_minutiae:
                raise ValueError("minutiae are not kept in memory: pass stored=")
            pairs = ((key, self.index.stored_minutiae(key)) for key in keys)
        else:
            pairs = ((key, as_minutiae_array(stored[key])) for key in keys if key in stored)
        found = {}
        for key, minutiae in pairs:
            similarity = sorted_jaccard(fingerprint.minutiae, minutiae)
            if similarity >= self.candidate_threshold:
                found[key] = similarity
        return found

    def other_documents(
        self,
        url: str,
        title: str | None,
        keys: Iterable[str],
        titles: Mapping[str, str | None] | None = None,
    ) -> set[str]:
        """The admitted pages among ``keys`` that are other documents than the page
        ``url`` titled ``title``: same host, both titled, titles different once white
        space is collapsed and case folded.  A candidate's title is the one it was
        admitted with, else ``titles[key]``; one without a title is never excluded.
        Empty when the rule is off."""
        if not self.same_host_titles_differ:
            return set()
        own = title_key(title)
        host = url_host(url)
        if own is None or not host:  # no title, or a key that is not a URL: as before
            return set()
        others = set()
        for key in keys:
            if url_host(key) != host:
                continue
            other = self._titles.get(key)
            if other is None and titles is not None:
                other = title_key(titles.get(key))
            if other is not None and other != own:
                others.add(key)
        return others

    def words_needed(
        self, similarities: Mapping[str, float], fingerprint: PageFingerprint | None = None
    ) -> list[str]:
        """Second-stage candidates (of :meth:`similarities`) whose word hashes are not in
        memory (pages loaded from storage, or every page when minutiae are not kept in
        memory): fetch them and pass them to :meth:`decide` as ``words``.  Empty when
        the first stage decides (``fingerprint``: the page's, which the first stage does
        not decide when it is short)."""
        if not self.second_stage:
            return []
        short = fingerprint is not None and self._short(fingerprint)
        if not short and any(
            j >= self.threshold for j in similarities.values()
        ):
            return []
        return sorted(key for key in similarities if key not in self._words)

    def find(
        self,
        url: str,
        fingerprint: PageFingerprint,
        stored: Mapping[str, np.ndarray | Iterable[int]] | None = None,
        words: Mapping[str, np.ndarray] | None = None,
        *,
        title: str | None = None,
    ) -> Duplicate | None:
        """The page ``url`` duplicates among the admitted pages, if any.

        Exact duplicates first; else the candidate with the highest true Jaccard >=
        threshold; else the second stage.  ``stored``: the minutiae of the
        :meth:`candidates` (required when minutiae are not kept in memory; candidates
        missing from it are skipped); ``words``: word hashes of the :meth:`words_needed`
        (candidates without words are not aligned); ``title``: the page's title (other
        documents of its host are no near duplicates: :meth:`other_documents`).
        """
        duplicate = self.find_exact(url, fingerprint)
        if duplicate is not None:
            return duplicate
        similarities = self.similarities(url, fingerprint, stored, title=title)
        return self.decide(fingerprint, similarities, words)

    def decide(
        self,
        fingerprint: PageFingerprint,
        similarities: Mapping[str, float],
        words: Mapping[str, np.ndarray] | None = None,
    ) -> Duplicate | None:
        """The near duplicate among the candidates' :meth:`similarities`: the highest
        Jaccard if >= ``threshold``, else the highest word alignment (>=
        ``alignment_threshold``) among them; ``words``: word hashes of candidates not
        in memory (:meth:`words_needed`)."""
        if fingerprint.minutiae.size == 0 or not similarities:
            return None
        # first stage: highest Jaccard, ties to the smallest key (not for a short page:
        # its few minutiae make the Jaccard too coarse, the alignment decides)
        key, similarity = min(similarities.items(), key=lambda item: (-item[1], item[0]))
        if similarity >= self.threshold and not self._short(fingerprint):
            return Duplicate(key, similarity, exact=False)
        if not self.second_stage:
            return None
        # second stage: highest alignment (then Jaccard, then smallest key)
        aligned = []
        for key, similarity in similarities.items():
            other = self._words.get(key)
            if other is None and words is not None:
                other = words.get(key)
            if other is None:
                continue
            alignment = word_alignment(fingerprint.words, other, self.alignment_threshold)
            if alignment >= self.alignment_threshold:
                aligned.append((alignment, similarity, key))
        if not aligned:
            return None
        alignment, similarity, key = min(aligned, key=lambda a: (-a[0], -a[1], a[2]))
        return Duplicate(key, similarity, exact=False, alignment=alignment)

    def _short(self, fingerprint: PageFingerprint) -> bool:
        """Whether the page is judged by the word alignment alone (``short_page_words``)."""
        return self.second_stage and 0 < fingerprint.words.size < self.short_page_words

    def add(self, url: str, fingerprint: PageFingerprint, title: str | None = None) -> None:
        """Admit a page (a page already admitted is re-indexed with its new content and
        title).  The first URL with a normalised text stays its original."""
        self._digests.setdefault(bytes.fromhex(fingerprint.digest), url)
        self._remember_title(url, title)
        if url in self.index:
            self.index.remove(url)
        self.index.add(url, fingerprint.minutiae, signature=fingerprint.signature)
        if self.keep_minutiae and self.second_stage:
            self._words[url] = fingerprint.words
        else:
            self._words.pop(url, None)

    def replace_original(
        self, old: str, new: str, fingerprint: PageFingerprint, title: str | None = None
    ) -> None:
        """Admit ``new`` (titled ``title``) in place of the admitted ``old`` (the copy
        kept for its importance, crawler/dedup/authority.py): ``old`` leaves the index
        and the exact test, whose digests now name ``new``."""
        for digest in [d for d, url in self._digests.items() if url == old]:
            self._digests[digest] = new
        if old in self.index:
            self.index.remove(old)
        self._words.pop(old, None)
        self._titles.pop(old, None)
        self.add(new, fingerprint, title)

    def _remember_title(self, url: str, title: str | None) -> None:
        key = title_key(title) if self.same_host_titles_differ else None
        if key is None:
            self._titles.pop(url, None)
        else:
            self._titles[url] = key

    def load_titles(self, rows: Iterable[tuple[str, str | None]]) -> int:
        """Titles of pages admitted before (``(url, title)``, e.g. their ``pages`` rows
        at a restart) for the same-host rule; URLs not in the test are skipped.  Returns
        how many titles were taken."""
        if not self.same_host_titles_differ:
            return 0
        taken = 0
        for url, title in rows:
            if url in self.index:
                self._remember_title(url, title)
                taken += url in self._titles
        return taken

    def check(
        self, url: str, text: str, title: str | None = None
    ) -> tuple[PageFingerprint | None, Duplicate | None]:
        """Fingerprint ``text``, find what it duplicates, admit it if it is new (minutiae
        in memory only).  Returns the fingerprint (None for an empty text) and the
        duplicate found (None: the page was admitted).  ``title``: the page's title (the
        same-host rule; ``text`` is what is fingerprinted, title included)."""
        fingerprint = self.fingerprint(text)
        if fingerprint is None:
            return None, None
        duplicate = self.find(url, fingerprint, title=title)
        if duplicate is None:
            self.add(url, fingerprint, title)
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


_NO_WORDS = np.zeros(0, dtype=WORD_HASH_DTYPE)


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
