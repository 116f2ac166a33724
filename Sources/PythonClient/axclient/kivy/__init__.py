"""axclient.kivy — make an unmodified Kivy app accessible (Orca, through AXServer) and testable (axclient).

    python3 -m axclient.kivy SCRIPT [ARGS…]          # the app's window is mirrored once it starts
    python3 -m axclient.kivy -m MODULE [ARGS…]

or from inside an app::

    import axclient.kivy
    class MyApp(App):
        def on_start(self):
            axclient.kivy.mirror(self)               # name = the script's name; address as for axclient.Client

Standard library only (Kivy itself is the app's, imported lazily). The widget → view mapping, labels, actions, keys
and failure behaviour are written down in Specs/kivy-adapter.md; the publishing machinery is the adapter kit's
(Specs/adapter-kit.md).
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from typing import Any, Callable, List, Optional

from ..kit import TargetGone
from .adapters import ADAPTERS, find_adapter, register_actions, register_adapter, set_label
from .mirror import Mirror, warn

__all__ = ["mirror", "install", "uninstall", "mirrors", "Mirror", "register_adapter", "register_actions",
           "set_label", "ADAPTERS", "find_adapter", "TargetGone"]

_MIRRORS: List[Mirror] = []
_SETTINGS: dict = {}
_ORIGINAL_INIT: Optional[Callable[..., None]] = None


def mirror(app: Any = None, name: Optional[str] = None, address: Optional[str] = None,
           retry_interval: float = 1.0, forward_keys: Optional[bool] = None) -> Optional[Mirror]:
    """Mirrors the Kivy window of ``app`` (a ``kivy.app.App``; None: the window alone, for ``runTouchApp``) into
    AXServer as the app ``name`` (default: the script's name). Call it on Kivy's thread once the window exists
    (``on_start``). The server need not be running yet. Answers the :class:`Mirror`, or None (one stderr line)
    when Kivy has no window (a headless run): the app runs on unmirrored. ``forward_keys=False`` (or
    ``$AXCLIENT_KIVY_FORWARD_KEYS=0``) stops forwarding keystrokes."""
    for existing in _MIRRORS:
        if not existing.closed:
            return existing  # Kivy has one window per process
    try:
        created = Mirror(app, name=name, address=address, retry_interval=retry_interval, forward_keys=forward_keys)
    except RuntimeError as error:
        warn("cannot mirror this Kivy app: %s" % error)
        return None
    _MIRRORS.append(created)
    return created


def mirrors() -> List[Mirror]:
    """Every mirror this process made (closed ones included)."""
    return list(_MIRRORS)


def _on_start(app: Any, *_: Any) -> None:
    try:
        mirror(app, name=_SETTINGS.get("name"), address=_SETTINGS.get("address"))
    except Exception as error:  # noqa: BLE001 — the app runs on without a mirror
        warn("cannot mirror this Kivy app: %s: %s" % (type(error).__name__, error))


def _patch_app(app_class: Any) -> None:
    """Makes every ``App`` mirror its window when it starts (``on_start``, after ``build``)."""
    global _ORIGINAL_INIT
    if _ORIGINAL_INIT is not None:
        return
    original = app_class.__init__
    _ORIGINAL_INIT = original

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.fbind("on_start", _on_start, self)

    app_class.__init__ = init


class _KivyAppHook(importlib.abc.MetaPathFinder):
    """Patches ``kivy.app.App`` as soon as the app imports it, so installing never imports Kivy (Kivy reads
    ``sys.argv`` on import: it must see the app's arguments, not the runner's)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != "kivy.app":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        loader = getattr(spec, "loader", None)
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return spec
        original_exec = loader.exec_module

        def exec_module(module: Any) -> None:
            original_exec(module)
            _patch_app(module.App)

        loader.exec_module = exec_module
        return spec


def install(name: Optional[str] = None, address: Optional[str] = None) -> None:
    """Makes every Kivy ``App`` started from now on mirrored (what ``python3 -m axclient.kivy`` does)."""
    _SETTINGS.update(name=name, address=address)
    module = sys.modules.get("kivy.app")
    if module is not None:
        _patch_app(module.App)
    elif not any(isinstance(finder, _KivyAppHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, _KivyAppHook())


def uninstall() -> None:
    """Undoes :func:`install` (existing mirrors keep running)."""
    global _ORIGINAL_INIT
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, _KivyAppHook)]
    module = sys.modules.get("kivy.app")
    if _ORIGINAL_INIT is not None and module is not None:
        module.App.__init__ = _ORIGINAL_INIT
    _ORIGINAL_INIT = None
