"""The client against a misbehaving peer (a fake server on a private socket): it never hangs or crashes, and
every pending call ends with a typed error."""
import json
import os
import socket
import threading
import time

import pytest

import axclient

INITIALIZE_RESULT = {"protocolVersion": "1.0", "serverInfo": {"name": "fake", "version": "0"},
                     "capabilities": {"methods": ["ping"], "treeFormats": [], "events": []}}


class FakeServer:
    """Accepts one connection, answers initialize, then runs ``script(sock, request)`` for the next request."""

    def __init__(self, directory, script):
        self.path = os.path.join(str(directory), "fake.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.listener.settimeout(10)
        self.script = script
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        connection.settimeout(10)
        reader = connection.makefile("rb")
        try:
            first = json.loads(reader.readline())
            send(connection, {"jsonrpc": "2.0", "id": first["id"], "result": INITIALIZE_RESULT})
            request = json.loads(reader.readline())
            self.script(connection, request)
            time.sleep(0.5)
        except (OSError, ValueError):
            pass
        finally:
            reader.close()
            connection.close()

    def stop(self):
        self.listener.close()
        self.thread.join(10)


def send(connection, message):
    connection.sendall(json.dumps(message).encode() + b"\n")


@pytest.fixture
def fake(tmp_path):
    servers = []

    def start(script):
        server = FakeServer(tmp_path, script)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def test_junk_between_answers_is_ignored(fake):
    def script(connection, request):
        for junk in (b"42\n", b"[1, \"x\", null]\n", b"\n", b"  \n",
                     json.dumps({"jsonrpc": "2.0", "id": 999, "result": "not yours"}).encode() + b"\n",
                     json.dumps({"jsonrpc": "2.0", "id": True, "result": "bool id"}).encode() + b"\n",
                     json.dumps({"jsonrpc": "2.0", "method": "tree.changed", "params": [1, 2]}).encode() + b"\n",
                     json.dumps({"jsonrpc": "2.0", "method": "x", "params": {"subscription": [1]}}).encode() + b"\n"):
            connection.sendall(junk)
        send(connection, {"jsonrpc": "2.0", "id": request["id"], "result": "pong"})

    server = fake(script)
    with axclient.Client(server.path, call_timeout=5) as client:
        assert client.ping() == "pong"


def test_invalid_json_fails_the_pending_call(fake):
    server = fake(lambda connection, request: connection.sendall(b"{not json\n"))
    with axclient.Client(server.path, call_timeout=5) as client:
        started = time.monotonic()
        with pytest.raises(axclient.AXConnectionError, match="invalid JSON"):
            client.ping()
        assert time.monotonic() - started < 3
        assert client.closed


def test_oversized_answer_closes_the_connection(fake):
    server = fake(lambda connection, request: connection.sendall(b'{"pad": "' + b"x" * 5000 + b'"}\n'))
    with axclient.Client(server.path, call_timeout=5, max_message_bytes=1024) as client:
        with pytest.raises(axclient.AXConnectionError, match="exceeded 1024 bytes"):
            client.ping()


def test_server_closing_mid_call(fake):
    server = fake(lambda connection, request: connection.shutdown(socket.SHUT_RDWR))
    with axclient.Client(server.path, call_timeout=5) as client:
        with pytest.raises(axclient.AXConnectionError, match="closed"):
            client.ping()


def test_silent_server_gives_a_client_timeout(fake):
    server = fake(lambda connection, request: time.sleep(2))
    with axclient.Client(server.path, call_timeout=5) as client:
        started = time.monotonic()
        with pytest.raises(axclient.ClientTimeout):
            client.call("ping", timeout=0.3)
        assert time.monotonic() - started < 2


def test_malformed_error_answer_is_still_typed(fake):
    server = fake(lambda connection, request: send(connection, {"jsonrpc": "2.0", "id": request["id"],
                                                                "error": {"code": "bad", "data": 7}}))
    with axclient.Client(server.path, call_timeout=5) as client:
        with pytest.raises(axclient.RPCError) as caught:
            client.ping()
        assert caught.value.code is None and caught.value.data == {}
