"""A real AT-SPI client for the integration tests, kept in its own /usr/bin/python3 process.

libatspi reads DBUS_SESSION_BUS_ADDRESS / AT_SPI_BUS_ADDRESS once, when it initializes, so each test class
starts one `AtspiClient(env)` (a subprocess with the private stack's environment) and sends it commands as
JSON lines. The subprocess uses pyatspi exactly like a screen reader or dogtail script would (no GLib main
loop: libatspi caches nothing, every read is a D-Bus round trip), plus raw Gio calls for the wire-level checks
(wrong signatures, unknown objects) that pyatspi cannot express.

Test side:   c = AtspiClient(stack.env); c.call("apps"); c.call("dump", app="axserver-demo"); c.close()
Client side: /usr/bin/python3 atspi_helpers.py serve          (reads commands on stdin)

Nodes are addressed by a `where` predicate: {"name": ..., "role": <role name>, "nth": k} (role names are
libatspi's, e.g. "push button", "toggle button"; "role_num" matches the raw number), searched in document
order from the application root on every command, so indexes never go stale after the tree changes.
"""
import json
import os
import subprocess
import sys
import time

PY = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))


class ClientError(AssertionError):
    pass


class AtspiClient:
    """Test-side handle on the pyatspi subprocess."""

    def __init__(self, env, timeout=60):
        self.timeout = timeout
        self.p = subprocess.Popen([PY, os.path.abspath(__file__), "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(env), text=True,
                                  bufsize=1)

    def call(self, cmd, **args):
        """Runs one command; returns its result or raises ClientError with the client-side error text."""
        if self.p.poll() is not None:
            raise ClientError("pyatspi client exited (%s): %s" % (self.p.returncode, self.p.stderr.read()))
        self.p.stdin.write(json.dumps(dict(args, cmd=cmd)) + "\n")
        self.p.stdin.flush()
        import select
        r, _, _ = select.select([self.p.stdout], [], [], self.timeout)
        if not r:
            raise ClientError("pyatspi client: no answer to %r within %ss" % (cmd, self.timeout))
        line = self.p.stdout.readline()
        if not line:
            raise ClientError("pyatspi client died during %r: %s" % (cmd, self.p.stderr.read()))
        m = json.loads(line)
        if "error" in m:
            raise ClientError("%s %s -> %s" % (cmd, json.dumps(args), m["error"]))
        return m["ok"]

    def close(self):
        if self.p.poll() is None:
            try:
                self.p.stdin.close()
                self.p.wait(10)
            except Exception:
                self.p.kill()
                self.p.wait(5)
        for f in (self.p.stdout, self.p.stderr):
            try:
                f.close()
            except Exception:
                pass


def find(nodes, name=None, role=None, nth=0, **more):
    """The nth node of a dump matching name/role (and any other exact field); None if there is none."""
    hits = [n for n in nodes if (name is None or n["name"] == name) and (role is None or n["role"] == role)
            and all(n.get(k) == v for k, v in more.items())]
    return hits[nth] if len(hits) > nth else None


def wait_until(fn, timeout=5.0, interval=0.05):
    """Polls fn() until it returns a truthy value; returns the last value."""
    deadline = time.time() + timeout
    v = fn()
    while not v and time.time() < deadline:
        time.sleep(interval)
        v = fn()
    return v


# ---------------------------------------------------------------------------------------------------------
# Client side (runs in /usr/bin/python3 with the stack env).

def _serve():
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Atspi, Gio, GLib
    import pyatspi

    TIMEOUT_MS = 20000
    REG = "org.a11y.atspi.Registry"
    ROOT = "/org/a11y/atspi/accessible/root"

    def a11y_address():
        addr = os.environ.get("AT_SPI_BUS_ADDRESS")
        if addr:
            return addr
        sess = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        return sess.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                              GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, TIMEOUT_MS, None).unpack()[0]

    conn = Gio.DBusConnection.new_for_address_sync(
        a11y_address(), Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)

    def desktop_apps():
        d = pyatspi.Registry.getDesktop(0)
        return [d.getChildAtIndex(i) for i in range(d.childCount)]

    def app_named(name, wait=10.0):
        deadline = time.time() + wait
        while True:
            for a in desktop_apps():
                try:
                    if a is not None and a.name == name:
                        return a
                except Exception:
                    pass
            if time.time() > deadline:
                raise LookupError("application %r not on the AT-SPI desktop (apps: %r)" %
                                  (name, [safe(lambda: a.name) for a in desktop_apps()]))
            time.sleep(0.1)

    def safe(fn, default=None):
        try:
            return fn()
        except Exception:
            return default

    def role_name(acc):
        return Atspi.role_get_name(acc.getRole()) if acc.getRole() < Atspi.Role.LAST_DEFINED else "role %d" % int(acc.getRole())

    def obj_path(acc):
        return acc.path

    def bus_name(acc):
        return acc.get_bus_name() if hasattr(acc, "get_bus_name") else acc.app.bus_name

    def raw_role(acc):
        return conn.call_sync(bus_name(acc), obj_path(acc), "org.a11y.atspi.Accessible", "GetRole", None,
                              GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, TIMEOUT_MS, None).unpack()[0]

    def describe(acc, depth, ipath, deep=True):
        n = {"depth": depth, "ipath": ipath, "name": acc.name, "path": obj_path(acc), "bus": bus_name(acc)}
        n["role_num"] = raw_role(acc)
        n["role"] = Atspi.role_get_name(n["role_num"]) if n["role_num"] < int(Atspi.Role.LAST_DEFINED) else "role %d" % n["role_num"]
        n["states"] = sorted(s.value_nick for s in acc.getState().getStates())
        n["child_count"] = acc.childCount
        if not deep:
            return n
        n["description"] = acc.description
        n["ifaces"] = sorted(pyatspi.listInterfaces(acc))
        try:
            n["attrs"] = dict(a.split(":", 1) for a in acc.getAttributes() if ":" in a)
        except Exception as e:
            n["attrs"] = {"<error>": str(e)}
        n["accessible_id"] = safe(lambda: acc.accessibleId)
        n["index_in_parent"] = safe(lambda: acc.getIndexInParent())
        n["relations"] = safe(lambda: sorted(int(r.getRelationType()) for r in acc.getRelationSet()), [])
        if "Action" in n["ifaces"]:
            a = acc.queryAction()
            n["actions"] = [{"name": a.getName(i), "localized": a.getLocalizedName(i),
                             "description": a.getDescription(i), "keybinding": a.getKeyBinding(i)}
                            for i in range(a.nActions)]
        else:
            n["actions"] = []
        if "Value" in n["ifaces"]:
            v = acc.queryValue()
            n["value"] = {"current": v.currentValue, "min": v.minimumValue, "max": v.maximumValue,
                          "increment": v.minimumIncrement}
            n["value"]["text"] = safe(lambda: Atspi.Value.get_text(acc))
        if "Text" in n["ifaces"]:
            t = acc.queryText()
            n["text"] = t.getText(0, t.characterCount)
        if "Component" in n["ifaces"]:
            c = acc.queryComponent()
            e = c.getExtents(pyatspi.WINDOW_COORDS)
            n["extents"] = [e.x, e.y, e.width, e.height]
        if "Image" in n["ifaces"]:
            n["image_description"] = safe(lambda: acc.queryImage().imageDescription)
        return n

    def walk(app, deep=True, check_links=True):
        """Document-order walk; also records parent/index consistency problems."""
        out, problems = [], []
        stack = [(app, 0, [])]
        while stack:
            acc, depth, ip = stack.pop()
            node = describe(acc, depth, ip, deep)
            out.append(node)
            kids = []
            for i in range(node["child_count"]):
                c = acc.getChildAtIndex(i)
                if c is None:
                    problems.append("%s (%r): child %d is null" % (node["path"], node["name"], i))
                    continue
                if check_links:
                    p = c.parent
                    if p is None or obj_path(p) != node["path"]:
                        problems.append("%s: Parent is %s, expected %s" % (obj_path(c), p and obj_path(p), node["path"]))
                    idx = c.getIndexInParent()
                    if idx != i:
                        problems.append("%s: GetIndexInParent=%d, expected %d" % (obj_path(c), idx, i))
                kids.append((c, depth + 1, ip + [i]))
            stack.extend(reversed(kids))
        return out, problems

    def resolve(app_name, where):
        app = app_named(app_name)
        nth = where.get("nth", 0)
        stack = [app]
        while stack:
            acc = stack.pop()
            name_ok = "name" not in where or acc.name == where["name"]
            rn = raw_role(acc) if ("role" in where or "role_num" in where) else None
            role_ok = ("role" not in where or Atspi.role_get_name(rn) == where["role"]) and \
                      ("role_num" not in where or rn == where["role_num"])
            if name_ok and role_ok:
                if nth == 0:
                    return acc
                nth -= 1
            stack.extend(reversed([acc.getChildAtIndex(i) for i in range(acc.childCount)]))
        raise LookupError("no node matching %r in %r" % (where, app_name))

    def variant(sig, args):
        return GLib.Variant(sig, tuple(args)) if sig else None

    events = []
    listeners = {}

    def on_event(ev):
        try:
            src = ev.source
            events.append({"type": ev.type, "detail1": ev.detail1, "detail2": ev.detail2,
                           "source_name": safe(lambda: src.name), "source_path": safe(lambda: obj_path(src)),
                           "any_data": safe(lambda: ev.any_data if isinstance(ev.any_data, (str, int, float)) else
                                            (ev.any_data.name if ev.any_data is not None and hasattr(ev.any_data, "name") else None))})
        except Exception as e:
            events.append({"type": ev.type, "error": str(e)})

    def cmd_apps(a):
        res = []
        for app in desktop_apps():
            if app is None:
                continue
            res.append({"name": safe(lambda: app.name), "role": safe(lambda: role_name(app)),
                        "toolkit": safe(lambda: app.get_toolkit_name()),
                        "toolkit_version": safe(lambda: app.get_toolkit_version()),
                        "atspi_version": safe(lambda: app.get_atspi_version()),
                        "bus": safe(lambda: bus_name(app)), "path": safe(lambda: obj_path(app)),
                        "child_count": safe(lambda: app.childCount)})
        return res

    def cmd_dump(a):
        nodes, problems = walk(app_named(a["app"]), deep=a.get("deep", True), check_links=a.get("check_links", True))
        return {"nodes": nodes, "problems": problems}

    def cmd_action(a):
        acc = resolve(a["app"], a["where"])
        act = acc.queryAction()
        if "action_name" in a:
            names = [act.getName(i) for i in range(act.nActions)]
            idx = names.index(a["action_name"])
        else:
            idx = a.get("index", 0)
        return bool(act.doAction(idx))

    def cmd_set_value(a):
        acc = resolve(a["app"], a["where"])
        v = acc.queryValue()
        v.currentValue = float(a["value"])
        return v.currentValue

    def cmd_get_value(a):
        v = resolve(a["app"], a["where"]).queryValue()
        return {"current": v.currentValue, "min": v.minimumValue, "max": v.maximumValue, "increment": v.minimumIncrement}

    def cmd_states(a):
        return sorted(s.value_nick for s in resolve(a["app"], a["where"]).getState().getStates())

    def cmd_grab_focus(a):
        return bool(resolve(a["app"], a["where"]).queryComponent().grabFocus())

    def cmd_node(a):
        return describe(resolve(a["app"], a["where"]), 0, [], True)

    def cmd_collection(a):
        """Collection.GetMatches on the node `where` (default: the frame) with a role/state/iface rule."""
        acc = resolve(a["app"], a.get("where", {"role_num": 23}))
        col = acc.queryCollection()
        roles = [Atspi.Role(r) for r in a.get("roles", [])]
        ss = pyatspi.StateSet()
        for s in a.get("states", []):
            ss.add(Atspi.StateType(s))
        rule = col.createMatchRule(ss.raw() if hasattr(ss, "raw") else ss, a.get("statematch", 1),
                                   ["%s:%s" % kv for kv in sorted(a.get("attrs", {}).items())],
                                   a.get("attrmatch", 1),
                                   roles, a.get("rolematch", 2) if roles else 1,
                                   a.get("ifaces", []), a.get("ifacematch", 1), bool(a.get("invert", False)))
        objs = col.getMatches(rule, pyatspi.Collection.SORT_ORDER_CANONICAL, a.get("count", 0), a.get("traverse", True))
        return [{"name": o.name, "role_num": raw_role(o), "path": obj_path(o)} for o in objs]

    def cmd_relations(a):
        """GetRelationSet of the node `where`: [{"type": number, "targets": [{"name", "role_num", "path"}]}]."""
        acc = resolve(a["app"], a["where"])
        out = []
        for r in acc.getRelationSet():
            targets = [r.getTarget(i) for i in range(r.getNTargets())]
            out.append({"type": int(r.getRelationType()),
                        "targets": [{"name": t.name, "role_num": raw_role(t), "path": obj_path(t)} for t in targets]})
        return out

    def cmd_text(a):
        """The Text interface's whole content of the node `where` (error if it has none)."""
        t = resolve(a["app"], a["where"]).queryText()
        return t.getText(0, t.characterCount)

    def cmd_raw(a):
        """A raw method call; answers {"reply": [...]} or {"dbus_error": name, "message": text}."""
        bus = a.get("bus")
        if bus is None:
            bus = bus_name(app_named(a["app"]))
        try:
            r = conn.call_sync(bus, a["path"], a["iface"], a["method"], variant(a.get("sig"), a.get("args", [])),
                               GLib.VariantType(a["rtype"]) if a.get("rtype") else None, Gio.DBusCallFlags.NONE,
                               a.get("timeout_ms", TIMEOUT_MS), None)
            return {"reply": json.loads(json.dumps(r.unpack(), default=str)), "signature": r.get_type_string()}
        except GLib.Error as e:
            return {"dbus_error": Gio.DBusError.get_remote_error(e), "message": e.message}

    def cmd_raw_set(a):
        """Properties.Set(iface, prop, v(vsig value))."""
        bus = bus_name(app_named(a["app"]))
        try:
            conn.call_sync(bus, a["path"], "org.freedesktop.DBus.Properties", "Set",
                           GLib.Variant("(ssv)", (a["iface"], a["prop"], GLib.Variant(a["vsig"], a["value"]))), None,
                           Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
            return {"reply": []}
        except GLib.Error as e:
            return {"dbus_error": Gio.DBusError.get_remote_error(e), "message": e.message}

    def cmd_cache_items(a):
        bus = bus_name(app_named(a["app"]))
        r = conn.call_sync(bus, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems", None, None,
                           Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
        items = r.unpack()[0]
        return {"signature": r.get_type_string(), "count": len(items),
                "items": [{"path": it[0][1], "app": it[1][1], "parent": it[2][1], "index": it[3], "child_count": it[4],
                           "ifaces": sorted(it[5]), "name": it[6], "role_num": it[7], "description": it[8],
                           "states": list(it[9])} for it in items] if a.get("full") else None}

    def cmd_listen(a):
        for t in a["types"]:
            if t not in listeners:
                l = Atspi.EventListener.new(on_event)
                l.register(t)
                listeners[t] = l
        return sorted(listeners)

    def cmd_text_at(a):
        """Text.GetTextAtOffset through libatspi for each [offset, boundary] of `queries`: [[text, start, end]]."""
        text = resolve(a["app"], a["where"]).queryText()
        return [list(text.getTextAtOffset(offset, boundary)) for offset, boundary in a["queries"]]

    def cmd_cell_span(a):
        """TableCell.GetRowColumnSpan through libatspi: [row, column, row span, column span]."""
        acc = resolve(a["app"], a["where"])
        span = Atspi.TableCell.get_row_column_span(acc)
        return list(span)[-4:]

    def cmd_collect(a):
        """Runs the GLib main context for up to `seconds` (or until `until_type` arrived); returns the events."""
        ctx = GLib.MainContext.default()
        deadline = time.time() + a.get("seconds", 2.0)
        want = a.get("until_type")
        while time.time() < deadline:
            while ctx.pending():
                ctx.iteration(False)
            if want and any(e["type"].startswith(want) for e in events):
                break
            time.sleep(0.01)
        out = list(events)
        events.clear()
        return out

    cmds = {k[4:]: v for k, v in locals().items() if k.startswith("cmd_")}
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            res = {"ok": cmds[req.pop("cmd")](req)}
        except Exception as e:   # reported to the test, which decides
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(res, default=str) + "\n")
        sys.stdout.flush()


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "serve":
    _serve()
