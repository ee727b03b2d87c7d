"""Scrapy settings of the crawler project.

Only Scrapy's own settings are set here; the project's own settings and their defaults
live in ``crawler/defaults.py`` and are documented in the README. One exception:
SEARCH_BACKEND is taken from the environment when set there (its default stays in
defaults.py).
"""

import os

from crawler import defaults

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
# robots.txt Crawl-delay / Request-rate raise a host's delay (docs/politeness.md);
# AutoThrottle is available (AUTOTHROTTLE_ENABLED=True) and never goes below them.
AUTOTHROTTLE_ENABLED = False
# The effective-crawler paper's "crawl & stop with threshold": 10 links from the seeds.
DEPTH_LIMIT = 10
DOWNLOAD_TIMEOUT = 30
# A broad crawler must not swallow huge bodies (Scrapy's default is 1 GiB).
DOWNLOAD_MAXSIZE = 10 * 1024 * 1024
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
RETRY_TIMES = 1
REDIRECT_MAX_TIMES = 5
COOKIES_ENABLED = False
# The best-first frontier (docs/frontier.md): scored, per-host polite, kept in PostgreSQL.
# It does its own URL-seen test on canonical URLs, so DUPEFILTER_CLASS is not used.
SCHEDULER = "crawler.schedulers.best_first.BestFirstScheduler"
TELNETCONSOLE_ENABLED = False
# Scrapy's remote control (2.19): an HTTP server on 127.0.0.1 that runs any Python code a
# token holder posts, the token in a job file of the user's profile; off like the telnet
# console (live control is crawler.extensions.control's: docs/operations.md).
REMOTE_CONTROL_ENABLED = False
LOG_LEVEL = "INFO"
# Scrapy starts CONCURRENT_ITEMS worker tasks for every response's output (default 100),
# however few items it holds; a page yields one item and its links (docs/performance.md).
CONCURRENT_ITEMS = 8
# Responses downloaded but not parsed yet, in bytes (Scrapy: 5,000,000): the downloader
# waits while more are queued. A crawl that stops (a page limit, Ctrl-C) first parses and
# stores every queued response, so this bounds that part of the close; with the pages
# analysed in worker processes it took 1.1-1.9 s after the last response on the blind
# speed web. At 1,000,000 a single larger page (documentation indexes of 1-3 MB, which
# best-first fetches first) stopped every download until it was parsed: the downloader
# sat idle for seconds at a time in the crawl's first 20 s (docs/performance.md, "First
# seconds of a crawl"). At 5,000,000 the same on a web of larger pages: no request in the
# downloader with 6.2 MB waiting (docs/performance.md, "Responses waiting to be parsed").
# At least twice DOWNLOAD_MAXSIZE: no page the crawl accepts stops the downloads alone.
SCRAPER_SLOT_MAX_ACTIVE_SIZE = 25_000_000
# Scrapy reads a generator callback's source and parses it (ast.parse) to warn about a
# `return value` in it, again whenever its cache lost the callback (a bound method, kept
# only while a request holds it). CPython 3.11 keeps one AST recursion counter for all
# threads: that parse on the crawl's thread while the spider's warm-up thread loaded the
# language model (numpy reads array headers with ast.literal_eval) failed the first
# page's callback with "SystemError: AST constructor recursion depth mismatch"
# (python/cpython#106905), so the crawl ended after one page. Our callbacks return nothing.
WARN_ON_GENERATOR_RETURN_VALUE = False

# Scrapy's resolver interface, each address kept for its DNS TTL (DNS_SERVERS, DNS_MIN_TTL,
# DNS_MAX_TTL; docs/politeness.md, "Politeness per server")
TWISTED_DNS_RESOLVER = "crawler.downloader.resolver.TtlCachingResolver"

DOWNLOADER_MIDDLEWARES = {
    # robots decisions that raise a distinct exception, so they land in `uncrawled`
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "crawler.middlewares.robots.RobotsExclusionMiddleware": 100,
    # learned URL-parameter rules: a URL queued before its rule (crawler/urlrules)
    "crawler.middlewares.url_rules.UrlParameterRulesDownloaderMiddleware": 95,
    # POLITENESS_KEY=ip (off by default): the request's slot is its host's address
    "crawler.middlewares.politeness_key.ServerSlotMiddleware": 105,
    # TRAP_HOST_PAGE_BUDGET (off unless set), counted after the robots decision
    "crawler.middlewares.budget.HostBudgetMiddleware": 110,
    # USER_AGENT with CRAWLER_CONTACT_URL as its contact
    "scrapy.downloadermiddlewares.useragent.UserAgentMiddleware": None,
    "crawler.middlewares.useragent.ContactUserAgentMiddleware": 400,
    # next to the engine: HTML pages analysed in worker processes once redirects, retries
    # and decompression are done (crawler/page_analysis.py, docs/performance.md)
    "crawler.middlewares.page_analysis.PageAnalysisMiddleware": 10,
}

SPIDER_MIDDLEWARES = {
    # outermost (lowest order is closest to the engine): sees every callback's exception
    "crawler.middlewares.callback_errors.CallbackErrorMiddleware": 10,
    # depth threshold and trap defence record what they refuse (docs/politeness.md)
    "scrapy.spidermiddlewares.depth.DepthMiddleware": None,
    "crawler.middlewares.depth.DepthLimitMiddleware": 900,
    "scrapy.spidermiddlewares.urllength.UrlLengthMiddleware": None,
    "crawler.middlewares.traps.TrapDefenceMiddleware": 850,
    # after the depth, URL-rule and trap checks: a link to a URL the frontier has seen
    # raises its score and goes no further (crawler/middlewares/known_links.py)
    "crawler.middlewares.known_links.KnownLinksMiddleware": 845,
    # content-seen test next to the spider: a duplicate page's links never reach the
    # frontier, nor the depth and trap checks (docs/dedup.md)
    "crawler.middlewares.content_seen.ContentSeenMiddleware": 950,
    # learns URL-parameter rules from its verdicts, rewrites links (crawler/urlrules)
    "crawler.middlewares.url_rules.UrlParameterRulesMiddleware": 920,
}

ITEM_PIPELINES = {
    "crawler.pipelines.postgres.PostgresStorePipeline": 800,
    # after storage: every stored page goes into the Whoosh index (docs/search.md)
    "crawler.pipelines.search_index.SearchIndexPipeline": 900,
    # last: a focused crawl's output (-o) is its relevant pages only (docs/focused.md)
    "crawler.pipelines.relevant_output.RelevantOutputPipeline": 1000,
    # the smart spider's forms into `forms`, then its output (-o) is the relevant
    # searchable forms only (docs/deepweb.md)
    "crawler.pipelines.forms.FormStorePipeline": 850,
    "crawler.pipelines.forms.FormOutputPipeline": 1010,
}

# HTTP/1.1 without twisted's hidden second attempt: RETRY_TIMES counts every retry, a
# dead host's robots.txt costs one request (crawler/downloader/handlers.py)
DOWNLOAD_HANDLERS = {
    "http": "crawler.downloader.handlers.ExplicitRetryHTTPDownloadHandler",
    "https": "crawler.downloader.handlers.ExplicitRetryHTTPDownloadHandler",
}

EXTENSIONS = {
    "crawler.extensions.crawl_record.CrawlRecord": 0,
    # AutoThrottle that keeps robots.txt Crawl-delay as a floor
    "scrapy.extensions.throttle.AutoThrottle": None,
    "crawler.middlewares.throttle.CrawlDelayAutoThrottle": 0,
    # harvest rate of focused crawls in stats and crawl_stats (docs/focused.md)
    "crawler.extensions.harvest_rate.HarvestRate": 0,
    # frontier statistics every STATS_INTERVAL in the log and crawl_stats (docs/frontier.md)
    "crawler.extensions.frontier_stats.FrontierStats": 0,
    # fewer cyclic-GC passes over the crawl's long-lived objects (docs/frontier.md)
    "crawler.extensions.gc_tuning.GarbageCollectorTuning": 0,
    # operator's view (docs/operations.md): WARC files (WARC_DIR), progress line
    # (PROGRESS_INTERVAL), Prometheus metrics (METRICS_PORT)
    "crawler.extensions.warc_archive.WarcArchive": 0,
    "crawler.extensions.progress.CrawlProgress": 0,
    "crawler.extensions.metrics.CrawlMetrics": 0,
    # robots.txt Crawl-delay as the host slot's delay; robots.txt sitemaps (docs/politeness.md)
    "crawler.extensions.crawl_delay.CrawlDelay": 0,
    "crawler.extensions.sitemaps.RobotsSitemaps": 0,
    # live control: pause, resume, stop, exclude, add-seeds (docs/operations.md)
    "crawler.extensions.control.CrawlControl": 0,
}

FEED_EXPORT_ENCODING = "utf-8"

# The search backend may come from the environment (a deployment, or a benchmark that
# runs this checkout's commands unchanged): SEARCH_BACKEND=tantivy.
SEARCH_BACKEND = os.environ.get("SEARCH_BACKEND") or defaults.SEARCH_BACKEND
