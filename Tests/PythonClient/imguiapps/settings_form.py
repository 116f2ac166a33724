"""A settings form, a table and a modal popup in one imgui_bundle app (unmodified by the adapter: it knows nothing
of AXServer). Prints ``greeted <name>``, ``saved``, ``deleted`` on stdout so tests see the app's logic ran."""
import sys

from imgui_bundle import imgui, immapp

ROWS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
state = {"name": "", "password": "", "volume": 40, "dark": False, "size": 1, "color": 0, "greeting": "",
         "selected": -1, "progress": 0.0, "animate": "--animate" in sys.argv, "confirm": False}
COLORS = ["Red", "Green", "Blue"]


def form():
    imgui.separator_text("Account")
    _, state["name"] = imgui.input_text("Name", state["name"])
    _, state["password"] = imgui.input_text("Password", state["password"], imgui.InputTextFlags_.password)
    if imgui.button("Greet"):
        state["greeting"] = "Hello, %s!" % (state["name"] or "stranger")
        print("greeted", state["name"], flush=True)
    imgui.text(state["greeting"])
    _, state["volume"] = imgui.slider_int("Volume", state["volume"], 0, 100)
    _, state["dark"] = imgui.checkbox("Dark mode", state["dark"])
    for index, size in enumerate(["Small", "Medium", "Large"]):
        if imgui.radio_button(size, state["size"] == index):
            state["size"] = index
        imgui.same_line()
    imgui.new_line()
    _, state["color"] = imgui.combo("Color", state["color"], COLORS)
    if state["animate"]:
        state["progress"] = (state["progress"] + 0.01) % 1.0
    imgui.progress_bar(state["progress"], imgui.ImVec2(200, 0), "Loading")
    if imgui.button("Save"):
        print("saved", state["name"], state["volume"], state["dark"], COLORS[state["color"]], flush=True)
    if imgui.button("Delete..."):
        imgui.open_popup("Confirm delete")
    if imgui.begin_popup_modal("Confirm delete", None, imgui.WindowFlags_.always_auto_resize)[0]:
        imgui.text("Delete everything?")
        if imgui.button("OK"):
            print("deleted", flush=True)
            imgui.close_current_popup()
        imgui.same_line()
        if imgui.button("Cancel"):
            imgui.close_current_popup()
        imgui.end_popup()


def table():
    if imgui.tree_node("Files"):
        if imgui.begin_table("files", 2, imgui.TableFlags_.borders | imgui.TableFlags_.scroll_y,
                             imgui.ImVec2(0, 200)):
            imgui.table_setup_column("File")
            imgui.table_setup_column("Size")
            imgui.table_headers_row()
            clipper = imgui.ListClipper()
            clipper.begin(ROWS)
            while clipper.step():
                for row in range(clipper.display_start, clipper.display_end):
                    imgui.table_next_row()
                    imgui.table_next_column()
                    clicked, _ = imgui.selectable("file%d.txt" % row, state["selected"] == row)
                    if clicked:
                        state["selected"] = row
                        print("selected", row, flush=True)
                    imgui.table_next_column()
                    imgui.text("%d KB" % (row * 3))
            imgui.end_table()
        imgui.tree_pop()


def extras():
    if imgui.begin_menu_bar():
        if imgui.begin_menu("File"):
            if imgui.menu_item_simple("Open"):
                print("open", flush=True)
            imgui.end_menu()
        imgui.end_menu_bar()
    if imgui.begin_tab_bar("pages"):
        if imgui.begin_tab_item("General")[0]:
            imgui.text("General page")
            imgui.end_tab_item()
        if imgui.begin_tab_item("Advanced")[0]:
            imgui.text("Advanced page")
            imgui.end_tab_item()
        imgui.end_tab_bar()
    changed, state["fruit"] = imgui.list_box("Fruit", state.get("fruit", 0), ["Apple", "Banana", "Cherry"])
    if changed:
        print("fruit", state["fruit"], flush=True)


def gui():
    imgui.get_io().config_flags |= imgui.ConfigFlags_.nav_enable_keyboard  # arrows, Space and Tab reach every item
    for key, name in ((imgui.Key.f8, "F8"), (imgui.Key.f9, "F9")):
        if imgui.is_key_pressed(key):
            print("key", name, flush=True)
    imgui.set_next_window_pos(imgui.ImVec2(10, 10), imgui.Cond_.first_use_ever)
    imgui.set_next_window_size(imgui.ImVec2(500, 600), imgui.Cond_.first_use_ever)
    imgui.begin("Settings", None, imgui.WindowFlags_.menu_bar)
    extras()
    form()
    table()
    imgui.end()


immapp.run(gui, window_title="Settings form", window_size=(800, 700))
