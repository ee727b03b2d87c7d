"""Labelled near-duplicate corpus from the documentation installed on this machine.

Pages: every HTML page of the Python 3.11, PostgreSQL 15 and Django documentation under
``/usr/share/doc`` (visible text extracted with lxml; script, style, noscript, template
and head dropped except the title; one paragraph per block element).  Pages whose
normalised text is exactly equal to an earlier page's are dropped, so every pair of
pages is a pair of distinct documents.

Positives: controlled edits of a seeded sample of base pages (``EDIT_CLASSES``):

* ``banner``: a ~170-character notice paragraph inserted at the top;
* ``date``: every date-like string changed to another date (pages without one get a
  "Last updated on <date>." line appended);
* ``words_1`` / ``words_5`` / ``words_20`` / ``words_50``: that percentage of the words
  replaced by words drawn from the corpus vocabulary;
* ``runs_5`` (extra, not in the targets): 5 % of the words replaced in runs of 10
  consecutive words (a rewritten phrase), the more usual shape of a real page update;
* ``reorder``: the long paragraphs (>= 150 characters: the content) shuffled among
  their places; navigation and headings stay.

Base pages have at least 1,000 characters of text and 3 long paragraphs.

Negatives: all the other pages -- distinct pages of the same site (same template,
different content: the hard case) and of the other sites.  Some distinct pages are
nevertheless duplicates in the source (e.g. Django's release notes of a security fix
published for two branches, identical but for the version numbers): ``content_ratio``
identifies them independently of the fingerprint (word-sequence similarity of the
text left after removing the site's boilerplate paragraphs).

Everything is deterministic for a given seed.
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import html

from crawler.dedup.winnowing import exact_digest

SITES = {
    "python": Path("/usr/share/doc/python3.11/html"),
    "postgresql": Path("/usr/share/doc/postgresql-doc-15/html"),
    "django": Path("/usr/share/doc/python-django-doc/html"),
}
#: Sites the evaluation can add (``--sites``): Erlang/OTP's reference (package
#: erlang-doc), whose module pages open with a left menu of their application's pages and
#: functions (43-78 % of a module page's HTML), shared by every page of the application.
EXTRA_SITES = {
    "erlang": Path("/usr/share/doc/erlang-doc"),
}
EDIT_CLASSES = (
    "banner", "date", "words_1", "words_5", "words_20", "words_50", "reorder", "runs_5",
)  # fmt: skip
RUN_WORDS = 10  # length of a replaced run of words in the "runs_5" edit
MIN_BASE_CHARS = 1000  # base pages for edits have at least this much text...
LONG_PARAGRAPH_CHARS = 150  # ...and at least MIN_LONG_PARAGRAPHS paragraphs this long
MIN_LONG_PARAGRAPHS = 3
SOURCE_TWIN_RATIO = 0.9  # content word-sequence similarity of genuinely duplicated pages

_DROPPED_TAGS = ("script", "style", "noscript", "template")
_BLOCK_TAGS = (
    "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "pre", "table", "tr", "td", "th",
    "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "section", "article", "header",
    "footer", "nav", "aside", "form", "br", "hr", "title", "caption", "figcaption",
)  # fmt: skip
_BANNER = (
    "Notice: this page is mirrored from the official documentation. Content may lag "
    "behind the upstream release; report problems to the mirror administrators."
)
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December",
)  # fmt: skip
_DATE_PATTERN = re.compile(
    r"\b(?:" + "|".join(_MONTHS) + r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec))"
    r"\.? \d{1,2}, \d{4}\b|\b\d{4}-\d{2}-\d{2}\b"
)
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Page:
    """One documentation page: ``key`` is ``site:relative/path.html``."""

    key: str
    site: str
    paragraphs: tuple[str, ...]
    title: str = ""  # the HTML <title>, white space collapsed (the same-host rule)

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


@dataclass(frozen=True)
class EditedPage:
    """A controlled edit of the page ``base_key``: a labelled near duplicate."""

    base_key: str
    edit: str
    text: str


def extract_paragraphs(path: Path) -> tuple[str, ...]:
    """Visible text of an HTML file, one string per block, white space collapsed."""
    root = html.parse(str(path)).getroot()
    if root is None:
        return ()
    for element in root.iter(*_DROPPED_TAGS):
        element.drop_tree()
    title = root.findtext(".//title") or ""
    head = root.find("head")
    if head is not None:
        head.drop_tree()
    for element in root.iter(*_BLOCK_TAGS):
        element.text = "\n\n" + (element.text or "")
        element.tail = "\n\n" + (element.tail or "")
    body_text = root.text_content()
    blocks = [" ".join(block.split()) for block in re.split(r"\n\s*\n", body_text)]
    return tuple(block for block in [" ".join(title.split()), *blocks] if block)


MODEL_CHUNK_WORDS = 40  # sentences joined into "paragraphs" of at least this many words
_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+")


def model_paragraphs(path: Path, paragraphs: tuple[str, ...]) -> tuple[str, ...]:
    """The page as the crawl fingerprints it with DEDUP_CONTENT=main: its title and its
    main content (``crawler.content.main_content``, the crawl's own extractor, whose text
    is one line), cut at sentence ends into chunks of at least MODEL_CHUNK_WORDS words so
    that the edits have paragraphs to work on; the visible text when the model finds no
    main content (as the crawl does)."""
    from crawler.content import main_content as content_model

    main = content_model(path.read_bytes()).text
    if not main.strip() or not paragraphs:
        return paragraphs
    title = root_title(path)
    chunks: list[str] = []
    current: list[str] = []
    for sentence in _SENTENCE_END.split(" ".join(main.split())):
        current.append(sentence)
        if sum(len(s.split()) for s in current) >= MODEL_CHUNK_WORDS:
            chunks.append(" ".join(current))
            current = []
    if current:
        chunks.append(" ".join(current))
    return tuple(text for text in (title, *chunks) if text)


def root_title(path: Path) -> str:
    """The page's title, white space collapsed ('' if none)."""
    root = html.parse(str(path)).getroot()
    return " ".join((root.findtext(".//title") or "").split()) if root is not None else ""


def load_pages(sites: dict[str, Path] = SITES, *, model: bool = False) -> list[Page]:
    """All pages of the sites, in a fixed order, exact duplicates and empty pages dropped
    (``model``: each page reduced to its main content, :func:`model_paragraphs`)."""
    pages: list[Page] = []
    seen_digests: set[str] = set()
    for site, root in sites.items():
        for path in sorted(root.rglob("*.html")):
            paragraphs = extract_paragraphs(path)
            if model:
                paragraphs = model_paragraphs(path, paragraphs)
            page = Page(f"{site}:{path.relative_to(root)}", site, paragraphs, root_title(path))
            digest = exact_digest(page.text)
            if not paragraphs or digest in seen_digests:
                continue
            seen_digests.add(digest)
            pages.append(page)
    return pages


def _random_date(rng: random.Random, iso: bool) -> str:
    if iso:
        return f"{rng.randint(2000, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    return f"{rng.choice(_MONTHS)} {rng.randint(1, 28):02d}, {rng.randint(2000, 2030)}"


def _change_dates(text: str, rng: random.Random) -> str:
    changed, count = _DATE_PATTERN.subn(lambda m: _random_date(rng, "-" in m.group(0)), text)
    if count:
        return changed
    return f"{text}\n\nLast updated on {_random_date(rng, iso=False)}."


def replace_words(
    text: str, fraction: float, vocabulary: list[str], rng: random.Random, run: int = 1
) -> str:
    """Replace ``fraction`` of the words, in runs of ``run`` consecutive words."""
    spans = [match.span() for match in _WORD.finditer(text)]
    runs = round(fraction * len(spans) / run)
    starts = rng.sample(range(0, len(spans) - run + 1, run), runs) if runs else []
    chosen = sorted(start + offset for start in starts for offset in range(run))
    parts: list[str] = []
    previous_end = 0
    for index in chosen:
        start, end = spans[index]
        parts.append(text[previous_end:start])
        replacement = rng.choice(vocabulary)
        while replacement.lower() == text[start:end].lower():
            replacement = rng.choice(vocabulary)
        parts.append(replacement)
        previous_end = end
    parts.append(text[previous_end:])
    return "".join(parts)


def edit_page(page: Page, edit: str, vocabulary: list[str], rng: random.Random) -> str:
    """The text of ``page`` after the controlled edit ``edit`` (one of EDIT_CLASSES)."""
    if edit == "banner":
        return "\n\n".join([page.paragraphs[0], _BANNER, *page.paragraphs[1:]])
    if edit == "date":
        return _change_dates(page.text, rng)
    if edit.startswith("words_"):
        return replace_words(page.text, int(edit.split("_")[1]) / 100, vocabulary, rng)
    if edit.startswith("runs_"):
        fraction = int(edit.split("_")[1]) / 100
        return replace_words(page.text, fraction, vocabulary, rng, run=RUN_WORDS)
    if edit == "reorder":
        paragraphs = list(page.paragraphs)
        slots = [i for i, text in enumerate(paragraphs) if len(text) >= LONG_PARAGRAPH_CHARS]
        moved = [paragraphs[i] for i in slots]
        rng.shuffle(moved)
        for slot, text in zip(slots, moved, strict=True):
            paragraphs[slot] = text
        return "\n\n".join(paragraphs)
    raise ValueError(f"unknown edit class {edit!r}")


def corpus_vocabulary(pages: list[Page], size: int = 20000) -> list[str]:
    """Distinct words of the corpus (alphabetic, 3+ letters), first ``size`` in order."""
    vocabulary: dict[str, None] = {}
    for page in pages:
        for word in _WORD.findall(page.text):
            if len(word) >= 3 and word.isalpha():
                vocabulary.setdefault(word, None)
                if len(vocabulary) >= size:
                    return list(vocabulary)
    return list(vocabulary)


def make_edits(pages: list[Page], base_count: int = 300, seed: int = 2024) -> list[EditedPage]:
    """``base_count`` seeded base pages (>= MIN_BASE_CHARS of text) x every edit class."""
    rng = random.Random(seed)
    vocabulary = corpus_vocabulary(pages)
    eligible = [
        page
        for page in pages
        if len(page.text) >= MIN_BASE_CHARS
        and sum(len(text) >= LONG_PARAGRAPH_CHARS for text in page.paragraphs)
        >= MIN_LONG_PARAGRAPHS
    ]
    bases = rng.sample(eligible, min(base_count, len(eligible)))
    return [
        EditedPage(base.key, edit, edit_page(base, edit, vocabulary, rng))
        for base in bases
        for edit in EDIT_CLASSES
    ]


def boilerplate_paragraphs(pages: list[Page], min_share: float = 0.02) -> set[str]:
    """Paragraphs found on at least ``min_share`` of their site's pages (and 5 pages)."""
    counts: dict[tuple[str, str], int] = {}
    site_sizes: dict[str, int] = {}
    for page in pages:
        site_sizes[page.site] = site_sizes.get(page.site, 0) + 1
        for text in set(page.paragraphs):
            counts[page.site, text] = counts.get((page.site, text), 0) + 1
    return {
        text
        for (site, text), count in counts.items()
        if count >= max(5, min_share * site_sizes[site])
    }


def content_ratio(a: Page, b: Page, boilerplate: set[str]) -> float:
    """Word-sequence similarity (difflib ratio) of two pages without their boilerplate."""
    words_a = [w for text in a.paragraphs if text not in boilerplate for w in text.split()]
    words_b = [w for text in b.paragraphs if text not in boilerplate for w in text.split()]
    return difflib.SequenceMatcher(None, words_a, words_b, autojunk=False).ratio()


def iter_site_counts(pages: list[Page]) -> Iterator[tuple[str, int]]:
    """(site, number of pages) in SITES order, then the extra sites."""
    for site in (*SITES, *EXTRA_SITES):
        yield site, sum(1 for page in pages if page.site == site)


def main_content(
    pages: list[Page], edits: list[EditedPage], min_share: float = 0.02
) -> tuple[list[Page], list[EditedPage]]:
    """The corpus with every page reduced to its main content: the paragraphs that are
    not boilerplate of its site (:func:`boilerplate_paragraphs` of the distinct pages).

    Edited pages lose the same paragraphs, where the edit left them intact (a banner or
    an edited template paragraph is content).
    """
    boilerplate = boilerplate_paragraphs(pages, min_share)
    reduced = [
        Page(page.key, page.site, tuple(t for t in page.paragraphs if t not in boilerplate),
             page.title)
        for page in pages
    ]
    reduced_edits = [
        EditedPage(
            edit.base_key,
            edit.edit,
            "\n\n".join(t for t in edit.text.split("\n\n") if t not in boilerplate),
        )
        for edit in edits
    ]
    return reduced, reduced_edits
