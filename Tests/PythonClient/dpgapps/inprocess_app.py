"""A Dear PyGui app that mirrors itself: it calls ``axclient.dearpygui.mirror()`` after ``create_context()`` (the
in-process entry; the server from $AXSERVER_SOCKET), then runs ``start_dearpygui()``. A counter button's label
changes with each click but keeps its ImGui id (``###count``)."""
import dearpygui.dearpygui as dpg

import axclient.dearpygui

clicks = {"count": 0}


def on_count(sender):
    clicks["count"] += 1
    dpg.set_item_label(sender, "Clicked %d times###count" % clicks["count"])
    print("count %d" % clicks["count"], flush=True)


dpg.create_context()
axclient.dearpygui.mirror(name="inprocess")
with dpg.window(label="In process", pos=(0, 0), width=400, height=200):
    dpg.add_button(label="Clicked 0 times###count", callback=on_count)
dpg.create_viewport(title="In process", width=420, height=220, x_pos=0, y_pos=0)
dpg.setup_dearpygui()
dpg.show_viewport()
print("ready", flush=True)
dpg.start_dearpygui()
dpg.destroy_context()
