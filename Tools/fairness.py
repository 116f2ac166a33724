#!/usr/bin/python3
"""Fairness probe (issue 12): how long do other clients wait while one client bursts expensive requests?


Starts `axserver --bench-tree N --no-atspi` on a private socket. --probes clients each send `ping` every
--interval-ms and time the answer; meanwhile one client writes --burst `tree.get` requests of the whole tree in
one go (and reads its replies on a thread). Prints the probes' latency percentiles without and with the burst.
The probes are several connections so that some share the burst's event loop. Only the standard library.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def percentile(values, fraction):
    values = sorted(values)
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(round(fraction * (len(values) - 1))))]


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def read_line(sock, buf):
    while b"\n" not in buf[0]:
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("closed")
        buf[0] += chunk
    line, buf[0] = buf[0].split(b"\n", 1)
    return line


def probe(path, seconds, interval, out):
    sock = connect(path)
    buf = [b""]
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        start = time.monotonic()
        sock.sendall(json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}).encode() + b"\n")
        read_line(sock, buf)
        out.append(time.monotonic() - start)
        time.sleep(interval)
    sock.close()


def run_probes(path, count, seconds, interval):
    results = [[] for _ in range(count)]
    threads = [threading.Thread(target=probe, args=(path, seconds, interval, results[i])) for i in range(count)]
    for t in threads:
        t.start()
    return threads, results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.environ.get("AXSERVER_BIN") or os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--bench-tree", type=int, default=2000)
    parser.add_argument("--burst", type=int, default=300, help="tree.get requests in the burst (default 300)")
    parser.add_argument("--method", default="tree.get", choices=["tree.get", "query.count", "query.find"],
                        help="what the burst asks for (query.* with selector 'button'; default tree.get)")
    parser.add_argument("--probes", type=int, default=4)
    parser.add_argument("--interval-ms", type=float, default=5)
    parser.add_argument("--seconds", type=float, default=3, help="probe time without the burst (default 3)")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="axfair-")
    path = os.path.join(tmp, "ax.sock")
    server = subprocess.Popen([os.path.join(args.bin, "axserver"), "--bench-tree", str(args.bench_tree), "--no-atspi",
                               "--socket", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        if not server.stdout.readline().startswith("READY"):
            print("fairness: the server did not start", file=sys.stderr)
            return 2
        interval = args.interval_ms / 1000.0
        threads, quiet = run_probes(path, args.probes, args.seconds, interval)
        for t in threads:
            t.join()
        hog = connect(path)
        hog.sendall(json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {"role": "automation"}}).encode() + b"\n")
        read_line(hog, [b""])
        params = {"app": "axserver-bench"}
        if args.method != "tree.get":
            params["selector"] = "button"
        burst = b"".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": args.method,
                                     "params": params}).encode() + b"\n" for i in range(args.burst))
        got = [0]

        def drain():
            buf = [b""]
            while got[0] < args.burst:
                # Not parsed: parsing megabytes of JSON here would hold the GIL and delay the probe threads.
                reply = read_line(hog, buf)
                if b'"error"' in reply[:200]:
                    raise SystemExit("fairness: tree.get failed: %s" % reply[:300])
                got[0] += 1
        reader = threading.Thread(target=drain)
        reader.start()
        start = time.monotonic()
        hog.sendall(burst)
        # Probe while the burst is being worked through.
        results = [[] for _ in range(args.probes)]
        stop = [False]

        def busy_probe(out):
            sock = connect(path)
            buf = [b""]
            n = 0
            while not stop[0]:
                n += 1
                t0 = time.monotonic()
                sock.sendall(json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}).encode() + b"\n")
                read_line(sock, buf)
                out.append(time.monotonic() - t0)
                time.sleep(interval)
            sock.close()
        probes = [threading.Thread(target=busy_probe, args=(results[i],)) for i in range(args.probes)]
        for t in probes:
            t.start()
        reader.join()
        burst_seconds = time.monotonic() - start
        stop[0] = True
        for t in probes:
            t.join()
        hog.close()
        quiet_all = [x for r in quiet for x in r]
        busy_all = [x for r in results for x in r]
        print("burst: %d %s on a %d-control tree answered in %.2f s" % (args.burst, args.method, args.bench_tree, burst_seconds))
        for name, values in (("without burst", quiet_all), ("during burst", busy_all)):
            print("%-14s all probes n=%-5d p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms  max %8.2f ms" % (
                name, len(values), percentile(values, 0.5) * 1000, percentile(values, 0.95) * 1000,
                percentile(values, 0.99) * 1000, max(values or [0]) * 1000))
        # A probe on the burst's event loop may get few, long samples: show each probe.
        for index, values in enumerate(results):
            print("  probe %d during burst: n=%-5d p99 %8.2f ms  max %8.2f ms" % (
                index, len(values), percentile(values, 0.99) * 1000, max(values or [0]) * 1000))
        return 0
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
        try:
            os.unlink(path)
        except OSError:
            pass
        os.rmdir(tmp)


if __name__ == "__main__":
    sys.exit(main())
