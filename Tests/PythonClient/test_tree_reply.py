"""`Client.tree()` decodes what its caller reads (issue 35 item 3, D-PYCLIENT-TREE-1): the answer's small fields at
once, the nested `windows` on first read; the result is the same dict the whole answer decodes to, on the real
server (the demo) and against a fake server sending hostile answers."""
import copy
import json
import pickle

import pytest

import axclient
from axclient.tree_reply import TreeReply
from test_hostile_server import FakeServer


def test_windows_decoded_on_first_read_and_equal_to_the_whole_answer(ax):
    tree = ax.tree()
    assert isinstance(tree, TreeReply)
    assert tree["count"] > 3 and tree["app"] and tree["revision"] >= 1 and "windows" in tree and len(tree) >= 5
    assert tree._windows_json is not None, "reading the small fields decoded the elements"
    whole = ax.call("tree.get", {"format": "json"})
    assert tree["windows"] == whole["windows"]
    assert tree._windows_json is None
    assert tree == whole and whole == tree and not (tree != whole)
    for read in (lambda t: json.dumps(t, sort_keys=True), lambda t: dict(t), lambda t: {**t}, lambda t: list(t.items()),
                 lambda t: list(t.values()), lambda t: t.get("windows"), lambda t: copy.deepcopy(t),
                 lambda t: pickle.loads(pickle.dumps(t)), lambda t: repr(t), lambda t: t.copy()):
        assert read(ax.tree()) == read(whole)
    assert ax.tree() == ax.tree()
    lean = ax.tree(fields=["role", "label", "children"])
    assert lean == ax.call("tree.get", {"format": "json", "fields": ["role", "label", "children"]})


def answer(request_id, windows, text=None):
    body = ('{"jsonrpc":"2.0","id":%d,"result":{"app":"x","revision":3,"format":"json","windows":%s,'
            '"count":%d,"truncated":[]}}' % (request_id, text if text is not None else json.dumps(windows,
                                                                                                separators=(",", ":")),
                                             len(windows)))
    return body.encode() + b"\n"


@pytest.fixture
def fake(tmp_path):
    servers = []

    def start(script):
        servers.append(FakeServer(tmp_path, script))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def test_keys_inside_labels_do_not_split_the_answer(fake):
    tricky = [{"id": "w", "role": "window", "label": 'a "windows":[ b ],"count":9 c \\', "children": [
        {"id": 'e],"count":1', "role": "button", "label": '\\"windows\\":['}]}]
    server = fake(lambda connection, request: connection.sendall(answer(request["id"], tricky)))
    with axclient.Client(server.path, call_timeout=5) as client:
        tree = client.tree()
        assert tree["count"] == 1 and tree["revision"] == 3
        assert tree["windows"] == tricky


def test_invalid_elements_are_a_typed_error_when_read(fake):
    server = fake(lambda connection, request: connection.sendall(answer(request["id"], [{}], text='[{"id":]')))
    with axclient.Client(server.path, call_timeout=5) as client:
        tree = client.tree()
        assert tree["count"] == 1
        with pytest.raises(axclient.AXConnectionError, match="invalid JSON in windows"):
            tree["windows"]


def test_an_answer_of_another_shape_is_decoded_whole(fake):
    spaced = {"jsonrpc": "2.0", "result": {"app": "x", "windows": [{"id": "w"}], "count": 1}}

    def script(connection, request):
        connection.sendall(json.dumps(dict(spaced, id=request["id"])).encode() + b"\n")

    server = fake(script)
    with axclient.Client(server.path, call_timeout=5) as client:
        tree = client.tree()
        assert type(tree) is dict and tree == spaced["result"]


def test_an_error_answer_still_raises(fake):
    def script(connection, request):
        connection.sendall(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": {
            "code": -32602, "message": "bad fields", "data": {"accepted": ["role"]}}}).encode() + b"\n")

    server = fake(script)
    with axclient.Client(server.path, call_timeout=5) as client:
        with pytest.raises(axclient.InvalidParams):
            client.tree(fields=["colour"])
