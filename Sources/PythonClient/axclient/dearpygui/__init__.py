"""axclient.dearpygui — make an unmodified Dear PyGui app accessible (Orca, through AXServer) and testable
(axclient).

    python3 -m axclient.dearpygui SCRIPT [ARGS…]      # the script's Dear PyGui context is mirrored
    python3 -m axclient.dearpygui -m MODULE [ARGS…]

or from inside an app, after ``dpg.create_context()``::

    import axclient.dearpygui
    axclient.dearpygui.mirror()                        # name = the script's name; address as for axclient.Client

Dear PyGui keeps a retained item registry; the adapter walks it between frames (the frame loop —
``start_dearpygui()`` or the app's own ``while is_dearpygui_running(): render_dearpygui_frame()`` — is hooked),
runs the server's actions there (``set_value`` and the item's callback, as a user's edit), and publishes at most
20 patches a second. Standard library only besides Dear PyGui itself. The mapping, ids, frames, keys and failure
behaviour are written down in Specs/dearpygui-adapter.md.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Dict, List, Optional

from ..kit.link import warn
from .mirror import TRACKER, DpgMirror

__all__ = ["mirror", "install", "uninstall", "mirrors", "current", "DpgMirror"]

LOG_SOURCE = "axclient.dearpygui"
#: Name prefixes of Dear PyGui's calls that change the item tree or an item's configuration (hooked to mark the
#: mirror dirty); ``set_value`` marks only that item's value.
MUTATOR_PREFIXES = ("add_", "delete_", "configure_", "set_", "show_", "hide_", "move_", "unstage", "reorder_",
                    "bind_", "focus_item", "reset_", "push_container_stack", "pop_container_stack", "split_frame")

_MIRRORS: List[DpgMirror] = []
_ORIGINAL: Dict[str, Callable[..., Any]] = {}
_INSTALLED: Dict[str, Any] = {}


def _modules() -> Any:
    import dearpygui._dearpygui as internal
    import dearpygui.dearpygui as dpg
    return dpg, internal


def current() -> Optional[DpgMirror]:
    """The mirror of the current Dear PyGui context (None when there is none)."""
    return _MIRRORS[-1] if _MIRRORS and not _MIRRORS[-1].closed else None


def mirrors() -> List[DpgMirror]:
    """Every mirror this process made (closed ones included)."""
    return list(_MIRRORS)


def default_app_name() -> str:
    """The script's name without ``.py`` (``python3 app.py`` → ``app``), else ``dearpygui-app``."""
    base = os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "")
    base = base[:-3] if base.endswith(".py") else base
    return base if base and base != "-c" else "dearpygui-app"


def mirror(name: Optional[str] = None, address: Optional[str] = None, retry_interval: float = 1.0,
           forward_keys: Optional[bool] = None) -> DpgMirror:
    """Mirrors the current Dear PyGui context (call it after ``create_context()``, on the thread that renders) into
    AXServer as the app ``name`` (default: the script's name). The frame loop is hooked, so call it before
    ``start_dearpygui()`` or your own ``render_dearpygui_frame()`` loop. ``forward_keys=False`` (or
    ``$AXCLIENT_DPG_FORWARD_KEYS=0``) stops forwarding keystrokes."""
    existing = current()
    if existing is not None:
        return existing
    _hook()
    dpg, _ = _modules()
    if forward_keys is None:
        forward_keys = os.environ.get("AXCLIENT_DPG_FORWARD_KEYS", "1") not in ("0", "no", "false")
    created = DpgMirror(dpg, name or default_app_name(), address, retry_interval, forward_keys)
    _MIRRORS.append(created)
    return created


def install(name: Optional[str] = None, address: Optional[str] = None) -> None:
    """Mirrors every Dear PyGui context the program renders from now on (what ``python3 -m
    axclient.dearpygui`` does): the mirror is made after the context's first frame."""
    _INSTALLED.update(name=name, address=address)
    _hook()


def uninstall() -> None:
    """Undoes :func:`install` and the hooks (existing mirrors close)."""
    _INSTALLED.clear()
    for made in _MIRRORS:
        made.close()
    if not _ORIGINAL:
        return
    dpg, internal = _modules()
    for key, function in _ORIGINAL.items():
        module, attribute = key.split(":", 1)
        setattr(dpg if module == "dpg" else internal, attribute, function)
    _ORIGINAL.clear()


# -- the hooks -------------------------------------------------------------------------------------------------------

def _after_frame() -> None:
    made = current()
    if made is None and _INSTALLED:
        try:
            made = mirror(name=_INSTALLED.get("name"), address=_INSTALLED.get("address"))
        except Exception as error:  # noqa: BLE001 — the app runs on without a mirror
            _INSTALLED.clear()
            warn("cannot mirror this Dear PyGui context: %s: %s" % (type(error).__name__, error), LOG_SOURCE)
            return
    if made is not None:
        gate = getattr(made, "key_gate", None)
        if gate is not None:
            gate.next_frame()  # the frame took its keys: the ones held back for a frame of their own go now
        made.after_frame()


def _hook() -> None:
    """Hooks the frame loop (``render_dearpygui_frame``, ``start_dearpygui``), ``destroy_context`` and the calls
    that change items (to mark the mirror dirty). Once per process."""
    if _ORIGINAL:
        return
    dpg, internal = _modules()
    render = internal.render_dearpygui_frame
    _ORIGINAL["dpg:render_dearpygui_frame"] = dpg.render_dearpygui_frame
    _ORIGINAL["dpg:start_dearpygui"] = dpg.start_dearpygui
    _ORIGINAL["dpg:destroy_context"] = dpg.destroy_context

    def render_dearpygui_frame(**kwargs: Any) -> None:
        made = current()
        if made is not None:
            made.before_frame()
        render(**kwargs)
        _after_frame()

    def start_dearpygui() -> None:
        if not internal.is_viewport_ok():
            raise RuntimeError("Viewport was not created and shown.")
        while internal.is_dearpygui_running():
            render_dearpygui_frame()

    destroy = dpg.destroy_context

    def destroy_context() -> None:
        made = current()
        if made is not None:
            made.close()
        destroy()

    dpg.render_dearpygui_frame = render_dearpygui_frame
    dpg.start_dearpygui = start_dearpygui
    dpg.destroy_context = destroy_context
    for attribute in dir(internal):
        if attribute.startswith(MUTATOR_PREFIXES) and callable(getattr(internal, attribute)):
            _ORIGINAL["internal:" + attribute] = getattr(internal, attribute)
            setattr(internal, attribute, _tracked(attribute, getattr(internal, attribute)))


def _tracked(attribute: str, function: Callable[..., Any]) -> Callable[..., Any]:
    if attribute == "set_value":
        def set_value(item: Any, value: Any, **kwargs: Any) -> Any:
            TRACKER.value_set(item)
            return function(item, value, **kwargs)
        return set_value

    def changed(*args: Any, **kwargs: Any) -> Any:
        TRACKER.structure += 1
        return function(*args, **kwargs)
    changed.__name__ = attribute
    changed.__doc__ = function.__doc__
    return changed
