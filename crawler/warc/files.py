"""Where WARC files go and how they are named.

A file is written as ``NAME.warc.gz.open`` and renamed to ``NAME.warc.gz`` when it is
closed (rotation or end of crawl), so a reader that lists ``*.warc.gz`` never sees a
file still growing; a ``.open`` file left behind is one a killed crawl was writing.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

SUFFIX = ".warc.gz"
OPEN_SUFFIX = SUFFIX + ".open"


class WarcDirError(OSError):
    """The WARC directory cannot be created or written."""


def check_warc_dir(directory: str | os.PathLike[str]) -> Path:
    """Create ``directory`` if needed and prove it writable (a file is created and removed).

    Raises WarcDirError with one line naming the directory and the reason.
    """
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-test-"):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise WarcDirError(f"WARC_DIR {str(path)!r} cannot be written: {reason}") from None
    return path


def safe_prefix(crawl_id: str) -> str:
    """A file name prefix from a crawl id: anything but letters, digits, ``._-`` becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", crawl_id) or "crawl"


def warc_files(paths: list[Path]) -> list[Path]:
    """The WARC files named by ``paths`` (files, or directories whose ``*.warc.gz`` and
    ``*.warc.gz.open`` files are taken, sorted by name)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p for p in path.iterdir()
                if p.is_file() and (p.name.endswith(SUFFIX) or p.name.endswith(OPEN_SUFFIX))
            )
        else:
            found.append(path)
    return found
