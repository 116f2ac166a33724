"""Building selector text (Specs/selectors.md) from Python values, with correct quoting.

These helpers never parse; the server validates every selector and answers −32015 for a bad one.
"""
from __future__ import annotations

import re
from typing import Optional, Pattern, Union

TextMatch = Union[str, Pattern[str]]

_IDCHAR = re.compile(r"^[A-Za-z0-9_-]+$")


def quote(text: str) -> str:
    """Returns ``text`` as a double-quoted selector string (``\\"``, ``\\\\``, ``\\n``… escaped)."""
    if not isinstance(text, str):
        raise TypeError("selector strings must be str, not %s" % type(text).__name__)
    out = ['"']
    for char in text:
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif char == "\r":
            out.append("\\r")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append("\\u{%x}" % ord(char))
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def regex_literal(pattern: Pattern[str]) -> str:
    """Returns a compiled Python regex as a selector regex ``/…/flags`` (``re.I`` → i, ``re.S`` → s, ``re.M`` → m).

    The server uses Swift Regex syntax; the common subset (classes, anchors, groups, quantifiers) is the same.
    """
    source = pattern.pattern
    if not isinstance(source, str):
        raise TypeError("only str patterns can be used in selectors")
    escaped = []
    previous_backslash = False
    for char in source:
        if char == "/" and not previous_backslash:
            escaped.append("\\/")
        else:
            escaped.append(char)
        previous_backslash = (char == "\\" and not previous_backslash)
    flags = ""
    if pattern.flags & re.IGNORECASE:
        flags += "i"
    if pattern.flags & re.DOTALL:
        flags += "s"
    if pattern.flags & re.MULTILINE:
        flags += "m"
    return "/" + "".join(escaped) + "/" + flags


def id_selector(identifier: str) -> str:
    """``#x`` for a plain accessibility identifier, ``#"x.y"`` when it needs quoting."""
    if _IDCHAR.match(identifier):
        return "#" + identifier
    return "#" + quote(identifier)


def attribute_test(name: str, value: TextMatch, exact: bool = True) -> str:
    """An attribute test: exact equality, case-insensitive substring (``exact=False``), or a regex."""
    if isinstance(value, re.Pattern):
        return "[%s~=%s]" % (name, regex_literal(value))
    if exact:
        return "[%s=%s]" % (name, quote(value))
    return "[%s*=%s i]" % (name, quote(value))


def text_pseudo(value: TextMatch) -> str:
    """``:text("…")`` (case-insensitive substring of label, value or text) or ``:text(/re/)``."""
    if isinstance(value, re.Pattern):
        return ":text(%s)" % regex_literal(value)
    return ":text(%s)" % quote(value)


def role_selector(role: str, name: Optional[TextMatch] = None, exact: bool = False,
                  checked: Optional[bool] = None, selected: Optional[bool] = None,
                  disabled: Optional[bool] = None, expanded: Optional[bool] = None,
                  focused: Optional[bool] = None, level: Optional[int] = None,
                  include_hidden: bool = True) -> str:
    """The selector for Playwright-style ``get_by_role(role, name=…, …)``.

    ``name`` is compared with the accessibility label: a case-insensitive substring unless ``exact=True``
    (as in Playwright), or a compiled regex. ``include_hidden=False`` adds ``:visible``.
    """
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_-]*$|^\*$", role or ""):
        raise ValueError("role must be a role name such as 'button' or 'switch', got %r" % (role,))
    parts = [role]
    if name is not None:
        parts.append(attribute_test("label", name, exact))
    if level is not None:
        parts.append("[headingLevel=%d]" % int(level))
    for state, flag in (("checked", checked), ("selected", selected), ("expanded", expanded)):
        if flag is not None:
            parts.append(":state(%s)" % state if flag else ":not(:state(%s))" % state)
    if disabled is not None:
        parts.append(":disabled" if disabled else ":enabled")
    if focused is not None:
        parts.append(":focused" if focused else ":not(:focused)")
    if not include_hidden:
        parts.append(":visible")
    return "".join(parts)


def has_top_level_comma(selector: str) -> bool:
    """True when ``selector`` is (probably) a union ``a, b`` at its top level.

    A heuristic scanner (strings, regexes, brackets, parentheses); a false positive only makes the caller wrap
    the selector in ``:is(…)``, which does not change what a non-positional selector matches.
    """
    depth = 0
    index = 0
    length = len(selector)
    while index < length:
        char = selector[index]
        if char in "\"'":
            index += 1
            while index < length and selector[index] != char:
                index += 2 if selector[index] == "\\" else 1
        elif char == "/" and depth > 0:
            index += 1
            while index < length and selector[index] != "/":
                index += 2 if selector[index] == "\\" else 1
        elif char == "\\":
            index += 1
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            return True
        index += 1
    return False


def grouped(selector: str) -> str:
    """``selector`` made safe to extend on the right: a union is wrapped in ``:is(…)``."""
    return ":is(%s)" % selector if has_top_level_comma(selector) else selector
