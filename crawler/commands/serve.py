"""`scrapy serve`: the search web UI (simple and advanced search) on a local port."""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand

from crawler.commands._shared import (
    configure_command_logging,
    fail,
    int_in_range,
    one_line_errors,
    reject_arguments,
)
from crawler.search.index import SearchIndexError, index_path, open_index


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "INFO"}

    def syntax(self) -> str:
        return "[options]"

    def short_desc(self) -> str:
        return "Serve the search web UI"

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        one_line_errors(parser)
        parser.add_argument(
            "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
        )
        parser.add_argument(
            "--port", type=int_in_range(0, 65535), default=8080,
            help="port (default 8080; 0: any free port)",
        )
        parser.add_argument("--index", help="index folder (default: SEARCH_INDEX_DIR)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        reject_arguments("serve", args)
        configure_command_logging(self)
        # the web stack (flask, werkzeug, jinja2: 0.15-0.3 s) is imported here, not at module
        # level: Scrapy imports every command module whatever the command, `crawl` included
        from werkzeug.serving import make_server

        from crawler.web.app import create_app
        from crawler.web.crawls import configured_control_token
        from crawler.web.serving import RequestLogHandler

        path = opts.index or index_path(self.settings)
        try:
            ix = open_index(path, create=False)
        except SearchIndexError as exc:
            fail(self, exc)
            return
        # bound here, not by werkzeug, which prints its own message and exits 1
        family = socket.AF_INET6 if ":" in opts.host else socket.AF_INET
        try:
            listener = socket.create_server((opts.host, opts.port), family=family)
        except OSError as exc:  # port taken, no permission, unknown address
            ix.close()
            reason = os.strerror(exc.errno) if exc.errno else str(exc)
            fail(self, f"cannot listen on {opts.host}:{opts.port}: {reason}")
            return
        # the crawls pages' control form asks for this token (docs/operations.md)
        token = configured_control_token(self.settings)
        made = token is None
        if made:
            token = secrets.token_urlsafe(24)
        app = create_app(self.settings, ix, control_token=token, index_folder=str(path))
        handler = type("Handler", (RequestLogHandler,), {
            "colour": sys.stderr.isatty() and not self.settings.get("LOG_FILE"),
        })
        server = make_server(
            opts.host, opts.port, app, threaded=True, request_handler=handler,
            fd=listener.fileno(),
        )
        listener.close()  # the server holds its own duplicate of the socket
        host, port = server.server_address[:2]
        print(f"search UI on http://{host}:{port}/ (index {path}); Ctrl-C stops it", flush=True)
        if made:  # never logged: only the person who started the server sees it
            print(f"control token (crawl pages): {token}", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
            app.config["SEARCH_ENGINE"].close()
            app.config["CRAWL_DATABASE"].close()  # the embedded server, if /crawls started it
            ix.close()
