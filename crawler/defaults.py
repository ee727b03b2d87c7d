"""Defaults of every setting this project adds to Scrapy's, in one place.

Components read them with ``settings.get(NAME, defaults.NAME)`` so they also work
when used from another Scrapy project. Each one is documented in the README.
"""

# --- storage -------------------------------------------------------------------------
# PostgreSQL URL (postgresql://user:pass@host:port/db). Unset: an embedded PostgreSQL
# (pgserver) is started with its data under CRAWLER_DATA_DIR/pgdata. The environment
# variable of the same name is used when the setting is not given.
CRAWLER_DATABASE_URL: str | None = None
# Folder for crawl state kept outside the database (embedded cluster, index, spill files).
CRAWLER_DATA_DIR = ".crawl"
# Seconds to wait for the database to answer before giving up with a clear error.
CRAWLER_DB_CONNECT_TIMEOUT = 5
# Rows are written in batches: at most this many items are buffered ...
STORE_BATCH_SIZE = 200
# ... and never for longer than this many seconds.
STORE_FLUSH_INTERVAL = 2.0
# Attempts at writing one batch before it is spilled to CRAWLER_DATA_DIR/spill/.
STORE_WRITE_ATTEMPTS = 3

# --- pages -------------------------------------------------------------------------
# Content types parsed as HTML (links followed) and stored as pages.
PAGE_HTML_CONTENT_TYPES = ["text/html", "application/xhtml+xml"]
# Other content types stored as pages (text kept, no links). Anything else is recorded
# in `uncrawled` as unsupported_mime.
PAGE_TEXT_CONTENT_TYPES = ["text/plain"]
# Anchor texts are cut to this many characters.
LINK_ANCHOR_MAX_CHARS = 500
