"""Event subscriptions as context managers and iterators (Specs/protocol.md §Events)."""
from __future__ import annotations

import collections
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, Iterator, List, Optional

from .errors import AXConnectionError, ClientTimeout

if TYPE_CHECKING:
    from .client import Client


class Event:
    """One notification: ``name`` (e.g. ``tree.changed``), ``params`` (the whole params object), ``app``.

    ``event["revision"]`` reads a param; ``event.get(key, default)`` too.
    """

    __slots__ = ("name", "params", "received_at")

    def __init__(self, name: str, params: Dict[str, Any]) -> None:
        self.name = name
        self.params = params
        self.received_at = time.monotonic()

    @property
    def app(self) -> Optional[str]:
        """The app the event is about."""
        return self.params.get("app")

    @property
    def subscription(self) -> Any:
        """The subscription id that delivered it."""
        return self.params.get("subscription")

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def get(self, key: str, default: Any = None) -> Any:
        """A param, or ``default``."""
        return self.params.get(key, default)

    def __repr__(self) -> str:
        shown = {key: value for key, value in self.params.items() if key not in ("subscription",)}
        return "Event(%s, %r)" % (self.name, shown)


class EventStream:
    """A subscription to some events, buffered in a bounded queue.

    Use as ``with client.events("tree.changed", "focus.changed", timeout=5) as events:``; then
    ``for event in events`` yields events until ``timeout`` seconds have passed since iteration began (then the
    loop simply ends), :meth:`next` returns one event or raises :class:`ClientTimeout`, :meth:`wait_for` returns
    the first event matching a name and/or predicate, :meth:`drain` takes what is queued. The subscription ends when
    the ``with`` block does (or on :meth:`close`). When more than ``max_queue`` events are queued the oldest are
    dropped and counted in ``dropped``.
    """

    def __init__(self, client: "Client", names: List[str], app: Optional[str], timeout: float,
                 max_queue: int) -> None:
        self._client = client
        self.names = names
        self.app = app
        self.timeout = float(timeout)
        self._queue: Deque[Event] = collections.deque()
        self._max_queue = max(1, int(max_queue))
        self._cond = threading.Condition()
        self._closed_reason: Optional[str] = None
        self.dropped = 0
        self.subscription: Any = None
        self.events: List[str] = []

    # -- lifecycle ---------------------------------------------------------------------------------------------

    def open(self) -> "EventStream":
        """Subscribes (done by ``with``)."""
        if self.subscription is None:
            self.subscription = self._client._subscribe(self.names, self.app, self._sink)
        return self

    def close(self) -> None:
        """Unsubscribes; iteration stops."""
        if self.subscription is not None:
            subscription = self.subscription
            self.subscription = None
            self._client._unsubscribe(subscription)
        with self._cond:
            if self._closed_reason is None:
                self._closed_reason = "closed"
            self._cond.notify_all()

    def __enter__(self) -> "EventStream":
        return self.open()

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    # -- receiving (reader thread) -----------------------------------------------------------------------------

    def _sink(self, method: str, params: Dict[str, Any]) -> None:
        with self._cond:
            if method == "$/closed":
                self._closed_reason = "connection closed: %s" % params.get("reason", "")
            else:
                if len(self._queue) >= self._max_queue:
                    self._queue.popleft()
                    self.dropped += 1
                self._queue.append(Event(method, params))
            self._cond.notify_all()

    # -- consuming ---------------------------------------------------------------------------------------------

    def next(self, timeout: Optional[float] = None) -> Event:
        """The next event; raises :class:`ClientTimeout` after ``timeout`` seconds (default: the stream's)."""
        seconds = self.timeout if timeout is None else float(timeout)
        deadline = time.monotonic() + seconds
        event = self._next_before(deadline)
        if event is None:
            raise ClientTimeout("no event (%s) within %.2f s" % (", ".join(self.names) or "any", seconds))
        return event

    def _next_before(self, deadline: float) -> Optional[Event]:
        with self._cond:
            while not self._queue:
                if self._closed_reason is not None and self._closed_reason != "closed":
                    raise AXConnectionError(self._closed_reason)
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._closed_reason == "closed":
                    return None
                self._cond.wait(remaining)
            return self._queue.popleft()

    def __iter__(self) -> Iterator[Event]:
        deadline = time.monotonic() + self.timeout
        while True:
            event = self._next_before(deadline)
            if event is None:
                return
            yield event

    def wait_for(self, name: Optional[str] = None, predicate: Optional[Callable[[Event], bool]] = None,
                 timeout: Optional[float] = None) -> Event:
        """The first event named ``name`` (any when ``None``) for which ``predicate`` holds; skips the others.

        Raises :class:`ClientTimeout` after ``timeout`` seconds (default: the stream's).
        """
        seconds = self.timeout if timeout is None else float(timeout)
        deadline = time.monotonic() + seconds
        while True:
            event = self._next_before(deadline)
            if event is None:
                raise ClientTimeout("no %s event%s within %.2f s" % (
                    name or "matching", "" if predicate is None else " matching the predicate", seconds))
            if name is not None and event.name != name:
                continue
            if predicate is not None and not predicate(event):
                continue
            return event

    def drain(self) -> List[Event]:
        """Takes every queued event without waiting."""
        with self._cond:
            events = list(self._queue)
            self._queue.clear()
            return events
