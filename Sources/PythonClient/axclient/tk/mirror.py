"""The Tk mirror: Tk's side of the adapter kit (:class:`axclient.kit.ToolkitMirror`) — walks a Tk root into
views, notices changes (Tcl calls, events), performs actions with Tk's own commands, reads keys from a bind tag.

Threads: everything that touches Tk runs on the Tk thread (the one that created the root). The kit's link thread
owns the server connection; the connection's worker thread receives ``action.perform`` and the kit queues it for
the Tk thread, which a wake-up pipe watched by Tk's own event loop wakes (no polling). Specs/tk-adapter.md
describes the mapping, Specs/adapter-kit.md the kit.
"""
from __future__ import annotations

import os
import sys
import time
import tkinter
import tkinter.font
from tkinter import ttk
from typing import Any, Dict, List, Optional, Set, Tuple

from ..kit.core import LoopBusy, TargetGone, ToolkitMirror
from ..kit.link import warn
from ..kit.patches import CLIPPED_PROPERTIES, TEXT_LIMIT_BYTES, TRUNCATION_MARKER, clip_text
from ..provider import ActionRequest
from . import adapters, textlayout

#: Tcl commands (first word) and widget subcommands (second word) that only read: they never mark the tree dirty.
READ_COMMANDS = frozenset(("after", "update", "winfo", "info", "image", "font", "bindtags", "bind", "event",
                           "tk", "ttk::style", "clipboard", "selection", "namespace", "format", "expr",
                           "string", "list", "lindex", "llength", "set", "array", "trace", "rename", "proc",
                           "interp", "incr", "catch", "return", "tk_getOpenFile", "tk_getSaveFile"))
READ_SUBCOMMANDS = frozenset(("cget", "get", "index", "bbox", "compare", "dlineinfo", "count", "search", "nearest",
                              "identify", "curselection", "instate", "exists", "children", "parent", "next",
                              "prev", "type", "entrycget", "itemcget", "tag", "mark", "dump", "xposition",
                              "yposition", "coords", "find", "gettags", "canvasx", "canvasy", "size",
                              "validate", "current", "tabs", "column", "heading", "edit", "peer", "debug",
                              "window", "image", "fraction", "identify", "sash", "panes", "panecget"))
TREE_STRUCTURE = frozenset(("insert", "delete", "move", "detach", "reattach", "selection", "see", "focus",
                            "yview", "configure", "heading", "column"))

KEYSYMS = {" ": "space", "!": "exclam", '"': "quotedbl", "#": "numbersign", "$": "dollar", "%": "percent",
           "&": "ampersand", "'": "apostrophe", "(": "parenleft", ")": "parenright", "*": "asterisk",
           "+": "plus", ",": "comma", "-": "minus", ".": "period", "/": "slash", ":": "colon", ";": "semicolon",
           "<": "less", "=": "equal", ">": "greater", "?": "question", "@": "at", "[": "bracketleft",
           "\\": "backslash", "]": "bracketright", "^": "asciicircum", "_": "underscore", "`": "grave",
           "{": "braceleft", "|": "bar", "}": "braceright", "~": "asciitilde", "\n": "Return", "\t": "Tab"}
MODIFIER_BITS = (("shift", 0x1), ("control", 0x4), ("alt", 0x8), ("super", 0x40))
TAG = "AXMirror"
#: Canvas classes of libraries that draw a control's shape with text items of a glyph font (customtkinter's
#: rounded corners are "A"…"F" in CustomTkinter_shapes_font): their items are drawing, not text.
SHAPE_CANVAS_CLASSES = frozenset(("CTkCanvas",))


class TkBusy(LoopBusy):
    """The Tk main loop did not take the action within :data:`axclient.kit.core.ACTION_START_TIMEOUT` seconds."""


_LIVE_MIRRORS: List["Mirror"] = []
_VARIABLES_PATCHED = False


def _patch_variables() -> None:
    """``Variable.set`` marks the mirrors of its interpreter dirty, also for variables created before ``mirror()``
    (they hold the real ``tkapp``, not the proxy)."""
    global _VARIABLES_PATCHED
    if _VARIABLES_PATCHED:
        return
    _VARIABLES_PATCHED = True
    for klass in (tkinter.Variable, tkinter.BooleanVar):
        original = klass.__dict__.get("set")
        if original is None:
            continue

        def patched(self: Any, value: Any, _original: Any = original) -> Any:
            result = _original(self, value)
            app = getattr(self, "_tk", None)
            if isinstance(app, _TkProxy):
                app = app._ax_app
            for mirror in list(_LIVE_MIRRORS):
                if mirror.app is app and not mirror.reading:
                    mirror.mark_dirty()
            return result

        klass.set = patched  # type: ignore[method-assign]


class _TkProxy:
    """Stands in for the root's ``tkapp``: every Tcl call the app makes marks the tree dirty (unless it only reads);
    everything else is the real ``tkapp``."""

    __slots__ = ("_ax_app", "_ax_mirror")

    def __init__(self, app: Any, mirror: "Mirror") -> None:
        object.__setattr__(self, "_ax_app", app)
        object.__setattr__(self, "_ax_mirror", mirror)

    def call(self, *args: Any) -> Any:
        mirror = self._ax_mirror
        if not mirror.reading:
            mirror.note_call(args)
        return self._ax_app.call(*args)

    def globalsetvar(self, *args: Any) -> Any:
        self._ax_mirror.mark_dirty()
        return self._ax_app.globalsetvar(*args)

    def setvar(self, *args: Any) -> Any:
        self._ax_mirror.mark_dirty()
        return self._ax_app.setvar(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ax_app, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._ax_app, name, value)


class _TreeCache:
    """What the mirror read of one Treeview: item data by iid (re-read only when dirty) and the display order."""

    def __init__(self) -> None:
        self.items: Dict[str, Dict[str, Any]] = {}
        self.dirty_items: Set[str] = set()
        self.structure_dirty = True
        #: (iid, level, displayed, has children) in display order.
        self.order: List[Tuple[str, int, bool, bool]] = []
        self.open: Set[str] = set()
        self.selection: Set[str] = set()
        #: The last row view per iid and the inputs it was made from (reused as the same object when equal).
        self.rows: Dict[str, Tuple[Any, Dict[str, Any]]] = {}
        #: (inputs, row and heading views, action targets) of the last read, reused while nothing changed.
        self.last: Optional[Tuple[Any, List[Dict[str, Any]], Dict[str, Tuple[Any, ...]]]] = None


class _TreeLayout:
    """What a Treeview shows (its ``-show`` parts, columns and headings, width), read once per flush, and the views
    of its headings and rows."""

    def __init__(self, app: Any, path: str) -> None:
        call, split = app.call, app.splitlist
        self.app, self.path = app, path
        self.show = {str(part) for part in split(call(path, "cget", "-show"))}
        self.columns = [str(column) for column in split(call(path, "cget", "-columns"))]
        display = [str(column) for column in split(call(path, "cget", "-displaycolumns"))]
        self.display = self.columns if display in (["#all"], []) else display
        self.heading_texts = {column: str(call(path, "heading", column, "-text")) for column in self.display}
        self.tree_heading = str(call(path, "heading", "#0", "-text")) if "tree" in self.show else ""
        self.width = int(call("winfo", "width", path))
        #: Everything a row view depends on besides its item (with the row height: :meth:`scroll`).
        self.signature = (tuple(sorted(self.show)), tuple(self.display), tuple(self.columns),
                          tuple(sorted(self.heading_texts.items())), self.width, self.tree_heading)

    def scroll(self, displayed: List[Tuple[str, int, bool, bool]]) -> Tuple[int, int, int]:
        """``(top_y, row_height, offset)``: where the first row is drawn, the row height (``bbox`` of the top
        visible row; 20 before layout) and the content offset of the scrolled rows."""
        if not displayed:
            return 0, 20, 0
        split = self.app.splitlist
        try:
            top = int(round(float(split(self.app.call(self.path, "yview"))[0]) * len(displayed)))
        except (ValueError, IndexError):
            top = 0
        top = min(max(top, 0), len(displayed) - 1)
        box = split(self.app.call(self.path, "bbox", displayed[top][0]))
        if box:
            top_y, row_height = int(box[1]), max(1, int(box[3]))
        else:
            top_y, row_height = (20 if "headings" in self.show else 0), 20
        return top_y, row_height, top * row_height - top_y

    def headings(self, offset: int, top_y: int) -> List[Dict[str, Any]]:
        """The column headings as header labels (none when ``-show`` hides them)."""
        if "headings" not in self.show or not self.display:
            return []
        tree_column = 1 if "tree" in self.show else 0
        column_width = max(1, self.width // max(1, len(self.display) + tree_column))
        columns = (["#0"] if self.tree_heading else []) + self.display
        return [{"id": "%s@heading:%s" % (self.path, column), "class": "UILabel",
                 "text": self.tree_heading if column == "#0" else (self.heading_texts[column] or column),
                 "accessibilityTraits": ["header"],
                 "frame": [0 if column == "#0" else column_width * (self.display.index(column) + tree_column),
                           offset, column_width, max(1, top_y)],
                 "_target": ("heading", self.path, column)} for column in columns]

    def label(self, data: Dict[str, Any]) -> str:
        """A row's label: its text (when the tree column shows), then "Heading: value" per displayed column."""
        parts = [data["text"]] if "tree" in self.show or not self.display else []
        for column in self.display:
            index = self.columns.index(column) if column in self.columns else -1
            value = data["values"][index] if 0 <= index < len(data["values"]) else ""
            heading = self.heading_texts[column]
            parts.append("%s: %s" % (heading, value) if heading and value else value)
        return clip_text(", ".join(part for part in parts if part), 4096)

    def row(self, iid: str, data: Dict[str, Any], position: int, row_height: int,
            state: Tuple[int, bool, bool, bool, bool]) -> Dict[str, Any]:
        """One row view; ``position`` is its 1-based place among the displayed rows (0: hidden under a closed
        item); ``state`` is (level, has children, open, selected, focused)."""
        level, has_children, is_open, selected, focused = state
        row: Dict[str, Any] = {"id": "%s@%s" % (self.path, iid), "class": "UITableViewCell",
                               "accessibilityLabel": self.label(data),
                               "frame": [0, (position - 1) * row_height if position else 0, self.width, row_height]}
        if not position:
            row["isHidden"] = True
        if "tree" in self.show:
            row["indentationLevel"] = level
            if has_children:
                row["accessibilityExpandedStatus"] = "expanded" if is_open else "collapsed"
        if selected:
            row["isSelected"] = True
        if focused:
            row["isFocused"] = True
        return row


class Mirror(ToolkitMirror):
    """Mirrors one Tk root (and its Toplevels and posted menus) into AXServer as one app.

    ``Mirror(root, name=None, address=None, forward_keys=None)``: ``name`` defaults to the script or module name;
    ``address`` to ``$AXSERVER_SOCKET``, else the default socket; ``forward_keys`` (default: on unless
    ``$AXCLIENT_TK_FORWARD_KEYS`` is ``0``) sends each keystroke to the server before Tk sees it. The server need
    not be running: the mirror connects when it can and re-publishes after a restart. :meth:`close` stops it (the
    app keeps running). The publishing, the action queue and closing are the kit's (:class:`ToolkitMirror`).
    """

    toolkit = "Tk"
    log_source = "axclient.tk"
    target_errors = (TargetGone, tkinter.TclError, ValueError, KeyError)
    busy_error = TkBusy

    def __init__(self, root: tkinter.Misc, name: Optional[str] = None, address: Optional[str] = None,
                 retry_interval: float = 1.0, forward_keys: Optional[bool] = None) -> None:
        if forward_keys is None:
            forward_keys = os.environ.get("AXCLIENT_TK_FORWARD_KEYS", "1") not in ("0", "no", "false")
        super().__init__(name or default_app_name(), address, retry_interval, forward_keys)
        self.root = root
        real = root.tk
        if isinstance(real, _TkProxy):
            real = real._ax_app
        self.app = real
        self.reading = False
        self._started = time.monotonic()
        #: Each Text widget's first published line (1 unless its text is windowed).
        self._text_window: Dict[str, int] = {}
        self._virtual: Dict[str, Tuple[Any, ...]] = {}
        self._tree_caches: Dict[str, _TreeCache] = {}
        self._tagged: Set[str] = set()
        self._posted: List[str] = []
        self._flush_cache: Dict[str, Any] = {}
        #: The entry whose range a client's setSelectedTextRange set (published even while not focused).
        self._range_target = ""
        self._focus = ""
        self._grab = ""
        self._proxy = _TkProxy(real, self)
        self._install_proxy(root)
        self._flush_command = root.register(self.idle_flush)
        self._jobs_command = root.register(self.run_jobs)
        for sequence in ("<KeyRelease>", "<ButtonRelease>", "<FocusIn>", "<FocusOut>", "<Map>", "<Unmap>",
                         "<Configure>", "<<ListboxSelect>>", "<<TreeviewSelect>>", "<<TreeviewOpen>>",
                         "<<TreeviewClose>>", "<<NotebookTabChanged>>", "<<ComboboxSelected>>", "<<Increment>>",
                         "<<Decrement>>", "<MouseWheel>", "<Button-4>", "<Button-5>", "<B1-Motion>",
                         "<<Selection>>"):
            root.bind_class(TAG, sequence, self._on_event, add="+")
        root.bind_class(TAG, "<Destroy>", self._on_destroy, add="+")
        root.bind_class(TAG, "<KeyPress>", self._on_key_press, add="+")
        root.bind_class(TAG, "<KeyRelease>", self._on_key_release, add="+")
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        try:
            real.createfilehandler(self._wake_read, tkinter.READABLE, self._on_wake)
            self._polling = False
        except (AttributeError, tkinter.TclError, RuntimeError):
            self._polling = True
            root.after(20, self._poll)
        _patch_variables()
        _LIVE_MIRRORS.append(self)
        self.start()

    # -- dirtiness ------------------------------------------------------------------------------------------------

    def _install_proxy(self, widget: tkinter.Misc) -> None:
        widget.tk = self._proxy  # type: ignore[assignment]
        for child in widget.children.values():
            self._install_proxy(child)

    def note_call(self, args: Tuple[Any, ...]) -> None:
        """A Tcl call the app made: marks the tree dirty unless it only reads; notes Treeview item changes."""
        if len(args) == 1 and isinstance(args[0], tuple):
            args = args[0]
        if args and not self._only_reads(args):
            self.mark_dirty()

    def _only_reads(self, args: Tuple[Any, ...]) -> bool:
        first = str(args[0])
        if first in READ_COMMANDS:
            return True
        if len(args) > 1 and first.startswith("."):
            cache = self._tree_caches.get(first)
            return _widget_call_reads(args) if cache is None else _tree_call_reads(cache, args)
        return _global_query(first, args)

    def request_flush(self) -> bool:
        """A flush at Tk's next idle moment (``after idle``)."""
        try:
            self.app.call("after", "idle", self._flush_command)
        except (tkinter.TclError, RuntimeError):
            return False
        return True

    def _on_event(self, event: Any) -> None:
        widget = str(getattr(event, "widget", ""))
        cache = self._tree_caches.get(widget)
        if cache is not None:
            cache.structure_dirty = True
        self.mark_dirty()

    def _on_destroy(self, event: Any) -> None:
        widget = str(getattr(event, "widget", ""))
        self._tagged.discard(widget)
        self._tree_caches.pop(widget, None)
        if widget == str(self.root):
            self.close()
        else:
            self.mark_dirty()

    # -- wake-up and jobs -----------------------------------------------------------------------------------------

    def request_jobs(self) -> None:
        """Wakes the Tk thread (from any thread) through the pipe its event loop watches, to run queued actions."""
        try:
            os.write(self._wake_write, b"x")
        except (BlockingIOError, OSError, ValueError):
            pass

    wake = request_jobs

    def _on_wake(self, *_: Any) -> None:
        try:
            while os.read(self._wake_read, 4096):
                pass
        except (BlockingIOError, OSError):
            pass
        self._schedule_jobs()

    def _poll(self) -> None:
        if self.closed:
            return
        self._schedule_jobs()
        try:
            self.root.after(20, self._poll)
        except tkinter.TclError:
            pass

    def _schedule_jobs(self) -> None:
        try:
            self.app.call("after", 0, self._jobs_command)
        except (tkinter.TclError, RuntimeError):
            pass

    def alive(self) -> bool:
        try:
            return bool(int(self.app.call("winfo", "exists", str(self.root))))
        except (tkinter.TclError, ValueError):
            return False

    def wait_for_layout(self) -> bool:
        """Before the first snapshot, while nothing is mapped, Tk has not laid the windows out, so every frame
        would change a moment later (10,000 rows: a patch of 10,000 frames): wait for the first mapped window, at
        most one second."""
        if self.stats["snapshots"] or self._stack_order() or time.monotonic() - self._started >= 1.0:
            return False
        self.root.after(50, self.mark_dirty)
        return True

    # -- building -------------------------------------------------------------------------------------------------

    def build(self) -> Tuple[Dict[str, Dict[str, Any]], Dict[Optional[str], List[str]]]:
        """The current tree, flat: ``props[id]`` (without children) and ``children[parent id or None]``."""
        self.reading = True
        self._flush_cache = {}
        self._virtual = {}
        self.focused_view = None
        try:
            props: Dict[str, Dict[str, Any]] = {}
            children: Dict[Optional[str], List[str]] = {}
            self._focus, self._grab = self._read_focus_and_grab()
            ids = self._add_windows(props, children)
            for clone in self._posted_clones(list(ids)):
                if clone not in props:
                    self._add_clone_menu(clone, props, children)
                    ids.append(clone)
            self._group_radios(props, children)
            order = self._stack_order()
            ids.sort(key=lambda wid: (0 if wid == str(self.root) else 1, order.get(wid, -1)))
            children[None] = [wid for wid in ids if wid in props]
            self._mark_key_window(props, children[None])
            return props, children
        finally:
            self.reading = False
            self._range_target = ""

    def _read_focus_and_grab(self) -> Tuple[str, str]:
        """Tk's focus widget and the window holding the grab ("" for none, and for the grab of Tk's menu
        traversal on the menu bar: not a modal dialog)."""
        try:
            focus = str(self.app.call("focus"))
        except tkinter.TclError:
            focus = ""
        try:
            grabs = self.app.splitlist(self.app.call("grab", "current"))
            grab = str(grabs[-1]) if grabs else ""
            if grab and str(self.app.call("winfo", "class", grab)) == "Menu":
                grab = ""
        except tkinter.TclError:
            grab = ""
        return focus, grab

    def _add_windows(self, props: Dict[str, Dict[str, Any]], children: Dict[Optional[str], List[str]]) -> List[str]:
        """Walks the root, its Toplevels and posted menus into ``props``; answers the windows' ids."""
        ids: List[str] = []
        pending: List[tkinter.Misc] = [self.root]
        seen: Set[str] = set()
        while pending:
            top = pending.pop(0)
            if str(top) in seen:
                continue
            seen.add(str(top))
            if self._is_menu(top) and not self._mapped(top):
                self._collect_toplevels(top, pending)
                continue
            ids.append(str(top))
            self._add_window(top, props, children, pending)
        return ids

    def _group_radios(self, props: Dict[str, Dict[str, Any]], children: Dict[Optional[str], List[str]]) -> None:
        """Radio buttons sharing a variable in one master become the segments of a virtual ``UISegmentedControl``
        (``<master>@radio:<variable>``) around them, so the server maps each to an AT-SPI radio button, checked
        while selected, with its group and "n of m" (Specs/tk-adapter.md §Concepts UIKit lacks)."""
        groups = self._flush_cache.get("radio") or {}
        if not groups:
            return
        parent_of = {kid: parent for parent, kids in children.items() for kid in kids}
        for variable, members in groups.items():
            present = [m for m in members if m in props]
            parents = {parent_of.get(m) for m in present}
            if len(present) >= 2 and len(parents) == 1 and None not in parents:
                self._wrap_radios(str(parents.pop()), variable, present, props, children)

    @staticmethod
    def _wrap_radios(parent: str, variable: str, members: List[str], props: Dict[str, Dict[str, Any]],
                     children: Dict[Optional[str], List[str]]) -> None:
        frames = [props[m]["frame"] for m in members]
        left, top = min(f[0] for f in frames), min(f[1] for f in frames)
        right, bottom = max(f[0] + f[2] for f in frames), max(f[1] + f[3] for f in frames)
        group_id = "%s@radio:%s" % (parent, variable)
        siblings = children[parent]
        siblings.insert(siblings.index(members[0]), group_id)
        for member in members:
            siblings.remove(member)
            node = props[member] = dict(props[member])
            node["frame"] = [node["frame"][0] - left, node["frame"][1] - top, node["frame"][2], node["frame"][3]]
        props[group_id] = {"id": group_id, "class": "UISegmentedControl",
                           "frame": [left, top, right - left, bottom - top]}
        if all(props[m].get("isHidden") for m in members):
            props[group_id]["isHidden"] = True
        children[group_id] = members

    def _collect_toplevels(self, widget: tkinter.Misc, pending: List[tkinter.Misc]) -> None:
        for child in list(widget.children.values()):
            if self._is_toplevel(child):
                pending.append(child)
            else:
                self._collect_toplevels(child, pending)

    def _stack_order(self) -> Dict[str, int]:
        try:
            stack = self.app.splitlist(self.app.call("wm", "stackorder", str(self.root)))
        except tkinter.TclError:
            return {}
        return {str(path): index for index, path in enumerate(stack)}

    def _mark_key_window(self, props: Dict[str, Dict[str, Any]], window_ids: List[str]) -> None:
        """The key window: the one holding Tk's focus (the longest window path that prefixes the focus), else the
        front-most visible one."""
        focus = self._focus
        holders = [wid for wid in window_ids
                   if focus and (focus == wid or focus.startswith(wid + ".") or (wid == "." and focus[:1] == "."))]
        key = max(holders, key=len) if holders else None
        if key is None:
            for wid in reversed(window_ids):
                if not props[wid].get("isHidden"):
                    key = wid
                    break
        if key is not None:
            props[key]["isKeyWindow"] = True

    @staticmethod
    def _is_menu(widget: tkinter.Misc) -> bool:
        return isinstance(widget, tkinter.Menu)

    @staticmethod
    def _is_toplevel(widget: tkinter.Misc) -> bool:
        return isinstance(widget, (tkinter.Toplevel, tkinter.Tk, tkinter.Menu))

    def _mapped(self, widget: tkinter.Misc) -> bool:
        try:
            return bool(int(self.app.call("winfo", "ismapped", str(widget))))
        except tkinter.TclError:
            return False

    def _geometry(self, path: str) -> Tuple[int, int, int, int]:
        call = self.app.call
        return (int(call("winfo", "rootx", path)), int(call("winfo", "rooty", path)),
                max(0, int(call("winfo", "width", path))), max(0, int(call("winfo", "height", path))))

    def _posted_clones(self, window_ids: List[str]) -> List[str]:
        """Posted menus Tk made itself: a menubar's cascades are clones (``.#!menu.#!menu#!file``) that tkinter
        does not know; they are found through ``winfo children`` under each window's menubar clone."""
        call, split = self.app.call, self.app.splitlist
        found: List[str] = []
        stack = [str(child) for wid in window_ids if not wid.count("#")
                 for child in split(call("winfo", "children", wid)) if "#" in str(child)]
        while stack:
            path = stack.pop()
            try:
                if str(call("winfo", "class", path)) != "Menu":
                    continue
                self._tag_path(path)  # its <Map> and the keys Tk sends it while traversing reach the mirror
                if str(call(path, "cget", "-type")) != "menubar" and int(call("winfo", "ismapped", path)):
                    found.append(path)
                stack.extend(str(child) for child in split(call("winfo", "children", path)))
            except tkinter.TclError:
                continue
        return found

    def _add_clone_menu(self, path: str, props: Dict[str, Dict[str, Any]],
                        children: Dict[Optional[str], List[str]]) -> None:
        try:
            x, y, width, height = self._geometry(path)
            entries = self.menu_container(path)
        except tkinter.TclError:
            return
        node = {"id": path, "class": "UIWindow", "accessibilityContainerType": "list", "windowLevel": 1000.0,
                "frame": [x, y, width, height], "children": entries}
        title = self.menu_title(path)
        if title:
            node["accessibilityLabel"] = node["windowTitle"] = title
        self._add_virtual(node, None, props, children)  # type: ignore[arg-type]
        children[None].remove(path)

    def _add_window(self, top: tkinter.Misc, props: Dict[str, Dict[str, Any]],
                    children: Dict[Optional[str], List[str]], pending: List[tkinter.Misc]) -> None:
        path = str(top)
        try:
            x, y, width, height = self._geometry(path)
        except tkinter.TclError:
            return
        bar: Optional[Dict[str, Any]] = None
        bar_height = 0
        if not self._is_menu(top):
            bar, bar_height = self._menubar(top, width)
        origin = (x, y - bar_height)
        node = self._widget_props(top, [x, y - bar_height, width, height + bar_height], props, children, origin,
                                  pending)
        if node is None:
            return
        if bar is not None:
            self._add_virtual(bar, path, props, children, index=0)

    def _widget_props(self, widget: tkinter.Misc, frame: List[int], props: Dict[str, Dict[str, Any]],
                      children: Dict[Optional[str], List[str]], origin: Tuple[int, int],
                      pending: List[tkinter.Misc]) -> Optional[Dict[str, Any]]:
        """Adds ``widget`` (at ``frame`` in its parent) and its subtree to ``props``; Toplevels found on the way go
        to ``pending`` (they are windows of their own)."""
        path = str(widget)
        self._tag(widget)
        tk_class = self.tk_class(widget)
        node = self._adapt(widget, tk_class)
        virtual = node.pop("children", None) or []
        leaf = bool(node.pop("_leaf", False))
        self._clip_strings(path, node, tk_class)
        node.update(self._identity(path, frame))
        if not self._mapped(widget):
            node["isHidden"] = True
        self._note_focus(path, node, leaf)
        props[path] = node
        kids: List[str] = []
        children[path] = kids
        for child in virtual:
            self._add_virtual(child, path, props, children)
        if not leaf:  # a compound control (customtkinter) is a leaf: its parts are not views of their own
            kids.extend(self._add_children(widget, props, children, origin, pending))
        return node

    def _adapt(self, widget: tkinter.Misc, tk_class: str) -> Dict[str, Any]:
        """The widget's view from its adapter (a Toplevel or Menu without one is still a window); a failing
        adapter gives a generic view and one stderr line per class."""
        adapter = adapters.find_adapter(widget, tk_class)
        if adapter is adapters.generic and self._is_toplevel(widget):
            adapter = adapters.menu if self._is_menu(widget) else adapters.toplevel
        try:
            return adapter(self, widget)
        except Exception as error:  # noqa: BLE001 — a broken adapter or a TclError from an option
            self.warn_once("adapter:" + tk_class, "the %s adapter failed on %s (%s: %s); showing a generic view"
                           % (tk_class, widget, type(error).__name__, error))
            return adapters.generic(self, widget)

    def _note_focus(self, path: str, node: Dict[str, Any], leaf: bool) -> None:
        """Tk's focus on this widget (or inside this leaf control) is the view's focus, unless a part of it (a
        row, a tab) took it already."""
        if path == str(self.root) or (self.focused_view or "").startswith(path + "@"):
            return
        if path == self._focus or (leaf and self._focus.startswith(path + ".")):
            self.take_focus(node, path)

    def _add_children(self, widget: tkinter.Misc, props: Dict[str, Dict[str, Any]],
                      children: Dict[Optional[str], List[str]], origin: Tuple[int, int],
                      pending: List[tkinter.Misc]) -> List[str]:
        """Adds the widget's child widgets (framed relative to ``origin``, its screen position); answers their
        ids. Toplevels go to ``pending``; a child Tk cannot measure (destroyed meanwhile) is left out."""
        kids: List[str] = []
        for child in list(widget.children.values()):
            if self._is_toplevel(child):
                pending.append(child)
                continue
            try:
                x, y, width, height = self._geometry(str(child))
            except tkinter.TclError:
                continue
            if self._widget_props(child, [x - origin[0], y - origin[1], width, height], props, children, (x, y),
                                  pending) is not None:
                kids.append(str(child))
        return kids

    @staticmethod
    def _identity(path: str, frame: List[int]) -> Dict[str, Any]:
        identity: Dict[str, Any] = {"id": path, "frame": frame}
        identifier = app_identifier(path)
        if identifier:
            identity["accessibilityIdentifier"] = identifier
        return identity

    def _clip_strings(self, path: str, node: Dict[str, Any], tk_class: str) -> None:
        """Cuts a string property over the schema's limit (a Label of 70 KB) to :data:`TEXT_LIMIT_BYTES` with
        :data:`TRUNCATION_MARKER`, saying so once per widget on stderr: one widget degrades, the app stays
        visible (before, the server refused the whole snapshot)."""
        for key in CLIPPED_PROPERTIES:
            value = node.get(key)
            if not isinstance(value, str) or len(value) * 4 <= TEXT_LIMIT_BYTES:
                continue
            if key == "text" and tk_class == "Text":
                continue  # published whole up to the server's text limit, or windowed (§Big text)
            clipped = clip_text(value, TEXT_LIMIT_BYTES - len(TRUNCATION_MARKER.encode("utf-8")))
            if clipped == value:
                continue
            node[key] = clipped + TRUNCATION_MARKER
            self.warn_once("clip:%s:%s" % (path, key), "%s's %s has %d characters, over the server's %d-byte "
                           "string limit; published cut with a marker" % (path, key, len(value), TEXT_LIMIT_BYTES))

    def _add_virtual(self, node: Dict[str, Any], parent: str, props: Dict[str, Dict[str, Any]],
                     children: Dict[Optional[str], List[str]], index: Optional[int] = None) -> None:
        kids: List[Dict[str, Any]] = []
        target = None
        if "children" in node or "_target" in node:
            node = dict(node)
            kids = node.pop("children", None) or []
            target = node.pop("_target", None)
        view_id = node["id"]
        if view_id in props:
            return
        if target is not None:
            self._virtual[view_id] = target
        props[view_id] = node
        siblings = children.setdefault(parent, [])
        if index is None:
            siblings.append(view_id)
        else:
            siblings.insert(index, view_id)
        if kids:
            children[view_id] = []
            for kid in kids:
                self._add_virtual(kid, view_id, props, children)

    def _tag(self, widget: tkinter.Misc) -> None:
        self._tag_path(str(widget))

    def _tag_path(self, path: str) -> None:
        if path in self._tagged:
            return
        try:
            tags = self.app.splitlist(self.app.call("bindtags", path))
            if TAG not in tags:
                self.app.call("bindtags", path, (TAG,) + tuple(str(t) for t in tags))
            self._tagged.add(path)
        except tkinter.TclError:
            pass

    # -- helpers for adapters -------------------------------------------------------------------------------------

    def tk_class(self, widget: tkinter.Misc) -> str:
        """``winfo class``, or "" when the widget is gone."""
        try:
            return str(self.app.call("winfo", "class", str(widget)))
        except tkinter.TclError:
            return ""

    def label_text_at(self, path: str) -> Optional[str]:
        """The text of the Label at ``path`` (classic, ttk, or a library label such as CTkLabel), or None."""
        try:
            if str(self.app.call("winfo", "class", path)) not in adapters.LABEL_CLASSES:
                try:
                    widget = self.root.nametowidget(path)
                except KeyError:
                    return None
                if type(widget).__name__ not in adapters.LABEL_CLASS_NAMES:
                    return None
                return str(widget.cget("text"))
            return str(self.app.call(path, "cget", "-text"))
        except tkinter.TclError:
            return None

    def grid_labels(self, master: tkinter.Misc) -> Dict[Tuple[int, int], str]:
        """Labels gridded in ``master`` by (row, column) (cached for one flush)."""
        key = "grid:" + str(master)
        cached = self._flush_cache.get(key)
        if cached is not None:
            return cached
        cells: Dict[Tuple[int, int], str] = {}
        try:
            slaves = self.app.splitlist(self.app.call("grid", "slaves", str(master)))
        except tkinter.TclError:
            slaves = ()
        for slave in slaves:
            text = self.label_text_at(str(slave))
            if text is None:
                continue
            try:
                info = self.app.splitlist(self.app.call("grid", "info", str(slave)))
                pairs = dict(zip(info[::2], info[1::2]))
                cells[(int(pairs.get("-row", -9)), int(pairs.get("-column", -9)))] = text
            except (tkinter.TclError, ValueError):
                continue
        self._flush_cache[key] = cells
        return cells

    def place_labels(self, master: tkinter.Misc) -> List[Tuple[List[int], str]]:
        """The Labels placed in ``master`` with their frames in it (cached for one flush): the candidates of the
        geometric label rule under ``place``."""
        key = "place:" + str(master)
        cached = self._flush_cache.get(key)
        if cached is None:
            cached = []
            for child in list(master.children.values()):
                text = self.label_text_at(str(child))
                if text is not None and self._manager(str(child)) == "place":
                    cached.append((self.geometry_in(child), text))
            self._flush_cache[key] = cached
        return cached

    def _manager(self, path: str) -> str:
        try:
            return str(self.app.call("winfo", "manager", path))
        except tkinter.TclError:
            return ""

    def geometry_in(self, widget: tkinter.Misc) -> List[int]:
        """``[x, y, width, height]`` of a widget in its master (Tk's ``winfo x/y/width/height``)."""
        call, path = self.app.call, str(widget)
        try:
            return [int(call("winfo", what, path)) for what in ("x", "y", "width", "height")]
        except (tkinter.TclError, ValueError):
            return [0, 0, 0, 0]

    def pack_order(self, master: tkinter.Misc) -> List[str]:
        """The widgets packed in ``master``, in packing order (cached for one flush)."""
        key = "pack:" + str(master)
        cached = self._flush_cache.get(key)
        if cached is None:
            try:
                cached = [str(s) for s in self.app.splitlist(self.app.call("pack", "slaves", str(master)))]
            except tkinter.TclError:
                cached = []
            self._flush_cache[key] = cached
        return cached

    def pack_side(self, path: str) -> str:
        """The ``-side`` a widget is packed from (``top`` when unknown), cached for one flush."""
        key = "side:" + path
        side = self._flush_cache.get(key)
        if side is None:
            try:
                info = self.app.splitlist(self.app.call("pack", "info", path))
                side = str(dict(zip(info[::2], info[1::2])).get("-side", "top"))
            except tkinter.TclError:
                side = "top"
            self._flush_cache[key] = side
        return side

    def radio_group(self, variable: str) -> List[str]:
        """The radio buttons (classic and ttk) sharing the Tcl variable ``variable``, in tree order."""
        groups = self._flush_cache.get("radio")
        if groups is None:
            groups = {}
            stack: List[tkinter.Misc] = [self.root]
            while stack:
                widget = stack.pop()
                if isinstance(widget, (tkinter.Radiobutton, ttk.Radiobutton)):
                    name = str(adapters.option(widget, "variable", "") or "")
                    if name:
                        groups.setdefault(name, []).append(str(widget))
                stack.extend(reversed(list(widget.children.values())))
            self._flush_cache["radio"] = groups
        return groups.get(variable, [])

    def masked_variables(self) -> Set[str]:
        """The Tcl variables (``-textvariable``) of the entries that mask their text (``-show``), cached for one
        flush: an entry sharing one of them shows the same secret, so it is masked too (Specs/tk-adapter.md
        §Masked text)."""
        masked = self._flush_cache.get("masked")
        if masked is None:
            masked = set()
            stack: List[tkinter.Misc] = [self.root]
            while stack:
                widget = stack.pop()
                if isinstance(widget, (tkinter.Entry, ttk.Entry)) and adapters.option(widget, "show", ""):
                    name = str(adapters.option(widget, "textvariable", "") or "")
                    if name:
                        masked.add(name)
                stack.extend(widget.children.values())
            self._flush_cache["masked"] = masked
        return masked

    def layout_parent(self, path: str) -> str:
        """The window ``path`` is laid out in: its geometry manager's ``-in`` (pack, grid, place), else its Tk
        parent."""
        try:
            manager = str(self.app.call("winfo", "manager", path))
            if manager in ("pack", "grid", "place"):
                info = self.app.splitlist(self.app.call(manager, "info", path))
                inside = dict(zip(info[::2], info[1::2])).get("-in")
                if inside:
                    return str(inside)
        except tkinter.TclError:
            pass
        return path.rsplit(".", 1)[0] or "."

    def notebook_panes(self) -> Dict[str, str]:
        """Every ttk.Notebook page (the window a notebook manages) → its tab text, cached for one flush."""
        panes = self._flush_cache.get("panes")
        if panes is None:
            panes = {}
            stack: List[tkinter.Misc] = [self.root]
            while stack:
                widget = stack.pop()
                if isinstance(widget, ttk.Notebook):
                    try:
                        for tab in self.app.splitlist(self.app.call(str(widget), "tabs")):
                            panes[str(tab)] = str(self.app.call(str(widget), "tab", tab, "-text")).strip()
                    except tkinter.TclError:
                        pass
                stack.extend(widget.children.values())
            self._flush_cache["panes"] = panes
        return panes

    def grab_window(self) -> str:
        """The path of the window holding Tk's grab, "" when none."""
        try:
            return str(self.app.call("grab", "current") or "")
        except tkinter.TclError:
            return ""

    def holds_grab(self, top: tkinter.Misc) -> bool:
        """True when ``top`` or a widget inside it holds the grab (a modal dialog)."""
        path = str(top)
        grab = self._grab
        if not grab:
            return False
        if path == ".":
            return grab == "." or False
        return grab == path or grab.startswith(path + ".")

    def text_content(self, widget: tkinter.Misc) -> str:
        """A Text widget's content, whole when it fits :data:`TEXT_LIMIT_BYTES`, else the window of lines from a
        little above the first visible line (Specs/tk-adapter.md §Big text)."""
        path = str(widget)
        text = str(self.app.call(path, "get", "1.0", "end-1c"))
        limit = self.text_limit
        self._text_window[path] = 1
        if len(text) * 4 <= limit or len(text.encode("utf-8", "surrogatepass")) <= limit:
            return text
        first = int(str(self.app.call(path, "index", "@0,0")).split(".")[0])
        insert = int(str(self.app.call(path, "index", "insert")).split(".")[0])
        start = max(1, min(first, insert) - 50)
        self._text_window[path] = start
        return clip_text(str(self.app.call(path, "get", "%d.0" % start, "end-1c")), limit)

    def supports(self, property_name: str) -> bool:
        """Whether the server took ``property_name`` so far (a property it refused as unknown is left out)."""
        return property_name not in self.unsupported

    def text_selection(self, widget: tkinter.Misc, length: int) -> Optional[List[int]]:
        """A Text widget's selection, else its caret (insert mark, length 0), as character offsets into the
        published ``text`` (whose first line is the window's); None when the caret is outside it."""
        path, call = str(widget), self.app.call
        base = "%d.0" % self._text_window.get(path, 1)
        ranges = self.app.splitlist(call(path, "tag", "ranges", "sel"))
        first, last = (str(ranges[0]), str(ranges[-1])) if ranges else ("insert", "insert")
        if int(call(path, "compare", first, "<", base)):
            return None
        location = textlayout.characters_between(call, path, base, first)  # not `count -chars`: UTF-16 in Tk 8.6
        size = textlayout.characters_between(call, path, first, last) if ranges else 0
        if location + size > length:
            return None
        return [location, size]

    def text_layout(self, widget: tkinter.Misc, props: Dict[str, Any]) -> None:
        """Adds a Text widget's visible line boxes (``accessibilityReadingContent``) and its styled tags' runs
        (``attributedText``) to ``props`` when the server knows them (Specs/tk-adapter.md §Line boxes and attribute
        runs); the diff sends them only when they changed."""
        path, call = str(widget), self.app.call
        try:
            if self.supports("accessibilityReadingContent"):
                lines = textlayout.reading_lines(call, path)
                if lines:
                    props["accessibilityReadingContent"] = {"lines": lines}
            if self.supports("attributedText"):
                fonts = self._flush_cache.setdefault("fonts", {})
                base = "%d.0" % self._text_window.get(path, 1)
                runs = textlayout.attribute_runs(call, self.app.splitlist, path, base, len(props["text"]), fonts)
                if runs:
                    props["attributedText"] = runs
        except (tkinter.TclError, ValueError) as error:  # a peer widget or odd index: the text stays, unstyled
            self.warn_once("textlayout:" + path, "could not read the lines or styles of %s (%s)" % (path, error))

    def entry_selection(self, widget: tkinter.Misc, length: int) -> List[int]:
        """An Entry's selection, else its caret, as character offsets (clamped to the published text). While the
        entry does not have Tk's focus its published range stays as it was: Tk's Tab traversal selects the text
        of the entry it enters before Tk reports the focus there, and a screen reader would hear "Ada selected"
        before the field (Orca: "80 selected", never the name); the range goes out with the focus, after it
        (:func:`focus_first`). A range a client set (``setSelectedTextRange``) is published at once."""
        path, call = str(widget), self.app.call
        if self._focus != path and path != self._range_target:
            published = self._published.get(path, {}).get("selectedTextRange")
            if isinstance(published, list) and len(published) == 2 and sum(published) <= length:
                return list(published)
        text = str(call(path, "get"))  # Tk 8.6 Entry indices count UTF-16 units: converted to characters
        try:
            if int(call(path, "selection", "present")):
                first = textlayout.from_utf16(text, int(call(path, "index", "sel.first")))
                last = textlayout.from_utf16(text, int(call(path, "index", "sel.last")))
                first, last = min(first, length), min(last, length)
                return [first, max(0, last - first)]
        except tkinter.TclError:
            pass
        return [min(textlayout.from_utf16(text, int(call(path, "index", "insert"))), length), 0]

    def listbox_rows(self, widget: tkinter.Misc, props: Dict[str, Any]) -> List[Dict[str, Any]]:
        """Listbox rows as cells in content coordinates; sets the table's ``contentOffset``."""
        path = str(widget)
        call = self.app.call
        items = self.app.splitlist(call(path, "get", 0, "end"))
        selected = {int(i) for i in self.app.splitlist(call(path, "curselection"))}
        width = int(call("winfo", "width", path))
        top = int(call(path, "nearest", 0)) if items else 0
        row_height, top_y = 16, 0
        if items:
            box = self.app.splitlist(call(path, "bbox", top))
            if box:
                top_y = int(box[1])
                row_height = max(1, int(box[3]))
                if top + 1 < len(items):
                    nxt = self.app.splitlist(call(path, "bbox", top + 1))
                    if nxt:
                        row_height = max(1, int(nxt[1]) - top_y)
        props["contentOffset"] = [0, top * row_height - top_y]
        rows = []
        for index, item in enumerate(items):
            row: Dict[str, Any] = {"id": "%s@row%d" % (path, index), "class": "UITableViewCell",
                                   "frame": [0, index * row_height, width, row_height],
                                   "accessibilityLabel": clip_text(str(item), 4096),
                                   "_target": ("listrow", path, index)}
            if index in selected:
                row["isSelected"] = True
            rows.append(row)
        if rows and self._focus == path:  # Tk's focus on the list is on its active row (the location cursor)
            try:
                active = min(max(int(call(path, "index", "active")), 0), len(rows) - 1)
            except (tkinter.TclError, ValueError):
                active = 0
            self.take_focus(rows[active])
        return rows

    def tree_rows(self, widget: tkinter.Misc, props: Dict[str, Any]) -> List[Dict[str, Any]]:
        """Treeview headings and rows (read incrementally: only dirty items are re-read; unchanged rows are the
        same view objects as before, and a Treeview where nothing changed is not rebuilt at all)."""
        path = str(widget)
        cache = self._tree_caches.get(path)
        if cache is None:
            cache = self._tree_caches[path] = _TreeCache()
        layout = _TreeLayout(self.app, path)
        unchanged = not cache.structure_dirty and not cache.dirty_items
        if cache.structure_dirty:
            self._read_tree_order(path, cache)
        for iid, _, _, _ in cache.order:
            if iid not in cache.items or iid in cache.dirty_items:
                cache.items[iid] = {"text": str(self.app.call(path, "item", iid, "-text")),
                                    "values": [str(v) for v in self.app.splitlist(
                                        self.app.call(path, "item", iid, "-values"))]}
        cache.dirty_items.clear()
        displayed = [entry for entry in cache.order if entry[2]]
        top_y, row_height, offset = layout.scroll(displayed)
        props["contentOffset"] = [0, offset]
        focus_row = self._tree_focus_row(path, displayed)
        inputs = (layout.signature + (row_height,), offset, top_y, focus_row)
        if not unchanged or cache.last is None or cache.last[0] != inputs:
            virtual: Dict[str, Tuple[Any, ...]] = {}
            nodes = layout.headings(offset, top_y) + self._tree_row_views(cache, layout, inputs[0], row_height,
                                                                            focus_row, virtual)
            cache.last = (inputs, nodes, virtual)
        self._virtual.update(cache.last[2])
        if focus_row:
            self.focused_view = "%s@%s" % (path, focus_row)
        return cache.last[1]

    def _read_tree_order(self, path: str, cache: _TreeCache) -> None:
        """Re-reads a Treeview's display order, open items and selection (after a structure change)."""
        call, split = self.app.call, self.app.splitlist
        order: List[Tuple[str, int, bool, bool]] = []
        opened: Set[str] = set()

        def walk(parent: str, level: int, visible: bool) -> None:
            for iid in (str(item) for item in split(call(path, "children", parent))):
                kids = split(call(path, "children", iid))
                is_open = bool(kids) and bool(self.app.getboolean(call(path, "item", iid, "-open")))
                order.append((iid, level, visible, bool(kids)))
                if is_open:
                    opened.add(iid)
                if kids:
                    walk(iid, level + 1, visible and is_open)
        walk("", 0, True)
        cache.order, cache.open, cache.structure_dirty = order, opened, False
        cache.selection = {str(item) for item in split(call(path, "selection"))}
        live = {entry[0] for entry in order}
        for stale in set(cache.items) - live:
            del cache.items[stale]

    @staticmethod
    def _tree_row_views(cache: _TreeCache, layout: "_TreeLayout", signature: Tuple[Any, ...], row_height: int,
                        focus_row: str, virtual: Dict[str, Tuple[Any, ...]]) -> List[Dict[str, Any]]:
        """One ``UITableViewCell`` per item in display order; a row whose inputs did not change is the same object
        as before (so the diff skips it by identity)."""
        nodes: List[Dict[str, Any]] = []
        reused: Dict[str, Tuple[Any, Dict[str, Any]]] = {}
        position = 0
        for iid, level, visible, has_children in cache.order:
            data = cache.items[iid]
            virtual["%s@%s" % (layout.path, iid)] = ("treerow", layout.path, iid)
            position += 1 if visible else 0
            state = (level, has_children, iid in cache.open, iid in cache.selection, iid == focus_row)
            key = (signature, data["text"], tuple(data["values"]), visible, position if visible else -1) + state
            previous = cache.rows.get(iid)
            if previous is None or previous[0] != key:
                previous = (key, layout.row(iid, data, position if visible else 0, row_height, state))
            nodes.append(previous[1])
            reused[iid] = previous
        cache.rows = reused
        return nodes

    def _tree_focus_row(self, path: str, displayed: List[Tuple[str, int, bool, bool]]) -> str:
        """While Tk's focus is on the Treeview: its focus item (where the keyboard acts), else its first displayed
        row (where Down starts) — never a heading; "" otherwise or when it shows no row."""
        if self._focus != path or not displayed:
            return ""
        try:
            item = str(self.app.call(path, "focus"))
        except tkinter.TclError:
            item = ""
        shown = {entry[0] for entry in displayed}
        return item if item in shown else displayed[0][0]

    def notebook_tabs(self, widget: tkinter.Misc) -> List[Dict[str, Any]]:
        """A tab bar with one tab button per page (``isSelected`` on the current one)."""
        path = str(widget)
        call, split = self.app.call, self.app.splitlist
        tabs = [str(t) for t in split(call(path, "tabs"))]
        selected = str(call(path, "select"))
        width = int(call("winfo", "width", path))
        tab_height = 24
        if selected:
            try:
                tab_height = max(1, int(call("winfo", "rooty", selected)) - int(call("winfo", "rooty", path)) - 2)
            except tkinter.TclError:
                pass
        font = tkinter.font.nametofont("TkDefaultFont", root=self.root)
        buttons = []
        x = 2
        for index, tab in enumerate(tabs):
            text = str(call(path, "tab", tab, "-text")).strip()  # IDLE pads its tab texts: " Fonts "
            tab_width = font.measure(text) + 16
            button: Dict[str, Any] = {"id": "%s@tab%d" % (path, index), "class": "UITabBarButton",
                                      "title": text, "frame": [x, 0, tab_width, tab_height],
                                      "_target": ("tab", path, tab)}
            x += tab_width
            if tab == selected:
                button["isSelected"] = True
                if self._focus == path:  # Tk's focus on the notebook is on its selected tab (no widget of its own)
                    self.take_focus(button)
            if str(call(path, "tab", tab, "-state")) == "disabled":
                button["isEnabled"] = False
            buttons.append(button)
        return [{"id": "%s@tabs" % path, "class": "UITabBar", "frame": [0, 0, width, tab_height],
                 "children": buttons}]

    def canvas_texts(self, widget: tkinter.Misc) -> List[Dict[str, Any]]:
        """A Canvas's text items as labels (at most 2,000)."""
        path = str(widget)
        call, split = self.app.call, self.app.splitlist
        dx = float(call(path, "canvasx", 0))
        dy = float(call(path, "canvasy", 0))
        nodes: List[Dict[str, Any]] = []
        if type(widget).__name__ in SHAPE_CANVAS_CLASSES:
            return nodes  # a library's drawing surface: its text items are shapes drawn with a glyph font
        for item in split(call(path, "find", "all"))[:20000]:
            if str(call(path, "type", item)) != "text":
                continue
            box = split(call(path, "bbox", item))
            if not box:
                continue
            x0, y0, x1, y1 = (float(v) for v in box)
            node: Dict[str, Any] = {"id": "%s@item%s" % (path, item), "class": "UILabel",
                                    "text": clip_text(str(call(path, "itemcget", item, "-text")), 4096),
                                    "frame": [int(x0 - dx), int(y0 - dy), int(x1 - x0), int(y1 - y0)]}
            if str(call(path, "itemcget", item, "-state")) == "hidden":
                node["isHidden"] = True
            nodes.append(node)
            if len(nodes) >= 2000:
                break
        return nodes

    def menu_entries(self, menu: tkinter.Misc) -> List[Dict[str, Any]]:
        """A posted menu's content (Specs/tk-adapter.md §Mapping): its entries in a menu container."""
        return self.menu_container(str(menu))

    def menu_container(self, path: str) -> List[Dict[str, Any]]:
        """The menu at ``path`` as its window's one child: a view of container type ``menu`` (D-MENU-1) holding
        the entries, so they reach AT-SPI as menu items in a menu, inside the window, as GTK's popup menus do."""
        entries = self.menu_entries_path(path)
        width = int(self.app.call("winfo", "width", path))
        height = int(self.app.call("winfo", "height", path))
        view: Dict[str, Any] = {"id": "%s@menu" % path, "class": "UIView", "accessibilityContainerType": "menu",
                                "frame": [0, 0, max(1, width), max(1, height)], "children": entries}
        title = self.menu_title(path)
        if title:
            view["accessibilityLabel"] = title
        return [view]

    def menu_title(self, path: str) -> str:
        """The label of the cascade entry that opens the menu at ``path`` (in its parent menu), or ""."""
        call = self.app.call
        try:
            parent = str(call("winfo", "parent", path))
            if str(call("winfo", "class", parent)) != "Menu":
                return ""
            last = str(call(parent, "index", "end"))
            if last == "none":
                return ""
            for index in range(int(last) + 1):
                if str(call(parent, "type", index)) == "cascade" and \
                        str(call(parent, "entrycget", index, "-menu")) == path:
                    return str(call(parent, "entrycget", index, "-label"))
        except (tkinter.TclError, ValueError):
            return ""
        return ""

    def menu_entries_path(self, path: str) -> List[Dict[str, Any]]:
        """The entries of the menu at ``path`` (a tkinter Menu or a Tk clone); the active entry is focused."""
        call = self.app.call
        last = str(call(path, "index", "end"))
        if last == "none":
            return []
        width = int(call("winfo", "width", path))
        height = int(call("winfo", "height", path))
        count = int(last) + 1
        tops = [int(call(path, "yposition", i)) for i in range(count)]
        active = str(call(path, "index", "active"))
        nodes = []
        for index in range(count):
            kind = str(call(path, "type", index))
            if kind in ("tearoff", "separator"):
                continue
            bottom = tops[index + 1] if index + 1 < count else height
            node = self._entry_node(path, index, kind, "%s@entry%d" % (path, index),
                                    [0, tops[index], width, max(1, bottom - tops[index])])
            if active == str(index) and str(self.app.call("focus")) == path:
                self.take_focus(node)  # Tk's active entry is where the keyboard is in a menu it traverses
            nodes.append(node)
        return nodes

    def _entry_node(self, path: str, index: int, kind: str, view_id: str, frame: List[int]) -> Dict[str, Any]:
        call = self.app.call
        text = str(call(path, "entrycget", index, "-label"))
        node: Dict[str, Any] = {"id": view_id, "frame": frame, "_target": ("entry", path, index)}
        if kind == "checkbutton":
            variable = str(call(path, "entrycget", index, "-variable"))
            try:
                on = str(self.app.globalgetvar(variable)) == str(call(path, "entrycget", index, "-onvalue"))
            except tkinter.TclError:
                on = False
            node.update({"class": "UISwitch", "isOn": on, "accessibilityLabel": text})
        elif kind == "radiobutton":
            variable = str(call(path, "entrycget", index, "-variable"))
            try:
                selected = str(self.app.globalgetvar(variable)) == str(call(path, "entrycget", index, "-value"))
            except tkinter.TclError:
                selected = False
            node.update({"class": "UIButton", "title": text, "isSelected": selected})
        else:
            node.update({"class": "UIButton", "title": text})
        if kind == "cascade":
            submenu = str(call(path, "entrycget", index, "-menu"))
            posted = bool(submenu) and self._mapped_path(submenu)
            node["accessibilityExpandedStatus"] = "expanded" if posted else "collapsed"
            node["accessibilityHint"] = "submenu"
        else:
            accelerator = str(call(path, "entrycget", index, "-accelerator"))
            if accelerator:
                node["accessibilityHint"] = accelerator
        if str(call(path, "entrycget", index, "-state")) == "disabled":
            node["isEnabled"] = False
        return node

    def _mapped_path(self, path: str) -> bool:
        try:
            return bool(int(self.app.call("winfo", "ismapped", path)))
        except tkinter.TclError:
            return False

    def _menubar(self, top: tkinter.Misc, width: int) -> Tuple[Optional[Dict[str, Any]], int]:
        """The toplevel's menubar (its ``-menu``) as a toolbar of entries of container type ``menuBar``
        (D-MENU-1), and the menubar's height."""
        path = str(top)
        try:
            menu = str(self.app.call(path, "cget", "-menu"))
        except tkinter.TclError:
            return None, 0
        if not menu:
            return None, 0
        height, positions = self._menubar_geometry(path, menu)
        entries = self._menubar_entries(path, menu, max(1, height or 24), positions)
        bar = {"id": "%s@menubar" % path, "class": "UIToolbar", "accessibilityContainerType": "menuBar",
               "frame": [0, 0, width, max(1, height or 24)], "accessibilityLabel": "Menu bar", "children": entries}
        return bar, height

    def _menubar_geometry(self, path: str, menu: str) -> Tuple[int, Dict[int, int]]:
        """The height of the menubar Tk draws (its clone of ``menu`` under the toplevel) and each entry's x; 0 and
        none when Tk has not made the clone."""
        call = self.app.call
        expected = ("" if path == "." else path) + "." + menu.replace(".", "#")
        clones = [str(child) for child in self.app.splitlist(call("winfo", "children", path))
                  if str(child).startswith(expected)]
        height, positions = 0, {}  # type: Tuple[int, Dict[int, int]]
        if not clones:
            return height, positions
        try:
            height = int(call("winfo", "height", clones[0]))
            last = str(call(clones[0], "index", "end"))
            for index in range(int(last) + 1 if last != "none" else 0):
                positions[index] = int(call(clones[0], "xposition", index))
        except tkinter.TclError:
            pass
        return height, positions

    def _menubar_entries(self, path: str, menu: str, height: int, positions: Dict[int, int]) -> List[Dict[str, Any]]:
        """The menubar's entries (no tear-offs or separators), placed where Tk draws them (else measured)."""
        call = self.app.call
        last = str(call(menu, "index", "end"))
        indexes = list(range(int(last) + 1)) if last != "none" else []
        font = tkinter.font.nametofont("TkMenuFont", root=self.root)
        entries, x = [], 0
        for index in indexes:
            kind = str(call(menu, "type", index))
            if kind in ("tearoff", "separator"):
                continue
            start = positions.get(index, x)
            following = [positions[i] for i in indexes if i > index and i in positions]
            entry_width = following[0] - start if following else font.measure(
                str(call(menu, "entrycget", index, "-label"))) + 20
            x = start + entry_width
            node = self._entry_node(menu, index, kind, "%s@menubar%d" % (path, index),
                                    [start, 0, max(1, entry_width), height])
            node["_target"] = ("bar", path, menu, index)
            entries.append(node)
        return entries

    # -- actions --------------------------------------------------------------------------------------------------

    def widget(self, view_id: str) -> tkinter.Misc:
        """The live widget for a view id, or :class:`TargetGone`."""
        try:
            widget = self.root.nametowidget(view_id)
        except (KeyError, tkinter.TclError):
            raise TargetGone("no Tk widget %r (destroyed?)" % view_id) from None
        if not int(self.app.call("winfo", "exists", view_id)):
            raise TargetGone("the Tk widget %r was destroyed" % view_id)
        return widget

    def perform(self, request: ActionRequest) -> bool:
        """Performs one action in Tk, as Tk does it (Specs/tk-adapter.md §Actions). Tk thread only."""
        action, target = request.action, request.target
        if self._link.debug:  # the value's length only: typed text may be a password
            warn("action %s on %r (value: %d characters)" % (action, target, len(str(request.value or ""))))
        if target == "":
            return self._perform_on_app(action, request)
        virtual = self._virtual.get(target)
        if virtual is not None:
            return self._perform_virtual(action, virtual, request)
        if "@" in target:
            raise TargetGone("the element %r is gone" % target)
        widget = self.widget(target)
        handler = adapters.find_actions(widget)
        handled = handler(self, widget, request) if handler is not None else None
        if handled is not None:
            return bool(handled)
        method = WIDGET_ACTIONS.get(action)
        return bool(method(self, widget, request)) if method is not None else False

    def _perform_on_app(self, action: str, request: ActionRequest) -> bool:
        """An action addressed to the app (target ``""``): escape (the front-most dialog's cancel) or a key."""
        if action == "escape":
            return self._escape(None)
        return self._key(request.value) if action == "key" else False

    def _custom(self, widget: tkinter.Misc, request: ActionRequest) -> bool:
        """``custom:<choice>`` of a read-only combo box picks that choice."""
        return isinstance(widget, ttk.Combobox) and self._set_value(widget, request.custom_action)

    def _select_range(self, widget: tkinter.Misc, value: Any) -> bool:
        """``setSelectedTextRange`` (D-TEXT-APP-2: a screen reader moves the caret or selects): the ``sel`` tag and
        the insert mark at its end, as a user's Shift+arrows leave them; an Entry's selection and cursor."""
        if isinstance(value, dict):
            value = [value.get("location", 0), value.get("length", 0)]
        if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(isinstance(v, int) for v in value):
            raise ValueError("setSelectedTextRange needs [location, length], got %r" % (value,))
        location, length = max(0, value[0]), max(0, value[1])
        path, call = str(widget), self.app.call
        self._range_target = path
        if self.tk_class(widget) == "Text":
            first = "%d.0 + %d chars" % (self._text_window.get(path, 1), location)
            last = "%s + %d chars" % (first, length)
            call(path, "tag", "remove", "sel", "1.0", "end")
            if length:
                call(path, "tag", "add", "sel", first, last)
            call(path, "mark", "set", "insert", last)
            call(path, "see", "insert")
            return True
        if self.tk_class(widget) in ("Entry", "TEntry", "TCombobox", "Spinbox", "TSpinbox"):
            text = str(call(path, "get"))  # Entry indices count UTF-16 units in Tk 8.6
            first, last = textlayout.to_utf16(text, location), textlayout.to_utf16(text, location + length)
            call(path, "selection", "clear")
            if length:
                call(path, "selection", "range", first, last)
            call(path, "icursor", last)
            return True
        return False

    def _activate(self, widget: tkinter.Misc) -> bool:
        if isinstance(widget, (tkinter.Button, tkinter.Checkbutton, tkinter.Radiobutton, ttk.Button,
                               ttk.Checkbutton, ttk.Radiobutton)):
            if adapters.is_disabled(widget):
                return False
            if isinstance(widget, ttk.Widget):
                # As a click does (ttk's <ButtonPress-1>: ttk::clickToFocus). Besides being what the user would
                # see, it clears a focus Tk still owes an unmapped window: Thonny's Options dialog focuses a widget
                # on an unselected notebook page; its Cancel destroys it, and the next `focus -force` crashed in
                # TkSetFocusWin on that dead window (SIGSEGV, 3 of 3) when Cancel was invoked without the click.
                self.app.call("ttk::clickToFocus", str(widget))
            widget.invoke()  # type: ignore[attr-defined]
            return True
        if isinstance(widget, (tkinter.Tk, tkinter.Toplevel)):
            widget.lift()  # type: ignore[attr-defined]
            widget.focus_set()
            return True
        if adapters.is_disabled(widget):
            return False
        if isinstance(widget, (tkinter.Menubutton, ttk.Menubutton)):
            return self._post_menubutton(widget)
        if isinstance(widget, (tkinter.Entry, tkinter.Text, tkinter.Listbox, tkinter.Scale, tkinter.Spinbox,
                               ttk.Entry, ttk.Treeview, ttk.Scale, ttk.Notebook)):
            self._focus_widget(widget)
            return True
        return False

    def _post_menubutton(self, widget: tkinter.Misc) -> bool:
        """A Menubutton (an option menu) posts its menu below itself, as a click does; escape unposts it."""
        menu = str(adapters.option(widget, "menu", "") or "")
        if not menu:
            return False
        x, y, _, height = self._geometry(str(widget))
        self.app.call(menu, "post", x, y + height)
        if menu not in self._posted:
            self._posted.append(menu)
        return True

    def _focus_widget(self, widget: tkinter.Misc) -> None:
        if str(self.app.call("focus")) == str(widget):
            return
        widget.focus_set()
        if str(self.app.call("focus")) != str(widget):
            widget.focus_force()
        # Let the widget's <FocusIn> bindings run before anything is typed (customtkinter clears its placeholder
        # there). Jobs queued meanwhile wait for this one (run_jobs is not re-entered).
        self.app.call("update")

    def _adjust(self, widget: tkinter.Misc, sign: int) -> bool:
        """increment (``sign`` 1) / decrement (-1) as the widget's own keys do (Specs/tk-adapter.md §Mapping)."""
        if adapters.is_disabled(widget):
            return False
        for klass, adjust in ADJUSTERS:  # ttk.Scale before tkinter.Scale: in tkinter it is a subclass of it
            if isinstance(widget, klass):
                return adjust(self, widget, sign)
        return False

    def _adjust_ttk_scale(self, widget: Any, sign: int) -> bool:
        """One twentieth of the range, then the scale's ``-command`` (ttk does not call it on ``set``)."""
        low, high = float(widget.cget("from")), float(widget.cget("to"))
        step = abs(high - low) / 20.0 or 1.0
        value = min(max(float(widget.get()) + sign * step, min(low, high)), max(low, high))
        widget.set(value)
        command = str(widget.cget("command") or "")
        if command:
            self.app.call(command, value)
        return True

    @staticmethod
    def _adjust_scale(widget: Any, sign: int) -> bool:
        """One ``-resolution`` towards ``-to``."""
        step = adapters.number(widget.cget("resolution")) or 1.0
        direction = 1 if float(widget.cget("to")) >= float(widget.cget("from")) else -1
        widget.set(float(widget.get()) + sign * direction * step)
        return True

    @staticmethod
    def _adjust_spinbox(widget: Any, sign: int) -> bool:
        """A classic Spinbox's arrow button (``invoke buttonup``); ttk's ``<<Increment>>``/``<<Decrement>>``."""
        if isinstance(widget, ttk.Spinbox):
            widget.event_generate("<<Increment>>" if sign > 0 else "<<Decrement>>")
        else:
            widget.invoke("buttonup" if sign > 0 else "buttondown")
        return True

    @staticmethod
    def _adjust_combobox(widget: Any, sign: int) -> bool:
        """The next / previous choice, and ``<<ComboboxSelected>>``."""
        values = list(widget.tk.splitlist(widget.cget("values")))
        if not values:
            return False
        current = widget.current()
        widget.current(min(max((current if current >= 0 else -1) + sign, 0), len(values) - 1))
        widget.event_generate("<<ComboboxSelected>>")
        return True

    def _adjust_scrollbar(self, widget: Any, sign: int) -> bool:
        """One page through the scrollbar's ``-command``."""
        command = self.app.splitlist(widget.cget("command"))
        if not command:
            return False
        self.app.call(*(tuple(command) + ("scroll", sign, "pages")))
        return True

    def _set_value(self, widget: tkinter.Misc, value: Any) -> bool:
        if adapters.is_disabled(widget):
            return False
        text = "" if value is None else str(value)
        if isinstance(widget, ttk.Combobox):
            values = [str(v) for v in widget.tk.splitlist(widget.cget("values"))]
            if text in values:
                widget.current(values.index(text))
                widget.event_generate("<<ComboboxSelected>>")
                return True
            if adapters.is_readonly(widget):
                raise ValueError("%r is not one of the combo box's values %r" % (text, values))
        if isinstance(widget, (tkinter.Entry, ttk.Entry, tkinter.Spinbox)):
            if adapters.is_readonly(widget):
                return False
            widget.delete(0, "end")  # type: ignore[attr-defined]
            widget.insert(0, text)  # type: ignore[attr-defined]
            return True
        if isinstance(widget, tkinter.Text):
            widget.delete("1.0", "end")
            widget.insert("1.0", text)
            return True
        if isinstance(widget, (tkinter.Scale, ttk.Scale)):
            widget.set(float(text))
            return True
        if isinstance(widget, (tkinter.Checkbutton, ttk.Checkbutton)):
            wanted = text.lower() in ("1", "true", "on", "yes")
            current = adapters.checkbutton(self, widget).get("isOn", False)
            if wanted != current:
                widget.invoke()  # type: ignore[attr-defined]
            return True
        return False

    def type_text(self, widget: tkinter.Misc, text: str) -> bool:
        """typeText into an Entry or Text (for adapters' action handlers)."""
        return self._type_text(widget, text)

    def set_value(self, widget: tkinter.Misc, value: Any) -> bool:
        """setValue on a standard widget (for adapters' action handlers)."""
        return self._set_value(widget, value)

    def focus_widget(self, widget: tkinter.Misc) -> None:
        """Gives ``widget`` Tk's focus (for adapters' action handlers)."""
        self._focus_widget(widget)

    def _type_text(self, widget: tkinter.Misc, text: str) -> bool:
        """Types ``text`` as key presses into ``widget`` (its bindings and validation run); a character without a
        key on the keyboard map is inserted at the insert cursor instead."""
        if adapters.is_disabled(widget):
            return False
        if not isinstance(widget, (tkinter.Entry, ttk.Entry, tkinter.Text, tkinter.Spinbox)):
            return False
        refuse_readonly(widget)
        self._focus_widget(widget)
        path = str(widget)
        is_text = isinstance(widget, tkinter.Text)
        for char in text:
            before = self._content(path, is_text)
            keysym = KEYSYMS.get(char) or (char if char.isascii() and char.isalnum() else None)
            if keysym is not None:
                widget.event_generate("<KeyPress>", keysym=keysym)
                widget.event_generate("<KeyRelease>", keysym=keysym)
                if not int(self.app.call("winfo", "exists", path)):
                    return True
            if keysym is None or (self._content(path, is_text) == before and char not in "\n\t"):
                if keysym is not None and self.app.call("focus") != path:
                    continue
                widget.insert("insert", char)  # type: ignore[attr-defined]
        return True

    def _content(self, path: str, is_text: bool) -> str:
        if is_text:
            return str(self.app.call(path, "get", "1.0", "end-1c"))
        return str(self.app.call(path, "get"))

    def _escape(self, widget: Optional[tkinter.Misc]) -> bool:
        """escape: unposts the menus the adapter posted; else Escape to the focus in the target's toplevel (the
        front-most or grabbing one for the app), then the dialog's cancel (``WM_DELETE_WINDOW``, else destroy) if
        that toplevel is still mapped and is not the root."""
        if self._posted:
            self._unpost_all()
            return True
        top = widget.winfo_toplevel() if widget is not None else self._front_toplevel()
        path = str(top)
        focus = str(self.app.call("focus"))
        source = focus if focus and (focus == path or focus.startswith(path + ".")) else path
        self.app.call("event", "generate", source, "<KeyPress-Escape>")
        if int(self.app.call("winfo", "exists", source)):
            self.app.call("event", "generate", source, "<KeyRelease-Escape>")
        if top is self.root or not int(self.app.call("winfo", "exists", path)):
            return True
        if not int(self.app.call("winfo", "ismapped", path)):
            return True
        protocol = str(self.app.call("wm", "protocol", path, "WM_DELETE_WINDOW"))
        if protocol:
            self.app.call(protocol)
        else:
            top.destroy()
        return True

    def _front_toplevel(self) -> tkinter.Misc:
        """The toplevel holding Tk's grab, else the front-most window (``wm stackorder``), else the root."""
        grabs = self.app.splitlist(self.app.call("grab", "current"))
        if grabs:
            top = self.root.nametowidget(str(grabs[-1])).winfo_toplevel()
            if top is not self.root:
                return top
        order = list(self._stack_order())
        return self.root.nametowidget(order[-1]) if order else self.root

    def _scroll(self, widget: tkinter.Misc, direction: str) -> bool:
        amount = {"up": 1, "down": -1, "left": 1, "right": -1, "next": 1, "previous": -1}.get(direction, 1)
        view = "xview" if direction in ("left", "right") else "yview"
        current: Optional[tkinter.Misc] = widget
        while current is not None:
            try:
                self.app.call(str(current), view, "scroll", amount, "pages")
                return True
            except tkinter.TclError:
                current = current.master
        return False

    def _key(self, value: Any) -> bool:
        if not isinstance(value, dict):
            return False
        key = str(value.get("key", ""))
        if not key:
            return False
        mask = 0
        for modifier in value.get("modifiers") or []:
            mask |= dict(MODIFIER_BITS).get(str(modifier), 0)
        phase = str(value.get("phase") or "both")
        focus = str(self.app.call("focus")) or str(self.root)
        if phase in ("press", "both"):
            self.app.call("event", "generate", focus, "<KeyPress>", "-keysym", key, "-state", mask)
        focus = str(self.app.call("focus")) or str(self.root)
        if phase in ("release", "both") and int(self.app.call("winfo", "exists", focus)):
            self.app.call("event", "generate", focus, "<KeyRelease>", "-keysym", key, "-state", mask)
        return True

    def _perform_virtual(self, action: str, virtual: Tuple[Any, ...], request: ActionRequest) -> bool:
        """An action on a part that is no widget (a row, a tab, a heading, a menu entry): ``virtual`` is
        ``(kind, widget path, part…)``; an action the part does not take is the app's escape, or not handled."""
        handler = VIRTUAL_ACTIONS.get(virtual[0])
        handled = handler(self, action, *virtual[1:]) if handler is not None else None
        if handled is not None:
            return handled
        return self._escape(None) if action == "escape" else False

    def _list_row_action(self, action: str, path: str, index: int) -> Optional[bool]:
        """Activate on a Listbox row: select it and focus the list, as a click does (tk::ListboxBeginSelect)."""
        if action != "activate":
            return None
        listbox = self.widget(path)
        if adapters.is_disabled(listbox):
            return False
        listbox.selection_clear(0, "end")  # type: ignore[attr-defined]
        listbox.selection_set(index)  # type: ignore[attr-defined]
        listbox.activate(index)  # type: ignore[attr-defined]
        listbox.see(index)  # type: ignore[attr-defined]
        listbox.event_generate("<<ListboxSelect>>")
        self._focus_widget(listbox)
        return True

    def _tree_row_action(self, action: str, path: str, iid: str) -> Optional[bool]:
        """Activate on a Treeview row: select, focus item, see, Tk's focus (ttk::treeview::Press) and toggle an
        item with children; increment/decrement: open/close."""
        if action not in ("activate", "increment", "decrement"):
            return None
        tree = self.widget(path)
        if not int(self.app.call(path, "exists", iid)):
            raise TargetGone("the Treeview row %r was deleted" % iid)
        if action == "activate":
            tree.selection_set(iid)  # type: ignore[attr-defined]
            tree.focus(iid)  # type: ignore[attr-defined]
            tree.see(iid)  # type: ignore[attr-defined]
            self._focus_widget(tree)
            if not tree.get_children(iid):  # type: ignore[attr-defined]
                return True
            opening = not self.app.getboolean(self.app.call(path, "item", iid, "-open"))
        else:
            opening = action == "increment"
        tree.item(iid, open=opening)  # type: ignore[attr-defined]
        tree.event_generate("<<TreeviewOpen>>" if opening else "<<TreeviewClose>>")
        return True

    def _tab_action(self, action: str, path: str, tab: str) -> Optional[bool]:
        if action != "activate":
            return None
        self.widget(path).select(tab)  # type: ignore[attr-defined]
        return True

    def _heading_action(self, action: str, path: str, column: str) -> Optional[bool]:
        """Activate on a Treeview heading runs its ``-command`` (none: not handled)."""
        if action != "activate":
            return None
        command = str(self.app.call(path, "heading", column, "-command"))
        if command:
            self.app.call(command)
        return bool(command)

    def _menu_entry(self, action: str, menu: str, index: int, bar_of: Optional[str]) -> bool:
        if action == "escape":
            return self._escape(None)
        if action != "activate":
            return False
        call = self.app.call
        if not int(call("winfo", "exists", menu)):
            raise TargetGone("the menu %r was destroyed" % menu)
        if str(call(menu, "entrycget", index, "-state")) == "disabled":
            return False
        kind = str(call(menu, "type", index))
        if kind == "cascade":
            submenu = str(call(menu, "entrycget", index, "-menu"))
            if not submenu:
                return False
            if bar_of is not None:
                self._unpost_all()
                view = self._published.get("%s@menubar%d" % (bar_of, index))
                frame = view["frame"] if view else [0, 0, 0, 0]
                x = int(call("winfo", "rootx", bar_of)) + int(frame[0])
                y = int(call("winfo", "rooty", bar_of))
            else:
                x = int(call("winfo", "rootx", menu)) + int(call("winfo", "width", menu))
                y = int(call("winfo", "rooty", menu)) + int(call(menu, "yposition", index))
            call(submenu, "post", x, y)
            if submenu not in self._posted:
                self._posted.append(submenu)
            return True
        self._unpost_all()
        call(menu, "invoke", index)
        return True

    def _unpost_all(self) -> None:
        for menu in reversed(self._posted):
            try:
                self.app.call(menu, "unpost")
            except tkinter.TclError:
                pass
        self._posted.clear()

    # -- keys -----------------------------------------------------------------------------------------------------

    def _forward_key(self, event: Any, phase: str) -> Optional[str]:
        """The ``AXMirror`` bind tag's key handler: the kit's forwarding policy (:meth:`ToolkitMirror.forward_key`);
        ``break`` when an assistive technology consumed the key, so Tk never sees it."""
        keysym = str(getattr(event, "keysym", "") or "")
        if keysym == "??":
            return None
        state = getattr(event, "state", 0)
        state = state if isinstance(state, int) else 0
        modifiers = [name for name, bit in MODIFIER_BITS if state & bit]
        char = getattr(event, "char", "")
        consumed = self.forward_key(keysym, modifiers, phase, char if isinstance(char, str) else "",
                                    self._masked_target(event))
        return "break" if consumed else None

    def _masked_target(self, event: Any) -> bool:
        """True when the key goes to an entry that masks its text (a Tk error counts as masked: never leak)."""
        widget = getattr(event, "widget", None)
        if not isinstance(widget, (tkinter.Entry, ttk.Entry)):
            return False
        try:
            return adapters.is_masked(self, widget)
        except tkinter.TclError:
            return True

    def _on_key_press(self, event: Any) -> Optional[str]:
        return self._forward_key(event, "press")

    def _on_key_release(self, event: Any) -> Optional[str]:
        return self._forward_key(event, "release")

    # -- life -----------------------------------------------------------------------------------------------------

    def release(self) -> None:
        """Stops Tk's wake-up handler and cancels the mirror's pending ``after`` scripts (a destroyed root deletes
        their commands: a pending one would print ``invalid command name "…_idle_flush"``)."""
        if self in _LIVE_MIRRORS:
            _LIVE_MIRRORS.remove(self)
        try:
            self.app.deletefilehandler(self._wake_read)
        except (AttributeError, tkinter.TclError, RuntimeError):
            pass
        for script in (self._flush_command, self._jobs_command):
            try:
                self.app.call("after", "cancel", script)
            except (tkinter.TclError, RuntimeError):
                pass


#: Widget actions by name (Specs/tk-adapter.md §Actions), after an adapter's own handler declined.
WIDGET_ACTIONS: Dict[str, Any] = {
    "activate": lambda mirror, widget, request: mirror._activate(widget),
    "increment": lambda mirror, widget, request: mirror._adjust(widget, 1),
    "decrement": lambda mirror, widget, request: mirror._adjust(widget, -1),
    "setValue": lambda mirror, widget, request: mirror._set_value(widget, request.value),
    "typeText": lambda mirror, widget, request: mirror._type_text(widget, str(request.value or "")),
    "escape": lambda mirror, widget, request: mirror._escape(widget),
    "scroll": lambda mirror, widget, request: mirror._scroll(widget, str(request.direction or "down")),
    "key": lambda mirror, widget, request: mirror._key(request.value),
    "setSelectedTextRange": lambda mirror, widget, request: mirror._select_range(widget, request.value),
    "custom": lambda mirror, widget, request: mirror._custom(widget, request),
}


#: How increment/decrement adjusts each class (first match; Specs/tk-adapter.md §Mapping).
ADJUSTERS: Tuple[Tuple[Any, Any], ...] = (
    (ttk.Scale, Mirror._adjust_ttk_scale),
    (tkinter.Scale, lambda mirror, widget, sign: Mirror._adjust_scale(widget, sign)),
    (tkinter.Spinbox, lambda mirror, widget, sign: Mirror._adjust_spinbox(widget, sign)),
    (ttk.Spinbox, lambda mirror, widget, sign: Mirror._adjust_spinbox(widget, sign)),
    (ttk.Combobox, lambda mirror, widget, sign: Mirror._adjust_combobox(widget, sign)),
    ((tkinter.Scrollbar, ttk.Scrollbar), Mirror._adjust_scrollbar),
)


#: Actions on parts that are no widgets, by the part's kind (the first item of its ``_virtual`` tuple).
VIRTUAL_ACTIONS: Dict[str, Any] = {
    "listrow": Mirror._list_row_action,
    "treerow": Mirror._tree_row_action,
    "tab": Mirror._tab_action,
    "heading": Mirror._heading_action,
    "entry": lambda mirror, action, path, index: mirror._menu_entry(action, path, index, None),
    "bar": lambda mirror, action, top, menu, index: mirror._menu_entry(action, menu, index, top),
}


#: ``tag`` verbs of a Text widget that change what the mirror publishes (the caret's ``sel``, attribute runs).
TAG_WRITES = frozenset(("add", "remove", "delete", "raise", "lower"))


def _writes_text(sub: str, args: Tuple[Any, ...]) -> bool:
    """``mark set insert …``, ``tag add|remove|delete|raise|lower …`` and ``tag configure NAME -option value``:
    app calls that read like reads but move the caret or the selection of a Text widget or restyle its text."""
    if len(args) < 4:
        return False
    verb, name = str(args[2]), str(args[3])
    if sub == "mark":
        return verb == "set" and name == "insert"
    return sub == "tag" and (verb in TAG_WRITES or (verb == "configure" and len(args) >= 6))


def _tree_call_reads(cache: _TreeCache, args: Tuple[Any, ...]) -> bool:
    """A call on a mirrored Treeview: notes the item (``item``/``set`` with values) or the structure it changes;
    True when it only reads."""
    sub = str(args[1])
    if sub in ("item", "set"):
        if len(args) <= 4:
            return True  # a read: item IID [-option] / set IID [column]
        cache.dirty_items.add(str(args[2]))
        return False
    if sub in TREE_STRUCTURE:
        if (sub in ("selection", "focus", "yview") and len(args) == 2) or (
                sub in ("heading", "column") and len(args) <= 4):
            return True
        cache.structure_dirty = True
        return False
    return sub in READ_SUBCOMMANDS


def _widget_call_reads(args: Tuple[Any, ...]) -> bool:
    """A widget subcommand that only reads (``cget``, ``get``, ``index``…; a bare ``xview``/``yview``), not one of
    the reads that move a Text's caret or restyle it (:func:`_writes_text`)."""
    sub = str(args[1])
    if sub in ("xview", "yview") and len(args) == 2:
        return True
    return sub in READ_SUBCOMMANDS and not _writes_text(sub, args)


#: Second words of ``focus``/``grab``/``wm`` calls that query (``wm title W`` and ``wm state W`` count as changes,
#: as before the kit split).
GLOBAL_QUERIES = frozenset(("current", "status", "lastfor", "-displayof", "state", "title", "stackorder", "protocol"))


def _global_query(first: str, args: Tuple[Any, ...]) -> bool:
    """``focus``, ``grab current``, ``wm stackorder W``…: the global commands that only read."""
    if first not in ("focus", "grab", "wm") or len(args) > 3:
        return False
    if len(args) == 1:
        return True
    verb = str(args[1])
    return verb in GLOBAL_QUERIES and not (first == "wm" and len(args) == 3 and verb in ("title", "state"))


def refuse_readonly(widget: tkinter.Misc) -> None:
    """Typing into a read-only entry or combo box is an error (was a false success: nothing changed)."""
    if adapters.is_readonly(widget):
        hint = " (pick one of its choices: setValue or custom:<choice>)" if isinstance(widget, ttk.Combobox) else ""
        raise ValueError("%s is read-only: nothing can be typed into it%s" % (widget, hint))


def app_identifier(path: str) -> Optional[str]:
    """The ``accessibilityIdentifier`` of the widget at ``path``: its path when the app named the widget
    (``name="total"``: ``.account.total``, also under generated masters: ``.!frame.total``), none when tkinter
    generated its name (``.!button2``), so XCUITest's and Appium's ``name`` falls back to the label. Either way
    ``#"<path>"`` finds the widget: an element without an identifier is found by its id (Specs/tk-adapter.md
    §Mapping)."""
    last = path.rsplit(".", 1)[-1]
    return path if last and not last.startswith("!") else None


def default_app_name() -> str:
    """The running script's or module's name (``sys.argv[0]`` without ``.py``), else "tk-app"."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    base = os.path.basename(argv0)
    if base.endswith(".py"):
        base = base[:-3]
    if base in ("", "-c", "-m", "__main__"):
        return "tk-app"
    return base
