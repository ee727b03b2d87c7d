"""Topic by example: a classifier trained on example pages replaces the keyword weight.

The examples file (``-a examples=FILE``) lists one example per line: a URL, or the path
of a local HTML or text file (relative paths are relative to the examples file). Lines
starting with ``-`` are off-topic examples, all others (optionally ``+``) on-topic ones;
``#`` starts a comment.

Two models, both on TF-IDF vectors of the search index's stemmed terms (scikit-learn):

- with on-topic and off-topic examples: multinomial Naive Bayes with uniform class priors;
  the page weight is the probability that the page is on-topic (0..1);
- with on-topic examples only: the cosine similarity of the page to the centroid of the
  examples (0..1), the IDF coming from the examples.

Naive Bayes separates much better when the off-topic examples cover the other subjects
the crawl will meet (a few pages of each); see docs/focused.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from crawler import defaults
from crawler.extract import extract_page
from crawler.focus.query import terms

NAIVE_BAYES = "naive_bayes"
COSINE = "tfidf_cosine"
_HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")


class ExamplesError(ValueError):
    """An examples file that cannot train a classifier."""


@dataclass(frozen=True)
class Example:
    source: str  # an http(s) URL or an absolute file path
    on_topic: bool = True

    @property
    def is_url(self) -> bool:
        return self.source.lower().startswith(("http://", "https://"))


def read_examples(path: str | Path) -> list[Example]:
    """Parse an examples file (see the module docstring). Local files must exist."""
    path = Path(path)
    if not path.is_file():
        raise ExamplesError(f"examples file {str(path)!r} does not exist")
    examples: list[Example] = []
    for number, raw in enumerate(path.read_text("utf-8", errors="replace").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        on_topic = not line.startswith("-")
        line = line.lstrip("+-").strip()
        if not line:
            continue
        example = Example(line, on_topic)
        if not example.is_url:
            local = Path(line) if Path(line).is_absolute() else path.parent / line
            if not local.is_file():
                raise ExamplesError(f"{path}:{number}: example file {line!r} does not exist")
            example = Example(str(local.resolve()), on_topic)
        examples.append(example)
    if not any(example.on_topic for example in examples):
        raise ExamplesError(f"examples file {str(path)!r} lists no on-topic example")
    return examples


def document_text(
    body: bytes | str, *, html: bool, url: str = "", encoding: str | None = None
) -> str:
    """The text a classifier sees: title and visible text of HTML, else the text itself."""
    if html:
        page = extract_page(body, url or "file:///", encoding=encoding)
        return f"{page.title}\n{page.text}"
    if isinstance(body, bytes):
        return body.decode(encoding or "utf-8", "replace")
    return body


def read_local_example(path: str | Path) -> str:
    path = Path(path)
    data = path.read_bytes()
    return document_text(data, html=path.suffix.lower() in _HTML_SUFFIXES, url=path.as_uri())


class TopicClassifier:
    """Scores a text's closeness to the example topic, 0..1 (see the module docstring)."""

    def __init__(
        self,
        on_topic: Sequence[str],
        off_topic: Sequence[str] = (),
        *,
        max_text_chars: int = defaults.FOCUS_MAX_TEXT_CHARS,
    ) -> None:
        on_topic = [t for t in on_topic if terms(t[:max_text_chars])]
        off_topic = [t for t in off_topic if terms(t[:max_text_chars])]
        if not on_topic:
            raise ExamplesError("no on-topic example has any searchable word")
        # scikit-learn is imported here: loading it costs a second, and every `scrapy`
        # command imports the spider modules
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.naive_bayes import MultinomialNB

        self.max_text_chars = max_text_chars
        self.vectorizer = TfidfVectorizer(analyzer=terms, sublinear_tf=True)
        self.model = NAIVE_BAYES if off_topic else COSINE
        self.examples = (len(on_topic), len(off_topic))
        texts = [self._cut(t) for t in (*on_topic, *off_topic)]
        matrix = self.vectorizer.fit_transform(texts)
        if off_topic:
            labels = [1] * len(on_topic) + [0] * len(off_topic)
            self.bayes: Any = MultinomialNB(fit_prior=False).fit(matrix, labels)
            self.centroid = None
        else:
            self.bayes = None
            centroid = np.asarray(matrix.mean(axis=0)).ravel()
            self.centroid = centroid / np.linalg.norm(centroid)

    def _cut(self, text: str) -> str:
        return text[: self.max_text_chars] if self.max_text_chars > 0 else text

    def score(self, text: str) -> float:
        return self.scores([text])[0]

    def scores(self, texts: Iterable[str]) -> list[float]:
        matrix = self.vectorizer.transform([self._cut(t) for t in texts])
        if self.bayes is not None:
            positive = list(self.bayes.classes_).index(1)
            return [float(p) for p in self.bayes.predict_proba(matrix)[:, positive]]
        assert self.centroid is not None
        # rows are L2-normalised by the vectorizer (0 for texts without known terms)
        similarity = matrix @ self.centroid
        return [float(min(max(s, 0.0), 1.0)) for s in np.asarray(similarity).ravel()]
