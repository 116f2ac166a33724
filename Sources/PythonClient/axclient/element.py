"""The wire form of an accessibility element (Specs/protocol.md §Common shapes), as a dict with properties."""
from __future__ import annotations

from typing import Any, Dict, List, Optional


class Element(dict):
    """One element as the server sent it: a ``dict`` (all wire fields) with convenience properties.

    A snapshot, not a live handle: use a :class:`axclient.Locator` to act on what is on screen *now*.
    """

    @property
    def id(self) -> str:
        """The element id (``axid`` in selectors)."""
        return str(self.get("id", ""))

    @property
    def role(self) -> str:
        """The derived role (``button``, ``switch``, ``cell``…)."""
        return str(self.get("role", ""))

    @property
    def label(self) -> Optional[str]:
        """The accessibility label, or ``None``."""
        return self.get("label")

    @property
    def value(self) -> Optional[str]:
        """The accessibility value (``on``/``off`` for switches, ``50%`` for sliders…), or ``None``."""
        return self.get("value")

    @property
    def hint(self) -> Optional[str]:
        """The accessibility hint, or ``None``."""
        return self.get("hint")

    @property
    def identifier(self) -> Optional[str]:
        """The accessibility identifier (what ``#x`` selects), or ``None``."""
        return self.get("identifier")

    @property
    def states(self) -> List[str]:
        """State names (``enabled``, ``checked``, ``onscreen``, ``focused``…)."""
        states = self.get("states")
        return list(states) if isinstance(states, list) else []

    @property
    def traits(self) -> List[str]:
        """UIKit trait names."""
        traits = self.get("traits")
        return list(traits) if isinstance(traits, list) else []

    @property
    def frame(self) -> Dict[str, float]:
        """The screen frame ``{x, y, width, height}``."""
        frame = self.get("frame")
        return dict(frame) if isinstance(frame, dict) else {}

    @property
    def enabled(self) -> bool:
        """True when the ``enabled`` state is set."""
        return "enabled" in self.states

    @property
    def onscreen(self) -> bool:
        """True when the ``onscreen`` state is set (what ``visible`` means)."""
        return "onscreen" in self.states

    def describe(self) -> str:
        """A one-line summary like ``switch "Wi-Fi" value="on" #"cell.wifi" [enabled, checked]``."""
        return describe_element(self)


def describe_element(element: Optional[Dict[str, Any]]) -> str:
    """A one-line, ``axquery tree``-like summary of a wire element (``None`` → ``not attached``)."""
    if not isinstance(element, dict):
        return "not attached"
    parts = [str(element.get("role", "?"))]
    for key, template in (("label", "%s"), ("value", "value=%s")):
        value = element.get(key)
        if isinstance(value, str):
            parts.append(template % _quoted(value))
    identifier = element.get("identifier")
    if isinstance(identifier, str):
        parts.append("#" + _quoted(identifier))
    parts.append("(id %s)" % element.get("id", "?"))
    states = element.get("states")
    if isinstance(states, list):
        parts.append("[%s]" % ", ".join(str(state) for state in states))
    return " ".join(parts)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
