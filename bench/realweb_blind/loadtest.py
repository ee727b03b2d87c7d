"""Checks that the evaluation server is not the bottleneck: N requests, C at a time, no crawler.

    python3 bench/realweb_blind/loadtest.py [--web realweb] [--requests 3000] [--concurrency 16]

Fetches pages of the web (documentation pages and synthetic pages, in a seeded random order;
no dead hosts, no slow pages) through the server as a proxy with keep-alive connections, and
prints requests/s and the server's CPU time per request.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import webs  # noqa: E402


async def worker(port: int, urls: list[str], stats: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for url in urls:
        host = url.split("/")[2]
        writer.write(f"GET {url} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: loadtest\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        await reader.readexactly(length)
        stats[0] += 1
        stats[1] += length
    writer.close()


async def run(port: int, urls: list[str], conc: int) -> tuple[float, list[int]]:
    stats = [0, 0]
    t0 = time.time()
    await asyncio.gather(*(worker(port, urls[i::conc], stats) for i in range(conc)))
    return time.time() - t0, stats


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--web", default="realweb", choices=("503site", "realweb", "skewed"))
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args()
    web = webs.build(args.web)
    harness.enter_netns()
    rng = random.Random(1)
    urls = [
        f"http://{h}{p}" for h, s in web.docs.items() for p in s.pages if (h, p) not in web.slow
    ]
    urls += [
        f"http://{h}{s.path(i)}"
        for h, s in web.synth.items()
        for i in range(s.n_pages)
        if (h, s.path(i)) not in web.slow
    ]
    urls = rng.sample(urls, min(args.requests, len(urls)))
    log = Path(tempfile.mkdtemp(prefix="realweb_blind-load-")) / "requests.tsv"
    server = harness.start_server(args.web, log)
    try:
        secs, (n, size) = asyncio.run(run(server.ports[0], urls, args.concurrency))
    finally:
        server.stop()
    print(
        f"loadtest {args.web}: {n} requests, {size / 1e6:.0f} MB, {secs:.1f} s, {n / secs:.0f} "
        "requests/s "
        f"at concurrency {args.concurrency}; server CPU {server.cpu()} | {harness.uptime()}"
    )


if __name__ == "__main__":
    main()
