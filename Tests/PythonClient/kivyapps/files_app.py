"""A Kivy file picker (knows nothing of AXServer): ``files_app.py FOLDER`` shows a FileChooserListView of FOLDER and
a ScrollView of 60 lines; prints the selection and the scroll position."""
import sys

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.filechooser import FileChooserListView
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView


class FilesApp(App):
    def build(self):
        self.title = "Kivy Files"
        root = BoxLayout()
        chooser = FileChooserListView(path=sys.argv[1])
        chooser.bind(selection=lambda _, selection: print("selection %s" % ",".join(selection), flush=True))
        chooser.bind(path=lambda _, path: print("path %s" % path, flush=True))
        root.add_widget(chooser)
        scroller = ScrollView()
        lines = GridLayout(cols=1, size_hint_y=None, row_default_height=30, row_force_default=True)
        lines.bind(minimum_height=lines.setter("height"))
        for index in range(60):
            lines.add_widget(Label(text="line %d" % index))
        scroller.add_widget(lines)
        scroller.bind(scroll_y=lambda _, value: print("scroll %.2f" % value, flush=True))
        root.add_widget(scroller)
        return root

    def on_start(self):
        Clock.schedule_once(lambda dt: print("ready", flush=True), 0.5)


if __name__ == "__main__":
    FilesApp().run()
