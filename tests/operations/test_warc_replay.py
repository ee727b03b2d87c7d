"""Replayable archives (issue 30, item 5): the CDXJ index of each WARC file, written as
the file closes and by `scrapy warc index`, and a crawled page replayed by pywb from the
archive and that index."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from crawler.warc import Exchange, RotatingWarcWriter
from crawler.warc.index import WarcIndexError, index_path, write_index
from tests.commands import free_port, run_scrapy
from tests.operations.webs import PNG, archive_web
from tests.waiting import poll_until

WAYBACK = str(Path(sys.executable).with_name("wayback"))


def exchange(url: str, body: bytes, status: int = 200) -> Exchange:
    return Exchange(
        url=url, method="GET", request_headers=[(b"User-Agent", b"test")], request_body=b"",
        status=status, response_headers=[(b"Content-Type", b"text/html; charset=utf-8")],
        body=body,
    )


def entries(path: Path) -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        key, timestamp, fields = line.split(" ", 2)
        out.append((key, timestamp, json.loads(fields)))
    return out


def test_each_closed_file_is_indexed_as_pywb_reads_it(tmp_path: Path) -> None:
    closed: list[Path] = []
    writer = RotatingWarcWriter(tmp_path, "idx", max_size=10**9, info={},
                                on_close=closed.append)
    writer.write(exchange("http://b.test/z", b"<p>zed</p>"))
    writer.write(exchange("http://a.test/", b"<p>home</p>"))
    writer.write(exchange("http://a.test/copy", b"<p>home</p>"))  # a revisit
    writer.write(exchange("http://a.test/gone", b"no", status=404))
    writer.close()
    (warc,) = closed
    result = write_index(warc)
    assert result.index == index_path(warc) == warc.with_name(
        warc.name.removesuffix(".warc.gz") + ".cdxj")
    assert result.lines == 4
    lines = entries(result.index)
    # sorted by SURT key: pywb binary-searches the file; request/warcinfo not indexed
    assert [(key, f["url"], f["mime"], f["status"]) for key, _, f in lines] == [
        ("test,a)/", "http://a.test/", "text/html", "200"),
        ("test,a)/copy", "http://a.test/copy", "warc/revisit", "200"),
        ("test,a)/gone", "http://a.test/gone", "text/html", "404"),
        ("test,b)/z", "http://b.test/z", "text/html", "200"),
    ]
    with open(warc, "rb") as stream:
        for _, timestamp, fields in lines:
            assert len(timestamp) == 14 and fields["filename"] == warc.name
            stream.seek(int(fields["offset"]))
            member = stream.read(int(fields["length"]))
            record = gzip.decompress(member)  # offset and length frame exactly one record
            assert record.startswith(b"WARC/1.1\r\n")
            assert f"WARC-Target-URI: {fields['url']}\r\n".encode() in record
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_files_that_cannot_be_indexed(tmp_path: Path) -> None:
    writer = RotatingWarcWriter(tmp_path, "bad", max_size=10**9, info={})
    writer.write(exchange("http://a.test/", os.urandom(3000)))
    still_open = writer.current_path
    assert still_open is not None
    writer._stream.flush()
    with pytest.raises(WarcIndexError, match="still open"):
        write_index(still_open)
    cut = tmp_path / "cut.warc.gz"
    shutil.copy(still_open, cut)
    with open(cut, "r+b") as f:
        f.truncate(cut.stat().st_size - 100)
    with pytest.raises(WarcIndexError, match=r"cut\.warc\.gz: last record incomplete at "):
        write_index(cut)
    bad_gzip = tmp_path / "bad.warc.gz"
    bad_gzip.write_bytes(b"\x1f\x8b" + b"garbage" * 10)
    with pytest.raises(WarcIndexError, match="not a gzip-per-record WARC file"):
        write_index(bad_gzip)
    text = tmp_path / "plain.warc"
    text.write_text("not a WARC file\n")
    with pytest.raises(WarcIndexError, match=r"plain\.warc: unreadable WARC file \(Unknown "
                                             r"archive format, first line: \['not'"):
        write_index(text)
    # nothing written for any of them, no temporary file left
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".gz", ".gz", ".open", ".warc"]


def test_scrapy_warc_index_command(tmp_path: Path) -> None:
    writer = RotatingWarcWriter(tmp_path, "cmd", max_size=10**9, info={})
    writer.write(exchange("http://a.test/", b"<p>one</p>"))
    writer.close()
    writer.write(exchange("http://a.test/2", b"<p>two</p>"))  # stays .open
    (good,) = tmp_path.glob("*.warc.gz")
    bad = tmp_path / "broken.warc.gz"
    bad.write_bytes(b"\x1f\x8b" + b"garbage" * 10)
    result = run_scrapy("warc", "index", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"error: {bad}: not a gzip-per-record WARC file (Error -3 while decompressing "
        "data: unknown compression method)"
    ]
    assert "Traceback" not in result.stderr
    assert result.stdout.splitlines() == [
        f"{index_path(good)}: 1 entries for {good}",
        f"{writer.current_path}: skipped (open: being written, or left by a killed crawl)",
    ]
    assert [f["url"] for _, _, f in entries(index_path(good))] == ["http://a.test/"]
    again = run_scrapy("warc", "index", str(good))
    assert (again.returncode, again.stderr) == (0, "")
    missing = run_scrapy("warc", "index", str(tmp_path / "nope"))
    assert (missing.returncode, missing.stderr) == (
        2, f"error: no such file or directory: {tmp_path / 'nope'}\n")


def get(url: str) -> tuple[int, bytes]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy
    try:
        with opener.open(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


@pytest.mark.slow
def test_pywb_replays_a_crawled_page_from_our_archive_and_index(
        sandbox, run_crawl, tmp_path: Path) -> None:
    web = archive_web()
    server = sandbox(web)
    warc_dir = tmp_path / "warc"
    run_crawl(proxy=server.proxy_url, args={"seed_urls": web.seeds[0]},
              settings={"WARC_DIR": warc_dir, "WARC_MAX_SIZE": 4000}).check()
    files = sorted(warc_dir.glob("*.warc.gz"))
    assert len(files) >= 2
    # written by the crawl as each file closed: one index beside each file
    written = {index_path(f): index_path(f).read_bytes() for f in files}
    assert sorted(warc_dir.glob("*.cdxj")) == sorted(written)
    for index in written:
        index.unlink()
    rebuilt = run_scrapy("warc", "index", str(warc_dir))
    assert (rebuilt.returncode, rebuilt.stderr) == (0, "")
    assert {p: p.read_bytes() for p in warc_dir.glob("*.cdxj")} == written  # same bytes

    # pywb, as installed by the test extras, with the WARC directory as its archive and
    # its index (docs/operations.md, "Replaying a crawl with pywb")
    port = free_port()
    (tmp_path / "config.yaml").write_text(
        f"collections:\n  crawl:\n    index_paths: {warc_dir}\n"
        f"    archive_paths: {warc_dir}/\n")
    log = open(tmp_path / "wayback.log", "wb")  # noqa: SIM115 -- closed below
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    wayback = subprocess.Popen([WAYBACK, "-p", str(port), "-b", "127.0.0.1"], cwd=tmp_path,
                               stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}/crawl"
    try:
        poll_until(lambda: _answers(base), timeout=60, interval=0.2, what="pywb started",
                   details=lambda: (tmp_path / "wayback.log").read_text(errors="replace"))
        # id_: the archived bytes as they were, no rewriting
        revisited = {f["url"] for p in warc_dir.glob("*.cdxj") for _, _, f in entries(p)
                     if f["mime"] == "warc/revisit"}
        assert len(revisited) == 1  # p1 and p2 have the same bytes: one is a revisit
        for path in ("/", "/p1", "/p2", "/p3", "/image.png"):
            url = "http://arch.test" + path
            status, body = get(f"{base}/id_/{url}")
            assert (status, body) == (200, web.resource(url).body), url
        assert get(f"{base}/id_/http://arch.test/image.png")[1] == PNG
        status, body = get(f"{base}/id_/http://arch.test/gone")
        assert status == 404
        # the page as a person sees it in pywb: a frame around the page rewritten (mp_),
        # its text there and its link pointing into the archive, not at the live site
        status, frame = get(f"{base}/2/http://arch.test/p3")
        assert status == 200 and b'"iframe": "#replay_iframe"' in frame
        status, body = get(f"{base}/2mp_/http://arch.test/p3")
        assert status == 200 and "Café crème, unicode text".encode() in body
        assert b"href='/'" not in body and b"/crawl/2mp_/http://arch.test/" in body, body
        status, body = get(f"{base}/id_/http://arch.test/never-crawled")
        assert status == 404
    finally:
        wayback.terminate()
        wayback.wait(timeout=20)
        log.close()


def _answers(base: str) -> bool:
    try:
        return get(base + "/cdx?url=arch.test/")[0] == 200
    except OSError:
        return False
