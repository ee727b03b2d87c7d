"""py3langid's language model, loaded from an uncompressed copy kept in the user's cache.

py3langid ships its model as an LZMA-compressed npz (4.6 MB, 68 MB uncompressed) and
decompresses it in every process that detects a language: the crawl's and each
page-analysis worker's, at every start, 0.36-0.54 s of CPU each while the crawl starts
(docs/performance.md, "The start again: inspect.stack(), the language model, the
warm-up"). The first load writes the uncompressed npz to ``$XDG_CACHE_HOME/crawler/``
(``~/.cache/crawler/``); later loads read it with ``numpy.load`` (no pickle): 0.08-0.14 s.
A cache that cannot be written or read is skipped: the model then loads as py3langid
loads it.

No Scrapy imports: plain functions, tested directly.
"""

from __future__ import annotations

import logging
import lzma
import os
import shutil
import tempfile
import zipfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)


def cache_dir() -> Path:
    """Where the uncompressed model is kept: ``$XDG_CACHE_HOME/crawler``, else
    ``~/.cache/crawler``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "crawler"


def load_identifier(cache: Path | None = None) -> Any:
    """py3langid's ``LanguageIdentifier`` (probabilities normalised), from the cached
    uncompressed model when there is one, else from py3langid's file (and the cache
    written for the next process). ``cache``: the cache folder (default
    :func:`cache_dir`)."""
    import numpy as np
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier
    from py3langid.modelio import _to_array

    source = MODEL_DIR / MODEL_FILE
    cached = _cached_copy(source, cache if cache is not None else cache_dir())
    if cached is not None:
        try:
            with np.load(cached, allow_pickle=False) as data:
                return LanguageIdentifier(
                    np.asarray(data["ptc"]),
                    np.asarray(data["pc"]),
                    data["classes"].tolist(),
                    _to_array(data["nextmove"]),
                    data["out_feat"].tolist(),
                    tk_row=_to_array(data["nextmove_row"]),
                    norm_probs=True,
                )
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            # a damaged copy (a full disk, another program): made again by the next load
            logger.debug("language model cache %s unreadable (%s): loading %s", cached, exc, source)
            cached.unlink(missing_ok=True)
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def _cached_copy(source: Path, folder: Path) -> Path | None:
    """The uncompressed copy of ``source`` in ``folder``, made now if missing; None when
    it cannot be made. Its name carries py3langid's version and the source's size, so that
    another model is never read for this one and every installation of the same version
    (each virtualenv) shares one copy."""
    try:
        size = source.stat().st_size
        target = folder / f"py3langid-{version('py3langid')}-{size}.npz"
        if target.exists():
            return target
        folder.mkdir(parents=True, exist_ok=True)
        # written beside the target and renamed: a process reading it never sees a part
        fd, partial = tempfile.mkstemp(dir=folder, suffix=".partial")
        try:
            with os.fdopen(fd, "wb") as out, lzma.open(source) as src:
                shutil.copyfileobj(src, out, length=1 << 20)
            os.replace(partial, target)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
        return target
    except (OSError, lzma.LZMAError) as exc:
        logger.debug("language model cache in %s not made (%s)", folder, exc)
        return None
