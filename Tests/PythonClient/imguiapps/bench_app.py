"""The benchmark's imgui_bundle app (Tools/bench_imgui.py): ``bench_app.py ITEMS [--mirror] [--tick] [--animate]
[--frames N] [--busy]``. ITEMS buttons and texts in one window; ``--mirror`` calls ``axclient.imgui.enable`` (the
in-process entry) on its RunnerParams; ``--tick`` changes a text every 150 ms and prints ``tick <time>``;
``--animate`` moves a progress bar every frame; ``--busy`` renders without hello_imgui's idling; ``--frames N``
prints the mean and p95 of N frames' time (from before ImGui's NewFrame to before its Render: the app's gui
function plus everything the adapter does in the frame; wall time and the render thread's CPU time) and exits."""
import sys
import time

from imgui_bundle import hello_imgui, imgui, immapp

ITEMS = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 1000
FRAMES = int(sys.argv[sys.argv.index("--frames") + 1]) if "--frames" in sys.argv else 0
state = {"ticks": 0, "next_tick": 0.0, "progress": 0.0, "times": [], "started": None, "first": False,
         "recorded": [], "mirror": None, "cpu": [], "cpu_started": 0.0}


def gui():
    if not state["first"]:
        state["first"] = True
        print("first frame %.6f" % time.time(), flush=True)
    imgui.begin("Bench")
    now = time.time()
    if "--tick" in sys.argv and now >= state["next_tick"]:
        state["next_tick"] = now + 0.15
        state["ticks"] += 1
        print("tick %.6f" % now, flush=True)
    imgui.text("Ticks: %d" % state["ticks"])
    if "--animate" in sys.argv:
        state["progress"] = (state["progress"] + 0.005) % 1.0
    imgui.progress_bar(state["progress"])
    for index in range(ITEMS // 2):
        imgui.button("Item %d" % index)
        imgui.text("Value %d" % index)
    imgui.end()


def frame_begins():
    state["started"] = time.perf_counter()
    state["cpu_started"] = time.thread_time()
    state["seen"] = state["mirror"].stats["recorded"] if state["mirror"] is not None else 0


def frame_ends():
    if state["started"] is None:
        return
    state["times"].append(time.perf_counter() - state["started"])
    state["cpu"].append(time.thread_time() - state["cpu_started"])
    state["recorded"].append(bool(state["mirror"] is not None and state["mirror"].stats["recorded"] != state["seen"]))
    if FRAMES and len(state["times"]) >= FRAMES + 60:
        times = sorted(state["times"][60:])  # after the start-up frames
        print("frames %d mean %.4f ms p95 %.4f ms" % (len(times), 1000 * sum(times) / len(times),
                                                       1000 * times[int(0.95 * (len(times) - 1))]), flush=True)
        pairs = list(zip(state["times"][60:], state["recorded"][60:]))
        recorded = [t for t, r in pairs if r]
        other = [t for t, r in pairs if not r]
        if recorded and other:
            print("recorded %d of %d frames, mean %.4f ms; other frames mean %.4f ms" % (
                len(recorded), len(pairs), 1000 * sum(recorded) / len(recorded), 1000 * sum(other) / len(other)),
                flush=True)
            cpu = list(zip(state["cpu"][60:], state["recorded"][60:]))
            recorded_cpu = [t for t, r in cpu if r]
            other_cpu = [t for t, r in cpu if not r]
            print("cpu recorded %d of %d frames, mean %.4f ms; other frames mean %.4f ms" % (
                len(recorded_cpu), len(cpu), 1000 * sum(recorded_cpu) / len(recorded_cpu),
                1000 * sum(other_cpu) / len(other_cpu)), flush=True)
        hello_imgui.get_runner_params().app_shall_exit = True


params = hello_imgui.RunnerParams()
params.app_window_params.window_title = "Bench"
params.app_window_params.window_geometry.size = (1000, 800)
params.callbacks.show_gui = gui
params.fps_idling.enable_idling = "--busy" not in sys.argv
if "--mirror" in sys.argv:
    import axclient.imgui

    state["mirror"] = axclient.imgui.enable(params)
inner_begin, inner_end = params.callbacks.pre_new_frame, params.callbacks.before_imgui_render


def pre_new_frame():
    frame_begins()
    if inner_begin is not None:
        inner_begin()


def before_imgui_render():
    if inner_end is not None:
        inner_end()
    frame_ends()


params.callbacks.pre_new_frame = pre_new_frame
params.callbacks.before_imgui_render = before_imgui_render
immapp.run(params)
