"""What an operator reads about a crawl (docs/operations.md): the progress line, the
per-interval series of a crawl and their figures, the HTML report. Plain code over
numbers and rows; the Scrapy glue is in crawler/extensions and crawler/commands."""
