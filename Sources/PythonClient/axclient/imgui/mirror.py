"""The Dear ImGui (imgui_bundle) mirror: a mapping on the adapter kit (Specs/imgui-adapter.md).

Frames: :meth:`ImGuiMirror.frame_start` runs before the app's gui function each frame (queued actions, the
decision to record), :meth:`ImGuiMirror.frame_end` after it (recording ends; a frame that submitted something
different marks the mirror dirty; the flush — coalesced to ``min_flush_interval`` — runs here, at the end of the
frame, the immediate-mode idle moment). Only every ``record_interval`` seconds is a frame recorded (or at once when
an action or an input event is pending), so a frame that is not recorded costs nothing (D-IMGUI-FRAME-1).
Standard library only; ``imgui_bundle`` is imported by the caller.
"""
from __future__ import annotations

import time
from typing import Any, Dict, List, Optional, Tuple

from ..errors import InvalidArgument
from ..kit import StableIds, TargetGone, ToolkitMirror
from ..provider import ActionRequest
from . import mapping
from .record import Item, Recorder

#: After this many distinct keys, keys not seen in the last recorded frame are forgotten (bounded memory).
MAX_KEYS = 50000
#: How many recorded frames after an action's injection the action is answered (its effect shown everywhere).
ANSWER_AFTER_FRAMES = 2
#: A frame loop silent for this long is reported stalled (one stderr line).
STALL_SECONDS = 2.0


class ImGuiMirror(ToolkitMirror):
    """Publishes an imgui_bundle app's frames into AXServer as one app."""

    toolkit = "Dear ImGui"
    log_source = "axclient.imgui"
    min_flush_interval = 0.05
    #: Seconds between two recorded frames while frames change (the latency of a change the app makes on its own,
    #: e.g. a timer); each recorded frame identical to the one before doubles it up to :attr:`idle_record_interval`;
    #: input (keys, mouse), an action or a changed frame brings it back (D-IMGUI-FRAME-1).
    record_interval = 0.03
    idle_record_interval = 0.24

    def __init__(self, imgui: Any, name: str, address: Optional[str] = None, title: str = "",
                 waker: Any = None) -> None:
        super().__init__(name, address)
        self.imgui = imgui
        self.title = title
        self.recorder = Recorder(imgui)
        mapping.PASSWORD_FLAG = int(imgui.InputTextFlags_.password)
        mapping.READ_ONLY_FLAG = int(imgui.InputTextFlags_.read_only)
        self.ids = StableIds()
        self.waker = waker
        self.items: List[Item] = []
        self.nav_id = 0
        self.display = (0.0, 0.0)
        self.frame_count = 0
        self.stats.update({"recorded": 0, "frames": 0})
        self._recording = False
        self._last_recorded = 0.0
        self._interval = self.record_interval
        self.input_seen = False
        self._flush_wanted = False
        self._flush_due = 0.0
        self._jobs_wanted = False
        self._deferred: List[Tuple[Any, int]] = []
        self._job_keys: Dict[int, Any] = {}
        self._last_key: Any = None
        self._views: Dict[str, Tuple[Item, Any]] = {}
        self._cache: Dict[Any, Tuple[Any, Dict[str, Any]]] = {}
        self._last_frame_at = time.monotonic()
        self._stall_reported = False
        self.start()

    # -- frames ------------------------------------------------------------------------------------------------

    def frame_start(self) -> None:
        """Before the app's gui function: queued actions, then whether this frame is recorded."""
        now = time.monotonic()
        if now - self._last_frame_at > STALL_SECONDS and self.frame_count:
            self.warn_once("stall", "the ImGui frame loop was stalled for %.1f s; actions wait for the next frame"
                           % (now - self._last_frame_at))
        self._last_frame_at = now
        self.frame_count += 1
        self.stats["frames"] += 1
        if self._jobs_wanted:
            self._jobs_wanted = False
            self.run_jobs()
        if self._has_input():
            self._interval = self.record_interval
        if self.recorder.pending or self._deferred or now - self._last_recorded >= self._interval:
            self._recording = True
            self._last_recorded = now
            self.recorder.begin_frame()

    def frame_end(self) -> None:
        """After the app's gui function (before ImGui renders): the recorded frame becomes the tree."""
        if self._recording:
            self._recording = False
            items = self.recorder.end_frame()
            if self.recorder.overflowed:
                self.warn_once("overflow", "a frame submitted more than %d items; the rest is not mirrored"
                               % len(items))
            self.stats["recorded"] += 1
            self._take_frame(items)
            self._answer_deferred()
        if self._flush_wanted and time.monotonic() >= self._flush_due:
            self._flush_wanted = False
            started = time.perf_counter()
            self.idle_flush()
            # A frame of 20,000 changing items costs a flush of ~100 ms: the mirror takes at most a tenth of the
            # app's time (and of the GIL its threads share), however much changes (bounded patch rate).
            self.min_build_interval = 10 * (time.perf_counter() - started)

    def _take_frame(self, items: List[Item]) -> None:
        imgui = self.imgui
        nav_id = imgui.get_current_context().nav_id
        size = imgui.get_io().display_size
        display = (size.x, size.y)
        if items != self.items or nav_id != self.nav_id or display != self.display:
            self.items, self.nav_id, self.display = items, nav_id, display
            self._interval = self.record_interval
            self.mark_dirty()
        else:
            self._interval = min(self._interval * 2, self.idle_record_interval)

    def _has_input(self) -> bool:
        """True when this frame has input events (ImGui's queue, filled by the backend before NewFrame, or the
        trail NewFrame processed) or a key went through the adapter's callback."""
        seen, self.input_seen = self.input_seen, False
        if seen:
            return True
        context = self.imgui.get_current_context()  # before NewFrame: the queue; after it (a gui function): the trail
        return context.input_events_queue.size() > 0 or context.input_events_trail.size() > 0

    def _answer_deferred(self) -> None:
        """Answers the actions whose injection ran ``ANSWER_AFTER_FRAMES`` recorded frames ago."""
        if not self._deferred:
            return
        waiting = []
        for job, frames in self._deferred:
            if frames > 1:
                waiting.append((job, frames - 1))
                continue
            key = self._job_keys.pop(id(job), None)
            if key is not None and self.recorder.pending.pop(key, None) is not None:
                job.error = TargetGone("the ImGui item %r was not submitted in the frames after the action "
                                       "(it is gone); the action was not performed" % job.request.target)
            ToolkitMirror._finish(self, job)
        self._deferred = waiting
        if waiting:
            self._wake()

    def _finish(self, job: Any) -> None:
        """An action's answer waits for the frames that show its effect (immediate mode: the injection runs in
        the next frame, the app's state shows in the frame after)."""
        self._deferred.append((job, ANSWER_AFTER_FRAMES))
        self._job_keys[id(job)] = self._last_key
        self._last_key = None
        self._wake()

    def close(self) -> None:
        """The app's run ended: actions whose injection ran are answered first, then the app leaves."""
        deferred, self._deferred = self._deferred, []
        if not deferred:
            super().close()
            return
        self._performing += 1  # the kit's "closed inside an action" path: answer, then leave
        try:
            super().close()
        finally:
            self._performing -= 1
        for job, _ in deferred:
            job.done.set()
        self._leave_after_answer = False
        self._link.stop_after_answers()

    def typing_into_masked(self) -> bool:
        """True while ImGui's active or nav item is a password field (its keys would spell the secret)."""
        context = self.imgui.get_current_context()
        targets = {context.active_id, context.nav_id} - {0}
        return any(item[1] in targets and item[0] in ("input", "input_hint") and
                   isinstance(item[8], tuple) and item[8][0] & mapping.PASSWORD_FLAG for item in self.items)

    # -- kit hooks ---------------------------------------------------------------------------------------------

    def request_jobs(self) -> None:
        self._jobs_wanted = True
        self._wake()

    def request_flush(self) -> bool:
        self._flush_wanted = True
        self._flush_due = 0.0
        self._wake()
        return True

    def request_flush_after(self, seconds: float) -> bool:
        self._flush_wanted = True
        self._flush_due = time.monotonic() + seconds
        self._wake()
        return True

    def _wake(self) -> None:
        if self.waker is not None:
            try:
                self.waker()
            except Exception:  # noqa: BLE001 — a wake-up is an optimisation; the idle frame rate still comes
                pass

    def build(self) -> Tuple[Dict[str, Dict[str, Any]], Dict[Optional[str], List[str]]]:
        props: Dict[str, Dict[str, Any]] = {}
        children: Dict[Optional[str], List[str]] = {None: []}
        width, height = self.display
        root_id = "main"
        props[root_id] = {"class": "UIWindow", "id": root_id, "windowTitle": self.title or self.name,
                          "frame": [0, 0, width, height]}
        children[None].append(root_id)
        children[root_id] = []
        view_ids: List[str] = []
        origins: List[Tuple[float, float]] = []
        views: Dict[str, Tuple[Item, Any]] = {}
        seen = set()
        parents: Dict[str, Optional[str]] = {root_id: None}
        self.focused_view = None
        for item in self.items:
            kind, key, label, x0, y0, x1, y1, value, extra, parent = item
            seen.add(key)
            if kind in mapping.TOP_LEVEL or parent < 0:
                parent_id, origin = (None, (0.0, 0.0)) if kind in mapping.TOP_LEVEL else (root_id, (0.0, 0.0))
            else:
                parent_id, origin = view_ids[parent], origins[parent]
            view_id = self.ids.id_for(None, parent_id or "", kind, key=key)
            view_ids.append(view_id)
            origins.append((x0, y0))
            parents[view_id] = parent_id
            view = self._view(item, view_id, origin)
            props[view_id] = view
            children.setdefault(parent_id, []).append(view_id)
            views[view_id] = (item, None)
            if kind == "list" and isinstance(extra, list):
                self._list_parts(view_id, extra, value, props, children, views, item)
        self._views = views
        self._forget(seen)
        self._mark_key_window(props, children, parents)
        return props, children

    def _mark_key_window(self, props: Dict[str, Dict[str, Any]], children: Dict[Optional[str], List[str]],
                         parents: Dict[str, Optional[str]]) -> None:
        """The key window (the one a screen reader treats as active, D-ATSPI-ACTIVE-1): the top-level window
        holding ImGui's nav focus, else the front-most ImGui window, else the app's main window."""
        key = self.focused_view
        while key is not None and parents.get(key) is not None:
            key = parents[key]
        if key is None:
            tops = children.get(None) or []
            key = tops[-1] if tops else None
        if key is not None and key in props:
            props[key] = dict(props[key], isKeyWindow=True)  # a copy: the cached view stays as built

    def _view(self, item: Item, view_id: str, origin: Tuple[float, float]) -> Dict[str, Any]:
        """The item's view: the same dict object as last time when nothing about it changed."""
        kind, key, label, x0, y0, x1, y1, value, extra = item[:9]
        focused = isinstance(key, int) and key == self.nav_id and key != 0
        frame = [round(x0 - origin[0], 1), round(y0 - origin[1], 1), round(max(x1 - x0, 0.0), 1),
                 round(max(y1 - y0, 0.0), 1)]
        # Relative to the parent: a window that moves does not rebuild its items' views.
        signature = (kind, label, value, extra, frame, focused, view_id)
        cached = self._cache.get(key)
        if cached is not None and cached[0] == signature:
            if focused:
                self.focused_view = view_id
            return cached[1]
        view = mapping.MAKERS[kind](label, value, extra)
        view["id"] = view_id
        view["frame"] = frame
        if focused:
            self.take_focus(view, view_id)
        self._cache[key] = (signature, view)
        return view

    def _list_parts(self, view_id: str, choices: List[Any], current: Any, props: Dict[str, Dict[str, Any]],
                    children: Dict[Optional[str], List[str]], views: Dict[str, Tuple[Item, Any]],
                    item: Item) -> None:
        row_height = (item[6] - item[4]) / max(len(choices), 1)
        kids = children.setdefault(view_id, [])
        for index, row in enumerate(mapping.list_rows(view_id, [str(choice) for choice in choices[:1000]],
                                                      current)):
            row["frame"] = [0, round(index * row_height, 1), round(item[5] - item[3], 1), round(row_height, 1)]
            props[row["id"]] = row
            kids.append(row["id"])
            views[row["id"]] = (item, index)

    def _forget(self, seen: set) -> None:
        """Bounded memory: past :data:`MAX_KEYS` keys, those not in this frame go (their ids are not reused)."""
        if len(self._cache) <= MAX_KEYS:
            return
        for key in [key for key in self._cache if key not in seen]:
            del self._cache[key]
            self.ids.forget(key)

    def perform(self, request: ActionRequest) -> bool:
        entry = self._views.get(request.target)
        if entry is None:
            raise TargetGone("no ImGui item %r in the last frame (the app no longer submits it)" % request.target)
        item, part = entry
        if item[0] == "row":  # a row is one cell to a screen reader: its first control acts for it
            item = self._first_control(item)
        kind, key, value, extra = item[0], item[1], item[7], item[8]
        injection = _injection(kind, request, value, extra, part)
        if injection is None:
            self._last_key = None
            return False
        self.recorder.pending[key] = injection
        self._last_key = key
        return True


    def _first_control(self, row: Item) -> Item:
        """The first item of a table row that an ``activate`` applies to (the row itself when none)."""
        try:
            index = self.items.index(row)
        except ValueError:
            return row
        for item in self.items[index + 1:]:
            if item[9] != index:
                if item[9] < index:
                    break
                continue
            if _activation(item[0], item[7]) is not None:
                return item
        return row


def _injection(kind: str, request: ActionRequest, value: Any, extra: Any, part: Any) -> Optional[Tuple[str, Any]]:
    """What the item's next call answers the app for ``request`` (None: the action does not apply)."""
    action = request.action
    if part is not None:
        return ("set", part) if action == "activate" else None
    if action == "activate":
        return _activation(kind, value)
    if action in ("increment", "decrement") and kind in ("slider", "drag", "number"):
        return ("set", _stepped(value, extra, 1 if action == "increment" else -1))
    if action == "setValue":
        return _set_value(kind, request.value, extra)
    if action == "typeText" and kind in ("input", "input_hint", "input_multiline"):
        return ("set", str(value) + str(request.value or ""))
    return None


def _activation(kind: str, value: Any) -> Optional[Tuple[str, Any]]:
    if kind in ("tree", "header"):
        return ("open", not value)
    if kind in ("button", "checkbox", "radio", "selectable", "menu_item", "menu", "combo", "tab_item"):
        return ("click", None)
    return None


def _stepped(value: Any, extra: Any, sign: int) -> Any:
    low, high = extra if isinstance(extra, tuple) else (0, 0)
    if isinstance(value, int):
        step: Any = max(1, (high - low) // 20) if high > low else 1
    else:
        step = (high - low) / 20.0 if high > low else 0.1
    new = value + sign * step
    return min(max(new, low), high) if high > low else new


def _set_value(kind: str, wanted: Any, extra: Any) -> Optional[Tuple[str, Any]]:
    if kind in ("slider", "drag", "number"):
        try:
            number = float(wanted)
        except (TypeError, ValueError):
            raise InvalidArgument("setValue needs a number for an ImGui %s, not %r" % (kind, wanted),
                                  data={"param": "value"}) from None
        low, high = extra if isinstance(extra, tuple) else (0, 0)
        return ("set", min(max(number, low), high) if high > low else number)
    if kind in ("input", "input_hint", "input_multiline"):
        return ("set", "" if wanted is None else str(wanted))
    if kind in ("combo_list", "list") and isinstance(extra, list):
        choices = [str(choice) for choice in extra]
        if str(wanted) in choices:
            return ("set", choices.index(str(wanted)))
        raise InvalidArgument("%r is not one of the choices %s" % (wanted, choices[:20]), data={"param": "value"})
    return None

