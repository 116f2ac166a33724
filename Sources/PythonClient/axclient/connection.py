"""One JSON-RPC 2.0 connection to AXServer: address resolution, newline-delimited JSON framing, a background reader.

The reader thread matches answers to waiting calls by id (so several threads may call at once), hands
notifications to a callback, and runs server→client requests (a provider's ``action.perform``) on a separate
worker thread so that the handler may itself call the server.
"""
from __future__ import annotations

import gc
import itertools
import json
import re
import os
import queue
import socket
import stat
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from .errors import AXConnectionError, ClientTimeout, NoServer, RPCError, error_from_wire
from .methods import Method

#: Answers larger than this are refused (the connection is closed): a guard against a runaway peer.
DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024
#: Messages at least this large (a big ``tree.get``) are decoded with the cyclic garbage collector paused: the
#: decoder makes one object per JSON object, none of them cyclic, and collections triggered while it does would
#: walk them all again (about 40 % of the decoding time of a 10,000-element tree).
LARGE_MESSAGE_BYTES = 256 * 1024
#: What to do when no server answers (the same words as AXSocketPath.noServerHint in Sources/AXRPCClient).
NO_SERVER_HINT = ("start a server with 'axserver --demo' (the demo app) or 'axserver' (then run your app), "
                  "or pass --socket PATH / --tcp HOST:PORT (or set AXSERVER_SOCKET)")

NotificationHandler = Callable[[str, Dict[str, Any]], None]
RequestHandler = Callable[[str, Dict[str, Any]], Any]


def decode_message(line: bytes) -> Any:
    """One JSON message; a large one with the garbage collector paused (restored as it was)."""
    if len(line) < LARGE_MESSAGE_BYTES or not gc.isenabled():
        return json.loads(line)
    gc.disable()
    try:
        return json.loads(line)
    finally:
        gc.enable()


def runtime_directory(run_user_base: str = "/run/user") -> Optional[str]:
    """The user's runtime directory as a desktop session finds it (the servers' rule, AXSocketPath):
    ``$XDG_RUNTIME_DIR`` when set, else ``/run/user/$UID`` when it is a real directory of this user with no group
    or other permission bits (an MCP host starts servers with almost no environment); else None."""
    from_env = os.environ.get("XDG_RUNTIME_DIR")
    if from_env:
        return from_env
    candidate = os.path.join(run_user_base, str(os.geteuid()))
    try:
        info = os.lstat(candidate)
    except OSError:
        return None
    if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and info.st_mode & 0o077 == 0:
        return candidate
    return None


def default_socket_candidates() -> List[str]:
    """The Unix socket paths tried when no address is given, in order.

    ``$AXSERVER_SOCKET``; else ``RUNTIME/axserver.sock`` (:func:`runtime_directory`); else
    ``/tmp/axserver-$UID/axserver.sock`` (and, for servers built before that default, ``/tmp/axserver-$UID.sock``).
    """
    env_socket = os.environ.get("AXSERVER_SOCKET")
    if env_socket:
        return [env_socket]
    candidates = []
    runtime_dir = runtime_directory()
    if runtime_dir:
        candidates.append(os.path.join(runtime_dir, "axserver.sock"))
    uid = os.getuid()
    candidates.append("/tmp/axserver-%d/axserver.sock" % uid)
    candidates.append("/tmp/axserver-%d.sock" % uid)
    return candidates


def resolve_address(address: Optional[str]) -> Tuple[str, Any]:
    """Parses an address into ``("unix", path)`` or ``("tcp", (host, port))``.

    Accepted: ``None`` (the default socket, see :func:`default_socket_candidates`), a path, ``unix:PATH``,
    ``tcp:HOST:PORT`` or ``tcp:[IPv6]:PORT``.
    """
    if address is None:
        candidates = default_socket_candidates()
        for path in candidates:
            if os.path.exists(path):
                return ("unix", path)
        return ("unix", candidates[0])
    if not isinstance(address, str) or not address:
        raise ValueError("address must be a socket path, 'unix:PATH' or 'tcp:HOST:PORT'")
    if address.startswith("unix:"):
        return ("unix", address[len("unix:"):])
    if address.startswith("tcp:"):
        rest = address[len("tcp:"):]
        if rest.startswith("["):
            host, _, port_text = rest[1:].partition("]:")
        else:
            host, _, port_text = rest.rpartition(":")
        if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ValueError("bad TCP address %r: expected tcp:HOST:PORT" % address)
        return ("tcp", (host, int(port_text)))
    return ("unix", address)


#: The start of a successful answer as the server writes it; its id decides whether the line stays undecoded.
_RESULT_PREFIX = re.compile(rb'\{"jsonrpc":"2\.0","id":([0-9]{1,18}),"result":')


class _Pending:
    """A call waiting for its answer; the reader releases ``lock`` when it arrives."""

    __slots__ = ("lock", "result", "error", "on_result", "raw")

    def __init__(self, on_result: Optional[Callable[[Any], None]], raw: bool = False) -> None:
        self.lock = threading.Lock()
        self.lock.acquire()
        self.result: Any = None
        self.error: Optional[BaseException] = None
        self.on_result = on_result
        self.raw = raw


class Connection:
    """A connected JSON-RPC socket with a reader thread. Used by :class:`axclient.Client`; rarely used directly.

    ``call()`` may be used from any number of threads at once. ``on_notification(method, params)`` runs on the
    reader thread and must not block; ``on_request(method, params)`` runs on a worker thread, and its return value
    (or exception) becomes the answer.
    """

    def __init__(self, address: Optional[str] = None, connect_timeout: float = 10.0,
                 on_notification: Optional[NotificationHandler] = None,
                 on_request: Optional[RequestHandler] = None,
                 max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES, name: str = "axclient") -> None:
        kind, where = resolve_address(address)
        self.address = "tcp:%s:%d" % where if kind == "tcp" else where
        #: The resolved address in a form :func:`resolve_address` maps back to exactly (for more connections).
        self.dial_address = "tcp:[%s]:%d" % where if kind == "tcp" else "unix:" + where
        self.kind = kind
        try:
            if kind == "unix":
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(connect_timeout)
                sock.connect(where)
            else:
                sock = socket.create_connection(where, timeout=connect_timeout)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as error:
            tried = "" if address is not None else " (tried %s)" % ", ".join(default_socket_candidates())
            raise NoServer("cannot connect to axserver at %s: %s%s (no server); %s"
                           % (self.address, error.strerror or error, tried, NO_SERVER_HINT)) from error
        sock.settimeout(None)
        self._sock = sock
        self._reader_file = sock.makefile("rb", buffering=65536)
        self._write_lock = threading.Lock()
        self._pending_lock = threading.Lock()
        self._pending: Dict[int, _Pending] = {}
        self._raw_waiting = 0  # calls in _pending with raw (the reader peeks at answers only while some wait)
        self._ids = itertools.count(1)
        self._closed = False
        self._close_reason: Optional[str] = None
        #: An error answer with a null id (e.g. −32021 message too large): the server's last word before closing.
        self.connection_error: Optional[RPCError] = None
        self._max_message_bytes = max_message_bytes
        self.on_notification = on_notification
        self.on_request = on_request
        self._requests: "queue.Queue[Optional[Tuple[Any, str, Dict[str, Any]]]]" = queue.Queue()
        self._request_worker: Optional[threading.Thread] = None
        self._reader = threading.Thread(target=self._read_loop, name="%s-reader" % name, daemon=True)
        self._reader.start()

    # -- sending -----------------------------------------------------------------------------------------------

    def _send(self, message: Dict[str, Any]) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        with self._write_lock:
            if self._closed:
                raise AXConnectionError("connection to %s is closed%s" % (self.address, self._reason_suffix()))
            try:
                self._sock.sendall(data)
                return
            except OSError as error:
                failure = error
        # The server may have answered why it closed (−32021) before the write failed: give the reader a moment.
        if threading.current_thread() is not self._reader:
            self._reader.join(2.0)
        if self.connection_error is not None:
            raise self.connection_error from failure
        raise AXConnectionError("sending to %s failed: %s" % (self.address, failure)) from failure

    def notify(self, method: str, params: Optional[Dict[str, Any]] = None) -> None:
        """Sends a notification (no answer)."""
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._send(message)

    def call(self, method: str, params: Optional[Dict[str, Any]] = None, timeout: Optional[float] = 30.0,
             on_result: Optional[Callable[[Any], None]] = None, cancel_on_timeout: bool = False,
             raw: bool = False) -> Any:
        """Sends a request and returns its ``result``; raises the typed :class:`RPCError` on an error answer.

        ``timeout`` (seconds, ``None`` = forever) bounds the wait for the answer (:class:`ClientTimeout`).
        ``on_result`` runs on the reader thread before any later message is read (used to route events).
        ``raw``: a successful answer comes back as the undecoded message (``bytes``, the whole JSON-RPC line) when
        it starts as the server writes it, for a caller that decodes only what it reads; else decoded as usual.
        """
        request_id = next(self._ids)
        pending = _Pending(None if raw else on_result, raw)
        with self._pending_lock:
            self._pending[request_id] = pending
            self._raw_waiting += 1 if raw else 0
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        try:
            self._send(message)
        except BaseException:
            self._forget(request_id)
            raise
        acquired = pending.lock.acquire(timeout=-1 if timeout is None else max(0.0, timeout))
        if not acquired:
            self._forget(request_id)
            if cancel_on_timeout:
                try:
                    self.notify(Method.CANCEL_REQUEST, {"id": request_id})
                except (OSError, AXConnectionError):
                    pass
            raise ClientTimeout("no answer to %s within %.1f s" % (method, timeout), method=method)
        if pending.error is not None:
            error = pending.error
            if isinstance(error, RPCError) and error.method is None:
                error.method = method
            raise error
        return pending.result

    # -- receiving ---------------------------------------------------------------------------------------------

    def _read_loop(self) -> None:
        reason = "closed by the server"
        try:
            limit = self._max_message_bytes
            while True:
                line = self._reader_file.readline(limit + 1)
                if not line:
                    break
                if len(line) > limit and not line.endswith(b"\n"):
                    reason = "a message from the server exceeded %d bytes" % limit
                    break
                if line.isspace() or (self._raw_waiting and self._deliver_raw(line)):
                    continue
                try:
                    message = decode_message(line)
                except ValueError:
                    reason = "the server sent invalid JSON"
                    break
                if isinstance(message, list):
                    for entry in message:
                        self._dispatch(entry)
                else:
                    self._dispatch(message)
        except (OSError, ValueError) as error:
            reason = "read failed: %s" % error
        finally:
            self._shutdown(reason)

    def _deliver_raw(self, line: bytes) -> bool:
        """Hands ``line`` undecoded to the call waiting for it with ``raw``; False when it is not such an answer."""
        match = _RESULT_PREFIX.match(line)
        if match is None:
            return False
        request_id = int(match.group(1))
        with self._pending_lock:
            pending = self._pending.get(request_id)
            if pending is None or not pending.raw:
                return False
        self._forget(request_id)
        pending.result = line
        pending.lock.release()
        return True

    def _forget(self, request_id: int) -> Optional[_Pending]:
        """Takes the call ``request_id`` out of the waiting ones (None: not waiting)."""
        with self._pending_lock:
            pending = self._pending.pop(request_id, None)
            if pending is not None and pending.raw:
                self._raw_waiting -= 1
        return pending

    def _dispatch(self, message: Any) -> None:
        if not isinstance(message, dict):
            return
        method = message.get("method")
        if isinstance(method, str):
            params = message.get("params")
            if not isinstance(params, dict):
                params = {}
            if "id" in message:
                self._queue_request(message["id"], method, params)
            elif self.on_notification is not None:
                try:
                    self.on_notification(method, params)
                except Exception:  # a bad handler must not kill the reader
                    pass
            return
        request_id = message.get("id")
        if request_id is None and "error" in message:
            self.connection_error = error_from_wire(message["error"])
            return
        if isinstance(request_id, bool) or not isinstance(request_id, int):
            return
        pending = self._forget(request_id)
        if pending is None:
            return
        if "error" in message:
            pending.error = error_from_wire(message["error"])
        else:
            pending.result = message.get("result")
            if pending.on_result is not None:
                try:
                    pending.on_result(pending.result)
                except Exception as error:  # surfaced to the caller
                    pending.error = error
        pending.lock.release()

    def _queue_request(self, request_id: Any, method: str, params: Dict[str, Any]) -> None:
        if self._request_worker is None:
            self._request_worker = threading.Thread(target=self._request_loop, name="axclient-requests",
                                                    daemon=True)
            self._request_worker.start()
        self._requests.put((request_id, method, params))

    def after_requests(self, callback: Callable[[], None]) -> None:
        """Runs ``callback`` on the request worker once every server request received so far was answered (or
        now, when none ever came): an app that quits inside an action leaves after answering it."""
        if self._request_worker is None:
            callback()
            return
        self._requests.put(callback)

    def _request_loop(self) -> None:
        while True:
            item = self._requests.get()
            if item is None:
                return
            if callable(item):
                try:
                    item()
                except Exception:  # noqa: BLE001 — a caller's callback must not end the worker
                    pass
                continue
            request_id, method, params = item
            handler = self.on_request
            try:
                if handler is None:
                    raise LookupError("this client handles no server requests")
                result = handler(method, params)
                reply: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": result}
            except LookupError as error:
                reply = {"jsonrpc": "2.0", "id": request_id,
                         "error": {"code": -32601, "message": str(error), "data": {"method": method}}}
            except Exception as error:
                reply = {"jsonrpc": "2.0", "id": request_id,
                         "error": {"code": -32603, "message": "%s: %s" % (type(error).__name__, error)}}
            try:
                self._send(reply)
            except AXConnectionError:
                return

    # -- closing -----------------------------------------------------------------------------------------------

    def _reason_suffix(self) -> str:
        return "" if not self._close_reason else " (%s)" % self._close_reason

    def _shutdown(self, reason: str) -> None:
        with self._write_lock:
            if self._close_reason is None:
                self._close_reason = reason
            self._closed = True
        with self._pending_lock:
            pending = list(self._pending.values())
            self._pending.clear()
            self._raw_waiting = 0
        for entry in pending:
            if self.connection_error is not None:
                entry.error = self.connection_error
            else:
                entry.error = AXConnectionError("connection to %s closed while waiting: %s" % (self.address, reason))
            entry.lock.release()
        self._requests.put(None)
        if self.on_notification is not None:
            try:
                self.on_notification("$/closed", {"reason": reason})
            except Exception:
                pass

    @property
    def closed(self) -> bool:
        """True once the connection is closed (by either side)."""
        return self._closed

    def close(self, timeout: float = 5.0) -> None:
        """Closes the socket and waits (bounded) for the reader thread to finish."""
        with self._write_lock:
            if self._close_reason is None:
                self._close_reason = "closed by the client"
            self._closed = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        if threading.current_thread() is not self._reader:
            self._reader.join(timeout)
        try:
            self._reader_file.close()
        except OSError:
            pass
        try:
            self._sock.close()
        except OSError:
            pass

