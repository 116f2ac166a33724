"""A provider helper: an app written in Python publishes its view hierarchy and performs actions.

Specs/protocol.md §Provider role and Specs/hierarchy.md describe the wire format; :func:`view` builds views.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from .client import Client
from .settings import AccessibilitySettings, SettingsWatcher
from .methods import Method, ServerRequest

Frame = Union[Sequence[float], Dict[str, float]]


def view(id: str, cls: str = "UIView", frame: Optional[Frame] = None,
         children: Optional[Iterable[Dict[str, Any]]] = None, **properties: Any) -> Dict[str, Any]:
    """A view for :meth:`Provider.set_hierarchy` / :meth:`Provider.insert`: ``{"id", "class", "frame", …}``.

    ``properties`` are UIKit property names (``accessibilityLabel``, ``isOn``, ``title``…, Specs/hierarchy.md).
    """
    node: Dict[str, Any] = {"id": id, "class": cls}
    if frame is not None:
        node["frame"] = list(frame) if not isinstance(frame, dict) else dict(frame)
    node.update(properties)
    if children is not None:
        node["children"] = list(children)
    return node


class ActionRequest:
    """One ``action.perform`` request from the server: ``action`` (activate, increment, decrement, scroll,
    escape, magicTap, custom, setValue, typeText, zoomIn, zoomOut, drag, drop, key, setSelectedTextRange, select…), ``target``
    (the view or virtual-element id; ``""`` = the app), ``element``, ``value``, ``custom_action``, ``direction``, and ``params`` (everything as sent)."""

    __slots__ = ("params",)

    def __init__(self, params: Dict[str, Any]) -> None:
        self.params = params

    @property
    def action(self) -> str:
        """The action name."""
        return str(self.params.get("action", ""))

    @property
    def target(self) -> str:
        """The id of the view (or virtual element) that handles it; ``""`` means the application."""
        return str(self.params.get("target", ""))

    @property
    def element(self) -> Optional[str]:
        """The accessibility element the action was addressed to."""
        return self.params.get("element")

    @property
    def value(self) -> Any:
        """The value (setValue), text (typeText), zoom centre ``{x, y}`` (zoomIn, zoomOut) or descriptor
        ``{name, x, y}`` (drag, drop)."""
        return self.params.get("value")

    @property
    def custom_action(self) -> Any:
        """The custom action (id/name) for ``custom``."""
        return self.params.get("customAction")

    @property
    def direction(self) -> Optional[str]:
        """The scroll direction for ``scroll``."""
        return self.params.get("direction")

    def __repr__(self) -> str:
        return "ActionRequest(%r)" % (self.params,)


ActionHandler = Callable[[ActionRequest], Any]
#: ``on_reset()``: return the app to its initial state and publish that hierarchy before returning.
ResetHandler = Callable[[], Any]


class Provider:
    """An app connection: registers ``name``, publishes a hierarchy, answers actions, posts notifications.

    ``Provider(name, address=None, on_action=callback, **client_options)`` connects and registers (the app id is
    ``provider.app``; ``reclaim_token=`` presents the :attr:`reclaim_token` a previous registration of the id
    ``name`` got, to get that id back — see :meth:`reconnect`). ``on_action(request)`` runs on a worker thread
    for every ``action.perform``; it should update the hierarchy (``provider.set_properties(...)``) *before*
    returning ``True`` (handled) or ``False``, so the caller's action result already reflects the change. An exception becomes an error answer.
    ``on_reset()``, when given, declares that the app can return to its initial state (``app.reset``, WebDriver's
    ``axserver:reset``; D-APP-RESET-1): it runs on a worker thread when a test asks, must publish the initial
    hierarchy (``set_hierarchy``) before it returns, and an exception it raises refuses the reset with its message.
    Without it the server answers a reset request with −32014 "reset not supported".
    The connection also works as an automation client: ``provider.client``.
    """

    def __init__(self, name: str, address: Optional[str] = None, on_action: Optional[ActionHandler] = None,
                 client: Optional[Client] = None, reclaim_token: Optional[str] = None,
                 on_reset: Optional[ResetHandler] = None, **client_options: Any) -> None:
        self.client = client if client is not None else Client(address, client_name=name, **client_options)
        self.on_action = on_action
        self.on_reset = on_reset
        self._address = address
        self._client_options = dict(client_options, client_name=name)
        self._install_handlers(self.client)
        try:
            params = self._register_params(name, reclaim_token)
            result = self.client.call(Method.APP_REGISTER, params)
        except BaseException:
            if client is None:
                self.client.close()
            raise
        #: The app id the server assigned (``name``, or ``name-2``… when taken).
        self.app: str = result["app"]
        #: The secret ``app.register`` answered: presenting it on :meth:`reconnect` gets ``app`` back (D-REL-8).
        self.reclaim_token: Optional[str] = result.get("reclaimToken")
        self.client._registered_app = self.app
        #: The revision of the last accepted snapshot or patch.
        self.revision: Optional[int] = None
        #: Every action request received, in order (handy in tests).
        self.actions: List[ActionRequest] = []
        self._settings_watchers: List[SettingsWatcher] = []

    def reconnect(self, address: Optional[str] = None, **client_options: Any) -> str:
        """Opens a new connection (to ``address``, default the one given at construction) and registers again,
        presenting :attr:`reclaim_token`, so the app gets its id back even when the server has not yet seen the
        old connection close (that stale instance is removed; D-REL-8). The old connection is closed first when
        it is still open. The app comes back empty: publish the hierarchy again (:meth:`set_hierarchy`).
        Returns the app id (``app``), which is the old one unless another app took the name in between.
        """
        if not self.client.closed:
            self.client.close()
        options = dict(self._client_options, **client_options)
        target = address if address is not None else (self._address if self._address is not None
                                                      else self.client.address)
        client = Client(target, **options)
        self._install_handlers(client)
        params = self._register_params(self.app, self.reclaim_token)
        try:
            result = client.call(Method.APP_REGISTER, params)
        except BaseException:
            client.close()
            raise
        self.client = client
        self.app = result["app"]
        self.reclaim_token = result.get("reclaimToken")
        self.client._registered_app = self.app
        self.revision = None
        return self.app

    def _install_handlers(self, client: Client) -> None:
        client.request_handlers[ServerRequest.ACTION_PERFORM] = self._perform
        if self.on_reset is not None:
            client.request_handlers[ServerRequest.APP_RESET] = self._reset

    def _register_params(self, name: str, reclaim_token: Optional[str]) -> Dict[str, Any]:
        params: Dict[str, Any] = {"name": name}
        if reclaim_token:
            params["reclaimToken"] = reclaim_token
        if self.on_reset is not None:
            params["reset"] = True
        return params

    def _reset(self, params: Dict[str, Any]) -> Dict[str, Any]:
        handler = self.on_reset
        if handler is None:
            raise LookupError("this app did not declare reset")
        handler()
        return {"reset": True, "revision": self.revision}

    def _perform(self, params: Dict[str, Any]) -> Dict[str, Any]:
        request = ActionRequest(params)
        self.actions.append(request)
        if self.on_action is None:
            return {"handled": False}
        return {"handled": bool(self.on_action(request))}

    def action_handler(self, handler: ActionHandler) -> ActionHandler:
        """Decorator form: ``@provider.action_handler`` sets ``on_action``."""
        self.on_action = handler
        return handler

    def set_hierarchy(self, windows: List[Dict[str, Any]],
                      restrictions: Optional[List[Dict[str, Any]]] = None) -> Dict[str, Any]:
        """``hierarchy.set``: the full snapshot (windows back to front; optional guided-access restrictions)."""
        params: Dict[str, Any] = {"windows": windows}
        if restrictions is not None:
            params["guidedAccessRestrictions"] = restrictions
        result = self.client.call(Method.HIERARCHY_SET, params)
        self.revision = result.get("revision")
        return result

    def update(self, ops: List[Dict[str, Any]], base_revision: Optional[int] = None) -> Dict[str, Any]:
        """``hierarchy.update``: apply patch ops (insert, remove, move, set); returns the change set."""
        params: Dict[str, Any] = {"ops": ops}
        if base_revision is not None:
            params["baseRevision"] = base_revision
        result = self.client.call(Method.HIERARCHY_UPDATE, params)
        self.revision = result.get("revision")
        return result

    def set_properties(self, id: str, **properties: Any) -> Dict[str, Any]:
        """Sets properties of one view (``None`` restores UIKit's default)."""
        return self.update([{"op": "set", "id": id, "properties": properties}])

    def insert(self, parent: Optional[str], node: Dict[str, Any], index: Optional[int] = None) -> Dict[str, Any]:
        """Inserts a subtree under ``parent`` (``None``: a new window)."""
        op: Dict[str, Any] = {"op": "insert", "parent": parent, "view": node}
        if index is not None:
            op["index"] = index
        return self.update([op])

    def remove(self, id: str) -> Dict[str, Any]:
        """Removes a view and its subtree."""
        return self.update([{"op": "remove", "id": id}])

    def move(self, id: str, parent: Optional[str], index: int) -> Dict[str, Any]:
        """Re-parents or reorders a view."""
        return self.update([{"op": "move", "id": id, "parent": parent, "index": index}])

    def post(self, notification: str, argument: Optional[str] = None,
             priority: Optional[str] = None) -> Dict[str, Any]:
        """``accessibility.post`` (announcement, layoutChanged, screenChanged, pageScrolled…)."""
        params: Dict[str, Any] = {"notification": notification}
        if argument is not None:
            params["argument"] = argument
        if priority is not None:
            params["priority"] = priority
        return self.client.call(Method.ACCESSIBILITY_POST, params)

    def announce(self, text: str, priority: Optional[str] = None) -> Dict[str, Any]:
        """Posts an announcement (VoiceOver speaks ``text``)."""
        return self.post("announcement", text, priority)

    @property
    def accessibility_settings(self) -> AccessibilitySettings:
        """The user's accessibility settings now (``a11y.settings``), under their UIKit names:
        ``provider.accessibility_settings.isReduceMotionEnabled``, ``.preferredContentSizeCategory``."""
        return self.client.accessibility_settings()

    def on_settings_changed(self, callback: Callable[[AccessibilitySettings, List[str]], None]) -> Any:
        """Calls ``callback(settings, changed)`` when the user's settings change (``a11y.settingsChanged``, as
        UIKit's ``…StatusDidChangeNotification``s), on a worker thread of its own, so it may update the
        hierarchy. Returns the subscription id."""
        watcher = SettingsWatcher(callback)
        self._settings_watchers.append(watcher)
        return self.client._subscribe(["a11y.settingsChanged"], None, watcher.sink)

    def close(self) -> None:
        """Disconnects; the app leaves the server (pending actions fail with −32020)."""
        for watcher in self._settings_watchers:
            watcher.close()
        self.client.close()

    def __enter__(self) -> "Provider":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()
