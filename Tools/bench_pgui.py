"""Benchmarks of axclient.pygame_gui (Specs/pygame-gui-adapter.md §Figures; not a test: run by hand, needs Xvfb,
pygame_gui (the test venv) and a built axserver):

    .build/test-venv/bin/python Tools/bench_pgui.py [--bin DIR] [--count N] [frame|latency|startup|idle-cpu|all]

frame: the adapter's cost per frame with nothing changed, N elements (default 1,000), in process with SDL's dummy
  driver and a real server: the frame (event.get, process_events, update, draw_ui, flip) without and with the
  adapter (median of 7 blocks of 100 frames), the flushes during them (0 expected), and the adapter's own path per
  frame measured alone (its event-queue filter, the update/draw/flip hooks with nothing dirty).
latency: a label changed every 150 ms in an N-element app (its own process, Xvfb) -> `tree.changed` at a
  subscriber, p50/p95/max over 40 changes.
startup: process start to the first frame of the N-element app, with and without the adapter (7 alternating
  runs: median and fastest).
idle-cpu: CPU time of the idle N-element app over 10 s (60 frames a second), with and without the adapter.
--bin DIR: the folder of the axserver to measure (default /work/bin10 if present, else .build/debug).
"""
import os
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APPS = os.path.join(ROOT, "Tests", "PythonClient", "pguiapps")
sys.path.insert(0, os.path.dirname(APPS))
sys.path.insert(0, APPS)
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
from axclient.server import ServerProcess  # noqa: E402
from pgui_support import SDL_ENV  # noqa: E402
from tk_support import PACKAGE_DIR, Xvfb, wait_for_app  # noqa: E402


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_frame(binary, count):
    os.environ.update({"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    import pygame
    import pygame_gui
    import many_app
    from axclient.pygame_gui import mirror, walker
    pygame.init()
    screen = pygame.display.set_mode((1200, 900))
    manager = pygame_gui.UIManager((1200, 900))
    many_app.build(manager, count)
    elements = count_elements(manager.get_root_container())

    def frames(number):
        started = time.perf_counter()
        for _ in range(number):
            for event in pygame.event.get():
                manager.process_events(event)
            manager.update(1 / 60)
            screen.fill((0, 0, 0))
            manager.draw_ui(screen)
            pygame.display.flip()
        return (time.perf_counter() - started) / number

    frames(60)
    without = statistics.median(frames(100) for _ in range(7))
    server = ServerProcess(binary, demo=False)
    try:
        published = mirror(manager, name="bench-frame", address=server.socket)
        published.wait_connected(10)
        deadline = time.monotonic() + 20
        while published.stats["snapshots"] < 1 and time.monotonic() < deadline:
            frames(1)
        frames(60)  # the first snapshot's hover and layout settle
        flushes = published.stats["flushes"]
        with_adapter = statistics.median(frames(100) for _ in range(7))
        flushes = published.stats["flushes"] - flushes
        alone = adapter_path(published, manager, walker)
        snapshot = measure_flush(published)
        published.close()
        walker.uninstall_hooks()
        again = statistics.median(frames(100) for _ in range(7))
    finally:
        server.stop()
    print("frame: %d elements (%d pygame_gui elements in all): %.3f ms/frame without the adapter (%.3f after "
          "removing it), %.3f ms with it: %+.3f ms; %d flushes in 700 idle frames; the adapter's own path per idle "
          "frame %.4f ms; a full walk+diff of the tree %.2f ms"
          % (count, elements, without * 1000, again * 1000, with_adapter * 1000,
             (with_adapter - (without + again) / 2) * 1000, flushes, alone * 1000, snapshot * 1000))


def count_elements(container):
    total = 0
    for element in getattr(container, "elements", ()):
        total += 1 + count_elements(element)
    return total


def adapter_path(published, manager, walker):
    """What the adapter runs in an idle frame, alone: the reader hook's filter of the frame's (empty) event list,
    the update hook's end of frame, the draw hook, the flip hook's end of frame."""
    rounds = 20000
    started = time.perf_counter()
    for _ in range(rounds):
        [event for event in [] if not walker._intercept(event)]
        published.end_frame(False)
        published.note_drawn(manager)
        published.end_frame(True)
    return (time.perf_counter() - started) / rounds


def measure_flush(published):
    """A flush that walks and diffs the whole tree with nothing changed (what one change costs at most)."""
    samples = []
    for _ in range(10):
        published.mark_dirty()
        started = time.perf_counter()
        published.flush()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def start(display, socket, args, adapter=True, env=None):
    command = [sys.executable] + (["-m", "axclient.pygame_gui", "--socket", socket] if adapter else [])
    merged = dict(os.environ, DISPLAY=display, PYTHONPATH=PACKAGE_DIR, **SDL_ENV)
    merged.update(env or {})
    process = subprocess.Popen(command + [os.path.join(APPS, "many_app.py")] + args, env=merged, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    process.stderr_lines = []
    threading.Thread(target=lambda: [process.stderr_lines.append(line) for line in process.stderr],
                     daemon=True).start()
    return process


def bench_latency(binary, count, display, changes_wanted=30):
    """Changes every 300 ms; the k-th `tree.changed` after the first change answers the k-th change (one patch
    per change: nothing else changes in the app)."""
    server = ServerProcess(binary, demo=False)
    process = start(display, server.socket, [str(count), "--change-every", "300"], env={"AXCLIENT_TK_DEBUG": "1"})
    changes, arrivals = [], []
    try:
        client = server.client()
        app_id = wait_for_app(client, "many_app", timeout=60)
        time.sleep(1.0)  # the first snapshot is answered
        lines = threading.Thread(target=lambda: [changes.append(float(line.split()[1])) for line in process.stdout
                                                 if line.startswith("changed")], daemon=True)
        with client.events("tree.changed", app=app_id, timeout=changes_wanted * 0.3 + 20) as events:
            lines.start()
            for _ in events:
                arrivals.append(time.time())
                if len(arrivals) >= changes_wanted + 5 or len(changes) > changes_wanted + 3:
                    break
        client.close()
    finally:
        process.terminate()
        process.wait(10)
        server.stop()
    sends = [float(line.split()[1]) for line in process.stderr_lines if " send ops" in line]
    latencies = first_after(changes[:changes_wanted], arrivals)
    adapter = first_after(changes[:changes_wanted], sends)
    flushes = [float(line.split(" in ")[1].split()[0]) for line in process.stderr_lines if " flush " in line][1:]
    flush_ends = [_stamp(line) for line in process.stderr_lines if " flush " in line]
    flushed = first_after(changes[:changes_wanted], flush_ends)
    waits = [(send - end) * 1000 for end, send in pairs_after(flush_ends, sends)]
    print("latency: %d elements, change -> tree.changed at a subscriber: p50 %.1f ms, p95 %.1f ms, max %.1f ms "
          "(%d of %d changes); change -> the patch sent by the adapter: p50 %.1f ms, p95 %.1f ms; the flush: p50 "
          "%.1f ms, p95 %.1f ms; change -> flush done: p50 %.1f ms, p95 %.1f ms; flush done -> the link thread "
          "sends: p50 %.1f ms, p95 %.1f ms; load average %.1f"
          % (count, percentile(latencies, 0.5), percentile(latencies, 0.95), max(latencies), len(latencies),
             min(len(changes), changes_wanted), percentile(adapter, 0.5), percentile(adapter, 0.95),
             percentile(flushes, 0.5), percentile(flushes, 0.95), percentile(flushed, 0.5),
             percentile(flushed, 0.95), percentile(waits, 0.5), percentile(waits, 0.95), os.getloadavg()[0]))


def _stamp(line):
    """The time.time() a debug line starts with (after the log source's prefix)."""
    for word in line.split():
        try:
            return float(word)
        except ValueError:
            continue
    return 0.0


def pairs_after(ends, sends):
    """Each flush end with the first send at or after it (a flush that sent nothing pairs with none)."""
    found = []
    for index, end in enumerate(ends):
        limit = ends[index + 1] if index + 1 < len(ends) else float("inf")
        later = [moment for moment in sends if end <= moment < limit]
        if later:
            found.append((end, later[0]))
    return found


def first_after(changes, times):
    """Per change, milliseconds to the first time after it and before the next change (none: not counted)."""
    found = []
    for index, changed in enumerate(changes):
        limit = changes[index + 1] if index + 1 < len(changes) else float("inf")
        later = [moment for moment in times if changed <= moment < limit]
        if later:
            found.append((later[0] - changed) * 1000)
    return found


def bench_startup(binary, count, display):
    server = ServerProcess(binary, demo=False)
    timings = {True: [], False: []}
    try:
        for _ in range(7):
            for adapter in (False, True):
                started = time.monotonic()
                process = start(display, server.socket, [str(count), "--quit-after-ready"], adapter)
                for line in process.stdout:
                    if line.startswith("ready"):
                        timings[adapter].append(time.monotonic() - started)
                        break
                process.wait(30)
    finally:
        server.stop()
    plain, mirrored = statistics.median(timings[False]), statistics.median(timings[True])
    fastest, fastest_mirrored = min(timings[False]), min(timings[True])
    print("startup: %d elements, process start to the first frame: median of 7 alternating runs %.3f s without "
          "the adapter, %.3f s with it (%.2fx); fastest %.3f s / %.3f s (%.2fx); load average %.1f"
          % (count, plain, mirrored, mirrored / plain, fastest, fastest_mirrored, fastest_mirrored / fastest,
             os.getloadavg()[0]))


def bench_idle_cpu(binary, count, display, rounds=3):
    """Alternating runs without and with the adapter (the machine's load moves between them): the median of
    each, and the adapter's flushes while idle (its work, independent of the load)."""
    server = ServerProcess(binary, demo=False)
    results = {False: [], True: []}
    idle_flushes = []
    try:
        for _ in range(rounds):
            for adapter in (False, True):
                process = start(display, server.socket, [str(count)], adapter, env={"AXCLIENT_TK_DEBUG": "1"})
                for line in process.stdout:
                    if line.startswith("ready"):
                        break
                time.sleep(2)  # the first snapshot, fonts, hover settle
                flushes = len([line for line in process.stderr_lines if " flush " in line])
                cpu, wall = cpu_seconds(process.pid), time.monotonic()
                time.sleep(6)
                results[adapter].append((cpu_seconds(process.pid) - cpu) / (time.monotonic() - wall) * 100)
                if adapter:
                    idle_flushes.append(len([line for line in process.stderr_lines if " flush " in line]) - flushes)
                process.terminate()
                process.wait(10)
    finally:
        server.stop()
    plain, mirrored = statistics.median(results[False]), statistics.median(results[True])
    print("idle-cpu: %d elements at 60 frames/s, %d alternating runs of 6 s: %.1f %% of a core without the "
          "adapter, %.1f %% with it (%+.1f points; runs %s / %s); the adapter's flushes while idle: %s; load "
          "average %.1f" % (count, rounds, plain, mirrored, mirrored - plain,
                            ["%.1f" % v for v in results[False]], ["%.1f" % v for v in results[True]],
                            idle_flushes, os.getloadavg()[0]))


def main(argv):
    binary = "/work/bin10/axserver" if os.path.exists("/work/bin10/axserver") else os.path.join(
        ROOT, ".build", "debug", "axserver")
    count = 1000
    if "--bin" in argv:
        binary = os.path.join(argv[argv.index("--bin") + 1], "axserver")
    if "--count" in argv:
        count = int(argv[argv.index("--count") + 1])
    which = [arg for arg in argv if arg in ("frame", "latency", "startup", "idle-cpu", "all")] or ["all"]
    display_server = None
    try:
        if set(which) & {"latency", "startup", "idle-cpu", "all"}:
            display_server = Xvfb()
        if set(which) & {"latency", "all"}:
            bench_latency(binary, count, display_server.display)
        if set(which) & {"startup", "all"}:
            bench_startup(binary, count, display_server.display)
        if set(which) & {"idle-cpu", "all"}:
            bench_idle_cpu(binary, count, display_server.display)
        if set(which) & {"frame", "all"}:
            bench_frame(binary, count)  # last: it sets SDL's dummy driver in this process
    finally:
        if display_server is not None:
            display_server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
