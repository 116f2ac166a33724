"""A Kivy app of many widgets for live-update tests and the benchmark (knows nothing of AXServer):
``list_app.py N [tick]`` shows N labels in a grid and a tool row; with ``tick`` a status label changes every
150 ms (it prints ``tick <n> <time>``). Buttons: Rename (one label), Add, Remove (the last label), Replace root,
Stall (the loop blocks for 6 s), Stall-then-remove (2 s,
then the Doomed button goes), Doomed. Prints ``ready`` once started."""
import sys
import time

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label


class ListApp(App):
    def build(self):
        self.title = "Kivy List"
        count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
        self.ticks = 0
        root = BoxLayout(orientation="vertical")
        tools = BoxLayout(size_hint_y=None, height=30)
        for text, callback in (("Rename", self.rename), ("Add", self.add), ("Remove", self.remove),
                               ("Replace root", self.replace_root), ("Stall", self.stall),
                               ("Stall, then remove Doomed", self.stall_remove), ("Doomed", self.doomed)):
            button = Button(text=text)
            button.bind(on_release=callback)
            tools.add_widget(button)
            if text == "Doomed":
                self.doomed_button = button
        self.status = Label(text="status 0", size_hint_y=None, height=24)
        self.grid = GridLayout(cols=20)
        for index in range(count):
            self.grid.add_widget(Label(text="item %d" % index, font_size=8))
        root.add_widget(tools)
        root.add_widget(self.status)
        root.add_widget(self.grid)
        if "tick" in sys.argv[2:]:
            Clock.schedule_interval(self.tick, 0.15)
        return root

    def on_start(self):
        Clock.schedule_once(lambda dt: print("ready", flush=True), 0)

    def tick(self, _dt):
        self.ticks += 1
        self.status.text = "status %d" % self.ticks
        print("tick %d %.6f" % (self.ticks, time.time()), flush=True)

    def rename(self, *_):
        self.renames = getattr(self, "renames", 0) + 1
        self.grid.children[-6].text = "renamed %d" % self.renames  # item 5
        print("renamed %d" % self.renames, flush=True)

    def add(self, *_):
        self.grid.add_widget(Label(text="added", font_size=8))
        print("added", flush=True)

    def remove(self, *_):
        self.grid.remove_widget(self.grid.children[0])
        print("removed", flush=True)

    def replace_root(self, *_):
        old = self.root
        Window.remove_widget(old)
        self.root = BoxLayout()
        self.root.add_widget(Button(text="New root button", on_release=lambda *_: print("new root pressed",
                                                                                         flush=True)))
        Window.add_widget(self.root)
        print("replaced", flush=True)

    def stall_remove(self, *_):
        print("stalling", flush=True)
        time.sleep(2)
        self.doomed_button.parent.remove_widget(self.doomed_button)
        print("doomed removed", flush=True)

    def doomed(self, *_):
        print("doomed pressed", flush=True)

    def stall(self, *_):
        print("stalling", flush=True)
        time.sleep(6)  # longer than the kit's 4 s for the loop to take an action
        print("stalled", flush=True)


if __name__ == "__main__":
    ListApp().run()
