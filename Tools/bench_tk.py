"""Benchmarks of axclient.tk (Specs/tk-adapter.md; not a test: run by hand, needs Xvfb and a built axserver):

    python3 Tools/bench_tk.py [--bin DIR] [idle-cpu|tree|latency|keys|idle-startup|all]

idle-cpu: CPU time of an idle Tk app (form_app.py, then IDLE) over 20 s, with and without the adapter.
tree: a 10,000-row Treeview: first snapshot (flush time, mirror time to the server) and a one-row change's patch.
latency: a Tk change (a label every 150 ms) -> `tree.changed` at a subscriber, p50/p95, in a 100-row app, a
  10,000-row app whose table that label names (the label rule), and the same with the table's label unchanged.
keys: keystrokes into a 10,000-line Text (`typeText` one character at a time): the splice patch's bytes and the
  action round trip, p50/p95.
idle-startup: IDLE from process start to its first idle moment, with and without the adapter (median of 5).
--bin DIR: the folder of the axserver to measure (default .build/debug; a release build: .build/release).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.join(ROOT, "Tests", "PythonClient", "tkapps")
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
from axclient.server import ServerProcess  # noqa: E402
from tk_support import PACKAGE_DIR, TkApp, Xvfb, wait_for_app  # noqa: E402

BIN = os.path.join(ROOT, ".build", "debug", "axserver")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(display, server):
    for label, argv, module in (("form_app", [os.path.join(HERE, "form_app.py")], False),
                                ("idlelib", ["-m", "idlelib"], True)):
        for mirrored in (False, True):
            env = dict(os.environ, DISPLAY=display, HOME=tempfile.mkdtemp(),
                       PYTHONPATH=PACKAGE_DIR)
            command = [sys.executable] + (["-m", "axclient.tk", "--socket", server.socket] if mirrored else []) + argv
            process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(5)
            start_cpu, start = cpu_seconds(process.pid), time.monotonic()
            time.sleep(20)
            used = cpu_seconds(process.pid) - start_cpu
            elapsed = time.monotonic() - start
            process.terminate()
            process.wait()
            print("idle cpu %-9s %-11s %.2f %% of a core" % (label, "mirrored" if mirrored else "plain",
                                                            100 * used / elapsed), flush=True)


def tree(display, server):
    started = time.monotonic()
    app = TkApp([os.path.join(HERE, "tree_app.py"), "10000"], display, server.socket,
                env={"AXCLIENT_TK_DEBUG": "1"})
    try:
        with server.client() as ax:
            app_id = wait_for_app(ax, "tree_app", timeout=60)
        time.sleep(1)
        listed = time.time()
        lines = app.stderr_text().splitlines()
        print("tree 10k mirrored (process start -> app listed with its snapshot): %.0f ms"
              % ((time.monotonic() - started) * 1000))
        first = [line for line in lines if "flush 1:" in line]
        if first:
            stamp, took = float(first[0].split()[1]), float(first[0].split(" in ")[1].split()[0])
            print("tree 10k mirror time (first flush starts -> the server lists the app, +50 ms polling): %.0f ms"
                  % ((listed - (stamp - took / 1000)) * 1000))
        snapshot = [line for line in lines if "send set" in line]
        print("tree 10k first flush:", first[0] if first else lines[:3])
        print("tree 10k snapshot:", snapshot[0] if snapshot else "?")
        print("tree 10k answered:", [line for line in lines if "answered set" in line][:1])
        with server.client(app=app_id) as ax:
            count = len(app.stderr_text().splitlines())
            ax.get_by_id(".rename").click()
            time.sleep(0.5)
            after = app.stderr_text().splitlines()[count:]
            print("tree 10k one-row change:", [line for line in after if "send" in line or "flush" in line])
            count = len(app.stderr_text().splitlines())
            ax.get_by_id(".relabel").click()
            time.sleep(0.5)
            after = app.stderr_text().splitlines()[count:]
            print("tree 10k label change:", [line for line in after if "send" in line or "flush" in line])
    finally:
        app.stop()


STARTUP = r"""
import runpy, sys, time, tkinter
t0 = float(sys.argv[1]); mirrored = sys.argv[2] == "1"
if mirrored:
    import axclient.tk
    axclient.tk.install(name="idlelib", address=sys.argv[3])
original = tkinter.Tk.mainloop
def mainloop(self, n=0):
    def done():
        print("%.4f" % (time.time() - t0), flush=True)
        import os
        os._exit(0)
    self.after_idle(lambda: self.after(0, done))
    original(self, n)
tkinter.Tk.mainloop = mainloop
sys.argv = ["idlelib"]
runpy.run_module("idlelib", run_name="__main__", alter_sys=True)
"""


def idle_startup(display, server):
    for mirrored in ("0", "1"):
        times = []
        for _ in range(5):
            env = dict(os.environ, DISPLAY=display, HOME=tempfile.mkdtemp(), PYTHONPATH=PACKAGE_DIR)
            out = subprocess.run([sys.executable, "-c", STARTUP, "%.6f" % time.time(), mirrored, server.socket],
                                 env=env, capture_output=True, text=True, timeout=60)
            times.append(float(out.stdout.strip().splitlines()[-1]))
        print("idle startup %s median %.0f ms (%s)" % ("mirrored" if mirrored == "1" else "plain   ",
                                                     statistics.median(times) * 1000,
                                                     ", ".join("%.0f" % (t * 1000) for t in times)), flush=True)


def change_latency(display, server, label, rows, extra=()):
    """p50/p95 from a Tk label change (the app prints its time) to the `tree.changed` naming that label."""
    app = TkApp([os.path.join(HERE, "tree_app.py"), str(rows), "tick"] + list(extra), display, server.socket,
                name=label)
    try:
        with server.client() as ax:
            app_id = wait_for_app(ax, label, timeout=60)
        arrivals = []
        with server.client(app=app_id) as ax:
            with ax.events("tree.changed", app=app_id, timeout=30) as events:
                for event in events:
                    if ".status" in (event.get("updated") or []):
                        arrivals.append(time.time())
                    if len(arrivals) >= 35:
                        break
        ticks = [float(line.split()[2]) for line in app.lines if line.startswith("tick ")]
        latencies = []
        for stamp in ticks:
            later = [arrival - stamp for arrival in arrivals if arrival >= stamp]
            if later:
                latencies.append(min(later))
        print("latency %-28s p50 %.1f ms, p95 %.1f ms (n=%d)" % (label, percentile(latencies, 0.5) * 1000,
                                                                percentile(latencies, 0.95) * 1000, len(latencies)),
              flush=True)
    finally:
        app.stop()


def latency(display, server):
    change_latency(display, server, "tk-100-rows", 100)
    change_latency(display, server, "tk-10k-rows-labelled-table", 10000)
    change_latency(display, server, "tk-10k-rows-own-table-label", 10000, ["own-label"])


def keys(display, server):
    app = TkApp([os.path.join(HERE, "big_text_app.py"), "10000"], display, server.socket,
                env={"AXCLIENT_TK_DEBUG": "1"})
    try:
        with server.client() as ax:
            app_id = wait_for_app(ax, "big_text_app", timeout=60)
        with server.client(app=app_id) as ax:
            editor = ax.get_by_id(".editor")
            print("keys: text of %d characters published whole" % len(editor.value()))
            times = []
            mark = len(app.stderr_text())
            for character in "the quick brown fox jumps over the lazy dog":
                start = time.perf_counter()
                editor.type_text(character)
                times.append(time.perf_counter() - start)
            sizes = [int(line.split(" ops, ")[1].split(" bytes")[0])
                     for line in app.stderr_text()[mark:].splitlines() if "send ops:" in line]
            print("keys: typeText round trip p50 %.1f ms, p95 %.1f ms (n=%d); patch bytes max %d, median %d"
                  % (percentile(times, 0.5) * 1000, percentile(times, 0.95) * 1000, len(times), max(sizes),
                     statistics.median(sizes)), flush=True)
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
        if what in ("idle-cpu", "all"):
            idle_cpu(display.display, server)
        if what in ("tree", "all"):
            tree(display.display, server)
        if what in ("latency", "all"):
            latency(display.display, server)
        if what in ("keys", "all"):
            keys(display.display, server)
        if what in ("idle-startup", "all"):
            idle_startup(display.display, server)
    finally:
        server.stop()
        display.stop()


if __name__ == "__main__":
    main()
