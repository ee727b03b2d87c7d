"""The request handler of `scrapy serve`'s werkzeug server."""

from __future__ import annotations

from werkzeug.serving import WSGIRequestHandler


class RequestLogHandler(WSGIRequestHandler):
    """Werkzeug colours its request log lines with ANSI codes whatever the output; this
    handler keeps the colours for a terminal and writes plain lines to a file or pipe."""

    colour = False  # set by the command: whether the log goes to a terminal

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if self.colour:
            super().log_request(code, size)
        else:
            self.log("info", '"%s" %s %s', self.requestline, code, size)
