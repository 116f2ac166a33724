"""The server connection of a mirror adapter (Specs/tk-adapter.md §Adapter kit): its own thread connects and
reconnects, registers the app, sends snapshots and patches in order, backs off after a refused or lost snapshot,
and leaves after the last action's answer. Toolkit-neutral: the mirror it serves provides ``name``, ``address``,
``retry_interval``, ``handle_action(request)``, ``unsupported`` (a set), ``resync()``, ``link_caught_up()`` and
``use_server_limits(capabilities)``. Standard library only."""
from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from ..errors import AXConnectionError, AXError, RPCError
from ..methods import Method
from ..provider import Provider
from .patches import unknown_optional_property


def warn(message: str, source: str = "axclient.tk") -> None:
    """One line on stderr, prefixed with the adapter's name users know (``axclient.tk:``)."""
    try:
        sys.stderr.write("%s: %s\n" % (source, message))
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


#: A refused or lost snapshot waits this long before the next, doubling up to the maximum (§Failures).
SNAPSHOT_BACKOFF_FIRST = 0.5
SNAPSHOT_BACKOFF_MAX = 30.0
#: Mirrors of this process that are leaving the server, by app name: a new root of the same app (Thonny destroys its
#: first-run root and creates another) registers after the old one left, so it gets the name back, not ``name-2``.
LEAVING: Dict[str, threading.Event] = {}
LEAVE_WAIT = 3.0


class Link(threading.Thread):
    """The server connection: connects (and reconnects), registers the app, sends snapshots and patches in order."""

    def __init__(self, mirror: Any) -> None:
        super().__init__(name="axclient.tk-link", daemon=True)
        self.mirror = mirror
        self.provider: Optional[Provider] = None
        self.connected = False
        self.connected_event = threading.Event()
        self.app_id: Optional[str] = None
        self.outbox: "queue.Queue[Any]" = queue.Queue()
        self.sent = 0
        self.sent_lock = threading.Condition()
        self.stopping = False
        #: Set once this link left the server (after :meth:`stop`).
        self.left = threading.Event()
        #: Snapshots refused or lost in a row, and when the next may go (§Failures: exponential, bounded).
        self.snapshot_failures = 0
        self.hold_until = 0.0
        self._pause = threading.Event()
        self._down_reported = False
        #: After a refused patch, the patches queued behind it describe changes from a state the server does not
        #: have: they are dropped until the whole tree (the resync's snapshot) goes. Each of them was refused
        #: before, and each refusal asked for another whole tree (an ImGui flood: 2.8 MB snapshots back to back).
        self.stale_patches = False
        #: ``AXCLIENT_TK_DEBUG=1``: one stderr line per snapshot or patch sent (kind, size) — for measurements.
        self.debug = os.environ.get("AXCLIENT_TK_DEBUG", "") not in ("", "0")

    def _warn(self, message: str) -> None:
        warn(message, getattr(self.mirror, "log_source", "axclient.tk"))

    def run(self) -> None:
        leaving = LEAVING.get(self.mirror.name)
        if leaving is not None and leaving is not self.left:
            leaving.wait(LEAVE_WAIT)  # the app's previous root is still answering its last action
        try:
            self._run()
        finally:
            self.left.set()

    def _run(self) -> None:
        while not self.stopping:
            if self._hold():
                continue
            if self.provider is None or self.provider.client.closed:
                if self.provider is not None:
                    self._lost("the connection to AXServer closed")
                if not self._connect():
                    time.sleep(self.mirror.retry_interval)
                    continue
            try:
                item = self.outbox.get(timeout=0.5)
            except queue.Empty:
                continue
            if item is None:
                break
            kind, payload, sequence = item
            provider = self.provider
            if kind == "set":
                self.stale_patches = False
            if provider is not None and not (kind == "ops" and self.stale_patches):
                self._publish(provider, kind, payload)
            self._mark_sent(sequence)
            self.mirror.link_caught_up()
        self._close_provider()

    def _publish(self, provider: Provider, kind: str, payload: Any) -> None:
        """Sends one snapshot (``set``) or patch (``ops``); a refusal or a lost connection is handled here."""
        try:
            if self.debug:
                text = json.dumps(payload)
                self._warn("%.3f send %s: %d %s, %d bytes%s" % (time.time(), kind, len(payload),
                                                                "windows" if kind == "set" else "ops", len(text),
                                                                (": " + text) if len(text) < 16000 else ""))
            sending = time.perf_counter()
            if kind == "set":
                provider.set_hierarchy(payload)
                self.snapshot_failures = 0
            else:
                provider.update(payload)
            if self.debug:
                self._warn("%.3f answered %s in %.1f ms" % (time.time(), kind,
                                                             (time.perf_counter() - sending) * 1000))
        except AXConnectionError:
            if kind == "set":
                self._snapshot_failed("the connection closed while a snapshot was sent")
            self._lost("the connection to AXServer closed")
        except RPCError as error:
            self._refused(kind, error)
        except Exception as error:  # noqa: BLE001
            self._warn("could not publish: %s: %s" % (type(error).__name__, error))

    def _refused(self, kind: str, error: RPCError) -> None:
        self.stale_patches = True  # until the next whole tree goes
        unknown = unknown_optional_property(str(error))
        if unknown is not None:
            if self.debug:
                self._warn("the server does not know '%s' (an older schema); publishing without it" % unknown)
            self.mirror.unsupported.add(unknown)
        elif kind == "set":
            self._snapshot_failed("the server refused the snapshot (%s)" % error)
        else:
            self._warn("the server refused a patch (%s); re-publishing the whole tree" % error)
        if kind == "ops" or unknown is not None:
            self.mirror.resync()

    def _snapshot_failed(self, why: str) -> None:
        """A snapshot did not arrive: the next waits 0.5 s, 1 s, 2 s … at most 30 s (not 4 a second)."""
        self.snapshot_failures += 1
        delay = min(SNAPSHOT_BACKOFF_MAX, SNAPSHOT_BACKOFF_FIRST * 2 ** min(self.snapshot_failures - 1, 16))
        self.hold_until = time.monotonic() + delay
        self._warn("%s; the next snapshot in %.1f s (attempt %d)" % (why, delay, self.snapshot_failures + 1))

    def _hold(self) -> bool:
        """Waits out a backoff (woken by :meth:`stop`); after it, asks for the snapshot again. True when it
        waited (the caller re-checks ``stopping``)."""
        remaining = self.hold_until - time.monotonic()
        if remaining <= 0:
            return False
        self._pause.wait(remaining)
        if time.monotonic() >= self.hold_until and not self.stopping:
            self.hold_until = 0.0
            if self.connected:
                self.mirror.resync()
        return True

    def _connect(self) -> bool:
        try:
            provider = Provider(self.mirror.name, self.mirror.address, on_action=self.mirror.handle_action,
                                connect_timeout=3.0, call_timeout=10.0)
        except AXError as error:
            if not self._down_reported:
                self._down_reported = True
                self._warn("%s; the app runs without a mirror and retries every %.0f s"
                     % (error, self.mirror.retry_interval))
            return False
        except Exception as error:  # noqa: BLE001
            if not self._down_reported:
                self._down_reported = True
                self._warn("cannot connect: %s: %s" % (type(error).__name__, error))
            return False
        if self.stopping:
            provider.close()
            return False
        if self._down_reported:
            self._warn("connected to AXServer at %s as %r" % (provider.client.address, provider.app))
        self._down_reported = False
        while True:
            try:
                self.outbox.get_nowait()
            except queue.Empty:
                break
        self.provider = provider
        self.app_id = provider.app
        self.mirror.use_server_limits((provider.client.server or {}).get("capabilities"))
        self.connected = True
        self.connected_event.set()
        self.mirror.resync()
        return True

    def _lost(self, why: str) -> None:
        if self.connected:
            self._warn("%s; reconnecting" % why)
        self.connected = False
        self.connected_event.clear()
        self._close_provider()

    def _close_provider(self) -> None:
        provider, self.provider = self.provider, None
        if provider is not None:
            try:
                provider.close()
            except Exception:  # noqa: BLE001
                pass

    def _mark_sent(self, sequence: int) -> None:
        with self.sent_lock:
            self.sent = max(self.sent, sequence)
            self.sent_lock.notify_all()

    def send(self, item: Tuple[str, Any, int]) -> None:
        """Queues a snapshot or patch (Tk thread)."""
        self.outbox.put(item)

    def wait_sent(self, sequence: int, timeout: float) -> bool:
        """Waits until everything up to ``sequence`` was sent and answered."""
        deadline = time.monotonic() + timeout
        with self.sent_lock:
            while self.sent < sequence and self.connected:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self.sent_lock.wait(remaining)
        return True

    def forward_key(self, keysym: str, modifiers: List[str], phase: str) -> bool:
        """``input.key`` for the app's own keystroke (Tk thread, synchronous as atk-bridge): True when an AT
        consumed it."""
        provider = self.provider
        if provider is None:
            return False
        try:
            result = provider.client.call(Method.INPUT_KEY, {"key": keysym, "modifiers": modifiers, "phase": phase},
                                          timeout=3.5)
        except RPCError as error:
            if getattr(error, "code", None) == -32017:
                return True  # the focused element is denied by guided access (D-GA-KEY-1): the key is dropped
            return False  # e.g. −32602, a keysym the server does not know (D-KEY-1): the toolkit handles it
        except AXError:
            return False
        return bool(isinstance(result, dict) and result.get("consumed"))

    def stop(self) -> None:
        """Ends the link; the app leaves the server."""
        self.stopping = True
        self._pause.set()
        self.outbox.put(None)
        self._close_provider()
        self.connected = False
        if not self.is_alive():
            self.left.set()

    def stop_after_answers(self) -> None:
        """Ends the link once the actions the server sent so far were answered (the app closed inside one)."""
        provider = self.provider
        if provider is None or provider.client.closed:
            self.stop()
            return
        provider.client.after_requests(self.stop)
