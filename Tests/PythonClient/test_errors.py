"""Every server error arrives as the exception class of its code, with the server's code, message and data."""
import json
import os

import pytest

import axclient
from axclient.errors import ERROR_CLASSES, error_from_wire

WIFI = '#"cell.wifi"'


def test_no_such_element_carries_the_near_miss(ax):
    with pytest.raises(axclient.NoSuchElement) as caught:
        ax.query_one('switch[label="Wifi"]')
    error = caught.value
    assert error.code == -32010
    assert error.kind == "no such element"
    assert error.data["selector"] == 'switch[label="Wifi"]'
    assert 'label "Wi-Fi"' in error.explain_summary
    assert 'label "Wi-Fi"' in str(error)
    assert error.method == "query.one"


def test_ambiguous_match_lists_candidates(ax):
    with pytest.raises(axclient.AmbiguousMatch) as caught:
        ax.query_one("switch")
    assert caught.value.code == -32011
    assert sorted(candidate["label"] for candidate in caught.value.candidates) == ["Bluetooth", "Wi-Fi"]


def test_invalid_selector_has_the_position(ax):
    with pytest.raises(axclient.InvalidSelector) as caught:
        ax.locator("switch[[[").count()
    assert caught.value.code == -32015
    assert caught.value.data["position"] == 7


def test_server_timeout_is_a_timeout_error_with_the_last_state(ax):
    with pytest.raises(TimeoutError) as caught:
        ax.wait_for(WIFI, "value", value="no such value", timeout=0.2)
    error = caught.value
    assert isinstance(error, axclient.Timeout)
    assert error.code == -32016
    assert error.last_state["label"] == "Wi-Fi"


def test_method_not_found_and_invalid_argument(ax):
    with pytest.raises(axclient.MethodNotFound) as caught:
        ax.call("no.such.method")
    assert caught.value.code == -32601
    with pytest.raises(axclient.InvalidArgument) as caught:
        ax.call("wait.for", {"state": "visible"})
    assert caught.value.code == -32602
    assert caught.value.data["param"] == "target"
    with pytest.raises(axclient.InvalidArgument):
        ax.wait_for(WIFI, "sideways")


def test_action_not_supported_lists_what_is(ax):
    with pytest.raises(axclient.ActionNotSupported) as caught:
        ax.get_by_id("cell.wifi").increment()
    assert caught.value.code == -32014
    assert caught.value.data["supported"] == ["activate"]


def test_forbidden_for_provider_methods(ax):
    with pytest.raises(axclient.Forbidden) as caught:
        ax.call("hierarchy.set", {"windows": []})
    assert caught.value.code == -32018
    assert caught.value.data["needs"] == "provider"


def test_message_too_large(axserver):
    with axclient.Client(axserver.socket) as client:
        with pytest.raises(axclient.MessageTooLarge) as caught:
            client.call("ping", {"padding": "x" * (17 * 1024 * 1024)})
        assert caught.value.code == -32021
        assert client.closed
    with axclient.Client(axserver.socket) as other:
        assert other.ping() == "pong"


def test_policy_denied_and_operator_roles(tmp_path):
    token_file = tmp_path / "operator-token"
    token_file.write_text("op-secret-0123456789abcdef\n")
    os.chmod(token_file, 0o600)
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"version": 1, "apps": {"axserver-demo": {"deny": ["org.axserver.demo.wifi"]}}}))
    os.chmod(policy, 0o600)
    with axclient.ServerProcess(args=["--policy", str(policy), "--operator-token-file", str(token_file)]) as server:
        with server.client(timeout=1.0) as ax:
            with pytest.raises(axclient.PolicyDenied) as caught:
                ax.get_by_id("cell.wifi").click()
            assert caught.value.code == -32017
            assert caught.value.data["restriction"] == "org.axserver.demo.wifi"
            assert ax.check_policy(WIFI)["allowed"] is False
            with pytest.raises(axclient.Forbidden) as forbidden:
                ax.set_policy("org.axserver.demo.wifi", "allow")
            assert forbidden.value.data["needs"] == "operator"
        with pytest.raises(axclient.Unauthorized):
            server.client(role="operator", operator_token="wrong")
        with server.client(role="operator", operator_token="op-secret-0123456789abcdef") as operator:
            operator.set_policy("org.axserver.demo.wifi", "allow")
        with server.client() as ax:
            assert ax.check_policy(WIFI)["allowed"] is True
            ax.get_by_id("cell.wifi").click()


def test_error_mapping_from_the_wire():
    for code, cls in ERROR_CLASSES.items():
        error = error_from_wire({"code": code, "message": "m", "data": {"kind": "k"}})
        assert type(error) is cls and error.code == code and error.data == {"kind": "k"}
        assert isinstance(error, axclient.RPCError)
    unknown = error_from_wire({"code": -31999, "message": "odd"})
    assert type(unknown) is axclient.RPCError and unknown.code == -31999
    hostile = [None, "text", {"code": "x"}, {"code": True, "message": 5}, {"code": -32010, "data": [1]}]
    for raw in hostile:
        error = error_from_wire(raw)
        assert isinstance(error, axclient.RPCError)
        assert isinstance(error.data, dict) and isinstance(error.message, str)
