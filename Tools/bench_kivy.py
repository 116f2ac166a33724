"""Benchmarks of axclient.kivy (Specs/kivy-adapter.md §Figures; not a test: run by hand with the test venv's python,
needs Xvfb and a built axserver):

    .build/test-venv/bin/python Tools/bench_kivy.py [--bin DIR] [--widgets N] [frames|latency|startup|idle|all]

frames: a Kivy app of N labels (default 1,000) mirrored in-process; for 3 s nothing changes: flushes, Kivy frames
  and the adapter's time per frame; then a flush forced with nothing changed (what a spurious property event would
  cost), its build time and ops sent.
latency: one label changed every 100 ms (40 times) -> `tree.changed` at a subscriber in another process, p50/p95.
startup: process start -> two frames after on_start (the adapter's first snapshot included), with and without
  `python3 -m axclient.kivy` (median of 5).
idle: CPU time of the idle app over 10 s, with and without the adapter (% of one core).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "Tests", "PythonClient")
sys.path.insert(0, TESTS)
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))

CHILD_ENV = {"KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1", "SDL_AUDIODRIVER": "dummy",
             "PYTHONPATH": os.path.join(ROOT, "Sources", "PythonClient"), "PYTHONUNBUFFERED": "1"}


# -- the child: a Kivy app of N labels ---------------------------------------------------------------------------------

def child(mode, count):
    """Runs in the Kivy process (``--child MODE N``)."""
    started = float(os.environ.get("BENCH_T0", time.time()))
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.label import Label

    class Bench(App):
        def build(self):
            self.title = "Kivy bench"
            root = BoxLayout(orientation="vertical")
            self.status = Label(text="status 0", size_hint_y=None, height=20)
            root.add_widget(self.status)
            grid = GridLayout(cols=40)
            for index in range(count):
                grid.add_widget(Label(text=str(index), font_size=6))
            root.add_widget(grid)
            return root

        def on_start(self):
            if mode in ("frames", "latency"):
                import axclient.kivy
                self.mirror = axclient.kivy.mirror(self)
            if mode == "startup":
                Clock.schedule_once(lambda dt: Clock.schedule_once(self.first_frames, 0), 0)
            elif mode == "frames":
                Clock.schedule_once(self.frames_start, 2.0)
            elif mode == "latency":
                threading.Thread(target=self.wait_go, daemon=True).start()
                Clock.schedule_once(lambda dt: print("ready", flush=True), 1.0)
            else:
                Clock.schedule_once(lambda dt: print("ready", flush=True), 1.0)

        def first_frames(self, _dt):
            print("startup %.4f" % (time.time() - started), flush=True)
            self.stop()

        def frames_start(self, _dt):
            mirror = self.mirror
            self.spent = 0.0
            original = mirror.idle_flush

            def timed():
                begun = time.perf_counter()
                original()
                self.spent += time.perf_counter() - begun

            mirror.idle_flush = timed
            self.before = (Clock.frames, mirror.stats["flushes"], mirror.stats["ops"])
            Clock.schedule_once(self.frames_end, 3.0)

        def frames_end(self, _dt):
            mirror = self.mirror
            frames = Clock.frames - self.before[0]
            flushes = mirror.stats["flushes"] - self.before[1]
            times = []
            ops_before = mirror.stats["ops"]
            for _ in range(30):
                begun = time.perf_counter()
                mirror.flush()
                times.append(time.perf_counter() - begun)
            forced_ops = mirror.stats["ops"] - ops_before
            changed = []
            for index in range(30):
                self.status.text = "changed %d" % index
                begun = time.perf_counter()
                mirror.flush()
                changed.append(time.perf_counter() - begun)
            print(json.dumps({"widgets": count, "frames": frames, "idle_flushes": flushes,
                              "one_change_flush_ms_median": statistics.median(changed) * 1000,
                              "one_change_flush_ms_max": max(changed) * 1000,
                              "adapter_ms_per_idle_frame": self.spent * 1000 / max(frames, 1),
                              "forced_flush_ms_median": statistics.median(times) * 1000,
                              "forced_flush_ops": forced_ops,
                              "views": len(mirror.widgets)}), flush=True)
            self.stop()

        def wait_go(self):
            sys.stdin.readline()
            self.ticks = 0
            Clock.schedule_interval(self.tick, 0.1)

        def tick(self, _dt):
            self.ticks += 1
            self.status.text = "status %d" % self.ticks
            print("tick %.6f" % time.time(), flush=True)
            if self.ticks >= 40:
                Clock.schedule_once(lambda dt: self.stop(), 0.5)
                return False
            return True

    Bench().run()


# -- the driver --------------------------------------------------------------------------------------------------------

def spawn(mode, count, display, socket_path, adapter):
    env = dict(os.environ, DISPLAY=display, AXSERVER_SOCKET=socket_path, KIVY_HOME=tempfile.mkdtemp(prefix="axkb-"),
               BENCH_T0="%.6f" % time.time(), **CHILD_ENV)
    command = [sys.executable]
    if adapter:
        command += ["-m", "axclient.kivy", "--socket", socket_path, "--name", "kivy-bench"]
    command += [os.path.abspath(__file__), "--child", mode, str(count)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stdin=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)


def read_until(process, prefix, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith(prefix):
            return line.strip()
    raise RuntimeError("no %r line" % prefix)


def bench_frames(display, server, count):
    process = spawn("frames", count, display, server.socket, adapter=False)
    result = json.loads(read_until(process, "{"))
    process.wait(30)
    print("frames (%d widgets, %d views): %d Kivy frames in 3 s idle, %d flushes, adapter %.4f ms/frame; a forced "
          "flush with nothing changed %.2f ms (median of 30), %d ops sent; one label changed: flush %.2f ms (median of "
          "30, max %.2f)" % (
              count, result["views"], result["frames"], result["idle_flushes"], result["adapter_ms_per_idle_frame"],
              result["forced_flush_ms_median"], result["forced_flush_ops"], result["one_change_flush_ms_median"],
              result["one_change_flush_ms_max"]))


def bench_latency(display, server, count):
    import axclient
    process = spawn("latency", count, display, server.socket, adapter=False)
    read_until(process, "ready")
    client = axclient.Client(server.socket)
    app_id = next(entry["id"] for entry in client.apps() if entry.get("name") == "bench_kivy")
    arrivals = []
    with client.events("tree.changed", app=app_id, timeout=30) as events:
        process.stdin.write("go\n")
        process.stdin.flush()
        for _event in events:
            arrivals.append(time.time())
            if len(arrivals) >= 40:
                break
    ticks = []
    for line in process.stdout:
        if line.startswith("tick "):
            ticks.append(float(line.split()[1]))
    process.wait(30)
    client.close()
    latencies = sorted(min(a - t for a in arrivals if a >= t) for t in ticks if any(a >= t for a in arrivals))
    p95 = latencies[min(len(latencies) - 1, int(round(0.95 * (len(latencies) - 1))))]
    print("latency (%d widgets): change -> tree.changed p50 %.1f ms, p95 %.1f ms (n=%d); load average %.1f" % (
        count, statistics.median(latencies) * 1000, p95 * 1000, len(latencies), os.getloadavg()[0]))


def bench_startup(display, server, count):
    results = {}
    for adapter in (False, True):
        times = []
        for _ in range(5):
            process = spawn("startup", count, display, server.socket, adapter)
            times.append(float(read_until(process, "startup").split()[1]))
            process.wait(30)
        results[adapter] = statistics.median(times)
    print("startup (%d widgets, to two frames after on_start): %.3f s without, %.3f s with the adapter (%.2fx)" % (
        count, results[False], results[True], results[True] / results[False]))


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_idle(display, server, count):
    results = {}
    for adapter in (False, True):
        process = spawn("idle", count, display, server.socket, adapter)
        read_until(process, "ready")
        before = cpu_seconds(process.pid)
        time.sleep(10)
        results[adapter] = (cpu_seconds(process.pid) - before) / 10 * 100
        process.kill()
        process.wait(10)
    print("idle CPU (%d widgets, 10 s): %.2f %% of a core without, %.2f %% with the adapter (+%.2f)" % (
        count, results[False], results[True], results[True] - results[False]))


def main(argv):
    if argv[:1] == ["--child"]:
        child(argv[1], int(argv[2]))
        return 0
    from axclient.server import ServerProcess
    from tk_support import Xvfb
    binary = os.path.join(ROOT, ".build", "debug", "axserver")
    count, which = 1000, "all"
    args = list(argv)
    while args:
        head = args.pop(0)
        if head == "--bin":
            binary = os.path.join(args.pop(0), "axserver")
        elif head == "--widgets":
            count = int(args.pop(0))
        else:
            which = head
    display = Xvfb()
    server = ServerProcess(binary, demo=False)
    try:
        for name, bench in (("frames", bench_frames), ("latency", bench_latency), ("startup", bench_startup),
                            ("idle", bench_idle)):
            if which in (name, "all"):
                bench(display.display, server, count)
    finally:
        server.stop()
        display.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
