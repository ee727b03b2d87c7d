"""The cost of the home pages' z scores in a smart crawl, before and after HomeCosines.

After every home page embedded the crawl asks the z of every site explored (the sites
near the topic, ``SmartSpider.look_for_near_sites``) and whether each site the meaning
judged on topic still stands out (``topic_sites_found``, ``faded``). Before the twelfth
deep-web round each z recomputed the mean and spread over every cosine (``z_score``:
``statistics.pstdev``, exact and slow); now ``HomeCosines`` computes them once per home
page. This replays that pattern: N home pages arrive one by one, after each one every
site seen so far is asked its z and its verdict as ``weigh_near_topic`` asks it (the
sites' count of topic sites found: ``taught`` faded checks, then the site's own z).

    .venv/bin/python bench/deepweb_home_z.py [--pages 60] [--taught 3]

Prints the CPU seconds of the old and the new way and checks that they give the same z.
"""

from __future__ import annotations

import argparse
import random
import time

from crawler.deepweb.meaning import HomeCosines, stands_out, z_score


def old_way(cosines: list[tuple[str, float]], taught: int) -> list[float | None]:
    seen: dict[str, float] = {}
    out: list[float | None] = []
    for site, value in cosines:
        seen[site] = value
        for other in seen:  # every site explored, after every home page
            for t in list(seen)[:taught]:  # topic_sites_found: faded() of the taught
                stands_out(seen[t], seen.values(), 2.0, 0.2, 20)
            out.append(z_score(seen[other], list(seen.values())))
    return out


def new_way(cosines: list[tuple[str, float]], taught: int) -> list[float | None]:
    seen = HomeCosines()
    out: list[float | None] = []
    names: list[str] = []
    for site, value in cosines:
        seen[site] = value
        names.append(site)
        for other in names:
            for t in names[:taught]:
                seen.stands_out(t, 2.0, 0.2, 20)
            out.append(seen.z(other))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--taught", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(27)
    cosines = [(f"www.site{i}.test", rng.uniform(0.05, 0.55)) for i in range(args.pages)]
    started = time.process_time()
    old = old_way(cosines, args.taught)
    old_cpu = time.process_time() - started
    started = time.process_time()
    new = new_way(cosines, args.taught)
    new_cpu = time.process_time() - started
    assert old == new, "the two ways disagree"
    print(
        f"{args.pages} home pages, {len(old)} z asked, {args.taught} taught sites: "
        f"old {old_cpu:.3f} s CPU, new {new_cpu:.3f} s CPU (same z: yes)"
    )


if __name__ == "__main__":
    main()
