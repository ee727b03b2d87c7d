"""A WARC/1.1 writer that rotates files by size and writes duplicates as revisits.

Each fetch becomes a ``response`` record (or a ``revisit`` record when its payload's SHA-1
was already archived by this writer) followed by its ``request`` record, linked by
``WARC-Concurrent-To``. Every record is its own gzip member and is flushed to the file
when written, so a crash loses at most the record being written. Each file starts with a
``warcinfo`` record naming the crawl and its settings.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from crawler import defaults
from crawler.warc.files import OPEN_SUFFIX, SUFFIX, safe_prefix

# Headers that describe the bytes on the wire, not the body Scrapy hands over (it has
# already de-chunked the body): dropped, and Content-Length set to the archived length.
_WIRE_HEADERS = {b"transfer-encoding", b"content-length"}


@dataclass
class Exchange:
    """One fetch: the request as sent and the response as received (body decoded)."""

    url: str
    method: str
    request_headers: list[tuple[bytes, bytes]]
    request_body: bytes
    status: int
    response_headers: list[tuple[bytes, bytes]]
    body: bytes
    protocol: str = "HTTP/1.1"
    ip_address: str | None = None


@dataclass
class WriterStats:
    files: int = 0
    responses: int = 0
    revisits: int = 0
    requests: int = 0
    bytes: int = 0
    closed_files: list[Path] = field(default_factory=list)


def payload_digest(body: bytes) -> str:
    """The WARC payload digest warcio writes: ``sha1:`` and the base-32 SHA-1."""
    return "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode("ascii")


def _text(value: bytes) -> str:
    return value.decode("latin-1")


class RotatingWarcWriter:
    """Writes exchanges to ``DIR/PREFIX-<UTC time>-<serial>.warc.gz`` files of about
    ``max_size`` bytes each (a file is closed after the record that crosses it).
    ``on_close(path)`` is called after each file is closed and renamed."""

    def __init__(
        self,
        directory: str | os.PathLike[str],
        crawl_id: str,
        *,
        max_size: int,
        info: dict[str, str],
        revisits: bool = defaults.WARC_REVISITS,
        on_close: Callable[[Path], None] | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.crawl_id = crawl_id
        self.prefix = safe_prefix(crawl_id)
        self.max_size = max_size
        self.info = info
        self.revisits = revisits
        # called with the final path of each file closed (renamed from .open): its index
        self.on_close = on_close
        # payload digest -> (URL, WARC-Date) of the response that archived it first
        self.originals: dict[str, tuple[str, str]] = {}
        self.stats = WriterStats()
        self._stream: BinaryIO | None = None
        self._writer: WARCWriter | None = None
        self._path: Path | None = None
        self._started = datetime.now(UTC).strftime("%Y%m%d%H%M%S")

    # ------------------------------------------------------------------ files

    @property
    def current_path(self) -> Path | None:
        """The ``.open`` file being written, if any."""
        return self._path

    def _open(self) -> None:
        self.stats.files += 1
        name = f"{self.prefix}-{self._started}-{self.stats.files:05d}{SUFFIX}"
        self._path = self.directory / (name + OPEN_SUFFIX[len(SUFFIX) :])
        # "xb": never overwrite a file (a second crawl with the same id and second)
        self._stream = open(self._path, "xb")  # noqa: SIM115 -- closed in _close_file
        self._writer = WARCWriter(self._stream, gzip=True, warc_version="1.1")
        info = {
            "software": "crawler (Scrapy) + warcio",
            "format": "WARC File Format 1.1",
            "crawl-id": self.crawl_id,
            **self.info,
        }
        self._writer.write_record(self._writer.create_warcinfo_record(name, info))

    def _close_file(self) -> None:
        if self._stream is None or self._path is None:
            return
        self._stream.close()
        final = self._path.with_name(self._path.name[: -len(OPEN_SUFFIX)] + SUFFIX)
        os.replace(self._path, final)
        self.stats.closed_files.append(final)
        self._stream = self._writer = self._path = None
        if self.on_close is not None:
            self.on_close(final)

    def close(self) -> None:
        """Close (and rename) the current file. The writer may be used again after."""
        self._close_file()

    # ------------------------------------------------------------------ records

    def write(self, exchange: Exchange) -> str:
        """Archive one fetch; returns the WARC-Type written for the response
        (``response`` or ``revisit``)."""
        if self._writer is None:
            self._open()
        writer = self._writer
        assert writer is not None and self._stream is not None
        date = writer.curr_warc_date()
        warc_headers = {"WARC-Date": date}
        if exchange.ip_address:
            warc_headers["WARC-IP-Address"] = exchange.ip_address
        http_headers = self._response_headers(exchange)
        digest = payload_digest(exchange.body)
        original = self.originals.get(digest) if self.revisits and exchange.body else None
        if original is not None:
            response = writer.create_revisit_record(
                exchange.url,
                digest,
                original[0],
                original[1],
                http_headers=http_headers,
                warc_headers_dict=warc_headers,
            )
            self.stats.revisits += 1
        else:
            response = writer.create_warc_record(
                exchange.url,
                "response",
                payload=BytesIO(exchange.body),
                length=len(exchange.body),
                http_headers=http_headers,
                warc_headers_dict=warc_headers,
            )
            if exchange.body:
                self.originals.setdefault(digest, (exchange.url, date))
            self.stats.responses += 1
        request = writer.create_warc_record(
            exchange.url,
            "request",
            payload=BytesIO(exchange.request_body),
            length=len(exchange.request_body),
            http_headers=self._request_headers(exchange),
            warc_headers_dict=dict(warc_headers),
        )
        before = self._stream.tell()
        writer.write_request_response_pair(request, response)
        self.stats.requests += 1
        self.stats.bytes += self._stream.tell() - before
        if self._stream.tell() >= self.max_size:
            self._close_file()
        return str(response.rec_type)

    @staticmethod
    def _response_headers(exchange: Exchange) -> StatusAndHeaders:
        try:
            reason = HTTPStatus(exchange.status).phrase
        except ValueError:
            reason = ""
        headers = [
            (_text(k), _text(v))
            for k, v in exchange.response_headers
            if k.lower() not in _WIRE_HEADERS
        ]
        headers.append(("Content-Length", str(len(exchange.body))))
        return StatusAndHeaders(
            f"{exchange.status} {reason}".strip(), headers, protocol=exchange.protocol
        )

    @staticmethod
    def _request_headers(exchange: Exchange) -> StatusAndHeaders:
        parts = urlsplit(exchange.url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        headers = [(_text(k), _text(v)) for k, v in exchange.request_headers]
        if not any(k.lower() == "host" for k, _ in headers):
            headers.insert(0, ("Host", parts.netloc))
        return StatusAndHeaders(
            f"{exchange.method} {target} {exchange.protocol}", headers, is_http_request=True
        )


def flat_headers(headers: Iterable[tuple[bytes, list[bytes]]]) -> list[tuple[bytes, bytes]]:
    """Scrapy's ``Headers`` items (name, [values]) as (name, value) pairs."""
    return [(name, value) for name, values in headers for value in values]
