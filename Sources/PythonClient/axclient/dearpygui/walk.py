"""The walk of Dear PyGui's item registry into flat views (Specs/dearpygui-adapter.md §Frames, §Ids): windows from
``get_windows``, children from ``get_item_info``, what each item is from ``get_item_configuration``,
``get_item_state`` and ``get_value``. Ids follow ImGui's rule (the label's id part under the parent's path), never
Dear PyGui's uuids, so an item deleted and created again by the app (an immediate-mode habit) keeps its id.
Standard library only; Dear PyGui is passed in."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..kit import part_id
from ..kit.labels import label_beside
from .mapping import SKIPPED, Item, build_view, id_part, visible_label

#: The most items one walk publishes (a table of 100,000 rows is cut here, with one stderr line): a walk costs
#: about 7 µs an item, so this bounds a walk to ~35 ms and memory to a few MB.
MAX_ITEMS = 5000
#: Deeper nesting than this is not walked (a runaway recursion of containers).
MAX_DEPTH = 48
#: Controls a sibling text may name (the geometric label rule, Specs/adapter-kit.md §Labels).
NAMED_BY_SIBLING = frozenset(("mvInputText", "mvInputInt", "mvInputFloat", "mvInputDouble", "mvSliderInt",
                              "mvSliderFloat", "mvSliderDouble", "mvDragInt", "mvDragFloat", "mvDragDouble",
                              "mvKnobFloat", "mvCombo", "mvListbox", "mvRadioButton", "mvProgressBar",
                              "mvColorEdit", "mvInputIntMulti", "mvInputFloatMulti", "mvSliderFloatMulti"))

Props = Dict[str, Dict[str, Any]]
Children = Dict[Optional[str], List[str]]


def short_kind(kind: str) -> str:
    """``mvAppItemType::mvButton`` → ``mvButton``."""
    return kind.rsplit("::", 1)[-1]


def id_name(kind: str) -> str:
    """The kind as it appears in ids: ``mvWindowAppItem`` → ``Window``, ``mvButton`` → ``Button``."""
    name = kind[2:] if kind.startswith("mv") else kind
    return "Window" if name == "WindowAppItem" else name


class Walk:
    """One walk (a flush's snapshot): ``props``/``children`` as the kit wants them, ``items`` by view id (for
    actions and value-only updates), ``targets`` (view id → (item, part)) and ``focused`` (the view of
    Dear PyGui's focused item)."""

    def __init__(self, dpg: Any, aliases: Dict[int, str], origin: Tuple[float, float], focused_uuid: Any) -> None:
        self.dpg = dpg
        self.aliases = aliases
        self.origin = origin
        self.focused_uuid = focused_uuid
        self.props: Props = {}
        self.children: Children = {None: []}
        self.items: Dict[str, Item] = {}
        self.targets: Dict[str, Tuple[Item, str]] = {}
        self.focused: Optional[str] = None
        self.count = 0
        self.truncated = False
        self.part_rects: Dict[str, List[float]] = {}
        self._seen: Dict[str, int] = {}

    # -- reading Dear PyGui ------------------------------------------------------------------------------------------

    def record(self, uuid: int) -> Optional[Item]:
        """The item's record, or None when it is hidden, skipped or gone (deleted by the app's callback thread
        while the walk runs)."""
        dpg = self.dpg
        try:
            info = dpg.get_item_info(uuid)
            kind = short_kind(str(info.get("type", "")))
            if kind in SKIPPED:
                return None
            config = dpg.get_item_configuration(uuid)
            if config.get("show") is False:
                return None
            item = Item(uuid, kind, self.aliases.get(uuid, ""), config, dpg.get_item_state(uuid))
            item.children = info.get("children") or {}
            item.value = dpg.get_value(uuid)
        except Exception:  # noqa: BLE001 — the item went while we looked (a callback on Dear PyGui's thread)
            return None
        return item

    def rect_of(self, item: Item, window_origin: Tuple[float, float]) -> List[float]:
        """The item's rectangle in screen coordinates: the viewport's origin plus ImGui's ``rect_min``; windows
        from ``pos``; items without a rect (progress bars) from their window-relative ``pos`` and size."""
        state, ox, oy = item.state, self.origin[0], self.origin[1]
        low, size = state.get("rect_min"), state.get("rect_size")
        if item.kind == "mvWindowAppItem":
            low = state.get("pos")
        elif low is None and isinstance(state.get("pos"), (list, tuple)) and any(state["pos"]):
            pos = state["pos"]
            low = [pos[0] + window_origin[0] - ox, pos[1] + window_origin[1] - oy]
            size = [_positive(item.config.get("width"), 200), _positive(item.config.get("height"), 19)]
        if not isinstance(low, (list, tuple)) or len(low) < 2:
            return [0.0, 0.0, 0.0, 0.0]
        if not isinstance(size, (list, tuple)) or len(size) < 2:
            size = [0, 0]
        return [float(low[0]) + ox, float(low[1]) + oy, float(max(size[0], 0)), float(max(size[1], 0))]

    # -- ids -------------------------------------------------------------------------------------------------------

    def view_id(self, item: Item, parent: str) -> str:
        """The app's tag when it gave one; else ``<parent>/<Kind>:<label id part>`` (ImGui's ``##``/``###`` rule);
        unlabeled items ``<parent>/<Kind>``; the second of the same under one parent ``…#2`` (ImGui would
        collide; the order of submission tells them apart)."""
        if item.alias:
            return item.alias
        key = id_part(item.config.get("label"))[:80]
        base = "%s:%s" % (id_name(item.kind), key) if key else id_name(item.kind)
        base = "%s/%s" % (parent, base) if parent else base
        seen = self._seen.get(base, 0)
        self._seen[base] = seen + 1
        return base if seen == 0 else "%s#%d" % (base, seen + 1)

    # -- the tree --------------------------------------------------------------------------------------------------

    def add(self, view_id: str, parent: Optional[str], view: Dict[str, Any], rect: List[float],
            parent_rect: Optional[List[float]]) -> None:
        """Adds one view (``frame`` relative to the parent view's rectangle)."""
        view["id"] = view_id
        view["frame"] = _relative(rect, parent_rect)
        self.props[view_id] = view
        self.children.setdefault(parent, []).append(view_id)

    def windows(self, uuids: List[int]) -> None:
        """Walks the top-level windows (the modal ones last, as ImGui draws them on top); the one holding the focus
        (else the front-most) is the key window."""
        key_window: Optional[str] = None
        for uuid in uuids:
            item = self.record(uuid)
            if item is None or item.kind not in ROOTS:
                continue  # a stage (items made for later), a registry
            view_id = self.view_id(item, "")
            item.rect = self.rect_of(item, (0.0, 0.0))
            item.view_id = view_id
            view = self.finish(item, build_view(item))
            if item.kind == "mvViewportMenuBar":
                view.update({"class": "UIWindow", "windowTitle": "Menu bar", "windowLevel": 100.0})
            self.add(view_id, None, view, item.rect, None)
            self.items[view_id] = item
            self.targets[view_id] = (item, "")
            focused_before = self.focused
            self.walk_children(item, view_id, item.rect, (item.rect[0], item.rect[1]), 1)
            if item.kind == "mvViewportMenuBar":
                self.fit(view_id, item, None)
            elif self.focused is not None and self.focused != focused_before:
                key_window = view_id
        windows = [wid for wid in self.children.get(None, []) if not wid.endswith("@popup")]
        if key_window is None and windows:
            key_window = windows[-1]  # the front-most (modal windows are walked last)
        if key_window is not None:
            # The key window (A27): there is no window manager in the mirror, so the server's bridge activates
            # this one for Orca (D-ATSPI-ACTIVE-1).
            self.props[key_window]["isKeyWindow"] = True

    def walk_children(self, owner: Item, owner_id: str, owner_rect: List[float],
                      window_origin: Tuple[float, float], depth: int) -> None:
        """The children of ``owner`` (slot 1: items; slot 0 of a table: its columns), depth-first."""
        if depth > MAX_DEPTH:
            return
        for uuid in _slot(owner.children, 1):
            if self.count >= MAX_ITEMS:
                self.truncated = True
                return
            item = self.record(uuid)
            if item is not None:
                self.count += 1
                self.item(item, owner_id, owner_rect, window_origin, depth)
        self.name_controls(owner_id)

    def item(self, item: Item, parent: str, parent_rect: List[float], window_origin: Tuple[float, float],
             depth: int) -> None:
        """One item and what it holds (the containers with parts have their own rules)."""
        view_id = self.view_id(item, parent)
        item.view_id = view_id
        item.rect = self.rect_of(item, window_origin)
        self.items[view_id] = item
        special = SPECIAL.get(item.kind)
        if special is not None:
            special(self, item, view_id, parent, parent_rect, window_origin, depth)
            return
        self.targets[view_id] = (item, "")
        view = self.finish(item, build_view(item))
        if item.kind == "mvChildWindow":
            window_origin = (item.rect[0], item.rect[1])
        self.add(view_id, parent, view, item.rect, parent_rect)
        if item.kind in CONTAINERS:
            self.walk_children(item, view_id, item.rect, window_origin, depth + 1)
            if item.rect[2] <= 0 or item.rect[3] <= 0:
                self.fit(view_id, item, parent_rect)

    def finish(self, item: Item, view: Dict[str, Any]) -> Dict[str, Any]:
        """The app's tag as ``accessibilityIdentifier``; the focus."""
        if item.alias:
            view["accessibilityIdentifier"] = item.alias[:256]
        if item.uuid == self.focused_uuid and view.get("isAccessibilityElement"):
            view["isFocused"] = True
            self.focused = item.view_id
        return view

    def fit(self, view_id: str, item: Item, parent_rect: Optional[List[float]]) -> None:
        """A container spans its own rectangle (a header row; none for a tab bar, a table, a row) and its
        children's; the children's frames follow the new origin."""
        union = _union([self.absolute(kid) for kid in self.children.get(view_id, [])] + [item.rect])
        if union is None:
            return
        old, left, top = item.rect, union[0], union[1]
        item.rect = union
        self.props[view_id]["frame"] = _relative(item.rect, parent_rect)
        for kid in self.children.get(view_id, []):
            frame = self.props[kid]["frame"]
            frame[0] += old[0] - left
            frame[1] += old[1] - top

    def absolute(self, view_id: str) -> List[float]:
        item = self.items.get(view_id)
        if item is not None and item.view_id == view_id:
            return item.rect
        return self.part_rects.get(view_id, [0.0, 0.0, 0.0, 0.0])

    def part(self, owner: Item, key: str, parent: str, view: Dict[str, Any], rect: List[float],
             parent_rect: List[float]) -> str:
        """A view for a part of an item that is no item (a radio choice, a list row, a tab, a header row)."""
        view_id = part_id(owner.view_id, key)
        self.part_rects[view_id] = rect
        self.targets[view_id] = (owner, key)
        self.add(view_id, parent, view, rect, parent_rect)
        return view_id

    def name_controls(self, container: str) -> None:
        """The geometric label rule among one container's children: an unlabeled control is named by the text
        beside it (left on its row, else above), Specs/adapter-kit.md §Labels."""
        kids = self.children.get(container, [])
        labels = [(self.items[kid].rect, self.props[kid].get("text", "")) for kid in kids
                  if kid in self.items and self.items[kid].kind == "mvText"][:200]
        if not labels:
            return
        for kid in kids:
            item = self.items.get(kid)
            view = self.props[kid]
            if item is None or item.kind not in NAMED_BY_SIBLING or view.get("accessibilityLabel"):
                continue
            name = label_beside(item.rect, labels)
            if name:
                view["accessibilityLabel"] = name


def _positive(value: Any, default: float) -> float:
    return float(value) if isinstance(value, (int, float)) and value > 0 else default


def _slot(children: Any, slot: int) -> List[int]:
    kids = children.get(slot) if isinstance(children, dict) else None
    return list(kids) if isinstance(kids, list) else []


def _relative(rect: List[float], parent_rect: Optional[List[float]]) -> List[float]:
    if parent_rect is None:
        return list(rect)
    return [rect[0] - parent_rect[0], rect[1] - parent_rect[1], rect[2], rect[3]]


# -- containers with parts -----------------------------------------------------------------------------------------

#: The kinds of items published as windows (``get_windows`` also lists stages and registries).
ROOTS = frozenset(("mvWindowAppItem", "mvViewportMenuBar"))

CONTAINERS = frozenset(("mvWindowAppItem", "mvChildWindow", "mvGroup", "mvTableRow", "mvTableCell", "mvFilterSet",
                        "mvClipper", "mvMenuBar", "mvViewportMenuBar", "mvStage", "mvNodeEditor", "mvNode",
                        "mvNodeAttribute", "mvDragLine", "mvPlot", "mvSubPlots"))


def _header(walk: Walk, item: Item, view_id: str, parent: str, parent_rect: List[float],
            window_origin: Tuple[float, float], depth: int) -> None:
    """A collapsing header or tree node: a group whose first view is the header row (a button with its
    expanded status); its items follow while it is open."""
    is_open = bool(item.value)
    view = walk.finish(item, {"class": "UIView", "accessibilityContainerType": "semanticGroup"})
    if item.label:
        view["accessibilityLabel"] = item.label
    header = {"class": "UIButton", "title": item.label, "isAccessibilityElement": True,
              "accessibilityLabel": item.label, "accessibilityExpandedStatus": "expanded" if is_open else "collapsed"}
    if view.pop("isFocused", None):
        header["isFocused"] = True
        walk.focused = part_id(view_id, "header")
    walk.add(view_id, parent, view, item.rect, parent_rect)
    walk.part(item, "header", view_id, header, list(item.rect), item.rect)
    if is_open:
        walk.walk_children(item, view_id, item.rect, window_origin, depth + 1)
    walk.fit(view_id, item, parent_rect)


def _tab_bar(walk: Walk, item: Item, view_id: str, parent: str, parent_rect: List[float],
             window_origin: Tuple[float, float], depth: int) -> None:
    """A tab bar: a ``UITabBar`` of ``UITabBarButton`` tabs (the selected one ``isSelected``), then the selected
    tab's page (a group of its items)."""
    walk.add(view_id, parent, walk.finish(item, {"class": "UIView"}), item.rect, parent_rect)
    tabs = [tab for tab in (walk.record(uuid) for uuid in _slot(item.children, 1))
            if tab is not None and tab.kind == "mvTab"]
    for tab in tabs:
        tab.view_id = walk.view_id(tab, view_id)
        tab.rect = walk.rect_of(tab, window_origin)
        walk.items[tab.view_id] = tab
    bar_rect = _union([tab.rect for tab in tabs]) or list(item.rect)
    if item.rect[2] <= 0:
        item.rect = list(bar_rect)
        walk.props[view_id]["frame"] = _relative(item.rect, parent_rect)
    bar_id = part_id(view_id, "tabs")
    walk.part_rects[bar_id] = bar_rect
    walk.add(bar_id, view_id, {"class": "UITabBar"}, bar_rect, item.rect)
    for tab in tabs:
        button = {"class": "UITabBarButton", "isAccessibilityElement": True, "accessibilityLabel": tab.label,
                  "title": tab.label, "isSelected": bool(tab.value)}
        if not tab.enabled:
            button["isEnabled"] = False
        tab_button = walk.part(tab, "tab", bar_id, button, tab.rect, bar_rect)
        if tab.uuid == walk.focused_uuid:
            button["isFocused"] = True
            walk.focused = tab_button
    selected = next((tab for tab in tabs if tab.value), None)
    if selected is not None:
        page = walk.finish(selected, {"class": "UIView", "accessibilityLabel": selected.label})
        page.pop("isFocused", None)
        selected.rect = [bar_rect[0], bar_rect[1] + bar_rect[3], bar_rect[2], 0.0]
        walk.add(selected.view_id, view_id, page, selected.rect, item.rect)
        walk.walk_children(selected, selected.view_id, selected.rect, window_origin, depth + 1)
        walk.fit(selected.view_id, selected, item.rect)
    walk.fit(view_id, item, parent_rect)


def _union(rects: List[List[float]]) -> Optional[List[float]]:
    rects = [rect for rect in rects if rect[2] > 0 or rect[3] > 0]
    if not rects:
        return None
    left, top = min(rect[0] for rect in rects), min(rect[1] for rect in rects)
    return [left, top, max(rect[0] + rect[2] for rect in rects) - left,
            max(rect[1] + rect[3] for rect in rects) - top]


def _choices(walk: Walk, item: Item, view_id: str, parent: str, parent_rect: List[float],
             window_origin: Tuple[float, float], depth: int) -> None:
    """A radio button group (buttons, the chosen one ``isSelected``, "2 of 3") or a list box (a table of cells):
    one part per choice, keyed by its text; the focus is on the chosen part."""
    choices = [str(choice) for choice in (item.config.get("items") or [])][:1000]
    radio = item.kind == "mvRadioButton"
    view: Dict[str, Any] = {"class": "UIView" if radio else "UITableView",
                            "accessibilityContainerType": "semanticGroup" if radio else "list"}
    if item.alias:
        view["accessibilityIdentifier"] = item.alias[:256]
    if item.label:
        view["accessibilityLabel"] = item.label
    walk.targets[view_id] = (item, "")
    walk.add(view_id, parent, view, item.rect, parent_rect)
    horizontal = radio and bool(item.config.get("horizontal"))
    rows = max(int(item.config.get("num_items") or len(choices) or 1), 1) if not radio else len(choices)
    seen: Dict[str, int] = {}
    for index, choice in enumerate(choices):
        count = seen.get(choice, 0)
        seen[choice] = count + 1
        key = choice[:80] if count == 0 else "%s#%d" % (choice[:80], count + 1)
        rect = _slice(item.rect, index, len(choices) if horizontal else rows, horizontal)
        walk.part(item, key, view_id, _choice_part(walk, item, key, choice, index, len(choices)), rect, item.rect)


def _choice_part(walk: Walk, item: Item, key: str, choice: str, index: int, count: int) -> Dict[str, Any]:
    radio = item.kind == "mvRadioButton"
    chosen = str(item.value) == choice
    part: Dict[str, Any] = {"class": "UIButton" if radio else "UITableViewCell", "isAccessibilityElement": True,
                            "accessibilityLabel": choice, "isSelected": chosen}
    if radio:
        part["accessibilityValue"] = "%d of %d" % (index + 1, count)
    if chosen and item.uuid == walk.focused_uuid:
        part["isFocused"] = True
        walk.focused = part_id(item.view_id, key)
    if not item.enabled:
        part["isEnabled"] = False
    return part


def _slice(rect: List[float], index: int, count: int, horizontal: bool) -> List[float]:
    count = max(count, 1)
    if horizontal:
        width = rect[2] / count
        return [rect[0] + index * width, rect[1], width, rect[3]]
    height = rect[3] / count
    return [rect[0], rect[1] + index * height, rect[2], height]


def _table(walk: Walk, item: Item, view_id: str, parent: str, parent_rect: List[float],
           window_origin: Tuple[float, float], depth: int) -> None:
    """A table: a ``UITableView`` whose first views are the column headers (labels with the ``header`` trait,
    when the table shows its header row), then one ``UITableViewCell`` group per row holding the row's items."""
    walk.targets[view_id] = (item, "")
    walk.add(view_id, parent, walk.finish(item, build_view(item)), item.rect, parent_rect)
    headers: List[str] = []
    if item.config.get("header_row", True):
        for index, uuid in enumerate(_slot(item.children, 0)):
            column = walk.record(uuid)
            if column is not None:
                header = {"class": "UILabel", "text": visible_label(column.config.get("label")),
                          "accessibilityTraits": ["header"]}
                headers.append(walk.part(item, "column%d" % index, view_id, header, [0.0, 0.0, 0.0, 0.0],
                                         item.rect))
    first_row: Optional[Item] = None
    for index, uuid in enumerate(_slot(item.children, 1)):
        if walk.count >= MAX_ITEMS:
            walk.truncated = True
            break
        row = walk.record(uuid)
        if row is None:
            continue
        walk.count += 1
        row.view_id = row.alias or part_id(view_id, "row%d" % index)
        row.rect = [0.0, 0.0, 0.0, 0.0]
        walk.items[row.view_id] = row
        walk.targets[row.view_id] = (row, "")
        walk.add(row.view_id, view_id, walk.finish(row, {"class": "UITableViewCell"}), row.rect, item.rect)
        walk.walk_children(row, row.view_id, row.rect, window_origin, depth + 1)
        walk.fit(row.view_id, row, item.rect)
        if any(walk.props[kid].get("isSelected") for kid in walk.children.get(row.view_id, [])):
            walk.props[row.view_id]["isSelected"] = True  # a selectable row
        first_row = first_row or row
    if first_row is not None:
        _place_headers(walk, headers, first_row, item.rect)
    walk.fit(view_id, item, parent_rect)


def _place_headers(walk: Walk, headers: List[str], first_row: Item, table_rect: List[float]) -> None:
    """Column headers sit above the first row, each over its column's first cell (ImGui reports no header
    rectangles)."""
    cells = [walk.absolute(kid) for kid in walk.children.get(first_row.view_id, [])]
    row = first_row.rect
    for header, cell in zip(headers, cells):
        rect = [cell[0], row[1] - row[3], max(cell[2], 1.0), row[3]]
        walk.part_rects[header] = rect
        walk.props[header]["frame"] = _relative(rect, table_rect)


def _menu(walk: Walk, item: Item, view_id: str, parent: str, parent_rect: List[float],
          window_origin: Tuple[float, float], depth: int) -> None:
    """A menu: its title is a button (expanded while open); an open menu's entries are a window of their own
    (container ``menu``, D-MENU-1), as a posted menu is."""
    walk.targets[view_id] = (item, "")
    walk.add(view_id, parent, walk.finish(item, build_view(item)), item.rect, parent_rect)
    if not item.value:
        return
    popup_id = part_id(view_id, "popup")
    popup = {"class": "UIWindow", "windowTitle": item.label, "accessibilityLabel": item.label,
             "accessibilityContainerType": "menu", "windowLevel": 1000.0}
    rect = [item.rect[0], item.rect[1] + item.rect[3], 0.0, 0.0]
    item_copy = Item(item.uuid, item.kind, "", item.config, item.state)
    item_copy.children, item_copy.rect, item_copy.view_id = item.children, rect, popup_id
    walk.items[popup_id] = item_copy
    walk.add(popup_id, None, popup, rect, None)
    walk.walk_children(item, popup_id, rect, window_origin, depth + 1)
    walk.fit(popup_id, item_copy, None)



#: Kinds whose views the walk builds itself (they have parts, or children shown only sometimes).
SPECIAL = {"mvCollapsingHeader": _header, "mvTreeNode": _header, "mvTabBar": _tab_bar, "mvRadioButton": _choices,
           "mvListbox": _choices, "mvTable": _table, "mvMenu": _menu}
