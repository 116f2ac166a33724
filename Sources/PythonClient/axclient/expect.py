"""``expect(locator)`` assertions that wait (woken by tree revisions) and fail with the server's last state."""
from __future__ import annotations

import re
from typing import Any, Callable, List, Optional, Pattern, Tuple, Union

from .element import Element, describe_element
from .errors import AXError, AmbiguousMatch, ClientTimeout, NoSuchElement, Timeout
from .locator import Locator

Expected = Union[str, Pattern[str]]


def expect(locator: Any, timeout: Optional[float] = None) -> Any:
    """Assertions about ``locator`` that retry until they hold or ``timeout`` seconds pass (default: the
    client's ``timeout``); a failure raises :class:`AssertionError` naming what was expected and the element as the
    server last saw it. ``expect(locator).not_`` negates every assertion. ``expect(screen_reader)`` gives the
    assertions on what Orca said (:class:`axclient.screen_reader.ScreenReaderAssertions`: ``to_say``,
    ``to_have_said``, ``to_match_preview``)."""
    from .screen_reader import ScreenReader, ScreenReaderAssertions
    if isinstance(locator, ScreenReader):
        return ScreenReaderAssertions(locator, timeout, negated=False)
    if not isinstance(locator, Locator):
        raise TypeError("expect() takes a Locator (client.locator(...), client.get_by_role(...)…) or a "
                        "ScreenReader (the screen_reader fixture)")
    return LocatorAssertions(locator, timeout, negated=False)


class LocatorAssertions:
    """The assertions returned by :func:`expect`. Positive single-state checks wait server-side with ``wait.for``;
    counts, regexes, states and negations re-check after every ``tree.changed``/``focus.changed`` event."""

    def __init__(self, locator: Locator, timeout: Optional[float], negated: bool) -> None:
        self._locator = locator
        self._timeout = timeout
        self._negated = negated

    @property
    def not_(self) -> "LocatorAssertions":
        """The negated assertions (``expect(x).not_.to_be_visible()``)."""
        return LocatorAssertions(self._locator, self._timeout, not self._negated)

    # -- machinery ---------------------------------------------------------------------------------------------

    def _seconds(self, timeout: Optional[float]) -> float:
        if timeout is not None:
            return float(timeout)
        if self._timeout is not None:
            return float(self._timeout)
        return self._locator.client.default_timeout

    def _fail(self, expectation: str, seconds: float, last: str) -> None:
        if last == "not attached":
            try:
                summary = self._locator.explain().get("summary")
            except AXError:
                summary = None
            if isinstance(summary, str) and summary:
                last += " (%s)" % summary
        raise AssertionError("expect(%r).%s%s failed after %.2f s: last state: %s"
                             % (self._locator, "not_." if self._negated else "", expectation, seconds, last))

    def _server_wait(self, state: str, expectation: str, value: Optional[str], timeout: Optional[float]) -> None:
        seconds = self._seconds(timeout)
        try:
            self._locator.wait_for(state, value=value, timeout=seconds)
        except Timeout as error:
            self._fail(expectation, seconds, describe_element(error.last_state))
        except AmbiguousMatch as error:
            self._fail(expectation, seconds, "%d elements match (strict): %s" % (
                error.data.get("count", 0), "; ".join(describe_element(c) for c in error.candidates[:5])))

    def _client_wait(self, probe: Callable[[Optional[Element]], bool], expectation: str,
                     timeout: Optional[float], read: Optional[Callable[[], Tuple[Any, str]]] = None) -> None:
        """Re-evaluates ``probe`` (on the element now, ``None`` when absent) after every change."""
        seconds = self._seconds(timeout)
        last = ["not evaluated"]

        def check() -> bool:
            if read is not None:
                observed, shown = read()
                last[0] = shown
                outcome = bool(observed)
            else:
                try:
                    element: Optional[Element] = self._locator.details()
                except NoSuchElement:
                    element = None
                except AmbiguousMatch as error:
                    last[0] = "%d elements match (strict)" % error.data.get("count", 0)
                    return False
                last[0] = describe_element(element)
                outcome = probe(element)
            return outcome != self._negated

        try:
            self._locator.client.wait_until(check, timeout=seconds, app=self._locator.app, description=expectation)
        except ClientTimeout:
            self._fail(expectation, seconds, last[0])

    @staticmethod
    def _matches(actual: Optional[str], expected: Expected) -> bool:
        if actual is None:
            return False
        if isinstance(expected, re.Pattern):
            return expected.search(actual) is not None
        return actual == expected

    # -- assertions --------------------------------------------------------------------------------------------

    def to_have_value(self, value: Expected, timeout: Optional[float] = None) -> None:
        """The element's accessibility value equals ``value`` (or matches the compiled regex)."""
        expectation = "to_have_value(%r)" % (value,)
        if isinstance(value, str) and not self._negated:
            self._server_wait("value", expectation, value, timeout)
        else:
            self._client_wait(lambda element: element is not None and self._matches(element.value, value),
                              expectation, timeout)

    def to_have_text(self, text: Expected, timeout: Optional[float] = None) -> None:
        """Playwright's ``to_have_text`` for accessibility elements: the text the element shows is its label (a
        static text, a button's title) or its value (a text field's contents); either equals ``text`` (or
        matches the compiled regex)."""
        expectation = "to_have_text(%r)" % (text,)
        self._client_wait(lambda element: element is not None and (self._matches(element.label, text)
                                                                     or self._matches(element.value, text)),
                          expectation, timeout)

    def to_have_label(self, label: Expected, timeout: Optional[float] = None) -> None:
        """The element's accessibility label equals ``label`` (or matches the compiled regex)."""
        expectation = "to_have_label(%r)" % (label,)
        if isinstance(label, str) and not self._negated:
            self._server_wait("label", expectation, label, timeout)
        else:
            self._client_wait(lambda element: element is not None and self._matches(element.label, label),
                              expectation, timeout)

    def _state(self, positive: str, negative: str, expectation: str, timeout: Optional[float]) -> None:
        self._server_wait(negative if self._negated else positive, expectation, None, timeout)

    def to_be_visible(self, timeout: Optional[float] = None) -> None:
        """Exactly one element matches and it is onscreen."""
        self._state("visible", "hidden", "to_be_visible()", timeout)

    def to_be_hidden(self, timeout: Optional[float] = None) -> None:
        """Nothing matches, or the match is offscreen."""
        self._state("hidden", "visible", "to_be_hidden()", timeout)

    def to_be_attached(self, timeout: Optional[float] = None) -> None:
        """Exactly one element matches (onscreen or not)."""
        self._state("attached", "detached", "to_be_attached()", timeout)

    def to_be_detached(self, timeout: Optional[float] = None) -> None:
        """Nothing matches."""
        self._state("detached", "attached", "to_be_detached()", timeout)

    def to_be_enabled(self, timeout: Optional[float] = None) -> None:
        """The element has the ``enabled`` state."""
        self._state("enabled", "disabled", "to_be_enabled()", timeout)

    def to_be_disabled(self, timeout: Optional[float] = None) -> None:
        """The element lacks the ``enabled`` state."""
        self._state("disabled", "enabled", "to_be_disabled()", timeout)

    def to_be_focused(self, timeout: Optional[float] = None) -> None:
        """The element has accessibility focus."""
        if self._negated:
            self._client_wait(lambda element: element is not None and bool(element.get("focused")),
                              "to_be_focused()", timeout)
        else:
            self._server_wait("focused", "to_be_focused()", None, timeout)

    def to_be_hittable(self, timeout: Optional[float] = None) -> None:
        """A tap at the element's activation point reaches it."""
        if self._negated:
            self._client_wait(lambda element: element is not None and bool(element.get("hittable")),
                              "to_be_hittable()", timeout)
        else:
            self._server_wait("hittable", "to_be_hittable()", None, timeout)

    def to_have_state(self, state: str, timeout: Optional[float] = None) -> None:
        """The element's ``states`` contain ``state`` (``checked``, ``selected``, ``editable``…)."""
        self._client_wait(lambda element: element is not None and state in element.states,
                          "to_have_state(%r)" % state, timeout)

    def to_be_checked(self, timeout: Optional[float] = None) -> None:
        """The element has the ``checked`` state (a switch that is on)."""
        self._client_wait(lambda element: element is not None and "checked" in element.states,
                          "to_be_checked()", timeout)

    def to_be_selected(self, timeout: Optional[float] = None) -> None:
        """The element has the ``selected`` state."""
        self._client_wait(lambda element: element is not None and "selected" in element.states,
                          "to_be_selected()", timeout)

    def to_have_count(self, count: int, timeout: Optional[float] = None) -> None:
        """Exactly ``count`` elements match."""
        locator = self._locator

        def read() -> Tuple[bool, str]:
            current = locator.count()
            return current == count, "%d element%s match" % (current, "" if current == 1 else "s")

        self._client_wait(lambda element: False, "to_have_count(%d)" % count, timeout, read=read)

    def to_have_attribute(self, name: str, value: Expected, timeout: Optional[float] = None) -> None:
        """A wire attribute of the element (``hint``, ``identifier``, ``placeholder``…) equals/matches ``value``."""
        def probe(element: Optional[Element]) -> bool:
            if element is None:
                return False
            actual = element.get(name)
            return isinstance(actual, str) and self._matches(actual, value)

        self._client_wait(probe, "to_have_attribute(%r, %r)" % (name, value), timeout)


__all__: List[str] = ["expect", "LocatorAssertions"]
