"""Benchmarks of axclient.imgui (Specs/imgui-adapter.md §Figures; not a test: run by hand, needs Xvfb, Mesa GL and a
built axserver; the test venv's python has imgui_bundle):

    .build/test-venv/bin/python Tools/bench_imgui.py [--bin DIR] [frame|per-item|latency|rate|startup|idle-cpu|all]

frame: per-frame time of an app of 1,000 items (500 buttons, 500 texts) with nothing changing, rendering without
  idling, plain and mirrored (axclient.imgui.enable), mean and p95 over 400 frames; the difference is the adapter;
  the recorded frames' extra wall and render-thread CPU time times their share, and the CPU at 60 fps.
per-item: a recorded frame's CPU per item in an ImGui context of the bench's own (no GL: load-independent).
latency: a text changed every 150 ms (the app prints its time) -> `tree.changed` at a subscriber, p50/p95 (n=40).
rate: an animated progress bar (a new value every frame): the app's revisions on the server per second over 3 s.
startup: process start -> first frame, plain and mirrored; mirrored also -> the server's first snapshot (median of 3).
idle-cpu: CPU of the idle app (hello_imgui's idling on) over 10 s, plain and mirrored.
--bin DIR: the folder of the axserver to measure (default .build/debug).
"""
import os
import statistics
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "Tests", "PythonClient")
APP = os.path.join(TESTS, "imguiapps", "bench_app.py")
sys.path.insert(0, TESTS)
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
from axclient.server import ServerProcess  # noqa: E402
from tk_support import PACKAGE_DIR, TkApp, Xvfb, wait_for_app  # noqa: E402

BIN = os.path.join(ROOT, ".build", "debug", "axserver")
IDLE_INTERVAL = 0.24  # ImGuiMirror.idle_record_interval: the back-off while frames stay identical
SCRATCH = tempfile.mkdtemp(prefix="bench-imgui-")  # hello_imgui writes "<title>.ini" into the working directory


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_app(display, server, *args, name="bench_app"):
    return TkApp([APP] + [str(a) for a in args], display, server.socket, runner=False, cwd=SCRATCH,
                 env={"AXSERVER_SOCKET": server.socket, "PYTHONPATH": PACKAGE_DIR})


def frame(display, server):
    results = {}
    for mirrored in (False, True):
        app = run_app(display, server, 1000, "--busy", "--frames", 400, *(["--mirror"] if mirrored else []))
        try:
            line = app.wait_line("frames *", timeout=600)
            split = app.wait_line("recorded *", timeout=10) if mirrored else None
            split_cpu = app.wait_line("cpu recorded *", timeout=10) if mirrored else None
        finally:
            app.stop()
        mean, p95 = float(line.split()[3]), float(line.split()[6])
        results[mirrored] = mean
        print("frame 1,000 items %-9s mean %.3f ms, p95 %.3f ms" % ("mirrored" if mirrored else "plain", mean, p95),
              flush=True)
        if split:
            words = split.split()
            count, total, recorded, other = int(words[1]), int(words[3]), float(words[6]), float(words[11])
            print("frame %s; adapter cost per frame (recorded frames' extra x their share): %.3f ms" % (
                split, (recorded - other) * count / total), flush=True)
            words = split_cpu.split()
            cpu_recorded, cpu_other = float(words[7]), float(words[12])
            print("frame %s; CPU: %.3f ms per frame; at 60 fps (one frame in %.0f recorded while idle): %.3f ms"
                  % (split_cpu, (cpu_recorded - cpu_other) * count / total, IDLE_INTERVAL * 60,
                     (cpu_recorded - cpu_other) / (IDLE_INTERVAL * 60)), flush=True)
    print("frame mirrored - plain (mean, nothing changed; noisy under load): %.3f ms"
          % (results[True] - results[False]), flush=True)


def per_item(display, server):
    """A recorded frame's CPU per item without GL, a window or load-dependent frame times: an ImGui context of its
    own (the renderer's textures flag set, no backend), 500 buttons and 500 texts, recorded and plain frames
    alternating (the minimum of 5 rounds of 40 frames each, process CPU time)."""
    from imgui_bundle import imgui
    from axclient.imgui.record import Recorder

    context = imgui.create_context()
    io = imgui.get_io()
    io.display_size, io.delta_time = (1000, 800), 1 / 60
    io.backend_flags |= imgui.BackendFlags_.renderer_has_textures.value
    io.set_ini_filename("")  # no imgui.ini in the working directory
    recorder = Recorder(imgui)

    def one_frame(recording):
        imgui.new_frame()
        if recording:
            recorder.begin_frame()
        imgui.begin("Bench")
        for index in range(500):
            imgui.button("Item %d" % index)
            imgui.text("Value %d" % index)
        imgui.end()
        if recording:
            recorder.end_frame()
        imgui.end_frame()

    rounds = {False: [], True: []}
    for _ in range(5):
        for recording in (False, True):
            began = time.process_time()
            for _ in range(40):
                one_frame(recording)
            rounds[recording].append((time.process_time() - began) / 40)
    imgui.destroy_context(context)
    plain, recorded = min(rounds[False]), min(rounds[True])
    print("per-item CPU of a recorded frame (1,000 items, no GL): plain frame %.3f ms, recorded %.3f ms: %.2f us an "
          "item" % (plain * 1000, recorded * 1000, (recorded - plain) * 1000), flush=True)


def latency(display, server):
    app = run_app(display, server, 200, "--mirror", "--tick")
    try:
        with server.client() as ax:
            app_id = wait_for_app(ax, "bench_app", timeout=60)
        arrivals = []
        with server.client(app=app_id) as ax:
            with ax.events("tree.changed", app=app_id, timeout=30) as events:
                for _ in events:
                    arrivals.append(time.time())
                    if len(arrivals) >= 45:
                        break
        ticks = [float(line.split()[1]) for line in app.lines if line.startswith("tick ")]
        latencies = []
        for stamp in ticks[3:]:
            later = [arrival - stamp for arrival in arrivals if arrival >= stamp]
            if later:
                latencies.append(min(later))
        print("latency change -> tree.changed p50 %.1f ms, p95 %.1f ms (n=%d)"
              % (percentile(latencies, 0.5) * 1000, percentile(latencies, 0.95) * 1000, len(latencies)), flush=True)
    finally:
        app.stop()


def rate(display, server):
    app = run_app(display, server, 200, "--mirror", "--animate", "--busy")
    try:
        with server.client() as ax:
            app_id = wait_for_app(ax, "bench_app", timeout=60)
            revision = lambda: next(e["revision"] for e in ax.apps() if e["id"] == app_id)  # noqa: E731
            time.sleep(1)
            start, began = revision(), time.monotonic()
            time.sleep(3)
            print("rate animated progress bar: %.1f patches/s" % ((revision() - start) / (time.monotonic() - began)),
                  flush=True)
    finally:
        app.stop()


def startup(display, server):
    for mirrored in (False, True):
        firsts, snapshots = [], []
        for _ in range(3):
            began = time.time()
            app = run_app(display, server, 1000, *(["--mirror"] if mirrored else []))
            try:
                firsts.append(float(app.wait_line("first frame *", timeout=60).split()[2]) - began)
                if mirrored:
                    with server.client() as ax:
                        wait_for_app(ax, "bench_app", timeout=60)
                    snapshots.append(time.time() - began)
            finally:
                app.stop()
            time.sleep(0.5)
        print("startup %-9s first frame median %.0f ms%s" % (
            "mirrored" if mirrored else "plain", statistics.median(firsts) * 1000,
            ", first snapshot on the server median %.0f ms" % (statistics.median(snapshots) * 1000)
            if snapshots else ""), flush=True)


def idle_cpu(display, server):
    for mirrored in (False, True):
        app = run_app(display, server, 1000, *(["--mirror"] if mirrored else []))
        try:
            app.wait_line("first frame *", timeout=60)
            time.sleep(3)
            start_cpu, start = cpu_seconds(app.process.pid), time.monotonic()
            time.sleep(10)
            used = cpu_seconds(app.process.pid) - start_cpu
            print("idle cpu %-9s %.1f %% of a core" % ("mirrored" if mirrored else "plain",
                                                      100 * used / (time.monotonic() - start)), flush=True)
        finally:
            app.stop()


def main():
    global BIN
    args = sys.argv[1:]
    if args[:1] == ["--bin"]:
        BIN, args = os.path.join(os.path.abspath(args[1]), "axserver"), args[2:]
    what = args[0] if args else "all"
    display = Xvfb()
    server = ServerProcess(BIN, demo=False)
    try:
        for name, step in (("frame", frame), ("per-item", per_item), ("latency", latency), ("rate", rate), ("startup", startup),
                           ("idle-cpu", idle_cpu)):
            if what in (name, "all"):
                step(display.display, server)
    finally:
        server.stop()
        display.stop()
        shutil.rmtree(SCRATCH, ignore_errors=True)


if __name__ == "__main__":
    main()
