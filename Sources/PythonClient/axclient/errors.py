"""Typed exceptions: one class per JSON-RPC error code of Specs/protocol.md §Errors, plus client-side failures.

Every server error becomes an instance of the class registered for its code (an unknown code becomes
:class:`RPCError`), carrying ``code``, ``message`` and ``data`` exactly as the server sent them.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Type


class AXError(Exception):
    """Base class of every exception this package raises.

    Attributes: ``code`` (the JSON-RPC error code, or ``None`` for a client-side failure), ``message`` (the
    server's message), ``data`` (the server's ``data`` object, ``{}`` when absent) and ``method`` (the call that
    failed, when known).
    """

    code: Optional[int] = None

    def __init__(self, message: str, code: Optional[int] = None, data: Optional[Dict[str, Any]] = None,
                 method: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.data: Dict[str, Any] = data if isinstance(data, dict) else {}
        self.method = method

    @property
    def kind(self) -> Optional[str]:
        """The WebDriver-style ``data.kind`` string (e.g. ``"no such element"``), if the server sent one."""
        kind = self.data.get("kind")
        return kind if isinstance(kind, str) else None

    @property
    def reason(self) -> Optional[str]:
        """``data.reason`` (e.g. ``"disabled"`` for :class:`NotInteractable`), if present."""
        reason = self.data.get("reason")
        return reason if isinstance(reason, str) else None

    def __str__(self) -> str:
        prefix = "" if self.code is None else "[%d] " % self.code
        where = "" if not self.method else "%s: " % self.method
        return where + prefix + self.message


class AXConnectionError(AXError, ConnectionError):
    """The server could not be reached, or the connection closed while a call was waiting."""


class NoServer(AXConnectionError):
    """No axserver answers at the address tried (−32024 "no server", the clients' code; Specs/protocol.md)."""

    code = -32024


class ClientTimeout(AXError, TimeoutError):
    """No answer (or no awaited event) arrived within the client-side timeout. Not a server error."""


class RPCError(AXError):
    """An error answer from the server (any code). Subclasses below name the codes of Specs/protocol.md."""


class ParseError(RPCError):
    """−32700: the server could not parse what was sent."""
    code = -32700


class InvalidRequest(RPCError):
    """−32600: not a valid JSON-RPC request."""
    code = -32600


class MethodNotFound(RPCError):
    """−32601: the server has no such method (``data.method``)."""
    code = -32601


class InvalidArgument(RPCError):
    """−32602: bad or missing params (``data.param``; for patches ``data.reason``, ``opIndex``...)."""
    code = -32602


InvalidParams = InvalidArgument


class InternalError(RPCError):
    """−32603: a bug in the server (the message says what)."""
    code = -32603


class NotInitialized(RPCError):
    """−32002: a method was called before ``initialize``."""
    code = -32002


class NoSuchElement(RPCError):
    """−32010: nothing matches (``data.selector``, ``data.explain`` with near misses), or an id is hidden."""
    code = -32010

    @property
    def explain_summary(self) -> Optional[str]:
        """The one-line near-miss summary (``0 button with label "Sumbit"; 1 button with label "Submit"``)."""
        explain = self.data.get("explain")
        if isinstance(explain, dict) and isinstance(explain.get("summary"), str):
            return explain["summary"]
        return None

    def __str__(self) -> str:
        text = super().__str__()
        summary = self.explain_summary
        return text if not summary else "%s (%s)" % (text, summary)


class AmbiguousMatch(RPCError):
    """−32011: a strict single-target operation matched several elements (``data.candidates``)."""
    code = -32011

    @property
    def candidates(self) -> list:
        """The first candidates the server listed (id, role, label, identifier, frame)."""
        candidates = self.data.get("candidates")
        return candidates if isinstance(candidates, list) else []

    def __str__(self) -> str:
        """The server's message, then the candidates one a line (as Playwright's strict-mode error lists them),
        unless the message names them already."""
        text = super().__str__()
        from .element import describe_element
        lines = [describe_element(c) for c in self.candidates if isinstance(c, dict)]
        lines = [line for line in lines if line not in text]
        if not lines:
            return text
        more = self.data.get("count")
        header = "candidates" + (" (first %d of %d)" % (len(self.candidates), more)
                                 if isinstance(more, int) and more > len(self.candidates) else "")
        return text + "\n  " + header + ":\n" + "\n".join("    " + line for line in lines)


class StaleElement(RPCError):
    """−32012: the element id was in the tree and has been removed."""
    code = -32012


class NotInteractable(RPCError):
    """−32013: the target failed an actionability check; ``reason`` is offscreen, disabled, not hittable…"""
    code = -32013


class ActionNotSupported(RPCError):
    """−32014: the element does not support the action (``data.supported`` lists what it does)."""
    code = -32014


class InvalidSelector(RPCError):
    """−32015: the selector does not parse (``data.position``, ``expected``, ``found``)."""
    code = -32015


class Timeout(RPCError, TimeoutError):
    """−32016: a server-side wait timed out; ``last_state`` is the element as last seen (or ``None``)."""
    code = -32016

    @property
    def last_state(self) -> Optional[Dict[str, Any]]:
        """The element as the server last saw it while waiting, or ``None`` when it was not attached."""
        state = self.data.get("lastState")
        return state if isinstance(state, dict) else None


class PolicyDenied(RPCError):
    """−32017: a guided-access restriction guarding the element is denied (``data.restriction``)."""
    code = -32017


class Forbidden(RPCError):
    """−32018: the connection's role may not call this method (``data.needs``: provider or operator)."""
    code = -32018


class Unauthorized(RPCError):
    """−32019: TCP without the right token, or a wrong operator token."""
    code = -32019


class AppNotResponding(RPCError):
    """−32020: the app did not answer an action in time (``reason``: timeout or disconnected)."""
    code = -32020


class MessageTooLarge(RPCError):
    """−32021: a frame exceeded the server's limit (``data.limit``); the server closes the connection."""
    code = -32021


class Cancelled(RPCError):
    """−32800: the request was cancelled."""
    code = -32800


class ContentModified(RPCError):
    """−32801: ``hierarchy.update`` with a stale ``baseRevision``."""
    code = -32801


ERROR_CLASSES: Dict[int, Type[RPCError]] = {
    cls.code: cls for cls in (
        ParseError, InvalidRequest, MethodNotFound, InvalidArgument, InternalError, NotInitialized,
        NoSuchElement, AmbiguousMatch, StaleElement, NotInteractable, ActionNotSupported, InvalidSelector,
        Timeout, PolicyDenied, Forbidden, Unauthorized, AppNotResponding, MessageTooLarge, Cancelled,
        ContentModified,
    )
}


def error_from_wire(error: Any, method: Optional[str] = None) -> RPCError:
    """Builds the typed exception for a JSON-RPC ``error`` member (checked: a malformed one is still an error)."""
    if not isinstance(error, dict):
        return RPCError("malformed error object from the server: %r" % (error,), code=None, method=method)
    code = error.get("code")
    message = error.get("message")
    if not isinstance(message, str):
        message = "(no message)"
    data = error.get("data")
    if isinstance(code, bool) or not isinstance(code, int):
        return RPCError(message, code=None, data=data, method=method)
    cls = ERROR_CLASSES.get(code, RPCError)
    return cls(message, code=code, data=data, method=method)
