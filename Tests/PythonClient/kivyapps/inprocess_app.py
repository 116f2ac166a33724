"""A Kivy app that mirrors itself (``axclient.kivy.mirror(self)`` in ``on_start``) and registers an adapter for its
own drawn widget class (a fuel gauge drawn on the canvas, which Kivy knows nothing about)."""
from kivy.app import App
from kivy.clock import Clock
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.widget import Widget

import axclient.kivy


class Gauge(Widget):
    level = NumericProperty(0.25)


def gauge_adapter(walker, widget):
    return {"class": "UISlider", "minimumValue": 0.0, "maximumValue": 1.0, "value": float(widget.level),
            "accessibilityLabel": "Fuel"}


def gauge_actions(walker, widget, request):
    if request.action == "increment":
        widget.level = min(1.0, widget.level + 0.25)
        print("gauge %.2f" % widget.level, flush=True)
        return True
    return None


axclient.kivy.register_adapter(Gauge, gauge_adapter)
axclient.kivy.register_actions("Gauge", gauge_actions)


class InProcessApp(App):
    def build(self):
        self.title = "In-process"
        root = BoxLayout()
        self.gauge = Gauge()
        root.add_widget(self.gauge)
        root.add_widget(Button(text="Fill", on_release=lambda *_: setattr(self.gauge, "level", 1.0)))
        return root

    def on_start(self):
        self.mirror = axclient.kivy.mirror(self)
        Clock.schedule_once(lambda dt: print("ready", flush=True), 0)


if __name__ == "__main__":
    InProcessApp().run()
