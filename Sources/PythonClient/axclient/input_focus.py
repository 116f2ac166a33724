"""The client's keyboard, focus engine and rotors (``client.keyboard``, ``client.focus_engine``,
``client.rotors``), with Playwright's names where Playwright has one (issue 26 item 2; methods of
Specs/protocol.md §Keys, §Focus engine, §Rotors). Every wrong argument reaches the server, whose typed error is
raised (``InvalidParams`` with ``data.accepted``…)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional
from .methods import Method

if TYPE_CHECKING:  # pragma: no cover
    from .client import Client, Target

#: Orca's modifier on the desktop layout: ``Orca+…`` chords hold it around the chord.
ORCA_MODIFIER_KEY = "Insert"


class Keyboard:
    """``client.keyboard``: keys as a keyboard sends them (``input.key``: a listening screen reader hears each
    first; keys it lets through go to the app, or move the server's focus engine for an app that asks it to)."""

    def __init__(self, client: "Client") -> None:
        self._client = client

    def _key(self, key: str, modifiers: Any = (), phase: str = "both", app: Optional[str] = None) -> Dict[str, Any]:
        params: Dict[str, Any] = {"key": key, "phase": phase}
        if modifiers:
            params["modifiers"] = list(modifiers)
        return self._client.call(Method.INPUT_KEY, self._client._with_app(params, app))

    def press(self, chord: str, app: Optional[str] = None) -> Dict[str, Any]:
        """Presses and releases a chord: ``"Tab"``, ``"Shift+Tab"``, ``"Return"``, ``"Control+Home"``,
        ``"Orca+Shift+A"`` (Orca = Insert, held around the chord). Returns the server's answer ``{consumed,
        handledBy, focus, assistiveTechnology}`` (for an Orca chord, the chord's)."""
        from .screen_reader import parse_chord
        key, modifiers, orca = parse_chord(chord)
        if not orca:
            return self._key(key, modifiers, app=app)
        self._key(ORCA_MODIFIER_KEY, phase="press", app=app)
        try:
            return self._key(key, modifiers, app=app)
        finally:
            self._key(ORCA_MODIFIER_KEY, phase="release", app=app)

    def down(self, key: str, app: Optional[str] = None) -> Dict[str, Any]:
        """Presses ``key`` (an X keysym name) without releasing it (``phase: press``)."""
        return self._key(key, phase="press", app=app)

    def up(self, key: str, app: Optional[str] = None) -> Dict[str, Any]:
        """Releases ``key`` (``phase: release``)."""
        return self._key(key, phase="release", app=app)

    def type(self, text: str, target: Optional["Target"] = None, app: Optional[str] = None) -> Dict[str, Any]:
        """Types ``text`` into ``target`` (default: the focused element): ``input.type`` → ``{typed, element}``."""
        from .client import to_target
        params: Dict[str, Any] = {"text": text}
        if target is not None:
            params["target"] = to_target(target)
        return self._client.call(Method.INPUT_TYPE, self._client._with_app(params, app))

    insert_text = type


class FocusEngine:
    """``client.focus_engine``: the server's UIKit focus engine (keyboard focus, Specs/protocol.md §Focus)."""

    def __init__(self, client: "Client") -> None:
        self._client = client

    def _call(self, method: str, params: Dict[str, Any], app: Optional[str]) -> Dict[str, Any]:
        return self._client.call(method, self._client._with_app(params, app))

    def move(self, direction: str = "next", app: Optional[str] = None) -> Dict[str, Any]:
        """``focus.move``: Tab (``next``), Shift+Tab (``previous``) or an arrow (``up``, ``down``, ``left``,
        ``right``); ``{from, to, moved, failure?…}``."""
        return self._call(Method.FOCUS_MOVE, {"direction": direction}, app)

    def query(self, direction: str = "next", from_: Optional["Target"] = None,
              app: Optional[str] = None) -> Dict[str, Any]:
        """``focus.query``: where focus would go, changing nothing."""
        from .client import to_target
        params: Dict[str, Any] = {"direction": direction}
        if from_ is not None:
            params["from"] = to_target(from_)
        return self._call(Method.FOCUS_QUERY, params, app)

    def explain(self, target: "Target", app: Optional[str] = None) -> Dict[str, Any]:
        """``focus.explain``: whether ``target`` can take focus, check by check."""
        from .client import to_target
        return self._call(Method.FOCUS_EXPLAIN, {"target": to_target(target)}, app)

    def status(self, app: Optional[str] = None) -> Dict[str, Any]:
        """``focus.status``: the engine's focus, groups, Tab sequence, guides."""
        return self._call(Method.FOCUS_STATUS, {}, app)

    def update(self, target: Optional["Target"] = None, app: Optional[str] = None) -> Dict[str, Any]:
        """``focus.update``: a focus request for ``target`` (or the default focus again)."""
        from .client import to_target
        return self._call(Method.FOCUS_UPDATE, {} if target is None else {"target": to_target(target)}, app)

    def items(self, app: Optional[str] = None) -> List[Any]:
        """``focus.items``: the focusable items in Tab order."""
        return list(self._call(Method.FOCUS_ITEMS, {}, app).get("items") or [])

    def activate(self, app: Optional[str] = None) -> Dict[str, Any]:
        """``focus.activate``: a press on the engine-focused item."""
        return self._call(Method.FOCUS_ACTIVATE, {}, app)


class Rotors:
    """``client.rotors``: VoiceOver's rotors (headings, links, an app's own lists…)."""

    def __init__(self, client: "Client") -> None:
        self._client = client

    def list(self, target: Optional["Target"] = None, app: Optional[str] = None) -> Dict[str, Any]:
        """``rotor.list``: ``{element, rotors[{name, count…}], unavailable[]}`` for ``target`` (default: the
        accessibility focus)."""
        from .client import to_target
        params: Dict[str, Any] = {} if target is None else {"target": to_target(target)}
        return self._client.call(Method.ROTOR_LIST, self._client._with_app(params, app))

    def _step(self, method: str, rotor: str, from_: Any, move_focus: bool, app: Optional[str]) -> Dict[str, Any]:
        from .client import to_target
        params: Dict[str, Any] = {"rotor": rotor, "moveFocus": move_focus}
        if from_ is not _UNSET:
            params["from"] = None if from_ is None else to_target(from_)
        return self._client.call(method, self._client._with_app(params, app))

    def next(self, rotor: str, from_: Any = None, move_focus: bool = True,
             app: Optional[str] = None) -> Dict[str, Any]:
        """``rotor.next``: the next item of ``rotor`` after ``from_`` (default: the accessibility focus)."""
        return self._step(Method.ROTOR_NEXT, rotor, _UNSET if from_ is None else from_, move_focus, app)

    def previous(self, rotor: str, from_: Any = None, move_focus: bool = True,
                 app: Optional[str] = None) -> Dict[str, Any]:
        """``rotor.previous``: the item of ``rotor`` before ``from_`` (default: the accessibility focus)."""
        return self._step(Method.ROTOR_PREVIOUS, rotor, _UNSET if from_ is None else from_, move_focus, app)


_UNSET = object()
