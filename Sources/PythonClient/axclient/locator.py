"""Playwright-style locators: lazy selectors, resolved at every use, with auto-waiting actions."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

from . import selector as selectors
from .element import Element, describe_element
from .errors import NoSuchElement, NotInteractable, Timeout
from .methods import Method

if TYPE_CHECKING:
    from .client import Client

#: What a failed actionability check waits for before the action is tried again.
_WAIT_FOR_REASON = {"offscreen": "visible", "hidden": "visible", "disabled": "enabled", "not hittable": "hittable"}


class Locator:
    """A selector bound to a client (and optionally an app). Nothing is looked up until it is used.

    Actions (:meth:`click`, :meth:`increment`, :meth:`fill`…) are strict (several matches raise
    :class:`AmbiguousMatch`, after the server keeps only onscreen ones) and auto-waiting: when the target is not
    attached, not visible, not enabled (or, for a click, not hittable) the locator waits server-side for that state
    — woken by tree revisions, never by polling — and tries again, until ``timeout`` seconds (default: the client's
    ``timeout``) have passed. Readers (:meth:`value`, :meth:`label`…) wait for the element to be attached.
    """

    def __init__(self, client: "Client", selector: str, app: Optional[str] = None) -> None:
        if not isinstance(selector, str) or not selector.strip():
            raise ValueError("a locator needs a non-empty selector string")
        self._client = client
        self.selector = selector
        self.app = app

    def __repr__(self) -> str:
        return "locator(%r)" % self.selector

    @property
    def client(self) -> "Client":
        """The client this locator uses."""
        return self._client

    # -- refining ----------------------------------------------------------------------------------------------

    def locator(self, selector: Union[str, "Locator"]) -> "Locator":
        """Matches ``selector`` inside each match of this locator (``self >> selector``)."""
        inner = selector.selector if isinstance(selector, Locator) else selector
        return Locator(self._client, "%s >> %s" % (selectors.grouped(self.selector), selectors.grouped(inner)),
                       self.app)

    def get_by_role(self, role: str, name: Optional[selectors.TextMatch] = None, exact: bool = False,
                    **options: Any) -> "Locator":
        """``get_by_role`` inside this locator's matches."""
        return self.locator(selectors.role_selector(role, name, exact, **options))

    def get_by_label(self, label: selectors.TextMatch, exact: bool = True) -> "Locator":
        """``get_by_label`` inside this locator's matches."""
        return self.locator(selectors.attribute_test("label", label, exact))

    def get_by_id(self, identifier: str) -> "Locator":
        """``get_by_id`` inside this locator's matches."""
        return self.locator(selectors.id_selector(identifier))

    def get_by_text(self, text: selectors.TextMatch) -> "Locator":
        """``get_by_text`` inside this locator's matches."""
        return self.locator(selectors.text_pseudo(text))

    def nth(self, index: int) -> "Locator":
        """The ``index``-th match (0-based; negative counts from the end) of all matches, in document order."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("nth() takes an int")
        return Locator(self._client, ":is(%s):nth(%d)" % (self.selector, index), self.app)

    def first(self) -> "Locator":
        """The first match (``nth(0)``)."""
        return self.nth(0)

    def last(self) -> "Locator":
        """The last match (``nth(-1)``)."""
        return self.nth(-1)

    def filter(self, has_text: Optional[selectors.TextMatch] = None, has: Optional[Union[str, "Locator"]] = None,
               has_not: Optional[Union[str, "Locator"]] = None, visible: Optional[bool] = None) -> "Locator":
        """Keeps matches containing ``has_text`` (label/value/text), having a descendant ``has``, lacking one
        ``has_not``, and/or being (not) visible."""
        parts = [":is(%s)" % self.selector]
        if has_text is not None:
            parts.append(selectors.text_pseudo(has_text))
        if has is not None:
            parts.append(":has(%s)" % (has.selector if isinstance(has, Locator) else has))
        if has_not is not None:
            parts.append(":not(:has(%s))" % (has_not.selector if isinstance(has_not, Locator) else has_not))
        if visible is not None:
            parts.append(":visible" if visible else ":hidden")
        return Locator(self._client, "".join(parts), self.app)

    def and_(self, other: Union[str, "Locator"]) -> "Locator":
        """Matches of both locators."""
        other_selector = other.selector if isinstance(other, Locator) else other
        return Locator(self._client, ":is(%s):is(%s)" % (self.selector, other_selector), self.app)

    def or_(self, other: Union[str, "Locator"]) -> "Locator":
        """Matches of either locator."""
        other_selector = other.selector if isinstance(other, Locator) else other
        return Locator(self._client, "%s, %s" % (self.selector, other_selector), self.app)

    # -- reading -----------------------------------------------------------------------------------------------

    def _target(self) -> Dict[str, Any]:
        return {"selector": self.selector}

    def _params(self, extra: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        params: Dict[str, Any] = {"target": self._target()}
        if extra:
            params.update(extra)
        if self.app is not None:
            params["app"] = self.app
        return params

    def count(self) -> int:
        """How many elements match now (never waits)."""
        return self._client.query_count(self.selector, app=self.app)

    def all(self) -> List["Locator"]:
        """One locator per current match (``nth(0)``, ``nth(1)``…)."""
        return [self.nth(index) for index in range(self.count())]

    def elements(self) -> List[Element]:
        """Every current match as an :class:`Element` snapshot (never waits)."""
        return self._client.query_all(self.selector, app=self.app)

    def explain(self) -> Dict[str, Any]:
        """``query.explain`` for this selector."""
        return self._client.explain(self.selector, app=self.app)

    def element(self, timeout: Optional[float] = None) -> Element:
        """Waits until exactly one element is attached and returns it (strict)."""
        try:
            return self.details()
        except NoSuchElement:
            pass
        result = self.wait_for("attached", timeout=timeout)
        element = result.get("element")
        if isinstance(element, dict):
            return Element(element)
        return self._client.element(self._target(), app=self.app)

    def details(self) -> Element:
        """``element.get`` now (no waiting): the element plus ``visible``, ``hittable``, ``focused``, ``ancestors``."""
        return self._client.element(self._target(), app=self.app)

    def label(self, timeout: Optional[float] = None) -> Optional[str]:
        """The accessibility label (waits for the element to be attached)."""
        return self.element(timeout).label

    def value(self, timeout: Optional[float] = None) -> Optional[str]:
        """The accessibility value (waits for the element to be attached)."""
        return self.element(timeout).value

    def hint(self, timeout: Optional[float] = None) -> Optional[str]:
        """The accessibility hint (waits for the element to be attached)."""
        return self.element(timeout).hint

    def role(self, timeout: Optional[float] = None) -> str:
        """The role (waits for the element to be attached)."""
        return self.element(timeout).role

    def states(self, timeout: Optional[float] = None) -> List[str]:
        """The state names (waits for the element to be attached)."""
        return self.element(timeout).states

    def _now(self) -> Optional[Element]:
        try:
            return self.details()
        except NoSuchElement:
            return None

    def is_visible(self) -> bool:
        """True when exactly one element matches now and it is onscreen; False when none (never waits)."""
        element = self._now()
        return element is not None and bool(element.get("visible"))

    def is_hidden(self) -> bool:
        """The opposite of :meth:`is_visible`."""
        return not self.is_visible()

    def is_enabled(self) -> bool:
        """True when the element has the ``enabled`` state (never waits; :class:`NoSuchElement` if absent)."""
        return self.details().enabled

    def is_disabled(self) -> bool:
        """True when the element lacks the ``enabled`` state."""
        return not self.is_enabled()

    def is_checked(self) -> bool:
        """True when the element has the ``checked`` state (a switch that is on)."""
        return "checked" in self.details().states

    def is_selected(self) -> bool:
        """True when the element has the ``selected`` state."""
        return "selected" in self.details().states

    def is_focused(self) -> bool:
        """True when the element has accessibility focus."""
        return bool(self.details().get("focused"))

    def wait_for(self, state: str = "visible", value: Optional[str] = None,
                 timeout: Optional[float] = None) -> Dict[str, Any]:
        """Waits server-side for ``state`` (see :meth:`Client.wait_for`); raises :class:`Timeout`."""
        return self._client.wait_for(self._target(), state, value=value, timeout=timeout, app=self.app)

    # -- acting ------------------------------------------------------------------------------------------------

    def _act(self, method: str, extra: Optional[Dict[str, Any]] = None, timeout: Optional[float] = None,
             force: bool = False) -> Dict[str, Any]:
        seconds = self._client.default_timeout if timeout is None else float(timeout)
        deadline = time.monotonic() + seconds
        params = self._params(extra)
        if force:
            params["force"] = True
        previous_failure = None
        while True:
            changes_before = self._client.change_count()
            try:
                return self._client.call(method, params)
            except NoSuchElement as error:
                state = "visible" if error.reason == "hidden" else "attached"
                failure = (NoSuchElement, state)
                last_error: Exception = error
            except NotInteractable as error:
                state = _WAIT_FOR_REASON.get(error.reason or "")
                if state is None or force:
                    raise
                failure = (NotInteractable, error.reason)
                last_error = error
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise last_error
            # Subscribed from the first failure on, so that the count read before the next try is exact.
            self._client._ensure_change_feed(self.app)
            if failure == previous_failure:
                # The wait said the state holds but the action still failed the same check: wait for the tree to
                # change before trying again (never a busy loop).
                if not self._client.wait_for_change(changes_before, remaining):
                    raise last_error
            previous_failure = failure
            try:
                self._client.wait_for(self._target(), state, timeout=max(0.0, deadline - time.monotonic()),
                                      app=self.app)
            except Timeout as error:
                hint = ""
                if isinstance(last_error, NoSuchElement) and last_error.explain_summary:
                    hint = " (%s)" % last_error.explain_summary
                raise Timeout("%s on %s: waited %.2f s for the element to be %s; last state: %s%s"
                              % (method, self.selector, seconds, state, describe_element(error.last_state), hint),
                              code=error.code, data=error.data, method=method) from last_error

    def click(self, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """Activates the element (VoiceOver double tap, ``action.activate``) once it is visible, enabled and
        hittable. Returns ``{performed, element, revisionBefore, revisionAfter}``."""
        return self._act(Method.ACTION_ACTIVATE, timeout=timeout, force=force)

    activate = click

    def tap(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """A tap through UIKit hit testing at the element (``action.tap``): the view under the point receives it."""
        return self._act(Method.ACTION_TAP, timeout=timeout)

    def increment(self, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """``action.increment`` (adjustable elements)."""
        return self._act(Method.ACTION_INCREMENT, timeout=timeout, force=force)

    def decrement(self, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """``action.decrement`` (adjustable elements)."""
        return self._act(Method.ACTION_DECREMENT, timeout=timeout, force=force)

    def fill(self, text: str, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """Replaces the text of a text input (``action.setValue``)."""
        return self._act(Method.ACTION_SET_VALUE, {"value": text}, timeout=timeout, force=force)

    def set_value(self, value: str, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """``action.setValue``."""
        return self._act(Method.ACTION_SET_VALUE, {"value": value}, timeout=timeout, force=force)

    def type_text(self, text: str, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """Types text at the insertion point (``action.typeText``)."""
        return self._act(Method.ACTION_TYPE_TEXT, {"text": text}, timeout=timeout, force=force)

    def scroll(self, direction: str = "down", timeout: Optional[float] = None,
               force: bool = False) -> Dict[str, Any]:
        """``action.scroll`` (up, down, left, right, next, previous); bubbles up the view ancestors."""
        return self._act(Method.ACTION_SCROLL, {"direction": direction}, timeout=timeout, force=force)

    def custom_action(self, name: str, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """Performs a custom action by name or id (``action.custom``)."""
        return self._act(Method.ACTION_CUSTOM, {"name": name}, timeout=timeout, force=force)

    def escape(self, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """``action.escape`` (the two-finger Z): bubbles up until something handles it."""
        return self._act(Method.ACTION_ESCAPE, timeout=timeout, force=force)

    def magic_tap(self, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """``action.magicTap``."""
        return self._act(Method.ACTION_MAGIC_TAP, timeout=timeout, force=force)

    def zoom_in(self, point: Optional[Dict[str, float]] = None, timeout: Optional[float] = None,
                force: bool = False) -> Dict[str, Any]:
        """``action.zoomIn`` on a ``supportsZoom`` element; ``point`` ``{x, y}`` in screen coordinates (default: the
        element's centre) (D-ZOOM-1)."""
        return self._act(Method.ACTION_ZOOM_IN, {} if point is None else {"point": point}, timeout=timeout, force=force)

    def zoom_out(self, point: Optional[Dict[str, float]] = None, timeout: Optional[float] = None,
                 force: bool = False) -> Dict[str, Any]:
        """``action.zoomOut`` on a ``supportsZoom`` element (D-ZOOM-1)."""
        return self._act(Method.ACTION_ZOOM_OUT, {} if point is None else {"point": point}, timeout=timeout,
                         force=force)

    def drag(self, name: str, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """``action.drag``: starts a drag from the element's drag source descriptor ``name`` (D-DRAG-1)."""
        return self._act(Method.ACTION_DRAG, {"name": name}, timeout=timeout, force=force)

    def drop(self, name: str, timeout: Optional[float] = None, force: bool = False) -> Dict[str, Any]:
        """``action.drop``: drops at the element's drop point descriptor ``name`` (D-DRAG-1)."""
        return self._act(Method.ACTION_DROP, {"name": name}, timeout=timeout, force=force)

    def focus(self, timeout: Optional[float] = None) -> Optional[str]:
        """Moves accessibility focus here (``focus.set``) once the element is attached."""
        self.element(timeout)
        return self._client.set_focus(self._target(), app=self.app)

    def press(self, chord: str, timeout: Optional[float] = None) -> Dict[str, Any]:
        """Playwright's ``locator.press``: once the element is attached, gives it keyboard focus (the focus
        engine's ``focus.update``) and presses ``chord`` (``"Return"``, ``"space"``, ``"Shift+Tab"``…) as a
        keyboard does (``input.key``). Returns the key's answer."""
        element = self.element(timeout)
        self._client.focus_engine.update({"id": element.id}, app=self.app)
        return self._client.keyboard.press(chord, app=self.app)

    def speech(self, model: Optional[str] = None, timeout: Optional[float] = None,
               screen_reader: Optional[str] = None) -> Dict[str, Any]:
        """``speech.describe`` of the element (VoiceOver's and Orca's words) once it is attached (``screen_reader``:
        ``"orca-43"`` or ``"orca-48"``)."""
        element = self.element(timeout)
        return self._client.speech({"id": element.id}, model=model, app=self.app, screen_reader=screen_reader)

    def explain_focus(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """``focus.explain``: whether the element can take keyboard focus, check by check."""
        element = self.element(timeout)
        return self._client.focus_engine.explain({"id": element.id}, app=self.app)

    def audit(self, **options: Any) -> Dict[str, Any]:
        """``audit.run`` on the subtree of the (one) element (see :meth:`Client.audit`)."""
        return self._client.audit(root=self._target(), app=self.app, **options)
