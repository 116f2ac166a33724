"""The Kivy mirror (Specs/kivy-adapter.md): a mapping of Kivy's live widget tree on the adapter kit
(:class:`~axclient.kit.core.ToolkitMirror`). Kivy's window is one ``UIWindow``; each open ModalView/Popup (and a
Spinner's DropDown) that Kivy adds to the window is a window of its own. Dirtiness comes from Kivy property
bindings (``fbind``) on the widgets walked, so a frame where nothing changed costs the adapter nothing; flushes
and actions run on Kivy's thread through ``Clock.schedule_once`` (thread-safe). Keys are intercepted in the
window's own dispatch, before any handler the app bound. Kivy is imported lazily (the caller has it)."""
from __future__ import annotations

import os
import sys
import time
import weakref
from typing import Any, Dict, List, Optional, Set, Tuple

from ..kit import StableIds, TargetGone, ToolkitMirror
from ..kit.labels import label_beside
from ..kit.link import warn as kit_warn
from ..kit.patches import TEXT_LIMIT_BYTES
from ..provider import ActionRequest
from . import adapters

#: Properties whose change makes the tree dirty (bound with ``fbind`` on each widget that has them).
WATCHED = ("text", "disabled", "focus", "state", "active", "value", "pos", "size", "children", "opacity", "cursor",
           "selection_text", "scroll_x", "scroll_y", "title", "values", "is_open", "min", "max", "password",
           "readonly", "hint_text", "selected", "is_selected", "path", "multiline", "current")
#: Kivy's key names → X keysym names (D-KEY-1); printable characters are their own keysym or in :data:`CHARS`.
KEYSYMS = {"tab": "Tab", "enter": "Return", "numpadenter": "KP_Enter", "escape": "Escape", "up": "Up",
           "down": "Down", "left": "Left", "right": "Right", "spacebar": "space", "backspace": "BackSpace",
           "delete": "Delete", "home": "Home", "end": "End", "pageup": "Prior", "pagedown": "Next",
           "shift": "Shift_L", "rshift": "Shift_R", "lctrl": "Control_L", "rctrl": "Control_R", "alt": "Alt_L",
           "alt-gr": "ISO_Level3_Shift", "insert": "Insert", "capslock": "Caps_Lock", "numlock": "Num_Lock",
           "super": "Super_L", "lsuper": "Super_L", "rsuper": "Super_R", "menu": "Menu"}
CHARS = {" ": "space", ".": "period", ",": "comma", "-": "minus", "/": "slash", ";": "semicolon",
         "'": "apostrophe", "=": "equal", "[": "bracketleft", "]": "bracketright", "\\": "backslash",
         "`": "grave"}
MODIFIERS = {"shift": "shift", "ctrl": "control", "alt": "alt", "meta": "super"}
#: The character of a printable key's keysym name (``space`` → " "), for key-ups, which carry no character.
CHARACTERS = {name: char for char, name in CHARS.items()}
#: Window-level classes: an open one is a window of its own (modal unless it is a drop-down list).
MODAL_CLASSES = ("ModalView",)
POPUP_CLASSES = ("DropDown",)
#: How deep the walk goes (a widget tree deeper than this is cut, one stderr line).
MAX_DEPTH = 64


_CLASS_NAMES: Dict[type, frozenset] = {}


def class_names(widget: Any) -> frozenset:
    """The names of the widget's classes (its MRO), cached per class."""
    klass = type(widget)
    names = _CLASS_NAMES.get(klass)
    if names is None:
        names = _CLASS_NAMES[klass] = frozenset(k.__name__ for k in klass.__mro__)
    return names


def is_a(widget: Any, names: Any) -> bool:
    return not class_names(widget).isdisjoint(names)


def default_app_name() -> str:
    """The running script's or module's name (``sys.argv[0]`` without ``.py``), else "kivy-app"."""
    base = os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "")
    base = base[:-3] if base.endswith(".py") else base
    return "kivy-app" if base in ("", "-c", "-m", "__main__") else base


def warn(message: str) -> None:
    kit_warn(message, "axclient.kivy")


class Mirror(ToolkitMirror):
    """Mirrors a Kivy app's window (and its open popups) into AXServer. Create it on Kivy's thread once the window
    exists (``axclient.kivy.mirror(app)`` in ``on_start``, or ``python3 -m axclient.kivy``)."""

    toolkit = "Kivy"
    log_source = "axclient.kivy"
    target_errors = (TargetGone, ValueError, KeyError, ReferenceError)

    def __init__(self, app: Any = None, name: Optional[str] = None, address: Optional[str] = None,
                 retry_interval: float = 1.0, forward_keys: Optional[bool] = None) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window
        if Window is None:
            raise RuntimeError("Kivy has no window (no display, or no window provider): nothing to mirror")
        if forward_keys is None:
            forward_keys = os.environ.get("AXCLIENT_KIVY_FORWARD_KEYS", "1") not in ("0", "no", "false")
        super().__init__(name or default_app_name(), address, retry_interval, forward_keys)
        self.app, self.window, self.clock = app, Window, Clock
        self.ids = StableIds()
        self.text_limit = TEXT_LIMIT_BYTES
        #: view id → a weak reference to its widget (the last build's).
        self.widgets: Dict[str, Any] = {}
        self._bound: "weakref.WeakKeyDictionary[Any, bool]" = weakref.WeakKeyDictionary()
        self._watch: Dict[type, Tuple[str, ...]] = {}
        self._names: Dict[int, str] = {}
        self._rects: Dict[int, List[int]] = {}
        self._groups: Dict[Any, List[Dict[str, Any]]] = {}
        self._parent_of: Dict[str, Optional[str]] = {}
        #: Widgets whose watched properties changed since the last build (by ``id``), and "everything changed".
        self._dirty: Dict[int, Any] = {}
        self._all_dirty = True
        #: Widgets with a changed widget below them (by ``id``): any other subtree is copied from the last build.
        self._dirty_below: Set[int] = set()
        self._cache_children: Dict[Optional[str], List[str]] = {}
        self._cache_widgets: Dict[str, Any] = {}
        self._cache_groups: Dict[str, Any] = {}
        #: The last build's views and window rectangles by view id: an unchanged widget's view is reused as the
        #: same dict object (the kit's diff skips it by identity).
        self._cache: Dict[str, Dict[str, Any]] = {}
        self._last_rects: Dict[str, List[int]] = {}
        self._drop_text = False
        self._too_deep = False
        self._original_dispatch = None
        self._hook_window()
        self.start()

    # -- hooks into Kivy -------------------------------------------------------------------------------------------

    def _hook_window(self) -> None:
        window = self.window
        original = window.dispatch
        mirror = self

        def dispatch(event_type: str, *args: Any, **kwargs: Any) -> Any:
            if event_type in ("on_key_down", "on_key_up", "on_textinput") and not mirror.closed:
                try:
                    if mirror.on_key_event(event_type, args):
                        return True
                except Exception as error:  # noqa: BLE001 — a key must never be lost to the adapter
                    mirror.warn_once("key", "key forwarding failed: %s: %s" % (type(error).__name__, error))
            return original(event_type, *args, **kwargs)

        self._original_dispatch = original
        window.dispatch = dispatch
        window.fbind("children", self._window_changed)
        window.fbind("size", self._window_changed)
        window.fbind("on_close", self._on_window_close)
        if self.app is not None:
            self.app.fbind("on_stop", self._on_window_close)
            self.app.fbind("title", self._window_changed)

    def release(self) -> None:
        """Restores the window's dispatch and drops the window's bindings (the widgets' bindings stay, inert)."""
        window = self.window
        if self._original_dispatch is not None and window.__dict__.get("dispatch") is not None:
            del window.__dict__["dispatch"]
        window.funbind("children", self._window_changed)
        window.funbind("size", self._window_changed)
        window.funbind("on_close", self._on_window_close)

    def _on_window_close(self, *_: Any) -> None:
        self.close()

    def _changed(self, instance: Any, *_: Any) -> None:
        self._mark_widget(instance)
        self.mark_dirty()

    def _children_changed(self, instance: Any, *_: Any) -> None:
        self._dirty_below.add(id(instance))  # its children are walked again, not copied
        self._changed(instance)

    def _mark_widget(self, widget: Any) -> None:
        """``widget`` changed: its view is rebuilt, and its ancestors' subtrees are walked again."""
        self._dirty[id(widget)] = widget
        parent = getattr(widget, "parent", None)
        if parent is not None and is_a(parent, ("Scatter",)):
            self._dirty[id(parent)] = parent  # its frame covers its children (:meth:`_rect`)
        while parent is not None and id(parent) not in self._dirty_below:
            self._dirty_below.add(id(parent))
            parent = getattr(parent, "parent", None)

    def _window_changed(self, *_: Any) -> None:
        self._all_dirty = True
        self.mark_dirty()

    def resync(self) -> None:
        self._all_dirty = True
        super().resync()

    def request_jobs(self) -> None:
        self.clock.schedule_once(self._jobs_tick, 0)  # thread-safe (what @mainthread uses)

    def _jobs_tick(self, _dt: float) -> None:
        self.run_jobs()

    def request_flush(self) -> bool:
        # -1: still in this clock tick, before the frame is drawn (Kivy runs the callbacks scheduled with -1
        # until none are left), so a change is published without waiting for a frame to render.
        self.clock.schedule_once(self._flush_tick, -1)
        return True

    def request_flush_after(self, seconds: float) -> bool:
        self.clock.schedule_once(self._flush_tick, seconds)
        return True

    def _flush_tick(self, _dt: float) -> None:
        sent = self._sequence
        self.idle_flush()
        if self._sequence != sent:
            # Let the link thread take the GIL and send the patch now: Kivy's drawing (Cython) holds the GIL until
            # the frame is done, which delayed a patch by a frame (p95 155 ms -> see Specs/kivy-adapter.md).
            time.sleep(0)

    def alive(self) -> bool:
        return not self.closed

    def supports(self, property_name: str) -> bool:
        """Whether the server knows the optional property (adapters ask before publishing it)."""
        return property_name not in self.unsupported

    def _bind(self, widget: Any) -> None:
        """Binds :data:`WATCHED` properties of ``widget`` (once per widget) to :meth:`mark_dirty`."""
        if widget in self._bound:
            return
        self._bound[widget] = True
        names = self._watch.get(type(widget))
        if names is None:
            known = widget.properties()
            # A class the app registered an adapter for may read any of its properties (a gauge's ``level``).
            names = tuple(known) if _registered(widget) else tuple(name for name in WATCHED if name in known)
            self._watch[type(widget)] = names
        for name in names:
            widget.fbind(name, self._children_changed if name == "children" else self._changed)

    # -- the walk --------------------------------------------------------------------------------------------------

    def build(self) -> Tuple[Dict[str, Dict[str, Any]], Dict[Optional[str], List[str]]]:
        props: Dict[str, Dict[str, Any]] = {}
        children: Dict[Optional[str], List[str]] = {None: []}
        self.widgets, self._rects, self._groups, self._parent_of = {}, {}, {}, {}
        self.focused_view = None
        self._expand_dirty()
        self._new_rects: Dict[str, List[int]] = {}
        window = self.window
        self._height = int(window.height)
        left, top = int(getattr(window, "left", 0) or 0), int(getattr(window, "top", 0) or 0)
        title = str(getattr(self.app, "title", "") or "") if self.app is not None else ""
        main: Dict[str, Any] = {"class": "UIWindow", "id": "window", "frame": [left, top, int(window.width),
                                                                               self._height]}
        if title:
            main.update(windowTitle=title, accessibilityLabel=title)
        props["window"], children["window"] = main, []
        children[None].append("window")
        overlays = []
        for widget in reversed(list(window.children)):  # bottom-most first (Kivy's children[0] is on top)
            if is_a(widget, MODAL_CLASSES + POPUP_CLASSES):
                overlays.append(widget)
            else:
                self._walk(widget, "window", (0, 0), props, children, 0, True)
        for widget in overlays:
            self._add_overlay(widget, (left, top), props, children)
        props[children[None][-1]]["isKeyWindow"] = True
        self._cache, self._last_rects = dict(props), self._new_rects
        self._cache_children = {parent: list(kids) for parent, kids in children.items()}
        self._cache_widgets = dict(self.widgets)
        self._wrap_groups(props, children)  # (group members are copied: the cache keeps them unwrapped)
        self._dirty, self._dirty_below, self._all_dirty = {}, set(), False
        return props, children

    def _expand_dirty(self) -> None:
        """A Label that changed may name a control beside it (the label rule looks at siblings and the parent's
        siblings): those are rebuilt too."""
        for widget in [w for w in self._dirty.values() if adapters.find_adapter(w) is adapters.label]:
            level = widget
            for _ in range(2):
                parent = getattr(level, "parent", None)
                if parent is None or parent is self.window:
                    break
                for kid in getattr(parent, "children", ()):
                    self._dirty.setdefault(id(kid), kid)
                self._dirty_below.add(id(parent))
                level = parent

    def _add_overlay(self, widget: Any, origin: Tuple[int, int], props: Dict[str, Dict[str, Any]],
                     children: Dict[Optional[str], List[str]]) -> None:
        """An open ModalView/Popup (modal) or DropDown (a list over the window, window level 1000)."""
        view_id = self.ids.id_for(widget, "", "popup" if is_a(widget, MODAL_CLASSES) else "dropdown")[1:]
        rect = self._rect(widget)
        node: Dict[str, Any] = {"class": "UIWindow", "id": view_id,
                                "frame": [origin[0] + rect[0], origin[1] + rect[1], rect[2], rect[3]]}
        if is_a(widget, MODAL_CLASSES):
            node["accessibilityViewIsModal"] = True
            title = adapters.APP_LABELS.get(id(widget)) or str(getattr(widget, "title", "") or "")
            if title:
                node.update(windowTitle=title, accessibilityLabel=title)
        else:
            node["windowLevel"] = 1000.0
        props[view_id], children[view_id] = node, []
        children[None].append(view_id)
        self.widgets[view_id] = weakref.ref(widget)
        self._bind(widget)
        self._note_names(widget)
        for kid in reversed(list(widget.children)):
            self._walk(kid, view_id, (rect[0], rect[1]), props, children, 1, True)

    def _walk(self, widget: Any, parent_id: str, origin: Tuple[int, int], props: Dict[str, Dict[str, Any]],
              children: Dict[Optional[str], List[str]], depth: int, moved: bool) -> None:
        """Adds ``widget`` and its subtree. ``moved``: the parent's rectangle changed (or was not known), so the
        frames below are recomputed; otherwise a widget none of whose watched properties changed keeps its view
        (the same dict object)."""
        if depth > MAX_DEPTH:
            self.warn_once("depth", "the widget tree is deeper than %d; deeper widgets are left out" % MAX_DEPTH)
            return
        view_id = self._view_id(widget, parent_id)
        children[parent_id].append(view_id)
        self._parent_of[view_id] = parent_id
        node = self._cache.get(view_id)
        if node is None or moved or self._all_dirty or id(widget) in self._dirty:
            node = self._view(widget, view_id, origin)
            rect = self._rect(widget)
            moved = self._last_rects.get(view_id) != rect
            self._new_rects[view_id] = rect
        elif id(widget) not in self._dirty_below and view_id in self._cache_widgets:
            self._copy_subtree(view_id, props, children)  # nothing changed in it
            return
        else:
            self._new_rects[view_id] = self._last_rects[view_id]
            if node.get("isFocused"):
                self.focused_view = view_id
        props[view_id] = node
        self._note_group(widget, view_id, node)
        self.widgets[view_id] = weakref.ref(widget)
        self._bind(widget)
        if is_a(widget, adapters.LEAVES) or not widget.children:
            return
        if not moved and id(widget) not in self._dirty_below and view_id in self._cache_children:
            self._copy_children(view_id, props, children)  # it changed, nothing below it did
            return
        self._note_names(widget)
        children[view_id] = []
        origin = self._new_rects[view_id]
        for kid in reversed(list(widget.children)):
            self._walk(kid, view_id, (origin[0], origin[1]), props, children, depth + 1, moved)

    def _note_group(self, widget: Any, view_id: str, node: Dict[str, Any]) -> None:
        """A grouped ToggleButton/CheckBox joins its radio group (wrapped after the walk)."""
        if is_a(widget, ("ToggleButtonBehavior",)) and adapters.group_of(widget) is not None:
            self._cache_groups[view_id] = adapters.group_of(widget)
            self._groups.setdefault(self._cache_groups[view_id], []).append(node)

    def _copy_children(self, view_id: str, props: Dict[str, Dict[str, Any]],
                       children: Dict[Optional[str], List[str]]) -> None:
        kids = children[view_id] = list(self._cache_children[view_id])
        for kid in kids:
            self._parent_of[kid] = view_id
            self._copy_subtree(kid, props, children)

    def _copy_subtree(self, view_id: str, props: Dict[str, Dict[str, Any]],
                      children: Dict[Optional[str], List[str]]) -> None:
        """A subtree in which nothing changed: its views, children and widgets as the last build had them."""
        pending = [view_id]
        while pending:
            current = pending.pop()
            node = props[current] = self._cache[current]
            self._new_rects[current] = self._last_rects[current]
            self.widgets[current] = self._cache_widgets[current]
            if node.get("isFocused"):
                self.focused_view = current
            group = self._cache_groups.get(current)
            if group is not None:
                self._groups.setdefault(group, []).append(node)
            kids = self._cache_children.get(current)
            if kids is not None:
                children[current] = list(kids)
                for kid in kids:
                    self._parent_of[kid] = current
                pending.extend(reversed(kids))

    def _view(self, widget: Any, view_id: str, origin: Tuple[int, int]) -> Dict[str, Any]:
        """The widget's view, built anew by its adapter."""
        rect = self._rect(widget)
        adapter = adapters.row if self._is_row(widget) else adapters.find_adapter(widget)
        node = adapter(self, widget)
        node["id"] = view_id
        node["frame"] = [rect[0] - origin[0], rect[1] - origin[1], rect[2], rect[3]]
        name = self._names.get(id(widget))
        if name:
            node["accessibilityIdentifier"] = name
        if getattr(widget, "opacity", 1) == 0:
            node["isHidden"] = True
        if getattr(widget, "focus", False) is True:
            self.take_focus(node)
        return node

    def _note_names(self, widget: Any) -> None:
        """The kv ``id``s a rule gave (``widget.ids``: name → weak proxy): the names of those widgets."""
        ids = getattr(widget, "ids", None)
        if not ids:
            return
        for name, proxy in ids.items():
            target = getattr(proxy, "__self__", proxy)
            self._names[id(target)] = str(name)

    def _view_id(self, widget: Any, parent_id: str) -> str:
        name = self._names.get(id(widget))
        parent = getattr(widget, "parent", None)
        if self._is_row(widget):
            index = getattr(parent, "view_indices", {}).get(widget)
            if isinstance(index, int):
                return self.ids.id_for(widget, parent_id, "row", key=(id(parent), "row", index))
        return self.ids.id_for(widget, parent_id, type(widget).__name__, name=name)

    @staticmethod
    def _is_row(widget: Any) -> bool:
        """A RecycleView row: a view widget of a RecycleLayout (unless the app registered its class)."""
        parent = getattr(widget, "parent", None)
        return parent is not None and is_a(parent, ("RecycleLayout",)) and not _registered(widget)

    def _rect(self, widget: Any) -> List[int]:
        """The widget's rectangle in window coordinates, top-left origin (Kivy's y grows upwards)."""
        known = self._rects.get(id(widget))
        if known is not None:
            return known
        x1, y1 = widget.to_window(widget.x, widget.y)
        x2, y2 = widget.to_window(widget.right, widget.top)
        rect = [int(round(min(x1, x2))), int(round(self._height - max(y1, y2))), int(round(abs(x2 - x1))),
                int(round(abs(y2 - y1)))]
        if is_a(widget, ("Scatter",)) and widget.children:
            # A Scatter's pos is its transformed bounding box, not always where its content is drawn (inside a
            # FileChooserListView's ScrollView it stays at the bottom while its content shows at the top): its
            # frame covers its children too, so hit tests reach them (a view's subviews lie within it).
            rect = _union([rect] + [self._rect(kid) for kid in widget.children])
        self._rects[id(widget)] = rect
        return rect

    def label_beside(self, widget: Any) -> Optional[str]:
        """The kit's geometric rule over the Labels among the widget's siblings (then its parent's siblings)."""
        level = widget
        for _ in range(2):
            parent = getattr(level, "parent", None)
            if parent is None:
                return None
            labels = [(self._rect(kid), adapters.text_of(kid)) for kid in parent.children
                      if kid is not level and adapters.find_adapter(kid) is adapters.label]
            found = label_beside(self._rect(widget), labels) if labels else None
            if found:
                return found
            level = parent
        return None

    def _wrap_groups(self, props: Dict[str, Dict[str, Any]], children: Dict[Optional[str], List[str]]) -> None:
        """Radio groups: each member's value is "n of m"; members under one parent are wrapped in a
        ``UISegmentedControl`` (as Tk's radio groups, so AT-SPI says radio button)."""
        for group, members in self._groups.items():
            for index, member in enumerate(members):
                member = members[index] = props[member["id"]] = dict(member)  # never change a reused view
                member["accessibilityValue"] = "%d of %d" % (index + 1, len(members))
            parents = {self._parent_of.get(member["id"]) for member in members}
            if len(members) < 2 or len(parents) != 1:
                continue
            parent = parents.pop()
            if parent is None:
                continue
            ids = [member["id"] for member in members]
            frames = [member["frame"] for member in members]
            left, top = min(f[0] for f in frames), min(f[1] for f in frames)
            right, bottom = max(f[0] + f[2] for f in frames), max(f[1] + f[3] for f in frames)
            group_id = "%s@radio:%s" % (parent, group)
            siblings = children[parent]
            siblings.insert(siblings.index(ids[0]), group_id)
            for member in members:
                siblings.remove(member["id"])
                member["frame"] = [member["frame"][0] - left, member["frame"][1] - top] + member["frame"][2:]
            props[group_id] = {"id": group_id, "class": "UISegmentedControl",
                               "frame": [left, top, right - left, bottom - top]}
            children[group_id] = ids

    # -- actions ---------------------------------------------------------------------------------------------------

    def widget(self, view_id: str) -> Any:
        """The live widget of a view id, or :class:`TargetGone`."""
        reference = self.widgets.get(view_id)
        widget = reference() if reference is not None else None
        if widget is None:
            raise TargetGone("no Kivy widget %r (removed?)" % view_id)
        if widget.get_root_window() is None and not is_a(widget, MODAL_CLASSES + POPUP_CLASSES):
            raise TargetGone("the Kivy widget %r was removed from the window" % view_id)
        return widget

    def perform(self, request: ActionRequest) -> bool:
        """One action, done with Kivy's own calls so the app's callbacks run (Specs/kivy-adapter.md §Actions)."""
        action, target = request.action, request.target
        if target in ("", "window"):
            return self._escape(None) if action == "escape" else False
        widget = self.widget(target)
        self._mark_widget(widget)  # whatever the action changed on it is rebuilt
        handler = adapters.find_actions(widget)
        handled = handler(self, widget, request) if handler is not None else None
        if handled is not None:
            return bool(handled)
        method = ACTIONS.get(action)
        return bool(method(self, widget, request)) if method is not None else False

    def activate(self, widget: Any) -> bool:
        """A press: ButtonBehavior's ``trigger_action`` (on_press, on_release, a toggle's state and group), a
        Switch's ``active``, a text input's focus, a file's selection, a RecycleView row's selection."""
        if getattr(widget, "disabled", False):
            return False
        if is_a(widget, ("FileListEntry",)):
            return self._open_file_entry(widget)
        if hasattr(widget, "trigger_action"):
            widget.trigger_action(duration=0)
            return True
        if is_a(widget, ("Switch",)):
            widget.active = not widget.active
            return True
        if self._is_row(widget) and hasattr(widget.parent, "select_with_touch"):
            widget.parent.select_with_touch(widget.parent.view_indices[widget])
            return True
        if "focus" in widget.properties():
            widget.focus = True
            return True
        return False

    @staticmethod
    def _open_file_entry(widget: Any) -> bool:
        """A FileChooser entry, as a click: a folder opens (Kivy's ``open_entry``), a file is selected."""
        chooser = adapters.file_chooser_of(widget)
        if chooser is None:
            raise TargetGone("the file chooser of %r is gone" % getattr(widget, "path", ""))
        if chooser.file_system.is_dir(widget.path):
            chooser.open_entry(widget)
        else:
            chooser.selection = [widget.path]
        return True

    def adjust(self, widget: Any, sign: int) -> bool:
        """increment/decrement: a Slider by its ``step`` (else a twentieth of its range), a Spinner to the
        next/previous value, a ScrollView by a tenth."""
        if getattr(widget, "disabled", False):
            return False
        if is_a(widget, ("Slider",)):
            step = adapters.number(widget.step) or (widget.max - widget.min) / 20.0
            widget.value = min(max(widget.value + sign * step, widget.min), widget.max)
            return True
        if is_a(widget, ("Spinner",)):
            values = [str(value) for value in widget.values]
            if not values:
                return False
            index = values.index(widget.text) + sign if widget.text in values else 0
            widget.text = values[min(max(index, 0), len(values) - 1)]
            return True
        if is_a(widget, ("ScrollView",)):
            return self.scroll(widget, "down" if sign > 0 else "up")
        return False

    def set_value(self, widget: Any, value: Any) -> bool:
        """setValue: a TextInput's text, a Slider's value, a Switch/CheckBox on/off, a Spinner's listed value."""
        if getattr(widget, "disabled", False):
            return False
        text = "" if value is None else str(value)
        if is_a(widget, ("TextInput",)):
            if widget.readonly:
                return False
            widget.text = text
            return True
        if is_a(widget, ("Slider",)):
            widget.value = min(max(float(text), widget.min), widget.max)
            return True
        if is_a(widget, ("Switch", "CheckBox")):
            wanted = text.lower() in ("1", "true", "on", "yes")
            if bool(widget.active) != wanted:
                self.activate(widget)
            return True
        if is_a(widget, ("Spinner",)):
            values = [str(v) for v in widget.values]
            if text not in values:
                raise ValueError("%r is not one of the spinner's values %r" % (text, values))
            widget.text = text
            return True
        return False

    def type_text(self, widget: Any, text: str) -> bool:
        """typeText: focus, then ``insert_text`` at the caret (the app's ``input_filter`` and bindings run)."""
        if getattr(widget, "disabled", False) or not is_a(widget, ("TextInput",)) or widget.readonly:
            return False
        widget.focus = True
        widget.insert_text(text)
        return True

    def select_range(self, widget: Any, value: Any) -> bool:
        """setSelectedTextRange on a TextInput: the caret at the range's end and the range selected."""
        if isinstance(value, dict):
            value = [value.get("location", 0), value.get("length", 0)]
        if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(isinstance(v, int) for v in value):
            raise ValueError("setSelectedTextRange needs [location, length], got %r" % (value,))
        if not is_a(widget, ("TextInput",)):
            return False
        length = len(widget.text)
        start = min(max(0, value[0]), length)
        end = min(start + max(0, value[1]), length)
        widget.cursor = widget.get_cursor_from_index(end)
        if end > start:
            widget.select_text(start, end)
        else:
            widget.cancel_selection()
        return True

    def custom(self, widget: Any, request: ActionRequest) -> bool:
        """``custom:<choice>`` of a Spinner picks that choice."""
        return is_a(widget, ("Spinner",)) and self.set_value(widget, request.custom_action)

    def scroll(self, widget: Any, direction: str) -> bool:
        """Scrolls the widget's ScrollView (itself or its nearest ancestor) by a tenth of its range."""
        view = widget
        while view is not None and not is_a(view, ("ScrollView",)):
            view = getattr(view, "parent", None)
        if view is None:
            return False
        delta = {"down": -0.1, "up": 0.1, "right": 0.1, "left": -0.1}.get(direction)
        if delta is None:
            raise ValueError("unknown scroll direction %r" % direction)
        if direction in ("up", "down"):
            view.scroll_y = min(max(view.scroll_y + delta, 0.0), 1.0)
        else:
            view.scroll_x = min(max(view.scroll_x + delta, 0.0), 1.0)
        return True

    def _escape(self, widget: Optional[Any]) -> bool:
        """escape: the popup holding ``widget`` (else the front-most one) is dismissed; an open Spinner closes."""
        if widget is not None and is_a(widget, ("Spinner",)) and widget.is_open:
            widget.is_open = False
            return True
        overlay = widget
        while overlay is not None and not is_a(overlay, MODAL_CLASSES + POPUP_CLASSES):
            overlay = getattr(overlay, "parent", None)
        if overlay is None:
            opened = [w for w in self.window.children if is_a(w, MODAL_CLASSES + POPUP_CLASSES)]
            overlay = opened[0] if opened else None
        if overlay is None:
            return False
        overlay.dismiss()
        return True

    # -- keys ------------------------------------------------------------------------------------------------------

    def on_key_event(self, event_type: str, args: Tuple[Any, ...]) -> bool:
        """The window's key events, before any handler: forwards the keystroke (the kit's policy); True drops it.
        A consumed key's text (SDL's textinput after its keydown) is dropped too."""
        if event_type == "on_textinput":
            drop, self._drop_text = self._drop_text, False
            return drop
        phase = "press" if event_type == "on_key_down" else "release"
        keysym, modifiers, char = self._key_args(phase, args)
        if phase == "press":
            self._drop_text = False
        target = self._keyboard_target()
        masked = bool(target is not None and getattr(target, "password", False))
        consumed = self.forward_key(keysym, modifiers, phase, char, masked)
        if consumed and phase == "press" and char.isprintable() and char and not set(modifiers) - {"shift"}:
            self._drop_text = True
        return consumed

    def _key_args(self, phase: str, args: Tuple[Any, ...]) -> Tuple[str, List[str], str]:
        """(keysym, modifiers, typed character) of ``on_key_down(key, scancode, codepoint, modifiers)`` /
        ``on_key_up(key, scancode)`` (whose modifiers are the window's)."""
        key = args[0] if args else 0
        down = phase == "press"
        codepoint = args[2] if down and len(args) > 2 and isinstance(args[2], str) else ""
        raw = args[3] if down and len(args) > 3 else self.window.modifiers
        modifiers = [MODIFIERS[m] for m in (raw or []) if m in MODIFIERS]
        keysym = self.keysym(key, codepoint, modifiers)
        if not down:  # Kivy's key-up has no character: the keysym's, so a release into a masked field is kept too
            codepoint = keysym if len(keysym) == 1 else CHARACTERS.get(keysym, "")
        return keysym, modifiers, codepoint

    def _keyboard_target(self) -> Any:
        """The widget holding Kivy's keyboard (FocusBehavior's focus), else None."""
        keyboard = getattr(self.window, "_system_keyboard", None)
        return getattr(keyboard, "target", None)

    def keysym(self, key: Any, codepoint: str, modifiers: List[str]) -> str:
        """The X keysym name of a Kivy key code (its name from Kivy's keyboard, then :data:`KEYSYMS`)."""
        try:
            name = self.window._system_keyboard.keycode_to_string(int(key))
        except (AttributeError, TypeError, ValueError):
            name = ""
        name = str(name or "")
        if name in KEYSYMS:
            return KEYSYMS[name]
        if len(name) == 1:
            if name.isalpha():
                return name.upper() if "shift" in modifiers else name
            return CHARS.get(name, name)
        if name.startswith("f") and name[1:].isdigit():
            return name.upper()
        return name


def _union(rects: List[List[int]]) -> List[int]:
    left, top = min(r[0] for r in rects), min(r[1] for r in rects)
    right, bottom = max(r[0] + r[2] for r in rects), max(r[1] + r[3] for r in rects)
    return [left, top, right - left, bottom - top]


def _registered(widget: Any) -> bool:
    """True when the app registered an adapter for the widget's class (or an ancestor class it defines)."""
    found = adapters._lookup(adapters.ADAPTERS, widget)
    return found is not None and found not in adapters.BUILTIN.values()


ACTIONS: Dict[str, Any] = {
    "activate": lambda mirror, widget, request: mirror.activate(widget),
    "increment": lambda mirror, widget, request: mirror.adjust(widget, 1),
    "decrement": lambda mirror, widget, request: mirror.adjust(widget, -1),
    "setValue": lambda mirror, widget, request: mirror.set_value(widget, request.value),
    "typeText": lambda mirror, widget, request: mirror.type_text(widget, str(request.value or "")),
    "escape": lambda mirror, widget, request: mirror._escape(widget),
    "scroll": lambda mirror, widget, request: mirror.scroll(widget, str(request.direction or "down")),
    "setSelectedTextRange": lambda mirror, widget, request: mirror.select_range(widget, request.value),
    "custom": lambda mirror, widget, request: mirror.custom(widget, request),
}
