"""Small real indexes for the search tests: documents written to a fresh folder of one
backend, searched through the engine users get."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from crawler.search import IndexWriter, SearchEngine, open_index


def engine_over(
    tmp_path_factory: pytest.TempPathFactory,
    backend: str,
    documents: Iterable[dict[str, Any]],
    **engine_options: Any,
) -> Iterator[SearchEngine]:
    """For a module fixture: yields a SearchEngine over ``documents`` in a new index of
    ``backend``, closed after."""
    path: Path = tmp_path_factory.mktemp("index")
    ix = open_index(path, backend=backend)
    IndexWriter(ix).write(documents)
    engine = SearchEngine(ix, **engine_options)
    yield engine
    engine.close()
