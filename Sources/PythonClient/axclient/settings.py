"""The user's accessibility settings under their UIKit names (``a11y.settings``, D-SET-1).

    settings = client.accessibility_settings()
    if settings.isReduceMotionEnabled: ...
    settings.preferredContentSizeCategory        # "large", "extraLarge", "accessibilityMedium", …
    settings.source("isReduceMotionEnabled")     # {"keys": ["org.gnome.desktop.interface enable-animations"], …}

A provider hears changes (``a11y.settingsChanged``) with :meth:`axclient.Provider.on_settings_changed`.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional

#: The UIKit flags ``a11y.settings`` reports (``UIAccessibility.is…``), plus Linux's on-screen keyboard.
FLAGS = ("isReduceMotionEnabled", "isDarkerSystemColorsEnabled", "isInvertColorsEnabled", "isGrayscaleEnabled",
         "isBoldTextEnabled", "isVoiceOverRunning", "isReduceTransparencyEnabled", "isSwitchControlRunning",
         "isOnScreenKeyboardEnabled")

#: ``UIContentSizeCategory`` names, smallest first, with UIKit's body text size in points.
CONTENT_SIZE_CATEGORIES = (("extraSmall", 14), ("small", 15), ("medium", 16), ("large", 17), ("extraLarge", 19),
                           ("extraExtraLarge", 21), ("extraExtraExtraLarge", 23), ("accessibilityMedium", 28),
                           ("accessibilityLarge", 33), ("accessibilityExtraLarge", 40),
                           ("accessibilityExtraExtraLarge", 47), ("accessibilityExtraExtraExtraLarge", 53))


class AccessibilitySettings:
    """One reading of the settings: each flag as an attribute with its UIKit name (``isReduceMotionEnabled``…),
    ``preferredContentSizeCategory``, ``textScalingFactor``; :meth:`source` says where a value came from."""

    def __init__(self, result: Dict[str, Any]) -> None:
        self._values: Dict[str, Any] = dict(result.get("settings") or {})
        self._sources: Dict[str, Any] = dict(result.get("sources") or {})
        #: ``{"kind": "gsettings"|"none", "backend", "note"}``: who read the settings.
        self.reader: Dict[str, Any] = dict(result.get("reader") or {})
        #: The value and origin of each desktop key read (``"schema key"`` → ``{"value", "origin"}``).
        self.keys: Dict[str, Any] = dict(result.get("keys") or {})

    def __getattr__(self, name: str) -> Any:
        values = self.__dict__.get("_values", {})
        if name in FLAGS:
            return bool(values.get(name, False))
        if name in values:
            return values[name]
        raise AttributeError(name)

    @property
    def preferredContentSizeCategory(self) -> str:  # noqa: N802 (UIKit's name)
        """``UIApplication.preferredContentSizeCategory`` (``"large"`` by default)."""
        return str(self._values.get("preferredContentSizeCategory", "large"))

    @property
    def textScalingFactor(self) -> float:  # noqa: N802
        """The desktop's text-scaling factor (1.0 by default)."""
        return float(self._values.get("textScalingFactor", 1.0))

    @property
    def isAccessibilityCategory(self) -> bool:  # noqa: N802
        """``UIContentSizeCategory.isAccessibilityCategory``."""
        return self.preferredContentSizeCategory.startswith("accessibility")

    def body_point_size(self) -> int:
        """UIKit's body text size in points at the preferred category (17 at ``large``)."""
        return dict(CONTENT_SIZE_CATEGORIES).get(self.preferredContentSizeCategory, 17)

    def source(self, name: str) -> Dict[str, Any]:
        """Where ``name`` comes from: ``{"keys": [...], "rule": ...}`` (no keys: no Linux source, and why)."""
        return dict(self._sources.get(name) or {})

    def as_dict(self) -> Dict[str, Any]:
        """Every value by its UIKit name."""
        return dict(self._values)

    def __repr__(self) -> str:
        on = [name for name in FLAGS if self._values.get(name)]
        return "<AccessibilitySettings %s on=%s>" % (self.preferredContentSizeCategory, on)


class SettingsWatcher:
    """Runs ``callback(settings, changed)`` on one worker thread for each ``a11y.settingsChanged`` (the server
    coalesces bursts; a burst that arrives while the callback runs is folded into the newest reading, so
    nothing queues). Used by :meth:`axclient.Provider.on_settings_changed`."""

    def __init__(self, callback: Callable[[AccessibilitySettings, List[str]], None]) -> None:
        self._callback = callback
        self._lock = threading.Condition()
        self._pending: Optional[AccessibilitySettings] = None
        self._changed: List[str] = []
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="axclient-settings", daemon=True)
        self._thread.start()

    def sink(self, method: str, params: Dict[str, Any]) -> None:
        """The subscription sink (runs on the connection's reader thread: never blocks)."""
        if method != "a11y.settingsChanged":
            if method == "$/closed":
                self.close()
            return
        with self._lock:
            self._pending = AccessibilitySettings({"settings": params.get("settings") or {}})
            self._changed = sorted(set(self._changed) | set(params.get("changed") or []))
            self._lock.notify_all()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                while self._pending is None and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                settings, changed = self._pending, self._changed
                self._pending, self._changed = None, []
            if settings is not None:
                self._callback(settings, changed)
