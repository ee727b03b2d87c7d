"""py3langid's model from the uncompressed copy in the user's cache (crawler/language_model.py)."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest
from py3langid.langid import MODEL_FILE, LanguageIdentifier

from crawler.language_model import cache_dir, load_identifier

TEXTS = (
    "The crawler keeps a priority queue of the pages it has not fetched yet.",
    "Der Crawler hält eine Warteschlange der Seiten, die er noch nicht geladen hat.",
    "Le robot garde une file des pages qu'il n'a pas encore téléchargées.",
    "El rastreador mantiene una cola de las páginas que todavía no ha descargado.",
)


def test_the_cached_model_classifies_as_py3langids_own(tmp_path: Path) -> None:
    reference = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    first = load_identifier(tmp_path)
    copies = list(tmp_path.glob("py3langid-*.npz"))
    assert len(copies) == 1 and copies[0].stat().st_size > 60_000_000
    assert not list(tmp_path.glob("*.partial"))
    second = load_identifier(tmp_path)
    for text in TEXTS:
        assert first.classify(text) == reference.classify(text)
        assert second.classify(text) == reference.classify(text)
    assert [reference.classify(t)[0] for t in TEXTS] == ["en", "de", "fr", "es"]


def test_a_cached_model_is_read_without_decompressing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_identifier(tmp_path)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("decompressed although the cache holds the model")

    monkeypatch.setattr(lzma, "open", refuse)
    assert load_identifier(tmp_path).classify(TEXTS[1])[0] == "de"


def test_an_unwritable_cache_loads_the_model_as_py3langid_does(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    identifier = load_identifier(blocked / "crawler")
    assert identifier.classify(TEXTS[2])[0] == "fr"
    assert blocked.read_text() == "not a folder"


def test_a_damaged_copy_is_not_trusted(tmp_path: Path) -> None:
    load_identifier(tmp_path)
    (copy,) = tmp_path.glob("py3langid-*.npz")
    copy.write_bytes(b"PK\x03\x04 truncated")
    assert load_identifier(tmp_path).classify(TEXTS[3])[0] == "es"
    assert not copy.exists()  # made again by the next load
    load_identifier(tmp_path)
    assert copy.stat().st_size > 60_000_000


def test_the_cache_follows_xdg_cache_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "crawler"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "crawler"
