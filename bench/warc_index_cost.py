"""CPU cost of the CDXJ index of a WARC file (crawler/warc/index.py), beside the cost of
writing the file: N HTML responses of about 7 KB (distinct text each) are archived with
RotatingWarcWriter, then indexed as the crawl does (no framing check) and as
`scrapy warc index` does (framing check first). Bodies are made before the clock starts.

    .venv/bin/python bench/warc_index_cost.py [--responses 1000]

Prints CPU seconds (process time) and wall seconds with the load average.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
import time
from pathlib import Path

from crawler.warc import Exchange, RotatingWarcWriter
from crawler.warc.index import write_index


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--responses", type=int, default=1000)
    n = parser.parse_args().responses
    bodies = []
    for i in range(n):
        words = " ".join(hashlib.sha1(f"{i}-{j}".encode()).hexdigest()[:6] for j in range(1000))
        bodies.append(f"<html><body><p>{words}</p></body></html>".encode())
    with tempfile.TemporaryDirectory(prefix="warc-index-cost-") as folder:
        writer = RotatingWarcWriter(Path(folder), "bench", max_size=10**12, info={})
        cpu, wall = time.process_time(), time.perf_counter()
        for i, body in enumerate(bodies):
            writer.write(Exchange(
                url=f"http://h{i % 20}.test/p{i}", method="GET",
                request_headers=[(b"User-Agent", b"bench")], request_body=b"", status=200,
                response_headers=[(b"Content-Type", b"text/html")], body=body,
            ))
        writer.close()
        write_cpu, write_wall = time.process_time() - cpu, time.perf_counter() - wall
        (path,) = writer.stats.closed_files
        cpu, wall = time.process_time(), time.perf_counter()
        result = write_index(path, check_framing=False)
        index_cpu, index_wall = time.process_time() - cpu, time.perf_counter() - wall
        cpu = time.process_time()
        write_index(path)
        checked_cpu = time.process_time() - cpu
        print(f"{n} responses, WARC {path.stat().st_size} bytes, index {result.lines} lines "
              f"({result.index.stat().st_size} bytes); load {os.getloadavg()[0]:.2f}")
        print(f"  writing the WARC file        {write_cpu:6.2f} CPU s  {write_wall:6.2f} s wall")
        print(f"  its index (as the crawl)     {index_cpu:6.2f} CPU s  {index_wall:6.2f} s wall")
        print(f"  its index (scrapy warc index, framing checked) {checked_cpu:6.2f} CPU s")


if __name__ == "__main__":
    main()
