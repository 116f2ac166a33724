"""Widget adapters: one Tk widget → one view (UIKit class + accessibility properties), Specs/tk-adapter.md.

An adapter is ``adapter(walker, widget) -> dict``: the view's properties (``class`` first, UIKit names from
Specs/hierarchy.md) and, optionally, ``"children"`` — virtual child views (menu entries, rows, tabs, canvas text)
placed before the widget's own Tk children. The walker adds ``id``, ``frame``, ``isHidden`` and
``accessibilityIdentifier``. :func:`register_adapter` adds or replaces one per Python class or Tk class name.
"""
from __future__ import annotations

import os
import re
import tkinter
from tkinter import ttk
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..kit.labels import clean_label, label_beside
from ..kit.secure import mask

Adapter = Callable[["Any", tkinter.Misc], Dict[str, Any]]

#: Adapters by Python class (an app's own widget classes, exact) or by Tk class name (``winfo_class``).
ADAPTERS: Dict[Union[type, str], Adapter] = {}

#: Adapters by Python class *name* (``"CTkButton"``), for libraries the adapter cannot import (customtkinter).
ADAPTERS_BY_CLASS_NAME: Dict[str, Adapter] = {}

#: Action handlers ``handler(walker, widget, request) -> True/False (handled) or None (use the default)``, keyed as
#: adapters (Python class, Python class name or Tk class name).
ActionHandler = Callable[[Any, tkinter.Misc, Any], Optional[bool]]
ACTIONS: Dict[Union[type, str], ActionHandler] = {}

#: Labels an app gave to widgets (``axclient.tk.set_label``), by Tk path name.
APP_LABELS: Dict[str, str] = {}


def register_adapter(key: Union[type, str], adapter: Adapter) -> None:
    """Registers ``adapter`` for a widget class (a Python class, matched exactly, or a Tk class name such as
    ``"CTkButton"``). A later registration for the same key replaces the earlier one."""
    ADAPTERS[key] = adapter


def register_actions(key: Union[type, str], handler: ActionHandler) -> None:
    """Registers how actions reach a widget class (keys as for :func:`register_adapter`, or a Python class name):
    ``handler(walker, widget, request)`` returns True/False (handled or not) or None to fall back to the
    default behaviour."""
    ACTIONS[key] = handler


def find_actions(widget: tkinter.Misc) -> Optional[ActionHandler]:
    """The action handler registered for ``widget``'s Python class, its class name or its Tk class, or None."""
    klass = type(widget)
    handler = ACTIONS.get(klass) or ACTIONS.get(klass.__name__)
    if handler is None:
        try:
            handler = ACTIONS.get(str(widget.winfo_class()))
        except tkinter.TclError:
            handler = None
    return handler


def set_label(widget: tkinter.Misc, label: Optional[str]) -> None:
    """Gives ``widget`` an accessibility label (e.g. a Canvas that draws a chart); ``None`` removes it."""
    if label is None:
        APP_LABELS.pop(str(widget), None)
    else:
        APP_LABELS[str(widget)] = label


def find_adapter(widget: tkinter.Misc, tk_class: str) -> Adapter:
    """The adapter for ``widget``: one registered for its own Python class (a subclass an app or library
    defines), else for its Tk class name, else :func:`generic`. So a subclass that keeps the standard Tk class
    (``class MyButton(tk.Button)``) maps as a Button, and a compound widget with its own Tk class
    (``Frame(master, class_="Gauge")``) is generic unless an adapter is registered for it. To change how a
    standard widget maps, register its Tk class name (``"Button"``, ``"TButton"``)."""
    klass = type(widget)
    if klass not in _STANDARD_TYPES:
        adapter = ADAPTERS.get(klass) or ADAPTERS_BY_CLASS_NAME.get(klass.__name__)
        if adapter is not None:
            return adapter
    return ADAPTERS.get(tk_class, generic)


# -- helpers -----------------------------------------------------------------------------------------------------

def option(widget: tkinter.Misc, name: str, default: Any = "") -> Any:
    """``widget.cget(name)``, or ``default`` when the widget has no such option (TclError)."""
    try:
        return widget.cget(name)
    except (tkinter.TclError, ValueError):
        return default


def text_of(widget: tkinter.Misc) -> str:
    """The widget's ``-text`` (its ``-textvariable`` wins when set), as a string."""
    variable = str(option(widget, "textvariable", "") or "")
    if variable:
        try:
            return str(widget.getvar(variable))
        except tkinter.TclError:
            pass
    return str(option(widget, "text", "") or "")


def is_disabled(widget: tkinter.Misc) -> bool:
    """Tk's disabled state: ttk ``instate disabled``, else ``-state disabled``."""
    if isinstance(widget, ttk.Widget):
        try:
            return bool(widget.instate(["disabled"]))
        except tkinter.TclError:
            return False
    return str(option(widget, "state", "normal")) == "disabled"


def is_readonly(widget: tkinter.Misc) -> bool:
    """``-state readonly`` (classic) or ``instate readonly`` (ttk)."""
    if isinstance(widget, ttk.Widget):
        try:
            return bool(widget.instate(["readonly"]))
        except tkinter.TclError:
            return False
    return str(option(widget, "state", "normal")) == "readonly"


def variable_value(widget: tkinter.Misc, name: str = "variable") -> Optional[str]:
    """The value of the widget's Tcl variable option (``-variable``), or None when unset or undefined."""
    variable = str(option(widget, name, "") or "")
    if not variable:
        return None
    try:
        return str(widget.getvar(variable))
    except tkinter.TclError:
        return None


def enabled(widget: tkinter.Misc, props: Dict[str, Any]) -> Dict[str, Any]:
    """Adds ``isEnabled: False`` when the widget is disabled (UIKit's default is enabled)."""
    if is_disabled(widget):
        props["isEnabled"] = False
    return props


def number(text: Any) -> Optional[float]:
    """A float, or None."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if value == value and abs(value) < 1e15 else None


LABEL_CLASSES = ("Label", "TLabel")
#: Python classes of libraries' labels that the label rule also accepts.
LABEL_CLASS_NAMES = ("CTkLabel",)


def related_label(walker: Any, widget: tkinter.Misc) -> Optional[str]:
    """The label rule (Specs/tk-adapter.md §Labels): the app's label (``set_label``); else, under ``grid``, the
    Label in the same row one column to the left, else the one in the same column one row above; under ``pack``,
    the Label packed immediately before the widget in the same master; under ``place``, the placed Label beside
    it by the kit's geometric rule (:func:`axclient.kit.labels.label_beside`). Otherwise None."""
    path = str(widget)
    if path in APP_LABELS:
        return APP_LABELS[path]
    master = widget.master
    if master is None:
        return None
    try:
        manager = widget.winfo_manager()
    except tkinter.TclError:
        return None
    if manager == "grid":
        cells = walker.grid_labels(master)
        try:
            info = widget.grid_info()
            row, column = int(info.get("row", -1)), int(info.get("column", -1))
        except (tkinter.TclError, ValueError, TypeError):
            return None
        for key in ((row, column - 1), (row - 1, column)):
            label = cells.get(key)
            if label:
                return clean_label(label)
        return None
    if manager == "pack":
        return pack_label(walker, widget, master)
    if manager == "place":
        return label_beside(walker.geometry_in(widget), walker.place_labels(master))
    return None


def pack_label(walker: Any, widget: tkinter.Misc, master: tkinter.Misc) -> Optional[str]:
    """Under ``pack``: the Label that comes just before the widget on screen — packed immediately before it when
    both are packed from the top or left, immediately after it when both are packed from the right or bottom
    (ttkbootstrap's pager: "Page" [entry] "of" packed right to left)."""
    path = str(widget)
    slaves = walker.pack_order(master)
    try:
        index = slaves.index(path)
    except ValueError:
        return None
    side = walker.pack_side(path)
    neighbour = index + 1 if side in ("right", "bottom") else index - 1
    if not 0 <= neighbour < len(slaves) or walker.pack_side(slaves[neighbour]) != side:
        return None
    label = walker.label_text_at(slaves[neighbour])
    return clean_label(label) if label else None


#: Widgets whose content a Frame holds with its scroll bars: such a frame is the widget's own (Specs/tk-adapter.md
#: §Labels, rule 4).
SCROLLED_CLASSES = ("Text", "Listbox", "Canvas", "Treeview")
SCROLLBAR_CLASSES = ("Scrollbar", "TScrollbar")


def is_scrolled_content(walker: Any, widget: tkinter.Misc) -> bool:
    """A Text, Listbox, Canvas or Treeview, also an app's subclass with a class name of its own (Thonny's
    ``CodeViewText``)."""
    return isinstance(widget, (tkinter.Text, tkinter.Listbox, tkinter.Canvas, ttk.Treeview)) or (
        walker.tk_class(widget) in SCROLLED_CLASSES)


def notebook_page_label(walker: Any, widget: tkinter.Misc) -> Optional[str]:
    """A Text, Listbox, Canvas or Treeview inside a ttk.Notebook page, with no label of its own, takes the page's
    tab text (Thonny's editor "<untitled>" and its "Shell"; GTK names a notebook page's panel by its tab label).
    The page is the widget or an ancestor that a notebook manages — not necessarily a child of the notebook (Tk
    lets a notebook manage a sibling's subtree; Thonny does)."""
    if not is_scrolled_content(walker, widget):
        return None
    panes = walker.notebook_panes()
    path = str(widget)
    for _ in range(16):  # up the geometry masters (``-in``), which Thonny's code view uses to sit in its page
        if not path or path == ".":
            return None
        if path in panes:
            return clean_label(panes[path]) or None
        path = walker.layout_parent(path)
    return None


def scrolled_frame_label(walker: Any, widget: tkinter.Misc) -> Optional[str]:
    """A Text, Listbox, Canvas or Treeview alone in a Frame with its scroll bars (the common layout) takes the
    frame's label: a LabelFrame's text, else the label rule applied to the frame."""
    master = widget.master
    if master is None or not is_scrolled_content(walker, widget):
        return None
    siblings = [child for child in master.children.values() if child is not widget]
    if any(walker.tk_class(child) not in SCROLLBAR_CLASSES for child in siblings):
        return None
    if walker.tk_class(master) in ("Labelframe", "TLabelframe"):
        text = text_of(master).strip()
        if text:
            return clean_label(text)
    if master.master is None:
        return None
    return related_label(walker, master)


def labelled(walker: Any, widget: tkinter.Misc, props: Dict[str, Any]) -> Dict[str, Any]:
    """Adds ``accessibilityLabel`` from :func:`related_label` (else, for a scrolled widget in its own frame,
    :func:`scrolled_frame_label`) when there is one."""
    label = related_label(walker, widget) or scrolled_frame_label(walker, widget) or notebook_page_label(walker, widget)
    if label:
        props["accessibilityLabel"] = label
    return props


# -- adapters ----------------------------------------------------------------------------------------------------

def generic(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """An unknown widget: a ``UIView`` that keeps the Tk class name (``class``) and exposes any text as its label."""
    tk_class = walker.tk_class(widget)
    props: Dict[str, Any] = {"class": tk_class or "UIView", "baseClass": "UIView"}
    text = text_of(widget)
    label = APP_LABELS.get(str(widget)) or text
    if label:
        props["isAccessibilityElement"] = True
        props["accessibilityLabel"] = label
        props["accessibilityTraits"] = ["staticText"]
    return props


def container(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Frame, PanedWindow, ttk.Frame/Panedwindow, Separator, Sizegrip: a transparent ``UIView``."""
    props: Dict[str, Any] = {"class": "UIView"}
    label = APP_LABELS.get(str(widget))
    if label:
        props["accessibilityLabel"] = label
        props["accessibilityContainerType"] = "semanticGroup"
    return props


def labelframe(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """LabelFrame / ttk.Labelframe: a labelled group (container type ``semanticGroup``)."""
    props: Dict[str, Any] = {"class": "UIView", "accessibilityContainerType": "semanticGroup"}
    label = APP_LABELS.get(str(widget)) or text_of(widget).strip()
    if label:
        props["accessibilityLabel"] = label
    return props


def label(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Label / ttk.Label / Message: a ``UILabel`` with its text, without the spaces apps pad it with
    (``" START "``); an image-only Label is an image named by :func:`icon_name` when it has one."""
    text = text_of(widget).strip()
    if not text:
        name = icon_name(walker, widget)
        if name:
            return {"class": "UIImageView", "isAccessibilityElement": True, "accessibilityLabel": name}
    return enabled(widget, {"class": "UILabel", "text": text})


#: Tk's own names for images an app did not name (``image create photo`` without a name; tkinter's PhotoImage).
GENERATED_IMAGE = re.compile(r"^(pyimage|image)\d+$")


def icon_name(walker: Any, widget: tkinter.Misc) -> Optional[str]:
    """The name of an image-only widget (Specs/tk-adapter.md §Labels): a library's icon name (ttkbootstrap's
    ``icon="chevron-left"``), else the image file's name (``save.png``), else an image name the app gave —
    hyphens and underscores read as spaces ("chevron left"). None when nothing names it."""
    spec = getattr(widget, "_tb_icon", None)
    if isinstance(spec, dict) and isinstance(spec.get("name"), str):
        return _words(spec["name"])
    raw = option(widget, "image", "") or ""
    images = [str(part) for part in (raw if isinstance(raw, (tuple, list)) else walker.app.splitlist(str(raw)))]
    if not images or not images[0]:
        return None
    image = images[0]  # a ttk image spec: the default image, then state/image pairs
    try:
        source = str(walker.app.call(image, "cget", "-file"))
    except tkinter.TclError:
        source = ""
    if source:
        return _words(os.path.splitext(os.path.basename(source))[0])
    return None if GENERATED_IMAGE.match(image) else _words(image)


def _words(name: str) -> str:
    return " ".join(name.replace("-", " ").replace("_", " ").split())


def button(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Button / ttk.Button / Menubutton: a ``UIButton`` titled with its text (without padding), else its icon's
    name (:func:`icon_name`), else the related label."""
    props: Dict[str, Any] = {"class": "UIButton", "title": text_of(widget).strip()}
    if not props["title"]:
        name = icon_name(walker, widget)
        if name:
            props["accessibilityLabel"] = name
    if is_option_menu(widget):
        # tkinter.OptionMenu (IDLE's font size): the text is the chosen value; the related Label names it.
        props["accessibilityValue"] = props["title"]
        props["accessibilityHint"] = "pop-up menu"
        labelled(walker, widget, props)
    elif not props["title"] and "accessibilityLabel" not in props:
        labelled(walker, widget, props)
    return enabled(widget, props)


def is_option_menu(widget: tkinter.Misc) -> bool:
    """An option menu: a Menubutton showing its variable with an indicator (what ``tkinter.OptionMenu`` makes)."""
    if not isinstance(widget, (tkinter.Menubutton, ttk.Menubutton)):
        return False
    if isinstance(widget, ttk.Menubutton):
        return bool(option(widget, "textvariable", ""))
    return bool(option(widget, "textvariable", "")) and str(option(widget, "indicatoron", "0")) in ("1", "true")


def checkbutton(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Checkbutton / ttk.Checkbutton: a ``UISwitch`` labelled with its text, on when its variable holds onvalue."""
    if isinstance(widget, ttk.Widget):
        try:
            on = bool(widget.instate(["selected"]))
        except tkinter.TclError:
            on = False
    else:
        value = variable_value(widget)
        on = value is not None and value == str(option(widget, "onvalue", "1"))
    props: Dict[str, Any] = {"class": "UISwitch", "isOn": on}
    text = text_of(widget)
    if text:
        props["accessibilityLabel"] = text
    else:
        labelled(walker, widget, props)
    return enabled(widget, props)


def radiobutton(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Radiobutton / ttk.Radiobutton: a ``UIButton`` (selected when its variable holds its value) whose value is
    its place in the group of radio buttons sharing the variable: "2 of 3"."""
    variable = str(option(widget, "variable", "") or "")
    value = variable_value(widget)
    selected = value is not None and value == str(option(widget, "value", ""))
    props: Dict[str, Any] = {"class": "UIButton", "title": text_of(widget), "isSelected": selected}
    group = walker.radio_group(variable) if variable else []
    if len(group) > 1 and str(widget) in group:
        props["accessibilityValue"] = "%d of %d" % (group.index(str(widget)) + 1, len(group))
    return enabled(widget, props)


def entry(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Entry / ttk.Entry / Combobox: a ``UITextField`` with its text; secure when ``-show`` hides it; labelled by
    the related Label; not editable when read-only."""
    try:
        text = widget.get()  # type: ignore[attr-defined]
    except tkinter.TclError:
        text = ""
    props: Dict[str, Any] = {"class": "UITextField", "text": text[:32768]}
    if is_masked(walker, widget):
        mask(props)
    if walker.supports("selectedTextRange"):
        props["selectedTextRange"] = walker.entry_selection(widget, len(props["text"]))
    if is_readonly(widget):
        props["isEditable"] = False
    labelled(walker, widget, props)
    return enabled(widget, props)


def is_masked(walker: Any, widget: tkinter.Misc) -> bool:
    """True when the entry hides its text (``-show``, also set after creation: read at every flush), or shares its
    ``-textvariable`` with one that does (Specs/tk-adapter.md §Masked text)."""
    if option(widget, "show", ""):
        return True
    variable = str(option(widget, "textvariable", "") or "")
    return bool(variable) and variable in walker.masked_variables()


def combobox(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """ttk.Combobox: an entry whose hint lists the choices count ("combo box, 3 choices")."""
    values = option(widget, "values", ()) or ()
    try:
        choices = [str(v) for v in widget.tk.splitlist(values)]
    except tkinter.TclError:
        choices = []
    if is_readonly(widget):
        return readonly_combobox(walker, widget, choices)
    props = entry(walker, widget)
    props["accessibilityHint"] = "combo box, %d choices" % len(choices)
    return props


#: A read-only combo box offers at most this many choices as custom actions.
MAX_CHOICE_ACTIONS = 50


def readonly_combobox(walker: Any, widget: tkinter.Misc, choices: List[str]) -> Dict[str, Any]:
    """A read-only ttk.Combobox is a pop-up button, not a text field (nothing can be typed into it): a
    ``UIButton`` whose value is the choice, hint "pop-up menu, n choices", one custom action per choice (the first
    :data:`MAX_CHOICE_ACTIONS`; ``custom:<choice>`` picks it); activate posts its drop-down list."""
    try:
        current = str(widget.get())  # type: ignore[attr-defined]
    except tkinter.TclError:
        current = ""
    props: Dict[str, Any] = {"class": "UIButton", "accessibilityValue": current,
                             "accessibilityHint": "pop-up menu, %d choices" % len(choices)}
    actions = [{"id": choice, "name": choice} for choice in dict.fromkeys(c for c in choices if c.strip())]
    if actions:
        props["accessibilityCustomActions"] = actions[:MAX_CHOICE_ACTIONS]
    labelled(walker, widget, props)
    return enabled(widget, props)


def spinbox(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Spinbox / ttk.Spinbox: a ``UIStepper`` (adjustable: increment/decrement) with the entry text as its value."""
    try:
        text = widget.get()  # type: ignore[attr-defined]
    except tkinter.TclError:
        text = ""
    props: Dict[str, Any] = {"class": "UIStepper", "accessibilityValue": text[:32768]}
    low, high = number(option(widget, "from", None)), number(option(widget, "to", None))
    current = number(text)
    if low is not None and high is not None and low < high and current is not None:
        props.update(minimumValue=low, maximumValue=high, value=min(max(current, low), high))
        step = number(option(widget, "increment", 1))
        if step and step > 0:
            props["stepValue"] = step
    labelled(walker, widget, props)
    return enabled(widget, props)


def scale(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Scale / ttk.Scale: a ``UISlider`` with its range and value (Orca reads the percentage, A43)."""
    low, high = number(option(widget, "from", 0)), number(option(widget, "to", 100))
    try:
        value = number(widget.get())  # type: ignore[attr-defined]
    except tkinter.TclError:
        value = None
    props: Dict[str, Any] = {"class": "UISlider"}
    if low is not None and high is not None:
        lo, hi = min(low, high), max(low, high)
        if lo == hi:
            hi = lo + 1
        props.update(minimumValue=lo, maximumValue=hi)
        if value is not None:
            props["value"] = min(max(value, lo), hi)
    text = str(option(widget, "label", "") or "")
    if text:
        props["accessibilityLabel"] = text
    else:
        labelled(walker, widget, props)
    return enabled(widget, props)


def progressbar(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """ttk.Progressbar: ``UIProgressView`` (determinate, progress = value / maximum) or
    ``UIActivityIndicatorView`` (indeterminate, animating)."""
    if str(option(widget, "mode", "determinate")) == "indeterminate":
        return labelled(walker, widget, {"class": "UIActivityIndicatorView", "isAnimating": True})
    maximum = number(option(widget, "maximum", 100)) or 100.0
    value = number(option(widget, "value", 0)) or 0.0
    props = {"class": "UIProgressView", "progress": min(max(value / maximum, 0.0), 1.0)}
    return labelled(walker, widget, props)


def scrollbar(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Scrollbar / ttk.Scrollbar: an adjustable element (``UISlider`` base class, class name kept) whose value is
    the scrolled position; increment/decrement scroll a page."""
    try:
        first, last = widget.get()[:2]  # type: ignore[attr-defined]
    except (tkinter.TclError, ValueError, TypeError):
        first, last = 0.0, 1.0
    span = max(1e-9, 1.0 - (float(last) - float(first)))
    position = min(max(float(first) / span, 0.0), 1.0)
    orient = str(option(widget, "orient", "vertical"))
    return {"class": "TkScrollbar", "baseClass": "UISlider", "minimumValue": 0.0, "maximumValue": 1.0,
            "value": position,
            "accessibilityLabel": "%s scroll bar" % ("Horizontal" if orient.startswith("h") else "Vertical")}


def text_widget(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Text: a ``UITextView`` with its content (a window of it beyond 64 KiB, Specs/tk-adapter.md §Big text)."""
    props: Dict[str, Any] = {"class": "UITextView", "text": walker.text_content(widget)}
    if str(option(widget, "state", "normal")) == "disabled":
        props["isEditable"] = False
    if walker.supports("selectedTextRange"):
        selection = walker.text_selection(widget, len(props["text"]))
        if selection is not None:
            props["selectedTextRange"] = selection
    walker.text_layout(widget, props)
    labelled(walker, widget, props)
    return props


def listbox(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Listbox: a ``UITableView`` of ``UITableViewCell`` rows (selected rows ``isSelected``), scrolled by its
    content offset so that a scroll is one property, not a frame per row."""
    props: Dict[str, Any] = {"class": "UITableView", "clipsToBounds": True}
    labelled(walker, widget, props)
    enabled(widget, props)
    props["children"] = walker.listbox_rows(widget, props)
    return props


def treeview(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """ttk.Treeview: a ``UITableView``; rows are cells (outline: ``indentationLevel`` and expanded status; table:
    the label joins "heading: value"), headings are header labels."""
    props: Dict[str, Any] = {"class": "UITableView", "clipsToBounds": True}
    labelled(walker, widget, props)
    props["children"] = walker.tree_rows(widget, props)
    return props


def notebook(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """ttk.Notebook: a ``UITabBar`` of ``UITabBarButton`` tabs (selected one ``isSelected``) above the pages."""
    props: Dict[str, Any] = {"class": "UIView"}
    props["children"] = walker.notebook_tabs(widget)
    return props


def canvas(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Canvas: a ``UIView`` (labelled by the app's ``set_label`` or the related Label) whose text items are
    ``UILabel`` children."""
    props: Dict[str, Any] = {"class": "UIView", "clipsToBounds": True}
    label_text = related_label(walker, widget)
    items = walker.canvas_texts(widget)
    if label_text:
        props["accessibilityLabel"] = label_text
        if items:
            props["accessibilityContainerType"] = "semanticGroup"
        else:
            props["isAccessibilityElement"] = True
            props["accessibilityTraits"] = ["image"]
    props["children"] = items
    return props


def menu(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Menu (posted): a window holding a menu (container type ``menu``, D-MENU-1) whose entries are buttons,
    switches (check entries) and selected buttons (radio entries); accelerators are hints; cascades have an
    expanded status."""
    props: Dict[str, Any] = {"class": "UIWindow", "accessibilityContainerType": "list",
                             "windowLevel": 1000.0}
    title = walker.menu_title(str(widget))
    if title:
        props["accessibilityLabel"] = props["windowTitle"] = title
    props["children"] = walker.menu_entries(widget)
    if walker.grab_window() not in ("", str(widget)):
        # Posted over a modal dialog (IDLE's font size menu in Settings): modal too, or the dialog's modality
        # would hide it (R86).
        props["accessibilityViewIsModal"] = True
    return props


def toplevel(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """Tk / Toplevel: a ``UIWindow`` titled by ``wm title``; modal (``accessibilityViewIsModal``) while it or a
    descendant holds the grab."""
    try:
        title = str(widget.wm_title())  # type: ignore[attr-defined]
    except tkinter.TclError:
        title = ""
    props: Dict[str, Any] = {"class": "UIWindow", "windowTitle": title}
    if title:
        props["accessibilityLabel"] = title
    if walker.holds_grab(widget):
        props["accessibilityViewIsModal"] = True
    return props


# -- customtkinter (PyPI ``customtkinter``): Canvas-drawn compounds, matched by Python class name -----------------

def _ctk_get(widget: tkinter.Misc, default: Any = None) -> Any:
    try:
        return widget.get()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 — a library's own error
        return default


def _ctk_state(widget: tkinter.Misc, props: Dict[str, Any]) -> Dict[str, Any]:
    if str(option(widget, "state", "normal")) == "disabled":
        props["isEnabled"] = False
    props["_leaf"] = True
    return props


def ctk_button(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkButton: a ``UIButton`` titled with its text (drawn on a canvas, with an inner Label)."""
    return _ctk_state(widget, {"class": "UIButton", "title": str(option(widget, "text", "") or "")})


def ctk_label(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkLabel: a ``UILabel``."""
    return _ctk_state(widget, {"class": "UILabel", "text": str(option(widget, "text", "") or "")})


def ctk_entry(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkEntry / CTkComboBox: a ``UITextField``; its placeholder is the placeholder (not the text)."""
    props: Dict[str, Any] = {"class": "UITextField", "text": str(_ctk_get(widget, "") or "")[:16384]}
    placeholder = str(option(widget, "placeholder_text", "") or "")
    if placeholder and props["text"] == placeholder:
        props["text"] = ""
    if placeholder:
        props["placeholder"] = placeholder
    if _ctk_masked(walker, widget):
        mask(props)
    labelled(walker, widget, props)
    return _ctk_state(widget, props)


def _ctk_masked(walker: Any, widget: tkinter.Misc) -> bool:
    """A CTkEntry(show=…): its inner Entry masks, or will once the placeholder it shows meanwhile goes
    (customtkinter keeps ``show`` aside while the placeholder is in the entry)."""
    inner = getattr(widget, "_entry", None)
    if not isinstance(inner, tkinter.Entry):
        return False
    if is_masked(walker, inner):
        return True
    pending = getattr(widget, "_pre_placeholder_arguments", None)
    return bool(getattr(widget, "_placeholder_text_active", False) and isinstance(pending, dict)
                and pending.get("show"))


def ctk_toggle(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkCheckBox / CTkSwitch: a ``UISwitch`` on when ``get()`` is its onvalue."""
    on = _ctk_get(widget) == option(widget, "onvalue", 1)
    return _ctk_state(widget, {"class": "UISwitch", "isOn": bool(on),
                               "accessibilityLabel": str(option(widget, "text", "") or "")})


def ctk_radio(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkRadioButton: a ``UIButton``, selected while checked."""
    return _ctk_state(widget, {"class": "UIButton", "title": str(option(widget, "text", "") or ""),
                               "isSelected": bool(getattr(widget, "_check_state", False))})


def ctk_slider(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkSlider: a ``UISlider`` over ``from_``…``to``."""
    low, high = number(option(widget, "from_", 0)) or 0.0, number(option(widget, "to", 1))
    high = high if high is not None and high != low else low + 1
    value = number(_ctk_get(widget, low)) or low
    props = {"class": "UISlider", "minimumValue": min(low, high), "maximumValue": max(low, high),
             "value": min(max(value, min(low, high)), max(low, high))}
    labelled(walker, widget, props)
    return _ctk_state(widget, props)


def ctk_progress(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkProgressBar: a ``UIProgressView`` (``get()`` is 0…1)."""
    value = number(_ctk_get(widget, 0)) or 0.0
    return _ctk_state(widget, labelled(walker, widget, {"class": "UIProgressView",
                                                         "progress": min(max(value, 0.0), 1.0)}))


def ctk_option_menu(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkOptionMenu: a ``UIButton`` whose value is the current choice (hint "pop-up menu, n choices");
    activate picks the next choice (setValue, where a client can send it, picks a named one)."""
    values = option(widget, "values", []) or []
    props = {"class": "UIButton", "title": str(_ctk_get(widget, "") or ""), "accessibilityValue":
             str(_ctk_get(widget, "") or ""), "accessibilityHint": "pop-up menu, %d choices" % len(values)}
    labelled(walker, widget, props)
    return _ctk_state(widget, props)


def ctk_textbox(walker: Any, widget: tkinter.Misc) -> Dict[str, Any]:
    """CTkTextbox: a ``UITextView`` with its content."""
    text = _ctk_get(widget, "")
    try:
        text = widget.get("1.0", "end-1c")  # type: ignore[call-arg, attr-defined]
    except Exception:  # noqa: BLE001
        pass
    props = {"class": "UITextView", "text": str(text)[:16384]}
    labelled(walker, widget, props)
    return _ctk_state(widget, props)


def ctk_actions(walker: Any, widget: tkinter.Misc, request: Any) -> Optional[bool]:
    """Actions for the customtkinter controls, through their own methods (``invoke``, ``toggle``, ``set``) so
    their commands and variables run as for a click; None: not one this control takes (the mirror's own)."""
    action = request.action
    if str(option(widget, "state", "normal")) == "disabled" and action != "escape":
        return False
    inner = getattr(widget, "_entry", None) or getattr(widget, "_textbox", None)
    handler = _CTK_ACTIONS.get(action)
    return handler(walker, widget, request, inner) if handler is not None else None


def _ctk_command(widget: tkinter.Misc, value: Any) -> None:
    """Calls the control's ``command`` with the new value, as a user's change does."""
    command = option(widget, "command", None)
    if callable(command):
        command(value)


def _ctk_activate(walker: Any, widget: tkinter.Misc, request: Any, inner: Any) -> Optional[bool]:
    kind = type(widget).__name__
    if kind in ("CTkButton", "CTkRadioButton"):
        widget.invoke()  # type: ignore[attr-defined]
    elif kind in ("CTkCheckBox", "CTkSwitch"):
        widget.toggle()  # type: ignore[attr-defined]
    elif kind == "CTkOptionMenu":  # no popup to open for a client: activate picks the next choice
        values = [str(v) for v in (option(widget, "values", []) or [])]
        if not values:
            return False
        current = str(_ctk_get(widget, ""))
        chosen = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
        widget.set(chosen)  # type: ignore[attr-defined]
        _ctk_command(widget, chosen)
    elif inner is not None:
        walker.focus_widget(inner)
    else:
        return None
    return True


def _ctk_adjust(walker: Any, widget: tkinter.Misc, request: Any, inner: Any) -> Optional[bool]:
    """increment/decrement on a CTkSlider: one step (``number_of_steps``, else 1/20 of the range)."""
    if type(widget).__name__ != "CTkSlider":
        return None
    low, high = float(option(widget, "from_", 0)), float(option(widget, "to", 1))
    steps = option(widget, "number_of_steps", None)
    step = abs(high - low) / (float(steps) if steps else 20.0)
    current = float(widget.get())  # type: ignore[attr-defined]
    value = min(max(current + (step if request.action == "increment" else -step), min(low, high)), max(low, high))
    widget.set(value)  # type: ignore[attr-defined]
    _ctk_command(widget, value)
    return True


def _ctk_set_value(walker: Any, widget: tkinter.Misc, request: Any, inner: Any) -> Optional[bool]:
    kind = type(widget).__name__
    if kind in ("CTkOptionMenu", "CTkComboBox"):
        widget.set(str(request.value))  # type: ignore[attr-defined]
        _ctk_command(widget, str(request.value))
        return True
    if kind == "CTkSlider":
        widget.set(float(request.value))  # type: ignore[attr-defined]
        return True
    return bool(walker.set_value(inner, request.value)) if inner is not None else None


def _ctk_type_text(walker: Any, widget: tkinter.Misc, request: Any, inner: Any) -> Optional[bool]:
    return bool(walker.type_text(inner, str(request.value or ""))) if inner is not None else None


_CTK_ACTIONS: Dict[str, Callable[[Any, tkinter.Misc, Any, Any], Optional[bool]]] = {
    "activate": _ctk_activate, "increment": _ctk_adjust, "decrement": _ctk_adjust, "setValue": _ctk_set_value,
    "typeText": _ctk_type_text}


def _install_ctk() -> None:
    for name, adapter in (("CTkButton", ctk_button), ("CTkLabel", ctk_label), ("CTkEntry", ctk_entry),
                          ("CTkComboBox", ctk_entry), ("CTkCheckBox", ctk_toggle), ("CTkSwitch", ctk_toggle),
                          ("CTkRadioButton", ctk_radio), ("CTkSlider", ctk_slider),
                          ("CTkProgressBar", ctk_progress), ("CTkOptionMenu", ctk_option_menu),
                          ("CTkTextbox", ctk_textbox)):
        ADAPTERS_BY_CLASS_NAME.setdefault(name, adapter)
        ACTIONS.setdefault(name, ctk_actions)


def _install_defaults() -> None:
    table: List[Tuple[Tuple[Union[type, str], ...], Adapter]] = [
        ((tkinter.Tk, tkinter.Toplevel, "Tk", "Toplevel"), toplevel),
        ((tkinter.Frame, tkinter.PanedWindow, ttk.Frame, ttk.Panedwindow, ttk.Separator, ttk.Sizegrip,
          "Frame", "Panedwindow", "TFrame", "TPanedwindow", "TSeparator", "TSizegrip"), container),
        ((tkinter.LabelFrame, ttk.Labelframe, "Labelframe", "TLabelframe"), labelframe),
        ((tkinter.Label, tkinter.Message, ttk.Label, "Label", "Message", "TLabel"), label),
        ((tkinter.Button, tkinter.Menubutton, ttk.Button, ttk.Menubutton, "Button", "Menubutton", "TButton",
          "TMenubutton"), button),
        ((tkinter.Checkbutton, ttk.Checkbutton, "Checkbutton", "TCheckbutton"), checkbutton),
        ((tkinter.Radiobutton, ttk.Radiobutton, "Radiobutton", "TRadiobutton"), radiobutton),
        ((tkinter.Entry, ttk.Entry, "Entry", "TEntry"), entry),
        ((ttk.Combobox, "TCombobox"), combobox),
        ((tkinter.Spinbox, ttk.Spinbox, "Spinbox", "TSpinbox"), spinbox),
        ((tkinter.Scale, ttk.Scale, "Scale", "TScale"), scale),
        ((ttk.Progressbar, "TProgressbar"), progressbar),
        ((tkinter.Scrollbar, ttk.Scrollbar, "Scrollbar", "TScrollbar"), scrollbar),
        ((tkinter.Text, "Text"), text_widget),
        ((tkinter.Listbox, "Listbox"), listbox),
        ((ttk.Treeview, "Treeview"), treeview),
        ((ttk.Notebook, "TNotebook"), notebook),
        ((tkinter.Canvas, "Canvas"), canvas),
        ((tkinter.Menu, "Menu"), menu),
    ]
    for keys, adapter in table:
        for key in keys:
            ADAPTERS.setdefault(key, adapter)
            if isinstance(key, type):
                _STANDARD_TYPES.add(key)


_STANDARD_TYPES: set = set()


_install_defaults()
_install_ctk()
