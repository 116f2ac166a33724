"""Event iterators: subscribing, iterating with a timeout, waiting for one event, unsubscribing."""
import time

import pytest

import axclient


def test_tree_changed_after_a_toggle(ax):
    with ax.events("tree.changed", "focus.changed", timeout=5) as events:
        assert events.subscription is not None
        ax.get_by_id("cell.wifi").click()
        event = events.wait_for("tree.changed", lambda e: "cellWifi" in e["updated"])
        assert event.app == "axserver-demo"
        assert event["revision"] > event["fromRevision"]
    ax.get_by_id("cell.wifi").click()


def test_iteration_yields_events_in_order(ax):
    ax.set_focus(None)
    with ax.events("focus.changed", timeout=5) as events:
        ax.get_by_id("cell.wifi").focus()
        ax.get_by_id("cell.bluetooth").focus()
        seen = []
        for event in events:
            seen.append(event["to"])
            if event["to"] == "cellBluetooth":
                break
    assert seen[-2:] == ["cellWifi", "cellBluetooth"]


def test_iteration_ends_after_the_timeout(ax):
    with ax.events("a11y.announcement", timeout=0.3) as events:
        started = time.monotonic()
        assert list(events) == []
        assert 0.25 <= time.monotonic() - started < 3
        with pytest.raises(axclient.ClientTimeout):
            events.next(timeout=0.1)
        with pytest.raises(TimeoutError):
            events.wait_for("a11y.announcement", timeout=0.1)


def test_unsubscribed_after_the_block(ax):
    with ax.events("tree.changed", timeout=1) as events:
        subscription = events.subscription
    assert events.subscription is None
    with pytest.raises(axclient.RPCError):
        ax.call("events.unsubscribe", {"subscription": subscription})


def test_queue_is_bounded(ax):
    with ax.events("tree.changed", "focus.changed", timeout=2, max_queue=2) as events:
        for identifier in ("cell.wifi", "cell.bluetooth", "cell.display", "cell.about"):
            ax.get_by_id(identifier).focus()
        ax.set_focus(None)
        # Events are read in order before the answer that follows them: at least four focus changes are queued.
        assert events.dropped >= 2
        assert len(events.drain()) == 2
