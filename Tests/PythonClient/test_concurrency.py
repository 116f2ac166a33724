"""Several threads on one client: answers are matched by id, and a long wait never delays other calls."""
import threading
import time

import pytest

import axclient

WIFI = '#"cell.wifi"'


def run_threads(targets, timeout=30):
    errors = []

    def guarded(function):
        def run():
            try:
                function()
            except BaseException as error:  # reported below
                errors.append(error)
        return run

    threads = [threading.Thread(target=guarded(function)) for function in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(thread.is_alive() for thread in threads), "a thread did not finish"
    assert errors == []


def test_two_threads_calling_at_once(ax):
    results = {"wifi": [], "bluetooth": []}
    barrier = threading.Barrier(2, timeout=10)

    def ask(identifier, key):
        def loop():
            barrier.wait()
            for _ in range(200):
                results[key].append(ax.query_one('#"%s"' % identifier).label)
        return loop

    run_threads([ask("cell.wifi", "wifi"), ask("cell.bluetooth", "bluetooth")])
    assert results["wifi"] == ["Wi-Fi"] * 200
    assert results["bluetooth"] == ["Bluetooth"] * 200


def test_a_long_wait_does_not_delay_other_calls(ax):
    latencies = []
    wait_started = threading.Event()
    wait_finished = []

    def long_wait():
        wait_started.set()
        try:
            ax.wait_for(WIFI, "value", value="never", timeout=3.0)
        except axclient.Timeout:
            wait_finished.append(time.monotonic())

    def pings():
        wait_started.wait(5)
        time.sleep(0.2)                    # the wait is now parked on the server
        for _ in range(5):
            started = time.monotonic()
            assert ax.ping() == "pong"
            assert ax.get_by_id("cell.wifi").label() == "Wi-Fi"
            latencies.append((time.monotonic() - started, time.monotonic()))

    run_threads([long_wait, pings])
    assert len(wait_finished) == 1
    assert all(latency < 1.0 for latency, _ in latencies), latencies
    assert all(done < wait_finished[0] for _, done in latencies)


@pytest.mark.axserver(fresh=True)
def test_events_and_calls_from_several_threads(ax, axserver):
    # A server of its own: concurrent actions on the demo can lose a toggle for good (the demo host's patches,
    # made while actions overlap, can be applied out of order — issue 11 item 1's ordering question), and that
    # must not leak into the shared server's later tests.
    with ax.events("tree.changed", timeout=10) as events:
        def toggle_twice(identifier):
            def run():
                with axclient.Client(axserver.socket) as other:
                    other.get_by_id(identifier).click()
                    other.get_by_id(identifier).click()
            return run

        run_threads([toggle_twice("cell.wifi"), toggle_twice("cell.bluetooth")])
        seen = set()
        deadline = time.monotonic() + 10
        while seen != {"cellWifi", "cellBluetooth"} and time.monotonic() < deadline:
            event = events.next(timeout=max(0.01, deadline - time.monotonic()))
            seen.update(identifier for identifier in event["updated"] if identifier in ("cellWifi", "cellBluetooth"))
        assert seen == {"cellWifi", "cellBluetooth"}


def test_close_wakes_every_waiting_thread(axserver):
    client = axclient.Client(axserver.socket)
    outcomes = []
    started = threading.Event()

    def server_wait():
        started.set()
        try:
            client.wait_for(WIFI, "value", value="never", timeout=30)
        except axclient.AXConnectionError as error:
            outcomes.append(("wait", type(error).__name__))

    def change_wait():
        try:
            client.wait_until(lambda: False, timeout=30, description="nothing")
        except axclient.AXConnectionError as error:
            outcomes.append(("until", type(error).__name__))

    threads = [threading.Thread(target=server_wait), threading.Thread(target=change_wait)]
    for thread in threads:
        thread.start()
    started.wait(5)
    time.sleep(0.3)
    closed_at = time.monotonic()
    client.close()
    for thread in threads:
        thread.join(10)
    assert not any(thread.is_alive() for thread in threads)
    assert time.monotonic() - closed_at < 5
    assert sorted(outcomes) == [("until", "AXConnectionError"), ("wait", "AXConnectionError")]
