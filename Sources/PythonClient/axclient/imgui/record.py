"""What one ImGui frame submitted, recorded from the app's own calls (Specs/imgui-adapter.md §Frames).

ImGui keeps no widget tree: a widget exists while the app calls ``imgui.button(...)`` in a frame. On a
**recording frame** the :class:`Recorder` puts wrappers in place of the ``imgui`` module's widget functions; each
wrapper calls the real function, then appends one :data:`Item` (kind, ImGui's id of the item, label, screen rect,
value, extras, parent index) — the widget's class comes from the function the app called, its id from ImGui's id
stack (``get_item_id``: label ``##id`` rules and ``push_id`` paths), its state from the call's own result. Between
recording frames the module holds the real functions again: no per-item cost at all.

A wrapper is also where an action lands (D-IMGUI-ACT-1): a pending injection for the item's key changes what the
call returns to the app (a click: ``True``; a checkbox: the toggled value; a slider: the new value) exactly as a
user's input in that frame would, so the app's own logic runs. Standard library only; ``imgui`` is the module
``imgui_bundle.imgui`` the caller passes in.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

#: One recorded item: (kind, key, label, x0, y0, x1, y1, value, extra, parent index or -1).
Item = Tuple[str, Any, str, float, float, float, float, Any, Any, int]

#: How many items one frame may record; past it the rest of the frame is not mirrored (one stderr line).
MAX_ITEMS = 20000


def label_of(text: Any) -> str:
    """The visible part of an ImGui label: text before ``##`` (``"Save##file"`` → ``"Save"``; ``"###id"`` → "")."""
    text = text if isinstance(text, str) else str(text)
    if "##" not in text:
        return text
    cut = text.find("##")
    return text if cut < 0 else text[:cut]


class Recorder:
    """Records one frame's items while :meth:`begin_frame` … :meth:`end_frame` wrap the ``imgui`` module."""

    def __init__(self, imgui: Any) -> None:
        self.imgui = imgui
        self.items: List[Item] = []
        self.overflowed = False
        #: Injections for the next recording frame: key → (what, value) (D-IMGUI-ACT-1).
        self.pending: Dict[Any, Tuple[str, Any]] = {}
        #: Keys whose injection ran in the frame just recorded.
        self.injected: List[Any] = []
        self._stack: List[int] = []
        self._seen: Dict[Any, int] = {}
        self._ordinals: Dict[Tuple[int, str], int] = {}
        self._originals: Dict[str, Callable[..., Any]] = {}
        self._wrappers: Dict[str, Callable[..., Any]] = {}
        # The per-item calls, bound once (a recorded frame makes them once or twice per item).
        self._item_id = imgui.get_item_id
        self._rect_min = imgui.get_item_rect_min
        self._rect_max = imgui.get_item_rect_max
        self._make_wrappers()

    # -- frame -------------------------------------------------------------------------------------------------

    def begin_frame(self) -> None:
        """Starts recording: the module's widget functions become the wrappers."""
        self.items, self.injected, self.overflowed = [], [], False
        self._stack, self._seen, self._ordinals = [], {}, {}
        module = self.imgui
        for name, wrapper in self._wrappers.items():
            setattr(module, name, wrapper)

    def end_frame(self) -> List[Item]:
        """Stops recording (the real functions go back) and answers the frame's items."""
        module = self.imgui
        for name, original in self._originals.items():
            setattr(module, name, original)
        for key in self.injected:
            self.pending.pop(key, None)
        return self.items

    # -- recording ---------------------------------------------------------------------------------------------

    def _parent(self) -> int:
        return self._stack[-1] if self._stack else -1

    def _unique(self, key: Any) -> Any:
        """ImGui's id, made unique within the frame: a second item with the same id (a duplicate label without
        ``##id``, an id collision ImGui itself warns about) is ``(id, 2)``, the third ``(id, 3)``…"""
        seen = self._seen.get(key, 0) + 1
        self._seen[key] = seen
        return key if seen == 1 else (key, seen)

    def _ordinal_key(self, kind: str) -> Any:
        """Items without an ImGui id (text, progress bars, rows): the n-th of their kind in their parent."""
        stack = self._stack
        parent = stack[-1] if stack else -1
        slot = (parent, kind)
        ordinals = self._ordinals
        count = ordinals.get(slot, 0)
        ordinals[slot] = count + 1
        return (self.items[parent][1] if parent >= 0 else "root", kind, count)

    def add(self, kind: str, key: Any, label: str, value: Any = None, extra: Any = None,
            rect: Optional[Tuple[float, float, float, float]] = None) -> int:
        """Appends an item (rect: the last item's unless given) and answers its index (-1 past the limit)."""
        if len(self.items) >= MAX_ITEMS:
            self.overflowed = True
            return -1
        if rect is None:
            return self.add_last(kind, key, label, value, extra)
        stack = self._stack
        self.items.append((kind, key, label, rect[0], rect[1], rect[2], rect[3], value, extra,
                           stack[-1] if stack else -1))
        return len(self.items) - 1

    def add_last(self, kind: str, key: Any, label: str, value: Any = None, extra: Any = None) -> int:
        """:meth:`add` with the last item's rect: the hot path of a recorded frame (one per button, text…)."""
        items = self.items
        if len(items) >= MAX_ITEMS:
            self.overflowed = True
            return -1
        low, high = self._rect_min(), self._rect_max()
        stack = self._stack
        items.append((kind, key, label, low.x, low.y, high.x, high.y, value, extra, stack[-1] if stack else -1))
        return len(items) - 1

    def push(self, index: int) -> None:
        """Items from now on are children of ``index`` (the limit's -1 still pushes, so pops stay paired)."""
        self._stack.append(index)

    def pop(self) -> None:
        """Ends the innermost container."""
        if self._stack:
            self._stack.pop()

    def item_key(self) -> Any:
        """The last item's ImGui id, unique within the frame (see :meth:`_unique`)."""
        key = self._item_id()
        seen = self._seen
        count = seen.get(key, 0) + 1
        seen[key] = count
        return key if count == 1 else (key, count)

    def window_rect(self) -> Tuple[float, float, float, float]:
        """The current window's screen rect."""
        imgui = self.imgui
        pos, size = imgui.get_window_pos(), imgui.get_window_size()
        return (pos.x, pos.y, pos.x + size.x, pos.y + size.y)

    def window_key(self) -> Any:
        """The current window's ImGui id."""
        return self._unique(self.imgui.internal.get_current_window().id_)

    def take(self, key: Any) -> Optional[Tuple[str, Any]]:
        """The pending injection for ``key`` (None: none); it counts as delivered."""
        if not self.pending:
            return None
        injection = self.pending.get(key)
        if injection is not None:
            self.injected.append(key)
        return injection

    def open_next(self, label: Any) -> None:
        """Before a tree node or collapsing header: an ``activate`` toggles it (``set_next_item_open``)."""
        if not self.pending:
            return
        key = self.imgui.get_id(label if isinstance(label, str) else str(label))
        injection = self.pending.get(key)
        if injection is not None:
            self.injected.append(key)
            self.imgui.set_next_item_open(bool(injection[1]))

    # -- wrappers ----------------------------------------------------------------------------------------------

    def _make_wrappers(self) -> None:
        from . import widgets  # the per-function wrappers (widgets.py) — kept apart for readability

        for name, factory in widgets.WRAPPERS.items():
            original = getattr(self.imgui, name, None)
            if original is None:
                continue
            self._originals[name] = original
            self._wrappers[name] = factory(self, original)
