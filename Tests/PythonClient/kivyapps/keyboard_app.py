"""A keyboard-operable Kivy form (knows nothing of AXServer): Tab moves Kivy's focus (FocusBehavior) through a name
field, a multi-line notes field, a Bold toggle and a Save button; Space/Enter press the buttons; Save opens a Popup
whose OK button has the focus. Prints what its callbacks saw."""
from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.togglebutton import ToggleButton

KV = """
BoxLayout:
    orientation: "vertical"
    padding: 10
    spacing: 6
    BoxLayout:
        size_hint_y: None
        height: 34
        Label:
            text: "Name"
            size_hint_x: 0.3
        TextInput:
            id: name
            text: "Ada"
            multiline: False
            write_tab: False
    Label:
        text: "Notes"
        size_hint_y: None
        height: 24
    TextInput:
        id: notes
        text: "alpha line\\nbeta line\\ngamma line"
        write_tab: False
    BoxLayout:
        size_hint_y: None
        height: 40
        KeyToggle:
            text: "Bold"
            on_state: app.report("bold " + self.state)
        KeyButton:
            text: "Save"
            on_release: app.save()
"""


class KeyPress:
    """Space and Enter press a focused button (what a keyboard-friendly Kivy app adds to FocusBehavior)."""

    def keyboard_on_key_down(self, window, keycode, text, modifiers):
        if keycode[1] in ("spacebar", "enter"):
            self.trigger_action(0)
            return True
        return super().keyboard_on_key_down(window, keycode, text, modifiers)


class KeyButton(KeyPress, FocusBehavior, Button):
    pass


class KeyToggle(KeyPress, FocusBehavior, ToggleButton):
    pass


class KeyboardApp(App):
    def build(self):
        self.title = "Kivy Keyboard"
        return Builder.load_string(KV)

    def on_start(self):
        Clock.schedule_once(lambda dt: self.report("ready"), 0)

    def report(self, line):
        print(line, flush=True)

    def save(self):
        box = BoxLayout(orientation="vertical")
        box.add_widget(Label(text="Saved %s" % self.root.ids.name.text))
        ok = KeyButton(text="OK")
        box.add_widget(ok)
        popup = Popup(title="Saved", content=box, size_hint=(0.6, 0.4))
        ok.bind(on_release=lambda *_: popup.dismiss())
        popup.bind(on_open=lambda *_: setattr(ok, "focus", True))
        popup.bind(on_dismiss=lambda *_: self.report("popup closed"))
        popup.open()
        self.report("saved")


if __name__ == "__main__":
    KeyboardApp().run()
