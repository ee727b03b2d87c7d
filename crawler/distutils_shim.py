"""setuptools' distutils shim, settled before the crawl's background threads import.

setuptools (a dependency: scrapyd needs its ``pkg_resources``) installs, through a ``.pth``
file, a finder at the head of ``sys.meta_path`` that answers ``import distutils`` by
importing ``setuptools._distutils`` from inside its ``find_spec``. Python 3.11 calls every
``find_spec`` holding the interpreter-wide import lock, so for the 0.1-0.2 s that importing
setuptools takes, no other thread can import anything; and when another thread holds the
lock of a module setuptools needs (it is half-way through importing it, and waits for the
global lock for that module's own imports), neither can go on: the import machinery's
deadlock detection does not see the global lock. A crawl imports on three threads at its
start (Scrapy's components on the main thread, datasketch on the warm-up thread, whose
optional redis 2.x imports distutils, the embedded database's modules on the preparing
thread): one start in about thirty hung for good (CI: the demo's crawl, 300 s, stacks in
``<frozen importlib._bootstrap>`` ``_find_spec``; reproduced with the three imports alone).

Importing distutils once on the main thread, before those threads start, leaves the finder
nothing to import later: it then finds ``setuptools._distutils`` in ``sys.modules``. The CPU
is the same (the warm-up thread imported it anyway), now spent before the threads start.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterable

# what a crawl's threads import that imports distutils: datasketch (the warm-up thread)
# imports redis when it is installed, and redis 2.x (which pywb pins) imports distutils.
# Without one of them installed nothing imports distutils, and settling the shim would only
# cost the start the import of setuptools and pkg_resources (95 ms of CPU).
DISTUTILS_IMPORTERS = ("redis",)


def distutils_shim_pending() -> bool:
    """Whether setuptools' finder would still import setuptools on ``import distutils``."""
    if "distutils" in sys.modules:
        return False
    return any(type(finder).__module__ == "_distutils_hack" for finder in sys.meta_path)


def settle_distutils_shim(importers: Iterable[str] = DISTUTILS_IMPORTERS) -> bool:
    """Import distutils now, through the shim, if the shim is pending and one of
    ``importers`` is installed; whether it did. Call it on the main thread before starting
    threads that import. An environment whose distutils cannot be imported (no setuptools,
    Python 3.12 without it) is left as it is."""
    if not distutils_shim_pending():
        return False
    if not any(importlib.util.find_spec(name) is not None for name in importers):
        return False
    try:
        importlib.import_module("distutils")
    except ImportError:
        return False
    return True
