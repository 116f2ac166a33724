"""The pygame_gui mirror (Specs/pygame-gui-adapter.md): a mapping on the adapter kit (:class:`ToolkitMirror`).

One :class:`Mirror` per process publishes the pygame display as a window holding the elements of every
``UIManager`` drawn into the last frame, and each ``UIWindow`` as a window of its own. Hooks (installed once, on
the classes, so an unmodified app needs no change):

* dirtiness — pygame_gui redraws an element's image whenever it changes (text, state, value, hover), so
  ``UIElement._set_image`` plus the structural calls (``kill``, ``show``/``hide``, ``enable``/``disable``, moves,
  a container's ``add_element``/``remove_element``, the focus set and window stack) mark the tree dirty; input
  events reaching ``UIManager.process_events`` do too. Nothing is walked while nothing changed;
* the flush — at the end of the frame (``pygame.display.flip``/``update``, else ``UIManager.update``), at most
  once per frame, with whatever changed during it;
* keys and the wake-up — ``pygame.event.get``/``poll``/``wait`` forward each key event to the server before the
  app (and its manager) see it, drop it when an assistive technology consumed it, and run the server's queued
  actions when the mirror's wake-up event (a posted user event) comes out of the queue.

Actions are the input a user would give (Specs §Actions): a click is a posted MOUSEBUTTONDOWN/UP at the element's
centre, typing a posted TEXTINPUT, so the app's own loop and pygame_gui's event handling run its callbacks.
Standard library only; pygame and pygame_gui are imported when the first mirror is made.
"""
from __future__ import annotations

import functools
import html
import os
import re
import sys
import weakref
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ..kit import StableIds, TargetGone, ToolkitMirror, part_id
from ..kit.labels import label_beside
from ..kit.link import warn as kit_warn
from ..provider import ActionRequest
from . import adapters, keys

#: Element methods (on pygame_gui's element classes) after which the tree may have changed.
MUTATORS = ("_set_image", "kill", "show", "hide", "enable", "disable", "set_position", "set_relative_position",
            "set_dimensions", "focus", "unfocus", "set_text", "set_current_value", "set_item_list")
#: pygame_gui elements that make no containers inside them.
LEAF_KINDS = frozenset(("UIButton", "UILabel", "UIImage", "UITextEntryLine", "UICheckBox", "UIProgressBar",
                        "UIStatusBar", "UIScreenSpaceHealthBar"))
#: SDL video drivers that show no window.
HEADLESS_DRIVERS = ("dummy", "offscreen", "evdev")
#: The attributes under which pygame_gui 0.6 keeps the containers it makes inside an element.
OWNED_CONTAINERS = ("_root_container", "button_container", "panel_container", "_window_root_container",
                    "window_element_container", "item_list_container", "list_and_scroll_bar_container",
                    "_view_container", "scrollable_container", "section_container", "element_container")
#: The ``UIManager`` of each ``pygame.event`` reader the hook wraps.
EVENT_READERS = ("get", "poll", "wait")
LOG = "axclient.pygame_gui"


def warn(message: str) -> None:
    """One stderr line ``axclient.pygame_gui: …``."""
    kit_warn(message, LOG)


class _Part:
    """The target of a part view (a list row, a tab, an option, a close button): the element a click goes to."""

    __slots__ = ("element",)

    def __init__(self, element: Any) -> None:
        self.element = element


class _Walk:
    """One build (or one container's part of it): the flat views, their absolute origins, the action targets,
    the windows found, the focused view found, the labels per container."""

    def __init__(self, screen_frame: List[int], labels: Optional[Dict[int, Any]] = None) -> None:
        self.props: Dict[str, Dict[str, Any]] = {}
        self.children: Dict[Optional[str], List[str]] = {None: []}
        self.origins: Dict[str, Tuple[int, int]] = {}
        self.labels: Dict[int, List[Tuple[Tuple[int, int, int, int], str]]] = {} if labels is None else labels
        self.windows: List[Tuple[int, str]] = []
        self.targets: Dict[str, Any] = {}
        self.focused: Optional[str] = None
        self.screen_frame = screen_frame

    def merge(self, other: "_Walk") -> None:
        """Adds a container's part (walked now or remembered) after what this walk has so far."""
        self.props.update(other.props)
        for parent, kids in other.children.items():
            if parent is not None:
                self.children.setdefault(parent, []).extend(kids)
        self.origins.update(other.origins)
        self.windows.extend(other.windows)
        self.targets.update(other.targets)


class Mirror(ToolkitMirror):
    """Mirrors the pygame_gui managers of this process into AXServer as one app.

    ``Mirror(manager, name=None, address=None, forward_keys=None)``: ``name`` defaults to the script or module
    name; ``address`` to ``$AXSERVER_SOCKET``, else the default socket; ``forward_keys`` (default on unless
    ``$AXCLIENT_PGUI_FORWARD_KEYS`` is ``0``) sends each keystroke to the server before the app sees it. More
    managers join with :meth:`attach`. The publishing, action queue and closing are the kit's."""

    toolkit = "pygame_gui"
    log_source = LOG
    target_errors = (TargetGone, ValueError, KeyError, AttributeError)

    def __init__(self, manager: Any, name: Optional[str] = None, address: Optional[str] = None,
                 retry_interval: float = 1.0, forward_keys: Optional[bool] = None) -> None:
        if forward_keys is None:
            forward_keys = os.environ.get("AXCLIENT_PGUI_FORWARD_KEYS", "1") not in ("0", "no", "false")
        super().__init__(name or default_app_name(), address, retry_interval, forward_keys)
        import pygame  # noqa: WPS433 — the app's toolkit, imported by the app already
        self.pygame = pygame
        self.ids = StableIds()
        self.managers: List["weakref.ReferenceType[Any]"] = []
        self._targets: Dict[str, Any] = {}
        self._flush_wanted = False
        self._wake_pending = False
        self._drawn: List[Any] = []
        self._on_screen: Optional[List["weakref.ReferenceType[Any]"]] = None
        self._pressed: Dict[Any, Tuple[str, str]] = {}
        self._drop_text: Optional[str] = None
        self._headless_reported = False
        #: Leaf views by element identity: ``(element, signature, view id, props, target)``, reused (the same dict:
        #: the diff skips it) while the element was not touched and its signature holds (§Live).
        self._cache: Dict[int, Tuple[Any, Tuple[Any, ...], str, Dict[str, Any], Any]] = {}
        #: Per container: a generation bumped when one of its labels changed (a control's name may change).
        self._label_generation: Dict[int, int] = {}
        #: Per container: a generation bumped when an element inside it (at any depth) was touched, and the part
        #: of the last walk it gave: ``(container, signature, walk)``.
        self._container_generation: Dict[int, int] = {}
        self._subtrees: Dict[int, Tuple[Any, Tuple[Any, ...], _Walk]] = {}
        self._walk = _Walk([0, 0, 0, 0])
        self._focus_set: Any = ()
        install_hooks()
        _LIVE.append(self)
        self.attach(manager)
        self.start()

    # -- managers and frames ----------------------------------------------------------------------------------------

    def attach(self, manager: Any) -> None:
        """Mirrors ``manager`` too (a second manager, or one that replaced the first)."""
        if any(ref() is manager for ref in self.managers):
            return
        self.managers.append(weakref.ref(manager))
        manager._ax_mirror = self
        self.mark_dirty()

    def live_managers(self) -> List[Any]:
        """The managers drawn into the last frame (every live one before the app first flipped the display)."""
        refs = self._on_screen if self._on_screen is not None else self.managers
        found = [ref() for ref in refs]
        return [manager for manager in found if manager is not None]

    def note_drawn(self, manager: Any) -> None:
        """``draw_ui`` ran: ``manager`` is part of this frame."""
        if manager not in self._drawn:
            self._drawn.append(manager)

    def end_frame(self, flipped: bool) -> None:
        """The end of a frame (a display flip, else a manager's update): notes which managers are on screen (a
        replaced manager leaves the tree), runs actions a filtered event queue kept from the mirror, flushes."""
        if flipped and self._drawn:
            drawn = [weakref.ref(manager) for manager in self._drawn]
            self._drawn = []
            if self._on_screen is None or [r() for r in self._on_screen] != [r() for r in drawn]:
                self._on_screen = drawn
                self.mark_dirty()
        if self._wake_pending and self.has_jobs():
            self._wake_pending = False
            self.run_jobs()
        if self._flush_wanted:
            self._flush_wanted = False
            self.idle_flush()

    def touched(self, element: Any) -> None:
        """An element changed (a hook saw it): its cached view and its owner's are stale; a label's change
        may rename the controls of its container."""
        current, hops = element, 0
        while current is not None and hops < 8:
            self._cache.pop(id(current), None)
            current, hops = getattr(current, "parent_element", None), hops + 1
        if _kind(element) == "UILabel":
            container = id(getattr(element, "ui_container", None))
            self._label_generation[container] = self._label_generation.get(container, 0) + 1
        container = element if getattr(element, "elements", None) is not None else getattr(element, "ui_container",
                                                                                            None)
        hops = 0
        while container is not None and hops < 32:
            self._container_generation[id(container)] = self._container_generation.get(id(container), 0) + 1
            container, hops = getattr(container, "ui_container", None), hops + 1
        self.mark_dirty()

    def has_jobs(self) -> bool:
        """True while actions wait for the loop."""
        with self._jobs_lock:
            return bool(self._jobs)

    # -- kit hooks --------------------------------------------------------------------------------------------------

    def request_flush(self) -> bool:
        """A flush at the end of the current frame."""
        self._flush_wanted = True
        return True

    def request_jobs(self) -> None:
        """Wakes the app's loop (any thread): a posted user event its ``pygame.event.get`` returns; without an
        event system (no display yet) the next frame's end runs the jobs."""
        self._wake_pending = True
        try:
            self.pygame.event.post(self.pygame.event.Event(_wake_type()))
        except Exception as error:  # noqa: BLE001 — pygame.error before display init; never raise into the link
            self.warn_once("wake", "cannot post the wake-up event (%s); actions run at the next frame" % error)

    def run_queued(self) -> None:
        """The wake-up event came out of the queue (app thread)."""
        self._wake_pending = False
        self.run_jobs()

    def alive(self) -> bool:
        return not self.closed and bool(self.live_managers())

    def release(self) -> None:
        if self in _LIVE:
            _LIVE.remove(self)
        for ref in self.managers:
            manager = ref()
            if manager is not None and getattr(manager, "_ax_mirror", None) is self:
                manager._ax_mirror = None

    # -- building ---------------------------------------------------------------------------------------------------

    def build(self) -> Tuple[Dict[str, Dict[str, Any]], Dict[Optional[str], List[str]]]:
        """The display window with its elements, then the UIWindows (front-most last)."""
        self.focused_view = None
        screen = self._screen_view()
        walk = _Walk(screen["frame"])
        self._walk = walk
        walk.props["screen"] = screen
        walk.children[None].append("screen")
        walk.children["screen"] = []
        walk.origins["screen"] = (0, 0)
        for manager in self.live_managers():
            self._focus_set = manager.get_focus_set() or ()
            root = manager.get_root_container()
            if root is not None:
                self._walk_container(root, "screen")
        walk.windows.sort()
        walk.children[None].extend(wid for _, wid in walk.windows)
        self._mark_key_window(walk)
        self._targets = walk.targets
        if len(self._subtrees) > 4 * len(walk.children) + 64 or len(self._cache) > 2 * len(walk.props) + 256:
            self._subtrees.clear()  # elements and containers gone for good (a replaced manager's): let them go
            self._cache.clear()
        return walk.props, walk.children

    def _screen_view(self) -> Dict[str, Any]:
        """The pygame display window: its caption, its position on the screen and size."""
        display = self.pygame.display
        try:
            caption = str(display.get_caption()[0] or "") if display.get_init() else ""
        except Exception:  # noqa: BLE001 — pygame.error without a video system
            caption = ""
        width, height = self._screen_size()
        x, y = self._window_position()
        return {"class": "UIWindow", "id": "screen", "windowTitle": caption[:4096],
                "accessibilityLabel": caption[:4096], "frame": [x, y, width, height]}

    def _screen_size(self) -> Tuple[int, int]:
        try:
            surface = self.pygame.display.get_surface()
        except Exception:  # noqa: BLE001
            surface = None
        if surface is not None:
            return surface.get_size()
        managers = self.live_managers()
        size = getattr(managers[0], "window_resolution", (0, 0)) if managers else (0, 0)
        return int(size[0]), int(size[1])

    def _window_position(self) -> Tuple[int, int]:
        """Where the display's window is on the screen; (0, 0) without one (SDL's dummy or offscreen video
        driver, no display yet), said once on stderr."""
        display = self.pygame.display
        try:
            driver = str(display.get_driver()) if display.get_init() else ""
            if driver not in HEADLESS_DRIVERS and display.get_surface() is not None:
                x, y = display.get_window_position()
                return int(x), int(y)
        except Exception:  # noqa: BLE001 — pygame.error: no video system
            driver = ""
        if not self._headless_reported:
            self._headless_reported = True
            warn("no window on a screen (SDL video driver %r): the app is mirrored at (0, 0) for tests; a screen "
                 "reader has nothing to show" % (driver or os.environ.get("SDL_VIDEODRIVER", "")))
        return 0, 0

    def _walk_container(self, container: Any, parent_id: str) -> None:
        """A container's elements into the walk: remembered from the last walk when nothing inside it was
        touched and where it sits is unchanged (a panel of 100 untouched buttons costs one lookup)."""
        outer = self._walk
        origin = outer.origins.get(parent_id, (0, 0))
        signature = (self._container_generation.get(id(container), 0), parent_id, origin, tuple(outer.screen_frame),
                     len(getattr(container, "elements", ()) or ()))
        remembered = self._subtrees.get(id(container))
        if remembered is not None and remembered[0] is container and remembered[1] == signature:
            self._replay(remembered[2])
            return
        part = _Walk(outer.screen_frame, outer.labels)
        part.origins[parent_id] = origin
        focused_before = self.focused_view
        self._walk = part
        try:
            self._walk_elements(container, parent_id)
        finally:
            self._walk = outer
        if self.focused_view != focused_before:
            part.focused = self.focused_view
        del part.origins[parent_id]
        self._subtrees[id(container)] = (container, signature, part)
        outer.merge(part)

    def _replay(self, part: _Walk) -> None:
        self._walk.merge(part)
        if part.focused is not None and self.focused_view is None:
            self.focused_view = part.focused

    def _walk_elements(self, container: Any, parent_id: str) -> None:
        elements = list(getattr(container, "elements", ()) or ())
        owned = _owned_containers(elements)
        for element in elements:
            try:
                self._place(element, owned.get(id(element)) or getattr(element, "parent_element", None), parent_id)
            except Exception as error:  # noqa: BLE001 — one broken element never hides the app
                self.warn_once("walk:%s" % type(element).__name__, "cannot mirror a %s (%s: %s); left out"
                               % (type(element).__name__, type(error).__name__, error))

    def _place(self, element: Any, owner: Any, parent_id: str) -> None:
        """One element of a container: an inner container of a mapped element is walked into that element's
        view, a page of one (a tab's panel) is a view inside it; any other part of an element (a slider's
        buttons, a window's title bar) is left to that element's adapter; anything else is a view."""
        if owner is None:
            self._add_view(element, parent_id)
            return
        if not adapters.is_container(owner):
            return
        owner_id = self._id_for(owner, parent_id if not _is_window(owner) else "")
        self._walk.origins.setdefault(owner_id, (owner.rect.x, owner.rect.y))
        if _is_inner_container(element):
            self._walk_container(element, owner_id)
        elif adapters.is_container(element):
            self._add_view(element, owner_id)

    def _id_for(self, element: Any, parent_id: str) -> str:
        name = app_object_name(element)
        kind = "window" if _is_window(element) else type(element).__name__.lstrip("U").lstrip("I") or "element"
        return self.ids.id_for(element, parent_id or "win", kind, name=name)

    def _add_view(self, element: Any, parent_id: str) -> None:
        walk = self._walk
        if self._add_cached(element, parent_id):
            return
        is_window = _is_window(element)
        view_id = self._id_for(element, "" if is_window else parent_id)
        self.current_id = view_id
        props = self._adapt(element)
        parts = props.pop("children", None) or []
        target = props.pop("_target", element)
        popup = props.pop("_popup", None)
        rect = element.rect
        origin = walk.origins.get(parent_id, (0, 0))
        if is_window:
            screen = walk.screen_frame
            props["frame"] = [screen[0] + rect.x, screen[1] + rect.y, rect.width, rect.height]
            walk.windows.append((_window_order(element), view_id))
        else:
            props["frame"] = [rect.x - origin[0], rect.y - origin[1], rect.width, rect.height]
            walk.children.setdefault(parent_id, []).append(view_id)
        props["id"] = view_id
        walk.origins[view_id] = (rect.x, rect.y)
        part_ids: List[str] = []
        for part in parts:
            self._add_part(part, part_ids)
        kids = walk.children.setdefault(view_id, [])
        kids[0:0] = part_ids  # a tab bar, rows, a close button: before the element's inner elements
        self._states(element, props, view_id)
        walk.props[view_id] = props
        target = target if target is not None else element
        walk.targets[view_id] = target
        if popup is not None:
            self._add_popup(dict(popup), view_id)
        elif not is_window and not part_ids and not adapters.is_container(element):
            self._cache[id(element)] = (element, self._signature(element, origin), view_id, props, target)

    def _signature(self, element: Any, origin: Tuple[int, int]) -> Tuple[Any, ...]:
        """What a leaf's view depends on besides the element's own state (which its hooks report)."""
        rect = element.rect
        return (rect.x, rect.y, rect.width, rect.height, origin, getattr(element, "visible", True),
                getattr(element, "is_enabled", True), element in self._focus_set,
                self._label_generation.get(id(getattr(element, "ui_container", None)), 0))

    def _add_cached(self, element: Any, parent_id: str) -> bool:
        """Reuses a leaf's view (the same dict) when nothing it depends on changed; False when it must be built."""
        entry = self._cache.get(id(element))
        if entry is None or entry[0] is not element:
            return False
        walk = self._walk
        origin = walk.origins.get(parent_id, (0, 0))
        signature = self._signature(element, origin)
        if signature != entry[1]:
            del self._cache[id(element)]
            return False
        _, _, view_id, props, target = entry
        walk.children.setdefault(parent_id, []).append(view_id)
        walk.children[view_id] = []
        walk.props[view_id] = props
        walk.targets[view_id] = target
        if signature[7] and self.focused_view is None and props.get("isFocused"):
            self.focused_view = view_id
        return True

    def _add_popup(self, popup: Dict[str, Any], owner_id: str) -> None:
        """A pop-up an element shows (a drop-down's options): a window in front of every other, framed on the
        screen, its parts inside."""
        walk = self._walk
        source = popup.pop("_element")
        popup_id = part_id(owner_id, "popup")
        screen, rect = walk.screen_frame, source.rect
        popup.update({"id": popup_id, "frame": [screen[0] + rect.x, screen[1] + rect.y, rect.width, rect.height]})
        part_ids: List[str] = []
        for part in popup.pop("children", None) or []:
            self._add_part(part, part_ids)
        walk.props[popup_id] = popup
        walk.children[popup_id] = part_ids
        walk.windows.append((1 << 30, popup_id))

    def _adapt(self, element: Any) -> Dict[str, Any]:
        """The element's view from its adapter; a failing adapter falls back to its base class's (one stderr
        line per class), at last a generic view."""
        chain = adapters.adapters_in_order(element)
        for position, adapter in enumerate(chain):
            try:
                return dict(adapter(self, element))
            except Exception as error:  # noqa: BLE001 — an app's adapter (or a broken element) must not hide it
                fallback = chain[position + 1].__name__ if position + 1 < len(chain) else "nothing"
                self.warn_once("adapter:%s:%d" % (type(element).__name__, position),
                               "the %s adapter failed (%s: %s); using the %s mapping"
                               % (type(element).__name__, type(error).__name__, error, fallback))
        return {"class": "UIView"}

    def _states(self, element: Any, props: Dict[str, Any], view_id: str) -> None:
        name = app_object_name(element)
        if name:
            props["accessibilityIdentifier"] = name
        if not getattr(element, "visible", True):
            props["isHidden"] = True
        if not getattr(element, "is_enabled", True):
            props["isEnabled"] = False
        if self.focused_view is None and props.get("class") not in FOCUSLESS and element in self._focus_set:
            self.take_focus(props, view_id)

    def _add_part(self, part: Dict[str, Any], kids: List[str]) -> None:
        part = dict(part)
        target = part.pop("_target", None)
        focused = part.pop("_focused", False)
        part_id_ = str(part["id"])
        if target is not None:
            self._walk.targets[part_id_] = _Part(target)
        if focused and self.focused_view is None:
            self.take_focus(part, part_id_)
        self._walk.props[part_id_] = part
        self._walk.children[part_id_] = []
        kids.append(part_id_)

    def _mark_key_window(self, walk: _Walk) -> None:
        """The key window: the front-most visible UIWindow, else the display."""
        for _, window_id in reversed(walk.windows):
            if not walk.props[window_id].get("isHidden"):
                walk.props[window_id] = dict(walk.props[window_id], isKeyWindow=True)  # a remembered view: copy
                return
        walk.props["screen"]["isKeyWindow"] = True

    # -- helpers for adapters ---------------------------------------------------------------------------------------

    #: The id of the view being adapted (for part ids).
    current_id = ""

    def frame_in(self, element: Any, owner: Any) -> List[int]:
        """``element``'s rect relative to ``owner``'s (both absolute in the manager's surface)."""
        rect, base = element.rect, owner.rect
        return [rect.x - base.x, rect.y - base.y, rect.width, rect.height]

    def label_beside(self, element: Any) -> Optional[str]:
        """The text of the UILabel beside ``element`` in its container (the kit's geometric rule)."""
        container = getattr(element, "ui_container", None)
        if container is None:
            return None
        labels = self._walk.labels.get(id(container))
        if labels is None:
            labels = []
            for other in getattr(container, "elements", ()) or ():
                if type(other).__name__ == "UILabel" and getattr(other, "visible", True):
                    r = other.rect
                    labels.append(((r.x, r.y, r.width, r.height), adapters.text_of(other)))
            self._walk.labels[id(container)] = labels
        r = element.rect
        return label_beside((r.x, r.y, r.width, r.height), labels)

    @staticmethod
    def plain_text(markup: str) -> str:
        """pygame_gui's HTML subset as plain text (``<br>`` a line break)."""
        text = re.sub(r"<br\s*/?>", "\n", markup[:200000], flags=re.IGNORECASE)
        return html.unescape(re.sub(r"<[^<>]{0,2000}>", "", text))

    def text_selection(self, element: Any, props: Dict[str, Any]) -> None:
        """The caret and selection of a focused text element as ``selectedTextRange``."""
        if not getattr(element, "is_focused", False) or not self.supports("selectedTextRange"):
            return
        length = len(props.get("text") or "")
        selection = list(getattr(element, "select_range", None) or [0, 0])[:2]
        if len(selection) == 2 and selection[0] != selection[1]:
            low, high = sorted(int(v) for v in selection)
            props["selectedTextRange"] = [min(low, length), min(high, length) - min(low, length)]
        else:
            props["selectedTextRange"] = [min(int(getattr(element, "edit_position", 0) or 0), length), 0]

    def supports(self, property_name: str) -> bool:
        """False once the server refused the property as unknown (an older schema)."""
        return property_name not in self.unsupported

    def list_rows(self, owner: Any, listing: Any, kind: str, klass: str) -> List[Dict[str, Any]]:
        """A UISelectionList's items as part views (``owner`` is the mapped element: the list, or the drop-down
        whose expanded list it is); an item scrolled out of view has no button and is hidden."""
        rows: List[Dict[str, Any]] = []
        for index, item in enumerate(list(getattr(listing, "item_list", None) or [])[:5000]):
            if not isinstance(item, dict):
                continue
            control = item.get("button_element")
            text = str(item.get("text", ""))[:adapters.MAX_LABEL]
            row: Dict[str, Any] = {"id": part_id(self.current_id, "%s%d" % (kind, index)), "class": klass,
                                   "accessibilityLabel": text, "_target": control}
            if klass == "UIButton":
                row["title"] = text
            if control is not None and getattr(control, "visible", True):
                row["frame"] = self.frame_in(control, owner)
                row["_focused"] = bool(getattr(control, "is_focused", False)) and bool(item.get("selected"))
            else:
                row["frame"] = [0, 0, 0, 0]
                row["isHidden"] = True
            if item.get("selected"):
                row["isSelected"] = True
            rows.append(row)
        return rows

    # -- actions ----------------------------------------------------------------------------------------------------

    def perform(self, request: ActionRequest) -> bool:
        """One action, as a user's input (Specs §Actions); app thread."""
        if self._link.debug:  # the value's length only: typed text may be a password
            warn("action %s on %r (value: %d characters)" % (request.action, request.target,
                                                            len(str(request.value or ""))))
        if request.target == "":
            return self._perform_on_app(request)
        target = self._targets.get(request.target)
        if target is None:
            raise TargetGone("no pygame_gui element %r (gone?)" % request.target)
        if isinstance(target, _Part):
            return self._perform_on_part(request, target.element)
        if not _alive(target):
            raise TargetGone("the pygame_gui element %r was killed" % request.target)
        handler = adapters.find_actions(target)
        handled = handler(self, target, request) if handler is not None else None
        if handled is not None:
            return bool(handled)
        method = ACTIONS.get(request.action)
        return bool(method(self, target, request)) if method is not None else False

    def _perform_on_part(self, request: ActionRequest, control: Any) -> bool:
        if control is None or not _alive(control):
            raise TargetGone("the element %r is gone" % request.target)
        if request.action == "activate":
            return self.click(control)
        return False

    def _perform_on_app(self, request: ActionRequest) -> bool:
        if request.action == "escape":
            return self.escape(None)
        return self.key(request.value) if request.action == "key" else False

    def post(self, event_type: int, **attributes: Any) -> None:
        """Posts one input event into the app's queue (its loop processes it as a user's)."""
        self.pygame.event.post(self.pygame.event.Event(event_type, attributes))

    def click(self, element: Any) -> bool:
        """A left click at the element's centre: MOUSEBUTTONDOWN and MOUSEBUTTONUP, as the mouse posts them (a
        hidden or disabled element takes no click, as for a user)."""
        if not getattr(element, "visible", True) or not getattr(element, "is_enabled", True):
            return False
        x, y = element.rect.center
        scale = getattr(element.ui_manager, "mouse_pos_scale_factor", (1, 1))
        pos = (int(x / (scale[0] or 1)), int(y / (scale[1] or 1)))
        for event_type in (self.pygame.MOUSEBUTTONDOWN, self.pygame.MOUSEBUTTONUP):
            self.post(event_type, pos=pos, button=1, touch=False, window=None)
        return True

    def activate(self, element: Any) -> bool:
        """``activate``: a click on the element (a text field takes the focus, as a click gives it)."""
        if _kind(element) in ("UITextEntryLine", "UITextEntryBox"):
            element.ui_manager.set_focus_set(element)
            return True
        return self.click(element)

    def adjust(self, element: Any, sign: int) -> bool:
        """``increment``/``decrement`` of a slider: a click on its arrow button, else the value moved by its
        step with the event a user's move posts."""
        arrow = getattr(element, "right_button" if sign > 0 else "left_button", None)
        if arrow is not None and getattr(arrow, "visible", False):
            return self.click(arrow)
        if not hasattr(element, "set_current_value"):
            return False
        step = adapters.number(getattr(element, "increment", 1), 1.0) or 1.0
        return self.set_value(element, adapters.number(element.get_current_value()) + sign * step)

    def set_value(self, element: Any, value: Any) -> bool:
        """``setValue``: a text element's text or a slider's value, then the event pygame_gui posts for a user's
        change (UI_TEXT_ENTRY_CHANGED, UI_HORIZONTAL_SLIDER_MOVED)."""
        import pygame_gui  # noqa: WPS433
        kind = _kind(element)
        if kind in ("UITextEntryLine", "UITextEntryBox"):
            element.set_text(str(value if value is not None else ""))
            self.post(pygame_gui.UI_TEXT_ENTRY_CHANGED, text=element.get_text(), ui_element=element,
                      ui_object_id=element.most_specific_combined_id)
            return True
        if hasattr(element, "set_current_value"):
            number = adapters.number(value, float("nan"))
            if number != number:
                raise ValueError("setValue on a slider needs a number, not %r" % (value,))
            element.set_current_value(number, False)
            self.post(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, value=element.get_current_value(),
                      ui_element=element, ui_object_id=element.most_specific_combined_id)
            return True
        return False

    def type_text(self, element: Any, text: str) -> bool:
        """``typeText``: the focus to the field (the caret at the end when it had no focus), then the text as
        TEXTINPUT (what typing posts), inserted at the caret."""
        if _kind(element) not in ("UITextEntryLine", "UITextEntryBox"):
            return False
        if not getattr(element, "is_focused", False):
            element.ui_manager.set_focus_set(element)
            self.select_range(element, [len(element.get_text()), 0])
        if text:
            self.post(self.pygame.TEXTINPUT, text=text, window=None)
        return True

    def select_range(self, element: Any, value: Any) -> bool:
        """``setSelectedTextRange`` (a screen reader moves the caret): the entry's selection and caret."""
        if isinstance(value, dict):
            value = [value.get("location", 0), value.get("length", 0)]
        if not isinstance(value, (list, tuple)) or len(value) != 2 or not hasattr(element, "edit_position"):
            return False
        length = len(element.get_text())
        start = min(max(int(adapters.number(value[0])), 0), length)
        end = min(start + max(int(adapters.number(value[1])), 0), length)
        element.select_range = [start, end] if end > start else [0, 0]
        element.edit_position = end
        element.cursor_has_moved_recently = True
        return True

    def scroll(self, element: Any, direction: str) -> bool:
        """``scroll`` (a selection list, a text box, a scrolling container): a page of its vertical scroll bar,
        as dragging it moves it (the element re-lays its rows at its next update)."""
        bar = getattr(element, "scroll_bar", None) or getattr(element, "vert_scroll_bar", None)
        if bar is None or not hasattr(bar, "set_scroll_from_start_percentage"):
            return False
        page = adapters.number(getattr(bar, "visible_percentage", 1.0), 1.0) or 1.0
        sign = {"down": 1, "next": 1, "up": -1, "previous": -1}.get(direction)
        if sign is None:
            return False
        start = adapters.number(getattr(bar, "start_percentage", 0.0))
        bar.set_scroll_from_start_percentage(min(max(start + sign * page, 0.0), max(0.0, 1.0 - page)))
        return True

    def escape(self, element: Optional[Any]) -> bool:
        """``escape``: closes the element's window (else the front-most one) as its close button does — the
        cancel button of a confirmation dialog."""
        window = _window_of(element) if element is not None else None
        if window is None:
            windows = [w for m in self.live_managers() for w in m.get_window_stack().get_full_stack()]
            window = next((w for w in reversed(windows) if getattr(w, "visible", True)), None)
        if window is None:
            return False
        control = getattr(window, "cancel_button", None) or getattr(window, "close_window_button", None)
        if control is not None and getattr(control, "visible", False):
            return self.click(control)
        window.on_close_window_button_pressed()
        return True

    def key(self, value: Any) -> bool:
        """``key``: KEYDOWN (+ TEXTINPUT for a typed character) and KEYUP posted as the keyboard does."""
        if not isinstance(value, dict) or not value.get("key"):
            return False
        found = keys.event_for(str(value.get("key")))
        if found is None:
            raise ValueError("no pygame key for the keysym %r" % value.get("key"))
        key, char = found
        mod = 0
        for bit, name in keys.tables()["mods"]:
            if name in (value.get("modifiers") or []):
                mod |= bit
        phase = str(value.get("phase") or "both")
        pg = self.pygame
        if phase in ("press", "both"):  # ax_action: the key is the server's own, never forwarded back
            self.post(pg.KEYDOWN, key=key, mod=mod, unicode=char, scancode=0, window=None, ax_action=True)
            if char and not mod & ~pg.KMOD_SHIFT:
                self.post(pg.TEXTINPUT, text=char, window=None, ax_action=True)
        if phase in ("release", "both"):
            self.post(pg.KEYUP, key=key, mod=mod, unicode=char, scancode=0, window=None, ax_action=True)
        return True

    # -- keys -------------------------------------------------------------------------------------------------------

    def key_event(self, event: Any) -> bool:
        """A key event on its way to the app (app thread): forwarded to the server first; True when an assistive
        technology consumed it (the event is then dropped, with the TEXTINPUT its press would type)."""
        pg = self.pygame
        if getattr(event, "ax_action", False):
            return False  # posted by the key action: the server sent it
        if event.type == pg.TEXTINPUT:
            if self._drop_text is not None and getattr(event, "text", None) == self._drop_text:
                self._drop_text = None
                return True
            self._drop_text = None
            return False
        press = event.type == pg.KEYDOWN
        if press:
            text = getattr(event, "unicode", "")
            keysym, char = keys.keysym_of(event), text if isinstance(text, str) else ""
            self._pressed[getattr(event, "key", None)] = (keysym, char)
            if len(self._pressed) > 64:
                self._pressed.clear()
        else:  # a release carries no character: the press's (a masked field's release would spell it too)
            keysym, char = self._pressed.pop(getattr(event, "key", None), None) or (keys.keysym_of(event), "")
        if not keysym:
            return False
        consumed = self.forward_key(keysym, keys.modifiers_of(getattr(event, "mod", 0)),
                                    "press" if press else "release", char, self._focus_masked())
        if consumed and press and isinstance(char, str) and char:
            self._drop_text = char
        return consumed

    def _focus_masked(self) -> bool:
        """True when the focused element is a hidden-text entry (its keys would spell the secret)."""
        for manager in self.live_managers():
            for element in manager.get_focus_set() or ():
                if getattr(element, "is_text_hidden", False) and getattr(element, "is_focused", False):
                    return True
        return False


#: Actions by name on an element (after a registered handler declined).
ACTIONS: Dict[str, Callable[[Mirror, Any, ActionRequest], bool]] = {
    "activate": lambda mirror, element, request: mirror.activate(element),
    "increment": lambda mirror, element, request: mirror.adjust(element, 1),
    "decrement": lambda mirror, element, request: mirror.adjust(element, -1),
    "setValue": lambda mirror, element, request: mirror.set_value(element, request.value),
    "typeText": lambda mirror, element, request: mirror.type_text(element, str(request.value or "")),
    "setSelectedTextRange": lambda mirror, element, request: mirror.select_range(element, request.value),
    "escape": lambda mirror, element, request: mirror.escape(element),
    "scroll": lambda mirror, element, request: mirror.scroll(element, str(request.direction or "down")),
    "key": lambda mirror, element, request: mirror.key(request.value),
}

#: View classes that never take the focus (pygame_gui focuses a window or panel clicked on its background).
FOCUSLESS = frozenset(("UIWindow", "UIView", "UIScrollView", "UILabel", "UIImageView", "UIProgressView"))


# -- module helpers ---------------------------------------------------------------------------------------------------

_LIVE: List[Mirror] = []
_WAKE: List[int] = []
_HOOKED: List[Tuple[Any, str, Any]] = []


def _wake_type() -> int:
    """The mirror's wake-up event type (one ``pygame.event.custom_type()`` per process)."""
    if not _WAKE:
        import pygame  # noqa: WPS433
        _WAKE.append(pygame.event.custom_type())
    return _WAKE[0]


_KINDS: Dict[type, str] = {}


def _kind(element: Any) -> str:
    """The name of the nearest pygame_gui class in ``element``'s MRO (an app's subclass maps as its base)."""
    klass = type(element)
    kind = _KINDS.get(klass)
    if kind is None:
        kind = next((k.__name__ for k in klass.__mro__ if k.__module__.startswith("pygame_gui.")), klass.__name__)
        _KINDS[klass] = kind
    return kind


def _is_window(element: Any) -> bool:
    return bool(getattr(element, "is_window", False)) and _kind(element) != "UIContainer"


def _owned_containers(elements: List[Any]) -> Dict[int, Any]:
    """The containers pygame_gui made inside elements of this container without a ``parent_element`` (a tab
    container's, a selection list's, a slider's button row): by the container's identity, the element."""
    owned: Dict[int, Any] = {}
    for element in elements:
        if _kind(element) in LEAF_KINDS:
            continue
        attributes = getattr(element, "__dict__", {})
        for name in OWNED_CONTAINERS:
            inner = attributes.get(name)
            if inner is not None:
                owned[id(inner)] = element
    return owned


def _is_inner_container(element: Any) -> bool:
    """True for a container pygame_gui made inside an element (a panel's, a window's, a tab's page)."""
    return _kind(element) in ("UIContainer", "UIAutoResizingContainer", "UIScrollingContainer")


def _window_order(window: Any) -> int:
    """A UIWindow's place in its manager's window stack (front-most highest)."""
    try:
        stack = window.ui_manager.get_window_stack().get_full_stack()
        return stack.index(window)
    except (AttributeError, ValueError):
        return 0


def _window_of(element: Any) -> Optional[Any]:
    """The UIWindow holding ``element`` (through its containers), or None."""
    seen = 0
    current = element
    while current is not None and seen < 64:
        if _is_window(current):
            return current
        container = getattr(current, "ui_container", None)
        current = getattr(container, "parent_element", None) if container is not None else None
        seen += 1
    return None


def _alive(element: Any) -> bool:
    alive = getattr(element, "alive", None)
    return bool(alive()) if callable(alive) else True


def app_object_name(element: Any) -> Optional[str]:
    """The ``object_id`` the app gave (``#save`` → ``save``), never pygame_gui's own ids."""
    ids = getattr(element, "object_ids", None) or []
    if getattr(element, "parent_element", None) is not None or not ids:
        return None
    name = ids[-1]
    if not isinstance(name, str) or not name.startswith("#"):
        return None
    return name[1:][:200] or None


def default_app_name() -> str:
    """The running script's or module's name (``settings_form``)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None) or (sys.argv[0] if sys.argv else "")
    base = os.path.basename(str(path))
    return (base[:-3] if base.endswith(".py") else base) or "pygame_gui-app"


def _mirror_of(manager: Any) -> Optional[Mirror]:
    mirror = getattr(manager, "_ax_mirror", None)
    return mirror if isinstance(mirror, Mirror) and not mirror.closed else None


def _dirtying(original: Callable[..., Any]) -> Callable[..., Any]:
    """``original`` (an element method), then the tree is dirty."""
    @functools.wraps(original)
    def hooked(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        mirror = _mirror_of(getattr(self, "ui_manager", None))
        if mirror is not None:
            mirror.touched(self)
        return result
    return hooked


def _hook(owner: Any, name: str, make: Callable[[Any], Any]) -> None:
    original = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
    if original is None or getattr(original, "_ax_hook", False):
        return
    hooked = make(original)
    hooked._ax_hook = True
    setattr(owner, name, hooked)
    _HOOKED.append((owner, name, original))


def _element_classes() -> Iterable[type]:
    from pygame_gui.core import UIElement  # noqa: WPS433
    pending, seen = [UIElement], []
    while pending:
        klass = pending.pop()
        if klass not in seen:
            seen.append(klass)
            pending.extend(klass.__subclasses__())
    return seen


def install_hooks() -> None:
    """Hooks pygame_gui's classes and pygame's event readers and display flip (once per process)."""
    if _HOOKED:
        return
    import pygame  # noqa: WPS433
    import pygame_gui  # noqa: WPS433
    from pygame_gui.core import UIContainer  # noqa: WPS433
    from pygame_gui.core.ui_window_stack import UIWindowStack  # noqa: WPS433
    for klass in _element_classes():
        for name in MUTATORS:
            _hook(klass, name, _dirtying)
    for name in ("add_element", "remove_element"):
        _hook(UIContainer, name, _dirtying)
    for name in ("add_new_window", "remove_window", "move_window_to_front"):
        _hook(UIWindowStack, name, _dirtying_stack)
    manager_class = pygame_gui.UIManager
    _hook(manager_class, "process_events", _process_events_hook)
    _hook(manager_class, "update", _update_hook)
    _hook(manager_class, "draw_ui", _draw_hook)
    _hook(manager_class, "set_focus_set", _focus_hook)
    for name in ("flip", "update"):
        _hook(pygame.display, name, _flip_hook)
    for name in EVENT_READERS:
        _hook(pygame.event, name, _reader_hook)


def _dirtying_stack(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def hooked(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(self, *args, **kwargs)
        for mirror in list(_LIVE):
            if args:
                mirror.touched(args[0])  # the window: its container's walk is stale (the stack order changed)
            else:
                mirror.mark_dirty()
        return result
    return hooked


def _process_events_hook(original: Callable[..., Any]) -> Callable[..., Any]:
    def hooked(self: Any, event: Any) -> Any:
        mirror = _mirror_of(self)
        if mirror is not None:
            if getattr(event, "type", None) == _wake_type():
                mirror.run_queued()  # the app read the queue without the mirror's reader hook
                return True
            if event.type != mirror.pygame.MOUSEMOTION:
                mirror.mark_dirty()
        return original(self, event)
    return hooked


def _update_hook(original: Callable[..., Any]) -> Callable[..., Any]:
    """``UIManager.update``: what the app changed while handling this frame's events is published before
    pygame_gui's own update (its cost is the frame's); what the update changes goes at the display flip (or
    right after the update when the app never flips)."""
    def hooked(self: Any, time_delta: float) -> Any:
        mirror = _mirror_of(self)
        if mirror is not None:
            mirror.end_frame(False)
        result = original(self, time_delta)
        if mirror is not None and mirror._on_screen is None:
            mirror.end_frame(False)
        return result
    return hooked


def _draw_hook(original: Callable[..., Any]) -> Callable[..., Any]:
    def hooked(self: Any, surface: Any) -> Any:
        result = original(self, surface)
        mirror = _mirror_of(self)
        if mirror is not None:
            mirror.note_drawn(self)
        return result
    return hooked


def _focus_hook(original: Callable[..., Any]) -> Callable[..., Any]:
    def hooked(self: Any, focus: Any) -> Any:
        result = original(self, focus)
        mirror = _mirror_of(self)
        if mirror is not None:
            mirror.mark_dirty()
        return result
    return hooked


def _flip_hook(original: Callable[..., Any]) -> Callable[..., Any]:
    def hooked(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        for mirror in list(_LIVE):
            mirror.end_frame(True)
        return result
    return hooked


def _reader_hook(original: Callable[..., Any]) -> Callable[..., Any]:
    """``pygame.event.get``/``poll``/``wait``: the mirror's wake-up runs actions and is dropped; key events go
    to the server first and are dropped when an assistive technology consumed them."""
    def hooked(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        if not _LIVE:
            return result
        if isinstance(result, list):
            return [event for event in result if not _intercept(event)]
        if _intercept(result):
            import pygame  # noqa: WPS433
            return pygame.event.Event(pygame.NOEVENT)
        return result
    return hooked


def _intercept(event: Any) -> bool:
    """True when the mirror took ``event`` (its wake-up, or a key an assistive technology consumed)."""
    kind = getattr(event, "type", None)
    if kind == _wake_type():
        for mirror in list(_LIVE):
            mirror.run_queued()
        return True
    mirror = _LIVE[0] if _LIVE else None
    if mirror is None or kind not in (mirror.pygame.KEYDOWN, mirror.pygame.KEYUP, mirror.pygame.TEXTINPUT):
        return False
    try:
        return mirror.key_event(event)
    except Exception as error:  # noqa: BLE001 — a key must reach the app whatever the server did
        mirror.warn_once("key", "cannot forward a key (%s: %s); the app gets it" % (type(error).__name__, error))
        return False


def uninstall_hooks() -> None:
    """Restores every hooked method (tests)."""
    while _HOOKED:
        owner, name, original = _HOOKED.pop()
        setattr(owner, name, original)
