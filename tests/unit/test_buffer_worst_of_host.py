"""ReadyBuffer.worst_of_host and worst (heaps with lazy deletion) give the same entries as
a scan of the buffer, over random adds, re-scorings, removals, pops and re-adds of the
same URL (which starts again at version 0)."""

from __future__ import annotations

import random

import pytest

from crawler.frontier.buffer import Entry, ReadyBuffer
from crawler.frontier.scores import UrlStats


def _scan_worst_of_host(buffer: ReadyBuffer, host: str) -> Entry | None:
    h = buffer.hosts.get(host)
    if h is None:
        return None
    return max((buffer.entries[fp] for fp in h.fps), key=Entry.order, default=None)


def _scan_worst(buffer: ReadyBuffer) -> Entry | None:
    return max(buffer.entries.values(), key=Entry.order, default=None)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("newest_first", [False, True])
def test_worst_of_host_equals_a_scan(seed: int, newest_first: bool) -> None:
    rng = random.Random(seed)
    hosts = [f"h{i}.test" for i in range(rng.randint(1, 6))]
    buffer = ReadyBuffer()
    removed: list[Entry] = []  # popped or removed: may come back with the same fp
    seq = 0
    checks = 0

    def new_entry(fp: int, host: str) -> Entry:
        nonlocal seq
        seq += 1
        return Entry(
            fp,
            f"http://{host}/{fp}",
            host,
            rng.choice([0, 0, 0, 1]),
            -seq if newest_first else seq,
            False,
            UrlStats(),
            0.0,
            score=float(rng.randint(0, 5)),  # few values: many ties broken by tiebreak
        )

    for step in range(3000):
        op = rng.random()
        if op < 0.4 or not buffer.entries:
            if removed and rng.random() < 0.3:
                old = removed.pop(rng.randrange(len(removed)))
                if old.fp not in buffer:
                    buffer.add(new_entry(old.fp, old.host))
            else:
                buffer.add(new_entry(1000 + step, rng.choice(hosts)))
        elif op < 0.7:
            entry = buffer.entries[rng.choice(list(buffer.entries))]
            entry.score = float(rng.randint(0, 5))
            buffer.update(entry)
        elif op < 0.85:
            removed.append(buffer.remove(rng.choice(list(buffer.entries))))
        else:
            popped = buffer.pop(lambda host: 0.0, 0.0)
            if popped is not None:
                removed.append(popped)
        for host in hosts:
            assert buffer.worst_of_host(host) is _scan_worst_of_host(buffer, host)
            checks += 1
        assert buffer.worst() is _scan_worst(buffer)
    assert checks == 3000 * len(hosts)
