"""One connection to the broker on a hot path: several commands written at once, their replies
read in order, with nothing else in between.

A redis-py client call costs more than the command itself: a connection taken from and given
back to the pool, a health check and a ``poll`` before each command, the pid compared, the reply
converted. :class:`Wire` keeps one connection of a client (its URL, TLS, credentials and the
``hiredis`` parser) and writes the commands of one round trip in one ``send``. Replies are raw
(bytes, lists, integers). An error reply is read like any other, so the connection stays in step;
the first one is raised once every reply was read. Any other failure closes the connection (the
next call opens it again) and is raised as the ``redis`` exception it is.
"""

from __future__ import annotations

import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Wire", "entries"]


class Wire:
    """A connection of ``client`` for one thread at a time (calls are serialised)."""

    __slots__ = ("client", "connection", "lock")

    def __init__(self, client: Any) -> None:
        self.client = client
        self.connection: Any = None
        self.lock = threading.Lock()

    def call(self, *commands: tuple[Any, ...]) -> list[Any]:
        """The replies to ``commands``, sent in one write. Raises ``redis.RedisError``."""
        import redis

        with self.lock:
            connection = self.connection
            if connection is None:
                connection = self.connection = self.client.connection_pool.make_connection()
            try:
                connection.send_packed_command(connection.pack_commands(commands),
                                               check_health=False)  # fmt: skip
                replies: list[Any] = []
                error: redis.ResponseError | None = None
                for _ in commands:
                    try:
                        replies.append(connection.read_response())
                    except redis.ResponseError as exc:  # read whole: the connection is in step
                        replies.append(exc)
                        error = error or exc
            except BaseException:
                connection.disconnect()
                raise
        if error is not None:
            raise error
        return replies

    def close(self) -> None:
        with self.lock:
            if self.connection is not None:
                self.connection.disconnect()
                self.connection = None


def entries(reply: Any) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """The entries of a raw ``XREAD``/``XREADGROUP`` reply, each with its fields as a mapping;
    ``[]`` for none (``nil``; an entry deleted since, whose fields are nil, is left out)."""
    out: list[tuple[bytes, dict[bytes, bytes]]] = []
    streams = reply.values() if isinstance(reply, dict) else (s[1] for s in reply or ())
    for found in streams:  # a map of streams (RESP3), or a list of [stream, entries] (RESP2)
        for entry_id, flat in found:
            if flat:
                out.append((entry_id, dict(zip(flat[::2], flat[1::2], strict=True))))
    return out
