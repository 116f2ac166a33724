"""ImGui items → UIKit views (Specs/imgui-adapter.md §Mapping): one function per recorded kind, answering the
view's properties without ``id``, ``frame`` or ``children``. Standard library only."""
from __future__ import annotations

from typing import Any, Callable, Dict, List

from ..kit.patches import clip_text
from ..kit.secure import mask

#: ImGuiInputTextFlags_.password and .read_only (set from the running imgui module when a mirror starts).
PASSWORD_FLAG = 1 << 15
READ_ONLY_FLAG = 1 << 14

View = Dict[str, Any]


def _element(cls: str, label: str, **more: Any) -> View:
    view: View = {"class": cls, "isAccessibilityElement": True}
    if label:
        view["accessibilityLabel"] = label
    view.update(more)
    return view


def window(label: str, value: Any, extra: Any) -> View:
    return {"class": "UIWindow", "windowTitle": label or "Dear ImGui"}


def modal(label: str, value: Any, extra: Any) -> View:
    return {"class": "UIWindow", "windowTitle": label, "accessibilityViewIsModal": True}


def popup(label: str, value: Any, extra: Any) -> View:
    return {"class": "UIWindow", "windowTitle": label, "accessibilityContainerType": "menu"}


def group(label: str, value: Any, extra: Any) -> View:
    view: View = {"class": "UIView", "accessibilityContainerType": "semanticGroup"}
    if label:
        view["accessibilityLabel"] = label
    return view


def button(label: str, value: Any, extra: Any) -> View:
    return _element("UIButton", label, title=label)


def checkbox(label: str, value: Any, extra: Any) -> View:
    return _element("UISwitch", label, isOn=bool(value))


def radio(label: str, value: Any, extra: Any) -> View:
    return _element("UIButton", label, title=label, isSelected=bool(value))


def slider(label: str, value: Any, extra: Any) -> View:
    low, high = extra if isinstance(extra, tuple) else (0, 0)
    view = _element("UISlider", label, value=float(value))
    if isinstance(low, (int, float)) and isinstance(high, (int, float)) and high > low:
        view["minimumValue"], view["maximumValue"] = float(low), float(high)
        if isinstance(value, int):
            view["stepValue"] = 1.0
    view["accessibilityValue"] = _number(value)
    return view


def number(label: str, value: Any, extra: Any) -> View:
    return _element("UITextField", label, text=_number(value), accessibilityTraits=["adjustable"])


def _number(value: Any) -> str:
    return ("%.3f" % value).rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def text_field(label: str, value: Any, extra: Any) -> View:
    flags, hint = extra if isinstance(extra, tuple) else (0, "")
    view = _element("UITextField", label, text=clip_text(str(value), 32768))
    if hint:
        view["placeholder"] = hint
    if flags & READ_ONLY_FLAG:
        view["isEditable"] = False
    return mask(view) if flags & PASSWORD_FLAG else view


def text_view(label: str, value: Any, extra: Any) -> View:
    view = text_field(label, value, extra)
    view["class"] = "UITextView"
    return view


def combo_list(label: str, value: Any, extra: Any) -> View:
    items = extra if isinstance(extra, list) else []
    current = items[value] if isinstance(value, int) and 0 <= value < len(items) else ""
    return _element("UIButton", label, title=label, accessibilityValue=str(current))


def combo(label: str, value: Any, extra: Any) -> View:
    view = _element("UIButton", label, title=label, accessibilityExpandedStatus="expanded" if value else "collapsed")
    if isinstance(extra, str):
        view["accessibilityValue"] = extra
    return view


def list_view(label: str, value: Any, extra: Any) -> View:
    view: View = {"class": "UITableView", "accessibilityContainerType": "list"}
    if label:
        view["accessibilityLabel"] = label
    return view


def selectable(label: str, value: Any, extra: Any) -> View:
    return _element("UITableViewCell", label, isSelected=bool(value))


def menu_item(label: str, value: Any, extra: Any) -> View:
    view = _element("UIButton", label, title=label, isEnabled=bool(extra) if extra is not None else True)
    if value is not None:
        view["accessibilityTraits"] = ["toggleButton"]
        view["isSelected"] = bool(value)
    return view


def menu(label: str, value: Any, extra: Any) -> View:
    return _element("UIButton", label, title=label, accessibilityExpandedStatus="expanded" if value else "collapsed")


def disclosure(label: str, value: Any, extra: Any) -> View:
    return _element("UIButton", label, title=label, accessibilityExpandedStatus="expanded" if value else "collapsed")


def heading(label: str, value: Any, extra: Any) -> View:
    return _element("UILabel", "", text=clip_text(str(value), 32768), accessibilityTraits=["header"])


def tab_bar(label: str, value: Any, extra: Any) -> View:
    return {"class": "UIView", "accessibilityTraits": ["tabBar"]}


def tab(label: str, value: Any, extra: Any) -> View:
    return _element("UIButton", label, title=label, isSelected=bool(value))


def table(label: str, value: Any, extra: Any) -> View:
    view: View = {"class": "UITableView", "accessibilityContainerType": "dataTable"}
    if label:
        view["accessibilityLabel"] = label
    return view


def row(label: str, value: Any, extra: Any) -> View:
    return {"class": "UITableViewCell", "accessibilityContainerType": "semanticGroup", "isSelected": bool(extra)}


def label_view(label: str, value: Any, extra: Any) -> View:
    return _element("UILabel", "", text=clip_text(str(value), 32768))


def label_text(label: str, value: Any, extra: Any) -> View:
    return _element("UILabel", label, text=clip_text(str(value), 32768))


def progress(label: str, value: Any, extra: Any) -> View:
    view = _element("UIProgressView", "", progress=min(max(float(value), 0.0), 1.0))
    if isinstance(extra, str) and extra:
        view["accessibilityValue"] = extra
    return view


def tooltip(label: str, value: Any, extra: Any) -> View:
    return {"class": "UIWindow", "windowTitle": "Tooltip"}


#: Recorded kind → view maker.
MAKERS: Dict[str, Callable[[str, Any, Any], View]] = {
    "window": window, "modal": modal, "popup": popup, "menu_popup": popup, "combo_popup": popup,
    "tooltip": tooltip, "child": group, "menu_bar": group, "list_box": list_view,
    "button": button, "checkbox": checkbox, "radio": radio, "slider": slider, "drag": slider,
    "number": number, "input": text_field, "input_hint": text_field, "input_multiline": text_view,
    "combo_list": combo_list, "combo": combo, "list": list_view, "selectable": selectable,
    "menu_item": menu_item, "menu": menu, "tree": disclosure, "header": disclosure, "heading": heading,
    "tab_bar": tab_bar, "tab_item": tab, "table": table, "row": row, "text": label_view,
    "label_text": label_text, "progress": progress, "tooltip_text": label_view,
}

#: Kinds that are top-level windows in the mirror (their own UIWindow, whatever submitted them).
TOP_LEVEL = frozenset(("window", "modal", "popup", "menu_popup", "combo_popup", "tooltip", "tooltip_text"))


def list_rows(owner: str, items: List[str], current: Any) -> List[View]:
    """A list box's choices as cells (parts ``<owner>@<index>``)."""
    return [{"class": "UITableViewCell", "id": "%s@%d" % (owner, index), "isAccessibilityElement": True,
             "accessibilityLabel": str(text), "isSelected": index == current} for index, text in enumerate(items)]
