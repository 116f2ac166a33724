"""A provider app that adapts to the user's accessibility settings as a UIKit app does (D-SET-1):

* Reduce Motion (``isReduceMotionEnabled``): the animated banner becomes a still one;
* larger text (``preferredContentSizeCategory``): the greeting grows to UIKit's body size at that category, and
  at an accessibility size the two buttons stack vertically instead of sitting side by side.

Run it beside a server: ``python3 adaptive_settings_app.py [SOCKET]``; tests import :class:`AdaptiveApp`.
"""
import sys
import threading

from axclient import Provider, view


class AdaptiveApp:
    """The app's state is the settings it last applied; every change is published as one patch."""

    def __init__(self, address=None, name="adaptive-settings"):
        self.provider = Provider(name, address)
        self.lock = threading.Lock()
        self.applied = []
        settings = self.provider.accessibility_settings
        self.provider.set_hierarchy(self.windows(settings))
        self.provider.on_settings_changed(self.settings_changed)

    @staticmethod
    def layout(settings):
        """The properties that depend on the settings."""
        body = settings.body_point_size()
        line = round(body * 1.4)
        stacked = settings.isAccessibilityCategory
        banner = ({"accessibilityLabel": "Still banner", "accessibilityValue": "static"}
                  if settings.isReduceMotionEnabled else
                  {"accessibilityLabel": "Animated banner", "accessibilityValue": "animating"})
        return {
            "banner": banner,
            "greeting": {"frame": [16, 120, 358, line], "accessibilityValue": "%d pt" % body},
            "ok": {"frame": [16, 140 + line, 160, 44]},
            "cancel": {"frame": [16, 196 + line, 160, 44] if stacked else [196, 140 + line, 160, 44]},
        }

    def windows(self, settings):
        props = self.layout(settings)
        return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Adaptive", children=[
            view("banner", "UIImageView", [16, 40, 358, 60], isAccessibilityElement=True, **props["banner"]),
            view("greeting", "UILabel", text="Hello", **props["greeting"]),
            view("ok", "UIButton", title="OK", **props["ok"]),
            view("cancel", "UIButton", title="Cancel", **props["cancel"]),
        ])]

    def settings_changed(self, settings, changed):
        """UIKit's …StatusDidChangeNotification handlers, in one: re-lay out and publish."""
        with self.lock:
            ops = [{"op": "set", "id": id, "properties": properties}
                   for id, properties in self.layout(settings).items()]
            self.provider.update(ops)
            self.applied.append(list(changed))

    def close(self):
        self.provider.close()


if __name__ == "__main__":
    app = AdaptiveApp(sys.argv[1] if len(sys.argv) > 1 else None)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        app.close()
