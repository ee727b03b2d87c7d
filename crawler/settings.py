"""Scrapy settings of the crawler project.

Only Scrapy's own settings are set here; the project's own settings and their defaults
live in ``crawler/defaults.py`` and are documented in the README.
"""

BOT_NAME = "crawler"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"
# Our `crawl` command adds a pre-flight check (seeds, database) before anything is fetched.
COMMANDS_MODULE = "crawler.commands"

# Identify the crawler honestly; set CRAWLER_CONTACT_URL in production.
USER_AGENT = "crawler/0.1 (+https://example.invalid/crawler-contact)"

# Politeness defaults, safe for the real web.
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 2
DOWNLOAD_DELAY = 0.5
DOWNLOAD_TIMEOUT = 30
# A broad crawler must not swallow huge bodies (Scrapy's default is 1 GiB).
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
RETRY_TIMES = 1
REDIRECT_MAX_TIMES = 5
COOKIES_ENABLED = False
TELNETCONSOLE_ENABLED = False
LOG_LEVEL = "INFO"

DOWNLOADER_MIDDLEWARES = {
    # robots decisions that raise a distinct exception, so they land in `uncrawled`
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.middlewares.robots.RobotsExclusionMiddleware": 100,
}

ITEM_PIPELINES = {
    "crawler.pipelines.postgres.PostgresStorePipeline": 800,
}

EXTENSIONS = {
    "crawler.extensions.crawl_record.CrawlRecord": 0,
}

FEED_EXPORT_ENCODING = "utf-8"
