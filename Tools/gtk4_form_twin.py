#!/usr/bin/python3
"""The GTK4 twin of the Tk form app (Tests/PythonClient/tkapps/form_app.py): the same labels, controls and focus
order, so one key script runs on both and Orca's speech can be compared per key (Specs/tk-adapter.md §Orca).

Usage: /usr/bin/python3 Tools/gtk4_form_twin.py [--name NAME]

Needs a display (Xvfb) and the AT-SPI stack; run it with GSK_RENDERER=cairo. The window title is "Form App", like
the Tk app's. A control labelled by a Label beside or above it in the Tk app gets that Label's text without its
colon as its accessible name here — the name the Tk adapter gives it (Specs/tk-adapter.md §Labels). Controls in
the Tk app's Tab order (Tk's `tk_focusNext`: creation order, depth first):

  Account frame   Name entry ("Ada"), Password entry (hidden), Digits only entry, Newsletter check button,
                  Red / Green / Blue radio buttons (Red selected)
  root            status label "Not submitted", Submit button (sets "Submitted N as NAME"), Disabled button (off)
  controls        Volume scale (0…10), Copies spin button (1…5), Fruit drop-down (apple, pear, plum), progress
                  bar (40 %), Remember me check button, separator
  Themed frame    City entry, Level spin button (0…9, 3), Zoom scale (0…100, 50), Fast / Safe radio buttons, Apply
  side            Cities list (Oslo … Quito), notebook tabs General / Advanced, Files tree (Name, Size columns)
  root            notes text ("first line\\nsecond line"), Open dialog button, Add row button
  menu bar        File (Open..., Wrap lines, Small, Large, Quit), Help (About)

Lines on stdout (flushed): "READY" once the window is mapped; "event: ..." lines as the Tk app prints them
("event: news 1", "event: volume 3", …). Must run with the Debian python (/usr/bin/python3: python3-gi).
"""
import argparse
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

Prop = Gtk.AccessibleProperty


def log(*parts):
    print("event:", *parts, flush=True)


def labelled(widget, name):
    widget.update_property([Prop.LABEL], [name])
    return widget


def label(text):
    return Gtk.Label(label=text, xalign=0)


def framed(title, child):
    frame = Gtk.Frame(label=title)
    frame.set_child(child)
    return frame


def radios(titles, on_change):
    first = None
    out = []
    for title in titles:
        radio = Gtk.CheckButton(label=title)
        if first is None:
            first = radio
            radio.set_active(True)
        else:
            radio.set_group(first)
        radio.connect("toggled", lambda r: r.get_active() and on_change(r.get_label()))
        out.append(radio)
    return out


class FormTwin:
    def __init__(self, app):
        self.count = 0
        self.window = Gtk.ApplicationWindow(application=app, title="Form App", show_menubar=True)
        self.window.set_default_size(900, 980)
        self.menu(app)
        page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
        page.append(self.account())
        self.status = label("Not submitted")
        page.append(self.status)
        page.append(self.buttons())
        page.append(self.controls())
        page.append(self.themed())
        page.append(self.side())
        self.notes = Gtk.TextView()
        self.notes.get_buffer().set_text("first line\nsecond line")
        scroller = Gtk.ScrolledWindow(child=self.notes, min_content_height=70)
        page.append(scroller)
        bottom = Gtk.Box(spacing=4)
        bottom.append(self.button("Open dialog", lambda _b: log("open dialog")))
        bottom.append(self.button("Add row", lambda _b: log("add row")))
        page.append(bottom)
        self.window.set_child(page)
        self.window.connect("map", lambda *_: GLib.idle_add(lambda: print("READY", flush=True) and False))

    def menu(self, app):
        for name in ("open", "about", "quit"):
            action = Gio.SimpleAction.new(name, None)
            action.connect("activate", lambda _a, _p, n=name: app.quit() if n == "quit" else log(n))
            app.add_action(action)
        app.add_action(Gio.SimpleAction.new_stateful("wrap", None, GLib.Variant.new_boolean(False)))
        app.add_action(Gio.SimpleAction.new_stateful("size", GLib.VariantType.new("s"),
                                                     GLib.Variant.new_string("small")))
        bar = Gio.Menu()
        file_menu = Gio.Menu()
        file_menu.append("Open...", "app.open")
        file_menu.append("Wrap lines", "app.wrap")
        sizes = Gio.Menu()
        sizes.append("Small", "app.size::small")
        sizes.append("Large", "app.size::large")
        file_menu.append_section(None, sizes)
        file_menu.append("Quit", "app.quit")
        bar.append_submenu("File", file_menu)
        help_menu = Gio.Menu()
        help_menu.append("About", "app.about")
        bar.append_submenu("Help", help_menu)
        app.set_menubar(bar)

    @staticmethod
    def button(text, on_click, sensitive=True):
        widget = Gtk.Button(label=text, sensitive=sensitive, halign=Gtk.Align.START)
        widget.connect("clicked", on_click)
        return widget

    def account(self):
        grid = Gtk.Grid(column_spacing=4, row_spacing=2)
        grid.attach(label("Name:"), 0, 0, 1, 1)
        self.name = labelled(Gtk.Entry(text="Ada"), "Name")
        grid.attach(self.name, 1, 0, 1, 1)
        grid.attach(label("Password:"), 0, 1, 1, 1)
        grid.attach(labelled(Gtk.PasswordEntry(), "Password"), 1, 1, 1, 1)
        grid.attach(label("Digits only"), 1, 2, 1, 1)
        grid.attach(labelled(Gtk.Entry(), "Digits only"), 1, 3, 1, 1)
        news = Gtk.CheckButton(label="Newsletter")
        news.connect("toggled", lambda b: log("news", int(b.get_active())))
        grid.attach(news, 0, 4, 2, 1)
        for column, radio in enumerate(radios(("Red", "Green", "Blue"), lambda v: log("color", v.lower()))):
            grid.attach(radio, column, 5, 1, 1)
        return framed("Account", grid)

    def submit(self, _button):
        self.count += 1
        self.status.set_label("Submitted %d as %s" % (self.count, self.name.get_text()))

    def buttons(self):
        box = Gtk.Box(spacing=4)
        box.append(self.button("Submit", self.submit))
        box.append(Gtk.Button(label="Disabled", sensitive=False))
        return box

    def controls(self):
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=2, halign=Gtk.Align.START)
        box.append(label("Volume"))
        volume = labelled(Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 10, 1), "Volume")
        volume.set_size_request(120, -1)
        volume.connect("value-changed", lambda s: log("volume", int(s.get_value())))
        box.append(volume)
        box.append(label("Copies"))
        box.append(labelled(Gtk.SpinButton.new_with_range(1, 5, 1), "Copies"))
        box.append(label("Fruit"))
        box.append(labelled(Gtk.DropDown.new_from_strings(["apple", "pear", "plum"]), "Fruit"))
        progress = Gtk.ProgressBar(fraction=0.4)
        box.append(progress)
        box.append(Gtk.CheckButton(label="Remember me"))
        box.append(Gtk.Separator(orientation=Gtk.Orientation.HORIZONTAL))
        return box

    def themed(self):
        grid = Gtk.Grid(column_spacing=4, row_spacing=2)
        grid.attach(label("City:"), 0, 0, 1, 1)
        grid.attach(labelled(Gtk.Entry(), "City"), 1, 0, 1, 1)
        grid.attach(label("Level"), 0, 1, 1, 1)
        level = labelled(Gtk.SpinButton.new_with_range(0, 9, 1), "Level")
        level.set_value(3)
        grid.attach(level, 1, 1, 1, 1)
        grid.attach(label("Zoom"), 0, 2, 1, 1)
        zoom = labelled(Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1), "Zoom")
        zoom.set_value(50)
        zoom.set_size_request(120, -1)
        grid.attach(zoom, 1, 2, 1, 1)
        # The radio pair in a box of its own: in one grid with Apply, GTK 4.8 Tabs from the selected radio past Apply.
        pair = Gtk.Box(spacing=4)
        for radio in radios(("Fast", "Safe"), lambda v: log("mode", v.lower())):
            pair.append(radio)
        grid.attach(pair, 0, 3, 2, 1)
        grid.attach(self.button("Apply", lambda _b: log("apply")), 0, 4, 1, 1)
        return framed("Themed", grid)

    def side(self):
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=2, halign=Gtk.Align.START)
        box.append(label("Cities"))
        cities = labelled(Gtk.ListBox(), "Cities")
        for city in ("Oslo", "Lima", "Pune", "Kyiv", "Accra", "Quito"):
            cities.append(Gtk.Label(label=city, xalign=0))
        box.append(cities)
        notebook = Gtk.Notebook()
        notebook.append_page(label("General settings"), Gtk.Label(label="General"))
        notebook.append_page(label("Advanced settings"), Gtk.Label(label="Advanced"))
        box.append(notebook)
        store = Gtk.TreeStore(str, str)
        docs = store.append(None, ["docs", ""])
        store.append(docs, ["a.txt", "10 KB"])
        store.append(None, ["b.txt", "2 KB"])
        tree = Gtk.TreeView(model=store)
        for column, title in enumerate(("Name", "Size")):
            tree.append_column(Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=column))
        box.append(tree)
        panes = Gtk.Paned(start_child=label("Left pane"), end_child=label("Right pane"))
        box.append(panes)
        return box


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="gtk4-form-twin")
    args = parser.parse_args()
    GLib.set_prgname(args.name)
    GLib.set_application_name(args.name)
    app = Gtk.Application(application_id="org.example.Gtk4FormTwin", flags=Gio.ApplicationFlags.NON_UNIQUE)
    holder = {}

    def on_activate(application):
        holder["twin"] = FormTwin(application)
        holder["twin"].window.present()

    app.connect("activate", on_activate)
    return app.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
