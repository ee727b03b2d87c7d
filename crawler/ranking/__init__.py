"""Link-based ranking: weighted PageRank over the crawl's link graph (no Scrapy imports)."""

from crawler.ranking.pagerank import (
    PageRankResult,
    link_weight,
    pagerank_of_graph,
    weighted_pagerank,
)

__all__ = ["PageRankResult", "link_weight", "pagerank_of_graph", "weighted_pagerank"]
