"""`scrapy crawl` with a pre-flight check.

Bad seeds, a malformed scope file, an unreachable external database, a proxy that
covers http but not https, an unknown POLITENESS_KEY or a bad DNS_SERVERS entry, an
unwritable WARC_DIR or an unusable METRICS_PORT end the command with one clear error line
and exit status 2, before the engine starts and before anything is fetched.
"""

from __future__ import annotations

import argparse
import atexit
import logging
import os
import sys
from typing import Any
from urllib.request import getproxies

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from crawler import defaults
from crawler.commands._shared import fail, one_line_errors
from crawler.extensions.metrics import MetricsPortError, check_metrics_port
from crawler.politeness.backoff import backoff_setting
from crawler.politeness.dns import parse_dns_servers, politeness_key_setting
from crawler.scope.gate import scope_file_setting
from crawler.scope.rules import ScopeFileError, load_scope
from crawler.seeds import SeedError
from crawler.storage.database import DatabaseUnavailable, check_connection, configured_url
from crawler.warc import WarcDirError, check_warc_dir

logger = logging.getLogger(__name__)

HTTPS_PROXY_MISSING = (
    "http_proxy is set but https_proxy is not: https URLs would bypass the proxy and be "
    "fetched from the network directly"
)


def https_bypasses_proxy(proxies: dict[str, str]) -> bool:
    """Whether http URLs go through a proxy and https URLs would not (the proxies of the
    environment, as urllib and Scrapy's HttpProxyMiddleware read them)."""
    return bool(proxies.get("http")) and not proxies.get("https")


class Command(ScrapyCrawlCommand):
    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        _import_tls_context_early()
        options = [arg for arg in args if arg.startswith("-")]
        if options:
            raise UsageError(f"unrecognized option {options[0]} (see scrapy crawl -h)")
        if not args:
            raise UsageError("give a spider to run: scrapy crawl SPIDER (scrapy list shows them)")
        if len(args) == 1 and self.crawler_process is not None:
            try:
                self._preflight(args[0], opts)
            except (
                SeedError, DatabaseUnavailable, WarcDirError, MetricsPortError, ScopeFileError
            ) as exc:
                fail(self, exc)
                return
        self._crawler: Any = None
        super().run(args, opts)
        # the crawl refused to run (its frontier is another mode's, or a dead session's
        # lock could not be cleared): BestFirstScheduler._refuse
        from crawler.schedulers.best_first import ERROR_STAT  # (a crawl's module only)

        refused = self._crawler.stats.get_value(ERROR_STAT) if self._crawler else None
        if refused:
            fail(self, refused)
        # Everything is written and closed by now. Run first among the exit handlers
        # (registered last), after whatever wraps the command (scrapyd's runner) has
        # unwound: the interpreter's own teardown, freeing the crawl's objects one by
        # one, took seconds after the last response (docs/performance.md).
        atexit.register(exit_now, self.exitcode)


    def _create_crawler(self, spider: Any) -> Any:
        self._crawler = super()._create_crawler(spider)
        return self._crawler

    def _preflight(self, spider_name: str, opts: argparse.Namespace) -> None:
        assert self.crawler_process is not None
        settings = self.settings
        self._check_proxies()
        try:
            spidercls = self.crawler_process.spider_loader.load(spider_name)
        except KeyError as exc:
            raise UsageError(f"no spider named {spider_name!r}") from exc
        try:
            backoff_setting(settings)  # an unusable back-off setting: one error line
            politeness_key_setting(settings)
            parse_dns_servers(settings.getlist("DNS_SERVERS", defaults.DNS_SERVERS))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        preflight = getattr(spidercls, "preflight", None)
        if preflight is not None:
            preflight(dict(opts.spargs))
        scope = scope_file_setting(settings, dict(opts.spargs))
        if scope:  # a malformed rule: one error line naming file and line
            load_scope(scope)
        url = configured_url(settings)
        if url:
            check_connection(
                url,
                settings.getfloat(
                    "CRAWLER_DB_CONNECT_TIMEOUT", defaults.CRAWLER_DB_CONNECT_TIMEOUT
                ),
            )
        warc_dir = settings.get("WARC_DIR", defaults.WARC_DIR)
        if warc_dir:  # an archive that cannot be written stops the crawl
            check_warc_dir(warc_dir)
        port = settings.getint("METRICS_PORT", defaults.METRICS_PORT)
        if port:
            check_metrics_port(str(settings.get("METRICS_ADDRESS", defaults.METRICS_ADDRESS)), port)

    def _check_proxies(self) -> None:
        settings = self.settings
        if not settings.getbool("HTTPPROXY_ENABLED") or not https_bypasses_proxy(getproxies()):
            return
        if settings.getbool("CRAWLER_REQUIRE_HTTPS_PROXY", defaults.CRAWLER_REQUIRE_HTTPS_PROXY):
            raise UsageError(
                f"{HTTPS_PROXY_MISSING}; set https_proxy too (scripts/sandbox-crawl.sh sets "
                "both for the sandbox web), or -s CRAWLER_REQUIRE_HTTPS_PROXY=False to "
                "crawl https URLs directly"
            )
        logger.warning("%s (CRAWLER_REQUIRE_HTTPS_PROXY=False)", HTTPS_PROXY_MISSING)


def exit_now(code: int) -> None:
    """Flush the logs and standard streams and end the process without the
    interpreter's teardown."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed, or a broken pipe
            pass
    os._exit(code)


def _import_tls_context_early() -> None:
    """Import Scrapy's TLS context factory before the crawl's components.

    The module builds two deprecated aliases with ``create_deprecated_class``, which calls
    ``inspect.stack()``: that reads the source of every frame on the stack and resolves the
    file of every module in ``sys.modules``. Imported where Scrapy first needs it, under the
    crawl's components, both are many times what they are here (docs/performance.md, "The
    start again: inspect.stack(), the language model, the warm-up").
    """
    import scrapy.core.downloader.contextfactory  # noqa: F401
