"""Dear ImGui (imgui_bundle) apps in AXServer (Specs/imgui-adapter.md): a mapping on the adapter kit.

* ``python3 -m axclient.imgui [--socket PATH] [--name NAME] (SCRIPT | -m MODULE) [ARGS…]`` runs an unmodified
  imgui_bundle app mirrored (:func:`install` patches ``immapp.run`` and ``hello_imgui.run``).
* From inside: ``axclient.imgui.enable(runner_params)`` before ``immapp.run(runner_params)`` (or
  ``hello_imgui.run``); it chains the runner's ``pre_new_frame`` and ``before_imgui_render`` callbacks.

Standard library only; ``imgui_bundle`` is imported when a mirror starts.
"""
from __future__ import annotations

import ctypes
import os
import sys
from typing import Any, Callable, List, Optional

from .mirror import ImGuiMirror

__all__ = ["ImGuiMirror", "enable", "install", "uninstall", "mirrors", "wrap_gui"]

_MIRRORS: List[ImGuiMirror] = []
_SETTINGS = {"name": None, "address": None}
_PATCHED: dict = {}
#: id() of the RunnerParams already enabled → their mirror (an app that calls enable() itself and also runs under
#: ``python3 -m axclient.imgui`` is mirrored once).
_ENABLED: dict = {}


def mirrors() -> List[ImGuiMirror]:
    """The mirrors started in this process (the newest last)."""
    return list(_MIRRORS)


def _app_name(name: Optional[str]) -> str:
    if name:
        return name
    if _SETTINGS["name"]:
        return str(_SETTINGS["name"])
    return os.path.splitext(os.path.basename(sys.argv[0] or "imgui"))[0] or "imgui"


def _waker() -> Optional[Callable[[], None]]:
    """``glfwPostEmptyEvent`` of the GLFW imgui_bundle ships (thread-safe): wakes an idling frame loop."""
    try:
        import imgui_bundle
        library = ctypes.CDLL(os.path.join(os.path.dirname(imgui_bundle.__file__), "libglfw.so.3"))
        post = library.glfwPostEmptyEvent
        post.restype = None
        return post
    except (OSError, AttributeError, ImportError):
        return None


def _start(name: Optional[str], address: Optional[str], title: str) -> ImGuiMirror:
    from imgui_bundle import imgui

    waker = _waker()
    mirror = ImGuiMirror(imgui, _app_name(name), address or _SETTINGS["address"], title=title,
                         waker=(lambda: waker() if mirror.frame_count else None) if waker else None)
    _MIRRORS.append(mirror)
    return mirror


def _first_frame(mirror: ImGuiMirror) -> None:
    from . import keys

    keys.install(mirror)


def _frame_start(mirror: ImGuiMirror) -> None:
    try:
        if mirror.frame_count == 0:
            _first_frame(mirror)
        mirror.frame_start()
    except Exception as error:  # noqa: BLE001 — the app never dies of the adapter
        mirror.warn_once("frame_start", "frame start failed: %s: %s" % (type(error).__name__, error))


def _frame_end(mirror: ImGuiMirror) -> None:
    try:
        gate = getattr(mirror, "key_gate", None)
        # After NewFrame took this frame's events: the keys held back for a frame of their own go to ImGui now.
        if gate is not None and gate.next_frame() and mirror.waker is not None:
            mirror.waker()
        mirror.frame_end()
    except Exception as error:  # noqa: BLE001
        mirror.warn_once("frame_end", "frame end failed: %s: %s" % (type(error).__name__, error))


def wrap_gui(gui: Callable[[], None], mirror: ImGuiMirror) -> Callable[[], None]:
    """``gui`` with the mirror's frame start before it and its frame end after it (even when it raises)."""
    def mirrored_gui() -> None:
        _frame_start(mirror)
        try:
            gui()
        finally:
            _frame_end(mirror)
    return mirrored_gui


def enable(runner_params: Any, name: Optional[str] = None, address: Optional[str] = None) -> ImGuiMirror:
    """Mirrors the app ``runner_params`` (a ``hello_imgui.RunnerParams``) runs: chains its ``pre_new_frame`` and
    ``before_imgui_render`` callbacks (call before ``immapp.run``/``hello_imgui.run``)."""
    if id(runner_params) in _ENABLED:
        return _ENABLED[id(runner_params)]
    title = str(getattr(runner_params.app_window_params, "window_title", "") or "")
    mirror = _start(name, address, title)
    _ENABLED[id(runner_params)] = mirror
    callbacks = runner_params.callbacks
    before, after = callbacks.pre_new_frame, callbacks.before_imgui_render

    def pre_new_frame() -> None:
        _frame_start(mirror)
        if before is not None:
            before()

    def before_imgui_render() -> None:
        if after is not None:
            after()
        _frame_end(mirror)

    callbacks.pre_new_frame = pre_new_frame
    callbacks.before_imgui_render = before_imgui_render
    return mirror


def _patched_run(original: Callable[..., Any]) -> Callable[..., Any]:
    """``immapp.run`` / ``hello_imgui.run`` that mirror the app they run (any of their call forms)."""
    def run(*args: Any, **kwargs: Any) -> Any:
        first = args[0] if args else kwargs.get("runner_params", kwargs.get("simple_params",
                                                                             kwargs.get("gui_function")))
        if callable(first) and not hasattr(first, "callbacks"):
            title = str(args[1] if len(args) > 1 else kwargs.get("window_title", "") or "")
            mirror = _start(None, None, title)
            gui = wrap_gui(first, mirror)
            args = (gui,) + tuple(args[1:]) if args else args
            if not args:
                kwargs["gui_function"] = gui
        elif hasattr(first, "callbacks"):
            mirror = enable(first)
        elif hasattr(first, "gui_function"):
            mirror = _start(None, None, str(getattr(first, "window_title", "") or ""))
            first.gui_function = wrap_gui(first.gui_function, mirror)
        else:
            return original(*args, **kwargs)
        try:
            return original(*args, **kwargs)
        finally:
            mirror.close()
            for key in [key for key, value in _ENABLED.items() if value is mirror]:
                del _ENABLED[key]
    run.__doc__ = original.__doc__
    run.__axclient_original__ = original  # type: ignore[attr-defined]
    return run


def install(name: Optional[str] = None, address: Optional[str] = None) -> None:
    """Patches ``imgui_bundle.immapp.run`` and ``imgui_bundle.hello_imgui.run`` so that every app they run is
    mirrored (the command line's hook)."""
    _SETTINGS["name"], _SETTINGS["address"] = name, address
    from imgui_bundle import hello_imgui, immapp

    for module in (immapp, hello_imgui):
        current = module.run
        if getattr(current, "__axclient_original__", None) is None:
            _PATCHED[module] = current
            module.run = _patched_run(current)


def uninstall() -> None:
    """Undoes :func:`install` (running mirrors keep running)."""
    for module, original in list(_PATCHED.items()):
        module.run = original
        del _PATCHED[module]
