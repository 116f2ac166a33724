#!/usr/bin/env python3
"""The cost of recording a trace from the Swift side (issue 36 §Speed): per step, with and without recording.

For the demo and for the bench tree of N leaf controls (`axserver serve --bench-tree N`) it measures, p50 of --runs
steps after --warmup:
  * `axquery mcp` — a tool call without `--trace` and with `--trace FILE` (the recorder's observation calls:
    tree.revision, focus.status, element.get before; tree.diff, focus.status and, once, tree.get after): on the
    demo `click` on the Wi-Fi cell (the tree changes every step), on the bench tree (served without an action
    handler) `focus op=move direction=next` (engine focus moves every step);
  * `axquery record` — the same call as JSON-RPC (`action.activate`, `focus.move`) on a raw socket (this script
    re-run as the client) straight to the server and through `axquery record`'s proxy;
and the trace's size per 100 steps. Prints figures and asserts nothing.

Usage: python3 Tools/bench_trace_swift.py [--bin DIR] [--sizes demo,10000] [--runs 100] [--warmup 20]
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def rpc_lines(sock_path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock_path)
    reader = s.makefile("rb")
    counter = [0]

    def call(method, params=None):
        counter[0] += 1
        message = {"jsonrpc": "2.0", "id": counter[0], "method": method}
        if params is not None:
            message["params"] = params
        s.sendall((json.dumps(message) + "\n").encode())
        while True:
            answer = json.loads(reader.readline())
            if answer.get("id") == counter[0]:
                return answer
    return call


def client_main(args):
    """Run as the recorded client: `action.activate` on TARGET, RUNS times after WARMUP; prints the p50 in ms."""
    call = rpc_lines(os.environ["AXSERVER_SOCKET"])
    call("initialize", {"role": "automation"})
    method, params = ("action.activate", {"target": {"id": args.target}}) if args.target else \
        ("focus.move", {"direction": "next"})
    if args.app:
        params["app"] = args.app
    times = []
    for index in range(args.warmup + args.runs):
        start = time.perf_counter()
        answer = call(method, params)
        if "error" in answer:
            raise SystemExit("%s: %s" % (method, answer["error"]))
        if index >= args.warmup:
            times.append((time.perf_counter() - start) * 1000)
    print("%.3f" % statistics.median(times))


def start_server(binary, extra, tmp):
    sock = os.path.join(tmp, "ax.sock")
    proc = subprocess.Popen([os.path.join(binary, "axserver"), "serve", "--no-atspi", "--socket", sock] + extra,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in proc.stdout:
        if "READY" in line:
            return proc, sock
    raise SystemExit("axserver did not start")


def mcp_steps(binary, sock, app, target, runs, warmup, trace=None):
    args = [os.path.join(binary, "axquery"), "mcp", "--socket", sock] + (["--app", app] if app else [])
    if trace:
        args += ["--trace", trace]
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def answer(message):
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    answer({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}})
    times = []
    for index in range(warmup + runs):
        start = time.perf_counter()
        tool = {"name": "click", "arguments": {"ref": target}} if target else \
            {"name": "focus", "arguments": {"op": "move", "direction": "next"}}
        result = answer({"jsonrpc": "2.0", "id": index + 1, "method": "tools/call", "params": tool})["result"]
        if result.get("isError"):
            raise SystemExit("%s: %s" % (tool["name"], result["content"][0]["text"]))
        if index >= warmup:
            times.append((time.perf_counter() - start) * 1000)
    proc.stdin.close()
    proc.wait(timeout=30)
    return statistics.median(times)


def measure(binary, size, runs, warmup):
    tmp = tempfile.mkdtemp(prefix="axbench-trace-")
    extra = ["--demo"] if size == "demo" else ["--bench-tree", size]
    server, sock = start_server(binary, extra, tmp)
    try:
        app = None if size == "demo" else "axserver-bench"
        target = "cellWifi" if size == "demo" else None
        trace = os.path.join(tmp, "mcp.axtrace")
        plain = mcp_steps(binary, sock, app, target, runs, warmup)
        traced = mcp_steps(binary, sock, app, target, runs, warmup, trace)
        size_100 = os.path.getsize(trace) * 100 / (runs + warmup)
        client = [sys.executable, os.path.abspath(__file__), "--client", "--runs", str(runs), "--warmup",
                  str(warmup)] + (["--target", target] if target else []) + (["--app", app] if app else [])
        direct = float(subprocess.run(client, env=dict(os.environ, AXSERVER_SOCKET=sock), capture_output=True,
                                      text=True, check=True).stdout)
        recorded_trace = os.path.join(tmp, "record.axtrace")
        recorded = float(subprocess.run([os.path.join(binary, "axquery"), "record", recorded_trace, "--socket", sock,
                                         "--"] + client, capture_output=True, text=True, check=True).stdout)
        print("%-6s mcp tool p50 %.2f ms, with --trace %.2f ms: +%.2f ms/step; trace %.0f KB per 100 steps"
              % (size, plain, traced, traced - plain, size_100 / 1024))
        print("%-6s json-rpc p50 %.2f ms direct, %.2f ms through axquery record: +%.2f ms/step; trace %.0f KB"
              % (size, direct, recorded, recorded - direct, os.path.getsize(recorded_trace) / 1024))
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--sizes", default="demo,10000")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--target", help=argparse.SUPPRESS)
    parser.add_argument("--app", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        return client_main(args)
    for size in args.sizes.split(","):
        measure(args.bin, size, args.runs, args.warmup)


if __name__ == "__main__":
    main()
