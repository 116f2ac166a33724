"""The adapter kit: what a mirror adapter for any in-process toolkit (Tk today; Kivy, pygame_gui, Dear ImGui next)
shares, so that an adapter is a mapping of its toolkit's widgets, not a copy of the publishing machinery
(Specs/adapter-kit.md). Standard library only.

* :mod:`axclient.kit.core` — :class:`ToolkitMirror`, the base a toolkit's mirror subclasses: snapshots and
  patches, the action queue on the toolkit's thread and its answers, key forwarding, focus-first patches, closing.
* :mod:`axclient.kit.patches` — flat view trees → ``hierarchy.update`` ops (``diff``), the focus-first split of a
  patch (``focus_first``), text splices, and the string limits of view properties (``clip_text``).
* :mod:`axclient.kit.link` — the server connection on its own thread (``Link``): connect, reconnect, register,
  send in order, back off after a refused snapshot, leave after the last action's answer.
* :mod:`axclient.kit.secure` — masked text: ``mask`` a view, ``seal`` every view before it leaves.
* :mod:`axclient.kit.ids` — stable ids for widgets that have no name of their own.
"""
from .core import LoopBusy, TargetGone, ToolkitMirror, part_id, rebuild
from .ids import StableIds
from .link import Link
from .patches import clip_text, diff, focus_first
from .secure import mask, seal

__all__ = ["Link", "LoopBusy", "StableIds", "TargetGone", "ToolkitMirror", "clip_text", "diff", "focus_first",
           "mask", "part_id", "rebuild", "seal"]
