"""The app server's worker reads what is left of a request before it closes: the proxy, still
sending a big body, gets the answer, not a reset it would count as the server's failure."""

from __future__ import annotations

import runpy
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from gunicorn.util import load_class

from scorekeeper.server.gunicorn_worker import DrainingSocket, DrainingSyncWorker

BODY = b"x" * 8_000_000


def proxy_sending_a_big_body(adopt: Callable[[socket.socket], socket.socket]) -> str:
    """A server that reads a request's first bytes, answers and closes, while its peer
    (nginx, say) writes an 8 MB body: what the peer got ("answered" or the error)."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        peer = socket.create_connection(listener.getsockname(), timeout=10)
        accepted, _address = listener.accept()
        server = adopt(accepted)

        def answer() -> None:
            server.recv(100)
            server.sendall(b"HTTP/1.0 414 URI Too Long\r\n\r\n")
            server.close()

        answering = threading.Thread(target=answer)
        answering.start()
        try:
            peer.sendall(BODY)
            peer.shutdown(socket.SHUT_WR)
            received = b""
            while chunk := peer.recv(65536):
                received += chunk
        except OSError as error:
            return type(error).__name__
        finally:
            answering.join(10)
            peer.close()
    return "answered" if received.startswith(b"HTTP/1.0 414") else repr(received[:50])


def test_a_plain_socket_closed_with_a_body_unread_resets_the_proxy() -> None:
    assert proxy_sending_a_big_body(lambda accepted: accepted) != "answered"


def test_the_worker_s_socket_reads_the_body_to_its_end_and_the_proxy_gets_the_answer() -> None:
    def adopt(accepted: socket.socket) -> socket.socket:
        return DrainingSocket(
            accepted.family, accepted.type, accepted.proto, fileno=accepted.detach()
        )

    assert proxy_sending_a_big_body(adopt) == "answered"


def test_gunicorn_conf_names_the_draining_worker() -> None:
    conf = runpy.run_path(str(Path(settings.BASE_DIR) / "gunicorn.conf.py"))
    assert load_class(conf["worker_class"]) is DrainingSyncWorker
    assert conf["limit_request_line"] == conf["limit_request_field_size"] == 8190
