"""`axquery mcp` driven by the real MCP client from PyPI (the `mcp` package) over stdio, plus protocol conformance
with raw JSON-RPC lines. Sessions run on the demo app and on a second app published with the `ax_provider` fixture.
Specs/mcp.md describes the tools; README "Agents (MCP)" the host configuration.
"""
import base64
import json
import os
import re
import select
import subprocess
import tempfile
import threading
import time

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from axclient import ServerProcess
from axclient.provider import view
from axclient.server import find_axserver


def axquery_path():
    return os.path.join(os.path.dirname(find_axserver()), "axquery")


def run_session(socket_path, script):
    """Runs `script(session)` (async) in an MCP client session with `axquery mcp --socket socket_path`."""
    result = {}

    async def main():
        params = StdioServerParameters(command=axquery_path(), args=["mcp", "--socket", socket_path])
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    result["value"] = await script(session)

    anyio.run(main)
    return result.get("value")


async def tool(session, name, **arguments):
    """Calls a tool; returns (text of the first text item, is_error, the result)."""
    answer = await session.call_tool(name, arguments)
    texts = [item.text for item in answer.content if item.type == "text"]
    return (texts[0] if texts else ""), bool(answer.is_error), answer


def first_ref(text):
    """The ref of the first element line of a find answer."""
    return text.splitlines()[1].split(" ")[0]


def ref_of(snapshot, rest):
    """The ref of the snapshot line `<indent>REF REST` (a session ref: a role letter and a base-36 number)."""
    match = re.search(r"\n *([a-z][0-9a-z]+) %s\n" % re.escape(rest), snapshot)
    assert match, (rest, snapshot)
    return match.group(1)


# -- tools/list ------------------------------------------------------------------------------------------------------

def test_tools_are_listed_small_and_annotated(axserver):
    async def script(session):
        return (await session.list_tools()).tools

    tools = run_session(axserver.socket, script)
    names = [t.name for t in tools]
    assert names == ["snapshot", "find", "click", "type_text", "press_key", "act", "wait_for", "changes", "focus",
                     "audit", "say", "picture"]
    by_name = {t.name: t for t in tools}
    for name in ("snapshot", "find", "wait_for", "changes", "audit", "say", "picture"):
        assert by_name[name].annotations.read_only_hint is True, name
    for name in ("click", "type_text", "press_key", "act"):
        assert by_name[name].annotations.destructive_hint is True, name
    for t in tools:
        assert t.input_schema["additionalProperties"] is False
        assert len(t.description) < 170, t.name
    assert by_name["find"].input_schema["required"] == ["selector"]


# -- a session on the demo -------------------------------------------------------------------------------------------

@pytest.mark.axserver(fresh=True)
def test_demo_session_toggle_type_wait(axserver):
    async def script(session):
        out = {}
        out["snapshot"] = await tool(session, "snapshot")
        out["find"] = await tool(session, "find", selector='switch[label="Bluetooth"]')
        ref = first_ref(out["find"][0])
        out["click"] = await tool(session, "click", ref=ref)
        out["type"] = await tool(session, "type_text", selector="textField", text="Kitchen")
        out["wait"] = await tool(session, "wait_for", selector="#deviceName", state="value", value="Kitchen",
                                 timeoutMs=2000)
        out["act"] = await tool(session, "act", selector="#copies", action="increment")
        out["say"] = await tool(session, "say", ref=ref)
        out["changes"] = await tool(session, "changes", since=0)
        out["key"] = await tool(session, "press_key", key="Tab")
        out["focus"] = await tool(session, "focus", op="get")
        out["query"] = await tool(session, "focus", op="query", direction="next")
        out["explain"] = await tool(session, "focus", op="explain", ref="cellWifi")
        out["no_direction"] = await tool(session, "focus", op="move")
        return out

    out = run_session(axserver.socket, script)
    snapshot, failed, _ = out["snapshot"]
    assert not failed
    assert snapshot.startswith("app axserver-demo revision ")
    # Refs only where an agent can act, nothing said twice (Specs/mcp.md, snapshot; D-MCP-REF-1): a switch's ref
    # starts with s (the role the line leaves out), its on/off value is its [checked] flag; static text and headers
    # carry no ref; the table and its sections (nothing to say) have no line, their rows one level up.
    bluetooth = ref_of(snapshot, "Bluetooth")
    wifi = ref_of(snapshot, "Wi-Fi [checked]")
    assert bluetooth.startswith("s") and wifi.startswith("s") and bluetooth != wifi, snapshot
    assert "cellBluetooth" not in snapshot and "cellWifi" not in snapshot, snapshot
    assert '\n header "Connectivity"\n' in snapshot, snapshot
    assert '\n "Toggles apply immediately."\n' in snapshot, snapshot
    assert "group" not in snapshot and "staticText" not in snapshot, snapshot
    assert "truncated" not in snapshot
    # find names the switch by the snapshot's ref (refs are the session's, stable across revisions).
    found, failed, _ = out["find"]
    assert found.splitlines()[1] == "%s Bluetooth" % bluetooth, found
    # The click's answer carries the change: the switch is on now; no snapshot.
    clicked, failed, _ = out["click"]
    assert not failed, clicked
    assert clicked.startswith("click %s: done, revision " % bluetooth), clicked
    assert "~ %s Bluetooth [checked" % bluetooth in clicked, clicked
    assert len(clicked.encode()) <= 1024
    typed, failed, _ = out["type"]
    assert not failed and "=Kitchen" in typed, typed
    waited, failed, _ = out["wait"]
    assert not failed and waited.startswith("value: yes after"), waited
    acted, failed, _ = out["act"]
    copies = ref_of(snapshot, "Copies =2")
    assert copies.startswith("a") and "~ %s Copies =3" % copies in acted, acted
    said, failed, _ = out["say"]
    assert "VoiceOver: " in said and "Orca: " in said and "Bluetooth" in said, said
    changes, failed, _ = out["changes"]
    # Since revision 0 every element is new: its line with the session's ref and its state now.
    assert "\n+ %s Bluetooth [checked]" % bluetooth in changes and "=Kitchen" in changes, changes
    key, failed, _ = out["key"]
    assert not failed and key.startswith("press_key Tab: done") and "handled by server; focus " in key, key
    focused_ref = key.rsplit("focus ", 1)[1]
    focus, failed, _ = out["focus"]
    assert focus.startswith("focus: %s " % focused_ref) and "[focused" in focus, (focus, key)
    query, failed, _ = out["query"]
    assert query.startswith("focus would move next: %s → " % focused_ref), query
    explain, failed, _ = out["explain"]
    assert explain.startswith("%s: focusable true" % wifi) and "\n ok canBecomeFocused" in explain, explain
    no_direction, failed, _ = out["no_direction"]
    assert failed and "'direction' is required" in no_direction


def test_demo_audit_and_picture(axserver):
    async def script(session):
        found = await tool(session, "find", selector="textField")
        return found, await tool(session, "audit"), await tool(session, "picture")

    found, (audit, audit_failed, _), (caption, picture_failed, picture) = run_session(axserver.socket, script)
    assert not audit_failed
    # The finding names the field by the ref find gave it (the session's refs, D-MCP-REF-1).
    field = first_ref(found[0])
    assert field.startswith("t"), found
    assert "\n%s sufficientElementDescription (error)" % field in audit, audit
    assert not picture_failed, caption
    image = [item for item in picture.content if item.type == "image"][0]
    assert image.mime_type == "image/png"
    assert base64.b64decode(image.data)[:8] == b"\x89PNG\r\n\x1a\n"
    assert "elements drawn" in caption


# -- a session on a second app ---------------------------------------------------------------------------------------

def notes_windows(rows, saved_text, sync_on):
    """The second app: a shopping list with rows (rebuilt with fresh ids), a switch, a field and a status label."""
    row_views = [view(row_id, "UIButton", [0, 40 * index, 300, 40], title=title)
                 for index, (row_id, title) in enumerate(rows)]
    return [view("notesWindow", "UIWindow", [0, 0, 400, 800], isKeyWindow=True, windowTitle="Notes", children=[
        view("list", "UIView", [0, 0, 400, 400], children=row_views),
        view("sync", "UISwitch", [10, 420, 51, 31], isOn=sync_on, accessibilityLabel="Sync"),
        view("note", "UITextField", [10, 460, 300, 34], accessibilityLabel="Note", text=""),
        view("save", "UIButton", [10, 500, 100, 44], title="Save",
             restrictionIdentifiers=["org.example.notes.save"]),
        view("status", "UILabel", [10, 560, 300, 30], text=saved_text),
    ])]


class NotesApp:
    """State and action handling of the second app (a provider in this process)."""

    def __init__(self, make_provider, name="mcp-notes"):
        self.rows = [("row1", "Milk"), ("row2", "Bread")]
        self.next_row = 3
        self.sync_on = False
        self.status = "Idle"
        self.provider = make_provider(name, on_action=self.on_action)
        self.publish()

    def publish(self):
        restrictions = [{"id": "org.example.notes.save", "text": "Save notes"}]
        self.provider.set_hierarchy(notes_windows(self.rows, self.status, self.sync_on), restrictions)

    def on_action(self, request):
        if request.action == "activate" and request.target == "sync":
            self.sync_on = not self.sync_on
            self.provider.set_properties("sync", isOn=self.sync_on)
            return True
        if request.action == "activate" and request.target.startswith("row"):
            # The app rebuilds the tapped row with a fresh id (as list views recycle cells): the old ref leaves.
            index = [r[0] for r in self.rows].index(request.target)
            self.rows[index] = ("row%d" % self.next_row, self.rows[index][1])
            self.next_row += 1
            self.publish()
            return True
        if request.action == "typeText" and request.target == "note":
            self.provider.set_properties("note", text=request.value)
            return True
        if request.action == "activate" and request.target == "save":
            def later():
                time.sleep(0.3)
                self.status = "Saved"
                self.provider.set_properties("status", text="Saved")
            threading.Thread(target=later, daemon=True).start()
            return True
        return False


def test_second_app_session(axserver, ax_provider):
    app = NotesApp(ax_provider)

    async def script(session):
        out = {}
        out["find"] = await tool(session, "find", app=app.provider.app, selector='switch[label="Sync"]')
        out["click"] = await tool(session, "click", app=app.provider.app, ref=first_ref(out["find"][0]))
        out["type"] = await tool(session, "type_text", app=app.provider.app, ref="note", text="eggs")
        out["save"] = await tool(session, "click", app=app.provider.app, selector='button[label="Save"]')
        out["wait"] = await tool(session, "wait_for", app=app.provider.app, selector='staticText[label="Saved"]',
                                 state="attached", timeoutMs=5000)
        out["rows"] = await tool(session, "find", app=app.provider.app, selector="button")
        out["tap_row"] = await tool(session, "click", app=app.provider.app, ref=first_ref(out["rows"][0]))
        out["stale"] = await tool(session, "click", app=app.provider.app, ref=first_ref(out["rows"][0]))
        out["missing"] = await tool(session, "find", app=app.provider.app, selector='button[label="Mlik"]')
        out["snapshot"] = await tool(session, "snapshot", app=app.provider.app, maxNodes=3)
        return out

    out = run_session(axserver.socket, script)
    sync = first_ref(out["find"][0])
    assert re.fullmatch(r"s[0-9a-z]+", sync) and out["find"][0].splitlines()[1] == "%s Sync" % sync, out["find"]
    clicked, failed, _ = out["click"]
    assert not failed and "~ %s Sync [checked]" % sync in clicked, clicked
    typed, failed, _ = out["type"]
    assert not failed and re.search(r"\n~ t[0-9a-z]+ Note =eggs", typed), typed
    assert not out["save"][1], out["save"][0]
    waited, failed, _ = out["wait"]
    assert not failed, waited
    assert re.search(r'\ne[0-9a-z]+ "Saved"', waited), waited
    milk = first_ref(out["rows"][0])
    assert out["rows"][0].splitlines()[1] == "%s Milk" % milk, out["rows"]
    tapped, failed, _ = out["tap_row"]
    assert not failed and "\n- %s" % milk in tapped, tapped
    rebuilt = re.search(r"\n\+ (b[0-9a-z]+) Milk", tapped)
    assert rebuilt and rebuilt.group(1) != milk, tapped
    stale, failed, _ = out["stale"]
    assert failed
    assert "ref '%s' is stale: it left the tree at revision" % milk in stale, stale
    assert "nearest current element: %s Milk" % rebuilt.group(1) in stale, stale
    missing, failed, _ = out["missing"]
    assert not failed and missing.startswith("0 match") and "closest:" in missing and "Milk" in missing, missing
    snapshot, failed, _ = out["snapshot"]
    assert "[truncated: " in snapshot and "snapshot ref=" in snapshot, snapshot

    # A new session never showed row1: the answer names what entered the tree when it left.
    async def fresh(session):
        return await tool(session, "click", app=app.provider.app, ref="row1")

    unseen, failed, _ = run_session(axserver.socket, fresh)
    assert failed and "ref 'row1' is stale" in unseen, unseen
    assert re.search(r"added when it left: b[0-9a-z]+ Milk", unseen), unseen


def test_denied_restrictions_on_both_apps(tmp_path):
    token = tmp_path / "operator-token"
    token.write_text("op-secret-0123456789abcdef\n")
    os.chmod(token, 0o600)
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"version": 1, "apps": {
        "axserver-demo": {"deny": ["org.axserver.demo.wifi"]},
        "mcp-kiosk": {"deny": ["org.example.notes.save"]}}}))
    os.chmod(policy, 0o600)
    with ServerProcess(args=["--policy", str(policy), "--operator-token-file", str(token)]) as server:
        from axclient import Provider

        providers = []

        def make(name, on_action=None):
            provider = Provider(name, server.socket, on_action=on_action)
            providers.append(provider)
            return provider

        try:
            kiosk = NotesApp(make, name="mcp-kiosk")

            async def script(session):
                demo = await tool(session, "click", selector="#\"cell.wifi\"")
                second = await tool(session, "click", app=kiosk.provider.app, ref="save")
                return demo, second

            (demo, demo_failed, _), (second, second_failed, _) = run_session(server.socket, script)
        finally:
            for provider in providers:
                provider.close()
    assert demo_failed and "(-32017 policy denied)" in demo, demo
    assert "guided access denies 'org.axserver.demo.wifi'" in demo
    assert second_failed and "guided access denies 'org.example.notes.save'" in second, second


# -- protocol conformance (raw lines) --------------------------------------------------------------------------------

class RawMCP:
    """`axquery mcp` with raw JSON-RPC lines on its stdin/stdout."""

    def __init__(self, socket_path):
        self.process = subprocess.Popen([axquery_path(), "mcp", "--socket", socket_path], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = []

    def send(self, text):
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def request(self, id, method, params=None):
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(json.dumps(message))

    def read(self, timeout=10.0):
        """The next message (every stdout line must be one JSON-RPC message)."""
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "no message within %s s" % timeout
        line = self.process.stdout.readline()
        assert line, "stdout closed"
        self.lines.append(line)
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
        return message

    def answer(self, id, method, params=None):
        self.request(id, method, params)
        message = self.read()
        assert message.get("id") == id, message
        return message

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def raw(axserver):
    client = RawMCP(axserver.socket)
    yield client
    client.close()


def test_initialize_negotiates_and_declares_tools(raw):
    init = raw.answer(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "raw", "version": "0"}})["result"]
    assert init["protocolVersion"] == "2025-06-18"
    assert init["capabilities"] == {"tools": {"listChanged": False}}
    assert init["serverInfo"]["name"] == "axquery"
    newer = raw.answer(2, "initialize", {"protocolVersion": "2099-01-01"})["result"]
    assert newer["protocolVersion"] == "2025-11-25"
    raw.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
    assert raw.answer(3, "ping")["result"] == {}
    assert len(raw.answer("s", "tools/list")["result"]["tools"]) == 12


def test_malformed_messages_get_typed_errors(raw):
    raw.send("{not json")
    assert raw.read()["error"]["code"] == -32700
    raw.send('{"id": 1, "method": "ping"}')
    assert raw.read()["error"]["code"] == -32600
    raw.send('[{"jsonrpc":"2.0","id":2,"method":"ping"}]')
    assert raw.read()["error"]["code"] == -32600
    raw.send('{"jsonrpc":"2.0","id":null,"method":"ping"}')
    assert raw.read()["error"]["code"] == -32600
    assert raw.answer(3, "resources/list")["error"]["code"] == -32601
    unknown = raw.answer(4, "tools/call", {"name": "browser_click", "arguments": {}})["error"]
    assert unknown["code"] == -32602 and "snapshot" in unknown["data"]["accepted"]
    bad_args = raw.answer(5, "tools/call", {"name": "find", "arguments": [1]})["error"]
    assert bad_args["code"] == -32602
    unknown_arg = raw.answer(6, "tools/call", {"name": "find", "arguments": {"selector": "button", "css": "x"}})
    text = unknown_arg["result"]["content"][0]["text"]
    assert unknown_arg["result"]["isError"] is True
    assert "unknown argument 'css'" in text and "accepted: selector, app" in text
    for budget in (0, 10 ** 12, -1, 1.5, "5"):
        answer = raw.answer(7, "tools/call", {"name": "snapshot", "arguments": {"maxNodes": budget}})["result"]
        if budget == 0:
            assert "[truncated: " in answer["content"][0]["text"]
        else:
            assert answer["isError"] is True and "'maxNodes' must be an integer" in answer["content"][0]["text"]
    huge = raw.answer(8, "tools/call", {"name": "find", "arguments": {"selector": "button" + " > button" * 20000}})
    assert huge["result"]["isError"] is True
    assert raw.answer(9, "ping")["result"] == {}


def test_cancellation_ends_the_wait_without_an_answer(raw):
    raw.request(1, "tools/call", {"name": "wait_for", "arguments": {"selector": "#neverThere", "state": "attached",
                                                                    "timeoutMs": 30000}})
    time.sleep(0.3)
    raw.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                         "params": {"requestId": 1, "reason": "user"}}))
    started = time.monotonic()
    pong = raw.answer(2, "ping")
    assert pong["result"] == {}
    assert time.monotonic() - started < 2
    # Nothing more comes for the cancelled request.
    ready, _, _ = select.select([raw.process.stdout], [], [], 0.5)
    assert not ready


def test_stdin_closed_exits_cleanly_with_only_protocol_on_stdout(raw):
    raw.answer(1, "initialize", {"protocolVersion": "2025-11-25"})
    raw.answer(2, "tools/call", {"name": "find", "arguments": {"selector": "button"}})
    raw.request(3, "tools/call", {"name": "wait_for", "arguments": {"selector": "#neverThere", "state": "attached",
                                                                    "timeoutMs": 30000}})
    raw.process.stdin.close()
    assert raw.process.wait(timeout=5) == 0
    rest = raw.process.stdout.read()
    for line in rest.splitlines():
        json.loads(line)


def test_stdin_closed_with_calls_running_and_queued_exits_cleanly(raw):
    """Issue 30 item 5: a host that goes away with 3,000 waits in flight (1,024 run, the rest queued in axquery mcp)
    ends the process at once with status 0 and only protocol lines on stdout."""
    raw.answer(1, "initialize", {"protocolVersion": "2025-11-25"})
    lines = [json.dumps({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
                         "params": {"name": "wait_for", "arguments": {"selector": "#neverThere", "state": "attached",
                                                                      "timeoutMs": 60000}}}) for i in range(3000)]
    raw.process.stdin.write(("\n".join(lines) + "\n").encode())
    raw.process.stdin.flush()
    time.sleep(0.5)
    started = time.monotonic()
    raw.process.stdin.close()
    assert raw.process.wait(timeout=10) == 0
    assert time.monotonic() - started < 5
    for line in raw.process.stdout.read().splitlines():
        json.loads(line)


def test_server_that_dies_is_a_typed_error_and_the_next_call_reconnects(tmp_path):
    directory = tempfile.mkdtemp(prefix="axmcp-")
    os.chmod(directory, 0o700)
    socket_path = os.path.join(directory, "ax.sock")

    def start():
        process = subprocess.Popen([find_axserver(), "serve", "--demo", "--no-atspi", "--socket", socket_path],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = process.stdout.readline().decode()
        assert line.startswith("READY"), line
        return process

    server = start()
    client = RawMCP(socket_path)
    try:
        first = client.answer(1, "tools/call", {"name": "find", "arguments": {"selector": "switch"}})["result"]
        assert not first.get("isError")
        server.terminate()
        server.wait(timeout=10)
        gone = client.answer(2, "tools/call", {"name": "find", "arguments": {"selector": "switch"}})["result"]
        assert gone["isError"] is True
        # Issue 38 item 5: nothing answers at the address any more: "no server", not "app not responding".
        assert "(-32024 no server)" in gone["content"][0]["text"], gone
        server = start()
        again = client.answer(3, "tools/call", {"name": "find", "arguments": {"selector": "switch"}})["result"]
        assert not again.get("isError"), again
    finally:
        client.close()
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)


@pytest.mark.axserver(tcp=True)
def test_tcp_with_token_file(axserver):
    token_file = os.path.join(axserver.dir, "token")
    process = subprocess.run(
        [axquery_path(), "mcp", "--tcp", "127.0.0.1:%d" % axserver.tcp_port, "--token-file", token_file],
        input=b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find",'
              b'"arguments":{"selector":"switch[label=\\"Wi-Fi\\"]"}}}\n', capture_output=True, timeout=20)
    assert process.returncode == 0
    answer = json.loads(process.stdout.splitlines()[0])
    assert answer["result"]["content"][0]["text"].splitlines()[1] == "s1 Wi-Fi [checked]", answer
    wrong = tempfile.NamedTemporaryFile("w", delete=False)
    wrong.write("not-the-token\n")
    wrong.close()
    os.chmod(wrong.name, 0o600)
    refused = subprocess.run(
        [axquery_path(), "mcp", "--tcp", "127.0.0.1:%d" % axserver.tcp_port, "--token-file", wrong.name],
        input=b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find","arguments":{"selector":"switch"}}}\n',
        capture_output=True, timeout=20)
    os.unlink(wrong.name)
    text = json.loads(refused.stdout.splitlines()[0])["result"]["content"][0]["text"]
    assert "-32019" in text, text
