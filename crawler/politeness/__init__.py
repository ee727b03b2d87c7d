"""Scrapy-free politeness and trap-defence algorithms.

The Scrapy glue lives in :mod:`crawler.middlewares`; the decisions are made here so they
can be tested directly: robots.txt rules and their cache (:mod:`.robots`), spider-trap
checks (:mod:`.traps`) and a memory-bounded "record once" filter (:mod:`.once`).
"""
