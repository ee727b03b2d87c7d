"""Requests to bytes and back, for the frontier's ``request`` column.

The format is Scrapy's own (``Request.to_dict(spider=...)``, rebuilt with
``scrapy.utils.request.request_from_dict``) pickled, with two savings: the callback and
errback names are found with a cached lookup instead of ``inspect.getmembers`` (slow, run
for every request), and fields holding their default value are
left out (they are put back before rebuilding).

A plain link request (GET, no body, headers, cookies or flags, priority 0, nothing in
``meta`` but its depth) whose URL is the one the frontier row holds is stored in a compact
form instead: a tag byte, the depth and the two method names, without the URL (the row
has it) and without pickle. Most of a crawl's requests are such (sizes measured:
docs/performance.md).
"""

from __future__ import annotations

import pickle
import struct
from types import MethodType
from typing import Any

from scrapy import Request, Spider
from scrapy.utils.request import request_from_dict

_DEFAULTS: dict[str, Any] = {
    "callback": None,
    "errback": None,
    "method": "GET",
    "headers": {},
    "body": b"",
    "cookies": {},
    "meta": {},
    "encoding": "utf-8",
    "priority": 0,
    "dont_filter": False,
    "flags": [],
    "cb_kwargs": {},
}

# Scrapy (2.13 and later) builds a request's Headers on first access, a few microseconds
# per request: the codec looks at the attribute behind the property, without building it.
_LAZY_HEADERS = "_headers" in getattr(Request, "__slots__", ())


# The compact form's tag: a pickle starts with 0x80, so the first byte tells them apart.
_COMPACT = b"\x01"
_DEPTH = struct.Struct(">i")
_NO_DEPTH = -1


def _headers(request: Request) -> Any:
    return request._headers if _LAZY_HEADERS else request.headers


class RequestCodec:
    """Serialises the requests of one spider."""

    def __init__(self, spider: Spider) -> None:
        self.spider = spider
        self._names: dict[Any, str] = {}
        # the spider's bound methods already named: one dict look-up per request
        self._bound: dict[MethodType, str] = {}

    def _method_name(self, func: Any) -> Any:
        if type(func) is MethodType:
            known = self._bound.get(func)
            if known is not None:
                return known
        if func is None or isinstance(func, str) or not callable(func):
            return func
        target = getattr(func, "__func__", None)
        if target is None or getattr(func, "__self__", None) is not self.spider:
            return _find_by_scrapy(self.spider, func)
        name = self._names.get(target)
        if name is None:
            name = target.__name__
            bound = getattr(self.spider, name, None)
            if getattr(bound, "__func__", None) is not target:
                name = _find_by_scrapy(self.spider, func)
            self._names[target] = name
        if type(func) is MethodType:
            self._bound[func] = name
        return name

    def encode(self, request: Request, url: str | None = None) -> bytes:
        """The bytes of ``request``; ``url``: the URL stored beside them, which
        :meth:`decode` is then given back (it allows the compact form)."""
        if (
            type(request) is Request
            and request.method == "GET"
            and not request.body
            and not _headers(request)
            and not request.cookies
            and not request.flags
            and not request.cb_kwargs
            and request.encoding == "utf-8"
        ):
            if url is not None and not request.priority and not request.dont_filter:
                compact = self._compact(request, url)
                if compact is not None:
                    return compact
            # the common case (a plain link request), without building the full dict
            plain: dict[str, Any] = {"url": request.url}
            if request.callback is not None:
                plain["callback"] = self._method_name(request.callback)
            if request.errback is not None:
                plain["errback"] = self._method_name(request.errback)
            if request.meta:
                plain["meta"] = request.meta
            if request.priority:
                plain["priority"] = request.priority
            if request.dont_filter:
                plain["dont_filter"] = True
            return pickle.dumps(plain, protocol=pickle.HIGHEST_PROTOCOL)
        data: dict[str, Any] = {
            "url": request.url,
            "callback": self._method_name(request.callback),
            "errback": self._method_name(request.errback),
            "headers": dict(request.headers),
        }
        for attr in request.attributes:
            if attr not in data:
                data[attr] = getattr(request, attr)
        if type(request) is not Request:
            data["_class"] = f"{type(request).__module__}.{type(request).__name__}"
        compact = {k: v for k, v in data.items() if k not in _DEFAULTS or v != _DEFAULTS[k]}
        return pickle.dumps(compact, protocol=pickle.HIGHEST_PROTOCOL)

    def _compact(self, request: Request, url: str) -> bytes | None:
        meta = request.meta
        if request.url != url or (meta and meta.keys() != {"depth"}):
            return None
        depth = meta.get("depth", _NO_DEPTH) if meta else _NO_DEPTH
        if type(depth) is not int or not _NO_DEPTH <= depth <= 0x7FFFFFFF:
            return None
        callback = self._method_name(request.callback)
        errback = self._method_name(request.errback)
        if not isinstance(callback, str | None) or not isinstance(errback, str | None):
            return None
        return b"".join((_COMPACT, _DEPTH.pack(depth), (callback or "").encode(), b"\x00",
                         (errback or "").encode()))

    def decode(self, payload: bytes, url: str | None = None) -> Request:
        """The request of ``payload``; ``url``: the one given to :meth:`encode`."""
        if payload[:1] == _COMPACT:
            if url is None:
                raise ValueError("a compact request needs the URL stored beside it")
            (depth,) = _DEPTH.unpack_from(payload, 1)
            callback, errback = payload[5:].decode().split("\x00")
            data: dict[str, Any] = {"url": url, "callback": callback or None,
                                    "errback": errback or None}
            if depth != _NO_DEPTH:
                data["meta"] = {"depth": depth}
        else:
            data = pickle.loads(payload)
        for key, value in _DEFAULTS.items():
            if key not in data:
                data[key] = value.copy() if isinstance(value, (dict, list)) else value
        return request_from_dict(data, spider=self.spider)


def _find_by_scrapy(spider: Spider, func: Any) -> str:
    from scrapy.http.request import _find_method

    return _find_method(spider, func)
