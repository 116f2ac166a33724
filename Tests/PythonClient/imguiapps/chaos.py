"""An imgui_bundle app doing what immediate mode allows and a mirror must survive (issue 34 "Bad input"): two
buttons with the same label and no ``##id`` (ImGui's id collision), an item submitted on odd frames only, a window
that moves every frame, a 100,000-row clipped table, a "Flood" switch submitting 21,000 texts a frame, a "Stall"
button blocking the frame loop until the file named by the first argument exists (at most 30 s; 4.5 s without an
argument), and "Restart" ending the run and starting a second one (a replaced root)."""
import os
import sys
import time

from imgui_bundle import hello_imgui, imgui, immapp

state = {"frame": 0, "flood": False, "stall": False, "restart": False, "run": 1}


def gui():
    state["frame"] += 1
    imgui.set_next_window_pos(imgui.ImVec2(10 + state["frame"] % 50, 10), imgui.Cond_.always)
    imgui.set_next_window_size(imgui.ImVec2(600, 600), imgui.Cond_.always)
    imgui.begin("Chaos %d" % state["run"])
    if imgui.button("OK"):
        print("ok 1", flush=True)
    if imgui.button("OK"):
        print("ok 2", flush=True)
    if state["frame"] % 2:
        imgui.button("Blink")
    if not state.get("closed") and imgui.button("Close me"):
        state["closed"] = True
        print("closed", flush=True)
    if imgui.button("Stall"):
        state["stall"] = True
    if imgui.button("Restart"):
        state["restart"] = True
        hello_imgui.get_runner_params().app_shall_exit = True
    _, state["flood"] = imgui.checkbox("Flood", state["flood"])
    _, state["level"] = imgui.slider_float("Level", state.get("level", 0.5), 0.0, 1.0)
    if state["flood"]:
        for index in range(21000):
            imgui.text("line %d" % index)
    if imgui.begin_table("big", 2, imgui.TableFlags_.scroll_y, imgui.ImVec2(0, 150)):
        clipper = imgui.ListClipper()
        clipper.begin(100000)
        while clipper.step():
            for row in range(clipper.display_start, clipper.display_end):
                imgui.table_next_row()
                imgui.table_next_column()
                imgui.text("row %d" % row)
                imgui.table_next_column()
                imgui.text("value %d" % (row * 7))
        imgui.end_table()
    imgui.end()
    if state["stall"]:
        state["stall"] = False
        print("stalling", flush=True)
        release = sys.argv[1] if len(sys.argv) > 1 else None
        deadline = time.monotonic() + (30.0 if release else 4.5)
        while time.monotonic() < deadline and not (release and os.path.exists(release)):
            time.sleep(0.05)
        print("stalled", flush=True)


immapp.run(gui, window_title="Chaos", window_size=(700, 700))
if state["restart"]:
    state["run"] = 2
    print("second run", flush=True)
    immapp.run(gui, window_title="Chaos again", window_size=(700, 700))
