"""The adapter kit: what a mirror adapter for any in-process toolkit (Tk today; Kivy, pygame_gui, Dear ImGui next)
shares, so that an adapter is a mapping of its toolkit's widgets, not a copy of the publishing machinery
(Specs/tk-adapter.md §Adapter kit). Standard library only.

* :mod:`axclient.kit.patches` — flat view trees → ``hierarchy.update`` ops (``diff``), the focus-first split of a
  patch (``focus_first``), text splices, and the string limits of view properties (``clip_text``).
* :mod:`axclient.kit.link` — the server connection on its own thread (``Link``): connect, reconnect, register,
  send in order, back off after a refused snapshot, leave after the last action's answer.
"""
from .link import Link
from .patches import clip_text, diff, focus_first

__all__ = ["Link", "clip_text", "diff", "focus_first"]
