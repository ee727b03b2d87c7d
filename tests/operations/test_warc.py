"""WARC output: the writer (rotation, revisits, a record cut by kill -9) and a real crawl
of the sandbox web read back with warcio's own tools."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from crawler.warc import Exchange, RotatingWarcWriter, WarcDirError, check_warc_dir
from crawler.warc.reading import incomplete_member, read_warc
from tests.commands import run_scrapy
from tests.conftest import crawl_command
from tests.operations.webs import PNG, archive_web
from tests.waiting import wait_until

WARCIO = str(Path(sys.executable).with_name("warcio"))


def exchange(url: str, body: bytes, status: int = 200) -> Exchange:
    return Exchange(
        url=url, method="GET", request_headers=[(b"User-Agent", b"test")], request_body=b"",
        status=status,
        response_headers=[(b"Content-Type", b"text/html"), (b"Transfer-Encoding", b"chunked")],
        body=body,
    )


def records(path: Path) -> list[tuple[str, str, bytes, dict[str, str]]]:
    out = []
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            headers = dict(record.rec_headers.headers)
            out.append((record.rec_type, headers.get("WARC-Target-URI", ""),
                        record.content_stream().read(), headers))
    return out


def test_writer_rotates_and_writes_revisits(tmp_path: Path) -> None:
    writer = RotatingWarcWriter(tmp_path, "crawl/1", max_size=3000, info={"spider": "t"})
    bodies = [os.urandom(1500) for _ in range(4)]  # incompressible: each file ~1 pair
    for i, body in enumerate(bodies):
        assert writer.write(exchange(f"http://a.test/{i}", body)) == "response"
    assert writer.write(exchange("http://a.test/copy", bodies[1])) == "revisit"
    assert writer.current_path is not None and writer.current_path.name.endswith(".open")
    writer.close()
    files = sorted(tmp_path.iterdir())
    assert [f.name.endswith(".warc.gz") for f in files] == [True] * len(files)
    assert len(files) == writer.stats.files >= 3
    assert all(f.name.startswith("crawl_1-") for f in files)
    seen = {}
    for path in files:
        recs = records(path)
        assert recs[0][0] == "warcinfo" and b"crawl-id: crawl/1" in recs[0][2]
        for kind, url, payload, headers in recs[1:]:
            seen[(kind, url)] = (payload, headers)
    for i, body in enumerate(bodies):
        assert seen[("response", f"http://a.test/{i}")][0] == body
    payload, headers = seen[("revisit", "http://a.test/copy")]
    assert payload == b""
    assert headers["WARC-Refers-To-Target-URI"] == "http://a.test/1"
    assert headers["WARC-Profile"].endswith("/revisit/identical-payload-digest")
    # the request record of each exchange points at its response
    assert "WARC-Concurrent-To" in seen[("request", "http://a.test/copy")][1]
    for path in files:
        assert read_warc(path, check_digests=True).problems == []


def test_a_record_cut_short_is_reported_and_the_rest_reads(tmp_path: Path) -> None:
    writer = RotatingWarcWriter(tmp_path, "cut", max_size=10**9, info={})
    for i in range(3):
        writer.write(exchange(f"http://a.test/{i}", os.urandom(4000)))
    path = writer.current_path
    assert path is not None
    size = path.stat().st_size
    writer._stream.close()  # as a kill -9 leaves it: no rename
    with open(path, "r+b") as f:
        f.truncate(size - 3000)  # the last request record and part of the last response
    assert incomplete_member(path) is not None
    summary = read_warc(path, check_digests=True)
    assert summary.is_open
    assert len(summary.problems) == 1 and "last record incomplete" in summary.problems[-1]
    # warcio itself reads the cut file without complaint: the framing check is ours
    check = subprocess.run([WARCIO, "check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0
    whole = [r for r in records(path) if r[0] == "response"][:2]
    assert [url for _, url, _, _ in whole] == ["http://a.test/0", "http://a.test/1"]


def test_unwritable_warc_dir(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(WarcDirError, match="cannot be written"):
        check_warc_dir(blocker / "warc")
    assert check_warc_dir(tmp_path / "new" / "warc").is_dir()


@pytest.mark.slow
def test_crawl_writes_valid_warc_files(sandbox, run_crawl, tmp_path: Path) -> None:
    web = archive_web()
    server = sandbox(web)
    warc_dir = tmp_path / "warc"
    result = run_crawl(proxy=server.proxy_url, args={"seed_urls": web.seeds[0]},
                       settings={"WARC_DIR": warc_dir, "WARC_MAX_SIZE": 4000}).check()
    files = sorted(warc_dir.glob("*.warc.gz*"))
    assert files and all(f.name.endswith(".warc.gz") for f in files)  # no .open left
    check = subprocess.run([WARCIO, "check", *map(str, files)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
    index = subprocess.run([WARCIO, "index", "-f", "warc-type,warc-target-uri", *map(str, files)],
                           capture_output=True, text=True, check=True)
    entries = [json.loads(line) for line in index.stdout.splitlines()]
    by_type: dict[str, set[str]] = {}
    for entry in entries:
        by_type.setdefault(entry["warc-type"], set()).add(entry.get("warc-target-uri", ""))
    assert by_type["warcinfo"] == {""}
    assert sum(e["warc-type"] == "warcinfo" for e in entries) == len(files) >= 2
    fetched = {"http://arch.test/robots.txt", "http://arch.test/", "http://arch.test/p1",
               "http://arch.test/p2", "http://arch.test/p3", "http://arch.test/image.png",
               "http://arch.test/gone"}
    assert by_type["request"] == fetched
    # p1 and p2 serve the same bytes: whichever came second is a revisit of the first
    assert len(by_type["revisit"]) == 1 and by_type["revisit"] <= {"http://arch.test/p1",
                                                                   "http://arch.test/p2"}
    assert by_type["response"] == fetched - by_type["revisit"]
    payloads = {}
    for path in files:
        for kind, url, payload, _headers in records(path):
            if kind == "warcinfo":
                assert f"crawl-id: {result.crawl_id}".encode() in payload
                assert b"spider: general" in payload and b"WARC_MAX_SIZE" in payload
            elif kind == "response":
                payloads[url] = payload
    for url in fetched - by_type["revisit"] - {"http://arch.test/gone"}:  # gone: a 404
        assert payloads[url] == web.resource(url).body  # byte for byte
    assert payloads["http://arch.test/image.png"] == PNG
    listing = scrapy_warc("check", str(warc_dir))
    assert listing.returncode == 0 and listing.stdout.count(": ok (") == len(files)
    assert "warc/revisits': 1" in result.stderr


@pytest.mark.slow
def test_unwritable_warc_dir_stops_the_crawl_before_fetching(sandbox, run_crawl, tmp_path):
    web = archive_web()
    server = sandbox(web)
    (tmp_path / "file").write_text("x")
    result = run_crawl(proxy=server.proxy_url, args={"seed_urls": web.seeds[0]},
                       settings={"WARC_DIR": tmp_path / "file" / "warc"})
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if "error" in line.lower()]
    assert errors == [
        f"error: WARC_DIR {str(tmp_path / 'file' / 'warc')!r} cannot be written: Not a directory"
    ]
    assert "Traceback" not in result.stderr
    assert server.log == []


@pytest.mark.slow
def test_kill_9_leaves_whole_records_but_the_last(sandbox, database_url, tmp_path: Path):
    from crawler.sandbox import build_synthetic_web

    web = build_synthetic_web(trap=False, faults=False)
    server = sandbox(web)
    warc_dir = tmp_path / "warc"
    cmd, env = crawl_command(
        "general", database_url=database_url, workdir=tmp_path, proxy=server.proxy_url,
        args={"seed_urls": ",".join(web.seeds), "crawl_id": "killed"},
        settings={"WARC_DIR": warc_dir},
    )
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    def open_warc_over_50k() -> bool:
        files = list(warc_dir.glob("*.open")) if warc_dir.exists() else []
        return bool(files) and files[0].stat().st_size > 50_000

    wait_until(open_warc_over_50k, timeout=120, what="an open WARC file of 50 kB")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    (path,) = warc_dir.iterdir()
    assert path.name.endswith(".warc.gz.open")  # never renamed: readers can tell
    summary = read_warc(path, check_digests=True)
    assert summary.records["response"] > 10
    assert all("last record incomplete" in p for p in summary.problems)
    assert len(summary.problems) <= 1


def scrapy_warc(*args: str) -> subprocess.CompletedProcess[str]:
    return run_scrapy("warc", *args)


def test_scrapy_warc_list_and_check(tmp_path: Path) -> None:
    writer = RotatingWarcWriter(tmp_path, "listed", max_size=10**9, info={})
    writer.write(exchange("http://a.test/", b"<p>one</p>"))
    writer.write(exchange("http://a.test/again", b"<p>one</p>"))
    writer.close()
    (closed,) = tmp_path.iterdir()
    writer.write(exchange("http://a.test/2", os.urandom(3000)))
    cut = writer.current_path
    assert cut is not None
    writer._stream.flush()
    with open(cut, "r+b") as f:
        f.truncate(cut.stat().st_size - 100)
    listing = scrapy_warc("list", str(tmp_path))
    assert listing.returncode == 0, listing.stderr
    assert listing.stdout.splitlines() == [
        f"{closed}  closed  {closed.stat().st_size} bytes  crawl listed  2 request, "
        "1 response, 1 revisit, 1 warcinfo",
        # the request record lost its last 100 bytes: warcio stops before it
        f"{cut}  open  {cut.stat().st_size} bytes  crawl listed  1 response, 1 warcinfo",
    ]
    check = scrapy_warc("check", str(tmp_path))
    assert check.returncode == 1
    lines = check.stdout.splitlines()
    assert lines[0] == f"{closed}: ok (5 records)"
    assert lines[1] == f"{cut}: 1 problems"
    assert re.fullmatch(r"  offset \d+: last record incomplete \(\d+ bytes of a record cut "
                        r"short, e\.g\. by kill -9; the records before it are whole\)", lines[2])
    assert scrapy_warc("check", str(closed)).returncode == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    for args, error in (
        ((), "error: warc needs a subcommand: list, check or index"),
        (("show",), "error: warc needs a subcommand: list, check or index"),
        (("list",), "error: no PATH given and WARC_DIR is not set"),
        (("check", str(tmp_path / "nope")), f"error: no such file or directory: "
                                           f"{tmp_path / 'nope'}"),
        (("list", str(empty)), f"error: no WARC files (*.warc.gz) in {empty}"),
    ):
        result = scrapy_warc(*args)
        assert (result.returncode, result.stderr, result.stdout) == (2, error + "\n", "")
