"""Reading a crawl's link graph from PostgreSQL and storing PageRank scores there.

Built for large crawls (1M pages, 20M links): URLs are mapped to node numbers inside
PostgreSQL (a temporary table joined with ``links``) and the numbered edges come back
through one binary ``COPY ... TO STDOUT``, parsed block by block into numpy arrays, so no
Python object is created per link. Only the page URLs themselves become Python strings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import psycopg

from crawler.ranking.pagerank import link_weight

# One binary COPY tuple of (int4 source, int4 target, int2 visibility, int2 position,
# int2 distance): field count, then (length, value) per field, all big-endian.
_EDGE_ROW = np.dtype(
    [
        ("fields", ">i2"),
        ("len_src", ">i4"),
        ("src", ">i4"),
        ("len_dst", ">i4"),
        ("dst", ">i4"),
        ("len_vis", ">i4"),
        ("visibility", ">i2"),
        ("len_pos", ">i4"),
        ("position", ">i2"),
        ("len_dist", ">i4"),
        ("distance", ">i2"),
    ]
)
_COPY_SIGNATURE = b"PGCOPY\n\xff\r\n\x00"
_COPY_HEADER = len(_COPY_SIGNATURE) + 8  # signature, flags, header extension length


@dataclass
class LinkGraph:
    """Pages 0..N-1 of a crawl (``urls``) and the weighted links between them."""

    urls: list[str]
    sources: np.ndarray  # int32 node numbers
    targets: np.ndarray
    weights: np.ndarray  # float32, see link_weight()
    total_links: int  # rows of `links` for the crawl, including links to unfetched URLs

    @property
    def links_outside(self) -> int:
        """Links whose target is not a page of the crawl (never fetched or failed)."""
        return self.total_links - len(self.sources)


def latest_crawl_id(conn: psycopg.Connection) -> str | None:
    """The id of the most recently started crawl, or None when there is none."""
    row = conn.execute("SELECT id FROM crawls ORDER BY started_at DESC, id DESC LIMIT 1").fetchone()
    return str(row[0]) if row else None


def crawl_exists(conn: psycopg.Connection, crawl_id: str) -> bool:
    row = conn.execute("SELECT 1 FROM crawls WHERE id = %s", (crawl_id,)).fetchone()
    return row is not None


def resolve_crawl_id(conn: psycopg.Connection, given: str | None) -> str:
    """``given`` if that crawl exists, else the latest crawl; LookupError when neither."""
    if given:
        if not crawl_exists(conn, given):
            raise LookupError(f"no crawl with id {given!r} in the database")
        return given
    latest = latest_crawl_id(conn)
    if latest is None:
        raise LookupError("the database holds no crawl yet")
    return latest


class _EdgeParser:
    """Incremental parser of a binary COPY stream of _EDGE_ROW tuples."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.header_done = False
        self.sources: list[np.ndarray] = []
        self.targets: list[np.ndarray] = []
        self.weights: list[np.ndarray] = []

    def feed(self, data: bytes | memoryview) -> None:
        self.buffer += data
        if not self.header_done:
            if len(self.buffer) < _COPY_HEADER:
                return
            if bytes(self.buffer[: len(_COPY_SIGNATURE)]) != _COPY_SIGNATURE:
                raise ValueError("not a PostgreSQL binary COPY stream")
            extension = int.from_bytes(self.buffer[_COPY_HEADER - 4 : _COPY_HEADER], "big")
            if len(self.buffer) < _COPY_HEADER + extension:
                return
            del self.buffer[: _COPY_HEADER + extension]
            self.header_done = True
        self._parse()

    def _parse(self) -> None:
        """Turn the whole tuples in the buffer into arrays (the 2-byte trailer stays)."""
        size = _EDGE_ROW.itemsize
        count = len(self.buffer) // size
        if count == 0:
            return
        rows = np.frombuffer(bytes(self.buffer[: count * size]), dtype=_EDGE_ROW)
        if (rows["fields"] != 5).any():
            raise ValueError("unexpected tuple in the link COPY stream")
        self.sources.append(rows["src"].astype(np.int32))
        self.targets.append(rows["dst"].astype(np.int32))
        self.weights.append(link_weight(rows["visibility"], rows["position"], rows["distance"]))
        del self.buffer[: count * size]

    def finish(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self._parse()
        if bytes(self.buffer) not in (b"\xff\xff", b""):
            raise ValueError("truncated link COPY stream")

        def joined(parts: list[np.ndarray], dtype: type) -> np.ndarray:
            return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)

        return (
            joined(self.sources, np.int32),
            joined(self.targets, np.int32),
            joined(self.weights, np.float32),
        )


def load_link_graph(
    conn: psycopg.Connection, crawl_id: str, block_bytes: int = 32 * 1024 * 1024
) -> LinkGraph:
    """The pages of ``crawl_id`` and the links between them, numbered 0..N-1.

    A link to a URL that redirected is attributed to the page the redirect chain started
    from (the page's ``final_url`` is an alias of its node). Links to anything else that
    is not a page of the crawl are not part of the graph; ``total_links`` counts them.
    """
    with conn.transaction():
        # room for the hash joins of 20M links against 1M URLs, for this transaction only
        conn.execute("SET LOCAL work_mem = '256MB'")
        conn.execute(
            "CREATE TEMP TABLE pagerank_nodes (url text PRIMARY KEY, idx integer NOT NULL)"
            " ON COMMIT DROP"
        )
        conn.execute(
            "INSERT INTO pagerank_nodes"
            " SELECT url, (row_number() OVER (ORDER BY id) - 1)::integer"
            " FROM pages WHERE crawl_id = %s",
            (crawl_id,),
        )
        urls = [
            row[0]
            for row in conn.execute(
                "SELECT url FROM pages WHERE crawl_id = %s ORDER BY id", (crawl_id,)
            )
        ]
        conn.execute(
            "INSERT INTO pagerank_nodes SELECT p.final_url, n.idx"
            " FROM pages p JOIN pagerank_nodes n ON n.url = p.url"
            " WHERE p.crawl_id = %s AND p.final_url <> p.url"
            " ON CONFLICT (url) DO NOTHING",
            (crawl_id,),
        )
        conn.execute("ANALYZE pagerank_nodes")
        total = conn.execute(
            "SELECT count(*) FROM links WHERE crawl_id = %s", (crawl_id,)
        ).fetchone()
        parser = _EdgeParser()
        pending: list[bytes | memoryview] = []
        pending_bytes = 0
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY (SELECT s.idx, t.idx, l.visibility, l.position, l.distance"
                " FROM links l"
                " JOIN pagerank_nodes s ON s.url = l.source_url"
                " JOIN pagerank_nodes t ON t.url = l.target_url"
                " WHERE l.crawl_id = %s) TO STDOUT (FORMAT binary)",
                (crawl_id,),
            ) as copy,
        ):
            for block in copy:
                pending.append(bytes(block))
                pending_bytes += len(block)
                if pending_bytes >= block_bytes:
                    parser.feed(b"".join(pending))
                    pending, pending_bytes = [], 0
        parser.feed(b"".join(pending))
        sources, targets, weights = parser.finish()
    return LinkGraph(
        urls=urls,
        sources=sources,
        targets=targets,
        weights=weights,
        total_links=int(total[0]) if total else 0,
    )


def store_scores(
    conn: psycopg.Connection, crawl_id: str, urls: list[str], scores: Iterable[float]
) -> int:
    """Replace the stored PageRank scores of ``crawl_id``; returns the number of rows."""
    count = 0
    with conn.transaction():
        conn.execute("DELETE FROM pagerank WHERE crawl_id = %s", (crawl_id,))
        with (
            conn.cursor() as cur,
            cur.copy("COPY pagerank (crawl_id, url, score) FROM STDIN") as copy,
        ):
            for url, score in zip(urls, scores, strict=True):
                copy.write_row((crawl_id, url, float(score)))
                count += 1
    return count


def top_pages(conn: psycopg.Connection, crawl_id: str, limit: int) -> list[tuple[str, str, float]]:
    """(url, title, score) of the best-ranked pages of a crawl."""
    rows = conn.execute(
        "SELECT r.url, coalesce(p.title, ''), r.score FROM pagerank r"
        " LEFT JOIN pages p ON p.crawl_id = r.crawl_id AND p.url = r.url"
        " WHERE r.crawl_id = %s ORDER BY r.score DESC, r.url LIMIT %s",
        (crawl_id, limit),
    ).fetchall()
    return [(str(url), str(title), float(score)) for url, title, score in rows]
