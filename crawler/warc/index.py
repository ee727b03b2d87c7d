"""CDXJ indexes of WARC files, as pywb reads them (docs/operations.md, "Replaying").

Each closed ``NAME.warc.gz`` gets ``NAME.cdxj`` beside it: one line per ``response``,
``revisit``, ``resource`` or ``metadata`` record, ``SURT TIMESTAMP {json}`` with the
URL, MIME type, HTTP status, payload digest, record length and offset and the WARC
file's name, sorted, written by webrecorder's `cdxj-indexer` (the indexer of pywb's
``wb-manager``), so that pywb, given the directory as both its ``index_paths`` and its
``archive_paths``, replays the crawl. Plain code, no Scrapy import.

An index is written under a temporary name and renamed, so a reader (pywb loads every
``*.cdxj`` of the directory) never sees half an index.
"""

from __future__ import annotations

import os
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from warcio.exceptions import ArchiveLoadFailed

from crawler.warc.files import OPEN_SUFFIX, SUFFIX
from crawler.warc.reading import incomplete_member

INDEX_SUFFIX = ".cdxj"


class WarcIndexError(Exception):
    """A WARC file cannot be indexed (unreadable, not a WARC file, cut short, still open).
    The message is one line naming the file and the reason."""


@dataclass(frozen=True)
class IndexResult:
    warc: Path
    index: Path
    lines: int


def index_path(warc: Path) -> Path:
    """``NAME.cdxj`` beside ``NAME.warc.gz`` (any other name: the name plus ``.cdxj``)."""
    name = warc.name
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name
    return warc.with_name(stem + INDEX_SUFFIX)


def _gzipped(path: Path) -> bool:
    try:
        with open(path, "rb") as stream:
            return stream.read(2) == b"\x1f\x8b"
    except OSError as exc:
        raise WarcIndexError(f"{path}: {exc.strerror or exc}") from None


def write_index(warc: str | os.PathLike[str], *, check_framing: bool = True) -> IndexResult:
    """Index one closed WARC file into ``index_path(warc)`` (replacing an older index).

    ``check_framing`` first reads the gzip framing of a compressed file and refuses a
    file whose last record was cut short (warcio would index the cut record as if whole); the
    crawl's own writer skips it for the files it has just closed whole.

    Raises WarcIndexError; on error no index file is left (an older one stays).
    """
    path = Path(warc)
    if path.name.endswith(OPEN_SUFFIX):
        raise WarcIndexError(
            f"{path}: still open (being written, or left by a killed crawl): not indexed"
        )
    if check_framing and _gzipped(path):
        try:
            cut = incomplete_member(path)
        except OSError as exc:
            raise WarcIndexError(f"{path}: {exc.strerror or exc}") from None
        except zlib.error as exc:
            raise WarcIndexError(f"{path}: not a gzip-per-record WARC file ({exc})") from None
        if cut is not None:
            raise WarcIndexError(f"{path}: last record incomplete at offset {cut}")
    # imported here: cdxj-indexer brings pyamf and pkg_resources (0.2-0.5 s), which a
    # crawl's start or `scrapy --help` should not pay for when no WARC is written
    from cdxj_indexer.main import CDXJIndexer

    target = index_path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            # the file's own name in each line: pywb finds it under its archive_paths
            indexer = CDXJIndexer(out, [str(path)], sort=True, filename=path.name)
            indexer.process_all()
        with open(temporary, "rb") as written:
            lines = sum(1 for _ in written)
        os.replace(temporary, target)
    except OSError as exc:
        os.unlink(temporary)
        raise WarcIndexError(f"{path}: {exc.strerror or exc}") from None
    except (ArchiveLoadFailed, EOFError, zlib.error, ValueError) as exc:
        os.unlink(temporary)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise WarcIndexError(f"{path}: unreadable WARC file ({reason})") from None
    return IndexResult(path, target, lines)
