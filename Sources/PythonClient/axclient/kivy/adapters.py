"""Kivy widget → view mapping (Specs/kivy-adapter.md §Mapping): one adapter function per Kivy class, looked up along
the widget's class hierarchy (so ``class MyButton(Button)`` and kv's ``<MyButton@Button>`` map as a Button), and the
registry apps and libraries use for their own classes. Kivy is never imported here: classes are matched by name
(the first match in the MRO wins), so this module loads without Kivy. Standard library only."""
from __future__ import annotations

import os
import re
from typing import Any, Callable, Dict, List, Optional, Union

from ..kit.secure import mask

#: ``adapter(walker, widget) -> dict`` of view properties (UIKit names, ``class`` first).
Adapter = Callable[[Any, Any], Dict[str, Any]]
#: ``handler(walker, widget, request) -> True/False`` (handled or not) or None (fall back to the default).
ActionHandler = Callable[[Any, Any, Any], Optional[bool]]

ADAPTERS: Dict[Union[type, str], Adapter] = {}
ACTIONS: Dict[Union[type, str], ActionHandler] = {}
#: Labels an app gave widgets (:func:`set_label`), by ``id(widget)``.
APP_LABELS: Dict[int, str] = {}

#: A choice list (Spinner) offers at most this many choices as custom actions.
MAX_CHOICE_ACTIONS = 50
#: Kivy markup tags (``[b]``, ``[color=ff0000]``, ``[/b]``): dropped from a label with ``markup: True``.
MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def register_adapter(key: Union[type, str], adapter: Adapter) -> None:
    """Registers ``adapter`` for a widget class (the class itself or its name, e.g. ``"Gauge"``); it applies to
    subclasses too, unless one of them has its own. A later registration for the same key replaces the earlier."""
    ADAPTERS[key] = adapter


def register_actions(key: Union[type, str], handler: ActionHandler) -> None:
    """Registers how actions reach a widget class (keys as for :func:`register_adapter`): ``handler(walker,
    widget, request)`` returns True/False (handled or not) or None to fall back to the default behaviour."""
    ACTIONS[key] = handler


def set_label(widget: Any, label: Optional[str]) -> None:
    """Gives ``widget`` an accessibility label (an Image, a drawn chart); ``None`` removes it."""
    if label is None:
        APP_LABELS.pop(id(widget), None)
    else:
        APP_LABELS[id(widget)] = label


def _lookup(table: Dict[Union[type, str], Any], widget: Any) -> Any:
    for klass in type(widget).__mro__:
        found = table.get(klass) or table.get(klass.__name__)
        if found is not None:
            return found
    return None


def find_adapter(widget: Any) -> Adapter:
    """The adapter of the nearest class in ``widget``'s MRO that has one (by class or by name), else
    :func:`generic`."""
    return _lookup(ADAPTERS, widget) or generic


def find_actions(widget: Any) -> Optional[ActionHandler]:
    """The action handler registered for the nearest class in ``widget``'s MRO, or None."""
    return _lookup(ACTIONS, widget)


# -- helpers -------------------------------------------------------------------------------------------------------

def text_of(widget: Any) -> str:
    """The widget's ``text`` as a plain string (markup tags dropped when ``markup`` is on)."""
    text = getattr(widget, "text", "")
    text = text if isinstance(text, str) else str(text or "")
    if getattr(widget, "markup", False):
        text = MARKUP.sub("", text)
    return " ".join(text.split()) if "\n" not in text else text.strip()


def inner_text(widget: Any) -> str:
    """The texts of a compound widget's descendants, in reading order (top-down, left to right), ", "-joined."""
    texts: List[str] = []
    pending = list(reversed(getattr(widget, "children", []) or []))
    while pending and len(texts) < 20:
        kid = pending.pop(0)
        text = text_of(kid)
        if text:
            texts.append(text)
        pending[0:0] = list(reversed(getattr(kid, "children", []) or []))
    return ", ".join(texts)


def enabled(widget: Any, props: Dict[str, Any]) -> Dict[str, Any]:
    """``isEnabled: False`` when the widget is ``disabled``."""
    if getattr(widget, "disabled", False):
        props["isEnabled"] = False
    return props


def labelled(walker: Any, widget: Any, props: Dict[str, Any]) -> Dict[str, Any]:
    """``accessibilityLabel`` from the app's :func:`set_label`, else the label beside it (the walker's rule)."""
    label = APP_LABELS.get(id(widget)) or walker.label_beside(widget)
    if label:
        props["accessibilityLabel"] = label
    return props


def number(value: Any, default: float = 0.0) -> float:
    try:
        result = float(value)
    except (TypeError, ValueError):
        return default
    return result if result == result else default  # NaN


def group_of(widget: Any) -> Any:
    """A ToggleButton's or CheckBox's ``group`` (None: not grouped)."""
    group = getattr(widget, "group", None)
    return group if group not in (None, "") else None


# -- adapters ------------------------------------------------------------------------------------------------------

def generic(walker: Any, widget: Any) -> Dict[str, Any]:
    """An unknown widget: a view keeping the Kivy class name (``baseClass: UIView``), its text (or the app's
    label) as a static text element."""
    props: Dict[str, Any] = {"class": type(widget).__name__, "baseClass": "UIView"}
    label = APP_LABELS.get(id(widget)) or text_of(widget)
    if label:
        props.update(isAccessibilityElement=True, accessibilityLabel=label, accessibilityTraits=["staticText"])
    return props


def container(walker: Any, widget: Any) -> Dict[str, Any]:
    """Layouts, Screen, Widget: a transparent ``UIView`` (a labelled group when the app gave it a label)."""
    props: Dict[str, Any] = {"class": "UIView"}
    label = APP_LABELS.get(id(widget))
    if label:
        props.update(accessibilityLabel=label, accessibilityContainerType="semanticGroup")
    return props


def label(walker: Any, widget: Any) -> Dict[str, Any]:
    """Label: a ``UILabel`` with its text."""
    return enabled(widget, {"class": "UILabel", "text": text_of(widget)})


def button(walker: Any, widget: Any) -> Dict[str, Any]:
    """Button (and any ButtonBehavior: a layout of an Image and Labels is one button): a ``UIButton`` titled by
    its text, else its inner Labels' texts, else the app's label or the label rule."""
    props: Dict[str, Any] = {"class": "UIButton", "title": text_of(widget) or inner_text(widget)}
    if not props["title"]:
        labelled(walker, widget, props)
    return enabled(widget, props)


def toggle_button(walker: Any, widget: Any) -> Dict[str, Any]:
    """ToggleButton: a ``UIButton`` selected while ``state`` is ``down``; grouped ones become radio buttons in a
    ``UISegmentedControl`` (the walker wraps the group, "n of m")."""
    props = button(walker, widget)
    props["isSelected"] = getattr(widget, "state", "normal") == "down"
    return props


def checkbox(walker: Any, widget: Any) -> Dict[str, Any]:
    """CheckBox: a ``UISwitch`` (on while ``active``); with a ``group`` a radio button (``UIButton`` selected)."""
    active = bool(getattr(widget, "active", False))
    if group_of(widget) is not None:
        props: Dict[str, Any] = {"class": "UIButton", "isSelected": active}
    else:
        props = {"class": "UISwitch", "isOn": active}
    return enabled(widget, labelled(walker, widget, props))


def switch(walker: Any, widget: Any) -> Dict[str, Any]:
    """Switch: a ``UISwitch`` on while ``active``, named by the label rule."""
    return enabled(widget, labelled(walker, widget, {"class": "UISwitch", "isOn": bool(getattr(widget, "active",
                                                                                               False))}))


def text_input(walker: Any, widget: Any) -> Dict[str, Any]:
    """TextInput: ``UITextField`` (single line) / ``UITextView`` (``multiline``); ``password`` → secure (bullets);
    ``readonly`` → not editable; ``hint_text`` the placeholder; caret and selection as ``selectedTextRange``."""
    text = str(getattr(widget, "text", "") or "")
    multiline = bool(getattr(widget, "multiline", False))
    props: Dict[str, Any] = {"class": "UITextView" if multiline else "UITextField", "text": text[:walker.text_limit]}
    if getattr(widget, "password", False):
        mask(props)
    hint = str(getattr(widget, "hint_text", "") or "")
    if hint:
        props["placeholder"] = hint
    if getattr(widget, "readonly", False):
        props["isEditable"] = False
    if walker.supports("selectedTextRange"):
        props["selectedTextRange"] = text_selection(widget, len(text))
    labelled(walker, widget, props)
    if "accessibilityLabel" not in props and hint:
        props["accessibilityLabel"] = hint
    return enabled(widget, props)


def text_selection(widget: Any, length: int) -> List[int]:
    """``[location, length]`` of the TextInput's selection, else its caret (``cursor_index``)."""
    try:
        start, end = int(widget.selection_from), int(widget.selection_to)
        if getattr(widget, "selection_text", "") and start != end:
            low = max(0, min(start, end, length))
            return [low, min(max(start, end), length) - low]
        return [max(0, min(int(widget.cursor_index()), length)), 0]
    except (AttributeError, TypeError, ValueError, IndexError):
        return [0, 0]


def slider(walker: Any, widget: Any) -> Dict[str, Any]:
    """Slider: a ``UISlider`` with ``min``/``max``/``value``, named by the label rule."""
    low, high = number(getattr(widget, "min", 0)), number(getattr(widget, "max", 100), 100.0)
    low, high = min(low, high), max(low, high)
    value = min(max(number(getattr(widget, "value", low)), low), high)
    props = {"class": "UISlider", "minimumValue": low, "maximumValue": high, "value": value}
    return enabled(widget, labelled(walker, widget, props))


def progress_bar(walker: Any, widget: Any) -> Dict[str, Any]:
    """ProgressBar: a ``UIProgressView`` (``value / max``), named by the label rule."""
    maximum = number(getattr(widget, "max", 100), 100.0) or 100.0
    progress = min(max(number(getattr(widget, "value", 0)) / maximum, 0.0), 1.0)
    return labelled(walker, widget, {"class": "UIProgressView", "progress": progress})


def spinner(walker: Any, widget: Any) -> Dict[str, Any]:
    """Spinner: a pop-up ``UIButton`` whose value is the choice, one custom action per choice (the first
    :data:`MAX_CHOICE_ACTIONS`; ``custom:<choice>`` picks it), expanded while its drop-down is open."""
    values = [str(value) for value in (getattr(widget, "values", None) or [])]
    props: Dict[str, Any] = {"class": "UIButton", "accessibilityValue": text_of(widget),
                             "accessibilityHint": "pop-up menu, %d choices" % len(values),
                             "accessibilityExpandedStatus": "expanded" if getattr(widget, "is_open", False)
                             else "collapsed"}
    actions = [{"id": choice, "name": choice} for choice in dict.fromkeys(v for v in values if v.strip())]
    if actions:
        props["accessibilityCustomActions"] = actions[:MAX_CHOICE_ACTIONS]
    return enabled(widget, labelled(walker, widget, props))


def tab_header(walker: Any, widget: Any) -> Dict[str, Any]:
    """TabbedPanelHeader: a ``UITabBarButton`` (tab) selected while it is the current tab."""
    return enabled(widget, {"class": "UITabBarButton", "title": text_of(widget),
                            "isSelected": getattr(widget, "state", "normal") == "down"})


def tab_strip(walker: Any, widget: Any) -> Dict[str, Any]:
    """TabbedPanelStrip: the ``UITabBar`` holding the tab headers."""
    return {"class": "UITabBar"}


def scroll_view(walker: Any, widget: Any) -> Dict[str, Any]:
    """ScrollView: a clipping ``UIScrollView`` whose ``contentOffset`` is the scrolled distance from the top."""
    props: Dict[str, Any] = {"class": "UIScrollView", "clipsToBounds": True, "contentOffset": scroll_offset(widget)}
    label_text = APP_LABELS.get(id(widget))
    if label_text:
        props["accessibilityLabel"] = label_text
    return props


def scroll_offset(widget: Any) -> List[float]:
    """How far a ScrollView is scrolled from its content's top-left, in pixels."""
    content = widget.children[0] if getattr(widget, "children", None) else None
    if content is None:
        return [0.0, 0.0]
    extra_x = max(0.0, number(content.width) - number(widget.width))
    extra_y = max(0.0, number(content.height) - number(widget.height))
    return [round(number(widget.scroll_x) * extra_x, 1), round((1.0 - number(widget.scroll_y, 1.0)) * extra_y, 1)]


def recycle_view(walker: Any, widget: Any) -> Dict[str, Any]:
    """RecycleView: a ``UITableView`` (its visible rows are cells, ids by data index)."""
    props = scroll_view(walker, widget)
    props["class"] = "UITableView"
    return labelled(walker, widget, props) if "accessibilityLabel" not in props else props


def row(walker: Any, widget: Any) -> Dict[str, Any]:
    """A RecycleView row (a view widget of its layout): a ``UITableViewCell`` named by its text (or its
    children's), selected while ``selected``."""
    props: Dict[str, Any] = {"class": "UITableViewCell", "isAccessibilityElement": True,
                             "accessibilityLabel": APP_LABELS.get(id(widget)) or text_of(widget)
                             or ", ".join(t for t in (text_of(kid) for kid in reversed(widget.children)) if t)}
    if getattr(widget, "selected", False):
        props["isSelected"] = True
    return enabled(widget, props)


def file_entry(walker: Any, widget: Any) -> Dict[str, Any]:
    """A FileChooserListView entry: a ``UITableViewCell`` named by the file's name, selected while selected;
    a folder has the hint "folder"."""
    path = str(getattr(widget, "path", "") or "")
    name = os.path.basename(path.rstrip(os.sep)) or path
    props: Dict[str, Any] = {"class": "UITableViewCell", "isAccessibilityElement": True, "accessibilityLabel": name}
    if getattr(widget, "selected", False) or getattr(widget, "is_selected", False):
        props["isSelected"] = True  # (the chooser sets ``selected`` on the entries in its ``selection``)
    chooser = file_chooser_of(widget)
    if chooser is not None and path and chooser.file_system.is_dir(path):
        props["accessibilityHint"] = "folder"
    return props


def file_chooser_of(widget: Any) -> Any:
    """The FileChooser controller an entry belongs to (its nearest ancestor with ``open_entry``), else None."""
    parent = getattr(widget, "parent", None)
    while parent is not None and not (hasattr(parent, "open_entry") and hasattr(parent, "file_system")):
        parent = getattr(parent, "parent", None)
    return parent


def file_chooser(walker: Any, widget: Any) -> Dict[str, Any]:
    """FileChooserListView / IconView: a ``UITableView`` named "Files in <folder>"."""
    return {"class": "UITableView", "accessibilityLabel": "Files in %s" % (getattr(widget, "path", "") or "")}


def action_bar(walker: Any, widget: Any) -> Dict[str, Any]:
    """ActionBar: a ``UIToolbar``."""
    return {"class": "UIToolbar"}


def action_previous(walker: Any, widget: Any) -> Dict[str, Any]:
    """ActionPrevious: a ``UIButton`` titled by the bar's ``title`` (its inner Labels are not walked)."""
    return enabled(widget, {"class": "UIButton", "title": str(getattr(widget, "title", "") or "") or "Back"})


def image(walker: Any, widget: Any) -> Dict[str, Any]:
    """Image: a ``UIImageView``; an element only when the app named it (:func:`set_label`)."""
    props: Dict[str, Any] = {"class": "UIImageView"}
    name = APP_LABELS.get(id(widget))
    if name:
        props.update(isAccessibilityElement=True, accessibilityLabel=name)
    return props


#: Widgets whose children are parts of one control (not walked): their inner Labels would repeat its name.
LEAVES = frozenset(("ActionPrevious", "Spinner", "FileListEntry", "CheckBox", "Switch", "Slider", "TextInput", "Button",
                    "ButtonBehavior", "ToggleButtonBehavior", "ProgressBar"))

BUILTIN: Dict[str, Adapter] = {
    "Widget": container, "Layout": container, "Screen": container, "ScreenManager": container,
    "Label": label, "Button": button, "ButtonBehavior": button, "ToggleButtonBehavior": toggle_button, "ToggleButton": toggle_button, "CheckBox": checkbox, "Switch": switch,
    "TextInput": text_input, "Slider": slider, "ProgressBar": progress_bar, "Spinner": spinner,
    "TabbedPanelHeader": tab_header, "TabbedPanelStrip": tab_strip, "ScrollView": scroll_view,
    "RecycleView": recycle_view, "FileListEntry": file_entry, "FileChooserListView": file_chooser,
    "FileChooserIconView": file_chooser, "ActionBar": action_bar, "ActionPrevious": action_previous,
    "Image": image,
}
ADAPTERS.update(BUILTIN)
