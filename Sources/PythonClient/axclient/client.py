"""The automation client: connect, call any method, read the tree, query, wait, act, subscribe to events."""
from __future__ import annotations

import os
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Union

from . import selector as selectors
from .connection import DEFAULT_MAX_MESSAGE_BYTES, Connection, resolve_address
from .element import Element, describe_element
from .errors import AXConnectionError, ClientTimeout, InvalidArgument
from .events import EventStream
from .input_focus import FocusEngine, Keyboard, Rotors
from .locator import Locator
from .settings import AccessibilitySettings
from .tree_reply import decode_tree_answer
from .methods import Method

__version__ = "0.1.0"

Target = Union[str, Dict[str, Any], "Locator", Element]

WAIT_STATES = ("attached", "detached", "visible", "hidden", "hittable", "enabled", "disabled", "focused", "value",
               "label")


def to_target(target: Target) -> Dict[str, Any]:
    """Turns a selector string, a :class:`Locator`, an :class:`Element` or a target dict into a wire target."""
    if isinstance(target, Locator):
        return {"selector": target.selector}
    if isinstance(target, Element):
        return {"id": target.id}
    if isinstance(target, str):
        return {"selector": target}
    if isinstance(target, dict):
        return target
    raise TypeError("a target is a selector string, a Locator, an Element or a {'id'|'selector'|'ast': …} dict")


def _read_token(token: Optional[str], token_file: Optional[str]) -> Optional[str]:
    if token is not None:
        return token
    if token_file is not None:
        with open(token_file, "r", encoding="utf-8") as handle:
            return handle.readline().strip()
    return os.environ.get("AXSERVER_TOKEN") or None


class Client:
    """A connection to AXServer for test scripts (role *automation* by default).

    ``address``: a Unix socket path, ``unix:PATH`` or ``tcp:HOST:PORT`` (then ``token``/``token_file``, else
    ``$AXSERVER_TOKEN``). Without an address: ``$AXSERVER_SOCKET``, else ``$XDG_RUNTIME_DIR/axserver.sock``,
    else ``/tmp/axserver-$UID/axserver.sock``.

    ``timeout`` (seconds) is the default for auto-waiting actions, ``expect`` and waits; ``call_timeout`` bounds
    every plain call. ``app`` picks the app for everything (default: the server's default app).

    Thread-safe: several threads may call at once; answers are matched by id. Server-side waits (``wait.for``) go
    over connections of their own (one per concurrent wait, kept for reuse) unless the server announces
    ``$/cancelRequest`` (concurrent requests on one connection), so a long wait never delays other calls
    (``wait_connection=False`` turns that off).

    Use as a context manager, or call :meth:`close`.
    """

    def __init__(self, address: Optional[str] = None, *, token: Optional[str] = None,
                 token_file: Optional[str] = None, role: str = "automation", operator_token: Optional[str] = None,
                 client_name: str = "axclient", app: Optional[str] = None, timeout: float = 5.0,
                 call_timeout: float = 30.0, connect_timeout: float = 10.0,
                 wait_connection: Union[bool, str] = "auto",
                 max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> None:
        self.default_timeout = float(timeout)
        self.call_timeout = float(call_timeout)
        self.app = app
        self.role = role
        self._token = _read_token(token, token_file)
        self._client_name = client_name
        self._connect_timeout = connect_timeout
        self._max_message_bytes = max_message_bytes
        self._sinks: Dict[Any, Callable[[str, Dict[str, Any]], None]] = {}
        self._sinks_lock = threading.Lock()
        self._change = threading.Condition()
        self._change_count = 0
        self._feeds: Dict[str, Any] = {}
        self._feed_lock = threading.Lock()
        self._idle_waiters: List[Connection] = []
        self._waiters: List[Connection] = []
        self._aux_lock = threading.Lock()
        self._registered_app: Optional[str] = None
        # The trace recorder every request passes through while a trace runs (start_trace; axclient.trace).
        self._tracer: Any = None
        #: Handlers for server→client requests by method (``action.perform`` for providers).
        self.request_handlers: Dict[str, Callable[[Dict[str, Any]], Any]] = {}
        if resolve_address(address)[0] == "tcp" and self._token is None:
            raise AXConnectionError("a TCP address needs token=, token_file= or $AXSERVER_TOKEN")
        self._conn = Connection(address, connect_timeout, on_notification=self._on_notification,
                                on_request=self._on_request, max_message_bytes=max_message_bytes,
                                name=client_name)
        try:
            result = self._initialize(self._conn, role, operator_token)
        except BaseException:
            self._conn.close()
            raise
        #: The ``initialize`` result: ``protocolVersion``, ``serverInfo``, ``capabilities``.
        self.server = result if isinstance(result, dict) else {}
        capabilities = self.server.get("capabilities")
        methods = capabilities.get("methods") if isinstance(capabilities, dict) else None
        self.server_methods: List[str] = list(methods) if isinstance(methods, list) else []
        if wait_connection == "auto":
            self._wait_on_aux = Method.CANCEL_REQUEST not in self.server_methods
        else:
            self._wait_on_aux = bool(wait_connection)

    # -- connection --------------------------------------------------------------------------------------------

    def _initialize(self, conn: Connection, role: str, operator_token: Optional[str]) -> Any:
        params: Dict[str, Any] = {"clientInfo": {"name": self._client_name, "version": __version__}}
        if role != "automation":
            params["role"] = role
        if operator_token is not None:
            params["operatorToken"] = operator_token
        if conn.kind == "tcp":
            params["token"] = self._token
        return conn.call(Method.INITIALIZE, params, timeout=self.call_timeout)

    @property
    def address(self) -> str:
        """The address connected to (socket path or ``tcp:HOST:PORT``)."""
        return self._conn.address

    @property
    def closed(self) -> bool:
        """True once the connection is closed."""
        return self._conn.closed

    def close(self) -> None:
        """Closes the connection(s); pending calls fail with :class:`AXConnectionError`."""
        with self._aux_lock:
            waiters = list(self._waiters)
            self._waiters.clear()
            self._idle_waiters.clear()
        for waiter in waiters:
            waiter.close()
        self._conn.close()
        with self._change:
            self._change_count += 1
            self._change.notify_all()

    def after_requests(self, callback: Callable[[], None]) -> None:
        """Runs ``callback`` once every request the server sent this client so far was answered (a provider that
        quits inside an action leaves after its answer)."""
        self._conn.after_requests(callback)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<axclient.Client %s role=%s>" % (self.address, self.role)

    # -- raw calls ---------------------------------------------------------------------------------------------

    def call(self, method: str, params: Optional[Dict[str, Any]] = None, timeout: Optional[float] = None,
             **kwargs: Any) -> Any:
        """Calls any JSON-RPC method and returns its result; errors raise the typed exception for their code.

        ``timeout``: seconds to wait for the answer (default ``call_timeout``).
        """
        return self._request(self._conn, method, params, self.call_timeout if timeout is None else timeout,
                             cancel_on_timeout=Method.CANCEL_REQUEST in self.server_methods, **kwargs)

    def _request(self, conn: Connection, method: str, params: Optional[Dict[str, Any]], timeout: Optional[float],
                 **options: Any) -> Any:
        """The one seam every request of this client passes: a running trace records it as a step."""
        tracer = self._tracer
        if tracer is not None:
            return tracer.record(self, conn, method, params, timeout, options)
        return conn.call(method, params, timeout=timeout, **options)

    def start_trace(self, path: Optional[str] = None, *, title: Optional[str] = None, pictures: bool = False,
                    source: str = "python", recorder: Any = None) -> Any:
        """Starts recording every request of this client as a trace step (Specs/trace.md): the call, its target,
        revision before/after and the tree diff, focus before/after, events, the speech preview, errors, timings;
        ``pictures`` adds a PNG per step. ``path``: the ``.axtrace`` file, written line by line as steps happen
        (default: a temporary file, moved by :meth:`stop_trace`). ``recorder``: record into another client's
        running trace instead. Returns the :class:`axclient.trace.TraceRecorder`."""
        from .trace import start_recording
        if self._tracer is not None:
            raise InvalidArgument("a trace is already running on this client; stop_trace() first")
        return start_recording(self, path, title=title, pictures=pictures, source=source, recorder=recorder)

    def stop_trace(self, path: Optional[str] = None) -> Optional[str]:
        """Ends the trace (writes its end line) and returns its path; ``path`` moves it there. Without a running
        trace: None."""
        from .trace import stop_recording
        return stop_recording(self, path)

    def accessibility_settings(self) -> "AccessibilitySettings":
        """``a11y.settings``: the user's accessibility settings under their UIKit names (D-SET-1)."""
        return AccessibilitySettings(self.call(Method.A11Y_SETTINGS))

    def notify(self, method: str, params: Optional[Dict[str, Any]] = None) -> None:
        """Sends a JSON-RPC notification (no answer)."""
        self._conn.notify(method, params)

    def _with_app(self, params: Dict[str, Any], app: Optional[str]) -> Dict[str, Any]:
        chosen = app if app is not None else self.app
        if chosen is not None:
            params["app"] = chosen
        return params

    def _on_notification(self, method: str, params: Dict[str, Any]) -> None:
        if method == "$/closed":
            with self._sinks_lock:
                sinks = list(self._sinks.values())
            for sink in sinks:
                sink(method, params)
            with self._change:
                self._change_count += 1
                self._change.notify_all()
            return
        with self._sinks_lock:
            sink = self._sinks.get(params.get("subscription"))
        if sink is not None:
            sink(method, params)

    def _on_request(self, method: str, params: Dict[str, Any]) -> Any:
        handler = self.request_handlers.get(method)
        if handler is None:
            raise LookupError("no handler for the server request %r" % method)
        return handler(params)

    # -- lifecycle and reading ---------------------------------------------------------------------------------

    def reset_app(self, app: Optional[str] = None, timeout_ms: Optional[int] = None) -> Dict[str, Any]:
        """``app.reset``: the app returns to its initial state; answers ``{app, reset, revisionBefore, revision,
        ms}`` once that tree is the server's, so the next find sees it (D-APP-RESET-1). An app that cannot reset
        raises :class:`ActionNotSupported` (−32014; start a fresh app or server instead); a kiosk denial
        :class:`PolicyDenied`; an app that does not answer within ``timeout_ms`` (default 10 s) or leaves mid-reset
        :class:`AppNotResponding`.
        """
        params = self._with_app({}, app)
        wait = None
        if timeout_ms is not None:
            params["timeoutMs"] = timeout_ms
            wait = max(self.call_timeout, timeout_ms / 1000.0 + 5.0)
        return self.call(Method.APP_RESET, params, timeout=wait)

    def ping(self) -> str:
        """``ping`` → ``"pong"``."""
        return self.call(Method.PING)

    def apps(self) -> List[Dict[str, Any]]:
        """``apps.list``: ``[{id, name, revision, windows, elements, focused}]``."""
        return self.call(Method.APPS_LIST)

    def tree(self, root: Optional[Target] = None, depth: Optional[int] = None,
             max_children: Optional[int] = None, app: Optional[str] = None,
             fields: Optional[List[str]] = None) -> Dict[str, Any]:
        """``tree.get`` in JSON: ``{app, revision, windows[nested elements], count, truncated}``. ``fields`` sends
        only those element fields (``["role", "label", "value", "states", "children"]``; ``id`` always; without
        ``children`` only the roots) — a large tree's reply is then a fraction of the size and decodes as fast.
        The nested ``windows`` is decoded when first read (a ``dict`` all the same; D-PYCLIENT-TREE-1)."""
        params: Dict[str, Any] = {"format": "json"}
        if fields is not None:
            params["fields"] = list(fields)
        if root is not None:
            params["root"] = to_target(root)
        if depth is not None:
            params["depth"] = depth
        if max_children is not None:
            params["maxChildren"] = max_children
        answer = self._request(self._conn, Method.TREE_GET, self._with_app(params, app), self.call_timeout,
                               cancel_on_timeout=Method.CANCEL_REQUEST in self.server_methods, raw=True)
        return decode_tree_answer(answer) if isinstance(answer, bytes) else answer

    def tree_text(self, frames: bool = False, app: Optional[str] = None) -> str:
        """The tree as indented text (as ``axquery tree``)."""
        params: Dict[str, Any] = {"format": "text"}
        if frames:
            params["frames"] = True
        return self.call(Method.TREE_GET, self._with_app(params, app))["text"]

    def tree_xml(self, app: Optional[str] = None) -> str:
        """The tree as an Appium XCUITest-style page source."""
        return self.call(Method.TREE_GET, self._with_app({"format": "xml"}, app))["xml"]

    def revision(self, app: Optional[str] = None) -> int:
        """The app's current tree revision."""
        return int(self.call(Method.TREE_REVISION, self._with_app({}, app))["revision"])

    def diff(self, from_revision: int, to_revision: Optional[int] = None,
             app: Optional[str] = None) -> Dict[str, Any]:
        """``tree.diff``: the net change between two revisions."""
        params: Dict[str, Any] = {"fromRevision": from_revision}
        if to_revision is not None:
            params["toRevision"] = to_revision
        return self.call(Method.TREE_DIFF, self._with_app(params, app))

    def element(self, target: Target, app: Optional[str] = None) -> Element:
        """``element.get``: one element (strict) with ``hittable``, ``visible``, ``focused``, ``ancestors``…"""
        return Element(self.call(Method.ELEMENT_GET, self._with_app({"target": to_target(target)}, app)))

    # Script queries (Specs/protocol.md §Script queries): each returns the element found, or None.

    @staticmethod
    def _found(result: Dict[str, Any]) -> Optional[Element]:
        node = result.get("node")
        return Element(node) if isinstance(node, dict) else None

    def element_at(self, x: float, y: float, app: Optional[str] = None) -> Optional[Element]:
        """``element.atPoint``: the element an exploring finger finds at screen point (x, y), by the rule a tap
        uses (a plain view in front hides what lies behind it); ``None`` when no element is there. A point
        outside every window raises :class:`InvalidParams`."""
        return self._found(self.call(Method.ELEMENT_AT_POINT, self._with_app({"point": {"x": x, "y": y}}, app)))

    def cell(self, table: Target, row: int, column: int, app: Optional[str] = None) -> Optional[Element]:
        """``element.cell``: the cell covering (row, column) of a data table (spans included); ``None`` for a
        hole. Out of range or not a data table raises :class:`InvalidParams`."""
        params = {"target": to_target(table), "row": row, "column": column}
        return self._found(self.call(Method.ELEMENT_CELL, self._with_app(params, app)))

    def next_element(self, from_: Optional[Target] = None, move_focus: bool = False,
                     app: Optional[str] = None) -> Optional[Element]:
        """``element.next``: the next element in reading order, as a VoiceOver swipe right (from the
        accessibility focus unless ``from_``); ``None`` at the end. ``move_focus`` moves the focus there."""
        return self._found(self.call(Method.ELEMENT_NEXT, self._with_app(self._swipe(from_, move_focus), app)))

    def previous_element(self, from_: Optional[Target] = None, move_focus: bool = False,
                         app: Optional[str] = None) -> Optional[Element]:
        """``element.previous``: the previous element in reading order (a VoiceOver swipe left); ``None`` at the
        start."""
        return self._found(self.call(Method.ELEMENT_PREVIOUS, self._with_app(self._swipe(from_, move_focus), app)))

    def large_content(self, target: Target, app: Optional[str] = None) -> Dict[str, Any]:
        """``element.largeContent``: what the large content viewer shows for a small element (a bar item, an
        icon): ``{element, title, image?, scalesImage}``. An element without it raises :class:`InvalidParams`."""
        return self.call(Method.ELEMENT_LARGE_CONTENT, self._with_app({"target": to_target(target)}, app))

    def reading_content(self, target: Target, line: Optional[int] = None, point: Optional[Dict[str, float]] = None,
                        app: Optional[str] = None) -> Dict[str, Any]:
        """``element.readingContent``: an element's UIAccessibilityReadingContent, ``{element, lineCount,
        pageContent, line?}``; ``line`` (a number) or ``point`` (screen ``{x, y}``) asks for one line (D-TEXT-APP-4, D-READ-1)."""
        params: Dict[str, Any] = {"target": to_target(target)}
        if line is not None:
            params["line"] = line
        if point is not None:
            params["point"] = point
        return self.call(Method.ELEMENT_READING_CONTENT, self._with_app(params, app))

    @staticmethod
    def _swipe(from_: Optional[Target], move_focus: bool) -> Dict[str, Any]:
        params: Dict[str, Any] = {}
        if from_ is not None:
            params["from"] = to_target(from_)
        if move_focus:
            params["moveFocus"] = True
        return params

    def query_one(self, selector: str, root: Optional[Target] = None, app: Optional[str] = None) -> Element:
        """``query.one``: exactly one match, else :class:`NoSuchElement` / :class:`AmbiguousMatch`."""
        params: Dict[str, Any] = {"selector": selector}
        if root is not None:
            params["root"] = to_target(root)
        return Element(self.call(Method.QUERY_ONE, self._with_app(params, app)))

    def query_all(self, selector: str, root: Optional[Target] = None, limit: Optional[int] = None,
                  app: Optional[str] = None) -> List[Element]:
        """``query.find``: every match in document order (never waits)."""
        params: Dict[str, Any] = {"selector": selector}
        if root is not None:
            params["root"] = to_target(root)
        if limit is not None:
            params["limit"] = limit
        result = self.call(Method.QUERY_FIND, self._with_app(params, app))
        return [Element(element) for element in result.get("elements", [])]

    def query_count(self, selector: str, root: Optional[Target] = None, app: Optional[str] = None) -> int:
        """``query.count``: how many elements match now."""
        params: Dict[str, Any] = {"selector": selector}
        if root is not None:
            params["root"] = to_target(root)
        return int(self.call(Method.QUERY_COUNT, self._with_app(params, app))["count"])

    def explain(self, selector: str, app: Optional[str] = None) -> Dict[str, Any]:
        """``query.explain``: per-step counts and near misses; ``["summary"]`` is the one-line form."""
        return self.call(Method.QUERY_EXPLAIN, self._with_app({"selector": selector}, app))

    def focused(self, app: Optional[str] = None) -> Optional[Element]:
        """The element with accessibility focus, or ``None``."""
        element = self.call(Method.FOCUS_GET, self._with_app({}, app)).get("element")
        return Element(element) if isinstance(element, dict) else None

    def set_focus(self, target: Optional[Target], app: Optional[str] = None) -> Optional[str]:
        """``focus.set``: moves accessibility focus (``None`` clears it); returns the focused id."""
        params: Dict[str, Any] = {}
        if target is not None:
            params["target"] = to_target(target)
        return self.call(Method.FOCUS_SET, self._with_app(params, app)).get("focused")

    # -- keys, focus engine, rotors, audits, speech, pictures (issue 26: the whole API) --------------------------

    @property
    def keyboard(self) -> Keyboard:
        """Keys as a keyboard sends them: ``press("Shift+Tab")``, ``down``/``up``, ``type(text)``."""
        return Keyboard(self)

    @property
    def focus_engine(self) -> FocusEngine:
        """The server's focus engine: ``move``, ``query``, ``explain``, ``status``, ``update``, ``items``."""
        return FocusEngine(self)

    @property
    def rotors(self) -> Rotors:
        """VoiceOver's rotors: ``list``, ``next``, ``previous``."""
        return Rotors(self)

    def audit(self, root: Optional[Target] = None, checks: Optional[List[str]] = None,
              suppress: Optional[List[Any]] = None, max_findings: Optional[int] = None,
              report: Optional[str] = None, app: Optional[str] = None) -> Dict[str, Any]:
        """``audit.run``: ``{count, errors, warnings, suppressed, findings[…]}``. ``suppress``: check ids or
        ``{"check": ID, "selector": SEL}``; ``report="junit"`` or ``"sarif"`` adds ``report`` (the JUnit XML
        string, the SARIF object) for CI."""
        params: Dict[str, Any] = {}
        if root is not None:
            params["root"] = to_target(root)
        if checks is not None:
            params["checks"] = list(checks)
        if suppress is not None:
            params["suppress"] = list(suppress)
        if max_findings is not None:
            params["maxFindings"] = max_findings
        if report is not None:
            params["report"] = report
        return self.call(Method.AUDIT_RUN, self._with_app(params, app))

    def audit_checks(self) -> List[Dict[str, Any]]:
        """``audit.listChecks``: every check with its severity and summary."""
        return list(self.call(Method.AUDIT_LIST_CHECKS).get("checks") or [])

    def speech(self, target: Target, model: Optional[str] = None, app: Optional[str] = None,
               screen_reader: Optional[str] = None) -> Dict[str, Any]:
        """``speech.describe``: what VoiceOver (``voiceOver.text``) and Orca (``orca.utterances``) say for
        ``target``; ``model`` ``"voiceOver"`` or ``"orca"`` asks for one; ``screen_reader`` ``"orca-43"`` (default)
        or ``"orca-48"`` picks whose phrasing the Orca model speaks in (D-SPEECH-3)."""
        params: Dict[str, Any] = {"target": to_target(target)}
        if model is not None:
            params["model"] = model
        if screen_reader is not None:
            params["screenReader"] = screen_reader
        return self.call(Method.SPEECH_DESCRIBE, self._with_app(params, app))

    def speech_walk(self, root: Optional[Target] = None, model: Optional[str] = None,
                    limit: Optional[int] = None, app: Optional[str] = None,
                    screen_reader: Optional[str] = None) -> Dict[str, Any]:
        """``speech.walk``: every element in reading order with what each screen reader says (``screen_reader`` as
        in :meth:`speech`)."""
        params: Dict[str, Any] = {}
        if screen_reader is not None:
            params["screenReader"] = screen_reader
        if root is not None:
            params["root"] = to_target(root)
        if model is not None:
            params["model"] = model
        if limit is not None:
            params["limit"] = limit
        return self.call(Method.SPEECH_WALK, self._with_app(params, app))

    def render(self, format: str = "svg", root: Optional[Target] = None, overlay: Optional[List[str]] = None,
               max_nodes: Optional[int] = None, path: Optional[str] = None,
               app: Optional[str] = None) -> Dict[str, Any]:
        """``tree.render``: a wireframe (``svg``, or ``png`` via the server's rsvg-convert); with ``path``, also
        written to that file."""
        params: Dict[str, Any] = {"format": format}
        if root is not None:
            params["root"] = to_target(root)
        if overlay is not None:
            params["overlay"] = list(overlay)
        if max_nodes is not None:
            params["maxNodes"] = max_nodes
        result = self.call(Method.TREE_RENDER, self._with_app(params, app))
        if path is not None:
            import base64
            data = base64.b64decode(result["data"]) if result.get("encoding") == "base64" else \
                str(result.get("svg", "")).encode("utf-8")
            with open(path, "wb") as handle:
                handle.write(data)
        return result

    def policy(self, app: Optional[str] = None) -> Dict[str, Any]:
        """``policy.get``: the app's guided-access restrictions and their states."""
        return self.call(Method.POLICY_GET, self._with_app({}, app))

    def check_policy(self, target: Target, app: Optional[str] = None) -> Dict[str, Any]:
        """``policy.check``: ``{allowed, restriction?}`` for activating ``target``."""
        return self.call(Method.POLICY_CHECK, self._with_app({"target": to_target(target)}, app))

    def set_policy(self, restriction: str, state: str, app: Optional[str] = None,
                   app_name: Optional[str] = None) -> Dict[str, Any]:
        """``policy.set`` (operator role only: connect with ``role="operator", operator_token=…``)."""
        params: Dict[str, Any] = {"restriction": restriction, "state": state}
        if app_name is not None:
            params["appName"] = app_name
        else:
            self._with_app(params, app)
        return self.call(Method.POLICY_SET, params)

    # -- waiting -----------------------------------------------------------------------------------------------

    def _checkout_waiter(self) -> Connection:
        """A connection of its own for one server-side wait (a pool: one per concurrent wait)."""
        with self._aux_lock:
            if self._conn.closed:
                raise AXConnectionError("the client is closed")
            while self._idle_waiters:
                waiter = self._idle_waiters.pop()
                if not waiter.closed:
                    return waiter
        waiter = Connection(self._conn.dial_address, self._connect_timeout, max_message_bytes=self._max_message_bytes,
                            name=self._client_name + "-wait")
        try:
            self._initialize(waiter, "automation", None)
        except BaseException:
            waiter.close()
            raise
        with self._aux_lock:
            self._waiters.append(waiter)
        return waiter

    def _checkin_waiter(self, waiter: Connection) -> None:
        with self._aux_lock:
            if waiter.closed or self._conn.closed:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
                closing = True
            else:
                self._idle_waiters.append(waiter)
                closing = False
        if closing:
            waiter.close()

    def wait_for(self, target: Target, state: str = "visible", value: Optional[str] = None,
                 timeout: Optional[float] = None, app: Optional[str] = None) -> Dict[str, Any]:
        """``wait.for``: waits server-side (woken by revisions) until ``target`` is in ``state``.

        ``state``: attached, detached, visible, hidden, hittable, enabled, disabled, focused, value, label
        (``value`` compares with ``value``). Returns ``{state, satisfied, revision, waitedMs, element?}``;
        raises :class:`axclient.Timeout` (with ``last_state``) when ``timeout`` seconds pass.
        """
        if state not in WAIT_STATES:
            raise InvalidArgument("unknown wait state %r; use one of %s" % (state, ", ".join(WAIT_STATES)),
                                  code=-32602, data={"param": "state"}, method=Method.WAIT_FOR)
        seconds = self.default_timeout if timeout is None else float(timeout)
        milliseconds = max(0, min(600000, int(round(seconds * 1000))))
        params: Dict[str, Any] = {"target": to_target(target), "state": state, "timeoutMs": milliseconds}
        if value is not None:
            params["value"] = value
        chosen = app if app is not None else (self.app if self.app is not None else self._registered_app)
        if chosen is not None:
            params["app"] = chosen
        answer_timeout = milliseconds / 1000.0 + self.call_timeout
        if not self._wait_on_aux:
            return self.call(Method.WAIT_FOR, params, timeout=answer_timeout)
        waiter = self._checkout_waiter()
        try:
            return self._request(waiter, Method.WAIT_FOR, params, answer_timeout)
        finally:
            self._checkin_waiter(waiter)

    def _ensure_change_feed(self, app: Optional[str]) -> None:
        key = app or ""
        with self._feed_lock:
            if key in self._feeds:
                return
            params: Dict[str, Any] = {"events": ["tree.changed", "focus.changed"]}
            if app:
                params["app"] = app

            def register(result: Any) -> None:
                with self._sinks_lock:
                    self._sinks[result.get("subscription")] = self._bump

            result = self.call(Method.EVENTS_SUBSCRIBE, params, on_result=register)
            self._feeds[key] = result.get("subscription")

    def _bump(self, method: str, params: Dict[str, Any]) -> None:
        with self._change:
            self._change_count += 1
            self._change.notify_all()

    def wait_until(self, check: Callable[[], Any], timeout: Optional[float] = None, app: Optional[str] = None,
                   description: str = "condition") -> Any:
        """Evaluates ``check()`` now and again after every tree or focus change (never by polling).

        Returns the first truthy value ``check`` returns; raises :class:`ClientTimeout` after ``timeout`` seconds.
        ``check`` may call the server (from this thread).
        """
        chosen = app if app is not None else self.app
        self._ensure_change_feed(chosen)
        seconds = self.default_timeout if timeout is None else float(timeout)
        deadline = time.monotonic() + seconds
        while True:
            with self._change:
                seen = self._change_count
            outcome = check()
            if outcome:
                return outcome
            with self._change:
                while self._change_count == seen:
                    if self._conn.closed:
                        raise AXConnectionError("the connection closed while waiting for %s" % description)
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise ClientTimeout("timed out after %.2f s waiting for %s" % (seconds, description))
                    self._change.wait(remaining)

    def change_count(self) -> int:
        """How many tree/focus change events this client has seen (used with :meth:`wait_for_change`)."""
        with self._change:
            return self._change_count

    def wait_for_change(self, since: int, timeout: float) -> bool:
        """Blocks until a change event arrives after ``change_count() == since``; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._change:
            while self._change_count == since:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self._conn.closed:
                    return False
                self._change.wait(remaining)
            return True

    # -- events ------------------------------------------------------------------------------------------------

    def events(self, *names: str, app: Optional[str] = None, timeout: float = 10.0,
               max_queue: int = 10000) -> EventStream:
        """An event stream (a context manager and iterator) for ``names`` (all events when none are given).

        ``with client.events("tree.changed") as events: for event in events: …`` — iteration ends after
        ``timeout`` seconds; :meth:`EventStream.wait_for` raises :class:`ClientTimeout` instead.
        """
        return EventStream(self, list(names), app if app is not None else self.app, timeout, max_queue)

    def _subscribe(self, names: List[str], app: Optional[str],
                   sink: Callable[[str, Dict[str, Any]], None]) -> Any:
        params: Dict[str, Any] = {}
        if names:
            params["events"] = names
        if app is not None:
            params["app"] = app

        def register(result: Any) -> None:
            with self._sinks_lock:
                self._sinks[result.get("subscription")] = sink

        result = self.call(Method.EVENTS_SUBSCRIBE, params, on_result=register)
        return result.get("subscription")

    def _unsubscribe(self, subscription: Any) -> None:
        with self._sinks_lock:
            self._sinks.pop(subscription, None)
        if not self._conn.closed:
            try:
                self.call(Method.EVENTS_UNSUBSCRIBE, {"subscription": subscription})
            except AXConnectionError:
                pass

    # -- locators ----------------------------------------------------------------------------------------------

    def locator(self, selector: str) -> Locator:
        """A lazy locator for a selector (Specs/selectors.md); resolved again at every use."""
        return Locator(self, selector, self.app)

    def get_by_role(self, role: str, name: Optional[selectors.TextMatch] = None, exact: bool = False,
                    **options: Any) -> Locator:
        """Playwright's ``get_by_role``: ``role`` plus ``name`` (label; substring, case-insensitive unless
        ``exact=True``, or a compiled regex) and ``checked``, ``selected``, ``disabled``, ``expanded``, ``focused``,
        ``level``, ``include_hidden`` options."""
        return self.locator(selectors.role_selector(role, name, exact, **options))

    def get_by_label(self, label: selectors.TextMatch, exact: bool = True) -> Locator:
        """Elements whose accessibility label equals ``label`` (``exact=False``: contains, ignoring case)."""
        return self.locator(selectors.attribute_test("label", label, exact))

    def get_by_id(self, identifier: str) -> Locator:
        """The element with this accessibility identifier (``#"…"``)."""
        return self.locator(selectors.id_selector(identifier))

    get_by_test_id = get_by_id

    def get_by_text(self, text: selectors.TextMatch) -> Locator:
        """Elements whose label, value or text contains ``text`` (case-insensitive) or matches a regex."""
        return self.locator(selectors.text_pseudo(text))

    def get_by_placeholder(self, placeholder: selectors.TextMatch, exact: bool = True) -> Locator:
        """Text inputs by placeholder."""
        return self.locator(selectors.attribute_test("placeholder", placeholder, exact))

    def describe(self, element: Optional[Dict[str, Any]]) -> str:
        """One-line summary of a wire element (see :func:`axclient.element.describe_element`)."""
        return describe_element(element)
