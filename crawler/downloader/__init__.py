"""Download handlers of the project (Scrapy glue)."""
