"""A Kivy app that makes its Slider and Switch keyboard-operable the way Specs/kivy-adapter.md (D-KIVY-7) tells an
app author to: FocusBehavior mixed in, arrow keys move the slider by its step, Space/Enter toggle the switch, the
slider focused first. It knows nothing of AXServer and prints what its callbacks saw."""
import sys

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.slider import Slider
from kivy.uix.switch import Switch


class FocusSlider(FocusBehavior, Slider):
    """A Slider that Tab reaches and the arrow keys move by its step."""

    def keyboard_on_key_down(self, window, keycode, text, modifiers):
        step = self.step or (self.max - self.min) / 20
        if keycode[1] in ("left", "down"):
            self.value = max(self.min, self.value - step)
        elif keycode[1] in ("right", "up"):
            self.value = min(self.max, self.value + step)
        else:
            return super().keyboard_on_key_down(window, keycode, text, modifiers)
        return True


class FocusSwitch(FocusBehavior, Switch):
    """A Switch that Tab reaches and Space or Enter toggles."""

    def keyboard_on_key_down(self, window, keycode, text, modifiers):
        if keycode[1] in ("spacebar", "enter"):
            self.active = not self.active
            return True
        return super().keyboard_on_key_down(window, keycode, text, modifiers)


KV = """
GridLayout:
    cols: 2
    Label:
        text: "Volume"
    FocusSlider:
        id: volume
        min: 0
        max: 10
        step: 1
        value: 3
        focus: True
        on_value: app.report("volume %d" % self.value)
    Label:
        text: "Dark mode"
    FocusSwitch:
        id: dark
        on_active: app.report("dark %s" % self.active)
"""


class FocusControlsApp(App):
    def build(self):
        self.title = "Kivy focus controls"
        return Builder.load_string(KV)

    def on_start(self):
        Clock.schedule_once(lambda dt: self.report("ready"), 0)

    def report(self, line):
        print(line, flush=True)


if __name__ == "__main__":
    FocusControlsApp().run()
    sys.exit(0)
