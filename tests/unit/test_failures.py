from scrapy.exceptions import DownloadCancelledError, DownloadTimeoutError, IgnoreRequest
from scrapy.http import Request, Response
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import ConnectionRefusedError, DNSLookupError

from crawler.failures import categorize_failure
from crawler.middlewares.robots import RobotsDisallowed


def _http(status):
    return HttpError(Response("http://a.test/", status=status, request=Request("http://a.test/")))


def test_categories():
    assert categorize_failure(_http(404)) == ("http_404", "HTTP 404")
    assert categorize_failure(_http(403)) == ("http_403", "HTTP 403")
    assert categorize_failure(_http(503)) == ("http_503", "HTTP 503")
    assert categorize_failure(_http(500)) == ("http_other", "HTTP 500")
    assert categorize_failure(RobotsDisallowed("Forbidden by robots.txt"))[0] == "robots_disallowed"
    assert categorize_failure(DownloadTimeoutError("t"))[0] == "timeout"
    assert categorize_failure(DNSLookupError("x"))[0] == "connection"
    assert categorize_failure(ConnectionRefusedError())[0] == "connection"
    msg = "Received 5 bytes which is larger than download max size (4) in request <GET x>."
    assert categorize_failure(DownloadCancelledError(msg))[0] == "too_large"
    assert categorize_failure(IgnoreRequest("x"))[0] == "other"
    assert categorize_failure(ValueError("boom")) == ("other", "ValueError: boom")
