#!/usr/bin/python3
"""Load and soak test of axserver's JSON-RPC socket (issue 12).

Starts `axserver --bench-tree N --no-atspi` on a private socket, registers a provider that streams patches
(--patch-rate per second) and answers actions, then runs --clients automation clients for --seconds with a mix
of queries (on the bench tree and the provider's app), waits that a later patch satisfies, long waits that stay
pending, actions and event subscriptions, plus --never-read clients that subscribe to every event (and pipeline
big requests) and never read a byte. --churn loops keep registering providers that subscribe to every event and
are closed abruptly a moment later, mid-stream, without reading (issue 19: a subscribed provider going away
during event delivery).

It checks that every request gets exactly one reply (no loss, no duplicate, no reply to an unknown id), reports
latency percentiles (p50/p95/p99, overall and per method), and samples the server's RSS and open file
descriptors before, during and after the load. Exit status: 0 when every check passed, 1 otherwise (a lost or
duplicate reply, a client error, RSS growth beyond --rss-growth percent of its level at --rss-baseline-after
seconds, descriptors not returning near their level before the load, or the server dying).

Only the Python standard library; processes are started and ended by PID; everything runs on a private Unix
socket in a fresh temporary directory.
"""
import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def percentile(sorted_values, fraction):
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, int(round(fraction * (len(sorted_values) - 1)))))
    return sorted_values[index]


def read_rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def count_fds(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return None


class Stats:
    def __init__(self):
        self.latencies = {}          # method -> [seconds]
        self.sent = 0
        self.replies = 0
        self.errors = {}             # code -> count (JSON-RPC errors, expected ones included)
        self.unexpected = []         # descriptions of protocol violations
        self.notifications = 0
        self.disconnected_clients = 0

    def record(self, method, seconds):
        self.latencies.setdefault(method, []).append(seconds)


class Conn:
    """One NDJSON JSON-RPC connection with a reader task that matches replies to requests by id."""

    def __init__(self, name, stats, on_request=None):
        self.name = name
        self.stats = stats
        self.on_request = on_request
        self.pending = {}            # id -> (future, method, start)
        self.answered = set()
        self.next_id = 1
        self.reader = None
        self.writer = None
        self.task = None
        self.closed = False

    async def open(self, path):
        self.reader, self.writer = await asyncio.open_unix_connection(path, limit=64 << 20)
        self.task = asyncio.ensure_future(self.read_loop())

    async def read_loop(self):
        try:
            while True:
                line = await self.reader.readline()
                if not line:
                    break
                if not line.strip():
                    continue
                msg = json.loads(line)
                if "method" in msg:
                    if "id" in msg and self.on_request is not None:
                        asyncio.ensure_future(self.answer(msg))
                    else:
                        self.stats.notifications += 1
                    continue
                mid = msg.get("id")
                entry = self.pending.pop(mid, None)
                if entry is None:
                    kind = "duplicate" if mid in self.answered else "unknown"
                    self.stats.unexpected.append("%s: %s reply for id %r" % (self.name, kind, mid))
                    continue
                self.answered.add(mid)
                future, method, start = entry
                self.stats.replies += 1
                self.stats.record(method, time.monotonic() - start)
                if "error" in msg:
                    code = msg["error"].get("code")
                    self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
                if not future.done():
                    future.set_result(msg)
        except (ConnectionError, ValueError, asyncio.IncompleteReadError) as e:
            self.stats.unexpected.append("%s: read failed: %r" % (self.name, e))
        finally:
            self.closed = True
            for future, _, _ in self.pending.values():
                if not future.done():
                    future.set_result(None)

    async def answer(self, msg):
        try:
            result = await self.on_request(msg["method"], msg.get("params"))
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        except Exception as e:  # noqa: BLE001 - reported, not raised
            self.stats.unexpected.append("%s: request handler failed: %r" % (self.name, e))

    def send(self, obj):
        self.writer.write(json.dumps(obj, separators=(",", ":")).encode() + b"\n")

    def request(self, method, params=None):
        mid = self.next_id
        self.next_id += 1
        future = asyncio.get_event_loop().create_future()
        self.pending[mid] = (future, method, time.monotonic())
        message = {"jsonrpc": "2.0", "id": mid, "method": method}
        if params is not None:
            message["params"] = params
        self.stats.sent += 1
        self.send(message)
        return future

    async def call(self, method, params=None, timeout=60):
        future = self.request(method, params)
        await self.writer.drain()
        return await asyncio.wait_for(future, timeout)

    def close(self):
        if self.writer is not None:
            self.writer.close()


def provider_snapshot(controls):
    children = [{"id": "btn", "class": "UIButton", "title": "Go", "frame": [0, 0, 100, 40]},
                {"id": "counter", "class": "UILabel", "text": "tick 0", "frame": [0, 50, 200, 30]}]
    for i in range(controls):
        children.append({"id": "c%d" % i, "class": "UIButton", "title": "Item %d" % i,
                         "frame": [(i % 10) * 80, 100 + (i // 10) * 40, 75, 30]})
    return {"windows": [{"id": "w", "class": "UIWindow", "frame": [0, 0, 800, 2000], "isKeyWindow": True,
                         "children": children}]}


class Soak:
    def __init__(self, args, server_pid, socket_path):
        self.args = args
        self.pid = server_pid
        self.path = socket_path
        self.stats = Stats()
        self.tick = 0
        self.stop = False
        self.samples = []            # (t, rss_kib, fds)
        self.t0 = None
        self.app = None
        self.provider = None
        self.activations = 0
        self.churn_cycles = 0
        self.patches_skipped = 0
        self.drain_seconds = 0.0

    async def sample_loop(self):
        while not self.stop:
            self.samples.append((time.monotonic() - self.t0, read_rss_kib(self.pid), count_fds(self.pid)))
            await asyncio.sleep(self.args.sample_interval)

    async def start_provider(self):
        async def on_request(method, params):
            if method != "action.perform":
                return {"handled": False}
            self.activations += 1
            return {"handled": True}
        self.provider = Conn("provider", self.stats, on_request)
        await self.provider.open(self.path)
        await self.provider.call("initialize", {"role": "provider", "clientInfo": {"name": "soak-provider"}})
        reply = await self.provider.call("app.register", {"name": "soak-app"})
        self.app = reply["result"]["app"]
        await self.provider.call("hierarchy.set", provider_snapshot(self.args.provider_controls))

    async def patch_loop(self):
        interval = 1.0 / self.args.patch_rate
        next_at = time.monotonic()
        while not self.stop:
            next_at += interval
            if len(self.provider.pending) >= self.args.max_patches_in_flight:
                # The server is behind: do not queue patches without bound (counted, not sent).
                self.patches_skipped += 1
            else:
                self.tick += 1
                self.provider.request("hierarchy.update",
                                      {"ops": [{"op": "set", "id": "counter", "properties": {"text": "tick %d" % self.tick}}]})
            delay = next_at - time.monotonic()
            if delay > 0:
                await self.provider.writer.drain()
                await asyncio.sleep(delay)
            elif self.tick % 50 == 0:
                await self.provider.writer.drain()

    async def client_loop(self, index):
        rng = random.Random(index)
        conn = Conn("client%d" % index, self.stats)
        await conn.open(self.path)
        await conn.call("initialize", {"role": "automation", "clientInfo": {"name": "soak-%d" % index}})
        if index % 5 == 0:
            await conn.call("events.subscribe", {"app": self.app, "events": ["tree.changed", "focus.changed"]})
        bench = "axserver-bench"
        while not self.stop and not conn.closed:
            choice = rng.random()
            if choice < 0.25:
                params = {"app": bench, "selector": rng.choice(["button", "switch", "slider", "textField", "staticText"])}
                method = "query.count"
            elif choice < 0.40:
                params = {"app": bench, "selector": "button", "limit": 20}
                method = "query.find"
            elif choice < 0.50:
                params = {"app": self.app, "selector": "button", "limit": 50}
                method = "query.find"
            elif choice < 0.65:
                # Satisfied by a later patch (woken by revisions).
                params = {"app": self.app, "target": {"id": "counter"}, "state": "label",
                          "value": "tick %d" % (self.tick + rng.randint(1, 20)), "timeoutMs": 2000}
                method = "wait.for"
            elif choice < 0.80:
                params = {"app": self.app, "target": {"id": "btn"}}
                method = "action.activate"
            elif choice < 0.90:
                params = {"app": self.app, "target": {"id": "c%d" % rng.randrange(self.args.provider_controls)}}
                method = "element.get"
            else:
                params = {"app": bench, "depth": 2}
                method = "tree.get"
            reply = await conn.call(method, params, timeout=self.args.reply_timeout)
            if reply is None:
                break
            if "error" in reply and reply["error"].get("code") not in (-32016,):
                self.stats.unexpected.append("client%d: %s failed: %s" % (index, method, reply["error"].get("message")))
            if self.args.think_ms > 0:
                await asyncio.sleep(rng.uniform(0, self.args.think_ms) / 1000.0)
        return conn

    async def pending_wait_loop(self, index):
        """Keeps one wait pending that no patch satisfies (it times out and is renewed)."""
        conn = Conn("waiter%d" % index, self.stats)
        await conn.open(self.path)
        await conn.call("initialize", {"role": "automation"})
        while not self.stop and not conn.closed:
            reply = await conn.call("wait.for", {"app": self.app, "target": {"id": "counter"}, "state": "label",
                                                 "value": "never", "timeoutMs": self.args.pending_wait_ms},
                                    timeout=self.args.pending_wait_ms / 1000.0 + self.args.reply_timeout)
            if reply is None:
                break
            if reply.get("error", {}).get("code") != -32016:
                self.stats.unexpected.append("waiter%d: expected a timeout, got %s" % (index, json.dumps(reply)[:200]))
        return conn

    async def churn_loop(self, index):
        """Registers a provider that subscribes to everything, then closes it abruptly while patches stream."""
        rng = random.Random(1000 + index)
        while not self.stop:
            try:
                reader, writer = await asyncio.open_unix_connection(self.path)
            except OSError as e:
                self.stats.unexpected.append("churn%d: connect failed: %r" % (index, e))
                return
            lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"role": "provider"}},
                     {"jsonrpc": "2.0", "id": 2, "method": "app.register", "params": {"name": "churn%d" % index}},
                     {"jsonrpc": "2.0", "id": 3, "method": "events.subscribe", "params": {}}]
            writer.write(b"".join(json.dumps(m).encode() + b"\n" for m in lines))
            await writer.drain()
            await asyncio.sleep(rng.uniform(0.02, 0.3))
            writer.transport.abort()
            self.churn_cycles += 1

    def never_reading_client(self, index):
        """Subscribes to everything and pipelines big requests, then never reads (a raw blocking socket)."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(self.path)
        sock.setblocking(False)
        lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"role": "automation"}},
                 {"jsonrpc": "2.0", "id": 2, "method": "events.subscribe", "params": {"app": self.app}}]
        for i in range(3, 3 + self.args.never_read_requests):
            lines.append({"jsonrpc": "2.0", "id": i, "method": "tree.get", "params": {"app": "axserver-bench"}})
        data = b"".join(json.dumps(m).encode() + b"\n" for m in lines)
        try:
            sock.send(data)
        except BlockingIOError:
            pass
        return sock

    async def run(self):
        self.t0 = time.monotonic()
        before = (read_rss_kib(self.pid), count_fds(self.pid))
        sampler = asyncio.ensure_future(self.sample_loop())
        await self.start_provider()
        patcher = asyncio.ensure_future(self.patch_loop())
        hogs = [self.never_reading_client(i) for i in range(self.args.never_read)]
        clients = [asyncio.ensure_future(self.client_loop(i)) for i in range(self.args.clients)]
        waiters = [asyncio.ensure_future(self.pending_wait_loop(i)) for i in range(self.args.pending_waits)]
        churners = [asyncio.ensure_future(self.churn_loop(i)) for i in range(self.args.churn)]
        load_start = time.monotonic()
        await asyncio.sleep(self.args.seconds)
        self.stop = True
        duration = time.monotonic() - load_start
        drain_start = time.monotonic()
        conns = []
        for task in clients + waiters:
            try:
                conns.append(await asyncio.wait_for(task, self.args.reply_timeout + self.args.pending_wait_ms / 1000.0 + 5))
            except Exception as e:  # noqa: BLE001 - reported
                self.stats.unexpected.append("client task failed: %r" % (e,))
        await patcher
        for task in churners:
            await task
        # The provider pipelines its patches (up to --max-patches-in-flight): give the last of them the reply timeout
        # too, so "lost" means what --reply-timeout says (no reply in that time), not "still queued on a loaded
        # machine" (CI, session 9: 28 patches answered after a 2.4 s drain at p99 5 s were counted lost).
        while self.provider.pending and time.monotonic() - drain_start < self.args.reply_timeout:
            await asyncio.sleep(0.05)
        self.drain_seconds = time.monotonic() - drain_start
        during = list(self.samples)
        # Every request must have had its reply by now.
        lost = sum(len(c.pending) for c in conns) + len(self.provider.pending)
        if lost == 0:
            await asyncio.sleep(0.5)
            lost = sum(len(c.pending) for c in conns) + len(self.provider.pending)
        for c in conns:
            c.close()
        for h in hogs:
            h.close()
        self.provider.close()
        await asyncio.sleep(2.0)
        after = (read_rss_kib(self.pid), count_fds(self.pid))
        self.stop = True
        sampler.cancel()
        return self.report(before, during, after, lost, duration)

    def report(self, before, during, after, lost, duration):
        args = self.args
        failures = []
        all_latencies = sorted(x for v in self.stats.latencies.values() for x in v)
        baseline = None
        rest = []
        for t, rss, fds in during:
            if rss is None:
                continue
            if t >= args.rss_baseline_after and baseline is None:
                baseline = rss
            elif baseline is not None:
                rest.append(rss)
        peak_after_baseline = max(rest) if rest else baseline
        alive = read_rss_kib(self.pid) is not None
        if not alive:
            failures.append("the server died")
        if lost:
            failures.append("%d requests got no reply" % lost)
        if self.stats.unexpected:
            failures.append("%d protocol/client errors (first: %s)" % (len(self.stats.unexpected), self.stats.unexpected[0]))
        growth = None
        if baseline and peak_after_baseline:
            growth = 100.0 * (peak_after_baseline - baseline) / baseline
            if growth > args.rss_growth:
                failures.append("RSS grew %.1f%% after %ds (%d -> %d KiB; limit %.0f%%)" % (
                    growth, args.rss_baseline_after, baseline, peak_after_baseline, args.rss_growth))
        if before[1] is not None and after[1] is not None and after[1] > before[1] + args.fd_slack:
            failures.append("open descriptors %d after the load, %d before" % (after[1], before[1]))
        per_method = {}
        for method, values in sorted(self.stats.latencies.items()):
            v = sorted(values)
            per_method[method] = {"count": len(v), "p50_ms": round(percentile(v, 0.5) * 1000, 2),
                                  "p95_ms": round(percentile(v, 0.95) * 1000, 2),
                                  "p99_ms": round(percentile(v, 0.99) * 1000, 2),
                                  "max_ms": round(v[-1] * 1000, 2)}
        rss_values = [s[1] for s in during if s[1] is not None]
        fd_values = [s[2] for s in during if s[2] is not None]
        result = {
            "config": {"clients": args.clients, "seconds": args.seconds, "benchTree": args.bench_tree,
                       "patchRate": args.patch_rate, "neverRead": args.never_read, "pendingWaits": args.pending_waits,
                       "maxPatchesInFlight": args.max_patches_in_flight},
            "durationSeconds": round(duration, 1),
            "drainSeconds": round(self.drain_seconds, 1),
            "requests": self.stats.sent, "replies": self.stats.replies, "lost": lost,
            "requestsPerSecond": round(self.stats.replies / duration, 1) if duration > 0 else 0,
            "patchesSent": self.tick, "patchesPerSecond": round(self.tick / duration, 1) if duration > 0 else 0,
            "patchesSkippedServerBehind": self.patches_skipped,
            "actionsPerformedByProvider": self.activations, "churnCycles": self.churn_cycles,
            "notificationsReceived": self.stats.notifications,
            "errorsByCode": {str(k): v for k, v in sorted(self.stats.errors.items(), key=lambda kv: str(kv[0]))},
            "latency": {"p50_ms": round(percentile(all_latencies, 0.5) * 1000, 2),
                        "p95_ms": round(percentile(all_latencies, 0.95) * 1000, 2),
                        "p99_ms": round(percentile(all_latencies, 0.99) * 1000, 2)},
            "latencyByMethod": per_method,
            "rssKiB": {"before": before[0], "baseline": baseline, "peakAfterBaseline": peak_after_baseline,
                       "minDuring": min(rss_values) if rss_values else None,
                       "maxDuring": max(rss_values) if rss_values else None, "after": after[0],
                       "growthPercent": round(growth, 1) if growth is not None else None},
            "fds": {"before": before[1], "maxDuring": max(fd_values) if fd_values else None, "after": after[1]},
            "samples": [{"t": round(t, 1), "rssKiB": r, "fds": f} for t, r, f in during],
            "unexpected": self.stats.unexpected[:20],
            "failures": failures,
        }
        return result


def print_summary(result):
    r = result
    print("soak: %d clients, %ss (+%ss for the last replies), bench tree %d, %s patches/s sent (%d), %d never-reading, %d pending waits" % (
        r["config"]["clients"], r["durationSeconds"], r["drainSeconds"], r["config"]["benchTree"], r["patchesPerSecond"], r["patchesSent"],
        r["config"]["neverRead"], r["config"]["pendingWaits"]))
    print("patches skipped because %d were unanswered: %d" % (r["config"].get("maxPatchesInFlight", 0), r["patchesSkippedServerBehind"]))
    print("requests %d, replies %d, lost %d, %.1f replies/s; errors by code %s; notifications %d" % (
        r["requests"], r["replies"], r["lost"], r["requestsPerSecond"], r["errorsByCode"], r["notificationsReceived"]))
    lat = r["latency"]
    print("latency p50 %.2f ms, p95 %.2f ms, p99 %.2f ms" % (lat["p50_ms"], lat["p95_ms"], lat["p99_ms"]))
    for method, m in r["latencyByMethod"].items():
        print("  %-18s n=%-7d p50 %8.2f  p95 %8.2f  p99 %8.2f  max %8.2f ms" % (
            method, m["count"], m["p50_ms"], m["p95_ms"], m["p99_ms"], m["max_ms"]))
    rss = r["rssKiB"]
    print("RSS KiB: before %s, baseline %s, peak after baseline %s (growth %s%%), max during %s, after %s" % (
        rss["before"], rss["baseline"], rss["peakAfterBaseline"], rss["growthPercent"], rss["maxDuring"], rss["after"]))
    fds = r["fds"]
    print("open fds: before %s, max during %s, after %s" % (fds["before"], fds["maxDuring"], fds["after"]))
    if r["failures"]:
        print("FAIL: " + "; ".join(r["failures"]))
    else:
        print("OK")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default=os.environ.get("AXSERVER_BIN") or os.path.join(ROOT, ".build", "release"),
                        help="directory holding axserver (default: $AXSERVER_BIN, else .build/release)")
    parser.add_argument("--seconds", type=float, default=60, help="duration of the load (default 60)")
    parser.add_argument("--clients", type=int, default=100, help="automation clients (default 100)")
    parser.add_argument("--bench-tree", type=int, default=2000, help="controls in the served bench tree (default 2000)")
    parser.add_argument("--provider-controls", type=int, default=100, help="controls in the provider's app (default 100)")
    parser.add_argument("--patch-rate", type=float, default=200, help="provider patches per second (default 200)")
    parser.add_argument("--max-patches-in-flight", type=int, default=50,
                        help="patches sent but not yet answered before the provider skips one (default 50)")
    parser.add_argument("--never-read", type=int, default=3, help="clients that subscribe and never read (default 3)")
    parser.add_argument("--never-read-requests", type=int, default=200, help="tree.get requests each never-reading client pipelines")
    parser.add_argument("--churn", type=int, default=0,
                        help="loops registering subscribed providers that are closed abruptly mid-stream (default 0)")
    parser.add_argument("--pending-waits", type=int, default=10, help="clients keeping a wait pending (default 10)")
    parser.add_argument("--pending-wait-ms", type=int, default=30000, help="timeout of those waits (default 30000)")
    parser.add_argument("--think-ms", type=float, default=20, help="max random pause between a client's requests (default 20)")
    parser.add_argument("--reply-timeout", type=float, default=30, help="seconds a reply may take before it counts as lost")
    parser.add_argument("--sample-interval", type=float, default=1.0, help="seconds between RSS/fd samples")
    parser.add_argument("--rss-baseline-after", type=float, default=None,
                        help="seconds into the load where the RSS baseline is taken (default: 60, or a third of --seconds when shorter than 3 minutes)")
    parser.add_argument("--rss-growth", type=float, default=10, help="allowed RSS growth after the baseline, percent (default 10)")
    parser.add_argument("--fd-slack", type=int, default=8, help="extra descriptors allowed after the load (default 8)")
    parser.add_argument("--json", help="also write the full result (with every sample) to this file")
    args = parser.parse_args()
    if args.rss_baseline_after is None:
        args.rss_baseline_after = 60 if args.seconds >= 180 else args.seconds / 3
    for name in ("seconds", "patch_rate", "sample_interval", "reply_timeout"):
        if getattr(args, name) <= 0:
            parser.error("--%s must be positive" % name.replace("_", "-"))
    if args.max_patches_in_flight < 1:
        parser.error("--max-patches-in-flight must be at least 1")
    for name in ("clients", "bench_tree", "never_read", "pending_waits", "provider_controls", "never_read_requests", "churn"):
        if getattr(args, name) < 0:
            parser.error("--%s must not be negative" % name.replace("_", "-"))

    axserver = os.path.join(args.bin, "axserver")
    if not os.access(axserver, os.X_OK):
        print("soak: no axserver at %s (build it: swift build -c release)" % axserver, file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="axsoak-")
    os.chmod(tmp, 0o700)
    sock = os.path.join(tmp, "ax.sock")
    env = dict(os.environ)
    env.pop("XDG_RUNTIME_DIR", None)
    server = subprocess.Popen([axserver, "--bench-tree", str(args.bench_tree), "--no-atspi", "--socket", sock],
                              stdout=subprocess.PIPE, stderr=open(os.path.join(tmp, "server.log"), "w"), env=env, text=True)
    try:
        deadline = time.time() + 60
        ready = None
        while time.time() < deadline:
            line = server.stdout.readline()
            if not line:
                break
            if line.startswith("READY"):
                ready = line.strip()
                break
        if ready is None:
            print("soak: the server did not start (see %s/server.log)" % tmp, file=sys.stderr)
            return 2
        soak = Soak(args, server.pid, sock)
        result = asyncio.get_event_loop().run_until_complete(soak.run())
        if server.poll() is not None:
            result["failures"].append("the server exited with %s" % server.returncode)
        with open(os.path.join(tmp, "server.log")) as f:
            result["serverLogTail"] = f.read()[-4000:].splitlines()[-20:]
        print_summary(result)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=1)
        return 1 if result["failures"] else 0
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
        for name in os.listdir(tmp):
            try:
                os.unlink(os.path.join(tmp, name))
            except OSError:
                pass
        try:
            os.rmdir(tmp)
        except OSError:
            pass


if __name__ == "__main__":
    sys.exit(main())
