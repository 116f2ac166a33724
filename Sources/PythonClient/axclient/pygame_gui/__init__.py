"""axclient.pygame_gui — make an unmodified pygame_gui app accessible (Orca, through AXServer) and testable.

    python3 -m axclient.pygame_gui SCRIPT [ARGS…]      # every UIManager the script creates is mirrored
    python3 -m axclient.pygame_gui -m MODULE [ARGS…]

or from inside an app::

    import axclient.pygame_gui
    axclient.pygame_gui.mirror(manager)              # name = the script's name; address as for axclient.Client

A mapping on the adapter kit (Specs/adapter-kit.md); the element → view mapping, labels, actions, keys and failure
behaviour are in Specs/pygame-gui-adapter.md. Standard library only; pygame_gui is imported when a mirror is made.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

from ..kit import TargetGone
from .adapters import ADAPTERS, find_adapter, register_actions, register_adapter, set_label

__all__ = ["mirror", "install", "uninstall", "mirrors", "register_adapter", "register_actions", "set_label",
           "ADAPTERS", "find_adapter", "TargetGone"]

_MIRRORS: List[Any] = []
_ORIGINAL_INIT: Optional[Callable[..., None]] = None


def mirror(manager: Any, name: Optional[str] = None, address: Optional[str] = None, retry_interval: float = 1.0,
           forward_keys: Optional[bool] = None) -> Any:
    """Mirrors ``manager`` (a ``pygame_gui.UIManager``) into AXServer as the app ``name`` (default: the script
    or module name) and returns the :class:`~axclient.pygame_gui.walker.Mirror`. Call it on the app's thread;
    the server need not be running yet. A process has one mirror: a second manager joins it (a game's scenes
    each with a manager are one app showing the managers drawn into the last frame). ``forward_keys=False`` (or
    ``$AXCLIENT_PGUI_FORWARD_KEYS=0``) stops forwarding keystrokes to the server."""
    from .walker import Mirror
    for existing in _MIRRORS:
        if not existing.closed:
            existing.attach(manager)
            return existing
    created = Mirror(manager, name=name, address=address, retry_interval=retry_interval,
                     forward_keys=forward_keys)
    _MIRRORS.append(created)
    return created


def mirrors() -> List[Any]:
    """Every mirror this process made (closed ones included)."""
    return list(_MIRRORS)


def install(name: Optional[str] = None, address: Optional[str] = None) -> None:
    """Makes every ``pygame_gui.UIManager`` created from now on mirrored (what ``python3 -m
    axclient.pygame_gui`` does)."""
    global _ORIGINAL_INIT
    if _ORIGINAL_INIT is not None:
        return
    import pygame_gui
    from .walker import warn
    original = pygame_gui.UIManager.__init__
    _ORIGINAL_INIT = original

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        try:
            mirror(self, name=name, address=address)
        except Exception as error:  # noqa: BLE001 — the app runs on without a mirror
            warn("cannot mirror this UIManager: %s: %s" % (type(error).__name__, error))

    pygame_gui.UIManager.__init__ = init


def uninstall() -> None:
    """Undoes :func:`install` (existing mirrors keep running)."""
    global _ORIGINAL_INIT
    if _ORIGINAL_INIT is not None:
        import pygame_gui
        pygame_gui.UIManager.__init__ = _ORIGINAL_INIT
        _ORIGINAL_INIT = None
