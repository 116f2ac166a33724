"""The wrappers of ``imgui``'s widget functions (Specs/imgui-adapter.md §Mapping): one factory per function family,
each answering ``wrapper(recorder, original)``. A wrapper calls the real function with the app's arguments, records
the item, applies a pending injection to the result (D-IMGUI-ACT-1) and returns what the app expects. A wrapper
never raises from its own bookkeeping into the app. Standard library only."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from .record import Recorder, label_of

Wrapper = Callable[..., Any]
Factory = Callable[[Recorder, Wrapper], Wrapper]


def _arg(args: tuple, kwargs: Dict[str, Any], index: int, name: str, default: Any = None) -> Any:
    if len(args) > index:
        return args[index]
    return kwargs.get(name, default)


def pressable(kind: str) -> Factory:
    """button, small_button, arrow_button-like functions answering ``bool`` (pressed)."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        item_key, add_last = rec.item_key, rec.add_last  # bound once: a recorded frame calls them per button

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            pressed = original(*args, **kwargs)
            key = item_key()
            if rec.pending and rec.take(key) is not None:
                pressed = True
            label = args[0] if args else kwargs.get("label", "")
            add_last(kind, key, label if type(label) is str and "##" not in label else label_of(label))
            return pressed
        return wrapper
    return factory


def toggle(kind: str) -> Factory:
    """checkbox (``(changed, value)``); an ``activate`` toggles it."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            key = rec.item_key()
            if rec.take(key) is not None:
                result = (True, not result[1])
            rec.add(kind, key, label_of(_arg(args, kwargs, 0, "label", "")), bool(result[1]))
            return result
        return wrapper
    return factory


def radio(rec: Recorder, original: Wrapper) -> Wrapper:
    """radio_button(label, active) → bool, or radio_button(label, v, v_button) → (changed, v)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        key = rec.item_key()
        label = label_of(_arg(args, kwargs, 0, "label", ""))
        if isinstance(result, tuple):
            button_value = _arg(args, kwargs, 2, "v_button")
            if rec.take(key) is not None:
                result = (True, button_value)
            rec.add("radio", key, label, result[1] == button_value)
            return result
        selected = bool(_arg(args, kwargs, 1, "active", False))
        if rec.take(key) is not None:
            result = True
        rec.add("radio", key, label, selected)
        return result
    return wrapper


def ranged(kind: str, low_index: int, high_index: int) -> Factory:
    """slider_*/drag_* (``(changed, value)``), with the range from the call's arguments; input_int/float
    (no range: ``low_index`` < 0)."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            key = rec.item_key()
            injection = rec.take(key)
            value = result[1]
            if injection is not None and isinstance(value, (int, float)):
                value = type(value)(injection[1])
                result = (True, value)
            bounds = None
            if low_index >= 0:
                bounds = (_arg(args, kwargs, low_index, "v_min", 0), _arg(args, kwargs, high_index, "v_max", 0))
            rec.add(kind, key, label_of(_arg(args, kwargs, 0, "label", "")), value, bounds)
            return result
        return wrapper
    return factory


def text_input(kind: str, text_index: int, flags_index: int) -> Factory:
    """input_text / input_text_multiline / input_text_with_hint: ``(changed, text)``; extra = (flags, hint)."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            key = rec.item_key()
            injection = rec.take(key)
            if injection is not None:
                result = (True, str(injection[1]))
            hint = _arg(args, kwargs, 1, "hint", "") if kind == "input_hint" else ""
            flags = _arg(args, kwargs, flags_index, "flags", 0)
            rec.add(kind, key, label_of(_arg(args, kwargs, 0, "label", "")), result[1], (int(flags or 0), hint))
            return result
        return wrapper
    return factory


def choice(kind: str) -> Factory:
    """combo(label, current, items) / list_box(label, current, items): ``(changed, index)``."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            key = rec.item_key()
            items = _arg(args, kwargs, 2, "items", [])
            items = list(items) if isinstance(items, (list, tuple)) else []
            injection = rec.take(key)
            if injection is not None:
                result = (True, int(injection[1]))
            rec.add(kind, key, label_of(_arg(args, kwargs, 0, "label", "")), result[1], items)
            return result
        return wrapper
    return factory


def selectable(rec: Recorder, original: Wrapper) -> Wrapper:
    """selectable(label, selected, …): ``(clicked, selected)`` (or ``bool`` in the simple form)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        key = rec.item_key()
        chosen = rec.take(key) is not None
        if isinstance(result, tuple):
            result = (True, True) if chosen else result
            selected = bool(result[1])
        else:
            result = True if chosen else result
            selected = bool(_arg(args, kwargs, 1, "p_selected", False))
        rec.add("selectable", key, label_of(_arg(args, kwargs, 0, "label", "")), selected)
        parent = rec._parent()
        if selected and parent >= 0 and rec.items[parent][0] == "row":  # the row is the cell a reader hears
            rec.items[parent] = rec.items[parent][:8] + (True, rec.items[parent][9])
        return result
    return wrapper


def menu_item(rec: Recorder, original: Wrapper) -> Wrapper:
    """menu_item(label, shortcut, selected, enabled) → (activated, selected); menu_item_simple → activated."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        key = rec.item_key()
        chosen = rec.take(key) is not None
        selected = _arg(args, kwargs, 2, "p_selected", None)
        if isinstance(result, tuple):
            result = (True, not result[1]) if chosen else result
        elif chosen:
            result = True
        enabled = bool(_arg(args, kwargs, 3, "enabled", True))
        rec.add("menu_item", key, label_of(_arg(args, kwargs, 0, "label", "")), selected, enabled)
        return result
    return wrapper


def openable(kind: str) -> Factory:
    """tree_node / collapsing_header: ``bool`` open (or ``(open, visible)``); the items of an open tree node (up to
    ``tree_pop``) follow it as its siblings. An ``activate`` toggles it with ``set_next_item_open``."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            label = _arg(args, kwargs, 0, "label", "")
            rec.open_next(label)
            result = original(*args, **kwargs)
            is_open = bool(result[0] if isinstance(result, tuple) else result)
            shown = _arg(args, kwargs, 1, "fmt", None) if kind == "tree" else None
            index = rec.add(kind, rec.item_key(), label_of(shown if isinstance(shown, str) else label), is_open)
            if kind == "tree" and is_open:
                rec.push(rec._parent())  # its items follow it (a button's children would be hidden)
            return result
        return wrapper
    return factory


def window(kind: str) -> Factory:
    """begin / begin_popup_modal / begin_popup: a window while it is open. ``begin``'s ``end`` always follows;
    a popup's ``end_popup`` only when it opened."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            shown = bool(result[0] if isinstance(result, tuple) else result)
            if kind == "window" or shown:
                index = rec.add(kind, rec.window_key(), label_of(_arg(args, kwargs, 0, "name", "")), shown,
                                rect=rec.window_rect()) if shown else -1
                rec.push(index)
            return result
        return wrapper
    return factory


def child(rec: Recorder, original: Wrapper) -> Wrapper:
    """begin_child: a child window (its ``end_child`` always follows)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        name = _arg(args, kwargs, 0, "str_id", "")
        index = rec.add("child", rec.window_key(), label_of(name) if isinstance(name, str) else "",
                        bool(result), rect=rec.window_rect())
        rec.push(index)
        return result
    return wrapper


def scoped(kind: str, floating: Optional[str] = None) -> Factory:
    """begin_tab_bar / begin_table / begin_menu / begin_combo / begin_list_box / begin_*menu_bar / begin_tooltip:
    a container while the call answers True (its end call only then). A menu or combo is also a button; its open
    contents float (``floating``: their own window)."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            label = _arg(args, kwargs, 0, "label", "") if args or kwargs else ""
            key = rec.imgui.get_id(label) if isinstance(label, str) and label else None
            start = rec.imgui.get_cursor_screen_pos() if floating is None else None
            result = original(*args, **kwargs)
            shown = bool(result)
            if floating is not None:
                _opener(rec, kind, floating, label, shown, _arg(args, kwargs, 1, "preview_value", None))
                return result
            if shown:
                rect = rec.window_rect() if kind in ("tooltip", "menu_bar") else _band_rect(rec, start)
                if kind == "table":
                    rect = _table_rect(rec)
                columns = {"columns": [], "count": _arg(args, kwargs, 1, "columns", 0)} if kind == "table" else None
                rec.push(rec.add(kind, rec._unique(key) if key is not None else rec._ordinal_key(kind),
                                 label_of(label), True, columns, rect=rect))
            return result
        return wrapper
    return factory


def _opener(rec: Recorder, kind: str, floating: str, label: Any, shown: bool, preview: Any) -> None:
    """A menu or combo: its button, and while open its popup as a floating container; an ``activate`` opens the
    popup in the next frame (``open_popup``, as a user's click does)."""
    key = rec.item_key()
    if rec.take(key) is not None and not shown:
        rec.imgui.open_popup(label)
    rec.add(kind, key, label_of(label), shown, preview if kind == "combo" else None)
    if shown:
        rec.push(rec.add(floating, (key, "popup"), label_of(label), True, rect=rec.window_rect()))


def _band_rect(rec: Recorder, start: Any) -> tuple:
    """A container that is no item (a tab bar, a list box): from where the cursor stood when it began, the
    available width, one frame high."""
    width = rec.imgui.get_content_region_avail().x
    return (start.x, start.y, start.x + width, start.y + rec.imgui.get_frame_height())


def _table_rect(rec: Recorder) -> tuple:
    pos, avail = rec.imgui.get_cursor_screen_pos(), rec.imgui.get_content_region_avail()
    return (pos.x, pos.y, pos.x + avail.x, pos.y + avail.y)


def ender(rec: Recorder, original: Wrapper) -> Wrapper:
    """end / end_child / end_popup / end_menu / … / tree_pop: closes the innermost container."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        rec.pop()
        return original(*args, **kwargs)
    return wrapper


def tab_bar_ender(rec: Recorder, original: Wrapper) -> Wrapper:
    """end_tab_bar: tabs whose item rect ImGui did not leave (the last item after ``begin_tab_item`` is not the
    tab) get an equal share of the tab bar's band, in order, so a tap at a tab's centre lands on it."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        bar = rec._stack[-1] if rec._stack else -1
        if bar >= 0 and rec.items[bar][0] == "tab_bar":
            tabs = [index for index in range(bar + 1, len(rec.items))
                    if rec.items[index][9] == bar and rec.items[index][0] == "tab_item"]
            x0, y0, x1, y1 = rec.items[bar][3:7]
            share = (x1 - x0) / max(len(tabs), 1)
            for place, index in enumerate(tabs):
                item = rec.items[index]
                if item[5] - item[3] <= 0:
                    rec.items[index] = item[:3] + (x0 + place * share, y0, x0 + (place + 1) * share, y1) + item[7:]
        rec.pop()
        return original(*args, **kwargs)
    return wrapper


def table_ender(rec: Recorder, original: Wrapper) -> Wrapper:
    """end_table: closes the open row, then the table; the table's rect is the item ``end_table`` submits."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        stack = rec._stack
        if stack and stack[-1] >= 0 and rec.items[stack[-1]][0] == "row":
            stack.pop()
        table = stack[-1] if stack else -1
        rec.pop()
        result = original(*args, **kwargs)
        if table >= 0 and rec.items[table][0] == "table":
            low, high = rec.imgui.get_item_rect_min(), rec.imgui.get_item_rect_max()
            rec.items[table] = rec.items[table][:3] + (low.x, low.y, high.x, high.y) + rec.items[table][7:]
        return result
    return wrapper


def next_row(rec: Recorder, original: Wrapper) -> Wrapper:
    """table_next_row: a row of the innermost table, keyed by ImGui's row index (a clipped table of 100,000 rows
    submits the visible ones: their keys are their data rows)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        stack = rec._stack
        if stack and stack[-1] >= 0 and rec.items[stack[-1]][0] == "row":
            stack.pop()
        table = stack[-1] if stack else -1
        if table >= 0 and rec.items[table][0] == "table":
            row = rec.imgui.table_get_row_index()
            low = rec.imgui.get_cursor_screen_pos()
            x0, _, x1, _ = rec.items[table][3:7]
            rec.push(rec.add("row", (rec.items[table][1], "row", row), "", row, None,
                             rect=(x0, low.y, x1, low.y + rec.imgui.get_text_line_height_with_spacing())))
        return result
    return wrapper


def setup_column(rec: Recorder, original: Wrapper) -> Wrapper:
    """table_setup_column: the column's header name (the table's ``columns``)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        stack = rec._stack
        if stack and stack[-1] >= 0 and rec.items[stack[-1]][0] == "table":
            rec.items[stack[-1]][8]["columns"].append(label_of(_arg(args, kwargs, 0, "label", "")))
        return result
    return wrapper


def tab_item(rec: Recorder, original: Wrapper) -> Wrapper:
    """begin_tab_item: a tab (selected: its contents follow up to ``end_tab_item``); an ``activate`` selects it
    (``TabItemFlags_.set_selected``)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        label = _arg(args, kwargs, 0, "label", "")
        if rec.pending:
            key = rec.imgui.get_id(label)
            if rec.take(key) is not None:
                flags = int(_arg(args, kwargs, 2, "flags", 0) or 0) | int(rec.imgui.TabItemFlags_.set_selected)
                args, kwargs = (label, _arg(args, kwargs, 1, "p_open", None)), {"flags": flags}
        result = original(*args, **kwargs)
        selected = bool(result[0] if isinstance(result, tuple) else result)
        index = rec.add("tab_item", rec.item_key(), label_of(label), selected)
        if selected:
            bar = rec._parent()
            rec.push(rec.items[bar][9] if bar >= 0 else -1)  # the tab's page: beside the tab bar, not in a button
        return result
    return wrapper


def plain_text(kind: str, text_index: int, label_index: int = -1) -> Factory:
    """text, text_colored, text_wrapped, bullet_text, separator_text, label_text, text_unformatted: static text
    (D-IMGUI-TEXT-1: what the app passed, keyed by its place among its parent's texts)."""
    def factory(rec: Recorder, original: Wrapper) -> Wrapper:
        ordinal_key, add_last = rec._ordinal_key, rec.add_last  # bound once: a recorded frame calls them per text

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            text = args[text_index] if len(args) > text_index else kwargs.get("fmt", kwargs.get("text", ""))
            label = label_of(_arg(args, kwargs, label_index, "label", "")) if label_index >= 0 else ""
            add_last(kind, ordinal_key("text"), label, text if type(text) is str else str(text))
            return result
        return wrapper
    return factory


def progress(rec: Recorder, original: Wrapper) -> Wrapper:
    """progress_bar(fraction, size, overlay)."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        fraction = _arg(args, kwargs, 0, "fraction", 0.0)
        overlay = _arg(args, kwargs, 2, "overlay", None)
        rec.add("progress", rec._ordinal_key("progress"), "", float(fraction or 0.0), overlay)
        return result
    return wrapper


def tooltip_text(rec: Recorder, original: Wrapper) -> Wrapper:
    """set_tooltip(text): a tooltip window with one text."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        text = str(_arg(args, kwargs, 0, "fmt", ""))
        rec.add("tooltip_text", rec._ordinal_key("tooltip"), "", text, rect=(0.0, 0.0, 0.0, 0.0))
        return result
    return wrapper


#: imgui function name → wrapper factory.
WRAPPERS: Dict[str, Factory] = {
    "button": pressable("button"),
    "small_button": pressable("button"),
    "checkbox": toggle("checkbox"),
    "radio_button": radio,
    "slider_float": ranged("slider", 2, 3),
    "slider_int": ranged("slider", 2, 3),
    "slider_angle": ranged("slider", 2, 3),
    "drag_float": ranged("drag", 3, 4),
    "drag_int": ranged("drag", 3, 4),
    "input_int": ranged("number", -1, -1),
    "input_float": ranged("number", -1, -1),
    "input_double": ranged("number", -1, -1),
    "input_text": text_input("input", 1, 2),
    "input_text_multiline": text_input("input_multiline", 1, 3),
    "input_text_with_hint": text_input("input_hint", 2, 3),
    "combo": choice("combo_list"),
    "list_box": choice("list"),
    "selectable": selectable,
    "menu_item": menu_item,
    "menu_item_simple": menu_item,
    "tree_node": openable("tree"),
    "collapsing_header": openable("header"),
    "begin": window("window"),
    "begin_popup_modal": window("modal"),
    "begin_popup": window("popup"),
    "begin_popup_context_item": window("popup"),
    "begin_popup_context_window": window("popup"),
    "begin_child": child,
    "begin_tab_bar": scoped("tab_bar"),
    "begin_table": scoped("table"),
    "begin_menu_bar": scoped("menu_bar"),
    "begin_main_menu_bar": scoped("menu_bar"),
    "begin_list_box": scoped("list_box"),
    "begin_tooltip": scoped("tooltip"),
    "begin_item_tooltip": scoped("tooltip"),
    "begin_menu": scoped("menu", floating="menu_popup"),
    "begin_combo": scoped("combo", floating="combo_popup"),
    "begin_tab_item": tab_item,
    "end": ender,
    "end_child": ender,
    "end_popup": ender,
    "end_tab_bar": tab_bar_ender,
    "end_tab_item": ender,
    "end_menu_bar": ender,
    "end_main_menu_bar": ender,
    "end_list_box": ender,
    "end_tooltip": ender,
    "end_menu": ender,
    "end_combo": ender,
    "tree_pop": ender,
    "end_table": table_ender,
    "table_next_row": next_row,
    "table_setup_column": setup_column,
    "text": plain_text("text", 0),
    "text_unformatted": plain_text("text", 0),
    "text_colored": plain_text("text", 1),
    "text_disabled": plain_text("text", 0),
    "text_wrapped": plain_text("text", 0),
    "bullet_text": plain_text("text", 0),
    "separator_text": plain_text("heading", 0),
    "label_text": plain_text("label_text", 1, 0),
    "progress_bar": progress,
    "set_tooltip": tooltip_text,
}
