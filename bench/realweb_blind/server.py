"""The evaluation webs' HTTP proxy server (asyncio, stdlib only; 127.0.0.1 only).

    python server.py --web 503site|realweb|skewed [--seed N] [--latency S] --port P --log FILE

Acts as an HTTP proxy for the webs' fake host names: ``GET http://host/path HTTP/1.1``.
``CONNECT`` (https) is answered ``502`` at once. Logs every request as one tab-separated
line: start time, end time (response written), host, path, status, bytes, User-Agent,
index of the port it came through
(times: ``time.time()``). Prints ``READY <port>`` once it listens; flushes its log every
0.5 s and on SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import resource
import signal
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import webs  # noqa: E402

REASONS = {
    200: "OK",
    404: "Not Found",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def response(
    status: int, body: bytes, ctype: bytes = b"text/html; charset=utf-8", extra: bytes = b""
) -> bytes:
    head = (
        b"HTTP/1.1 %d %s\r\nServer: blindweb\r\nContent-Type: %s\r\nContent-Length: %d\r\n%s\r\n"
        % (status, REASONS.get(status, "X").encode(), ctype, len(body), extra)
    )
    return head + body


class Site:
    def __init__(self, web: webs.Web, log_path: str) -> None:
        self.web = web
        self.log = open(log_path, "a", buffering=1 << 20)
        self.pending: list[str] = []
        self.count = 0
        self.asked: set[tuple[str, str]] = set()
        self.rendered: dict[str, bytes] = {}
        # pre-rendered responses
        self.doc_resp: dict[str, dict[str, bytes]] = {
            h: {} for h in web.docs
        }  # filled on first request
        self.robots_resp = {
            h: (response(200, b, b"text/plain"), 200)
            if b is not None
            else (response(404, b"<html><body>Not found</body></html>"), 404)
            for h, b in web.robots.items()
        }
        self.not_found = response(
            404, b"<html><head><title>404</title></head><body><h1>Not Found</h1></body></html>"
        )
        self.r503 = response(
            503,
            b"<html><body><h1>503 Service Unavailable</h1>Try again shortly.</body></html>",
            extra=b"Retry-After: 1\r\n",
        )
        self.r502 = response(502, b"<html><body>Bad gateway: name not resolved</body></html>")
        self.r504 = response(504, b"<html><body>Gateway timeout</body></html>")
        self.connect502 = response(502, b"blindweb: no https")

    def record(
        self, t0: float, host: str, path: str, status: int, size: int, ua: str, via: int = 0
    ) -> None:
        self.pending.append(
            f"{t0:.4f}\t{time.time():.4f}\t{host}\t{path}\t{status}\t{size}\t{ua}\t{via}\n"
        )
        self.count += 1

    def flush(self) -> None:
        if self.pending:
            self.log.write("".join(self.pending))
            self.pending.clear()
        self.log.flush()

    def answer(self, host: str, path: str) -> tuple[bytes | None, float, int]:
        """(response bytes or None to close the connection, delay, status)."""
        web = self.web
        delay = web.latency + web.slow.get((host, path), 0.0)
        if path == "/robots.txt" and host in self.robots_resp:
            resp, status = self.robots_resp[host]
            return resp, web.latency, status
        docs = self.doc_resp.get(host)
        if docs is not None:
            if path.endswith("/"):
                path += "index.html"
            resp = docs.get(path)
            if resp is None:
                body = web.docs[host].pages.get(path)
                if body is None:
                    return self.not_found, delay, 404
                resp = docs[path] = response(200, body)
            if (
                host == web.stall_host
                and webs.is_503_first(web.seed, path)
                and (host, path) not in self.asked
            ):
                self.asked.add((host, path))
                return self.r503, delay, 503
            return resp, delay, 200
        site = web.synth.get(host)
        if site is not None:
            i = site.page_index(path)
            if i is None:
                return self.not_found, delay, 404
            key = f"{host}{i}"
            resp = self.rendered.get(key)
            if resp is None:
                resp = response(200, webs.render_synth_page(site, i, web.pool))
                if len(self.rendered) < 20000:
                    self.rendered[key] = resp
            return resp, delay, 200
        dead = web.dead.get(host)
        if dead is not None:
            if dead.kind == "refused":
                return None, 0.0, 0
            if dead.kind == "hang":
                return self.r504, dead.hang_s, 504
        return self.r502, 0.0, 502

    async def handle(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, via: int = 0
    ) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                    return
                t0 = time.time()
                lines = head.decode("latin-1").split("\r\n")
                try:
                    method, target, version = lines[0].split(" ", 2)
                except ValueError:
                    return
                headers = {}
                for line in lines[1:]:
                    k, sep, v = line.partition(":")
                    if sep:
                        headers[k.strip().lower()] = v.strip()
                ua = headers.get("user-agent", "").replace("\t", " ")
                length = int(headers.get("content-length", "0") or 0)
                if length:
                    await reader.readexactly(length)
                if method == "CONNECT":
                    writer.write(self.connect502)
                    await writer.drain()
                    self.record(t0, target.lower(), "", 502, 0, ua, via)
                    return
                if target.startswith("http://") or target.startswith("https://"):
                    parts = urlsplit(target)
                    host = parts.hostname or ""
                    if parts.port not in (None, 80):
                        host = f"{host}:{parts.port}"
                    path = parts.path or "/"
                else:
                    host = headers.get("host", "").lower().removesuffix(":80")
                    path = urlsplit(target).path or "/"
                host = host.lower()
                resp, delay, status = self.answer(host, path)
                if delay > 0:
                    await asyncio.sleep(delay)
                if resp is None:  # connection refused: closed without an answer
                    self.record(t0, host, path, 0, 0, ua, via)
                    return
                writer.write(resp if method != "HEAD" else resp[: resp.index(b"\r\n\r\n") + 4])
                await writer.drain()
                self.record(t0, host, path, status, len(resp), ua, via)
                keep = headers.get("connection", headers.get("proxy-connection", "")).lower()
                if keep == "close" or (version == "HTTP/1.0" and keep != "keep-alive"):
                    return
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            try:
                writer.close()
            except Exception:
                pass


async def main_async(args: argparse.Namespace) -> None:
    web = webs.build(args.web, args.seed, latency=args.latency, skew=args.skew)
    site = Site(web, args.log)
    servers = []
    for via in range(args.ports):
        handler = functools.partial(site.handle, via=via)
        servers.append(
            await asyncio.start_server(
                handler,
                "127.0.0.1",
                args.port + via if args.port else 0,
                backlog=1024,
                limit=1 << 16,
            )
        )
    ports = " ".join(str(s.sockets[0].getsockname()[1]) for s in servers)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print(f"READY {ports}", flush=True)
    print(web.describe(), file=sys.stderr, flush=True)

    async def flusher() -> None:
        while True:
            await asyncio.sleep(0.5)
            site.flush()

    task = asyncio.create_task(flusher())
    await stop.wait()
    task.cancel()
    for server in servers:
        server.close()
    site.flush()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"SERVER-CPU {ru.ru_utime + ru.ru_stime:.2f} s for {site.count} requests",
        file=sys.stderr,
        flush=True,
    )
    site.log.close()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--web", required=True, choices=("503site", "realweb", "skewed"))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--skew", type=float, default=1.0, help="skewed: Zipf exponent of host sizes")
    ap.add_argument("--latency", type=float, default=0.0, help="seconds added to every response")
    ap.add_argument("--port", type=int, default=0, help="first port (default: any free ones)")
    ap.add_argument(
        "--ports",
        type=int,
        default=1,
        help="listen on this many ports; the log's last field says which (agents)",
    )
    ap.add_argument("--log", required=True)
    args = ap.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
