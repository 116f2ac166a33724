"""Timing figures (printed, never asserted): query.one through the client vs. a raw-socket round trip.

Each call through the client alternates with one raw call on its own connection, so both see the same machine
load; the figures are the 10th percentile and the median per call. `ping` shows the client's fixed cost.
Run alone with: AXSERVER_BIN=… python3 -m pytest -q -s Tests/PythonClient/test_benchmark.py
"""
import json
import socket
import time

import axclient

CALLS = 2000
SELECTOR = '#"cell.wifi"'


class RawConnection:
    """The cheapest correct client: one socket, one request at a time, newline-delimited JSON."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.reader = self.sock.makefile("rb")
        self.next_id = 0
        self.call("initialize", {})

    def call(self, method, params):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                      "params": params}).encode() + b"\n")
        answer = json.loads(self.reader.readline())
        assert answer["id"] == self.next_id and "result" in answer
        return answer["result"]

    def close(self):
        self.reader.close()
        self.sock.close()


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def measure(raw_call, client_call, calls):
    raw, through_client = [], []
    for _ in range(calls):
        started = time.perf_counter()
        raw_call()
        raw.append(time.perf_counter() - started)
        started = time.perf_counter()
        client_call()
        through_client.append(time.perf_counter() - started)
    return raw, through_client


def report(name, raw, through_client):
    figures = []
    for label, fraction in (("p10", 0.1), ("p50", 0.5)):
        raw_value = percentile(raw, fraction)
        client_value = percentile(through_client, fraction)
        figures.append("%s raw %.0f us, axclient %.0f us, ratio %.2fx"
                       % (label, raw_value * 1e6, client_value * 1e6, client_value / raw_value))
    return "benchmark %s (%d interleaved calls): %s" % (name, len(raw), "; ".join(figures))


def test_query_one_client_vs_raw_socket(axserver, capsys):
    raw_connection = RawConnection(axserver.socket)
    try:
        with axclient.Client(axserver.socket) as client:
            def raw_query():
                assert raw_connection.call("query.one", {"selector": SELECTOR})["id"] == "cellWifi"

            def client_query():
                assert client.query_one(SELECTOR).id == "cellWifi"

            measure(raw_query, client_query, 100)                                   # warm-up
            query = measure(raw_query, client_query, CALLS)
            ping = measure(lambda: raw_connection.call("ping", {}), client.ping, CALLS)
    finally:
        raw_connection.close()
    with capsys.disabled():
        print("\n" + report("query.one (goal <= 2x)", *query))
        print(report("ping (the client's fixed cost)", *ping))
