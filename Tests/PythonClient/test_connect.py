"""Connecting: socket path, default address, TCP with a token, refused connections."""
import os
import time

import pytest

import axclient
from axclient.connection import default_socket_candidates, resolve_address, runtime_directory


def test_connects_initializes_and_pings(ax, axserver):
    assert ax.address == axserver.socket
    assert ax.ping() == "pong"
    assert ax.server["protocolVersion"] == "1.0"
    assert "query.one" in ax.server_methods
    assert "axserver-demo" in [app["name"] for app in ax.apps()]


def test_default_address_honours_axserver_socket(axserver, monkeypatch):
    monkeypatch.setenv("AXSERVER_SOCKET", axserver.socket)
    with axclient.Client() as client:
        assert client.address == axserver.socket
        assert client.ping() == "pong"


def test_default_socket_candidates(monkeypatch):
    uid = os.getuid()
    monkeypatch.delenv("AXSERVER_SOCKET", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    assert default_socket_candidates()[0] == "/tmp/axserver-%d/axserver.sock" % uid
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/%d" % uid)
    assert default_socket_candidates()[:2] == ["/run/user/%d/axserver.sock" % uid,
                                               "/tmp/axserver-%d/axserver.sock" % uid]


def test_runtime_directory_is_derived_as_a_desktop_session_does(monkeypatch, tmp_path):
    """Issue 38 item 5: an MCP host passes only HOME, LOGNAME, PATH, SHELL, TERM, USER; /run/user/$UID (ours and
    private) is still found; an open or missing one is not."""
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    assert runtime_directory(str(tmp_path)) is None
    mine = tmp_path / str(os.geteuid())
    mine.mkdir(mode=0o700)
    assert runtime_directory(str(tmp_path)) == str(mine)
    mine.chmod(0o755)
    assert runtime_directory(str(tmp_path)) is None
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/elsewhere")
    assert runtime_directory(str(tmp_path)) == "/elsewhere"


def test_no_server_is_its_own_error(tmp_path):
    """Issue 38 item 5: nothing listening is −32024 "no server" (a ConnectionError still), never −32020."""
    missing = str(tmp_path / "nobody.sock")
    with pytest.raises(axclient.NoServer) as caught:
        axclient.Client(missing)
    assert caught.value.code == -32024
    assert isinstance(caught.value, axclient.AXConnectionError)
    assert missing in str(caught.value) and "no server" in str(caught.value)


def test_address_forms():
    assert resolve_address("/x/ax.sock") == ("unix", "/x/ax.sock")
    assert resolve_address("unix:/x/ax.sock") == ("unix", "/x/ax.sock")
    assert resolve_address("tcp:127.0.0.1:7777") == ("tcp", ("127.0.0.1", 7777))
    assert resolve_address("tcp:[::1]:7777") == ("tcp", ("::1", 7777))
    for bad in ("tcp:127.0.0.1", "tcp:host:0", "tcp:host:99999", "tcp::80"):
        with pytest.raises(ValueError):
            resolve_address(bad)


def test_refused_connection_names_the_path(tmp_path):
    missing = str(tmp_path / "nobody.sock")
    started = time.monotonic()
    with pytest.raises(axclient.AXConnectionError) as caught:
        axclient.Client(missing)
    assert missing in str(caught.value)
    # the hint names a command that serves an app (`axserver serve` alone serves nothing to look at)
    assert "'axserver --demo'" in str(caught.value) and "axserver serve" not in str(caught.value)
    assert isinstance(caught.value, ConnectionError)
    assert time.monotonic() - started < 5


@pytest.mark.axserver(tcp=True, fresh=True)
def test_tcp_with_token(axserver, monkeypatch):
    monkeypatch.delenv("AXSERVER_TOKEN", raising=False)
    address = axserver.tcp_address
    assert address is not None
    with axclient.Client(address, token=axserver.token) as client:
        assert client.ping() == "pong"
        assert client.get_by_id("cell.wifi").role() == "switch"
        # a server-side wait goes over a second connection, which must authenticate with the same token
        assert client.wait_for('#"cell.wifi"', "attached", timeout=1)["satisfied"] is True
    with pytest.raises(axclient.Unauthorized) as caught:
        axclient.Client(address, token="wrong-token")
    assert caught.value.code == -32019
    with pytest.raises(axclient.AXConnectionError):
        axclient.Client(address, token=None)


def test_closed_client_fails_fast(axserver):
    client = axclient.Client(axserver.socket)
    client.close()
    assert client.closed
    with pytest.raises(axclient.AXConnectionError):
        client.ping()
