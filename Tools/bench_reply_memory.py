#!/usr/bin/env python3
"""Resident memory around large `tree.get` replies (issue 35 item 2): before, peak and after, and a soak.

Starts `axserver serve --bench-tree N` (Sources/AXDemo/BenchTree.swift), reads its resident size (VmRSS of
/proc/PID/status) once it is idle, then asks for the whole tree as JSON over a raw socket (the reply read to its
newline in linear time and not decoded), sampling the server's RSS every 5 ms while the reply is produced and
read, and again 0.25, 0.5, 1 and 2 s after the reply arrived. `--rounds R` repeats the request (a soak: RSS after
each round). Prints figures and the ratio after/before; asserts nothing (the goal is after ≤ 1.1× before within 2 s).

Usage: python3 Tools/bench_reply_memory.py [--axserver PATH] [--leaves 100000] [--rounds 5]
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from bench_lines import LineReader  # noqa: E402


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


class Sampler(threading.Thread):
    """The highest RSS seen while running."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0.0
        self.running = True

    def run(self):
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.005)


def start_server(axserver, leaves, directory):
    path = os.path.join(directory, "mem.sock")
    proc = subprocess.Popen([axserver, "serve", "--bench-tree", str(leaves), "--no-atspi", "--socket", path],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.time() + 120
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("READY"):
            return proc, path
    proc.kill()
    raise RuntimeError("axserver printed no READY line")


def call(sock, lines, ident, method, params):
    sock.sendall(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode() + b"\n")
    return lines.read_line()


def one_round(pid, sock, lines, ident):
    sampler = Sampler(pid)
    sampler.start()
    start = time.perf_counter()
    reply = call(sock, lines, ident, "tree.get", {"format": "json"})
    elapsed = time.perf_counter() - start
    after = {}
    received = time.perf_counter()
    for mark in (0.25, 0.5, 1.0, 2.0):
        time.sleep(max(0.0, received + mark - time.perf_counter()))
        after[mark] = rss_mb(pid)
    sampler.running = False
    sampler.join()
    return len(reply), elapsed, sampler.peak, after


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--axserver", default=os.path.join(ROOT, ".build", "release", "axserver"))
    parser.add_argument("--leaves", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        proc, path = start_server(args.axserver, args.leaves, directory)
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            lines = LineReader(sock)
            call(sock, lines, 0, "initialize", {"clientInfo": {"name": "bench_reply_memory", "version": "0"}})
            time.sleep(1.0)
            before = rss_mb(proc.pid)
            print("load: %s" % open("/proc/loadavg").read().strip())
            print("bench tree of %d leaves; RSS before the first reply: %.1f MB" % (args.leaves, before))
            for index in range(args.rounds):
                size, elapsed, peak, after = one_round(proc.pid, sock, lines, index + 1)
                print("round %d: reply %.1f MB in %.0f ms; RSS peak %.1f MB; after 0.25 s %.1f, 0.5 s %.1f, "
                      "1 s %.1f, 2 s %.1f MB (%.2f× before)"
                      % (index + 1, size / 1e6, elapsed * 1000, peak, after[0.25], after[0.5], after[1.0],
                         after[2.0], after[2.0] / before))
            sock.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
