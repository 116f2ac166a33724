"""A Dear PyGui app that knows nothing of AXServer: a settings form, a table of files with selectable rows, and a
modal "Delete?" popup. It prints what its callbacks did (the tests read stdout) and, in its own frame loop,
"ready" after its third frame. ``--animate`` moves a progress bar every frame; ``--manual`` runs its own frame loop instead of
``start_dearpygui()``; ``--raise`` makes the Apply callback raise; ``--stall N`` sleeps N s in the frame loop
when "Stall" is pressed; ``--nav`` turns on ImGui's keyboard navigation; ``--keys`` prints "key F<n>" for each function
key Dear PyGui reports to the app (a handler registry of the app's own)."""
import sys
import time

import dearpygui.dearpygui as dpg

ARGS = sys.argv[1:]
FILES = [("a.txt", "10 KB"), ("b.txt", "2 KB"), ("notes.md", "7 KB")]
state = {"stall": 0.0, "frames": 0}


def say(text):
    print(text, flush=True)


def on_apply(sender, app_data, user_data):
    if "--raise" in ARGS:
        raise RuntimeError("Apply failed on purpose")
    name = dpg.get_value("name")
    dpg.set_value("status", "Saved %s (volume %d, %s)" % (name, dpg.get_value("volume"),
                                                        "dark" if dpg.get_value("dark") else "light"))
    say("apply %s %s" % (sender, user_data))


def on_change(sender, app_data):
    say("changed %s %r" % (sender, app_data))


def on_row(sender, app_data, user_data):
    say("row %s %s" % (user_data, app_data))
    dpg.set_value("status", "Selected %s" % user_data)


def on_delete(sender):
    dpg.configure_item("confirm", show=True)
    say("asked")


def on_confirm(sender, app_data, user_data):
    dpg.configure_item("confirm", show=False)
    dpg.set_value("status", "Deleted" if user_data else "Kept")
    say("confirm %s" % user_data)


def on_stall():
    state["stall"] = float(ARGS[ARGS.index("--stall") + 1]) if "--stall" in ARGS else 3.0
    say("stalling")


dpg.create_context()
if "--nav" in ARGS:
    dpg.configure_app(keyboard_navigation=True)  # ImGui's keyboard navigation: Tab and arrows move the focus
with dpg.window(label="Settings", tag="main", width=620, height=560, pos=(0, 0)):
    with dpg.tab_bar(tag="tabs"):
        with dpg.tab(label="General", tag="general"):
            dpg.add_input_text(label="Name", tag="name", default_value="Ada", callback=on_change)
            dpg.add_input_text(label="Password", tag="password", password=True, default_value="s3cret-pin",
                               callback=on_change)
            dpg.add_checkbox(label="Dark mode", tag="dark", callback=on_change)
            dpg.add_slider_int(label="Volume", tag="volume", min_value=0, max_value=100, default_value=40,
                               callback=on_change)
            dpg.add_combo(["Small", "Medium", "Large"], label="Size", tag="size", default_value="Medium",
                          callback=on_change)
            dpg.add_radio_button(["Red", "Green", "Blue"], tag="color", default_value="Red", horizontal=True,
                                 callback=on_change)
            with dpg.group(horizontal=True):
                dpg.add_text("Copies")
                dpg.add_input_int(tag="copies", default_value=1, width=120, callback=on_change)
            dpg.add_button(label="Apply", tag="apply", callback=on_apply, user_data="form")
            dpg.add_button(label="Stall", callback=on_stall)
        with dpg.tab(label="Files", tag="files"):
            with dpg.table(tag="filetable", header_row=True):
                dpg.add_table_column(label="Name")
                dpg.add_table_column(label="Size")
                for file_name, size in FILES:
                    with dpg.table_row():
                        dpg.add_selectable(label=file_name, callback=on_row, user_data=file_name)
                        dpg.add_text(size)
            dpg.add_button(label="Delete", tag="delete", callback=on_delete)
    with dpg.collapsing_header(label="Advanced", tag="advanced"):
        dpg.add_checkbox(label="Verbose logging", tag="verbose")
    dpg.add_progress_bar(tag="progress", default_value=0.25, overlay="25%")
    dpg.add_text("Not saved", tag="status")
with dpg.window(label="Delete?", tag="confirm", modal=True, show=False, pos=(150, 150), width=260, height=120):
    dpg.add_text("Delete the selected file?")
    with dpg.group(horizontal=True):
        dpg.add_button(label="Delete file", callback=on_confirm, user_data=True)
        dpg.add_button(label="Keep", callback=on_confirm, user_data=False)

if "--keys" in ARGS:
    FUNCTION_KEYS = {getattr(dpg, "mvKey_F%d" % n): "F%d" % n for n in range(1, 13)}
    with dpg.handler_registry():
        dpg.add_key_press_handler(callback=lambda sender, key: say("key %s" % FUNCTION_KEYS[key])
                                  if key in FUNCTION_KEYS else None)

dpg.create_viewport(title="Settings App", width=640, height=600, x_pos=0, y_pos=0)
dpg.setup_dearpygui()
dpg.show_viewport()


def frame():
    dpg.render_dearpygui_frame()
    state["frames"] += 1
    if state["frames"] == 3:
        say("ready")
    if "--animate" in ARGS:
        dpg.set_value("progress", (state["frames"] % 100) / 100.0)
    if state["stall"]:
        time.sleep(state["stall"])
        state["stall"] = 0.0
        say("resumed")


if "--manual" in ARGS or "--animate" in ARGS or "--stall" in ARGS:
    while dpg.is_dearpygui_running():
        frame()
else:
    # (no set_frame_callback for a "ready" line: Dear PyGui 2.3.1 segfaults now and then with one under Xvfb,
    # with or without the adapter; the tests wait for the app in the server instead)
    dpg.start_dearpygui()
dpg.destroy_context()
