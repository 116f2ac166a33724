"""Opt-in text scaling for Tk apps (D-SET-4): the desktop's text-scaling factor (``a11y.settings``
``textScalingFactor``, GNOME's ``org.gnome.desktop.interface text-scaling-factor``) scales the app's named
fonts, as Dynamic Type scales a UIKit app's text styles.

    from axclient.tk.settings import TextScaling
    scaling = TextScaling(root)              # remembers the fonts' sizes now (factor 1)
    scaling.follow(provider)                 # applies the current factor and every change

Nothing changes unless the app calls this: an app that lays itself out in pixels may not want its fonts to grow.
"""
from __future__ import annotations

import tkinter
import tkinter.font
from typing import Any, Dict, List, Optional

#: GNOME's range for text-scaling-factor; anything else is taken as 1.
MIN_FACTOR = 0.5
MAX_FACTOR = 3.0


def clamp_factor(factor: Any) -> float:
    """The factor to apply: ``factor`` when it is a number in GNOME's range, else 1."""
    try:
        value = float(factor)
    except (TypeError, ValueError):
        return 1.0
    if value != value or value < MIN_FACTOR or value > MAX_FACTOR:
        return 1.0
    return value


def scaled_size(base_size: int, factor: float) -> int:
    """A Tk font size scaled by ``factor``: points (positive) and pixels (negative) keep their sign and unit;
    never 0 (Tk's "default size")."""
    if base_size == 0:
        return 0
    magnitude = max(1, round(abs(base_size) * factor))
    return magnitude if base_size > 0 else -magnitude


class TextScaling:
    """Scales ``root``'s named fonts (TkDefaultFont, TkTextFont, … and the app's own) by the text-scaling
    factor, from the sizes they had when this was made."""

    def __init__(self, root: tkinter.Misc) -> None:
        self.root = root
        self.base_sizes: Dict[str, int] = {}
        for name in tkinter.font.names(root):
            size = tkinter.font.nametofont(name, root=root).cget("size")
            self.base_sizes[name] = int(size)
        self.factor = 1.0

    def apply(self, factor: Any) -> float:
        """Sets every remembered font to its base size × ``factor`` (clamped); returns the factor applied. Call it
        on Tk's thread (:meth:`follow` does)."""
        self.factor = clamp_factor(factor)
        for name, base in self.base_sizes.items():
            try:
                font = tkinter.font.nametofont(name, root=self.root)
            except tkinter.TclError:
                continue  # the app deleted the font
            font.configure(size=scaled_size(base, self.factor))
        return self.factor

    def follow(self, provider: Any, poll_ms: int = 100) -> None:
        """Applies the provider's current factor and every change (``Provider.on_settings_changed``). The change
        arrives on the provider's worker thread, which only records it; Tk's own thread picks it up every
        ``poll_ms`` (an ``after`` timer, so no Tk call ever runs off Tk's thread)."""
        self.apply(provider.accessibility_settings.textScalingFactor)
        self._pending: Optional[float] = None

        def changed(settings: Any, names: List[str]) -> None:
            if "textScalingFactor" in names:
                self._pending = settings.textScalingFactor

        def poll() -> None:
            pending, self._pending = self._pending, None
            if pending is not None:
                self.apply(pending)
            try:
                self.root.after(poll_ms, poll)
            except tkinter.TclError:
                return  # the app's window is gone

        provider.on_settings_changed(changed)
        self.root.after(poll_ms, poll)
