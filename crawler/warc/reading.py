"""Reading WARC files back: a summary per file (`scrapy warc list`) and a full check of
every record's digests (`scrapy warc check`, as `warcio check` does)."""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from crawler.warc.files import OPEN_SUFFIX


@dataclass
class WarcFileSummary:
    path: Path
    size: int
    records: Counter[str] = field(default_factory=Counter)
    crawl_id: str = ""
    first_date: str = ""
    last_date: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        """Still being written, or left by a crawl that was killed."""
        return self.path.name.endswith(OPEN_SUFFIX)


def _warcinfo_crawl_id(payload: bytes) -> str:
    for line in payload.decode("utf-8", "replace").splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "crawl-id":
            return value.strip()
    return ""


def incomplete_member(path: Path, chunk_size: int = 1 << 20) -> int | None:
    """The offset of a gzip member cut short at the end of ``path`` (a record that was
    being written when the crawl was killed), or None when every member is complete.

    warcio reads such a record as a short one without any error (``warcio check`` and
    ``warcio index`` pass), so the check looks at the gzip framing itself: each record is
    one member, and a complete member ends with its trailer (CRC and length).
    """
    start = 0  # offset of the member being decompressed
    consumed = 0  # bytes fed to the current member
    decompressor = zlib.decompressobj(zlib.MAX_WBITS | 16)
    with open(path, "rb") as stream:
        while chunk := stream.read(chunk_size):
            while chunk:
                decompressor.decompress(chunk)
                if decompressor.eof:
                    rest = decompressor.unused_data
                    start += consumed + len(chunk) - len(rest)
                    consumed = 0
                    chunk = rest
                    decompressor = zlib.decompressobj(zlib.MAX_WBITS | 16)
                else:
                    consumed += len(chunk)
                    chunk = b""
    return start if consumed else None


def read_warc(path: Path, *, check_digests: bool = False) -> WarcFileSummary:
    """Read every record of ``path``; with ``check_digests`` verify block and payload
    digests. A record cut short (a crawl killed while writing it) or any other damage is
    reported in ``problems`` with the offset of the record, never raised."""
    summary = WarcFileSummary(path, path.stat().st_size)
    offset = 0
    try:
        with open(path, "rb") as stream:
            records = ArchiveIterator(stream, check_digests=check_digests)
            for record in records:
                rec_type = record.rec_type
                date = record.rec_headers.get_header("WARC-Date") or ""
                payload = record.content_stream().read()
                offset = records.get_record_offset()  # after the read: it skips the rest
                if rec_type == "warcinfo" and not summary.crawl_id:
                    summary.crawl_id = _warcinfo_crawl_id(payload)
                summary.records[rec_type] += 1
                summary.first_date = summary.first_date or date
                summary.last_date = date or summary.last_date
                checker = record.digest_checker
                if check_digests and checker.passed is False:
                    summary.problems += [f"offset {offset}: {p}" for p in checker.problems]
    except (ArchiveLoadFailed, EOFError, zlib.error, ValueError) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        summary.problems.append(f"after offset {offset}: unreadable record ({reason})")
    try:
        cut = incomplete_member(path)
    except zlib.error as exc:
        summary.problems.append(f"not a gzip-per-record WARC file ({exc})")
    else:
        if cut is not None:
            summary.problems.append(
                f"offset {cut}: last record incomplete ({summary.size - cut} bytes of a "
                "record cut short, e.g. by kill -9; the records before it are whole)"
            )
    return summary
