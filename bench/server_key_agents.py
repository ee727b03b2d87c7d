"""Politeness per server across agents (issue 30): the crawl of
tests/agents/test_agents_server_key.py (two agents, POLITENESS_KEY=ip, a.test and b.test
on 127.0.0.2 through a DNS server of the test's own, a.test's home page answering 503 +
Retry-After: 1 twice), with what the server on 127.0.0.2 saw printed: requests per
agent, the most in progress at once, the shortest gap between request starts, and the
time from each 503's end to the next request to the server (negative: a request was
already in progress). The numbers of docs/politeness.md ("Across agents").

Run inside a loopback-only network namespace like the tests, from a checkout (its own
code is used: run it from a copy of another commit, with this file and the test file
copied in, for a baseline):

    unshare -n sh -c 'ip link set lo up && CRAWLER_TEST_DATABASE_URL=... \\
        .venv/bin/python bench/server_key_agents.py [--together] [--key host]'

``--together``: both agents start at once (else the second starts once the first has
sent its first request, and the first 503 is answered once the first hands hosts over).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--together", action="store_true")
    parser.add_argument("--key", default="ip", choices=("ip", "host"))
    options = parser.parse_args()
    from scratch import scratch_database

    from tests.agents.test_agents_server_key import crawl_with_two_agents, most_at_once

    work = Path(tempfile.mkdtemp(prefix="server-key-"))
    with scratch_database("server_key") as url:
        shared, _, _, codes = crawl_with_two_agents(url, work, options.key,
                                                    stagger=not options.together)
    load = open("/proc/loadavg").read().split()[0]
    agents = sorted({r.user_agent for r in shared})
    print(f"exit statuses {codes}, logs in {work}, load {load}")
    print(f"127.0.0.2: {len(shared)} requests ("
          + ", ".join(f"{a} {sum(r.user_agent == a for r in shared)}" for a in agents)
          + f"), most at once {most_at_once(shared)}, shortest gap between starts "
          f"{min(b.started - a.started for a, b in zip(shared, shared[1:], strict=False)):.3f} s")
    for busy in (r for r in shared if r.status == 503):
        nxt = min((r for r in shared if r.started > busy.started), key=lambda r: r.started)
        print(f"503 of {busy.host}{busy.path}: next request {nxt.host}{nxt.path} "
              f"{nxt.started - busy.finished:.3f} s after it ended")
    for r in shared:  # (a retried request keeps the User-Agent it was first sent with)
        print(f"  {r.started:.3f} {r.finished - r.started:6.3f} {r.user_agent} "
              f"{r.host}{r.path} {r.status}")


if __name__ == "__main__":
    main()
