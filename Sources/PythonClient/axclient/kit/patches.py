"""Toolkit-neutral publishing pieces of a mirror adapter (Specs/tk-adapter.md §Adapter kit): the difference
between two flat view trees as ``hierarchy.update`` ops, the focus-first split of a patch, text splices, and the
string limits a view property must keep. Standard library only."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

#: Text properties carry at most this many UTF-8 bytes (the schema's limit is 64 KiB; Specs/tk-adapter.md).
TEXT_LIMIT_BYTES = 60000
#: A text edit on a server with the ``splice`` op (D-TEXT-SPLICE-1) travels as a splice when the text is longer
#: than this; shorter texts are simply set.
SPLICE_MIN_CHARS = 256

#: What replaces the rest of a widget text cut to the schema's string limit (Specs/tk-adapter.md §Failures).
TRUNCATION_MARKER = " \u2026 [truncated by axclient.tk]"
#: Properties that are plain strings under the schema's 64 KiB string limit (a Text's ``text`` has its own
#: rule, §Big text).
CLIPPED_PROPERTIES = ("text", "title", "accessibilityLabel", "accessibilityValue", "accessibilityHint",
                      "placeholder", "windowTitle")


def clip_text(text: str, limit: int = TEXT_LIMIT_BYTES) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes (on a character boundary)."""
    if len(text) * 4 <= limit:
        return text
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore")


def diff(old: Dict[str, Dict[str, Any]], old_children: Dict[Optional[str], List[str]],
         new: Dict[str, Dict[str, Any]], new_children: Dict[Optional[str], List[str]],
         rebuild: Any, focused_now: Optional[str] = None, splice: bool = False) -> List[Dict[str, Any]]:
    """The ``hierarchy.update`` ops that turn the published tree into the new one: removes (top-most gone views),
    sets (only changed properties; a dropped property is ``null``; a dropped ``isFocused`` is ``false`` only when
    no other view takes the focus in the same patch — an ``isFocused: false`` after the new view's ``true`` would
    clear the focus that just moved), then inserts and moves parent by parent, top-down. With ``splice`` a long
    text view's edited ``text`` is a ``splice`` op of the edited range (D-TEXT-SPLICE-1)."""
    ops = _removes(old, old_children, new)
    focus_moves = focused_now is not None and not old.get(focused_now, {}).get("isFocused")
    for view_id, properties in new.items():
        before = old.get(view_id)
        if before is not None and before is not properties and before != properties:
            ops.extend(_property_ops(view_id, before, properties, focus_moves, splice))
    ops.extend(_Placement(old, old_children, new, new_children, rebuild).ops())
    return ops


def _removes(old: Dict[str, Dict[str, Any]], old_children: Dict[Optional[str], List[str]],
             new: Dict[str, Dict[str, Any]]) -> List[Dict[str, Any]]:
    """``remove`` ops for the top-most published views that are gone (a window, or a view whose parent stays;
    their subtrees go with them)."""
    old_parent = {kid: parent for parent, kids in old_children.items() for kid in kids}
    gone = [view_id for view_id in old if view_id not in new]
    return [{"op": "remove", "id": view_id} for view_id in gone if old_parent.get(view_id) in _Kept(new)]


class _Kept:
    """``parent in _Kept(new)``: the parent is the top (None) or still in the new tree."""

    def __init__(self, new: Dict[str, Any]) -> None:
        self.new = new

    def __contains__(self, parent: Optional[str]) -> bool:
        return parent is None or parent in self.new


def _property_ops(view_id: str, before: Dict[str, Any], properties: Dict[str, Any], focus_moves: bool,
                  splice: bool) -> List[Dict[str, Any]]:
    """The ``splice`` and ``set`` ops of one view whose properties changed."""
    changed = {key: value for key, value in properties.items() if before.get(key, _MISSING) != value}
    for key in [key for key in before if key not in properties]:
        if key != "isFocused":
            changed[key] = None
        elif not focus_moves:  # moving focus elsewhere takes it from here (C35); else clear it (C36)
            changed[key] = False
    ops: List[Dict[str, Any]] = []
    edit = _text_splice(view_id, before, changed) if splice else None
    if edit is not None:
        ops.append(edit)  # before the set: a new selectedTextRange is within the edited text
    if changed:
        ops.append({"op": "set", "id": view_id, "properties": changed})
    return ops


class _Placement:
    """The ``insert`` and ``move`` ops that order every parent's children as in the new tree, top-down."""

    def __init__(self, old: Dict[str, Dict[str, Any]], old_children: Dict[Optional[str], List[str]],
                 new: Dict[str, Dict[str, Any]], new_children: Dict[Optional[str], List[str]], rebuild: Any) -> None:
        self.old, self.new, self.new_children, self.rebuild = old, new, new_children, rebuild
        #: The published children per parent, as the ops so far left them (gone views dropped).
        self.current: Dict[Optional[str], List[str]] = {
            parent: [kid for kid in kids if kid in new]
            for parent, kids in old_children.items() if parent is None or parent in new}
        self.parent_of: Dict[str, Optional[str]] = {
            kid: parent for parent, kids in self.current.items() for kid in kids}
        self.result: List[Dict[str, Any]] = []

    def ops(self) -> List[Dict[str, Any]]:
        """The ops, parent by parent from the windows down (a parent's children are placed before theirs)."""
        pending: List[Optional[str]] = [None]
        position = 0
        while position < len(pending):
            pending.extend(self._place(pending[position]))
            position += 1
        return self.result

    def _place(self, parent: Optional[str]) -> List[str]:
        """Orders ``parent``'s children; answers the children whose own children are to be ordered next."""
        target = self.new_children.get(parent, [])
        existing = self.current.setdefault(parent, [])
        if existing == target:
            return [kid for kid in target if kid in self.new_children]
        descend: List[str] = []
        for index, kid in enumerate(target):
            if index < len(existing) and existing[index] == kid:
                descend.append(kid)
            elif kid not in self.old:
                self.result.append({"op": "insert", "parent": parent, "index": index,
                                    "view": self.rebuild(kid, self.new, self.new_children)})
                self._put(kid, parent, index)
            else:
                siblings = self.current.get(self.parent_of.get(kid))
                if siblings is not None and kid in siblings:
                    siblings.remove(kid)
                self._put(kid, parent, index)
                self.result.append({"op": "move", "id": kid, "parent": parent, "index": index})
                descend.append(kid)
        return descend

    def _put(self, kid: str, parent: Optional[str], index: int) -> None:
        self.current[parent].insert(index, kid)
        self.parent_of[kid] = parent


_MISSING = object()

#: What a view's caret and text selection are: sent after the focus moved to it (see :func:`focus_first`).
CARET_PROPERTIES = ("selectedTextRange",)


def focus_first(ops: List[Dict[str, Any]], focused: Optional[str]) -> List[List[Dict[str, Any]]]:
    """Splits one flush's ops when the focus moved to ``focused``: first everything else (the focus among it), then
    the newly focused view's caret/selection — so a screen reader hears the field (``focus:``) before its caret or
    selection moves (Tab into an entry with text selects it all; Orca said "80 selected" and never the name)."""
    later: Dict[str, Any] = {}
    for op in ops:
        if op.get("op") == "set" and op.get("id") == focused:
            properties = op["properties"]
            for key in CARET_PROPERTIES:
                if key in properties and len(properties) > 1:
                    later[key] = properties.pop(key)
    if not later:
        return [ops]
    return [ops, [{"op": "set", "id": focused, "properties": later}]]

#: Properties the adapter publishes only while the server knows them (a server with an older schema refuses them
#: as unknown; the adapter then leaves them out and re-publishes).
OPTIONAL_PROPERTIES = ("selectedTextRange", "accessibilityReadingContent", "attributedText")


def unknown_optional_property(message: str) -> Optional[str]:
    """The optional property a refused snapshot or patch names as unknown, else None."""
    if "unknown property" not in message:
        return None
    for name in OPTIONAL_PROPERTIES:
        if "'%s'" % name in message:
            return name
    return None


def _common_prefix(old: str, new: str) -> int:
    """The length of the longest common prefix (binary search over slice compares: C speed on long texts)."""
    low, high = 0, min(len(old), len(new))
    while low < high:
        middle = (low + high + 1) // 2
        if old[low:middle] == new[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(old: str, new: str, limit: int) -> int:
    """The length (≤ ``limit``) of the longest common suffix, by the same binary search."""
    low, high, old_end, new_end = 0, max(limit, 0), len(old), len(new)
    while low < high:
        middle = (low + high + 1) // 2
        if old[old_end - middle:old_end - low] == new[new_end - middle:new_end - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _text_splice(view_id: str, before: Dict[str, Any], changed: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """Takes a long text view's ``text`` out of ``changed`` and answers the ``splice`` op of the edited range
    (offsets in characters, as AT-SPI counts them); None when the text is short, not a text view's, or unchanged."""
    new_text, old_text = changed.get("text"), before.get("text")
    if not isinstance(new_text, str) or not isinstance(old_text, str):
        return None
    if before.get("class") not in ("UITextView", "UITextField") or max(len(new_text), len(old_text)) < SPLICE_MIN_CHARS:
        return None
    del changed["text"]
    prefix = _common_prefix(old_text, new_text)
    room = min(len(old_text), len(new_text)) - prefix
    suffix = _common_suffix(old_text, new_text, room)
    return {"op": "splice", "id": view_id, "location": prefix, "length": len(old_text) - prefix - suffix,
            "text": new_text[prefix:len(new_text) - suffix]}
