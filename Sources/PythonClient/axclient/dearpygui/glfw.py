"""Keys reach the server before Dear PyGui (Specs/dearpygui-adapter.md §Focus and keys, D-DPG-KEYS-1): Dear PyGui 2.x on
Linux runs on a GLFW linked into ``_dearpygui.so`` (its ``glfw*`` functions are exported), so the GLFW key callback
ImGui's backend installed on the viewport's window is replaced by one that calls
:meth:`~axclient.kit.core.ToolkitMirror.forward_key` first and hands the key to ImGui's callback only when no
assistive technology consumed it; the character GLFW reports right after a consumed key press is dropped too.
Modifiers stay with their key across frames: the ImGui adapter's :class:`~axclient.imgui.keys.KeyGate` (D-IMGUI-KEYS-1)
holds a modifier's release after a key press until the frame that took the press has been rendered (Dear PyGui polls
GLFW inside ``render_dearpygui_frame``, whose NewFrame takes what it polled). Standard library only (``ctypes`` on the module Dear PyGui already loaded; the GLFW key table is
:mod:`axclient.imgui.keys`'s)."""
from __future__ import annotations

import ctypes
from typing import Any, Dict, List, Optional

from ..imgui.keys import KEYFUN, KeyGate, keysym, modifiers

#: GLFW's character callback: (window, codepoint).
CHARFUN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint)
#: Callbacks kept alive for the life of the process (GLFW holds raw pointers).
_KEEP: List[Any] = []
#: Our own callbacks by address → their chain: a later mirror on the same window (a second mirror, a new context)
#: skips an older forwarder of ours instead of stacking behind it (each key would be forwarded twice).
_OURS: Dict[int, "Chain"] = {}


def library() -> Optional[ctypes.CDLL]:
    """The loaded ``_dearpygui`` extension as a ctypes library (the same instance: ``dlopen`` of a loaded path),
    or None when it does not export GLFW (another platform or build)."""
    try:
        from dearpygui import _dearpygui
        loaded = ctypes.CDLL(_dearpygui.__file__)
        for name in ("glfwGetCurrentContext", "glfwSetKeyCallback", "glfwSetCharCallback"):
            getattr(loaded, name)
    except (ImportError, OSError, AttributeError, TypeError):
        return None
    return loaded


def install(mirror: Any) -> bool:
    """On Dear PyGui's frame thread after a frame (the viewport's GL context is current there): puts the forwarding
    callbacks in front of ImGui's. False when GLFW or its window is not reachable."""
    loaded = library()
    if loaded is None:
        return False
    current = loaded.glfwGetCurrentContext
    current.restype, current.argtypes = ctypes.c_void_p, []
    window = current()
    if not window:
        return False
    set_key, set_char = loaded.glfwSetKeyCallback, loaded.glfwSetCharCallback
    set_key.restype, set_key.argtypes = ctypes.c_void_p, [ctypes.c_void_p, KEYFUN]
    set_char.restype, set_char.argtypes = ctypes.c_void_p, [ctypes.c_void_p, CHARFUN]
    chain = Chain(mirror)
    mirror.key_gate = chain.gate
    key_callback, char_callback = KEYFUN(chain.on_key), CHARFUN(chain.on_char)
    _KEEP.extend((key_callback, char_callback))
    previous_key = set_key(ctypes.c_void_p(window), key_callback)
    previous_char = set_char(ctypes.c_void_p(window), char_callback)
    older = _OURS.get(previous_key or 0)
    if older is not None:  # ours already in front: chain to what it chained to
        chain.next_key, chain.next_char = older.next_key, older.next_char
    else:
        chain.next_key = KEYFUN(previous_key) if previous_key else None
        chain.next_char = CHARFUN(previous_char) if previous_char else None
    for callback in (key_callback, char_callback):
        _OURS[ctypes.cast(callback, ctypes.c_void_p).value or 0] = chain
    return True


class Chain:
    """The forwarding callbacks (GLFW calls them inside ``glfwPollEvents``, on Dear PyGui's frame thread, before
    ImGui's) and ImGui's callbacks they hand unconsumed input to."""

    def __init__(self, mirror: Any) -> None:
        self.mirror = mirror
        self.next_key: Any = None
        self.next_char: Any = None
        #: The last key press was consumed: GLFW reports its character next (same X event); drop that too.
        self.drop_char = False
        #: Unconsumed key events on their way to ImGui (``next_frame`` after each rendered frame).
        self.gate = KeyGate(self._deliver, lambda: True)

    def _deliver(self, event: Any) -> None:
        if self.next_key is not None:
            self.next_key(*event)

    def on_key(self, window: Any, key: int, scancode: int, action: int, mods: int) -> None:
        consumed = False
        try:
            consumed = self.forward(key, action, mods)
        except Exception:  # noqa: BLE001 — a key must reach the app whatever the adapter does
            consumed = False
        if action != 0:
            self.drop_char = consumed
        if not consumed:
            self.gate.key((window, key, scancode, action, mods))

    def on_char(self, window: Any, codepoint: int) -> None:
        if self.drop_char:
            self.drop_char = False
            return
        if self.next_char is not None:
            self.next_char(window, codepoint)

    def forward(self, key: int, action: int, mods: int) -> bool:
        """``input.key`` for a GLFW key event (press, repeat, release); True when an assistive technology consumed
        it. Masked while a password field is being edited (nothing typed there leaves)."""
        mirror = self.mirror
        mirror.note_input()
        name = keysym(key, mods)
        if not name or mirror.closed:
            return False
        char = name if len(name) == 1 else (" " if name == "space" else "")
        return bool(mirror.forward_key(name, modifiers(mods), "release" if action == 0 else "press", char,
                                       into_masked=mirror.editing_secret()))
