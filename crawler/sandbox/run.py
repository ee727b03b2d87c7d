"""``python -m crawler.sandbox.run [options] -- COMMAND ...``: run a command (a crawl)
against the sandbox web, the safe way.

Starts the sandbox web on 127.0.0.1, runs COMMAND with BOTH ``http_proxy`` and
``https_proxy`` (and their capitalised forms) pointing at it and ``no_proxy`` removed, so
that no URL, http or https, can bypass the proxy; stops the sandbox when COMMAND ends and
exits with its status. A ``scrapy crawl SPIDER`` given no ``-a seeds=`` or
``-a seed_urls=`` gets the sandbox's seeds (written to a file, ``-a seeds=FILE``).

``scripts/sandbox-crawl.sh`` runs this inside a loopback-only network namespace where the
machine allows one, so that even a URL that went around the proxy could reach nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from crawler.sandbox.corpora import add_debian_docs
from crawler.sandbox.server import SandboxServer
from crawler.sandbox.synthetic import build_synthetic_web

_PROXY_VARIABLES = ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY")
_NO_PROXY_VARIABLES = ("no_proxy", "NO_PROXY")


def sandbox_env(proxy_url: str, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a process that must reach nothing but the sandbox: every proxy
    variable set to ``proxy_url``, no exceptions (``no_proxy``) left."""
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if k not in _NO_PROXY_VARIABLES}
    env.update(dict.fromkeys(_PROXY_VARIABLES, proxy_url))
    env.setdefault("SCRAPY_SETTINGS_MODULE", "crawler.settings")
    return env


def is_crawl_without_seeds(command: Sequence[str]) -> bool:
    """Whether ``command`` is ``... scrapy crawl SPIDER ...`` with no seeds argument."""
    words = list(command)
    for i, word in enumerate(words[:-1]):
        if Path(word).name == "scrapy" and words[i + 1] == "crawl":
            break
    else:
        return False
    return not any(
        word.removeprefix("-a").startswith(("seeds=", "seed_urls=")) for word in words
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m crawler.sandbox.run",
        description="Run COMMAND against the sandbox web with http_proxy and https_proxy "
        "set to it.",
        epilog="example: python -m crawler.sandbox.run -- scrapy crawl focused -a query=java",
    )
    parser.add_argument("--no-docs", action="store_true", help="synthetic sites only")
    parser.add_argument("--seed", type=int, default=7, help="synthetic web seed (default 7)")
    parser.add_argument("--log", default=None, help="append one JSON line per request here")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.print_usage(sys.stderr)
        print("error: give a command, e.g. -- scrapy crawl general", file=sys.stderr)
        return 2

    web = build_synthetic_web(args.seed)
    seeds = list(web.seeds)
    if not args.no_docs:
        seeds += add_debian_docs(web)
    with (
        tempfile.TemporaryDirectory(prefix="sandbox-seeds-") as folder,
        SandboxServer(web, log_path=args.log) as server,
    ):
        if is_crawl_without_seeds(command):
            seeds_file = Path(folder) / "sandbox-seeds.txt"
            seeds_file.write_text("".join(f"{url}\n" for url in seeds))
            command = [*command, "-a", f"seeds={seeds_file}"]
        print(f"sandbox: web on {server.proxy_url} ({len(web.hosts)} hosts, {len(seeds)} "
              f"seeds); http_proxy and https_proxy point at it", file=sys.stderr, flush=True)
        try:
            return subprocess.call(command, env=sandbox_env(server.proxy_url))
        except FileNotFoundError:
            print(f"error: command not found: {command[0]}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 130


if __name__ == "__main__":
    sys.exit(main())
