#!/usr/bin/env python3
"""Benchmarks axdriver over HTTP on the 10,000-control bench tree (standard library only).

    Tools/bench_webdriver.py [--bin .build/release] [--leaves 10000] [--runs 200] [--inserts 20]

Starts `axserver --bench-tree N` on a private socket and `axdriver --port 0` against it, opens a WebDriver session
over one keep-alive HTTP connection and prints, in milliseconds (p50 / p95 / max):
  * Find Element by accessibility id (`Button 9995`: the last button; the name is its label),
  * Find Element by XPath, cold (the first: reads and parses the page source) and warm (parsed for this revision),
  * Get Page Source,
  * implicit-wait latency: a second app (axclient.Provider, same server) inserts the awaited button; the time from
    its hierarchy update being acknowledged to the Find Element answer (XPath: woken by tree.changed; accessibility
    id: the server's wait.for),
  * on a live app of the same size published from Python: XPath right after a label change, an insertion, a move
    and a removal (each patched into the parsed page from tree.diff, or the page source read again), with the CPU
    per XPath of axdriver and axserver.
"""
import argparse
import http.client
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Sources", "PythonClient"))
from axclient import Client, Provider, view  # noqa: E402


def start(command, prefix):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    ready, _, _ = select.select([process.stdout], [], [], 120)
    line = process.stdout.readline().decode() if ready else ""
    if not line.startswith(prefix):
        process.kill()
        raise SystemExit("did not start: %s (%r)" % (command[0], line))
    return process, line


class HTTP:
    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def __call__(self, method, path, body=None):
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None,
                                headers={"Content-Type": "application/json"})
        response = self.connection.getresponse()
        data = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError("%s %s: %s" % (method, path, data))
        return data["value"]


def timed(function, runs):
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def report(name, samples):
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    print("%-52s p50 %8.3f  p95 %8.3f  max %8.3f ms  (n=%d)" % (name, statistics.median(samples), p95,
                                                                 samples[-1], len(samples)))


def cpu_ms(process):
    """CPU time (user + system) a process has used so far, in ms: unlike wall time, not inflated by a loaded machine."""
    with open("/proc/%d/stat" % process.pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def cpu_per_call(processes, action, runs):
    """(wall samples, CPU ms per call of each process) for `action` run `runs` times."""
    before = [cpu_ms(process) for process in processes]
    samples = timed(action, runs)
    return samples, [(cpu_ms(process) - start) / runs for process, start in zip(processes, before)]


def load():
    """The machine's load averages (1, 5, 15 minutes): the figures are only comparable within one run."""
    return "%.2f %.2f %.2f" % os.getloadavg()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--leaves", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--inserts", type=int, default=20, help="insertions, each followed by one XPath")
    args = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="axdriver-bench-")
    os.chmod(directory, 0o700)
    socket_path = os.path.join(directory, "ax.sock")
    server, _ = start([os.path.join(args.bin, "axserver"), "serve", "--no-atspi", "--socket", socket_path,
                       "--bench-tree", str(args.leaves)], "READY")
    driver, line = start([os.path.join(args.bin, "axdriver"), "--port", "0", "--socket", socket_path], "READY")
    port = int(line.split()[1].split("=")[1])
    provider = None
    try:
        call = HTTP(port)
        session = call("POST", "/session", {"capabilities": {"alwaysMatch": {"axserver:app": "axserver-bench"}}})
        base = "/session/%s" % session["sessionId"]
        last = (args.leaves - 1) // 5 * 5
        label = "Button %d" % last
        find_id = {"using": "accessibility id", "value": label}
        xpath = {"using": "xpath", "value": "//XCUIElementTypeButton[@name='%s']" % label}
        print("axdriver on %d controls (%s); load %s" % (args.leaves, args.bin, load()))
        report("find by accessibility id", timed(lambda: call("POST", base + "/element", find_id), args.runs))
        report("find by xpath (cold: first, reads and parses the page)",
               timed(lambda: call("POST", base + "/element", xpath), 1))
        report("find by xpath (warm: parsed page of this revision)",
               timed(lambda: call("POST", base + "/element", xpath), max(20, args.runs // 4)))
        report("find elements by class name (2,000 buttons)",
               timed(lambda: call("POST", base + "/elements", {"using": "class name",
                                                                "value": "XCUIElementTypeButton"}), 20))
        samples, (driver_cpu, server_cpu) = cpu_per_call((driver, server), lambda: call("GET", base + "/source"), 20)
        report("get page source", samples)
        print("  CPU per page source: axdriver %.1f ms, axserver %.1f ms" % (driver_cpu, server_cpu))
        source = call("GET", base + "/source")
        print("  page source: %d bytes" % len(source.encode()))
        with Client(socket_path) as direct:
            report("  of which axserver's tree.get xml (JSON-RPC, no HTTP)",
                   timed(lambda: direct.call("tree.get", {"format": "xml", "app": "axserver-bench"}), 20))

        # A second app on the same server: its changes wake implicit waits; the cold xpath re-reads its page.
        provider = Provider("bench-second", socket_path)
        provider.set_hierarchy([view("win", "UIWindow", [0, 0, 400, 800], isKeyWindow=True, windowTitle="Second",
                                     children=[view("hello", "UIButton", [0, 0, 100, 40], title="Hello")])])
        second = call("POST", "/session", {"capabilities": {"alwaysMatch": {"axserver:app": "bench-second"}}})
        second_base = "/session/%s" % second["sessionId"]
        call("POST", second_base + "/timeouts", {"implicit": 10000})
        for strategy, value_for in (("xpath", lambda n: "//XCUIElementTypeButton[@name='late%d']" % n),
                                    ("accessibility id", lambda n: "late%d" % n)):
            latencies = []
            offset = 0 if strategy == "xpath" else 100
            for run in range(30):
                changed = []

                def publish(n=run + offset):
                    time.sleep(0.05)
                    provider.insert("win", view("v%d" % n, "UIButton", [0, 50, 100, 40], title="late%d" % n))
                    changed.append(time.perf_counter())

                publisher = threading.Thread(target=publish)
                publisher.start()
                call("POST", second_base + "/element", {"using": strategy, "value": value_for(run + offset)})
                found = time.perf_counter()
                publisher.join()
                latencies.append((found - changed[0]) * 1000)
            report("implicit wait (%s): change acknowledged -> found" % strategy, latencies)

        # A live app of the same size published from Python: XPath right after a change of one label (patched into
        # the parsed page) and after an insertion (the page source is read and parsed again).
        live = Provider("bench-live", socket_path)
        groups = [view("lg%d" % g, "UIStackView", [0, g * 40, 800, 40], children=[
            view("lb%d" % (g * 100 + i), "UIButton", [i * 8, 0, 8, 40], title="Live %d" % (g * 100 + i))
            for i in range(100)]) for g in range(args.leaves // 100)]
        live.set_hierarchy([view("lw", "UIWindow", [0, 0, 800, 4000], isKeyWindow=True, windowTitle="Live",
                                 children=groups)])
        third = call("POST", "/session", {"capabilities": {"alwaysMatch": {"axserver:app": "bench-live"}}})
        third_base = "/session/%s" % third["sessionId"]
        call("POST", third_base + "/element", {"using": "xpath", "value": "//XCUIElementTypeButton[@label='Live 0']"})
        patched = []
        for run in range(20):
            live.set_properties("lb%d" % (run * 37), title="Changed %d" % run)
            started = time.perf_counter()
            call("POST", third_base + "/element", {"using": "xpath",
                                                    "value": "//XCUIElementTypeButton[@label='Changed %d']" % run})
            patched.append((time.perf_counter() - started) * 1000)
        report("xpath right after a label change (patched page)", patched)

        def after_change(name, change, xpath_for):
            """XPath right after each structural change: wall samples and the CPU per XPath of each process."""
            samples, driver_cpu, server_cpu = [], 0.0, 0.0
            for run in range(args.inserts):
                change(run)
                cpu = (cpu_ms(driver), cpu_ms(server))
                started = time.perf_counter()
                call("POST", third_base + "/element", {"using": "xpath", "value": xpath_for(run)})
                samples.append((time.perf_counter() - started) * 1000)
                driver_cpu += cpu_ms(driver) - cpu[0]
                server_cpu += cpu_ms(server) - cpu[1]
            report(name, samples)
            print("  CPU per such xpath: axdriver %.1f ms, axserver %.1f ms"
                  % (driver_cpu / args.inserts, server_cpu / args.inserts))

        after_change("xpath right after an insertion (first after a structural change)",
                     lambda run: live.insert("lg0", view("ins%d" % run, "UIButton", [0, 0, 8, 40],
                                                         title="Inserted %d" % run)),
                     lambda run: "//XCUIElementTypeButton[@label='Inserted %d']" % run)
        after_change("xpath right after a move to another group",
                     lambda run: live.move("ins%d" % run, "lg1", run),
                     lambda run: "//XCUIElementTypeButton[@label='Inserted %d']" % run)
        after_change("xpath right after a removal",
                     lambda run: live.remove("ins%d" % run),
                     lambda run: "//XCUIElementTypeButton[@label='Live %d']" % (5000 + run))
        live.close()
        print("load at the end: %s" % load())
    finally:
        if provider is not None:
            provider.close()
        for process in (driver, server):
            process.terminate()
            process.wait(10)
        try:
            os.unlink(socket_path)
        except OSError:
            pass
        os.rmdir(directory)


if __name__ == "__main__":
    main()
