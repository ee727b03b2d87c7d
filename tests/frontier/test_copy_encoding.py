"""The binary COPY encoder of frontier rows gives byte for byte what the field-by-field
encoder it replaced gave (kept below as the reference), for every kind of row."""

from __future__ import annotations

import random
import struct

from crawler.frontier.postgres_store import copy_chunks, encode_copy_rows
from crawler.frontier.scores import UrlStats
from crawler.frontier.store import NewRow

_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_START = struct.Struct(">hiiiq")
_MIDDLE = struct.Struct(">ihiiidiqi?iiiiididididid")
_LEN = struct.Struct(">i").pack
_NULL = _LEN(-1)
_F8 = struct.Struct(">id").pack


def _text(value: str) -> bytes:
    data = value.encode("utf-8", "surrogatepass")
    return data.replace(b"\x00", b"") if b"\x00" in data else data


def reference_encode(key: int, rows: list[NewRow]) -> bytes:
    """The encoder of f912562: eleven pieces per row."""
    out = [_HEADER]
    for e in rows:
        s = e.stats
        url, host = _text(e.url), _text(e.host)
        out += [_START.pack(19, 4, key, 8, e.fp), _LEN(len(url)), url, _LEN(len(host)), host]
        out.append(
            _MIDDLE.pack(
                2,
                e.state,
                4,
                max(-(2**31), min(2**31 - 1, e.priority)),
                8,
                e.score,
                8,
                e.tiebreak,
                1,
                e.inter,
                4,
                s.depth,
                4,
                min(s.backlinks, 2**31 - 1),
                8,
                s.cash,
                8,
                s.link_score,
                8,
                s.attributes,
                8,
                s.extra,
                8,
                e.queued_at,
            )
        )
        out.append(_NULL if e.done_at is None else _F8(8, e.done_at))
        if e.result_url is None:
            out.append(_NULL)
        else:
            result = _text(e.result_url)
            out += [_LEN(len(result)), result]
        out += [_LEN(len(e.payload)), e.payload]
    out.append(b"\xff\xff")
    return b"".join(out)


def random_row(rng: random.Random, i: int) -> NewRow:
    urls = [
        "http://h.test/a",
        "http://h\u00e9.test/\u00fcber?q=\u4e2d",
        "http://h.test/n\x00ul",
        "http://h.test/lone-\udc80",
        "",
    ]
    done = rng.random() < 0.3
    return NewRow(
        fp=rng.randrange(-(2**63), 2**63),
        url=rng.choice(urls) + str(i),
        host=rng.choice(["h.test", "h\u00e9.test", "n\x00ul.test", ""]),
        state=rng.randrange(4),
        priority=rng.choice([0, 5, -7, 2**31 - 1, -(2**31), 2**40, -(2**40)]),
        score=rng.choice([0.0, rng.random(), -rng.random() * 1e300, float("inf")]),
        tiebreak=rng.randrange(-(2**63), 2**63),
        inter=rng.random() < 0.5,
        stats=UrlStats(
            depth=rng.randrange(0, 50),
            backlinks=rng.choice([0, 3, 2**31 - 1, 2**31, 2**45]),
            cash=rng.random(),
            link_score=rng.random(),
            attributes=rng.random(),
            extra=rng.random(),
        ),
        queued_at=rng.random() * 1e6,
        done_at=rng.random() * 1e6 if done else None,
        result_url=(rng.choice(urls) + "r")
        if done and rng.random() < 0.5
        else ("http://h.test/only-result" if rng.random() < 0.05 else None),
        payload=bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 90, 300]))),
    )


def test_copy_encoding_is_byte_identical_to_the_reference():
    rng = random.Random(14)
    rows = [random_row(rng, i) for i in range(3000)]
    kinds = {(r.done_at is None, r.result_url is None) for r in rows}
    assert len(kinds) == 4  # new rows, done rows, with and without a result url
    for key in (1, 2**31 - 1):
        assert encode_copy_rows(key, rows) == reference_encode(key, rows)
        assert encode_copy_rows(key, rows[:1]) == reference_encode(key, rows[:1])
    assert encode_copy_rows(3, []) == reference_encode(3, [])
    # in chunks, as the store sends them: the same bytes
    assert b"".join(copy_chunks(key, rows, size=7)) == reference_encode(key, rows)
    assert b"".join(copy_chunks(key, rows[:7], size=7)) == reference_encode(key, rows[:7])
