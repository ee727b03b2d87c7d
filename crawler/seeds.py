"""Reading seed URLs from a file, a package resource or a comma-separated list."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from crawler.urls import canonical_url

logger = logging.getLogger(__name__)

# `-a seeds=package:seeds.txt` reads a file shipped in crawler/data/ (works inside a
# scrapyd egg, where the server's working directory holds no seeds file).
PACKAGE_PREFIX = "package:"


class SeedError(ValueError):
    """The seeds given cannot start a crawl (missing file, no valid URL)."""


@dataclass
class Seeds:
    urls: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)  # "file:line: text" descriptions


def _read_lines(source: str) -> list[str]:
    if source.startswith(PACKAGE_PREFIX):
        name = source[len(PACKAGE_PREFIX) :]
        try:
            return resources.files("crawler.data").joinpath(name).read_text("utf-8").splitlines()
        except (FileNotFoundError, IsADirectoryError) as exc:
            raise SeedError(f"seeds resource {name!r} not found in crawler/data") from exc
    path = Path(source)
    if not path.is_file():
        raise SeedError(f"seeds file {source!r} does not exist")
    try:
        return path.read_text("utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise SeedError(f"seeds file {source!r} cannot be read: {exc.strerror}") from exc


def parse_seed_lines(lines: list[str], origin: str) -> Seeds:
    """Parse seed lines: one URL per line, blank lines and '#' comments ignored."""
    seeds = Seeds()
    seen: set[str] = set()
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        url = canonical_url(line)
        if url is None:
            seeds.invalid.append(f"{origin}:{number}: {line!r}")
            continue
        if url not in seen:
            seen.add(url)
            seeds.urls.append(url)
    return seeds


def load_seeds(
    seeds: str | None = None, seed_urls: str | None = None, *, warn: bool = True
) -> list[str]:
    """Seed URLs from a file (``seeds``) and/or a comma-separated list (``seed_urls``).

    Invalid lines are logged as warnings naming file and line (unless ``warn`` is False:
    the pre-flight check of `scrapy crawl` reads the seeds before the spider does, and
    only the spider warns); raises SeedError when nothing valid is left or the file is
    missing.
    """
    if not seeds and not seed_urls:
        raise SeedError("no seeds given: use -a seeds=FILE or -a seed_urls=URL1,URL2")
    result = Seeds()
    if seeds:
        result = parse_seed_lines(_read_lines(seeds), seeds)
    if seed_urls:
        extra = parse_seed_lines(seed_urls.split(","), "seed_urls")
        result.urls.extend(u for u in extra.urls if u not in result.urls)
        result.invalid.extend(extra.invalid)
    for bad in result.invalid if warn else ():
        logger.warning("ignoring invalid seed URL at %s", bad)
    if not result.urls:
        where = seeds or "seed_urls"
        raise SeedError(f"no valid seed URL in {where}")
    return result.urls
