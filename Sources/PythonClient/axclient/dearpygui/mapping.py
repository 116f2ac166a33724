"""Dear PyGui item types → UIKit views (Specs/dearpygui-adapter.md §Mapping). Pure functions of one item's
record (type, label, configuration, value, state); no Dear PyGui calls here, so the walk (mirror.py) decides what
to ask Dear PyGui and this module decides what it means. Standard library only."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from ..kit import mask

#: Item kinds (the type name after ``mvAppItemType::``) that publish nothing and whose children are not walked:
#: decoration, layout helpers, and things drawn outside the item tree.
SKIPPED = frozenset(("mvSeparator", "mvSpacer", "mvDummy", "mvDrawlist", "mvDrawLayer", "mvViewportDrawlist",
                     "mvTooltip", "mvDragPayload", "mvTheme", "mvThemeComponent", "mvFont", "mvTemplateRegistry",
                     "mvItemHandlerRegistry", "mvHandlerRegistry", "mvFileExtension", "mvColorMapRegistry"))

#: Kinds whose value is what the user edits (polled each frame with one ``get_values`` call).
VALUE_KINDS = frozenset(("mvInputText", "mvInputInt", "mvInputFloat", "mvInputDouble", "mvSliderInt",
                         "mvSliderFloat", "mvSliderDouble", "mvDragInt", "mvDragFloat", "mvDragDouble",
                         "mvKnobFloat", "mvCheckbox", "mvRadioButton", "mvListbox", "mvCombo", "mvSelectable",
                         "mvProgressBar", "mvText", "mvCollapsingHeader", "mvTreeNode", "mvTabBar", "mvMenuItem"))

#: Kinds that are adjustable (``increment``/``decrement``; value, range).
SLIDERS = frozenset(("mvSliderInt", "mvSliderFloat", "mvSliderDouble", "mvDragInt", "mvDragFloat",
                     "mvDragDouble", "mvKnobFloat"))
#: Number fields (typed like text, stepped by ``increment``/``decrement``).
NUMBER_FIELDS = frozenset(("mvInputInt", "mvInputFloat", "mvInputDouble"))


def visible_label(label: Any) -> str:
    """The text ImGui shows for ``label``: what comes before ``##`` (``"Save##file"`` → ``"Save"``; ``"##x"`` →
    ``""``); ``###`` is the same rule (the id part is never shown)."""
    text = label if isinstance(label, str) else ""
    return text.split("##", 1)[0].strip()


def id_part(label: Any) -> str:
    """The part of ``label`` ImGui hashes into the item's id: after ``###`` the rest alone, else the whole label
    (``"Save##file"`` → ``"Save##file"``; ``"Count: 3###count"`` → ``"count"``), so a label whose shown text
    changes keeps its id when the app used ``###`` (ImGui's rule)."""
    text = label if isinstance(label, str) else ""
    return text.split("###", 1)[1] if "###" in text else text


class Item:
    """What the walk knows of one item: ``uuid``, ``kind`` (``mvButton``), ``alias`` (the app's tag or ""),
    ``config`` (``get_item_configuration``), ``value``, ``state`` (``get_item_state``) and ``rect`` (x, y, w, h in
    the viewport's coordinates)."""

    __slots__ = ("uuid", "kind", "alias", "config", "value", "state", "rect", "view_id", "children")

    def __init__(self, uuid: int, kind: str, alias: str, config: Dict[str, Any], state: Dict[str, Any]) -> None:
        self.uuid, self.kind, self.alias, self.config, self.state = uuid, kind, alias, config, state
        self.value: Any = None
        self.rect: List[float] = [0.0, 0.0, 0.0, 0.0]
        self.view_id = ""
        self.children: Dict[int, List[int]] = {}

    @property
    def label(self) -> str:
        """The shown label (``##`` rule)."""
        return visible_label(self.config.get("label"))

    @property
    def enabled(self) -> bool:
        """False when the app disabled the item."""
        return self.config.get("enabled", True) is not False


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (int, float)):
        return float(value[0])
    return None


def _format(item: Item, value: Any) -> str:
    """A number as the item shows it (its ``format`` printf string for floats, else ``str``)."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_format(item, part) for part in value[:4])
    if isinstance(value, float):
        fmt = item.config.get("format")
        try:
            return (fmt if isinstance(fmt, str) and "%" in fmt else "%.3f") % value
        except (TypeError, ValueError):
            return "%g" % value
    return str(value) if value is not None else ""


def _labelled(item: Item, props: Dict[str, Any]) -> Dict[str, Any]:
    props["isAccessibilityElement"] = True
    if item.label:
        props["accessibilityLabel"] = item.label
    if not item.enabled:
        props["isEnabled"] = False
    return props


def button(item: Item) -> Dict[str, Any]:
    return _labelled(item, {"class": "UIButton", "title": item.label})


def text(item: Item) -> Dict[str, Any]:
    shown = str(item.value) if item.value is not None else ""
    props: Dict[str, Any] = {"class": "UILabel", "text": shown[:32768]}
    if item.config.get("show_label") and item.label:
        props["accessibilityLabel"] = "%s %s" % (shown, item.label) if shown else item.label
    return props


def checkbox(item: Item) -> Dict[str, Any]:
    return _labelled(item, {"class": "UISwitch", "isOn": bool(item.value)})


def selectable(item: Item) -> Dict[str, Any]:
    return _labelled(item, {"class": "UIButton", "title": item.label, "isSelected": bool(item.value)})


def menu_item(item: Item) -> Dict[str, Any]:
    props = _labelled(item, {"class": "UIButton", "title": item.label})
    if item.config.get("check"):
        props["isSelected"] = bool(item.value)
    shortcut = item.config.get("shortcut")
    if isinstance(shortcut, str) and shortcut:
        props["accessibilityHint"] = shortcut
    return props


def input_text(item: Item) -> Dict[str, Any]:
    value = item.value if isinstance(item.value, str) else ""
    multiline = bool(item.config.get("multiline"))
    props: Dict[str, Any] = {"class": "UITextView" if multiline else "UITextField", "text": value[:32768]}
    hint = item.config.get("hint")
    if isinstance(hint, str) and hint:
        props["placeholder"] = hint
    if item.config.get("readonly"):
        props["isEditable"] = False
    _labelled(item, props)
    if item.config.get("password"):
        mask(props)
    return props


def number_field(item: Item) -> Dict[str, Any]:
    return _labelled(item, {"class": "UITextField", "text": _format(item, item.value)})


def slider(item: Item) -> Dict[str, Any]:
    props: Dict[str, Any] = {"class": "UISlider", "accessibilityValue": _format(item, item.value)}
    value = _number(item.value)
    low, high = _number(item.config.get("min_value")), _number(item.config.get("max_value"))
    if value is not None and low is not None and high is not None and low < high:
        props.update(minimumValue=low, maximumValue=high, value=min(max(value, low), high))
    return _labelled(item, props)


def progress(item: Item) -> Dict[str, Any]:
    """A progress bar: its fraction as ``progress`` (the value a screen reader says as a percentage); an overlay
    text that is not that percentage (a "Loading…") names it when the item has no label."""
    value = min(max(_number(item.value) or 0.0, 0.0), 1.0)
    props: Dict[str, Any] = {"class": "UIProgressView", "progress": value, "isAccessibilityElement": True,
                             "accessibilityValue": "%d%%" % round(value * 100)}
    overlay = item.config.get("overlay")
    label = item.label or (overlay.strip() if isinstance(overlay, str) and not overlay.strip().endswith("%")
                           else "")
    if label:
        props["accessibilityLabel"] = label
    return props


#: A combo offers at most this many choices as custom actions (as a read-only Tk combo box does).
MAX_CHOICE_ACTIONS = 50


def combo(item: Item) -> Dict[str, Any]:
    """A combo is a pop-up button: its value is the choice, one custom action per choice (``custom:<choice>``
    picks it, as the user's click in its list would), increment/decrement step through the choices."""
    choices = [str(choice) for choice in (item.config.get("items") or [])]
    props = _labelled(item, {"class": "UIButton", "accessibilityValue": str(item.value or ""),
                             "accessibilityHint": "pop-up menu, %d choices" % len(choices)})
    actions = [{"id": choice, "name": choice} for choice in dict.fromkeys(c for c in choices if c.strip())]
    if actions:
        props["accessibilityCustomActions"] = actions[:MAX_CHOICE_ACTIONS]
    return props


def color(item: Item) -> Dict[str, Any]:
    value = item.value if isinstance(item.value, (list, tuple)) else []
    channels = [int(round(float(part) * 255)) if isinstance(part, float) and part <= 1.0 else int(part)
                for part in value[:3] if isinstance(part, (int, float))]
    shown = "#%02X%02X%02X" % tuple(min(max(part, 0), 255) for part in channels) if len(channels) == 3 else ""
    return _labelled(item, {"class": "UIButton", "accessibilityValue": shown})


def image(item: Item) -> Dict[str, Any]:
    props: Dict[str, Any] = {"class": "UIImageView"}
    if item.label:
        props.update(isAccessibilityElement=True, accessibilityLabel=item.label)
    return props


def group(item: Item) -> Dict[str, Any]:
    props: Dict[str, Any] = {"class": "UIView"}
    if item.label:
        props.update(accessibilityLabel=item.label, accessibilityContainerType="semanticGroup")
    return props


def child_window(item: Item) -> Dict[str, Any]:
    props: Dict[str, Any] = {"class": "UIScrollView", "clipsToBounds": True}
    if item.label:
        props.update(accessibilityLabel=item.label, accessibilityContainerType="semanticGroup")
    return props


def window(item: Item) -> Dict[str, Any]:
    props: Dict[str, Any] = {"class": "UIWindow", "windowTitle": item.label}
    if item.label:
        props["accessibilityLabel"] = item.label
    if item.config.get("modal"):
        props.update(accessibilityViewIsModal=True, windowLevel=2000.0)
    elif item.config.get("popup"):
        props["windowLevel"] = 1000.0
    return props


def menu_bar(item: Item) -> Dict[str, Any]:
    return {"class": "UIView", "accessibilityContainerType": "menuBar"}


def menu(item: Item) -> Dict[str, Any]:
    """A menu: its title is a button (expanded while open); the open menu's entries follow as its children."""
    return _labelled(item, {"class": "UIButton", "title": item.label,
                            "accessibilityExpandedStatus": "expanded" if item.value else "collapsed"})


def table(item: Item) -> Dict[str, Any]:
    props: Dict[str, Any] = {"class": "UITableView", "clipsToBounds": True}
    if item.label:
        props["accessibilityLabel"] = item.label
    return props


def generic(item: Item) -> Dict[str, Any]:
    props: Dict[str, Any] = {"class": "UIView"}
    if item.label:
        props.update(isAccessibilityElement=True, accessibilityLabel=item.label)
    return props


#: kind → builder. Containers with parts (tab bars, radio buttons, list boxes, headers, tables) are built by the
#: walk (mirror.py), which knows their children.
BUILDERS: Dict[str, Callable[[Item], Dict[str, Any]]] = {
    "mvButton": button, "mvImageButton": button, "mvText": text, "mvCheckbox": checkbox,
    "mvSelectable": selectable, "mvMenuItem": menu_item, "mvInputText": input_text, "mvProgressBar": progress,
    "mvCombo": combo, "mvColorEdit": color, "mvColorPicker": color, "mvColorButton": color, "mvImage": image,
    "mvGroup": group, "mvChildWindow": child_window, "mvWindowAppItem": window, "mvMenuBar": menu_bar,
    "mvViewportMenuBar": menu_bar, "mvMenu": menu, "mvTable": table, "mvFilterSet": group, "mvClipper": group,
    "mvTableRow": group, "mvTableCell": group, "mvStage": group,
}
for _kind in SLIDERS:
    BUILDERS[_kind] = slider
for _kind in NUMBER_FIELDS:
    BUILDERS[_kind] = number_field
for _kind in ("mvInputIntMulti", "mvInputFloatMulti", "mvInputDoubleMulti"):
    BUILDERS[_kind] = number_field
for _kind in ("mvSliderIntMulti", "mvSliderFloatMulti", "mvSliderDoubleMulti", "mvDragIntMulti",
              "mvDragFloatMulti", "mvDragDoubleMulti"):
    BUILDERS[_kind] = number_field


def build_view(item: Item) -> Dict[str, Any]:
    """The view properties of ``item`` (without ``id``, ``frame`` and children)."""
    return BUILDERS.get(item.kind, generic)(item)
