#!/usr/bin/python3
"""The GTK4 twin of `axserver --demo`: the same controls with the same names, so one key script runs on both.

Usage: /usr/bin/python3 Tools/gtk4_demo_twin.py [--name NAME]

Needs a display (Xvfb) and the AT-SPI stack (Tools/a11y-stack.sh start --xvfb --private-home); run it with
GSK_RENDERER=cairo. The AT-SPI application name is NAME (default "gtk4-demo-twin"); the window title is
"Settings", like the demo's key window. Controls, in the demo's order (Sources/AXDemo/DemoApp.swift):

  tool bar   "General" button (the navigation bar's back button), heading "Accessibility", "Edit" button
  list       heading "Connectivity"; rows Wi-Fi (switch, on), Bluetooth (switch, off), "Display & Brightness",
             "About, AXServer" (label About, detail AXServer); label "Toggles apply immediately."
  heading    "Preferences"; "Text Size" slider (0…100, 50 — the demo shows 0.5 as "50%"), "Copies" spin button
             (1…10, 2), "Appearance" radio group (Light, Dark, Automatic; Light selected), "Device Name" entry
             (placeholder "Device Name"), image "Profile photo", label "Uptime 0 s", "Reset All Settings" button
             (description "Asks before resetting"), "Help" link
  tabs       page tab list Home, Settings (selected), Profile
  alert      "Reset All Settings" opens a modal alert "Reset All Settings?" / "This cannot be undone." with
             Cancel and Reset; Escape or Cancel closes it and focus returns to "Reset All Settings".

Lines on stdout (flushed): "READY" once the window is mapped, "ACTIVATED <name>" when a button, row or link is
activated, "ALERT shown" / "ALERT closed", "TEXT <entry text>" when the entry changes. Tests wait for them.
Must run with the Debian python (/usr/bin/python3): the pyenv python on PATH has no python3-gi.
"""
import argparse
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

Prop = Gtk.AccessibleProperty


def say(line):
    print(line, flush=True)


def labelled(widget, name, description=None):
    """Gives a widget its accessible name (and description) the way an app without a visible label does."""
    props = [Prop.LABEL]
    values = [name]
    if description:
        props.append(Prop.DESCRIPTION)
        values.append(description)
    widget.update_property(props, values)
    return widget


def heading(text, level):
    label = Gtk.Label(label=text, xalign=0, accessible_role=Gtk.AccessibleRole.HEADING)
    label.update_property([Prop.LEVEL], [level])
    return label


def button(text, on_click=None, description=None):
    widget = Gtk.Button(label=text)
    if description:
        widget.update_property([Prop.DESCRIPTION], [description])
    widget.connect("clicked", on_click or (lambda _b: say("ACTIVATED " + text)))
    return widget


class Twin:
    def __init__(self, app, name):
        self.app = app
        self.name = name
        self.alert = None
        self.window = Gtk.ApplicationWindow(application=app, title="Settings")
        self.window.set_default_size(390, 844)
        page = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        page.append(self.nav_bar())
        page.append(self.table())
        page.append(self.preferences())
        page.append(self.tab_bar())
        self.window.set_child(page)
        self.window.connect("map", lambda *_: GLib.idle_add(lambda: say("READY") and False))

    def nav_bar(self):
        bar = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6, accessible_role=Gtk.AccessibleRole.TOOLBAR)
        bar.append(button("General"))
        title = heading("Accessibility", 1)
        title.set_hexpand(True)
        bar.append(title)
        bar.append(button("Edit"))
        return bar

    def switch_row(self, text, on):
        row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
        label = Gtk.Label(label=text, xalign=0, hexpand=True)
        row.append(label)
        switch = Gtk.Switch(active=on)
        labelled(switch, text)
        switch.connect("notify::active", lambda s, _p: say("SWITCH %s %s" % (text, "on" if s.get_active() else "off")))
        row.append(switch)
        return row

    def table(self):
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=2)
        box.append(heading("Connectivity", 2))
        rows = Gtk.ListBox(selection_mode=Gtk.SelectionMode.NONE)
        for child in (self.switch_row("Wi-Fi", True), self.switch_row("Bluetooth", False)):
            row = Gtk.ListBoxRow(child=child, activatable=False)
            rows.append(row)
        display = Gtk.ListBoxRow(child=Gtk.Label(label="Display & Brightness", xalign=0))
        labelled(display, "Display & Brightness")
        rows.append(display)
        about_box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
        about_box.append(Gtk.Label(label="About", xalign=0, hexpand=True))
        about_box.append(Gtk.Label(label="AXServer"))
        about = Gtk.ListBoxRow(child=about_box)
        labelled(about, "About, AXServer")   # the demo's cell reads its two labels: "About, AXServer"
        rows.append(about)
        rows.connect("row-activated", lambda _l, r: say("ACTIVATED " + (r.get_child().get_label()
                                                                        if isinstance(r.get_child(), Gtk.Label) else "About, AXServer")))
        box.append(rows)
        box.append(Gtk.Label(label="Toggles apply immediately.", xalign=0))
        return box

    def preferences(self):
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
        box.append(heading("Preferences", 2))
        size = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 10)
        size.set_value(50)
        labelled(size, "Text Size")
        box.append(size)
        copies = Gtk.SpinButton.new_with_range(1, 10, 1)
        copies.set_value(2)
        labelled(copies, "Copies")
        box.append(copies)
        group = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=4, accessible_role=Gtk.AccessibleRole.RADIO_GROUP)
        labelled(group, "Appearance")
        first = None
        for title in ("Light", "Dark", "Automatic"):
            radio = Gtk.CheckButton(label=title, accessible_role=Gtk.AccessibleRole.RADIO)
            if first is None:
                first = radio
                radio.set_active(True)
            else:
                radio.set_group(first)
            group.append(radio)
        box.append(group)
        entry = Gtk.Entry(placeholder_text="Device Name")
        labelled(entry, "Device Name")
        entry.connect("changed", lambda e: say("TEXT " + e.get_text()))
        box.append(entry)
        photo = Gtk.Image.new_from_icon_name("avatar-default")
        labelled(photo, "Profile photo")
        box.append(photo)
        box.append(Gtk.Label(label="Uptime 0 s", xalign=0))
        self.reset_button = button("Reset All Settings", self.show_alert, description="Asks before resetting")
        box.append(self.reset_button)
        box.append(Gtk.LinkButton(uri="https://example.invalid/help", label="Help"))
        return box

    def tab_bar(self):
        stack = Gtk.Stack()
        for title in ("Home", "Settings", "Profile"):
            stack.add_titled(Gtk.Label(label=title + " page"), title.lower(), title)
        stack.set_visible_child_name("settings")
        stack.connect("notify::visible-child-name", lambda s, _p: say("TAB " + s.get_visible_child_name()))
        switcher = Gtk.StackSwitcher(stack=stack)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        box.append(stack)
        box.append(switcher)
        return box

    def show_alert(self, _button):
        say("ACTIVATED Reset All Settings")
        dialog = Gtk.MessageDialog(transient_for=self.window, modal=True, message_type=Gtk.MessageType.WARNING,
                                   buttons=Gtk.ButtonsType.NONE, text="Reset All Settings?",
                                   secondary_text="This cannot be undone.")
        dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
        dialog.add_button("Reset", Gtk.ResponseType.ACCEPT)
        dialog.set_default_response(Gtk.ResponseType.CANCEL)
        dialog.connect("response", self.on_alert_response)
        self.alert = dialog
        dialog.present()
        say("ALERT shown")

    def on_alert_response(self, dialog, response):
        say("ALERT closed %s" % ("reset" if response == Gtk.ResponseType.ACCEPT else "cancel"))
        dialog.destroy()
        self.alert = None
        self.window.present()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default="gtk4-demo-twin")
    args = parser.parse_args()
    GLib.set_prgname(args.name)
    GLib.set_application_name(args.name)
    app = Gtk.Application(application_id="org.example.Gtk4DemoTwin", flags=Gio.ApplicationFlags.NON_UNIQUE)
    holder = {}

    def on_activate(application):
        holder["twin"] = Twin(application, args.name)
        holder["twin"].window.present()

    app.connect("activate", on_activate)
    return app.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
