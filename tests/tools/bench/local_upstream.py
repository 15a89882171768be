"""A tiny HTTP server on loopback for the load test's own tests: it records what it is sent
and answers as ``answer(path, headers)`` says."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = Callable[[str, dict[str, str]], tuple[int, bytes]]


@contextlib.contextmanager
def upstream(answer: Answer) -> Iterator[tuple[int, list[tuple[str, str, dict[str, str]]]]]:
    """Its port, and the (method, path, headers) of every request it got, in order."""
    seen: list[tuple[str, str, dict[str, str]]] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_one(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            headers = dict(self.headers.items())
            seen.append((self.command, self.path, headers))
            status, body = answer(self.path, headers)
            self.send_response(status)
            if status != 304:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if status != 304:
                self.wfile.write(body)

        do_GET = do_POST = handle_one

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], seen
    finally:
        server.shutdown()
        server.server_close()
