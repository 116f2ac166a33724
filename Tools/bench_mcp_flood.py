#!/usr/bin/env python3
"""`axquery mcp` under a flood (issue 30 item 5): figures, no assertions.

Starts `axserver --demo` (no AT-SPI) on a private socket and `axquery mcp --socket S`, then measures with raw
JSON-RPC lines:
  * connections: N concurrent first calls (`find`), sampling the sockets axquery holds every 2 ms (most seen), and
    how many answers were errors ("cannot connect" and others);
  * cancel: W `wait_for` that never hold (60 s timeout), all cancelled (`notifications/cancelled`), then the time
    until the next `find` answers;
  * flood: P pipelined `find` calls written at once; RSS (VmRSS) of axquery before, at the peak, and 2 s after the
    last answer; how many answers were −32023 busy.

Usage: python3 Tools/bench_mcp_flood.py [--bin DIR] [--connections 500,2000] [--waits 1000] [--pipelined 20000]
"""
import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import time


def start_server(bin_dir, directory):
    sock = os.path.join(directory, "ax.sock")
    server = subprocess.Popen([os.path.join(bin_dir, "axserver"), "--demo", "--socket", sock, "--no-atspi"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        ready, _, _ = select.select([server.stdout], [], [], 1)
        if ready and server.stdout.readline().startswith(b"READY"):
            return server, sock
    raise RuntimeError("axserver did not start")


class MCP:
    def __init__(self, bin_dir, sock):
        self.process = subprocess.Popen([os.path.join(bin_dir, "axquery"), "mcp", "--socket", sock],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.answers = {}
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "b"}}})
        self.wait_for_ids(["init"], 10)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self):
        for line in self.process.stdout:
            message = json.loads(line)
            with self.lock:
                self.answers[json.dumps(message.get("id"))] = message
                self.lock.notify_all()

    def send(self, message):
        self.send_lines([json.dumps(message)])

    def send_lines(self, lines):
        self.process.stdin.write(("\n".join(lines) + "\n").encode())
        self.process.stdin.flush()

    def call_line(self, id, tool, **arguments):
        return json.dumps({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                           "params": {"name": tool, "arguments": arguments}})

    def wait_for_ids(self, ids, timeout):
        keys = [json.dumps(i) for i in ids]
        deadline = time.time() + timeout
        with self.lock:
            while not all(k in self.answers for k in keys):
                left = deadline - time.time()
                if left <= 0:
                    return False
                self.lock.wait(left)
        return True

    def sockets(self):
        count = 0
        try:
            for fd in os.listdir("/proc/%d/fd" % self.process.pid):
                try:
                    if os.readlink("/proc/%d/fd/%s" % (self.process.pid, fd)).startswith("socket:"):
                        count += 1
                except OSError:
                    pass
        except OSError:
            pass
        return count

    def rss_kb(self):
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def errors_of(mcp, ids):
    out = {"toolError": 0, "busy": 0, "cannotConnect": 0, "other": 0, "missing": 0}
    for i in ids:
        answer = mcp.answers.get(json.dumps(i))
        if answer is None:
            out["missing"] += 1
        elif "error" in answer:
            out["busy" if answer["error"]["code"] == -32023 else "other"] += 1
        elif answer["result"].get("isError"):
            text = answer["result"]["content"][0]["text"]
            out["cannotConnect" if "cannot connect" in text else "toolError"] += 1
    return out


def connections(bin_dir, sock, n):
    mcp = MCP(bin_dir, sock)
    base = mcp.sockets()
    ids = list(range(1, n + 1))
    most = [0]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            most[0] = max(most[0], mcp.sockets() - base)
            time.sleep(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.time()
    mcp.send_lines([mcp.call_line(i, "find", selector="switch") for i in ids])
    done = mcp.wait_for_ids(ids, 120)
    elapsed = time.time() - started
    stop.set()
    sampler.join()
    result = {"calls": n, "mostConnections": most[0], "answeredAll": done, "seconds": round(elapsed, 2)}
    result.update(errors_of(mcp, ids))
    mcp.close()
    return result


def cancel(bin_dir, sock, waits):
    mcp = MCP(bin_dir, sock)
    mcp.send_lines([mcp.call_line("warm", "find", selector="switch")])
    mcp.wait_for_ids(["warm"], 30)
    ids = ["w%d" % i for i in range(waits)]
    mcp.send_lines([mcp.call_line(i, "wait_for", selector="#never", state="attached", timeoutMs=60000) for i in ids])
    time.sleep(1.0)
    mcp.send_lines([json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": i}})
                    for i in ids])
    started = time.time()
    mcp.send_lines([mcp.call_line("next", "find", selector="switch")])
    answered = mcp.wait_for_ids(["next"], 60)
    elapsed = time.time() - started
    answered_waits = sum(1 for i in ids if json.dumps(i) in mcp.answers)
    mcp.close()
    return {"waits": waits, "nextFindSeconds": round(elapsed, 3) if answered else None,
            "answeredCancelledWaits": answered_waits}


def flood(bin_dir, sock, n):
    mcp = MCP(bin_dir, sock)
    mcp.send_lines([mcp.call_line("warm", "find", selector="switch")])
    mcp.wait_for_ids(["warm"], 30)
    time.sleep(1.0)
    start_rss = mcp.rss_kb()
    ids = list(range(1, n + 1))
    peak = [start_rss]
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            try:
                peak[0] = max(peak[0], mcp.rss_kb())
            except OSError:
                return
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.time()
    writer = threading.Thread(target=mcp.send_lines, args=([mcp.call_line(i, "find", selector="switch") for i in ids],))
    writer.start()
    done = mcp.wait_for_ids(ids, 300)
    writer.join()
    elapsed = time.time() - started
    time.sleep(2.0)
    stop.set()
    sampler.join()
    end_rss = mcp.rss_kb()
    result = {"calls": n, "answeredAll": done, "seconds": round(elapsed, 2), "rssStartMB": round(start_rss / 1024, 1),
              "rssPeakMB": round(peak[0] / 1024, 1), "rssAfterMB": round(end_rss / 1024, 1),
              "afterOverStart": round(end_rss / start_rss, 3)}
    result.update(errors_of(mcp, ids))
    mcp.close()
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                    ".build", "debug"))
    parser.add_argument("--connections", default="500,2000")
    parser.add_argument("--waits", type=int, default=1000)
    parser.add_argument("--pipelined", type=int, default=20000)
    parser.add_argument("--only", default="connections,cancel,flood")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="axmcpflood-") as directory:
        server, sock = start_server(args.bin, directory)
        try:
            only = args.only.split(",")
            if "connections" in only:
                for n in [int(x) for x in args.connections.split(",") if x]:
                    print(json.dumps({"connections": connections(args.bin, sock, n)}), flush=True)
            if "cancel" in only:
                print(json.dumps({"cancel": cancel(args.bin, sock, args.waits)}), flush=True)
            if "flood" in only:
                print(json.dumps({"flood": flood(args.bin, sock, args.pipelined)}), flush=True)
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
