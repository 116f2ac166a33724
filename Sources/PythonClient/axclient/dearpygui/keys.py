"""Dear PyGui key codes (ImGui keys, ``mvKey_*``) → X keysyms and characters, for key forwarding
(Specs/dearpygui-adapter.md §Focus and keys). Standard library only; the codes come from the ``dearpygui`` module."""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

#: ``mvKey_<name>`` → keysym, for the keys whose names differ (letters and digits are their own character).
KEYSYMS = {
    "Tab": "Tab", "Return": "Return", "NumPadEnter": "KP_Enter", "Escape": "Escape", "Back": "BackSpace",
    "Spacebar": "space", "Delete": "Delete", "Insert": "Insert", "Home": "Home", "End": "End", "Up": "Up",
    "Down": "Down", "Left": "Left", "Right": "Right", "Prior": "Prior", "Next": "Next", "LShift": "Shift_L",
    "RShift": "Shift_R", "LControl": "Control_L", "RControl": "Control_R", "LAlt": "Alt_L", "RAlt": "Alt_R",
    "LWin": "Super_L", "RWin": "Super_R", "Menu": "Menu", "CapsLock": "Caps_Lock", "NumLock": "Num_Lock",
    "ScrollLock": "Scroll_Lock", "Pause": "Pause", "Print": "Print", "Comma": "comma", "Period": "period",
    "Minus": "minus", "Slash": "slash", "Backslash": "backslash", "Open_Brace": "bracketleft",
    "Close_Brace": "bracketright", "Colon": "semicolon", "Quote": "apostrophe", "Tilde": "grave",
    "Plus": "equal", "Add": "KP_Add", "Subtract": "KP_Subtract", "Multiply": "KP_Multiply", "Divide": "KP_Divide",
    "Decimal": "KP_Decimal",
}
#: Characters typed by the punctuation keys (unshifted).
CHARACTERS = {"comma": ",", "period": ".", "minus": "-", "slash": "/", "backslash": "\\", "bracketleft": "[",
              "bracketright": "]", "semicolon": ";", "apostrophe": "'", "grave": "`", "equal": "=", "space": " "}
#: ImGui's page keys (Dear PyGui's ``mvKey_Prior``/``Next`` constants are GLFW's codes; ImGui reports these).
IMGUI_PAGE_KEYS = {517: "Prior", 518: "Next"}


class KeyNames:
    """Names Dear PyGui's key codes; reads the modifier keys' state."""

    def __init__(self, dpg: Any) -> None:
        self.dpg = dpg
        self.by_code: Dict[int, str] = dict(IMGUI_PAGE_KEYS)
        for attribute in dir(dpg):
            if not attribute.startswith("mvKey_"):
                continue
            code, name = getattr(dpg, attribute), attribute[len("mvKey_"):]
            if not isinstance(code, int) or code <= 0 or name.startswith("Mod"):
                continue
            if len(name) == 1 and name.isalnum():
                self.by_code.setdefault(code, name.lower())
            elif name in KEYSYMS:
                self.by_code.setdefault(code, KEYSYMS[name])
            elif name.startswith("F") and name[1:].isdigit():
                self.by_code.setdefault(code, name)
            elif name.startswith("NumPad") and name[6:].isdigit():
                self.by_code.setdefault(code, "KP_" + name[6:])
        self._modifier_keys = [(name, getattr(dpg, "mvKey_" + key, None)) for name, key in
                               (("shift", "ModShift"), ("control", "ModCtrl"), ("alt", "ModAlt"),
                                ("super", "ModSuper"))]

    def modifiers(self) -> List[str]:
        """The modifiers held now (any thread: Dear PyGui's calls lock its mutex)."""
        held = []
        for name, code in self._modifier_keys:
            try:
                if isinstance(code, int) and code > 0 and self.dpg.is_key_down(code):
                    held.append(name)
            except Exception:  # noqa: BLE001 — the context is going
                break
        return held

    def name(self, code: int, modifiers: List[str]) -> Tuple[str, str]:
        """``(keysym, character typed)`` of a key code ("" for an unknown code); shifted letters are upper case."""
        keysym = self.by_code.get(code, "")
        if len(keysym) == 1:
            char = keysym.upper() if "shift" in modifiers and keysym.isalpha() else keysym
            return (char if char.isalpha() else keysym), char
        return keysym, CHARACTERS.get(keysym, "")
