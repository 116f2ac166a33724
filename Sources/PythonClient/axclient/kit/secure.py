"""Masked text for every adapter (Specs/adapter-kit.md §What the kit guarantees): a secure text field publishes
one bullet per character, never its text, and :func:`seal` enforces it on every view a mirror is about to
publish, whatever the toolkit mapping did. Standard library only."""
from __future__ import annotations

from typing import Any, Dict

#: What a masked field publishes instead of each character (the server masks again: D-SECURE-1).
BULLET = "\u2022"

#: Properties that could carry a secure field's text besides ``text`` (left out of a secure view).
TEXT_BEARING = ("accessibilityValue", "attributedText", "accessibilityReadingContent")


def mask(props: Dict[str, Any]) -> Dict[str, Any]:
    """Makes ``props`` a secure text field: ``isSecureTextEntry`` and one bullet per character."""
    props["isSecureTextEntry"] = True
    props["text"] = BULLET * len(props.get("text") or "")
    return props


def seal(props: Dict[str, Dict[str, Any]]) -> int:
    """Rewrites every view marked ``isSecureTextEntry`` so that no text leaves: ``text`` becomes bullets (of its
    length) and the other text-bearing properties go. Answers how many views it had to correct (0 when the
    mapping already masked them) — a mapping bug the caller reports."""
    corrected = 0
    for view in props.values():
        if not view.get("isSecureTextEntry"):
            continue
        text = view.get("text")
        leaks = [key for key in TEXT_BEARING if key in view]
        if (isinstance(text, str) and text.strip(BULLET)) or (text is not None and not isinstance(text, str)) or leaks:
            corrected += 1
            view["text"] = BULLET * len(text) if isinstance(text, str) else ""
            for key in leaks:
                del view[key]
    return corrected


def types_into_secret(char: Any, modifiers: Any, target_masked: bool) -> bool:
    """True for a keystroke that types a character (printable, no Control, Alt or Super) into a masked field: such
    a key is never forwarded to the server, since the keystrokes would spell the secret (key forwarding policy)."""
    if not target_masked or not isinstance(char, str) or not char or not char.isprintable():
        return False
    return not set(modifiers) - {"shift"}
