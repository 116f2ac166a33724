"""pygame key events ↔ X keysym names (D-KEY-1: the server names keys as X does), Specs/pygame-gui-adapter.md
§Keys. Standard library only; pygame's constants are read lazily (:func:`tables`)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

#: Printable ASCII punctuation → its X keysym name.
PUNCTUATION = {" ": "space", "!": "exclam", '"': "quotedbl", "#": "numbersign", "$": "dollar", "%": "percent",
               "&": "ampersand", "'": "apostrophe", "(": "parenleft", ")": "parenright", "*": "asterisk",
               "+": "plus", ",": "comma", "-": "minus", ".": "period", "/": "slash", ":": "colon",
               ";": "semicolon", "<": "less", "=": "equal", ">": "greater", "?": "question", "@": "at",
               "[": "bracketleft", "\\": "backslash", "]": "bracketright", "^": "asciicircum", "_": "underscore",
               "`": "grave", "{": "braceleft", "|": "bar", "}": "braceright", "~": "asciitilde"}

#: pygame key constant names (``K_…``) → X keysym names, for keys that type no character.
NAMED = {"K_TAB": "Tab", "K_RETURN": "Return", "K_KP_ENTER": "KP_Enter", "K_ESCAPE": "Escape",
         "K_BACKSPACE": "BackSpace", "K_DELETE": "Delete", "K_INSERT": "Insert", "K_HOME": "Home", "K_END": "End",
         "K_PAGEUP": "Page_Up", "K_PAGEDOWN": "Page_Down", "K_UP": "Up", "K_DOWN": "Down", "K_LEFT": "Left",
         "K_RIGHT": "Right", "K_SPACE": "space", "K_LSHIFT": "Shift_L", "K_RSHIFT": "Shift_R",
         "K_LCTRL": "Control_L", "K_RCTRL": "Control_R", "K_LALT": "Alt_L", "K_RALT": "Alt_R",
         "K_LGUI": "Super_L", "K_RGUI": "Super_R", "K_MENU": "Menu", "K_CAPSLOCK": "Caps_Lock",
         "K_NUMLOCKCLEAR": "Num_Lock", "K_KP0": "KP_Insert", "K_KP_PERIOD": "KP_Delete", "K_KP1": "KP_End",
         "K_KP2": "KP_Down", "K_KP3": "KP_Page_Down", "K_KP4": "KP_Left", "K_KP5": "KP_Begin",
         "K_KP6": "KP_Right", "K_KP7": "KP_Home", "K_KP8": "KP_Up", "K_KP9": "KP_Page_Up",
         "K_KP_PLUS": "KP_Add", "K_KP_MINUS": "KP_Subtract", "K_KP_MULTIPLY": "KP_Multiply",
         "K_KP_DIVIDE": "KP_Divide", "K_PRINTSCREEN": "Print", "K_PAUSE": "Pause", "K_SCROLLLOCK": "Scroll_Lock"}
NAMED.update({"K_F%d" % number: "F%d" % number for number in range(1, 13)})

#: pygame modifier masks (``KMOD_…``) → the server's modifier names.
MODIFIERS = (("KMOD_SHIFT", "shift"), ("KMOD_CTRL", "control"), ("KMOD_ALT", "alt"), ("KMOD_GUI", "super"))

_TABLES: Dict[str, Any] = {}


def tables() -> Dict[str, Any]:
    """``{"by_key": {pygame key: keysym}, "by_name": {keysym: pygame key}, "mods": [(mask, name)]}`` (once)."""
    if not _TABLES:
        import pygame  # noqa: WPS433 — lazily: the toolkit is the app's
        by_key = {getattr(pygame, name): keysym for name, keysym in NAMED.items() if hasattr(pygame, name)}
        _TABLES["by_key"] = by_key
        _TABLES["by_name"] = {keysym: key for key, keysym in by_key.items()}
        _TABLES["mods"] = [(getattr(pygame, name), label) for name, label in MODIFIERS if hasattr(pygame, name)]
    return _TABLES


def char_keysym(char: str) -> str:
    """The X keysym name of a typed character: letters and digits as themselves, punctuation by name, anything
    else ``U`` + its code point (D-KEY-1)."""
    if len(char) != 1:
        return ""
    if char.isascii() and char.isalnum():
        return char
    return PUNCTUATION.get(char) or "U%04X" % ord(char)


def modifiers_of(mod: Any) -> List[str]:
    """The modifier names held in a pygame ``mod`` mask."""
    mask = mod if isinstance(mod, int) else 0
    return [name for bit, name in tables()["mods"] if mask & bit]


def keysym_of(event: Any) -> str:
    """The X keysym name of a KEYDOWN/KEYUP event ("" when it has none): a named key, else the character the
    key types (``unicode``), else the key's own character (a letter's release)."""
    key = getattr(event, "key", None)
    named = tables()["by_key"].get(key)
    if named is not None:
        if named == "Tab" and "shift" in modifiers_of(getattr(event, "mod", 0)):
            return "ISO_Left_Tab"  # as X reports Shift+Tab
        return named
    text = getattr(event, "unicode", "")
    if isinstance(text, str) and len(text) == 1 and text.isprintable():
        return char_keysym(text)
    if isinstance(key, int) and 32 < key < 127:
        return char_keysym(chr(key))
    return ""


def event_for(keysym: str) -> Optional[Tuple[int, str]]:
    """The pygame key and typed character of an X keysym name (for the ``key`` action), or None."""
    named = tables()["by_name"].get(keysym)
    if named is not None:
        return named, " " if keysym == "space" else ""
    char = next((c for c, name in PUNCTUATION.items() if name == keysym), None)
    if char is None and len(keysym) == 1 and keysym.isprintable():
        char = keysym
    if char is None:
        return None
    return ord(char.lower()), char
