"""expect(locator).to_be_focused() (server wait.for, state focused) wakes when focus moves without a new revision:
an engine-focus move by another client, in the demo and in a second app (D-WAIT-FOCUS-1). Before the fix the wait
slept until its timeout, while element.get already showed the element focused."""
import threading
import time

import pytest

import axclient
from axclient import expect, view

pytestmark = pytest.mark.axserver(demo=True, fresh=True)


def second_app_windows():
    return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Focus App", children=[
        view("one", "UIButton", [16, 100, 120, 44], title="One"),
        view("two", "UIButton", [16, 160, 120, 44], title="Two"),
    ])]


def focused_after_move(socket, app, target_id, locator):
    """Asserts with to_be_focused() while another client moves engine focus to ``target_id`` 0.3 s later; returns
    how long the assertion took."""
    moved = []

    def move_later():
        with axclient.Client(socket, app=app) as other:
            time.sleep(0.3)
            moved.append(other.call("focus.update", {"target": {"id": target_id}, "app": app}))

    mover = threading.Thread(target=move_later)
    started = time.monotonic()
    mover.start()
    try:
        expect(locator, timeout=8).to_be_focused()
        return time.monotonic() - started
    finally:
        mover.join(10)
        assert moved and moved[0]["to"] == target_id, moved


def test_to_be_focused_wakes_on_an_engine_focus_move_in_a_second_app(axserver, ax_provider):
    ax_provider("py-focus", second_app_windows(), on_action=lambda request: False)
    with axclient.Client(axserver.socket, app="py-focus") as ax:
        two = ax.get_by_role("button", name="Two")
        assert not two.is_focused()
        elapsed = focused_after_move(axserver.socket, "py-focus", "two", two)
        assert 0.25 < elapsed < 4, "to_be_focused slept through the focus move (%.2f s)" % elapsed
        assert two.is_focused()


def test_to_be_focused_wakes_on_an_engine_focus_move_in_the_demo(axserver):
    with axclient.Client(axserver.socket, app="axserver-demo") as ax:
        focused = (ax.call("focus.status").get("engine") or {}).get("id")
        for item in ax.call("focus.items")["items"]:
            answer = ax.call("element.get", {"target": {"id": item}})
            element = answer.get("element", answer)
            if item == focused or not element.get("label"):
                continue
            locator = ax.get_by_role(element["role"], name=element["label"], exact=True)
            if locator.count() == 1:
                break
        else:
            pytest.fail("no focus item of the demo has a unique role and name")
        assert not locator.is_focused()
        elapsed = focused_after_move(axserver.socket, "axserver-demo", item, locator)
        assert 0.25 < elapsed < 4, "to_be_focused slept through the focus move (%.2f s)" % elapsed
