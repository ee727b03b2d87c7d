"""A TCP proxy on 127.0.0.1 in front of PostgreSQL's unix socket that a test can cut.

``cut()`` stops forwarding in both directions and leaves every connection open, new
ones included (they are accepted and never answered): to the agent behind it, the
database is unreachable the way a network partition makes it, without a closed socket
that would tell it so.
"""

from __future__ import annotations

import socket
import threading


class DatabaseProxy:
    def __init__(self, unix_path: str) -> None:
        self.unix_path = unix_path
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        self._cut = threading.Event()
        self._stop = threading.Event()
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        self._cut.set()

    def close(self) -> None:
        self._stop.set()
        for sock in [self._listener, *self._sockets]:
            try:
                sock.close()
            except OSError:
                pass

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self._sockets.append(client)
            if self._cut.is_set():
                continue  # accepted, never answered
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.connect(self.unix_path)
            self._sockets.append(server)
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                return
            if self._cut.is_set():
                self._stop.wait()  # swallow it: the partition has begun
                return
            try:
                target.sendall(data)
            except OSError:
                return
