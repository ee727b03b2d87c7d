"""crawler: a best-first web crawler and search engine built on Scrapy."""
