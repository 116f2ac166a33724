"""Element adapters: one pygame_gui element → one view (UIKit class + accessibility properties),
Specs/pygame-gui-adapter.md §Mapping.

An adapter is ``adapter(walker, element) -> dict``: the view's properties (``class`` first, UIKit names from
Specs/hierarchy.md) and, optionally, ``"children"`` — part views (list rows, tabs, a drop-down's options, a window's
close button) that are no views of their own in the walk; a part carries ``"_target"``: the element an action on it
clicks. The walker adds ``id``, ``frame``, ``isHidden``, ``isEnabled`` and ``accessibilityIdentifier``.
:func:`register_adapter` adds or replaces one per element class (an app's own classes too); lookup follows the
class's MRO, so a subclass of ``UIButton`` maps as a button unless it has its own. Standard library only; pygame_gui
is imported lazily (:func:`builtin_adapters`).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Union

from ..kit.core import part_id
from ..kit.labels import clean_label
from ..kit.secure import mask

Adapter = Callable[[Any, Any], Dict[str, Any]]
#: ``handler(mirror, element, request) -> True/False (handled) or None (the default behaviour)``.
ActionHandler = Callable[[Any, Any, Any], Optional[bool]]

#: Adapters by element class (the app's or pygame_gui's) or class name (``"UIButton"``).
ADAPTERS: Dict[Union[type, str], Adapter] = {}
#: Action handlers, keyed as adapters.
ACTIONS: Dict[Union[type, str], ActionHandler] = {}
#: Keys (classes or class names) whose elements hold other elements (their inner containers are walked into
#: their view); every other element is a leaf and its sub-elements are parts its adapter publishes, or nothing.
CONTAINERS: set = set()
#: Labels an app gave to elements (:func:`set_label`), by element identity.
APP_LABELS: Dict[int, str] = {}

#: The longest string the mapping publishes in a label or title (the server's limits are in bytes).
MAX_LABEL = 4096


def register_adapter(key: Union[type, str], adapter: Adapter, container: bool = False) -> None:
    """Registers ``adapter`` for an element class (or class name); ``container=True`` when the element holds
    other elements in inner containers (as ``UIPanel``). A later registration for the same key replaces it."""
    ADAPTERS[key] = adapter
    if container:
        CONTAINERS.add(key)
    else:
        CONTAINERS.discard(key)


def register_actions(key: Union[type, str], handler: ActionHandler) -> None:
    """Registers how actions reach an element class: ``handler(mirror, element, request)`` returns True/False
    (handled or not) or None to fall back to the default behaviour."""
    ACTIONS[key] = handler


def set_label(element: Any, label: Optional[str]) -> None:
    """Gives ``element`` an accessibility label (a ``UIImage`` showing a chart); ``None`` removes it."""
    if label is None:
        APP_LABELS.pop(id(element), None)
    else:
        APP_LABELS[id(element)] = str(label)


def _lookup(table: Dict[Union[type, str], Any], element: Any) -> Any:
    for klass in type(element).__mro__:
        found = table.get(klass)
        if found is None:
            found = table.get(klass.__name__)
        if found is not None:
            return found
    return None


def find_adapter(element: Any) -> Adapter:
    """The adapter of the nearest class in ``element``'s MRO that has one, else :func:`generic`."""
    builtin_adapters()
    return _lookup(ADAPTERS, element) or generic


def adapters_in_order(element: Any) -> List[Adapter]:
    """Every adapter along ``element``'s MRO, nearest first (a failing one falls back to the next), ending with
    :func:`generic`."""
    builtin_adapters()
    found: List[Adapter] = []
    for klass in type(element).__mro__:
        adapter = ADAPTERS.get(klass) or ADAPTERS.get(klass.__name__)
        if adapter is not None and adapter not in found:
            found.append(adapter)
    return found + ([generic] if generic not in found else [])


def find_actions(element: Any) -> Optional[ActionHandler]:
    """The action handler registered for ``element``'s class (or a base class), or None."""
    return _lookup(ACTIONS, element)


def is_container(element: Any) -> bool:
    """True when ``element`` holds other elements (a panel, a window, a tab container, a scrolling container)."""
    builtin_adapters()
    for klass in type(element).__mro__:
        if klass in ADAPTERS or klass.__name__ in ADAPTERS:
            return klass in CONTAINERS or klass.__name__ in CONTAINERS
    return False


# -- helpers --------------------------------------------------------------------------------------------------------

def text_of(element: Any) -> str:
    """The element's own text (``get_text()`` or ``text``), as a string, clipped."""
    getter = getattr(element, "get_text", None)
    value = getter() if callable(getter) else getattr(element, "text", "")
    return str(value or "")[:32768]


def shown(text: Any, element: Any = None) -> str:
    """``text`` as pygame_gui draws it: translated (its localisation keys, ``pygame-gui.OK`` → "OK"), with the
    element's ``text_kwargs``."""
    text = str(text or "")
    if not text:
        return text
    from pygame_gui.core.utility import translate  # noqa: WPS433
    kwargs = getattr(element, "text_kwargs", None) or {}
    try:
        return str(translate(text, **kwargs))[:32768]
    except Exception:  # noqa: BLE001 — a key the app's locale lacks, a format error: the raw text
        return text[:32768]


def shown_text(element: Any) -> str:
    """The text a label, button or check box shows (its ``text``, translated)."""
    return shown(getattr(element, "text", ""), element)


def app_label(element: Any) -> Optional[str]:
    """The label the app gave (:func:`set_label`)."""
    return APP_LABELS.get(id(element))


def labelled(walker: Any, element: Any, props: Dict[str, Any]) -> Dict[str, Any]:
    """Names a control without text of its own: the app's label, else a label beside it (the kit's geometric
    rule, §Labels), else its tool tip."""
    name = app_label(element) or walker.label_beside(element) or clean_label(str(getattr(element, "tool_tip_text",
                                                                                       "") or ""))
    if name:
        props["accessibilityLabel"] = name[:MAX_LABEL]
    return props


def number(value: Any, default: float = 0.0) -> float:
    """``value`` as a float (``default`` when it is none)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


# -- the mapping ----------------------------------------------------------------------------------------------------

def generic(walker: Any, element: Any) -> Dict[str, Any]:
    """An element the mapping does not know: a plain view (named when the app gave a label)."""
    props: Dict[str, Any] = {"class": "UIView"}
    name = app_label(element)
    if name:
        props.update({"isAccessibilityElement": True, "accessibilityLabel": name})
    return props


def group(walker: Any, element: Any) -> Dict[str, Any]:
    """UIPanel, an app's UIContainer: a view grouping its elements (a semantic group when the app named it)."""
    props: Dict[str, Any] = {"class": "UIView"}
    name = app_label(element)
    if name:
        props.update({"accessibilityContainerType": "semanticGroup", "accessibilityLabel": name})
    return props


def scrolling(walker: Any, element: Any) -> Dict[str, Any]:
    """UIScrollingContainer (UIForm): a scroll view clipping its elements."""
    props = group(walker, element)
    props["class"] = "UIScrollView"
    props["clipsToBounds"] = True
    return props


def button(walker: Any, element: Any) -> Dict[str, Any]:
    """UIButton: a button titled by its text (an app's label wins; an empty button takes its tool tip)."""
    title = shown_text(element).strip()
    props: Dict[str, Any] = {"class": "UIButton", "title": title}
    if app_label(element) or not title:
        labelled(walker, element, props)
    if getattr(element, "is_selected", False):
        props["isSelected"] = True
    return props


def label(walker: Any, element: Any) -> Dict[str, Any]:
    """UILabel: static text."""
    return {"class": "UILabel", "text": shown_text(element)}


def text_box(walker: Any, element: Any) -> Dict[str, Any]:
    """UITextBox (HTML text, read-only): a text view that cannot be edited, its text without markup."""
    html = shown(getattr(element, "html_text", ""), element)
    return labelled(walker, element, {"class": "UITextView", "text": walker.plain_text(html)[:32768],
                                      "isEditable": False})


def text_entry(walker: Any, element: Any) -> Dict[str, Any]:
    """UITextEntryLine: a text field (``set_text_hidden(True)``: a secure one, bullets only); its caret and
    selection; the placeholder as ``placeholder``; named by the label beside it."""
    props: Dict[str, Any] = {"class": "UITextField", "text": text_of(element)}
    placeholder = str(getattr(element, "placeholder_text", "") or "")
    if placeholder:
        props["placeholder"] = placeholder[:MAX_LABEL]
    labelled(walker, element, props)
    if getattr(element, "is_text_hidden", False):
        mask(props)
    walker.text_selection(element, props)
    return props


def text_entry_box(walker: Any, element: Any) -> Dict[str, Any]:
    """UITextEntryBox: a multi-line editable text view, caret and selection."""
    props: Dict[str, Any] = {"class": "UITextView", "text": text_of(element)}
    labelled(walker, element, props)
    walker.text_selection(element, props)
    return props


def slider(walker: Any, element: Any) -> Dict[str, Any]:
    """UIHorizontalSlider: a slider with its range and value (adjustable: increment, decrement, setValue)."""
    low, high = (number(v) for v in (getattr(element, "value_range", None) or (0, 1))[:2])
    value = number(getattr(element, "current_value", low), low)
    props: Dict[str, Any] = {"class": "UISlider", "minimumValue": min(low, high), "maximumValue": max(low, high),
                             "value": min(max(value, min(low, high)), max(low, high))}
    step = number(getattr(element, "increment", 0))
    if step > 0:
        props["stepValue"] = step
    return labelled(walker, element, props)


def check_box(walker: Any, element: Any) -> Dict[str, Any]:
    """UICheckBox: a switch titled by its text, on while checked."""
    props: Dict[str, Any] = {"class": "UISwitch", "isOn": bool(getattr(element, "is_checked", False))}
    title = shown_text(element).strip()
    if title:
        props["accessibilityLabel"] = title[:MAX_LABEL]
    else:
        labelled(walker, element, props)
    return props


def progress(walker: Any, element: Any) -> Dict[str, Any]:
    """UIProgressBar / UIStatusBar (health bars too): a progress view, 0…1."""
    fraction = number(getattr(element, "percent_full", 0))
    return labelled(walker, element, {"class": "UIProgressView", "progress": min(max(fraction, 0.0), 1.0)})


def image(walker: Any, element: Any) -> Dict[str, Any]:
    """UIImage: an image, an accessibility element only when the app named it (:func:`set_label` or its tool
    tip); else decoration."""
    props: Dict[str, Any] = {"class": "UIImageView"}
    name = app_label(element) or str(getattr(element, "tool_tip_text", "") or "").strip()
    if name:
        props.update({"isAccessibilityElement": True, "accessibilityLabel": name[:MAX_LABEL],
                      "accessibilityTraits": ["image"]})
    return props


def drop_down(walker: Any, element: Any) -> Dict[str, Any]:
    """UIDropDownMenu: a pop-up button whose value is the selected option, collapsed or expanded; expanded, its
    options are a pop-up window (as a combo box's list) of buttons, the selected one ``isSelected``, each picking
    its option when activated (a button's children are hidden from assistive technologies: hence a window)."""
    selected = getattr(element, "selected_option", "")
    if isinstance(selected, (tuple, list)):
        selected = selected[0] if selected else ""
    state = getattr(element, "current_state", None)
    options_list = getattr(state, "options_selection_list", None)
    props: Dict[str, Any] = {"class": "UIButton", "accessibilityValue": str(selected)[:MAX_LABEL],
                             "accessibilityExpandedStatus": "expanded" if options_list is not None else "collapsed",
                             "_target": getattr(state, "selected_option_button", None)}
    labelled(walker, element, props)
    if options_list is not None:
        props["_popup"] = {"class": "UIWindow", "windowLevel": 1000.0, "accessibilityContainerType": "list",
                           "_element": options_list,
                           "children": walker.list_rows(options_list, options_list, "option", "UIButton")}
        if props.get("accessibilityLabel"):
            props["_popup"]["accessibilityLabel"] = props["accessibilityLabel"]
    return props


def selection_list(walker: Any, element: Any) -> Dict[str, Any]:
    """UISelectionList: a table of cells, one per item (selected ones ``isSelected``); activating a row selects
    it as a click does."""
    props: Dict[str, Any] = {"class": "UITableView", "clipsToBounds": True}
    labelled(walker, element, props)
    props["children"] = walker.list_rows(element, element, "row", "UITableViewCell")
    return props


def window(walker: Any, element: Any) -> Dict[str, Any]:
    """UIWindow (UIConfirmationDialog, UIMessageWindow, UIFileDialog…): a window titled by its title bar, modal
    while blocking; its close button is a "Close" button."""
    title = shown(getattr(element, "window_display_title", ""))
    props: Dict[str, Any] = {"class": "UIWindow", "windowTitle": title[:MAX_LABEL]}
    if title:
        props["accessibilityLabel"] = title[:MAX_LABEL]
    if getattr(element, "is_blocking", False):
        props["accessibilityViewIsModal"] = True
    close = getattr(element, "close_window_button", None)
    if close is not None and getattr(close, "visible", False):
        props["children"] = [{"id": part_id(walker.current_id, "close"), "class": "UIButton", "title": "Close",
                              "frame": walker.frame_in(close, element), "_target": close}]
    return props


def tab_container(walker: Any, element: Any) -> Dict[str, Any]:
    """UITabContainer: a tab bar of tab buttons (the current one ``isSelected``) above the current tab's page."""
    tabs = list(getattr(element, "tabs", None) or [])
    current = getattr(element, "current_container_index", None)
    buttons: List[Dict[str, Any]] = []
    for index, tab in enumerate(tabs):
        control = tab.get("button") if isinstance(tab, dict) else None
        if control is None:
            continue
        title = tab.get("text") if isinstance(tab, dict) else ""
        view: Dict[str, Any] = {"id": part_id(walker.current_id, "tab%d" % index), "class": "UITabBarButton",
                                "title": shown(title or getattr(control, "text", ""), control)[:MAX_LABEL],
                                "frame": walker.frame_in(control, element), "_target": control}
        if index == current:
            view["isSelected"] = True
        buttons.append(view)
    return {"class": "UIView", "children": buttons}


_BUILTIN_DONE = False


def builtin_adapters() -> None:
    """Registers the mapping of pygame_gui's own elements (once; imports pygame_gui)."""
    global _BUILTIN_DONE
    if _BUILTIN_DONE:
        return
    _BUILTIN_DONE = True
    from pygame_gui import elements  # noqa: WPS433 — the toolkit is imported only when an adapter runs
    from pygame_gui.core import UIContainer
    table = [(UIContainer, group, True), ("UIPanel", group, True), ("UIScrollingContainer", scrolling, True),
             ("UITabContainer", tab_container, True), ("UIWindow", window, True), ("UIButton", button, False),
             ("UILabel", label, False), ("UITextBox", text_box, False), ("UITextEntryLine", text_entry, False),
             ("UITextEntryBox", text_entry_box, False), ("UIHorizontalSlider", slider, False),
             ("UICheckBox", check_box, False), ("UIStatusBar", progress, False), ("UIProgressBar", progress, False),
             ("UIScreenSpaceHealthBar", progress, False), ("UIImage", image, False),
             ("UIDropDownMenu", drop_down, False), ("UISelectionList", selection_list, False)]
    for key, adapter, container in table:
        klass = key if isinstance(key, type) else getattr(elements, key, None)
        if klass is not None and klass not in ADAPTERS:
            register_adapter(klass, adapter, container)
