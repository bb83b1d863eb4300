"""LISTEN on a connection of its own: what other processes announce with NOTIFY.

    listener = Listener(url, "design_agent_turns", on_message, on_reconnect)
    listener.start()    # a daemon thread; listener.stop() ends it
    listener.ready.wait(5)

The connection is not the pool's (a LISTEN holds its connection for as long as it
listens, and a pool's must come back); it is made when the thread starts, and made again,
after a pause, when it is lost. Notifications sent while it was gone are lost with it:
`on_reconnect` is then called, so the caller reads again what it follows.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import psycopg
from psycopg import sql

from design_agent.memory.url import DatabaseUrl

POLL_SECONDS = 0.5  # how often the thread looks whether it should stop
RETRY_SECONDS = 1.0
log = logging.getLogger("design_agent.server")


class Listener:
    """One thread, one connection, one channel (see the module docstring)."""

    def __init__(
        self,
        url: DatabaseUrl,
        channel: str,
        on_message: Callable[[str], None],
        on_reconnect: Callable[[], None] | None = None,
    ) -> None:
        self.url, self.channel = url, channel
        self.on_message, self.on_reconnect = on_message, on_reconnect
        self.ready = threading.Event()  # set once it listens (again after a reconnect)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"listen-{channel}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, wait: float = 2.0) -> None:
        self._stop.set()
        self._thread.join(wait)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self.url.conninfo, autocommit=True, application_name="design-agent listen"
                ) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.ready.set()
                    if not first and self.on_reconnect is not None:
                        self.on_reconnect()
                    first = False
                    self._listen(conn)
            except psycopg.Error as e:
                self.ready.clear()
                log.warning("listening on %s: %s; again in %.0f s", self.channel, e, RETRY_SECONDS)
                self._stop.wait(RETRY_SECONDS)

    def _listen(self, conn: psycopg.Connection[tuple[object, ...]]) -> None:
        while not self._stop.is_set():
            for notice in conn.notifies(timeout=POLL_SECONDS):
                try:
                    self.on_message(notice.payload)
                except Exception:  # one bad message must not end the listening
                    log.exception("handling %r on %s", notice.payload, self.channel)
