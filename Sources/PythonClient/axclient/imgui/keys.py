"""Keys reach the server before ImGui (Specs/imgui-adapter.md §Focus and keys): the GLFW key callback ImGui's backend
installed is replaced by one that calls :meth:`~axclient.kit.core.ToolkitMirror.forward_key` first and hands the
key to ImGui's callback only when no assistive technology consumed it. Standard library only (``ctypes`` on the
GLFW imgui_bundle ships)."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, List

#: GLFW key codes → X keysym names (glfw3.h).
NAMED: Dict[int, str] = {
    32: "space", 256: "Escape", 257: "Return", 258: "Tab", 259: "BackSpace", 260: "Insert", 261: "Delete",
    262: "Right", 263: "Left", 264: "Down", 265: "Up", 266: "Page_Up", 267: "Page_Down", 268: "Home", 269: "End",
    340: "Shift_L", 341: "Control_L", 342: "Alt_L", 344: "Shift_R", 345: "Control_R", 346: "Alt_R",
    39: "apostrophe", 44: "comma", 45: "minus", 46: "period", 47: "slash", 59: "semicolon", 61: "equal",
}
KEYFUN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int)
#: Callbacks kept alive for the life of the process (GLFW holds raw pointers).
_KEEP: List[Any] = []


def keysym(key: int, mods: int) -> str:
    """The X keysym name of a GLFW key (letters in the case Shift gives them), "" for unknown keys."""
    if 65 <= key <= 90:
        return chr(key) if mods & 1 else chr(key + 32)
    if 48 <= key <= 57:
        return chr(key)
    if 290 <= key <= 314:
        return "F%d" % (key - 289)
    return NAMED.get(key, "")


def modifiers(mods: int) -> List[str]:
    return [name for bit, name in ((1, "shift"), (2, "control"), (4, "alt"), (8, "super")) if mods & bit]


def install(mirror: Any) -> bool:
    """Puts the forwarding callback in front of ImGui's (first frame, the GLFW window exists); False when the app
    runs on another backend."""
    try:
        import imgui_bundle
        from imgui_bundle import hello_imgui
        library = ctypes.CDLL(os.path.join(os.path.dirname(imgui_bundle.__file__), "libglfw.so.3"))
        window = hello_imgui.get_glfw_window_address()
    except (OSError, ImportError, AttributeError, RuntimeError):
        return False
    if not window:
        return False
    setter = library.glfwSetKeyCallback
    setter.restype, setter.argtypes = ctypes.c_void_p, [ctypes.c_void_p, KEYFUN]
    previous: List[Any] = [None]

    def on_key(win: Any, key: int, scancode: int, action: int, mods: int) -> None:
        consumed = False
        try:
            consumed = _forward(mirror, key, action, mods)
        except Exception:  # noqa: BLE001 — a key must reach the app whatever the adapter does
            consumed = False
        if not consumed and previous[0] is not None:
            previous[0](win, key, scancode, action, mods)

    callback = KEYFUN(on_key)
    _KEEP.append(callback)
    address = setter(ctypes.c_void_p(window), callback)
    previous[0] = KEYFUN(address) if address else None
    return True


def _forward(mirror: Any, key: int, action: int, mods: int) -> bool:
    mirror.input_seen = True
    name = keysym(key, mods)
    if not name:
        return False
    char = name if len(name) == 1 else (" " if name == "space" else "")
    return mirror.forward_key(name, modifiers(mods), "release" if action == 0 else "press", char,
                              into_masked=mirror.typing_into_masked())
