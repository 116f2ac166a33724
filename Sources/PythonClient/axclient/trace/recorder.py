"""Records a client's requests as trace steps (Specs/trace.md §Recording (Python)).

:class:`TraceRecorder` sits on the client's one request seam (``Client._request``). A request that can change the
app (an action, a key, a focus move…) becomes a full step: one pipelined batch before it (``tree.revision``,
``focus.get``, ``element.get`` of its target; ``tree.get`` on the first such step) and one after it (``focus.get``,
``tree.diff`` from the revision before, ``speech.describe`` of the focused element), plus one ``query.find`` for
the elements the diff names (their new fields) and ``tree.render`` with pictures on. A read-only request is a light
step (call, result, events, timing). Events come from an ``events.subscribe`` on the client's own connection, so
they arrive in order with the answers.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..errors import AXConnectionError, AXError, RPCError
from ..methods import Method
from .writer import TraceWriter

#: Requests that cannot change the app: recorded without the before/after batches.
READ_METHODS = frozenset({
    Method.PING, Method.INITIALIZE, Method.APPS_LIST, Method.TREE_GET, Method.TREE_DIFF, Method.TREE_REVISION,
    Method.ELEMENT_GET, Method.ELEMENT_AT_POINT, Method.ELEMENT_CELL, Method.ELEMENT_LARGE_CONTENT,
    Method.ELEMENT_READING_CONTENT, Method.QUERY_FIND, Method.QUERY_COUNT, Method.QUERY_EXPLAIN, Method.FOCUS_GET,
    Method.FOCUS_STATUS, Method.FOCUS_QUERY, Method.FOCUS_EXPLAIN, Method.FOCUS_ITEMS, Method.ROTOR_LIST,
    Method.SPEECH_DESCRIBE, Method.SPEECH_WALK, Method.TREE_RENDER, Method.AUDIT_RUN, Method.AUDIT_LIST_CHECKS,
    Method.POLICY_GET, Method.POLICY_CHECK, Method.EVENTS_SUBSCRIBE, Method.EVENTS_UNSUBSCRIBE, Method.A11Y_SETTINGS,
    Method.WAIT_FOR, Method.CANCEL_REQUEST,
})

#: Methods that carry typed text, and the params that hold it (masked when the target is secure).
TEXT_PARAMS = {Method.ACTION_TYPE_TEXT: ("text", "value"), Method.ACTION_SET_VALUE: ("value",),
               Method.INPUT_TYPE: ("text",)}

#: Key methods: the keys typed into a secure field are masked too.
KEY_PARAMS = {Method.INPUT_KEY: ("key", "keys", "text")}

#: Param names that are never recorded.
SECRET_KEYS = frozenset({"token", "operatorToken", "auth", "password"})

MASK = "•••"
MAX_DIFF_OPS = 2000
MAX_EVENTS = 200
MAX_RESULT_BYTES = 4096
MAX_UTTERANCES = 200
#: Events remembered to drop the copy a second recorded client's subscription delivers.
RECENT_EVENTS = 16
#: Light steps kept behind a step that waits for the screen reader's speech (then it is written without waiting).
MAX_HELD_STEPS = 1000
#: Where screen point (0, 0) of the first window lands in a ``tree.render`` picture (the renderer's margin and
#: title line, Sources/AXInsight/TreeRenderer.swift): the viewer draws outlines (screen frames) shifted by it.
PICTURE_ORIGIN = (24.0, 46.0)
#: Ids per ``query.find`` when fetching the nodes a diff names (a union of ``[axid=…]`` tests).
IDS_PER_QUERY = 250
#: Up to this many changed ids are read one by one (``tree.get`` of each, an id lookup); more by ``query.find``.
IDS_ONE_BY_ONE = 64


class _Batch:
    """Requests sent back to back on one connection (pipelined), answers collected afterwards."""

    def __init__(self, conn: Any, timeout: float) -> None:
        self._conn = conn
        self._timeout = timeout
        self._calls: List[Tuple[str, Dict[str, Any]]] = []

    def add(self, method: str, params: Dict[str, Any]) -> int:
        self._calls.append((method, params))
        return len(self._calls) - 1

    def run(self) -> List[Any]:
        """Every answer in order: a result, or the exception its call raised."""
        pending = [_start(self._conn, method, params) for method, params in self._calls]
        deadline = time.monotonic() + self._timeout
        return [_finish(self._conn, item, deadline) for item in pending]


def _start(conn: Any, method: str, params: Dict[str, Any]) -> Any:
    """Sends one request without waiting (the connection's own bookkeeping, as ``Connection.call`` does)."""
    from ..connection import _Pending
    request_id = next(conn._ids)
    pending = _Pending(None)
    with conn._pending_lock:
        conn._pending[request_id] = pending
    try:
        conn._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
    except BaseException as error:  # noqa: BLE001 - handed back as this call's answer
        conn._forget(request_id)
        return error
    return (request_id, method, pending)


def _finish(conn: Any, item: Any, deadline: float) -> Any:
    if isinstance(item, BaseException):
        return item
    request_id, method, pending = item
    if not pending.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
        conn._forget(request_id)
        return AXError("no answer to %s within the trace's bound" % method)
    if pending.error is not None:
        return pending.error
    return pending.result


def _ok(answer: Any) -> Any:
    return None if isinstance(answer, BaseException) else answer


def error_record(error: BaseException) -> Dict[str, Any]:
    """``{"code", "message"}`` of an exception (code −32603 for a client-side failure without one)."""
    code = getattr(error, "code", None)
    message = getattr(error, "message", None) or str(error)
    return {"code": code if isinstance(code, int) else -32603, "message": str(message)[:2000]}


def cut_result(result: Any) -> Tuple[Any, bool]:
    """The result as recorded: itself when its JSON is at most 4 KB, else a prefix of its JSON text."""
    if isinstance(result, (bytes, bytearray)):
        text = bytes(result[:MAX_RESULT_BYTES + 1]).decode("utf-8", "replace")
        if len(result) <= MAX_RESULT_BYTES:
            try:
                message = json.loads(text)
                return (message.get("result") if isinstance(message, dict) else message), False
            except ValueError:
                pass
        return text[:MAX_RESULT_BYTES], True
    text = json.dumps(result, ensure_ascii=False, default=str)
    if len(text) <= MAX_RESULT_BYTES:
        return result, False
    return text[:MAX_RESULT_BYTES], True


def bound_diff(diff: Dict[str, Any], limit: int = MAX_DIFF_OPS) -> Tuple[Dict[str, Any], int]:
    """The diff with at most ``limit`` ops (added, removed, moved, updated in that order) and how many it left out."""
    kept = dict(diff)
    budget = limit
    dropped = 0
    for key in ("added", "removed", "moved"):
        ops = diff.get(key)
        if isinstance(ops, list):
            kept[key] = ops[:max(0, budget)]
            dropped += len(ops) - len(kept[key])
            budget -= len(kept[key])
    updated = diff.get("updated")
    if isinstance(updated, dict):
        items = list(updated.items())
        kept["updated"] = dict(items[:max(0, budget)])
        dropped += len(items) - len(kept["updated"])
    return kept, dropped


def _scrub(value: Any, secrets: List[str]) -> Any:
    """``value`` with every occurrence of a secret replaced by the mask."""
    if not secrets:
        return value
    text = json.dumps(value, ensure_ascii=False, default=str)
    for secret in secrets:
        text = text.replace(json.dumps(secret, ensure_ascii=False)[1:-1], MASK)
    return json.loads(text)


def _is_secure(element: Any) -> Optional[bool]:
    """Whether an ``element.get`` answer is a secure text field; None when unknown (no element)."""
    if not isinstance(element, dict):
        return None
    states = element.get("states") or []
    traits = element.get("traits") or []
    return ("secure" in states or "secure" in traits or element.get("role") == "secureTextField"
            or element.get("class") == "UISecureTextField")


def _target_record(params: Dict[str, Any], element: Any, resolved: Optional[str] = None) -> Optional[Dict[str, Any]]:
    """``{id, selector, label, class}`` of the element a call resolved to (label and class as the element is after
    the call; ``None`` when it left the tree — the diff's ``removed`` names it)."""
    target = params.get("target") if isinstance(params.get("target"), dict) else None
    if target is None and not isinstance(element, dict) and resolved is None:
        return None
    node = element if isinstance(element, dict) else {}
    selector = target.get("selector") if target else None
    return {"id": node.get("id", resolved or (target.get("id") if target else None)),
            "selector": selector if isinstance(selector, str) else None,
            "label": node.get("label"), "class": node.get("class")}


def _resolved_id(params: Dict[str, Any], result: Any) -> Optional[str]:
    """The element a call acted on: its ``{"id"}`` target, else the id its result names (``element``,
    ``focused``) — no second resolution of the selector."""
    target = params.get("target")
    if isinstance(target, dict) and isinstance(target.get("id"), str):
        return target["id"]
    if isinstance(result, dict):
        for key in ("element", "focused"):
            if isinstance(result.get(key), str):
                return result[key]
    return None


def _focus_id(answer: Any) -> Optional[str]:
    if isinstance(answer, dict) and isinstance(answer.get("element"), dict):
        found = answer["element"].get("id")
        return found if isinstance(found, str) else None
    return None


def _utterances(answer: Any) -> Optional[List[str]]:
    if not isinstance(answer, dict):
        return None
    orca = answer.get("orca")
    lines = orca.get("utterances") if isinstance(orca, dict) else None
    return [str(line) for line in lines[:MAX_UTTERANCES]] if isinstance(lines, list) else None


def _nodes_of(answers: List[Any]) -> Dict[str, Any]:
    """The elements of ``tree.get`` (one root, depth 1) and ``query.find`` answers by id; a node's nested children
    become their ids."""
    nodes: Dict[str, Any] = {}
    for answer in answers:
        found = _ok(answer)
        if not isinstance(found, dict):
            continue
        for element in found.get("windows") or found.get("elements") or []:
            if isinstance(element, dict) and isinstance(element.get("id"), str):
                children = element.get("children")
                if isinstance(children, list):
                    element = dict(element, children=[child.get("id") if isinstance(child, dict) else child
                                                      for child in children])
                nodes[element["id"]] = element
    return nodes


def _axid_selector(ids: List[str]) -> str:
    return ",".join("[axid=%s]" % json.dumps(node_id) for node_id in ids)


class SpeechSource:
    """What a screen reader said: ``mark()`` before a step, ``since(mark)`` after it, ``settle()`` at the end."""

    def __init__(self, mark: Callable[[], int], since: Callable[[int], List[str]], settle: Callable[[], None],
                 version: Optional[str]) -> None:
        self.mark = mark
        self.since = since
        self.settle = settle
        self.version = version


class _Tracked:
    """What the recorder knows of the app between steps, kept current by its events (so a step needs no request
    before its call): the revision, accessibility and engine focus, and the ids changed since the last step."""

    def __init__(self) -> None:
        self.app: Optional[str] = None
        self.revision: Optional[int] = None
        self.registration: Any = None
        self.focus: Optional[str] = None
        self.engine: Optional[str] = None
        self.preview: Optional[List[str]] = None

    @property
    def known(self) -> bool:
        return self.revision is not None


class TraceRecorder:
    """Turns a client's requests into steps of one trace file (see the module's docstring)."""

    def __init__(self, writer: TraceWriter, pictures: bool = False, app: Optional[str] = None,
                 speech: Optional[SpeechSource] = None, batch_timeout: float = 10.0) -> None:
        self.writer = writer
        self.pictures = pictures
        self.app = app
        self.speech = speech
        self.batch_timeout = batch_timeout
        self.steps = 0
        self.dropped = {"steps": 0, "diffOps": 0, "events": 0}
        self._t0 = time.perf_counter()
        self._lock = threading.RLock()
        self._local = threading.local()
        self._events: List[Dict[str, Any]] = []
        self._events_dropped = 0
        self._recent: List[Tuple[Tuple[str, str], Any]] = []
        self._changed: List[str] = []
        self._events_lock = threading.Lock()
        self._snapshot_due = True
        self._tracked = _Tracked()
        self._pending: Optional[Tuple[Dict[str, Any], int]] = None
        self._held: List[Dict[str, Any]] = []
        self._clients: List[Any] = []
        self._lost = False
        #: Milliseconds the recorder itself spent per full step (the overhead; Tools/bench_trace.py reads it).
        self.overhead_ms: List[float] = []

    # -- attaching ---------------------------------------------------------------------------------------------

    def attach(self, client: Any) -> None:
        """Records ``client``'s requests from now on (subscribes to its events on its own connection)."""
        conn = client._conn
        self._clients.append(client)
        client._tracer = self

        def sink(method: str, params: Dict[str, Any]) -> None:
            self._on_event(method, params, id(client))

        def register(result: Any) -> None:
            with client._sinks_lock:
                client._sinks[result.get("subscription")] = sink

        try:
            conn.call(Method.EVENTS_SUBSCRIBE, self._app_params({}, client), timeout=self.batch_timeout,
                      on_result=register)
        except (AXError, OSError):
            pass

    def detach(self, client: Any) -> None:
        """Stops recording ``client``."""
        if getattr(client, "_tracer", None) is self:
            client._tracer = None
        if client in self._clients:
            self._clients.remove(client)

    def _app_params(self, params: Dict[str, Any], client: Any) -> Dict[str, Any]:
        app = self.app or getattr(client, "app", None)
        if app:
            params["app"] = app
        return params

    def _on_event(self, method: str, params: Dict[str, Any], source: int = 0) -> None:
        if method == "$/closed":
            with self._events_lock:
                self._tracked = _Tracked()
                self._snapshot_due = True
            return
        fields = {key: value for key, value in params.items() if key != "subscription"}
        seen = (method, json.dumps(fields, sort_keys=True, default=str))
        record = {"t": self._now(), "type": method}
        record.update(fields)
        with self._events_lock:
            for index, (earlier, via) in enumerate(self._recent):
                if earlier == seen and via != source:    # the copy a second recorded client's subscription got
                    del self._recent[index]
                    return
            self._recent.append((seen, source))
            del self._recent[:-RECENT_EVENTS]
            self._track(method, params)
            if len(self._events) < MAX_EVENTS:
                self._events.append(record)
            else:
                self._events_dropped += 1

    def _track(self, method: str, params: Dict[str, Any]) -> None:
        tracked = self._tracked
        if tracked.app is not None and params.get("app") not in (None, tracked.app):
            return
        if method == "tree.changed" and isinstance(params.get("revision"), int):
            tracked.revision = params["revision"]
            tracked.preview = None
            for key in ("added", "updated"):
                ids = params.get(key)
                if isinstance(ids, list) and len(self._changed) < MAX_DIFF_OPS:
                    self._changed.extend(item for item in ids[:MAX_DIFF_OPS] if isinstance(item, str))
        elif method == "focus.changed":
            to = params.get("to")
            to = to if isinstance(to, str) else None
            if params.get("focus") == "engine":
                tracked.engine = to
            else:
                tracked.focus = to
                tracked.preview = None
        elif method in ("app.removed", "app.added"):
            self._tracked = _Tracked()
            self._snapshot_due = True

    def _drain_events(self) -> Tuple[List[Dict[str, Any]], int]:
        with self._events_lock:
            events, dropped = self._events, self._events_dropped
            self._events, self._events_dropped = [], 0
        return events, dropped

    # -- the seam ------------------------------------------------------------------------------------------------

    def record(self, client: Any, conn: Any, method: str, params: Optional[Dict[str, Any]], timeout: Optional[float],
               options: Dict[str, Any]) -> Any:
        """Makes the request and records it as a step (the client's ``_request`` calls this)."""
        if getattr(self._local, "inside", False) or self.writer.closed:
            return conn.call(method, params, timeout=timeout, **options)
        self._local.inside = True
        try:
            if method in READ_METHODS:
                return self._light_step(conn, method, params or {}, timeout, options)
            with self._lock:
                return self._full_step(client, conn, method, params or {}, timeout, options)
        finally:
            self._local.inside = False

    def _now(self) -> float:
        return round((time.perf_counter() - self._t0) * 1000.0, 3)

    def _call(self, conn: Any, method: str, params: Dict[str, Any], timeout: Optional[float],
              options: Dict[str, Any]) -> Tuple[Any, Optional[BaseException], float]:
        started = time.perf_counter()
        try:
            result = conn.call(method, params or None, timeout=timeout, **options)
            return result, None, (time.perf_counter() - started) * 1000.0
        except BaseException as error:  # noqa: BLE001 - recorded, then raised again by the caller
            return None, error, (time.perf_counter() - started) * 1000.0

    def _light_step(self, conn: Any, method: str, params: Dict[str, Any], timeout: Optional[float],
                    options: Dict[str, Any]) -> Any:
        t = self._now()
        result, error, ms = self._call(conn, method, params, timeout, options)
        events, events_dropped = self._drain_events()
        step = {
            "kind": "wait" if method == Method.WAIT_FOR else "call",
            "method": method,
            "params": self._safe_params(params, False),
            "target": _target_record(params, None),
            "t": t,
            "ms": round(ms, 3),
            "revision": None,
            "diff": None,
            "focus": None,
            "events": events,
            "speech": {"orca": None, "preview": None},
            "error": None if error is None else error_record(error),
        }
        self._add_result(step, result, error)
        self._note_events_dropped(step, events_dropped)
        with self._lock:
            self._emit(step)
            self._connection_lost_note(error)
        if error is not None:
            raise error
        return result

    def _full_step(self, client: Any, conn: Any, method: str, params: Dict[str, Any], timeout: Optional[float],
                   options: Dict[str, Any]) -> Any:
        t = self._now()
        clock = time.perf_counter()
        speech_mark = self._begin_speech()
        snapshot = self._ensure_tracked(conn, client)
        with self._events_lock:
            before = (self._tracked.revision, self._tracked.focus, self._tracked.engine)
            self._changed = []
        self._drain_events()   # what happened before the step is not the step's
        overhead = time.perf_counter() - clock
        result, error, ms = self._call(conn, method, params, timeout, options)
        clock = time.perf_counter()
        resolved = _resolved_id(params, result)
        typed_into = resolved if isinstance(params.get("target"), dict) else before[1]
        lookups = [node for node in (resolved, typed_into if method in TEXT_PARAMS or method in KEY_PARAMS else None)
                   if node is not None]
        after = self._after(conn, client, before[0], lookups)
        element = after["looked"].get(resolved) if resolved is not None else None
        events, events_dropped = self._drain_events()
        step: Dict[str, Any] = {
            "kind": "key" if method in KEY_PARAMS else "call",
            "method": method,
            "params": params,
            "target": _target_record(params, element, resolved),
            "t": t,
            "ms": round(ms, 3),
            "revision": [before[0], after["revision"]] if before[0] is not None else None,
        }
        if snapshot is not None:
            step["snapshot"] = snapshot
        step["diff"] = after["diff"]
        if after["diffDropped"]:
            step["diffDropped"] = after["diffDropped"]
        step["focus"] = {"before": {"engine": before[2], "accessibility": before[1]},
                         "after": {"engine": self._tracked.engine, "accessibility": after["focus"]}}
        step["events"] = events
        self._note_events_dropped(step, events_dropped)
        step["speech"] = {"orca": None, "preview": after["preview"]}
        if after["picture"] is not None:
            step["picture"] = self._picture(after["picture"], element, after)
        receiver = after["looked"].get(typed_into) if typed_into is not None else None
        self._finish_step(step, result, error, self._secret_texts(method, params, receiver))
        self.overhead_ms.append((overhead + time.perf_counter() - clock) * 1000.0)
        self._emit(step, speech_mark)
        self._connection_lost_note(error)
        if error is not None:
            raise error
        return result

    def _finish_step(self, step: Dict[str, Any], result: Any, error: Optional[BaseException],
                     secrets: List[str]) -> None:
        """Result, error, policy and masking of a full step (in place)."""
        step["params"] = self._safe_params(step["params"], bool(secrets), step["method"])
        if error is not None and getattr(error, "code", None) == -32017:
            data = getattr(error, "data", None) or {}
            step["policy"] = [{"restriction": data.get("restriction"), "decision": "denied"}]
        self._add_result(step, result, error)
        step["error"] = None if error is None else error_record(error)
        if secrets and step.get("result") is not None:
            step["result"] = _scrub(step["result"], secrets)   # trees, diffs and speech come sealed by the server

    # -- before and after ------------------------------------------------------------------------------------

    def _ensure_tracked(self, conn: Any, client: Any) -> Optional[Dict[str, Any]]:
        """Reads revision and focus when events have not told them yet (the first step, after a restart); takes
        the snapshot when one is due. Returns the snapshot, if taken."""
        if self._tracked.known and not self._snapshot_due:
            return None
        batch = _Batch(conn, self.batch_timeout)
        app_params = self._app_params({}, client)
        revision_at = batch.add(Method.TREE_REVISION, dict(app_params))
        focus_at = batch.add(Method.FOCUS_STATUS, dict(app_params))
        snapshot_at = batch.add(Method.TREE_GET, dict(app_params, format="json")) if self._snapshot_due else None
        answers = batch.run()
        revision = _ok(answers[revision_at])
        status = _ok(answers[focus_at])
        snapshot = _ok(answers[snapshot_at]) if snapshot_at is not None else None
        with self._events_lock:
            tracked = self._tracked
            if isinstance(revision, dict):
                tracked.app = revision.get("app") if isinstance(revision.get("app"), str) else tracked.app
                tracked.revision = revision.get("revision") if isinstance(revision.get("revision"), int) else None
                tracked.registration = revision.get("registration")
            if isinstance(status, dict):
                engine = status.get("engine")
                tracked.engine = engine.get("id") if isinstance(engine, dict) else None
                focus = status.get("accessibility")
                tracked.focus = focus if isinstance(focus, str) else None
        if snapshot is not None:
            self._snapshot_due = False
        return snapshot

    def _after(self, conn: Any, client: Any, revision_before: Optional[int], lookups: List[str]) -> Dict[str, Any]:
        batch = _Batch(conn, self.batch_timeout)
        app_params = self._app_params({}, client)
        focus_at = batch.add(Method.FOCUS_GET, dict(app_params))
        looked_at = [batch.add(Method.TREE_GET, dict(app_params, format="json", root={"id": node}, depth=0))
                     for node in dict.fromkeys(lookups)]
        diff_at = None
        if revision_before is not None:
            diff_at = batch.add(Method.TREE_DIFF, dict(app_params, fromRevision=revision_before))
        with self._events_lock:
            changed, self._changed = list(dict.fromkeys(self._changed)), []
        nodes_at = self._add_node_queries(batch, app_params, changed)
        speech_at, focus_known, cached = self._add_preview(batch, app_params)
        picture_at = None
        if self.pictures:
            picture_at = batch.add(Method.TREE_RENDER, dict(app_params, format="png", overlay=["focus"]))
        answers = batch.run()
        diff = _ok(answers[diff_at]) if diff_at is not None else None
        nodes = _nodes_of([answers[index] for index in nodes_at])
        diff, dropped = self._bounded_diff(conn, client, diff, nodes)
        focus = _focus_id(_ok(answers[focus_at]))
        preview = _utterances(_ok(answers[speech_at])) if speech_at is not None else cached
        preview = self._settle(diff, focus, focus_known, preview)
        return {
            "focus": focus,
            "revision": diff.get("toRevision") if isinstance(diff, dict) else revision_before,
            "diff": diff if isinstance(diff, dict) and diff.get("toRevision") != revision_before else None,
            "diffDropped": dropped,
            "preview": preview,
            "picture": _ok(answers[picture_at]) if picture_at is not None else None,
            "looked": _nodes_of([answers[index] for index in looked_at]),
        }

    def _add_preview(self, batch: _Batch, app_params: Dict[str, Any]) -> Tuple[Optional[int], Optional[str], Any]:
        """Adds ``speech.describe`` of the focused element unless the last preview still holds (no focus or tree
        event since); returns its place in the batch, the focus the events told and the held preview."""
        with self._events_lock:
            focus_known, cached = self._tracked.focus, self._tracked.preview
        if focus_known is None or cached is not None:
            return None, focus_known, cached
        describe = dict(app_params, target={"selector": ":focused"}, model="orca")
        if self.speech is not None and self.speech.version:
            describe["screenReader"] = self.speech.version
        return batch.add(Method.SPEECH_DESCRIBE, describe), focus_known, None

    def _settle(self, diff: Any, focus: Optional[str], focus_known: Optional[str],
                preview: Optional[List[str]]) -> Optional[List[str]]:
        """Keeps the tracked state current after a step; returns the step's preview (None when the events had not
        told the focus the server reports: no preview rather than a wrong one)."""
        if focus != focus_known:
            preview = None
        with self._events_lock:
            if isinstance(diff, dict) and isinstance(diff.get("toRevision"), int):
                self._tracked.revision = max(self._tracked.revision or 0, diff["toRevision"])
            self._tracked.focus = focus
            self._tracked.preview = preview
        return preview

    @staticmethod
    def _add_node_queries(batch: _Batch, app_params: Dict[str, Any], ids: List[str]) -> List[int]:
        """Asks for the current fields of ``ids``: a few by ``tree.get`` of each (an id lookup), many by
        ``query.find`` of ``[axid=…]`` unions (one scan per 250)."""
        ids = ids[:MAX_DIFF_OPS]
        if len(ids) <= IDS_ONE_BY_ONE:
            return [batch.add(Method.TREE_GET, dict(app_params, format="json", root={"id": node}, depth=1))
                    for node in ids]
        return [batch.add(Method.QUERY_FIND, dict(app_params, selector=_axid_selector(ids[start:start + IDS_PER_QUERY]),
                                             limit=len(ids[start:start + IDS_PER_QUERY])))
                for start in range(0, len(ids), IDS_PER_QUERY)]

    def _bounded_diff(self, conn: Any, client: Any, diff: Any,
                      nodes: Dict[str, Any]) -> Tuple[Optional[Dict[str, Any]], int]:
        if not isinstance(diff, dict):
            return None, 0
        if diff.get("fromRevision") == diff.get("toRevision"):
            return diff, 0
        diff, dropped = bound_diff(diff)
        self.dropped["diffOps"] += dropped
        changed = [node for node in list(diff.get("added") or []) + list(diff.get("updated") or {})
                   if isinstance(node, str)]
        missing = [node for node in changed if node not in nodes]
        if missing:
            batch = _Batch(conn, self.batch_timeout)
            self._add_node_queries(batch, self._app_params({}, client), missing)
            nodes.update(_nodes_of(batch.run()))
        diff["nodes"] = {node: nodes[node] for node in changed if node in nodes}
        return diff, dropped

    def _picture(self, render: Any, element: Any, after: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        if not isinstance(render, dict) or not isinstance(render.get("data"), str):
            return None
        outline = []
        if isinstance(element, dict) and isinstance(element.get("frame"), dict):
            outline.append({"id": element.get("id"), "frame": _frame(element["frame"]), "why": "target"})
        nodes = (after.get("diff") or {}).get("nodes") or {}
        for node_id, node in list(nodes.items())[:200]:
            if isinstance(node, dict) and isinstance(node.get("frame"), dict):
                outline.append({"id": node_id, "frame": _frame(node["frame"]), "why": "changed"})
        return {
            "mime": "image/png",
            "base64": render["data"],
            "width": render.get("width"),
            "height": render.get("height"),
            "origin": list(PICTURE_ORIGIN),
            "outline": outline,
        }

    # -- secrets ---------------------------------------------------------------------------------------------

    def _secret_texts(self, method: str, params: Dict[str, Any], element: Any) -> List[str]:
        """The typed texts of this step that must not enter the trace (its target is secure, or unknown)."""
        names = TEXT_PARAMS.get(method) or KEY_PARAMS.get(method)
        if not names:
            return []
        secure = _is_secure(element)
        if secure is False or (secure is None and method in KEY_PARAMS):
            return []     # text aimed at an unknown target is masked; key names only when they reach a secure field
        texts: List[str] = []
        for name in names:
            value = params.get(name)
            if isinstance(value, str) and value:
                texts.append(value)
            elif isinstance(value, list):
                texts.extend(str(item) for item in value if isinstance(item, str) and len(item) > 1)
        return texts

    def _safe_params(self, params: Dict[str, Any], masked: bool, method: str = "") -> Dict[str, Any]:
        safe = {key: (MASK if key in SECRET_KEYS else value) for key, value in params.items()}
        if masked:
            for name in TEXT_PARAMS.get(method) or KEY_PARAMS.get(method) or ():
                if name in safe:
                    safe[name] = MASK
            safe["masked"] = True
        return safe

    # -- writing -----------------------------------------------------------------------------------------------

    def _add_result(self, step: Dict[str, Any], result: Any, error: Optional[BaseException]) -> None:
        if error is not None:
            step["result"] = None
            return
        recorded, cut = cut_result(result)
        step["result"] = recorded
        if cut:
            step["resultCut"] = True

    def _note_events_dropped(self, step: Dict[str, Any], dropped: int) -> None:
        if dropped:
            step["eventsDropped"] = dropped
            self.dropped["events"] += dropped

    def _connection_lost_note(self, error: Optional[BaseException]) -> None:
        """A lost connection (the server stopped or restarted) is a note step; the next step takes a snapshot."""
        if isinstance(error, AXConnectionError) and not isinstance(error, RPCError):
            with self._events_lock:
                self._tracked = _Tracked()
                self._snapshot_due = True
            if not self._lost:
                self._lost = True
                self.note("server.connectionLost", "the connection to the server was lost (%s); later steps start "
                          "from a new snapshot" % error)
        elif error is None:
            self._lost = False

    def _begin_speech(self) -> int:
        self._flush_pending()
        if self.speech is None:
            return -1
        try:
            return self.speech.mark()
        except (AXError, OSError):
            return -1

    def _flush_pending(self, settle: bool = False) -> None:
        """Writes the step held for the screen reader's speech (with what it said since), then the steps held
        behind it."""
        pending, self._pending = self._pending, None
        held, self._held = self._held, []
        if pending is None:
            return
        step, mark = pending
        if self.speech is not None and mark >= 0:
            try:
                if settle:
                    self.speech.settle()
                step["speech"]["orca"] = self.speech.since(mark)[:MAX_UTTERANCES]
            except (AXError, OSError, AssertionError):
                pass
        self.writer.step(step)
        for later in held:
            self.writer.step(later)

    def _emit(self, step: Dict[str, Any], speech_mark: int = -1) -> None:
        """Numbers and writes a step; with a screen reader a full step is held until the next one begins (Orca
        speaks after the call returns), and light steps wait behind it so the file stays in step order."""
        self.steps += 1
        numbered = {"step": self.steps}
        numbered.update(step)
        if self.speech is not None and speech_mark >= 0:
            self._flush_pending()
            self._pending = (numbered, speech_mark)
        elif self._pending is not None and len(self._held) < MAX_HELD_STEPS:
            self._held.append(numbered)
        else:
            self._flush_pending()
            self.writer.step(numbered)

    def note(self, method: str, message: str, **fields: Any) -> None:
        """A ``note`` step (a failure, a restart, an attachment)."""
        with self._lock:
            step = {
                "kind": "note",
                "method": method,
                "params": {},
                "target": None,
                "t": self._now(),
                "ms": 0.0,
                "revision": None,
                "diff": None,
                "focus": None,
                "events": self._drain_events()[0],
                "speech": {"orca": None, "preview": None},
                "result": None,
                "error": None,
                "message": message,
            }
            step.update(fields)
            self._emit(step)

    def finish(self) -> None:
        """Writes any held step (with the screen reader's speech, settled) and the end line."""
        with self._lock:
            self._flush_pending(settle=True)
            for client in list(self._clients):
                self.detach(client)
            self.writer.end(self.steps, dict(self.dropped))


def _frame(frame: Dict[str, Any]) -> List[float]:
    return [frame.get("x", 0), frame.get("y", 0), frame.get("width", 0), frame.get("height", 0)]
