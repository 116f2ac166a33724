"""A Dear PyGui app that is hard on an adapter (issue 34's "Bad input"), in its own frame loop; options:
``--flicker`` (a text item created and deleted again every frame: it exists for one frame), ``--churn`` (the
window moves every frame), ``--rows N`` (a table of N rows), ``--no-window`` (a context with no window at all),
``--replace`` (after 150 frames the context is destroyed and a new one made, with another window), ``--shared``
(25 text fields; at frame 60 field 17's value changes through Dear PyGui's unhooked C function, as a value
shared through ``source`` or set by a module imported before the adapter would, then prints "bumped"). Always: three
buttons labelled "OK" without tags (ImGui's id collision), a button that deletes itself, a live frame counter.
Prints "ready" after its third frame and what its callbacks did."""
import sys

import dearpygui._dearpygui as internal_dpg
import dearpygui.dearpygui as dpg

ARGS = sys.argv[1:]


def say(text):
    print(text, flush=True)


def build(title):
    if "--no-window" in ARGS:
        return
    with dpg.window(label=title, tag="host", width=600, height=500, pos=(0, 0)):
        for index in range(3):
            dpg.add_button(label="OK", callback=lambda s, a, u: say("ok %d" % u), user_data=index)
        dpg.add_button(label="Remove me", tag="remove", callback=lambda: (dpg.delete_item("remove"), say("removed")))
        dpg.add_text("frame 0", tag="counter")
        if "--shared" in ARGS:
            for index in range(25):
                dpg.add_input_text(label="Field %d" % index, tag="field%d" % index, default_value="value %d" % index)
        if "--rows" in ARGS:
            rows = int(ARGS[ARGS.index("--rows") + 1])
            with dpg.table(tag="big", header_row=True):
                dpg.add_table_column(label="Index")
                dpg.add_table_column(label="Square")
                for row in range(rows):
                    with dpg.table_row():
                        dpg.add_text(str(row))
                        dpg.add_text(str(row * row))


dpg.create_context()
build("Hostile")
dpg.create_viewport(title="Hostile App", width=640, height=540, x_pos=0, y_pos=0)
dpg.setup_dearpygui()
dpg.show_viewport()
frames = 0
flicker = None
replaced = False
while dpg.is_dearpygui_running():
    dpg.render_dearpygui_frame()
    frames += 1
    if frames == 3:
        say("ready")
    if "--shared" in ARGS and frames == 60:
        try:  # the C function as it was before the adapter wrapped it: a change no hook announces
            from axclient.dearpygui import _ORIGINAL
            unhooked = _ORIGINAL.get("internal:set_value", internal_dpg.set_value)
        except ImportError:
            unhooked = internal_dpg.set_value
        unhooked("field17", "changed past the hooks")
        say("bumped")
    if "--flicker" in ARGS and dpg.does_item_exist("host"):
        if flicker is not None:
            dpg.delete_item(flicker)
        flicker = dpg.add_text("only this frame %d" % frames, parent="host")
    if "--churn" in ARGS and dpg.does_item_exist("host"):
        dpg.set_item_pos("host", [frames % 50, frames % 30])
    if "--replace" in ARGS and frames == 150 and not replaced:
        replaced = True
        dpg.destroy_context()
        dpg.create_context()
        ARGS = [arg for arg in ARGS if arg not in ("--no-window",)]
        build("Replaced")
        dpg.create_viewport(title="Hostile App", width=640, height=540, x_pos=0, y_pos=0)
        dpg.setup_dearpygui()
        dpg.show_viewport()
        say("replaced")
    if frames % 10 == 0 and dpg.does_item_exist("counter"):
        dpg.set_value("counter", "frame %d" % frames)
dpg.destroy_context()
