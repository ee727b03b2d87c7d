"""`scrapy warc list|check|index [PATH ...]`: the WARC files of a crawl
(docs/operations.md).

PATHs are WARC files or directories (their ``*.warc.gz`` and ``*.warc.gz.open`` files);
none: WARC_DIR. ``list`` prints one line per file: its state (``closed``, or ``open``:
being written, or left by a killed crawl), size, crawl id (from its warcinfo record) and
records by type. ``check`` reads every record, verifies block and payload digests (as
``warcio check`` does) and the gzip framing (a record cut by kill -9), and prints ``ok``
or the problems of each file. ``index`` (re)writes the CDXJ index of each closed file
(``NAME.cdxj`` beside ``NAME.warc.gz``, as pywb reads it; ``.open`` files are skipped).
Exit status: 0 all well, 1 a file has problems (``check``), 2 bad arguments (unknown
subcommand, no such path, no WARC file) or a file that cannot be indexed (one ``error:``
line per file; the other files are indexed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawler import defaults
from crawler.commands._shared import fail, one_line_errors, quiet_when_output_closed
from crawler.warc.files import OPEN_SUFFIX, warc_files
from crawler.warc.index import WarcIndexError, write_index
from crawler.warc.reading import WarcFileSummary, read_warc

ACTIONS = ("list", "check", "index")


def format_summary(summary: WarcFileSummary) -> str:
    records = ", ".join(f"{n} {kind}" for kind, n in sorted(summary.records.items()))
    state = "open" if summary.is_open else "closed"
    return (f"{summary.path}  {state}  {summary.size} bytes  crawl {summary.crawl_id or '-'}"
            f"  {records or 'no records'}")


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "list|check|index [PATH ...]"

    def short_desc(self) -> str:
        return "List, check or index (CDXJ, for pywb) WARC files (default: WARC_DIR)"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        if not args or args[0] not in ACTIONS:
            fail(self, f"warc needs a subcommand: {', '.join(ACTIONS[:-1])} or {ACTIONS[-1]}")
            return
        action, names = args[0], args[1:]
        if not names:
            directory = self.settings.get("WARC_DIR", defaults.WARC_DIR)
            if not directory:
                fail(self, "no PATH given and WARC_DIR is not set")
                return
            names = [str(directory)]
        paths = [Path(name) for name in names]
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            fail(self, f"no such file or directory: {', '.join(missing)}")
            return
        files = warc_files(paths)
        if not files:
            fail(self, f"no WARC files (*.warc.gz) in {', '.join(names)}")
            return
        if action == "index":
            self.exitcode = index_files(files)
            return
        bad = 0
        with quiet_when_output_closed():
            for path in files:
                summary = read_warc(path, check_digests=action == "check")
                if action == "list":
                    print(format_summary(summary))
                    continue
                if summary.problems:
                    bad += 1
                    print(f"{path}: {len(summary.problems)} problems")
                    for problem in summary.problems:
                        print(f"  {problem}")
                else:
                    print(f"{path}: ok ({sum(summary.records.values())} records)")
        if bad:
            self.exitcode = 1


def index_files(files: list[Path]) -> int:
    """Write the index of each closed file; the exit status (2 if one could not be)."""
    status = 0
    with quiet_when_output_closed():
        for path in files:
            if path.name.endswith(OPEN_SUFFIX):
                print(f"{path}: skipped (open: being written, or left by a killed crawl)")
                continue
            try:
                result = write_index(path)
            except WarcIndexError as exc:
                sys.stderr.write(f"error: {exc}\n")
                status = 2
                continue
            print(f"{result.index}: {result.lines} entries for {path}")
    return status
