"""`scrapy serve`: the search web UI (simple and advanced search) on a local port."""

from __future__ import annotations

import argparse
import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.utils.log import configure_logging
from werkzeug.serving import make_server

from crawler.search.index import SearchIndexError, index_path, open_index
from crawler.web.app import create_app


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
        parser.add_argument(
            "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
        )
        parser.add_argument(
            "--port", type=int, default=8080, help="port (default 8080; 0: any free port)"
        )
        parser.add_argument("--index", help="index folder (default: SEARCH_INDEX_DIR)")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        configure_logging(self.settings)
        path = opts.index or index_path(self.settings)
        try:
            ix = open_index(path, create=False)
        except SearchIndexError as exc:
            print(f"error: {exc}", file=sys.stderr)
            self.exitcode = 2
            return
        app = create_app(self.settings, ix)
        server = make_server(opts.host, opts.port, app, threaded=True)
        host, port = server.server_address[:2]
        print(f"search UI on http://{host}:{port}/ (index {path}); Ctrl-C stops it", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
            app.config["SEARCH_ENGINE"].close()
            app.config["CRAWL_DATABASE"].close()  # the embedded server, if /crawls started it
            ix.close()
