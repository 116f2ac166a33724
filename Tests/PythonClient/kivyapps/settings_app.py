"""A Kivy settings app that knows nothing of AXServer: a form (kv ids), radio toggles, a slider, a spinner, a
switch, a progress bar, a list with selection (RecycleView), tabs, two screens and a popup. It prints what its
callbacks saw, for the tests to wait on."""
import sys

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.recycleboxlayout import RecycleBoxLayout
from kivy.uix.recycleview.layout import LayoutSelectionBehavior
from kivy.uix.recycleview.views import RecycleDataViewBehavior
from kivy.uix.behaviors import FocusBehavior as _Focus  # noqa: F401

KV = """
<FocusButton>:
<SelectableRow>:
    canvas.before:
        Color:
            rgba: (.2, .4, .8, 1) if self.selected else (0, 0, 0, 1)
        Rectangle:
            pos: self.pos
            size: self.size

ScreenManager:
    id: screens
    Screen:
        name: "settings"
        BoxLayout:
            orientation: "vertical"
            padding: 8
            spacing: 4
            Label:
                text: "Account settings"
                size_hint_y: None
                height: 30
            GridLayout:
                cols: 2
                size_hint_y: None
                height: 170
                row_default_height: 34
                Label:
                    text: "Name:"
                TextInput:
                    id: name
                    text: "Ada"
                    multiline: False
                    on_text_validate: app.report("validated " + self.text)
                Label:
                    text: "Password"
                TextInput:
                    id: password
                    password: True
                    multiline: False
                    text: "hunter2"
                Label:
                    text: "Newsletter"
                CheckBox:
                    id: newsletter
                    on_active: app.report("newsletter %s" % self.active)
                Label:
                    text: "Dark mode"
                Switch:
                    id: dark
                    on_active: app.report("dark %s" % self.active)
                Label:
                    text: "Volume"
                Slider:
                    id: volume
                    min: 0
                    max: 10
                    step: 1
                    value: 3
                    on_value: app.report("volume %d" % self.value)
            BoxLayout:
                size_hint_y: None
                height: 34
                Label:
                    text: "Colour"
                ToggleButton:
                    text: "Red"
                    group: "colour"
                    state: "down"
                    on_state: app.report("colour red %s" % self.state)
                ToggleButton:
                    text: "Green"
                    group: "colour"
                    on_state: app.report("colour green %s" % self.state)
                ToggleButton:
                    text: "Blue"
                    group: "colour"
            BoxLayout:
                size_hint_y: None
                height: 34
                Label:
                    text: "Fruit"
                Spinner:
                    id: fruit
                    text: "apple"
                    values: ["apple", "pear", "plum"]
                    on_text: app.report("fruit " + self.text)
                Label:
                    text: "Progress"
                ProgressBar:
                    id: progress
                    max: 100
                    value: 40
            TextInput:
                id: notes
                text: "first line\\nsecond line\\nthird line"
                size_hint_y: None
                height: 80
            RecycleView:
                id: cities
                viewclass: "SelectableRow"
                data: [{"text": c} for c in app.cities]
                SelectableLayout:
                    default_size: None, 28
                    default_size_hint: 1, None
                    size_hint_y: None
                    height: self.minimum_height
                    orientation: "vertical"
            BoxLayout:
                size_hint_y: None
                height: 40
                FocusButton:
                    id: save
                    text: "Save"
                    on_release: app.save()
                FocusButton:
                    text: "About"
                    on_release: app.root.current = "about"
                Button:
                    text: "Disabled"
                    disabled: True
                Button:
                    text: "Crash"
                    on_release: app.crash()
                Button:
                    text: "Many popups"
                    on_release: app.many_popups()
    Screen:
        name: "about"
        BoxLayout:
            orientation: "vertical"
            Label:
                text: "About this app"
            TabbedPanel:
                do_default_tab: False
                TabbedPanelItem:
                    text: "General"
                    Label:
                        text: "General page"
                TabbedPanelItem:
                    text: "Advanced"
                    Label:
                        text: "Advanced page"
            Button:
                text: "Back"
                size_hint_y: None
                height: 40
                on_release: app.root.current = "settings"
"""


class FocusButton(FocusBehavior, Button):
    """A button reachable by Tab that Space and Enter press (what a keyboard-friendly Kivy app writes)."""

    def keyboard_on_key_down(self, window, keycode, text, modifiers):
        if keycode[1] in ("spacebar", "enter"):
            self.trigger_action(0)
            return True
        return super().keyboard_on_key_down(window, keycode, text, modifiers)


class SelectableLayout(LayoutSelectionBehavior, RecycleBoxLayout):
    pass


class SelectableRow(RecycleDataViewBehavior, Label):
    selected = BooleanProperty(False)
    index = None

    def refresh_view_attrs(self, rv, index, data):
        self.index = index
        return super().refresh_view_attrs(rv, index, data)

    def on_touch_down(self, touch):
        if self.collide_point(*touch.pos):
            return self.parent.select_with_touch(self.index, touch)
        return super().on_touch_down(touch)

    def apply_selection(self, rv, index, is_selected):
        self.selected = is_selected
        if is_selected:
            App.get_running_app().report("selected " + rv.data[index]["text"])


class SettingsApp(App):
    cities = ["Oslo", "Lima", "Kyiv", "Pune", "Nice"]

    def build(self):
        self.title = "Kivy Settings"
        from kivy.core.window import Keyboard, Window
        names = {code: name for name, code in Keyboard.keycodes.items()}
        Window.bind(on_key_down=lambda window, key, *rest: self.report("app key %s" % names.get(key, key)))
        return Builder.load_string(KV)

    def on_start(self):
        Clock.schedule_once(lambda dt: self.report("ready"), 0)

    def report(self, line):
        print(line, flush=True)

    def save(self):
        box = BoxLayout(orientation="vertical")
        box.add_widget(Label(text="Saved %s" % self.root.ids.name.text))
        ok = Button(text="OK")
        box.add_widget(ok)
        popup = Popup(title="Saved", content=box, size_hint=(0.5, 0.4), auto_dismiss=True)
        ok.bind(on_release=lambda *_: popup.dismiss())
        popup.bind(on_dismiss=lambda *_: self.report("popup closed"))
        popup.open()
        self.report("saved " + self.root.ids.name.text)

    def crash(self):
        raise RuntimeError("the app's own bug")

    def many_popups(self):
        for index in range(50):
            popup = Popup(title="Popup %d" % index, content=Label(text="n%d" % index), size_hint=(0.25, 0.25))
            popup._anim_duration = 0  # opened and dismissed without Kivy's fade
            popup.open()
        self.report("50 popups")


if __name__ == "__main__":
    SettingsApp().run()
    sys.exit(0)
