"""gunicorn's sync worker, which reads what is left of a request before it closes.

Closing a socket with unread bytes sends a reset: nginx, still writing the body, answers 502
and takes the app server out. So this worker stops writing, then drops what the peer still
sends until it closes, ``DRAIN_BYTES`` or ``DRAIN_SECONDS``. ``gunicorn.conf.py`` names it.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from gunicorn.workers.sync import SyncWorker

#: More than nginx's ``client_max_body_size`` (9 MB, docs/operations.md): any body nginx lets
#: through is read to its end.
DRAIN_BYTES = 16 * 1024 * 1024
#: A proxy that holds the body sends it at once; a client that trickles is cut off.
DRAIN_SECONDS = 3.0


def drain(sock: socket.socket, limit: int = DRAIN_BYTES, seconds: float = DRAIN_SECONDS) -> int:
    """Half-close ``sock`` and read until the peer closes (or the limits): the bytes read."""
    try:
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        return 0  # not connected any more: nothing to drain
    deadline = time.monotonic() + seconds
    read = 0
    while read < limit:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            sock.settimeout(left)
            chunk = sock.recv(65536)
        except OSError:  # a timeout or a reset: give up, close
            break
        if not chunk:
            break
        read += len(chunk)
    return read


class DrainingSocket(socket.socket):
    """An accepted connection that drains what is left of the request when it is closed."""

    def close(self) -> None:
        if self.fileno() != -1:
            drain(self)
        super().close()


class DrainingSyncWorker(SyncWorker):
    """gunicorn's sync worker; each connection it accepts is closed by draining it first."""

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        adopted = DrainingSocket(client.family, client.type, client.proto, fileno=client.detach())
        super().handle(listener, adopted, addr)
