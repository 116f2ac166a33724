"""A provider app written in Python (axclient.Provider), driven by a Python test client."""
import threading
import time

import pytest

import axclient
from axclient import expect, view

pytestmark = pytest.mark.axserver(demo=False, fresh=True)

QUOTED_TITLE = 'Say "hi" \\ now'


def windows():
    return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle="Py App", children=[
        view("counter", "UILabel", [16, 100, 300, 30], text="Count 0", accessibilityIdentifier="py.counter"),
        view("plus", "UIButton", [16, 150, 100, 44], title="Add", accessibilityIdentifier="py.plus"),
        view("later", "UIButton", [16, 200, 100, 44], title="Later", isEnabled=False),
        view("dark", "UISwitch", [16, 260, 51, 31], isOn=False, accessibilityLabel="Dark mode"),
        view("quoted", "UIButton", [16, 310, 300, 44], title=QUOTED_TITLE),
    ])]


class CounterApp:
    """The app's logic: the state lives here; every change is published before the action is answered."""

    def __init__(self, ax_provider):
        self.count = 0
        self.dark = False
        self.provider = ax_provider("py-counter", windows(), on_action=self.perform)

    def perform(self, request):
        if request.action == "activate" and request.target == "plus":
            self.count += 1
            self.provider.set_properties("counter", text="Count %d" % self.count)
            return True
        if request.action == "activate" and request.target == "dark":
            self.dark = not self.dark
            self.provider.set_properties("dark", isOn=self.dark)
            return True
        if request.action == "activate" and request.target == "later":
            return True
        return False


def test_app_published_and_driven(ax, ax_provider):
    app = CounterApp(ax_provider)
    assert app.provider.app == "py-counter"
    assert [entry["name"] for entry in ax.apps()] == ["py-counter"]
    counter = ax.get_by_id("py.counter")
    expect(counter).to_have_label("Count 0")
    result = ax.get_by_role("button", name="Add").click()
    assert result["performed"] is True
    # The provider updated its hierarchy before answering: the new label is there when click() returns.
    assert counter.label() == "Count 1"
    ax.get_by_id("py.plus").click()
    expect(counter).to_have_label("Count 2")
    assert [(r.action, r.target) for r in app.provider.actions] == [("activate", "plus"), ("activate", "plus")]

    dark = ax.get_by_role("switch", name="Dark mode")
    expect(dark).to_have_value("off")
    dark.click()
    expect(dark).to_have_value("on")
    assert app.dark is True


def test_unhandled_action_reports_not_performed(ax, ax_provider):
    CounterApp(ax_provider)
    result = ax.get_by_role("button", name=QUOTED_TITLE, exact=True).click()
    assert result["performed"] is False


def test_quoting_survives_the_selector(ax, ax_provider):
    CounterApp(ax_provider)
    assert ax.get_by_label(QUOTED_TITLE).count() == 1
    assert ax.get_by_role("button", name='"hi" \\', exact=False).count() == 1


def test_click_waits_until_enabled(ax, ax_provider):
    app = CounterApp(ax_provider)
    later = ax.get_by_role("button", name="Later")
    with pytest.raises(axclient.NotInteractable) as caught:
        ax.call("action.activate", {"target": later.selector})
    assert caught.value.reason == "disabled"

    def enable_later():
        time.sleep(0.3)
        app.provider.set_properties("later", isEnabled=True)

    enabler = threading.Thread(target=enable_later)
    started = time.monotonic()
    enabler.start()
    try:
        assert later.click(timeout=10)["performed"] is True
        elapsed = time.monotonic() - started
    finally:
        enabler.join(10)
    assert 0.2 < elapsed < 10
    assert app.provider.actions[-1].target == "later"


def test_count_assertion_is_woken_by_the_change_not_by_polling(ax, ax_provider, monkeypatch):
    app = CounterApp(ax_provider)                 # no demo here: nothing else changes the tree
    from axclient.connection import Connection
    calls = []
    original = Connection.call

    def counting(self, method, *args, **kwargs):
        calls.append(method)
        return original(self, method, *args, **kwargs)

    monkeypatch.setattr(Connection, "call", counting)

    def insert_later():
        time.sleep(1.0)
        app.provider.insert("win", view("extra", "UIButton", [16, 400, 100, 44], title="Extra"))

    inserter = threading.Thread(target=insert_later)
    inserter.start()
    try:
        assert ax.get_by_role("button").count() == 3
        calls.clear()
        expect(ax.get_by_role("button"), timeout=10).to_have_count(4)
    finally:
        inserter.join(10)
    # one count before the change, one after it (plus the one-time subscription): a poller would count dozens
    assert calls.count("query.count") == 2, calls
    assert calls.count("events.subscribe") <= 1


def test_disabled_click_times_out_naming_the_state(ax, ax_provider):
    CounterApp(ax_provider)
    with pytest.raises(axclient.Timeout, match="to be enabled"):
        ax.get_by_role("button", name="Later").click(timeout=0.3)


def test_stale_element(ax, ax_provider):
    app = CounterApp(ax_provider)
    element = ax.get_by_id("py.plus").element()
    app.provider.remove("plus")
    with pytest.raises(axclient.StaleElement) as caught:
        ax.element(element)
    assert caught.value.code == -32012
    expect(ax.get_by_id("py.plus")).to_be_detached()


def test_announcement_and_app_removed_events(ax, ax_provider):
    app = CounterApp(ax_provider)
    with ax.events("a11y.announcement", timeout=5) as events:
        app.provider.announce("Saved", priority="high")
        event = events.wait_for("a11y.announcement")
        assert event["argument"] == "Saved"
        assert event.app == "py-counter"
    with ax.events("app.removed", app="py-counter", timeout=5) as events:
        app.provider.close()
        assert events.wait_for("app.removed").app == "py-counter"
    assert ax.apps() == []


def test_provider_client_acts_on_its_own_app(ax_provider):
    app = CounterApp(ax_provider)
    own = app.provider.client
    own.get_by_id("py.plus").click()
    expect(own.get_by_id("py.counter")).to_have_label("Count 1")


def test_handler_exception_becomes_an_error_answer(ax, ax_provider):
    def broken(request):
        raise RuntimeError("the app crashed while handling %s" % request.action)

    ax_provider("py-broken", windows(), on_action=broken)
    with pytest.raises(axclient.RPCError):
        ax.get_by_id("py.plus").click(timeout=2)


@pytest.mark.axserver(demo=False, fresh=True, args=["--action-timeout-ms", "300"])
def test_app_not_responding(ax, ax_provider):
    release = threading.Event()

    def slow(request):
        release.wait(5)
        return True

    ax_provider("py-slow", windows(), on_action=slow)
    try:
        with pytest.raises(axclient.AppNotResponding) as caught:
            ax.get_by_id("py.plus").click(timeout=2)
        assert caught.value.code == -32020
        assert caught.value.reason == "timeout"
    finally:
        release.set()


def test_hierarchy_errors_are_typed(ax_provider):
    provider = ax_provider("py-bad", windows())
    with pytest.raises(axclient.InvalidArgument) as caught:
        provider.set_properties("nope", isHidden=True)
    assert caught.value.reason == "unknownId"
    revision = provider.revision
    provider.set_properties("counter", text="x")
    with pytest.raises(axclient.ContentModified):
        provider.update([{"op": "set", "id": "counter", "properties": {"text": "y"}}], base_revision=revision)
