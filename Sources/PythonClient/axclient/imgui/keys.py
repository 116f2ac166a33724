"""Keys reach the server before ImGui (Specs/imgui-adapter.md §Focus and keys): the GLFW key callback ImGui's backend
installed is replaced by one that calls :meth:`~axclient.kit.core.ToolkitMirror.forward_key` first and hands the
key to ImGui's callback only when no assistive technology consumed it. Standard library only (``ctypes`` on the
GLFW imgui_bundle ships).

Keys keep their modifiers across ImGui's frames (Specs/imgui-adapter.md §Focus and keys, D-IMGUI-KEYS-1): ImGui's
GLFW backend takes the modifier state from GLFW at each key event, and ImGui applies every event of a frame before
its navigation reads the keys; so a quick shift+Tab whose Tab press and Shift release were taken in the same frame
reached ImGui as Tab (xdotool under Orca 48: 2 runs in 5). A modifier's release after a key press ImGui has not yet
taken therefore waits, with every event after it, until ImGui has taken that press (:class:`KeyGate`)."""
from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, Dict, List, Tuple

#: GLFW key codes → X keysym names (glfw3.h).
NAMED: Dict[int, str] = {
    32: "space", 256: "Escape", 257: "Return", 258: "Tab", 259: "BackSpace", 260: "Insert", 261: "Delete",
    262: "Right", 263: "Left", 264: "Down", 265: "Up", 266: "Page_Up", 267: "Page_Down", 268: "Home", 269: "End",
    340: "Shift_L", 341: "Control_L", 342: "Alt_L", 344: "Shift_R", 345: "Control_R", 346: "Alt_R",
    39: "apostrophe", 44: "comma", 45: "minus", 46: "period", 47: "slash", 59: "semicolon", 61: "equal",
}
KEYFUN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int)
#: GLFW modifier keys → the GLFW ``mods`` bit they set (shift 1, control 2, alt 4, super 8).
MODIFIER_BITS: Dict[int, int] = {340: 1, 344: 1, 341: 2, 345: 2, 342: 4, 346: 4, 343: 8, 347: 8}
#: Events held back at most; beyond, events go to ImGui at once (a stalled loop must not grow memory).
MAX_HELD = 256
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


class KeyGate:
    """Hands GLFW key events to ImGui's own callback (``deliver``), in order, holding back a modifier's release that
    follows a key press ImGui has not taken yet — and every event after it — until ``queue_empty()`` says ImGui took
    all it was given (:meth:`next_frame`, after ImGui's NewFrame). Not covered: a second chord with the same
    modifier before ImGui took the first (ImGui's backend would read the modifier's live state when it is handed)."""

    def __init__(self, deliver: Callable[[Tuple[Any, int, int, int, int]], None],
                 queue_empty: Callable[[], bool]) -> None:
        self.deliver = deliver
        self.queue_empty = queue_empty
        self.held: List[Tuple[Any, int, int, int, int]] = []
        self.press_pending = False  # a key press was handed to ImGui and it may not have taken it yet

    def _waits(self, event: Tuple[Any, int, int, int, int]) -> bool:
        return self.press_pending and event[3] == 0 and event[1] in MODIFIER_BITS

    def key(self, event: Tuple[Any, int, int, int, int]) -> None:
        """One event from GLFW: to ImGui now, or held. At most ``MAX_HELD`` are held (a stalled loop grows
        nothing): when full, the held ones go first, then this one, so ImGui still gets every event in order."""
        if len(self.held) >= MAX_HELD:
            while self.held:
                self._hand(self.held.pop(0))
        if self.held or self._waits(event):
            self.held.append(event)
            return
        self._hand(event)

    def _hand(self, event: Tuple[Any, int, int, int, int]) -> None:
        self.deliver(event)
        if event[3] != 0 and event[1] not in MODIFIER_BITS:
            self.press_pending = True

    def next_frame(self) -> bool:
        """After ImGui's NewFrame: once ImGui took every event it was given, the held ones go, up to the next
        modifier release after a press. True when some went (the loop should run another frame soon)."""
        if not self.queue_empty():
            return False
        self.press_pending = False
        handed = 0
        while self.held and not self._waits(self.held[0]):
            self._hand(self.held.pop(0))
            handed += 1
        return handed > 0


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

    def deliver(event: Tuple[Any, int, int, int, int]) -> None:
        if previous[0] is not None:
            previous[0](*event)

    gate = KeyGate(deliver, lambda: mirror.imgui.get_current_context().input_events_queue.size() == 0)
    mirror.key_gate = gate

    def on_key(win: Any, key: int, scancode: int, action: int, mods: int) -> None:
        consumed = False
        try:
            consumed = _forward(mirror, key, action, mods)
        except Exception:  # noqa: BLE001 — a key must reach the app whatever the adapter does
            consumed = False
        if not consumed:
            gate.key((win, key, scancode, action, mods))

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
