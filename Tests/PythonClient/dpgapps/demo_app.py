"""Dear PyGui's own demo (``dearpygui.demo.show_demo()``, hundreds of items), unmodified, started the way Dear
PyGui's README starts it. """
import dearpygui.dearpygui as dpg
import dearpygui.demo as demo

dpg.create_context()
dpg.create_viewport(title="Dear PyGui Demo", width=1200, height=900, x_pos=0, y_pos=0)
demo.show_demo()
dpg.setup_dearpygui()
dpg.show_viewport()
dpg.start_dearpygui()
dpg.destroy_context()
