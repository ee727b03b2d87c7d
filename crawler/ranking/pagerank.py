"""Weighted PageRank over a link graph held in sparse matrices (numpy + scipy.sparse).

Link weights come from the link attributes of the effective-crawler paper (section 5.3)::

    w(u -> v) = visibility * position * distance

visibility is 1..3 (plain, bold or italic, bold and italic), position 1..3 (last, middle,
first third of the page), distance 1 or 5 (same host, other host), so 1 <= w <= 45. A
page spreads its rank over its out-links in proportion to their weights::

    P(u -> v) = w(u -> v) / sum_x w(u -> x)

and the rank vector r (a probability distribution over the N pages) is the fixed point of

    r(v) = (1 - d) / N + d * ( sum_u r(u) * P(u -> v) + D / N ),   D = sum of r(u), u dangling

with damping d. Pages without out-links to other pages of the graph (dangling pages) give
their rank to all pages evenly (the D / N term). Links to URLs that are not pages of the
graph (never fetched, failed, disallowed) and self-links are left out before the weights
are normalised, so a page whose links all lead outside the graph is dangling. Iteration
stops when the L1 change of r falls below the tolerance.

Scores are reported scaled by N (``relative`` scores): 1.0 is the average page, the scale
of the original PageRank formula ``PR(A) = (1 - d) + d * sum PR(T) / C(T)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crawler import defaults


def link_weight(
    visibility: np.ndarray | int, position: np.ndarray | int, distance: np.ndarray | int
) -> np.ndarray:
    """The weight of links with these attributes: visibility * position * distance.

    Works on scalars and numpy arrays; values are clipped to the attributes' ranges
    (visibility and position 1..3, distance 1..5) so a corrupt row cannot give a zero
    or negative weight.
    """
    vis = np.clip(np.asarray(visibility, dtype=np.float32), 1, 3)
    pos = np.clip(np.asarray(position, dtype=np.float32), 1, 3)
    dist = np.clip(np.asarray(distance, dtype=np.float32), 1, 5)
    return vis * pos * dist


@dataclass
class PageRankResult:
    """Scores of the pages 0..N-1 (probabilities summing to 1) and how they were found."""

    scores: np.ndarray
    iterations: int
    converged: bool
    delta: float  # L1 change of the last iteration
    links: int  # links used (to other pages of the graph)
    dangling: int  # pages without such links

    @property
    def relative(self) -> np.ndarray:
        """Scores scaled by N: 1.0 is the average page."""
        return self.scores * len(self.scores)


def weighted_pagerank(
    n: int,
    sources: np.ndarray,
    targets: np.ndarray,
    weights: np.ndarray | None = None,
    *,
    damping: float = defaults.PAGERANK_DAMPING,
    tolerance: float = defaults.PAGERANK_TOLERANCE,
    max_iterations: int = defaults.PAGERANK_MAX_ITERATIONS,
) -> PageRankResult:
    """Weighted PageRank of a graph of ``n`` pages given as parallel edge arrays.

    ``sources[i] -> targets[i]`` is a link with weight ``weights[i]`` (1 when None).
    Node ids must be in ``0..n-1``; links to URLs outside the graph are to be removed by
    the caller (they have no node id). Self-links and links with a weight <= 0 are
    ignored; duplicate links add up their weights.
    """
    if not 0.0 <= damping < 1.0:
        raise ValueError(f"damping must be in [0, 1), got {damping}")
    if tolerance <= 0:
        raise ValueError(f"tolerance must be > 0, got {tolerance}")
    if n <= 0:
        return PageRankResult(np.zeros(0), 0, True, 0.0, 0, 0)
    # int32 node ids while they fit: half the memory of int64 for 20M-link graphs
    id_type = np.int32 if n < 2**31 - 1 else np.int64
    src = np.asarray(sources, dtype=id_type)
    dst = np.asarray(targets, dtype=id_type)
    if src.shape != dst.shape:
        raise ValueError("sources and targets differ in length")
    w = (
        np.ones(src.shape, dtype=np.float64)
        if weights is None
        else np.asarray(weights, dtype=np.float64)
    )
    if len(src) and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= n):
        raise ValueError("node id out of range 0..n-1")
    keep = (src != dst) & (w > 0)
    if not keep.all():
        src, dst, w = src[keep], dst[keep], w[keep]

    out_weight = np.bincount(src, weights=w, minlength=n)
    dangling = out_weight == 0
    # transition matrix transposed: row v holds P(u -> v) for every u linking to v
    with np.errstate(divide="ignore", invalid="ignore"):
        probabilities = w / out_weight[src]
    # imported here, not at module level: scipy costs a crawl's start 0.2-0.6 s and
    # only `scrapy pagerank` and the ranking extension's close need it
    import scipy.sparse as sp

    transposed = sp.csr_matrix((probabilities, (dst, src)), shape=(n, n), dtype=np.float64)
    del probabilities, w
    transposed.sum_duplicates()

    rank = np.full(n, 1.0 / n)
    teleport = (1.0 - damping) / n
    delta = float("inf")
    iterations = 0
    converged = False
    while iterations < max_iterations:
        iterations += 1
        dangling_mass = rank[dangling].sum()
        new = damping * (transposed @ rank)
        new += teleport + damping * dangling_mass / n
        # renormalise against floating-point drift (the true vector sums to exactly 1)
        new /= new.sum()
        delta = float(np.abs(new - rank).sum())
        rank = new
        if delta < tolerance:
            converged = True
            break
    return PageRankResult(
        scores=rank,
        iterations=iterations,
        converged=converged,
        delta=delta,
        links=int(transposed.nnz),
        dangling=int(dangling.sum()),
    )


def pagerank_of_graph(
    graph: dict[str, list[str]],
    *,
    damping: float = defaults.PAGERANK_DAMPING,
    tolerance: float = defaults.PAGERANK_TOLERANCE,
    max_iterations: int = defaults.PAGERANK_MAX_ITERATIONS,
) -> dict[str, float]:
    """Unweighted PageRank of a small ``{page: [linked urls]}`` graph, relative scores.

    Links to URLs that are not keys of ``graph`` are left out. Handy for tests and for
    comparing with :meth:`crawler.sandbox.SandboxWeb.link_graph`.
    """
    urls = list(graph)
    index = {url: i for i, url in enumerate(urls)}
    src: list[int] = []
    dst: list[int] = []
    for url, links in graph.items():
        for target in dict.fromkeys(links):
            j = index.get(target)
            if j is not None:
                src.append(index[url])
                dst.append(j)
    result = weighted_pagerank(
        len(urls),
        np.array(src, dtype=np.int64),
        np.array(dst, dtype=np.int64),
        damping=damping,
        tolerance=tolerance,
        max_iterations=max_iterations,
    )
    return dict(zip(urls, result.relative.tolist(), strict=True))
