"""Timing figures (printed, never asserted): query.one through the client vs. a raw-socket round trip.

Run alone with: AXSERVER_BIN=… python3 -m pytest -q -s Tests/PythonClient/test_benchmark.py
"""
import json
import socket
import statistics
import time

import axclient

ROUNDS = 5
CALLS = 300
SELECTOR = '#"cell.wifi"'


def raw_round_trips(path, calls):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(path)
    reader = sock.makefile("rb")
    sock.sendall(b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n')
    reader.readline()
    started = time.perf_counter()
    for index in range(1, calls + 1):
        sock.sendall(json.dumps({"jsonrpc": "2.0", "id": index, "method": "query.one",
                                 "params": {"selector": SELECTOR}}).encode() + b"\n")
        answer = json.loads(reader.readline())
        assert answer["id"] == index and answer["result"]["id"] == "cellWifi"
    elapsed = time.perf_counter() - started
    reader.close()
    sock.close()
    return elapsed / calls


def client_round_trips(client, calls):
    started = time.perf_counter()
    for _ in range(calls):
        assert client.query_one(SELECTOR).id == "cellWifi"
    return (time.perf_counter() - started) / calls


def test_query_one_client_vs_raw_socket(axserver, capsys):
    with axclient.Client(axserver.socket) as client:
        client_round_trips(client, 50)                      # warm-up
        raw_round_trips(axserver.socket, 50)
        raw, through_client = [], []
        for _ in range(ROUNDS):                             # interleaved, so both see the same machine load
            raw.append(raw_round_trips(axserver.socket, CALLS))
            through_client.append(client_round_trips(client, CALLS))
    raw_median = statistics.median(raw)
    client_median = statistics.median(through_client)
    with capsys.disabled():
        print("\nbenchmark query.one (%d rounds x %d calls, median per call): raw socket %.1f us, "
              "axclient %.1f us, ratio %.2fx (goal <= 2x)"
              % (ROUNDS, CALLS, raw_median * 1e6, client_median * 1e6, client_median / raw_median))
