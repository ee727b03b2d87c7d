"""The incremental crawler's algorithms (docs/incremental.md): change-rate estimators,
the revisit allocation and update decision, change detection, the refinement decision,
and the revisit schedule in PostgreSQL. No Scrapy imports here; the spider
(crawler/spiders/incremental.py) is the glue."""
