"""A Python provider whose connection dies reconnects and gets its app id back (reclaim token, D-REL-8)."""
import socket
import time

import pytest

from axclient import Provider, view

pytestmark = pytest.mark.axserver(demo=False, fresh=True)


def windows(title):
    return [view("win", "UIWindow", [0, 0, 390, 844], isKeyWindow=True, windowTitle=title, children=[
        view("ok", "UIButton", [16, 100, 100, 44], title="OK", accessibilityIdentifier="rc.ok"),
    ])]


def app_names(ax):
    return sorted(entry["id"] for entry in ax.apps())


def wait_until(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_killed_connection_reconnects_with_the_same_app_name(ax, ax_provider):
    bystander = ax_provider("py-bystander", windows("Bystander"))
    provider = ax_provider("py-reclaim", windows("Reclaim"))
    assert provider.app == "py-reclaim"
    first_token = provider.reclaim_token
    assert isinstance(first_token, str) and first_token
    # Kill the connection under the provider (as a dropped socket would), not through Provider.close().
    provider.client._conn._sock.shutdown(socket.SHUT_RDWR)
    assert wait_until(lambda: provider.client.closed)
    assert provider.reconnect() == "py-reclaim"
    assert provider.reclaim_token and provider.reclaim_token != first_token
    provider.set_hierarchy(windows("Reclaim again"))
    assert app_names(ax) == ["py-bystander", "py-reclaim"]
    ax.app = "py-reclaim"
    assert ax.get_by_id("rc.ok").label() == "OK"
    assert bystander.app == "py-bystander" and not bystander.client.closed


def test_reconnect_before_the_server_saw_the_old_connection_close(ax, ax_provider, axserver):
    """The old connection is still open at the server (a hung process): the token takes the id back and the
    server closes the stale connection; without the token the new registration is suffixed."""
    ax_provider("py-bystander", windows("Bystander"))
    stale = ax_provider("py-hung", windows("Hung"))
    newcomer = Provider("py-hung", axserver.socket)  # no token: the id is taken
    try:
        assert newcomer.app == "py-hung-2"
    finally:
        newcomer.close()
    revived = Provider(stale.app, axserver.socket, reclaim_token=stale.reclaim_token)
    try:
        assert revived.app == "py-hung"
        assert wait_until(lambda: stale.client.closed), "the stale connection was not closed"
        revived.set_hierarchy(windows("Revived"))
        assert wait_until(lambda: app_names(ax) == ["py-bystander", "py-hung"]), app_names(ax)
        # A wrong token takes nothing: the newcomer is suffixed again.
        with Provider("py-hung", axserver.socket, reclaim_token="0" * 64) as intruder:
            assert intruder.app == "py-hung-2"
        assert revived.app == "py-hung" and not revived.client.closed
    finally:
        revived.close()
