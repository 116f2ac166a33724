"""Benchmarks of axclient.tk for the note (not a test; run by hand, needs Xvfb and a built axserver):

    python3 Tests/PythonClient/tkapps/bench_tk.py [idle-cpu|tree|idle-startup|all]

idle-cpu: CPU time of an idle Tk app (form_app.py, then IDLE) over 20 s, with and without the adapter.
tree: a 10,000-row Treeview: first snapshot time (flush) and the patch of a one-row change (bytes, ops).
idle-startup: IDLE from process start to its first idle moment, with and without the adapter (median of 5).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..", "Sources", "PythonClient")))
from axclient.server import ServerProcess  # noqa: E402
from tk_support import PACKAGE_DIR, TkApp, Xvfb, wait_for_app  # noqa: E402

BIN = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".build", "debug", "axserver"))


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
    app = TkApp([os.path.join(HERE, "tree_app.py"), "10000"], display, server.socket,
                env={"AXCLIENT_TK_DEBUG": "1"})
    try:
        with server.client() as ax:
            app_id = wait_for_app(ax, "tree_app", timeout=60)
        time.sleep(1)
        lines = app.stderr_text().splitlines()
        first = [line for line in lines if "flush 1:" in line]
        snapshot = [line for line in lines if "send set" in line]
        print("tree 10k first flush:", first[0] if first else lines[:3])
        print("tree 10k snapshot:", snapshot[0] if snapshot else "?")
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


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    display = Xvfb()
    server = ServerProcess(BIN, demo=False)
    try:
        if what in ("idle-cpu", "all"):
            idle_cpu(display.display, server)
        if what in ("tree", "all"):
            tree(display.display, server)
        if what in ("idle-startup", "all"):
            idle_startup(display.display, server)
    finally:
        server.stop()
        display.stop()


if __name__ == "__main__":
    main()
