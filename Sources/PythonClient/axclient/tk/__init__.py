"""axclient.tk — make an unmodified tkinter app accessible (Orca, through AXServer) and testable (axclient).

    python3 -m axclient.tk SCRIPT [ARGS…]          # every Tk root the script creates is mirrored
    python3 -m axclient.tk -m MODULE [ARGS…]       # e.g. -m idlelib

or from inside an app::

    import axclient.tk
    axclient.tk.mirror(root)                        # name = the script's name; address as for axclient.Client

Standard library only (tkinter comes from Debian's ``python3-tk``). The widget → view mapping, the label rule,
actions, keys, big text and failure behaviour are written down in Specs/tk-adapter.md.
"""
from __future__ import annotations

import tkinter
from typing import Any, Callable, List, Optional

from .adapters import ADAPTERS, find_adapter, register_actions, register_adapter, set_label
from .mirror import Mirror, TargetGone, TkBusy, default_app_name, warn

__all__ = ["mirror", "install", "uninstall", "mirrors", "Mirror", "register_adapter", "register_actions",
           "set_label", "ADAPTERS",
           "find_adapter", "TargetGone", "TkBusy"]

_MIRRORS: List[Mirror] = []
_ORIGINAL_INIT: Optional[Callable[..., None]] = None


def mirror(root: tkinter.Misc, name: Optional[str] = None, address: Optional[str] = None,
           retry_interval: float = 1.0, forward_keys: Optional[bool] = None) -> Mirror:
    """Mirrors ``root`` (a ``tkinter.Tk``) into AXServer as the app ``name`` (default: the script or module
    name). Returns the :class:`Mirror`; call it on the Tk thread. The server need not be running yet.
    ``forward_keys=False`` (or ``$AXCLIENT_TK_FORWARD_KEYS=0``) stops forwarding keystrokes to the server."""
    for existing in _MIRRORS:
        if existing.root is root and not existing.closed:
            return existing
    created = Mirror(root, name=name, address=address, retry_interval=retry_interval, forward_keys=forward_keys)
    _MIRRORS.append(created)
    return created


def mirrors() -> List[Mirror]:
    """Every mirror this process made (closed ones included)."""
    return list(_MIRRORS)


def install(name: Optional[str] = None, address: Optional[str] = None) -> None:
    """Makes every ``tkinter.Tk()`` created from now on mirrored (what ``python3 -m axclient.tk`` does)."""
    global _ORIGINAL_INIT
    if _ORIGINAL_INIT is not None:
        return
    original = tkinter.Tk.__init__
    _ORIGINAL_INIT = original

    def init(self: tkinter.Tk, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if not getattr(self, "_tkloaded", True):
            return  # tkinter.Tcl(): no widgets
        try:
            mirror(self, name=name, address=address)
        except Exception as error:  # noqa: BLE001 — the app runs on without a mirror
            warn("cannot mirror this Tk root: %s: %s" % (type(error).__name__, error))

    tkinter.Tk.__init__ = init  # type: ignore[method-assign]


def uninstall() -> None:
    """Undoes :func:`install` (existing mirrors keep running)."""
    global _ORIGINAL_INIT
    if _ORIGINAL_INIT is not None:
        tkinter.Tk.__init__ = _ORIGINAL_INIT  # type: ignore[method-assign]
        _ORIGINAL_INIT = None
