"""The Dear PyGui mirror (Specs/dearpygui-adapter.md): a :class:`~axclient.kit.ToolkitMirror` whose toolkit
thread is the one running Dear PyGui's frames. Everything happens between two frames, in the frame hook
(:meth:`DpgMirror.after_frame`): queued actions run, keys are forwarded, changes are detected and at most one
flush (≤ 20 a second) publishes them. Standard library only; Dear PyGui is imported by the package."""
from __future__ import annotations

import collections
import inspect
import os
import sys
import threading
import time
import traceback
from typing import Any, Callable, Deque, Dict, List, Optional, Set, Tuple

from ..errors import AXError
from ..kit import LoopBusy, TargetGone, ToolkitMirror
from ..provider import ActionRequest
from . import glfw
from .keys import KeyNames
from .mapping import NUMBER_FIELDS, SLIDERS, VALUE_KINDS, Item, build_view
from .walk import MAX_ITEMS, Walk

#: A walk of everything every so often even when no change was seen (what changed without an input event or a
#: Dear PyGui call of the app: a value linked by ``source``, an app's own drawing state): seconds between two
#: such walks (``$AXCLIENT_DPG_SAFETY_WALK`` overrides; a walk of 1,000 items costs a few ms).
SAFETY_WALK_INTERVAL = 30.0
#: The values of the value items are compared every this many frames, for changes no input event or hooked call
#: announced (a value shared through ``source``): each frame reads one share of them (one ``get_values`` call over
#: every ``VALUE_POLL_FRAMES``-th item), so no frame pays for all (1,000 items: p95 0.44 ms with one frame in ten
#: reading every value, the target is 0.3 ms).
VALUE_POLL_FRAMES = 10
#: Kinds whose view depends on their value alone (a value change rebuilds that view, not the tree).
LEAF_KINDS = frozenset(("mvText", "mvInputText", "mvCheckbox", "mvSelectable", "mvProgressBar", "mvCombo",
                        "mvMenuItem")) | SLIDERS | NUMBER_FIELDS


class FrameLoopBusy(LoopBusy):
    """Dear PyGui's frame loop rendered no frame for the action's whole wait (the app is stalled)."""


class Tracker:
    """What the app changed through Dear PyGui's API since the mirror last looked (filled by the hooks on
    ``dearpygui._dearpygui``, from any thread: the app's callbacks run on Dear PyGui's callback thread)."""

    def __init__(self) -> None:
        self.structure = 0
        self.values: Set[Any] = set()
        self.lock = threading.Lock()

    def value_set(self, item: Any) -> None:
        with self.lock:
            if len(self.values) < 10000:
                self.values.add(item)
            else:
                self.structure += 1

    def take_values(self) -> Set[Any]:
        with self.lock:
            values, self.values = self.values, set()
        return values


TRACKER = Tracker()


class DpgMirror(ToolkitMirror):
    """Mirrors the current Dear PyGui context (its windows) into AXServer as the app ``name``. Made on Dear PyGui's
    frame thread; the frame hook (installed by the package) calls :meth:`after_frame` after each frame."""

    toolkit = "Dear PyGui"
    log_source = "axclient.dearpygui"
    #: ≤ 20 patches a second however often the app changes something (an animated progress bar).
    min_flush_interval = 0.05
    target_errors = (TargetGone, KeyError, ValueError, SystemError)
    busy_error = FrameLoopBusy

    def __init__(self, dpg: Any, name: str, address: Optional[str] = None, retry_interval: float = 1.0,
                 forward_keys: bool = True) -> None:
        super().__init__(name, address, retry_interval, forward_keys)
        self.dpg = dpg
        self.keys = KeyNames(dpg)
        self.walk: Optional[Walk] = None
        self._jobs_wanted = False
        self._flush_wanted = False
        self._flush_due: Optional[float] = None
        self._walk_needed = True
        self._last_walk = 0.0
        self._seen_structure = -1
        self._value_uuids: List[int] = []
        self._values: List[Any] = []
        self._dirty_values: Set[int] = set()
        self._focus: Any = None
        self._geometry: Any = None
        self._input_seen = False
        #: Frames after an action or an input whose end walks again (ImGui applies some changes — a tab
        #: selected by ``set_value`` — while rendering the next frame).
        self._walk_frames = 0
        self._key_events: Deque[Tuple[int, str, List[str], bool]] = collections.deque(maxlen=256)
        self._secure_uuids: List[int] = []
        self._by_uuid: Dict[Any, Item] = {}
        self._arity: Dict[Any, int] = {}
        self.frame_seconds = 0.0
        self._frame = 0
        try:
            self.safety_interval = float(os.environ.get("AXCLIENT_DPG_SAFETY_WALK", SAFETY_WALK_INTERVAL))
        except ValueError:
            self.safety_interval = SAFETY_WALK_INTERVAL
        #: None until the first frame tries; then whether keys come from GLFW before ImGui (D-DPG-KEYS-1), else
        #: from the handler registry after ImGui saw them (the fallback).
        self.glfw_keys: Optional[bool] = None
        self._handlers = self._add_handlers()
        self.start()

    # -- Dear PyGui's hooks ------------------------------------------------------------------------------------------

    def _add_handlers(self) -> Optional[int]:
        """A global handler registry of our own: key presses and releases (forwarded from here only when GLFW is not
        reachable, D-DPG-KEYS-1) and mouse clicks, releases and wheel turns (a user's input: walk at the next
        flush). Its callbacks run on Dear PyGui's callback thread and only queue."""
        dpg = self.dpg
        try:
            with dpg.handler_registry() as registry:
                dpg.add_key_press_handler(callback=self._on_key_press)
                dpg.add_key_release_handler(callback=self._on_key_release)
                dpg.add_mouse_click_handler(callback=self._on_input)
                dpg.add_mouse_release_handler(callback=self._on_input)
                dpg.add_mouse_wheel_handler(callback=self._on_input)
            return registry
        except Exception as error:  # noqa: BLE001 — no keys then, the tree still mirrors
            self.warn_once("handlers", "cannot add the key handlers (%s); keys are not forwarded" % error)
            return None

    def _on_key_press(self, sender: Any = None, app_data: Any = None) -> None:
        self._queue_key(app_data, "press")

    def _on_key_release(self, sender: Any = None, app_data: Any = None) -> None:
        self._queue_key(app_data, "release")

    def _queue_key(self, key: Any, phase: str) -> None:
        """Dear PyGui's callback thread: queue the key with the modifiers and whether a password field is being
        edited now (asked again when it is forwarded: masked if either says so). Only the fallback: with GLFW's
        callbacks installed the key was forwarded before ImGui saw it."""
        if self.glfw_keys:
            self._input_seen = True
            return
        if isinstance(key, (list, tuple)):
            key = key[0] if key else None
        if isinstance(key, int) and not isinstance(key, bool):
            self._key_events.append((key, phase, self.keys.modifiers(), self.editing_secret()))
        self._input_seen = True

    def editing_secret(self) -> bool:
        """True while a password field is active (ImGui's active item: the one being typed into). Dear PyGui's
        ``get_focused_item`` does not follow typing, so each secure field of the last walk is asked."""
        for uuid in list(self._secure_uuids):
            try:
                state = self.dpg.get_item_state(uuid)
            except Exception:  # noqa: BLE001 — deleted
                continue
            if state.get("active") or state.get("activated"):
                return True
        return False

    def _on_input(self, sender: Any = None, app_data: Any = None) -> None:
        self._input_seen = True

    def note_input(self) -> None:
        """A user's input arrived (walk at the next flush)."""
        self._input_seen = True

    def _install_key_callbacks(self) -> None:
        """First frame: GLFW's key and character callbacks in front of ImGui's; else (GLFW not reachable, or
        ``$AXCLIENT_DPG_GLFW_KEYS=0``) the handler-registry fallback, with one stderr line. Nothing is installed
        with key forwarding off."""
        if not self.key_forwarding:
            self.glfw_keys = False
            return
        reason = "Dear PyGui's GLFW is not reachable"
        if os.environ.get("AXCLIENT_DPG_GLFW_KEYS", "1") in ("0", "no", "false"):
            self.glfw_keys, reason = False, "$AXCLIENT_DPG_GLFW_KEYS=0"
        else:
            try:
                self.glfw_keys = glfw.install(self)
            except Exception as error:  # noqa: BLE001 — ctypes on an unexpected build: the fallback
                self.glfw_keys, reason = False, "GLFW: %s: %s" % (type(error).__name__, error)
        if not self.glfw_keys:
            self.warn_once("glfw", "%s; keys are forwarded after Dear PyGui saw them (an assistive technology "
                                   "cannot keep a key from the app)" % reason)

    def request_jobs(self) -> None:
        """Any thread: the queued actions run after the next frame (Dear PyGui renders continuously)."""
        self._jobs_wanted = True

    def request_flush(self) -> bool:
        self._flush_wanted = True
        return True

    def request_flush_after(self, seconds: float) -> bool:
        due = time.monotonic() + seconds
        if self._flush_due is None or due < self._flush_due:
            self._flush_due = due
        return True

    def alive(self) -> bool:
        return not self.closed

    def release(self) -> None:
        if self._handlers is not None:
            try:
                self.dpg.delete_item(self._handlers)
            except Exception:  # noqa: BLE001 — the context is already gone
                pass
            self._handlers = None

    def handle_action(self, request: ActionRequest) -> bool:
        try:
            return super().handle_action(request)
        except FrameLoopBusy:
            self.warn_once("busy", "Dear PyGui rendered no frame for 4 s (the app's frame loop is stalled); "
                                   "actions fail until it renders again")
            raise

    # -- the frame hook ----------------------------------------------------------------------------------------------

    def after_frame(self) -> None:
        """After each frame, on Dear PyGui's thread: forward keys, run actions, detect changes, flush when due.
        Never raises into the app's loop."""
        if self.closed:
            return
        started = time.perf_counter()
        try:
            if self.glfw_keys is None:
                self._install_key_callbacks()
            self._drain_keys()
            if self._jobs_wanted:
                self._jobs_wanted = False
                self.run_jobs()
            self._detect()
            due = self._flush_due is not None and time.monotonic() >= self._flush_due
            if self._flush_wanted or due:
                self._flush_wanted = False
                self._flush_due = None
                self.idle_flush()
        except Exception as error:  # noqa: BLE001 — never break the app's frame loop
            self.warn_once("frame", "the frame hook failed: %s: %s" % (type(error).__name__, error))
        self.frame_seconds = time.perf_counter() - started

    def before_frame(self) -> None:
        """Before each frame: a value the app set since the last frame (its own loop's ``set_value``, a callback's)
        is published now, not after the next frame's rendering (change → ``tree.changed`` latency). Only
        value-only changes: new items have no rectangles before ImGui lays them out."""
        if self.closed or not TRACKER.values or TRACKER.structure != self._seen_structure:
            return
        try:
            self._detect_values_only()
            due = self._flush_due is not None and time.monotonic() >= self._flush_due
            if self._flush_wanted or due:
                self._flush_wanted = False
                self._flush_due = None
                self.idle_flush()
        except Exception as error:  # noqa: BLE001 — never break the app's frame loop
            self.warn_once("frame", "the frame hook failed: %s: %s" % (type(error).__name__, error))

    def _detect_values_only(self) -> None:
        values = TRACKER.take_values()
        if values:
            self._dirty_values.update(values)
            self.mark_dirty()

    def _drain_keys(self) -> None:
        while self._key_events:
            code, phase, modifiers, masked = self._key_events.popleft()
            keysym, char = self.keys.name(code, modifiers)
            if keysym:
                self.forward_key(keysym, modifiers, phase, char, masked or self.editing_secret())

    def _detect(self) -> None:
        """Cheap per-frame checks (the focus, the viewport; every 10th frame one ``get_values`` over the value
        items); a change marks the tree dirty (a walk, or only the changed values' views)."""
        changed = self._walk_asked() | self._focus_or_viewport_moved()
        if time.monotonic() - self._last_walk > self.safety_interval:
            changed = True
        values = TRACKER.take_values()
        self._frame += 1
        if self._value_uuids:
            changed |= self._poll_values(values, self._frame % VALUE_POLL_FRAMES)
        if changed:
            self._walk_needed = True
            self.mark_dirty()
        elif values:
            self._dirty_values.update(values)
            self.mark_dirty()

    def _walk_asked(self) -> bool:
        """A hooked call changed items, the user gave input (walk this and the next 2 frames), or a walk is still
        settling."""
        asked = TRACKER.structure != self._seen_structure or self._input_seen or self._walk_frames > 0
        if self._input_seen:
            self._walk_frames = 2
        elif self._walk_frames > 0:
            self._walk_frames -= 1
        self._input_seen = False
        return asked

    def _focus_or_viewport_moved(self) -> bool:
        dpg = self.dpg
        focus = dpg.get_focused_item()
        geometry = (tuple(dpg.get_viewport_pos()), dpg.get_viewport_client_width(),
                    dpg.get_viewport_client_height())
        if focus == self._focus and geometry == self._geometry:
            return False
        self._focus, self._geometry = focus, geometry
        return True

    def _poll_values(self, values: Set[Any], share: int) -> bool:
        """Reads the ``share``-th of ``VALUE_POLL_FRAMES`` shares of the value items (every ``VALUE_POLL_FRAMES``-th
        one from ``share``) and adds those whose value changed to ``values``; True when a walk is needed instead
        (an item was deleted since the last walk)."""
        uuids = self._value_uuids[share::VALUE_POLL_FRAMES]
        if not uuids:
            return False
        try:
            current = list(self.dpg.get_values(uuids))
        except Exception:  # noqa: BLE001 — an item was deleted since the last walk: walk again
            self._value_uuids, self._values = [], []
            return True
        known = self._values[share::VALUE_POLL_FRAMES]
        if current != known:
            for offset, (uuid, old, new) in enumerate(zip(uuids, known, current)):
                if old != new:
                    values.add(uuid)
                    self._values[share + offset * VALUE_POLL_FRAMES] = new
        return False

    # -- building ----------------------------------------------------------------------------------------------------

    def build(self) -> Tuple[Dict[str, Dict[str, Any]], Dict[Optional[str], List[str]]]:
        if self._walk_needed or self.walk is None or not self._value_only():
            return self._full_walk()
        return self._update_values()

    def _value_only(self) -> bool:
        """True when every changed value belongs to a leaf view we published (else the tree is walked)."""
        for key in self._dirty_values:
            item = self._by_uuid.get(self._uuid(key))
            if item is None or item.kind not in LEAF_KINDS:
                return False
        return True

    def _uuid(self, key: Any) -> Any:
        if isinstance(key, str):
            try:
                return self.dpg.get_alias_id(key)
            except Exception:  # noqa: BLE001 — not an alias (gone)
                return None
        return key

    def _aliases(self) -> Dict[int, str]:
        dpg, aliases = self.dpg, {}
        for alias in dpg.get_aliases():
            try:
                aliases[dpg.get_alias_id(alias)] = alias
            except Exception:  # noqa: BLE001 — removed meanwhile
                continue
        return aliases

    def _full_walk(self) -> Tuple[Dict[str, Dict[str, Any]], Dict[Optional[str], List[str]]]:
        dpg = self.dpg
        self._seen_structure = TRACKER.structure
        self._walk_needed = False
        self._dirty_values.clear()
        self._last_walk = time.monotonic()
        origin = dpg.get_viewport_pos()
        # get_focused_item answers the app's tag for a tagged item, else the uuid.
        walk = Walk(dpg, self._aliases(), (float(origin[0]), float(origin[1])), self._uuid(self._focus))
        windows = dpg.get_windows()
        modal = [uuid for uuid in windows if _is_modal(dpg, uuid)]
        walk.windows([uuid for uuid in windows if uuid not in modal] + modal)
        if walk.truncated:
            self.warn_once("truncated", "more than %d items: the rest is not mirrored (one walk is bounded)"
                           % MAX_ITEMS)
        if not self._reuse_published(walk):
            # ImGui lays a change out over the next frame or two (a header closed: what follows moves up a
            # frame later): walk again until a walk finds nothing new (then nothing is sent).
            self._walk_frames = max(self._walk_frames, 2)
        self.walk = walk
        self._remember(walk)
        self.focused_view = walk.focused
        return walk.props, walk.children

    def _reuse_published(self, walk: Walk) -> bool:
        """Views equal to the published ones become those objects (the diff skips them by identity); True when
        nothing changed."""
        previous = self.walk.props if self.walk is not None else {}
        settled = len(previous) == len(walk.props)
        for view_id, view in walk.props.items():
            old = previous.get(view_id)
            if old is not None and old == view:
                walk.props[view_id] = old
            else:
                settled = False
        return settled

    def _remember(self, walk: Walk) -> None:
        """The walk's items by uuid, its value items (and their values) and its password fields."""
        self._by_uuid = {item.uuid: item for view_id, item in walk.items.items() if item.view_id == view_id}
        self._value_uuids = [uuid for uuid, item in self._by_uuid.items() if item.kind in VALUE_KINDS]
        self._secure_uuids = [uuid for uuid, item in self._by_uuid.items() if item.config.get("password")]
        try:
            self._values = self.dpg.get_values(self._value_uuids) if self._value_uuids else []
        except Exception:  # noqa: BLE001 — deleted meanwhile (a callback on Dear PyGui's thread)
            self._value_uuids, self._values = [], []
            self._walk_frames = 2

    def flush(self) -> None:
        """The kit's flush; its cost sets the pace: at most a third of the time goes to walking (a table of
        thousands of rows under a moving mouse); patches go at most 20 times a second (``min_flush_interval``)."""
        started = time.perf_counter()
        super().flush()
        self.min_build_interval = 2 * (time.perf_counter() - started)

    def _update_values(self) -> Tuple[Dict[str, Dict[str, Any]], Dict[Optional[str], List[str]]]:
        """Only the changed values' views are rebuilt; every other view stays the same object."""
        walk = self.walk
        assert walk is not None
        props = dict(walk.props)
        for key in self._dirty_values:
            item = self._by_uuid.get(self._uuid(key))
            if item is None:
                continue
            try:
                item.value = self.dpg.get_value(item.uuid)
            except Exception:  # noqa: BLE001 — deleted: the next walk drops it
                self._walk_needed = True
                continue
            old = props[item.view_id]
            view = build_view(item)
            for kept in ("id", "frame", "accessibilityIdentifier", "isFocused"):
                if kept in old:
                    view[kept] = old[kept]
            if "accessibilityLabel" not in view and "accessibilityLabel" in old:
                view["accessibilityLabel"] = old["accessibilityLabel"]  # the label rule's name
            props[item.view_id] = view if view != old else old
        self._dirty_values.clear()
        walk.props = props
        return props, walk.children

    # -- actions -----------------------------------------------------------------------------------------------------

    def perform(self, request: ActionRequest) -> bool:
        """One action, as a user's input would do it: ``set_value`` and then the item's callback with
        ``(sender, app_data, user_data)`` (Specs/dearpygui-adapter.md §Actions)."""
        self._walk_needed = True
        self._walk_frames = 2
        if request.target == "":
            return self._escape() if request.action == "escape" else False
        walk = self.walk
        target = walk.targets.get(request.target) if walk is not None else None
        if target is None:
            raise TargetGone("no item %r in the mirrored Dear PyGui tree" % request.target)
        item, part = target
        if not self.dpg.does_item_exist(item.uuid):
            raise TargetGone("the Dear PyGui item %r was deleted" % request.target)
        action = ACTIONS.get(request.action)
        return bool(action(self, item, part, request)) if action is not None else False

    def user_change(self, item: Item, value: Any) -> bool:
        """``set_value`` then the item's callback with the new value (what Dear PyGui does for a user's edit)."""
        self.dpg.set_value(item.uuid, value)
        self.callback(item, self.dpg.get_value(item.uuid))
        return True

    def callback(self, item: Item, app_data: Any, owner: Optional[Item] = None) -> None:
        """Calls the item's callback as Dear PyGui would: ``(sender, app_data, user_data)``, as many as it takes;
        sender is the app's tag when it gave one. An exception is printed, as Dear PyGui prints one, and the app
        runs on."""
        dpg = self.dpg
        function = dpg.get_item_callback(item.uuid)
        if function is None:
            return
        sender = item.alias or item.uuid
        arguments = (sender, app_data, dpg.get_item_user_data(item.uuid))
        try:
            function(*arguments[:self._arity_of(function)])
        except Exception:  # noqa: BLE001 — the app's bug; Dear PyGui prints it and runs on
            sys.stderr.write("axclient.dearpygui: the callback of %r raised:\n%s"
                             % (item.view_id, traceback.format_exc(limit=6)))

    def _arity_of(self, function: Callable[..., Any]) -> int:
        arity = self._arity.get(function)
        if arity is None:
            try:
                parameters = inspect.signature(function).parameters.values()
                if any(p.kind == p.VAR_POSITIONAL for p in parameters):
                    arity = 3
                else:
                    arity = min(3, len([p for p in parameters if p.kind in (p.POSITIONAL_ONLY,
                                                                             p.POSITIONAL_OR_KEYWORD)]))
            except (TypeError, ValueError):
                arity = 3
            if len(self._arity) < 1000:
                self._arity[function] = arity
        return arity

    def _escape(self) -> bool:
        """``escape`` on the app: the front-most modal or popup window closes (its ``on_close`` runs)."""
        dpg = self.dpg
        for uuid in reversed(dpg.get_windows()):
            config = dpg.get_item_configuration(uuid)
            if config.get("show") and (config.get("modal") or config.get("popup")):
                dpg.configure_item(uuid, show=False)
                on_close = config.get("on_close")
                if callable(on_close):
                    item = Item(uuid, "mvWindowAppItem", "", config, {})
                    try:
                        on_close(*(item.uuid, None, config.get("user_data"))[:self._arity_of(on_close)])
                    except Exception:  # noqa: BLE001
                        sys.stderr.write("axclient.dearpygui: on_close raised:\n%s" % traceback.format_exc(limit=6))
                return True
        return False


def _is_modal(dpg: Any, uuid: int) -> bool:
    try:
        config = dpg.get_item_configuration(uuid)
    except Exception:  # noqa: BLE001
        return False
    return bool(config.get("modal") or config.get("popup"))


# -- the actions by item kind ----------------------------------------------------------------------------------------

def _activate(mirror: DpgMirror, item: Item, part: str, request: ActionRequest) -> bool:
    dpg, kind = mirror.dpg, item.kind
    if kind in ("mvButton", "mvImageButton", "mvColorButton") or (kind == "mvMenuItem"
                                                                  and not item.config.get("check")):
        mirror.callback(item, None)
        return True
    if kind in ("mvCheckbox", "mvSelectable", "mvMenuItem"):
        return mirror.user_change(item, not bool(dpg.get_value(item.uuid)))
    if kind in ("mvRadioButton", "mvListbox") and part:
        return mirror.user_change(item, _choice_of(item, part))
    if kind == "mvTab" and part == "tab":
        bar = dpg.get_item_parent(item.uuid)
        dpg.set_value(bar, item.uuid)
        bar_item = Item(bar, "mvTabBar", dpg.get_item_alias(bar) or "", {}, {})
        mirror.callback(bar_item, item.alias or item.uuid)
        return True
    if kind == "mvTableRow":
        return _activate_row(mirror, item, request)
    if kind in ("mvCollapsingHeader", "mvTreeNode") and part == "header":
        dpg.set_value(item.uuid, not bool(dpg.get_value(item.uuid)))
        return True
    return False


def _activate_row(mirror: DpgMirror, row: Item, request: ActionRequest) -> bool:
    """A table row (a cell to a screen reader) activates its first control (a selectable row's selectable)."""
    walk = mirror.walk
    if walk is None:
        return False
    for view_id in walk.children.get(row.view_id, []):
        target = walk.targets.get(view_id)
        if target is not None and target[0].kind in ACTIVATABLE:
            return _activate(mirror, target[0], target[1], request)
    return False


#: Kinds a row's activation goes to.
ACTIVATABLE = frozenset(("mvButton", "mvImageButton", "mvSelectable", "mvCheckbox", "mvMenuItem"))


def _choice_of(item: Item, part: str) -> str:
    choices = [str(choice) for choice in (item.config.get("items") or [])]
    name, _, number = part.rpartition("#")
    if name and number.isdigit() and part not in choices:
        return name
    if part in choices:
        return part
    raise TargetGone("the choice %r is no longer offered" % part)


def _adjust(mirror: DpgMirror, item: Item, part: str, request: ActionRequest, sign: int) -> bool:
    """``increment``/``decrement``: the next or previous choice, else the value by one step."""
    dpg, kind = mirror.dpg, item.kind
    value = dpg.get_value(item.uuid)
    if kind in ("mvRadioButton", "mvListbox", "mvCombo"):
        choices = [str(choice) for choice in (item.config.get("items") or [])]
        if not choices:
            return False
        index = choices.index(str(value)) + sign if str(value) in choices else 0
        return mirror.user_change(item, choices[min(max(index, 0), len(choices) - 1)])
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    new = _stepped(item, value, sign)
    return mirror.user_change(item, int(round(new)) if isinstance(value, int) else float(new))


def _stepped(item: Item, value: float, sign: int) -> float:
    """A slider moves by a twentieth of its range (at least 1 for ints: 0…3 goes 0, 1, 2, 3), clamped; a number
    field by its ``step`` (default 1)."""
    low, high = item.config.get("min_value"), item.config.get("max_value")
    if item.kind in SLIDERS and isinstance(low, (int, float)) and isinstance(high, (int, float)) and low < high:
        step = (high - low) / 20.0
        step = max(1, round(step)) if isinstance(value, int) else step
        return min(max(value + sign * step, low), high)
    step = item.config.get("step")
    return value + sign * (step if isinstance(step, (int, float)) and step > 0 else 1)


def _set_value(mirror: DpgMirror, item: Item, part: str, request: ActionRequest) -> bool:
    text = request.value if isinstance(request.value, str) else str(request.value or "")
    kind = item.kind
    if kind == "mvInputText":
        return mirror.user_change(item, text)
    if kind in ("mvRadioButton", "mvListbox", "mvCombo"):
        if text not in [str(choice) for choice in (item.config.get("items") or [])]:
            raise ValueError("%r is not one of the choices" % text[:80])
        return mirror.user_change(item, text)
    if kind in SLIDERS or kind in NUMBER_FIELDS:
        current = mirror.dpg.get_value(item.uuid)
        try:
            number = float(text)
        except ValueError:
            raise AXError("%r is not a number" % text[:80]) from None
        return mirror.user_change(item, int(round(number)) if isinstance(current, int) else number)
    return False


def _type_text(mirror: DpgMirror, item: Item, part: str, request: ActionRequest) -> bool:
    if item.kind != "mvInputText":
        return False
    current = mirror.dpg.get_value(item.uuid)
    return mirror.user_change(item, (current if isinstance(current, str) else "") + str(request.value or ""))


ACTIONS: Dict[str, Callable[[DpgMirror, Item, str, ActionRequest], bool]] = {
    "activate": _activate,
    "increment": lambda mirror, item, part, request: _adjust(mirror, item, part, request, 1),
    "decrement": lambda mirror, item, part, request: _adjust(mirror, item, part, request, -1),
    "setValue": _set_value,
    "typeText": _type_text,
    "escape": lambda mirror, item, part, request: mirror._escape(),
    "custom": lambda mirror, item, part, request: (item.kind == "mvCombo" and _set_value(
        mirror, item, part, ActionRequest({"action": "setValue", "value": request.custom_action}))),
}
