"""``python -m crawler.sandbox``: serve the synthetic web (and Debian docs) as a local proxy.

Prints ``proxy http://127.0.0.1:PORT`` then the seed URLs, one per line, and serves until
SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Sequence

from crawler.sandbox.corpora import add_debian_docs
from crawler.sandbox.server import SandboxServer
from crawler.sandbox.synthetic import build_synthetic_web


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sandbox server until a termination signal arrives."""
    parser = argparse.ArgumentParser(prog="python -m crawler.sandbox", description=__doc__)
    parser.add_argument("--port", type=int, default=0, help="listening port (0: any free)")
    parser.add_argument("--host", default="127.0.0.1", help="listening address")
    parser.add_argument("--log", default=None, help="append one JSON line per request here")
    parser.add_argument("--seed", type=int, default=7, help="synthetic web seed")
    parser.add_argument("--no-docs", action="store_true", help="skip the Debian doc sites")
    args = parser.parse_args(argv)

    web = build_synthetic_web(args.seed)
    seeds = list(web.seeds)
    if not args.no_docs:
        seeds += add_debian_docs(web)

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    with SandboxServer(web, host=args.host, port=args.port, log_path=args.log) as server:
        print(f"proxy {server.proxy_url}")
        for seed in seeds:
            print(seed)
        sys.stdout.flush()
        while not stop.wait(0.5):
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
