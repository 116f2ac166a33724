"""The toolkit-neutral core of a mirror adapter (Specs/adapter-kit.md): :class:`ToolkitMirror` publishes a
toolkit's widget tree into AXServer as one app and runs the server's actions on the toolkit's own thread.

A toolkit's mirror subclasses it and implements five hooks — ``build`` (walk the widgets into flat views),
``perform`` (do an action with the toolkit's own calls), ``request_jobs`` (from any thread: have the toolkit's
thread call :meth:`run_jobs` soon), ``request_flush`` (have the toolkit's thread call :meth:`idle_flush` at its
next idle moment) and ``alive`` (the root still exists). The core does the rest: the server link (register,
reconnect, reclaim the name), snapshots and diffs into patches, the focus-first order of a patch, masked text
(:func:`~axclient.kit.secure.seal` on every view before it leaves), the action queue and its answers (also when
the action destroys the root or enters a nested event loop), key forwarding and statistics. Standard library only.
"""
from __future__ import annotations

import collections
import os
import threading
import time
from typing import Any, Deque, Dict, List, Optional, Set, Tuple

from ..errors import AXError
from ..provider import ActionRequest
from .link import LEAVING, Link, warn
from .patches import TEXT_LIMIT_BYTES, diff, focus_first
from .secure import seal, types_into_secret

#: Flat views: ``props[id]`` (a view's properties without children) and ``children[parent id or None]``.
Props = Dict[str, Dict[str, Any]]
Children = Dict[Optional[str], List[str]]

#: How long an action may wait for the toolkit's loop to take it before it fails with :class:`LoopBusy`.
ACTION_START_TIMEOUT = 4.0
#: The most ops the server takes in one ``hierarchy.update`` (D-REL-5, Specs/protocol.md); a larger difference goes
#: as several patches, in order (a 21,000-item ImGui flood switched on or off was refused whole, then re-sent whole).
MAX_OPS_PER_PATCH = 10_000
#: A scheduled flush builds nothing while this many patches wait for the server's answer: a server that keeps up
#: never makes a flush wait (a flush every frame during a Kivy popup's layout, each patch answered in milliseconds:
#: with a bound of 1 the layout's last patch came a frame later and a WebDriver click right after the popup
#: appeared found its button still off screen); a stalled or slow server bounds the queue to this many.
MAX_PATCHES_IN_FLIGHT = 8
#: An action still running after this long (a modal dialog's nested event loop) is answered ``handled``.
ACTION_NESTED_GRACE = 0.5
#: How many actions may be running nested inside each other's event loops (modal dialogs opening dialogs).
MAX_NESTED_JOBS = 8


class TargetGone(AXError):
    """The action's widget was destroyed (or never existed), or the app is closing."""


class LoopBusy(AXError):
    """The toolkit's main loop did not take the action within :data:`ACTION_START_TIMEOUT` seconds."""


class _Job:
    """One ``action.perform`` on its way to the toolkit's thread."""

    def __init__(self, request: ActionRequest) -> None:
        self.request = request
        self.started = threading.Event()
        self.done = threading.Event()
        self.cancelled = False
        self.result = False
        self.error: Optional[BaseException] = None
        self.sequence = 0


class ToolkitMirror:
    """Publishes one toolkit root (its windows and their widgets) into AXServer as one app.

    ``name`` is the app's name (a second copy gets the server's ``-2``); ``address`` the server's socket (None: the
    usual lookup); ``retry_interval`` the seconds between connection attempts; ``forward_keys`` whether
    :meth:`forward_key` sends keystrokes to the server. The subclass sets up its toolkit, then calls :meth:`start`.
    """

    #: The toolkit's name in messages ("the Tk main loop is busy").
    toolkit = "toolkit"
    #: The prefix of the adapter's stderr lines (``axclient.tk: …``): the module users run.
    log_source = "axclient.kit"
    #: The shortest time between two flushes that sent a patch, in seconds (0: none). An app that changes something
    #: every frame (an animated progress bar, issue 34) then sends at most ``1 / min_flush_interval`` patches a
    #: second, each with the latest state; a flush that found nothing to send does not count (a change after it
    #: goes at once: D-KIT-PACE-1); needs :meth:`request_flush_after`.
    min_flush_interval = 0.0
    #: The shortest time between two flushes of any kind (the tree is built each time), in seconds: adapters set it
    #: from a build's cost, so building takes a bounded share of the app's time however often it is asked.
    min_build_interval = 0.0
    #: Exceptions of ``perform`` that mean "the target is gone" (answered as :class:`TargetGone`).
    target_errors: Tuple[type, ...] = (TargetGone, ValueError, KeyError)

    def __init__(self, name: str, address: Optional[str] = None, retry_interval: float = 1.0,
                 forward_keys: bool = True) -> None:
        self.name = name
        self.address = address
        self.retry_interval = retry_interval
        self.closed = False
        #: Whether the server takes ``splice`` ops, and the largest text published whole; from the server's
        #: capabilities on each connect (:meth:`use_server_limits`).
        self.splice = False
        self.text_limit = TEXT_LIMIT_BYTES
        #: Properties the server refused as unknown (an older schema): a mapping leaves them out after that.
        self.unsupported: Set[str] = set()
        #: The view that has the toolkit's focus in the tree :meth:`build` made last (None: none).
        self.focused_view: Optional[str] = None
        #: Statistics for benchmarks and tests: flushes, patches sent, ops sent, snapshots, last flush seconds.
        self.stats: Dict[str, Any] = {"flushes": 0, "patches": 0, "ops": 0, "snapshots": 0, "flush_seconds": 0.0}
        self.key_forwarding = forward_keys
        self._published: Props = {}
        self._published_children: Children = {}
        self._need_full = True
        self._dirty_generation = 0
        self._flushed_generation = -1
        self._flush_scheduled = False
        #: A scheduled flush found the server still behind (:meth:`idle_flush`); the link resumes it.
        self._flush_waits = False
        self._resume_flush = False
        self._last_flush_at = 0.0
        self._last_patch_at = 0.0
        self._sequence = 0
        self._jobs: Deque[_Job] = collections.deque()
        self._jobs_lock = threading.Lock()
        self._performing = 0
        self._running_jobs = 0
        self._leave_after_answer = False
        self._warned: Set[str] = set()
        self._link = Link(self)

    def start(self) -> None:
        """Starts the server link and schedules the first snapshot (after the subclass set up its toolkit)."""
        self._link.start()
        self.mark_dirty()

    # -- hooks a toolkit implements --------------------------------------------------------------------------------

    def build(self) -> Tuple[Props, Children]:
        """The current tree, flat (toolkit thread); sets :attr:`focused_view`."""
        raise NotImplementedError

    def perform(self, request: ActionRequest) -> bool:
        """Performs one action with the toolkit's own calls (toolkit thread); True when it was handled."""
        raise NotImplementedError

    def request_jobs(self) -> None:
        """From any thread: makes the toolkit's thread call :meth:`run_jobs` soon (a wake-up, never a poll)."""
        raise NotImplementedError

    def request_flush(self) -> bool:
        """Makes the toolkit's thread call :meth:`idle_flush` at its next idle moment; False when it cannot."""
        raise NotImplementedError

    def request_flush_after(self, seconds: float) -> bool:
        """Makes the toolkit's thread call :meth:`idle_flush` in ``seconds`` (a toolkit timer), for
        :attr:`min_flush_interval`. Default: at the next idle moment (no rate limit)."""
        return self.request_flush()

    def alive(self) -> bool:
        """True while the root exists (toolkit thread)."""
        return not self.closed

    def wait_for_layout(self) -> bool:
        """True to skip this flush because the toolkit has laid nothing out yet (the hook then asks for a later
        flush itself). Default: never."""
        return False

    def release(self) -> None:
        """Frees the toolkit's resources the mirror holds (wake-up handlers, pending timers); from :meth:`close`."""

    def take_focus(self, view: Dict[str, Any], view_id: Optional[str] = None) -> None:
        """Focus bookkeeping for :meth:`build`: ``view`` (id ``view_id``, default its ``id``) has the toolkit's
        focus — ``isFocused`` on it and :attr:`focused_view`. The diff then moves the focus in one patch (the old
        view's ``isFocused`` is dropped, not set false, C35) and sends the new focus's caret after it
        (:func:`~axclient.kit.patches.focus_first`), so a screen reader hears the field before its selection."""
        view["isFocused"] = True
        self.focused_view = view_id if view_id is not None else view.get("id")

    # -- dirtiness and publishing ----------------------------------------------------------------------------------

    def mark_dirty(self) -> None:
        """Something changed: one flush at the toolkit's next idle moment (however many changes come before)."""
        self._dirty_generation += 1
        if self._flush_scheduled or self.closed:
            return
        self._flush_scheduled = True
        wait = max(self._last_flush_at + self.min_build_interval,
                   self._last_patch_at + self.min_flush_interval) - time.monotonic()
        if not (self.request_flush_after(wait) if wait > 0 else self.request_flush()):
            self._flush_scheduled = False

    def idle_flush(self) -> None:
        """The scheduled flush (toolkit thread): never raises into the toolkit's event loop. While
        :data:`MAX_PATCHES_IN_FLIGHT` patches wait for the server's answer, nothing is built: the changes wait
        (still marked) and go as one difference once the link caught up (:meth:`link_caught_up`), so a server slower
        than the app bounds the queue instead of growing it (an ImGui flood: 20,000 ops a flush, 2-5 s a patch on a
        debug server before D-REL-5 round 2)."""
        self._flush_scheduled = False
        if self._flushed_generation == self._dirty_generation and not self._need_full:
            return  # an action's flush already covered every change
        self._flush_waits = True  # before the check: the link clears it once it caught up (no lost wake-up)
        if self._link.connected and self._sequence - self._link.sent >= MAX_PATCHES_IN_FLIGHT:
            return
        self._flush_waits = False
        try:
            self.flush()
        except BaseException as error:  # noqa: BLE001 — never break the app's event loop
            self.warn_once("flush", "could not mirror the tree: %s: %s" % (type(error).__name__, error))

    def link_caught_up(self) -> None:
        """The link's thread had an answer: a flush that waited for the queue to shrink is scheduled again."""
        if self._flush_waits and self._sequence - self._link.sent < MAX_PATCHES_IN_FLIGHT:
            self._flush_waits = False
            self._resume_flush = True
            self.request_jobs()  # thread-safe in every toolkit; run_jobs marks the mirror dirty

    def flush(self) -> None:
        """Builds the tree now and queues the difference to what was published (or a snapshot after a
        (re)connect). Toolkit thread only."""
        if self.closed or not self._link.connected or self._link.hold_until > time.monotonic():
            self._need_full = True  # (backing off after a refused snapshot: nothing is built meanwhile)
            return
        started = time.perf_counter()
        self._last_flush_at = time.monotonic()
        self._flushed_generation = self._dirty_generation
        if not self.alive():
            return
        if self.wait_for_layout():
            self._flushed_generation = -1
            return
        props, children = self.build()
        if seal(props):
            self.warn_once("seal", "a secure text field carried its text; it was masked before leaving")
        if self._need_full:
            self._need_full = False
            self._send(("set", [rebuild(wid, props, children) for wid in children.get(None, [])]))
            self.stats["snapshots"] += 1
            self._last_patch_at = self._last_flush_at
        else:
            focused = self.focused_view
            if self._send_ops(diff(self._published, self._published_children, props, children, rebuild, focused,
                                   self.splice), focused):
                self._last_patch_at = self._last_flush_at
        self._published, self._published_children = props, children
        self.stats["flushes"] += 1
        self.stats["flush_seconds"] = time.perf_counter() - started
        if self._link.debug:
            warn("%.3f flush %d: %d views in %.1f ms" % (time.time(), self.stats["flushes"], len(props),
                                                        self.stats["flush_seconds"] * 1000), self.log_source)

    def _send(self, item: Tuple[str, Any]) -> None:
        self._sequence += 1
        self._link.send((item[0], item[1], self._sequence))

    def _send_ops(self, ops: List[Dict[str, Any]], focused: Optional[str]) -> int:
        """Queues one flush's ops: when the focus moved, the new focus's caret in a patch after
        (:func:`focus_first`). Returns the number of patches queued."""
        focus_moves = focused is not None and not self._published.get(focused, {}).get("isFocused")
        sent = 0
        for batch in focus_first(ops, focused) if focus_moves else [ops]:
            for start in range(0, len(batch), MAX_OPS_PER_PATCH):
                part = batch[start:start + MAX_OPS_PER_PATCH]
                self._send(("ops", part))
                self.stats["patches"] += 1
                self.stats["ops"] += len(part)
                sent += 1
        return sent

    def resync(self) -> None:
        """Asks for a full snapshot at the next flush (the link calls it after a (re)connect or a refused patch)."""
        self._need_full = True
        self.request_jobs()

    def use_server_limits(self, capabilities: Any) -> None:
        """Reads the server's ``initialize`` capabilities (link thread, before the resync snapshot): a server with
        the ``splice`` op takes whole texts up to ``maxTextContentBytes`` and edits as splices (D-TEXT-SPLICE-1)."""
        if os.environ.get("AXCLIENT_TK_SPLICE", "1") in ("0", "no", "false"):
            capabilities = None  # the 60,000-byte window, as with a server before D-TEXT-SPLICE-1
        ops = capabilities.get("patchOps") if isinstance(capabilities, dict) else None
        limit = capabilities.get("maxTextContentBytes") if isinstance(capabilities, dict) else None
        if isinstance(ops, list) and "splice" in ops and isinstance(limit, int) and limit > TEXT_LIMIT_BYTES:
            self.splice, self.text_limit = True, limit - 1024
        else:
            self.splice, self.text_limit = False, TEXT_LIMIT_BYTES

    # -- actions ---------------------------------------------------------------------------------------------------

    @property
    def performing(self) -> bool:
        """True while an action runs on the toolkit's thread (its own keys and changes are not the user's)."""
        return self._performing > 0

    def handle_action(self, request: ActionRequest) -> bool:
        """``on_action`` (a connection worker thread): runs the action on the toolkit's thread and answers once the
        tree shows its effect. An action that enters a nested event loop (a modal dialog) is answered ``handled``
        after :data:`ACTION_NESTED_GRACE` s; a loop busy for :data:`ACTION_START_TIMEOUT` s fails with
        :class:`LoopBusy` and the action is never performed later."""
        if self.closed:
            raise TargetGone("the %s app is closing" % self.toolkit)
        job = _Job(request)
        with self._jobs_lock:
            self._jobs.append(job)
        self.request_jobs()
        if not job.started.wait(ACTION_START_TIMEOUT) and self._cancel(job):
            raise self.busy_error("the %s main loop is busy (no event processed for %.0f s); the action was not "
                                  "performed" % (self.toolkit, ACTION_START_TIMEOUT))
        if not job.done.wait(ACTION_NESTED_GRACE):
            return True
        if job.error is not None:
            if isinstance(job.error, self.target_errors):
                raise TargetGone(str(job.error)) from job.error
            raise job.error
        self._link.wait_sent(job.sequence, 3.0)
        return job.result

    #: The error class of a busy loop (a toolkit may name its own subclass).
    busy_error = LoopBusy

    def _cancel(self, job: _Job) -> bool:
        """Cancels a job that has not started; False when it started meanwhile."""
        with self._jobs_lock:
            if not job.started.is_set():
                job.cancelled = True
        return job.cancelled

    def run_jobs(self) -> None:
        """Runs the queued actions (toolkit thread, from :meth:`request_jobs`'s wake-up). Actions queued while one
        runs a nested event loop (IDLE's Settings dialog) run inside that loop, up to :data:`MAX_NESTED_JOBS`."""
        if (self._need_full or self._resume_flush) and self._link.connected:
            self._resume_flush = False
            self.mark_dirty()
        if self._running_jobs >= MAX_NESTED_JOBS:
            return
        self._running_jobs += 1
        try:
            while self._run_next_job():
                pass
        finally:
            self._running_jobs -= 1
            with self._jobs_lock:
                more = bool(self._jobs)
            if more:
                self.request_jobs()

    def _next_job(self) -> Optional[_Job]:
        with self._jobs_lock:
            while self._jobs:
                job = self._jobs.popleft()
                if not job.cancelled:
                    job.started.set()
                    return job
        return None

    def _run_next_job(self) -> bool:
        job = self._next_job()
        if job is None:
            return False
        self._performing += 1
        try:
            job.result = bool(self.perform(job.request))
        except BaseException as error:  # noqa: BLE001 — the app must never die of an action
            job.error = error
        finally:
            self._performing -= 1
            self._finish(job)
        return True

    def _finish(self, job: _Job) -> None:
        """Publishes the action's effect, then answers it; leaves the server after it when the root went."""
        try:
            self.flush()
        except BaseException as error:  # noqa: BLE001
            self.warn_once("flush", "could not mirror the tree: %s" % error)
        job.sequence = self._sequence
        job.done.set()
        if self._leave_after_answer and not self._performing:
            self._leave_after_answer = False
            self._link.stop_after_answers()

    # -- keys ------------------------------------------------------------------------------------------------------

    def forward_key(self, keysym: str, modifiers: List[str], phase: str, char: str = "",
                    into_masked: bool = False) -> bool:
        """Sends the app's own keystroke to the server (``input.key``, synchronously as atk-bridge does) before the
        toolkit handles it; True when an assistive technology consumed it (the toolkit must then drop the key).
        Not forwarded: keys of the mirror's own actions, keys while disconnected or with forwarding off, and a key
        that types ``char`` into a masked field (``into_masked``): the keystrokes would spell the secret."""
        self.mark_dirty()
        if self._performing or not self.key_forwarding or not self._link.connected or not keysym:
            return False
        if types_into_secret(char, modifiers, into_masked):
            return False
        return self._link.forward_key(keysym, modifiers, phase)

    # -- life ------------------------------------------------------------------------------------------------------

    def warn_once(self, key: str, message: str) -> None:
        """A stderr message, once per ``key``."""
        if key not in self._warned:
            self._warned.add(key)
            warn(message, self.log_source)

    @property
    def app_id(self) -> Optional[str]:
        """The app id the server gave (None until connected)."""
        return self._link.app_id

    @property
    def connected(self) -> bool:
        """True while registered with a server."""
        return self._link.connected

    def wait_connected(self, timeout: float = 10.0) -> bool:
        """Blocks (not on the toolkit's thread!) until connected."""
        return self._link.connected_event.wait(timeout)

    def close(self) -> None:
        """Stops mirroring: the app leaves the server (after answering the action that closed it, if any); the
        toolkit keeps running; queued actions fail with :class:`TargetGone`."""
        if self.closed:
            return
        self.closed = True
        self.release()
        LEAVING[self.name] = self._link.left
        if self._performing:
            # Closed inside an action (its callback destroyed the root: Thonny's first-run "Let's go!"): answer
            # the action first, then leave (_finish), so the client hears what happened.
            self._leave_after_answer = True
        else:
            self._link.stop()
        with self._jobs_lock:
            jobs = list(self._jobs)
            self._jobs.clear()
        for job in jobs:
            job.error = TargetGone("the %s app closed" % self.toolkit)
            job.started.set()
            job.done.set()


def rebuild(view_id: str, props: Props, children: Children) -> Dict[str, Any]:
    """The nested view (``children`` lists) of ``view_id`` from flat views, as snapshots and inserts carry it."""
    node = dict(props[view_id])
    kids = children.get(view_id)
    if kids:
        node["children"] = [rebuild(kid, props, children) for kid in kids]
    return node


def part_id(owner: str, part: str) -> str:
    """The stable id of a part of a widget that is no widget itself (a menu entry, a row, a tab, a heading):
    ``<owner id>@<part>`` — a part keeps its id while its owner and its own key (not its position) stay."""
    return "%s@%s" % (owner, part)
