"""A ready text-editing model for a provider app that keeps its own caret (Specs/decisions.md D-TEXT-APP-5).

The server's editing rules (D-KEYOP-5; AXSchema ``TextEditing`` in Swift, the same rules here): printable text,
BackSpace/Delete (Control: by word), Left/Right (Control: by word), Home/End (Control: the whole text), Up/Down (a
line in a multi-line view; a one-line field: the start/end), Shift extends the selection, Control+A selects all,
Return types a newline in a multi-line view. Offsets count Unicode scalars, which is what a Python ``str`` indexes.

::

    note = TextEditingModel("Hello", multi_line=True)
    provider.set_hierarchy([... view("note", "UITextView", ..., **note.properties()) ...])
    def on_action(request):
        changed = note.handle(request)          # key, setSelectedTextRange, typeText, setValue
        if changed is None:
            return False
        if changed:
            provider.set_properties("note", **changed)   # only what changed
        return True
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

__all__ = ["TextEditingModel"]


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class TextEditingModel:
    """A text with its caret and selection anchor; applies keys and the server's text actions."""

    def __init__(self, text: str = "", caret: Optional[int] = None, multi_line: bool = False) -> None:
        self.text = text
        self.caret = len(text) if caret is None else max(0, min(caret, len(text)))
        self.anchor = self.caret
        self.multi_line = multi_line

    # -- what to publish

    @property
    def selected_text_range(self) -> List[int]:
        """``[location, length]`` of the selection (length 0: the caret)."""
        low, high = sorted((self.caret, self.anchor))
        return [low, high - low]

    def properties(self) -> Dict[str, Any]:
        """``text`` and ``selectedTextRange`` for the view's first publication."""
        return {"text": self.text, "selectedTextRange": self.selected_text_range}

    # -- applying keys and actions

    def apply_key(self, key: str, modifiers: Iterable[str] = (),
                  text: Optional[str] = None) -> Optional[Dict[str, Any]]:
        """Applies a key (X keysym name, modifiers, the text it types); the properties that changed (``{}`` when
        nothing did), or None when a text element does not use the key (Tab, Escape, shortcuts: the app's)."""
        mods = set(modifiers)
        if "alt" in mods or "super" in mods:
            return None
        before = (self.text, self.selected_text_range)
        if not self._edit(key, "control" in mods, "shift" in mods, text):
            return None
        return self._changed(before)

    def handle(self, request: Any) -> Optional[Dict[str, Any]]:
        """Applies an :class:`~axclient.provider.ActionRequest` (``key``, ``setSelectedTextRange``, ``typeText``,
        ``setValue``); the properties that changed, or None when it is not a text action this model applies."""
        action, value = request.action, request.value
        before = (self.text, self.selected_text_range)
        if action == "key" and isinstance(value, dict):
            if value.get("phase") == "release":
                return None
            return self.apply_key(str(value.get("key", "")), value.get("modifiers") or (), value.get("text"))
        if action == "setSelectedTextRange":
            if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
                return None
            location, length = value
            if location < 0 or length < 0 or location + length > len(self.text):
                return None
            self.anchor, self.caret = location, location + length
        elif action == "typeText" and isinstance(value, str):
            self._insert(value)
        elif action == "setValue" and isinstance(value, str):
            self.text, self.caret, self.anchor = value, len(value), len(value)
        else:
            return None
        return self._changed(before)

    # -- the rules

    def _changed(self, before: Any) -> Dict[str, Any]:
        changed: Dict[str, Any] = {}
        if self.text != before[0]:
            changed["text"] = self.text
        if self.selected_text_range != before[1]:
            changed["selectedTextRange"] = self.selected_text_range
        return changed

    def _selection(self) -> range:
        low, high = sorted((self.caret, self.anchor))
        return range(low, high)

    def _insert(self, typed: str) -> None:
        sel = self._selection()
        self.text = self.text[:sel.start] + typed + self.text[sel.stop:]
        self.caret = self.anchor = sel.start + len(typed)

    def _delete(self, start: int, end: int) -> None:
        self.text = self.text[:start] + self.text[end:]
        self.caret = self.anchor = start

    def _edit(self, key: str, control: bool, shift: bool, text: Optional[str]) -> bool:
        motion = self._motion(key, control)
        if motion is not None:
            self._move(motion, shift)
            return True
        sel = self._selection()
        if key in ("BackSpace", "Delete", "KP_Delete"):
            if sel.stop > sel.start:
                self._delete(sel.start, sel.stop)
            elif key == "BackSpace":
                self._delete(self._word_start(self.caret) if control else max(0, self.caret - 1), self.caret)
            else:
                self._delete(self.caret, self._word_end(self.caret) if control else min(len(self.text), self.caret + 1))
            return True
        if key in ("Return", "KP_Enter"):
            if not self.multi_line or control:
                return False
            self._insert("\n")
            return True
        if key == "a" and control and not shift:
            self.anchor, self.caret = 0, len(self.text)
            return True
        typed = text if text is not None else (key if len(key) == 1 else None)
        if control or not typed or any(ord(ch) < 0x20 for ch in typed):
            return False
        self._insert(typed)
        return True

    def _motion(self, key: str, control: bool) -> Optional[str]:
        name = key[3:] if key.startswith("KP_") else key
        table = {
            "Left": "wordBackward" if control else "characterBackward",
            "Right": "wordForward" if control else "characterForward",
            "Home": "documentStart" if control else "lineStart",
            "End": "documentEnd" if control else "lineEnd",
            "Up": "lineUp" if self.multi_line and not control else "documentStart",
            "Down": "lineDown" if self.multi_line and not control else "documentEnd",
        }
        return table.get(name)

    def _move(self, motion: str, extend: bool) -> None:
        sel = self._selection()
        if not extend and sel.stop > sel.start and motion in ("characterBackward", "characterForward"):
            # An arrow with a selection and no Shift collapses it to that side (GTK, UIKit).
            self.caret = sel.start if motion == "characterBackward" else sel.stop
        else:
            self.caret = self._target(motion)
        if not extend:
            self.anchor = self.caret

    def _target(self, motion: str) -> int:
        text, caret = self.text, self.caret
        simple = {
            "characterBackward": max(0, caret - 1), "characterForward": min(len(text), caret + 1),
            "documentStart": 0, "documentEnd": len(text),
        }
        if motion in simple:
            return simple[motion]
        if motion == "wordBackward":
            return self._word_start(caret)
        if motion == "wordForward":
            return self._word_end(caret)
        start = text.rfind("\n", 0, caret) + 1
        if motion == "lineStart":
            return start
        end = text.find("\n", caret)
        end = len(text) if end < 0 else end
        if motion == "lineEnd":
            return end
        column = caret - start
        if motion == "lineUp":
            if start == 0:
                return 0
            previous = text.rfind("\n", 0, start - 1) + 1
            return min(previous + column, start - 1)
        if end >= len(text):
            return len(text)
        following = text.find("\n", end + 1)
        following = len(text) if following < 0 else following
        return min(end + 1 + column, following)

    def _word_start(self, caret: int) -> int:
        index = min(caret, len(self.text))
        while index > 0 and not _is_word(self.text[index - 1]):
            index -= 1
        while index > 0 and _is_word(self.text[index - 1]):
            index -= 1
        return index

    def _word_end(self, caret: int) -> int:
        index = max(caret, 0)
        while index < len(self.text) and not _is_word(self.text[index]):
            index += 1
        while index < len(self.text) and _is_word(self.text[index]):
            index += 1
        return index
