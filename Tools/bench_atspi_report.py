#!/usr/bin/python3
"""Helpers for Tools/bench_atspi.sh (run with /usr/bin/python3, inside a stack's environment).

  bench_atspi_report.py roundtrip APP [--count N]
      D-Bus method round trips, synchronous, one call in flight, through the AT-SPI bus daemon, measured with a
      libdbus client driven through ctypes (dbus_connection_send_with_reply_and_block: the call libatspi makes),
      so the client adds only a few µs. Prints one JSON line with medians / p99 in µs of:
        floor      org.freedesktop.DBus.GetId (answered by dbus-daemon itself: the bus floor)
        ping       org.freedesktop.DBus.Peer.Ping on APP's connection
        get_role   org.a11y.atspi.Accessible.GetRole on a leaf of APP (a deepest first-child)
        get_name   Properties.Get(Accessible, Name) on the same leaf
  bench_atspi_report.py report FILE
      FILE holds the JSON lines bench_atspi.sh collected; prints the comparison table and the targets, and, from
      the client_floor lines (atspi_walk.py --floor), the lowest cache / cache-only ratio any server could reach
      with this client (see client_floors).
"""
import ctypes
import json
import os
import statistics
import sys
import time

TARGET_WALK = 0.5     # ours / GTK4, per walk mode
TARGET_RSS = 0.25     # ours / GTK4
TARGET_RT = 1.5       # our method round trip / bus floor


# ----------------------------------------------------------------------------------------------- round trips
def find_app_and_leaf(name):
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Gio, GLib

    addr = os.environ["AT_SPI_BUS_ADDRESS"]
    conn = Gio.DBusConnection.new_for_address_sync(
        addr, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

    def call(bus, path, iface, method, params=None, rtype=None):
        return conn.call_sync(bus, path, iface, method, params, GLib.VariantType(rtype) if rtype else None,
                              Gio.DBusCallFlags.NONE, 20000, None).unpack()

    deadline = time.time() + 30
    while True:
        for bus, path in call("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root",
                              "org.a11y.atspi.Accessible", "GetChildren", None, "(a(so))")[0]:
            try:
                nm = call(bus, path, "org.freedesktop.DBus.Properties", "Get",
                          GLib.Variant("(ss)", ("org.a11y.atspi.Accessible", "Name")), "(v)")[0]
            except GLib.Error:
                continue
            if nm == name:
                p = path
                while True:   # follow first children down to a leaf
                    kids = call(bus, p, "org.a11y.atspi.Accessible", "GetChildren", None, "(a(so))")[0]
                    if not kids:
                        return addr, bus, p
                    p = kids[0][1]
        if time.time() > deadline:
            raise SystemExit("bench_atspi_report: application %r not on the desktop" % name)
        time.sleep(0.2)


def app_bus_address(bus):
    """Application.GetApplicationBusAddress of the app's root ('' or an error: no peer-to-peer socket)."""
    import gi
    gi.require_version("Atspi", "2.0")
    from gi.repository import Gio, GLib
    conn = Gio.DBusConnection.new_for_address_sync(
        os.environ["AT_SPI_BUS_ADDRESS"],
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    try:
        return conn.call_sync(bus, "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Application",
                              "GetApplicationBusAddress", None, GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE,
                              5000, None).unpack()[0]
    except GLib.Error:
        return ""


class LibDBus:
    def __init__(self, address, bus=True):
        self.l = l = ctypes.CDLL("libdbus-1.so.3")
        vp, cp = ctypes.c_void_p, ctypes.c_char_p
        l.dbus_connection_open_private.restype = vp
        l.dbus_connection_open_private.argtypes = [cp, vp]
        l.dbus_bus_register.argtypes = [vp, vp]
        l.dbus_bus_register.restype = ctypes.c_uint
        l.dbus_message_new_method_call.restype = vp
        l.dbus_message_new_method_call.argtypes = [cp, cp, cp, cp]
        l.dbus_connection_send_with_reply_and_block.restype = vp
        l.dbus_connection_send_with_reply_and_block.argtypes = [vp, vp, ctypes.c_int, vp]
        l.dbus_message_unref.argtypes = [vp]
        l.dbus_message_append_args.argtypes = None   # variadic: set per call
        l.dbus_connection_close.argtypes = [vp]
        l.dbus_connection_unref.argtypes = [vp]
        l.dbus_message_get_type.argtypes = [vp]
        l.dbus_message_get_type.restype = ctypes.c_int
        self.err = ctypes.create_string_buffer(64)   # DBusError is 4 pointers + flags; 64 bytes is plenty
        l.dbus_error_init(self.err)
        self.conn = l.dbus_connection_open_private(address.encode(), self.err)
        if not self.conn or (bus and not l.dbus_bus_register(self.conn, self.err)):
            raise SystemExit("bench_atspi_report: cannot connect to %s" % address)

    def message(self, dest, path, iface, member, strings=()):
        m = self.l.dbus_message_new_method_call(dest.encode() if dest else None, path.encode(), iface.encode(), member.encode())
        if strings:
            DBUS_TYPE_STRING, DBUS_TYPE_INVALID = ord("s"), 0
            args = []
            keep = [ctypes.c_char_p(s.encode()) for s in strings]
            for k in keep:
                args += [ctypes.c_int(DBUS_TYPE_STRING), ctypes.byref(k)]
            self.l.dbus_message_append_args(ctypes.c_void_p(m), *args, ctypes.c_int(DBUS_TYPE_INVALID))
        return m

    def time_calls(self, make, count, warmup=200):
        l, conn, err = self.l, self.conn, self.err
        samples = []
        for i in range(warmup + count):
            m = make()
            t0 = time.perf_counter_ns()
            r = l.dbus_connection_send_with_reply_and_block(conn, m, 25000, err)
            t1 = time.perf_counter_ns()
            l.dbus_message_unref(m)
            if not r:
                raise SystemExit("bench_atspi_report: call failed (no reply)")
            if l.dbus_message_get_type(r) != 2:   # DBUS_MESSAGE_TYPE_METHOD_RETURN
                raise SystemExit("bench_atspi_report: call answered with an error")
            l.dbus_message_unref(r)
            if i >= warmup:
                samples.append((t1 - t0) / 1000.0)
        samples.sort()
        return {"median_us": round(statistics.median(samples), 1), "p99_us": round(samples[int(len(samples) * 0.99) - 1], 1),
                "mean_us": round(statistics.fmean(samples), 1), "calls": count}


def cmd_roundtrip(argv):
    name = argv[0]
    count = int(argv[argv.index("--count") + 1]) if "--count" in argv else 20000
    addr, bus, leaf = find_app_and_leaf(name)
    d = LibDBus(addr)
    res = {"app": name, "roundtrip": True, "leaf": leaf}
    # interleave the series in blocks so drift (CPU frequency, other load) hits them alike
    series = {
        "floor": lambda: d.message("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId"),
        "ping": lambda: d.message(bus, "/org/a11y/atspi/accessible/root", "org.freedesktop.DBus.Peer", "Ping"),
        "get_role": lambda: d.message(bus, leaf, "org.a11y.atspi.Accessible", "GetRole"),
        "get_name": lambda: d.message(bus, leaf, "org.freedesktop.DBus.Properties", "Get",
                                      ("org.a11y.atspi.Accessible", "Name")),
    }
    blocks = 5
    samples = {k: [] for k in series}
    for _ in range(blocks):
        for k, make in series.items():
            r = d.time_calls(make, count // blocks, warmup=100)
            samples[k].append(r)
    for k, rs in samples.items():
        res[k] = {"median_us": round(statistics.median(r["median_us"] for r in rs), 1),
                  "p99_us": round(statistics.median(r["p99_us"] for r in rs), 1), "calls": sum(r["calls"] for r in rs)}
    # libatspi sends method calls to the app's own socket when GetApplicationBusAddress names one (no daemon hop)
    p2p = app_bus_address(bus)
    res["p2p_address"] = p2p
    if p2p:
        try:
            pd = LibDBus(p2p, bus=False)
        except SystemExit as e:
            res["p2p_error"] = str(e)
            p2p = ""
    if p2p:
        rs = [pd.time_calls(lambda: pd.message(None, leaf, "org.a11y.atspi.Accessible", "GetRole"), count // blocks, warmup=100)
              for _ in range(blocks)]
        res["get_role_p2p"] = {"median_us": round(statistics.median(r["median_us"] for r in rs), 1),
                               "p99_us": round(statistics.median(r["p99_us"] for r in rs), 1), "calls": sum(r["calls"] for r in rs)}
    # the whole tree in one Cache.GetItems reply, timed to the last byte received, without decoding it (the
    # server's and the bus's share of the 'cache-only' walk, which a Python client mostly spends unpacking)
    res["getitems_raw"] = d.time_calls(lambda: d.message(bus, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache", "GetItems"),
                                       21, warmup=2)
    print(json.dumps(res), flush=True)


# ----------------------------------------------------------------------------------------------------- report
def client_floors(ours, gtk, walk, one):
    """The lowest ours/GTK4 ratio any server could reach with atspi_walk.py, per cache mode, from the two apps'
    client_floor lines (None when missing):
      decode  per item, the smaller of the two apps' figures (each app's: GDBus parsing a reply of minimal items
              plus unpacking it as walk_cache does — both steps every reply costs this client; the minimal items
              are alike but for path lengths), times GTK4's item count in its cache-only walk: what GTK4's reply
              would cost the client had every item been minimal;
      cache-only  decode / GTK4's cache-only median;
      cache   (decode + GTK4's Component items × the smaller of the two apps' Peer.Ping µs per call) / GTK4's
              cache median (a GetExtents costs the client at least a Ping: the same synchronous call, answered
              without the toolkit)."""
    fo, fg = one(ours, "client_floor"), one(gtk, "client_floor")
    if not fo or not fg or fo.get("error") or fg.get("error"):
        return None
    def per_item(f):
        parse = 1e6 * f["gdbus_parse_median_s"] / f["items"] if f.get("items") else 0.0
        return f["decode_msg_us_per_item"] + parse
    out = {"fo": fo, "fg": fg, "pi_o": per_item(fo), "pi_g": per_item(fg)}
    out["per_item"] = min(out["pi_o"], out["pi_g"])
    out["ping"] = min(fo["ping_us_per_call"], fg["ping_us_per_call"])
    g_only, g_cache = walk(gtk, "cache-only"), walk(gtk, "cache")
    n = (g_only or {}).get("nodes") or fg["items"]
    out["items"] = n
    out["decode_s"] = out["per_item"] * n / 1e6
    out["comp"] = fg["component_items"]
    out["cache_s"] = out["decode_s"] + out["comp"] * out["ping"] / 1e6
    out["ratio"] = {}
    if g_only and g_only.get("median_s"):
        out["ratio"]["cache-only"] = out["decode_s"] / g_only["median_s"]
    if g_cache and g_cache.get("median_s"):
        out["ratio"]["cache"] = out["cache_s"] / g_cache["median_s"]
    return out


def cmd_report(argv):
    rows = [json.loads(l) for l in open(argv[0]) if l.strip().startswith("{")]
    by = {}
    for r in rows:
        by.setdefault(r.get("side"), []).append(r)
    ours, gtk = by.get("ours", []), by.get("gtk4", [])

    def walk(side, mode):
        for r in side:
            if r.get("mode") == mode:
                return r
        return None

    def one(side, key):
        for r in side:
            if key in r:
                return r
        return {}

    modes = [r["mode"] for r in ours if "mode" in r]
    floors = client_floors(ours, gtk, walk, one)
    print()
    print("AT-SPI walk benchmark: medians of %s runs" % (walk(ours, modes[0]) or {}).get("runs", "?") if modes else "no walks")
    print("  ours: %s  N=%s  (%s)" % (one(ours, "app_name").get("app_name"), one(ours, "N").get("N"), one(ours, "binary").get("binary", "")))
    print("  GTK4: %s  N=%s  (GTK %s, GSK_RENDERER=cairo, Xvfb)" % (one(gtk, "app_name").get("app_name"), one(gtk, "N").get("N"),
                                                                   one(gtk, "gtk_version").get("gtk_version", "?")))
    print()
    hdr = "%-12s %10s %10s %10s %10s %9s %9s %8s  %s" % ("mode", "ours s", "GTK4 s", "ours nod", "GTK4 nod", "ours µs/n",
                                                         "GTK µs/n", "ratio", "target ≤%.2f" % TARGET_WALK)
    print(hdr)
    verdicts = []
    for m in modes:
        o, g = walk(ours, m), walk(gtk, m)
        if not o or not g or o.get("median_s") is None or g.get("median_s") is None:
            print("%-12s %s" % (m, "error: ours=%s gtk=%s" % (o and o.get("error"), g and g.get("error"))))
            verdicts.append(False)
            continue
        ratio = o["median_s"] / g["median_s"]
        # when node counts differ, compare per node as well
        pn = o["us_per_node"] / g["us_per_node"] if g.get("us_per_node") else float("nan")
        ok = ratio <= TARGET_WALK
        verdicts.append(ok)
        note = ""
        if not ok and floors and m in floors["ratio"]:
            fr = floors["ratio"][m]
            note = ("  target below the client floor %.2f" % fr if TARGET_WALK < fr
                    else "  client floor %.2f: target reachable" % fr)
        print("%-12s %10.4f %10.4f %10d %10d %9.1f %9.1f %8.3f  %s%s%s" % (
            m, o["median_s"], g["median_s"], o["nodes"], g["nodes"], o["us_per_node"], g["us_per_node"], ratio,
            "ok" if ok else "MISSED", "" if o["nodes"] == g["nodes"] else "  (per node %.3f)" % pn, note))
    if floors:
        fo, fg = floors["fo"], floors["fg"]
        print()
        print("Lower bounds with this client (atspi_walk.py: PyGObject GLib.Variant.unpack, synchronous GDBus calls;")
        print("  the lowest ratio any server could reach, whatever it does):")
        print("  decode floor: minimal GetItems items (the app's refs, interfaces [Accessible], empty name and description,")
        print("    role 0, states [0, 0]) built locally, unpacked as walk_cache does, medians of %s runs, µs per item:" % fo["runs"])
        for lbl, f in (("ours", fo), ("GTK4", fg)):
            print("    %-4s %5d items: GDBus parsing the reply %.1f + unpacking it %5.1f  (unpacked from bytes %5.1f;"
                  " its real reply unpacked %5.1f)" % (lbl, f["items"], 1e6 * f["gdbus_parse_median_s"] / f["items"],
                                                     f["decode_msg_us_per_item"], f["decode_us_per_item"],
                                                     1e6 * f["real_unpack_s"] / f["items"]))
        print("    floor: the smallest, %.1f µs/item (%s), scaled to GTK4's %d items = %.4f s" % (
            floors["per_item"], "ours" if floors["pi_o"] <= floors["pi_g"] else "GTK4", floors["items"],
            floors["decode_s"]))
        print("  call floor: synchronous Peer.Ping through the bus with call(): ours %.1f µs, GTK4 %.1f µs per call"
              " (means of %d / %d calls, medians of %s series); floor %.1f µs" % (
                  fo["ping_us_per_call"], fg["ping_us_per_call"], fo["ping_calls"], fg["ping_calls"], fo["runs"],
                  floors["ping"]))
        g_only, g_cache = walk(gtk, "cache-only"), walk(gtk, "cache")
        if "cache-only" in floors["ratio"]:
            fr = floors["ratio"]["cache-only"]
            print("  %-11s decode floor %.4f s / GTK4 %.4f s = %.3f  target %.2f %s" % (
                "cache-only", floors["decode_s"], g_only["median_s"], fr, TARGET_WALK,
                "lies below the floor" if TARGET_WALK < fr else "lies above the floor"))
        if "cache" in floors["ratio"]:
            fr = floors["ratio"]["cache"]
            print("  %-11s (%.4f s + %d Component items × %.1f µs) = %.4f s / GTK4 %.4f s = %.3f  target %.2f %s" % (
                "cache", floors["decode_s"], floors["comp"], floors["ping"], floors["cache_s"], g_cache["median_s"], fr,
                TARGET_WALK, "lies below the floor" if TARGET_WALK < fr else "lies above the floor"))
        print("  (Component items: ours %d, GTK4 %d; GetItems reply: ours %.2f MB, GTK4 %.2f MB)" % (
            fo["component_items"], fg["component_items"], fo["reply_bytes"] / 1e6, fg["reply_bytes"] / 1e6))
    orss, grss = one(ours, "rss_kb"), one(gtk, "rss_kb")
    print()
    if orss and grss:
        r = orss["rss_kb"] / grss["rss_kb"]
        verdicts.append(r <= TARGET_RSS)
        print("RSS (VmRSS after the walks): ours %.1f MB (peak %.1f MB), GTK4 %.1f MB (peak %.1f MB): ratio %.3f  target ≤%.2f %s" % (
            orss["rss_kb"] / 1024, orss.get("hwm_kb", 0) / 1024, grss["rss_kb"] / 1024, grss.get("hwm_kb", 0) / 1024, r,
            TARGET_RSS, "ok" if r <= TARGET_RSS else "MISSED"))
    ort, grt = one(ours, "roundtrip"), one(gtk, "roundtrip")
    if ort:
        f = ort["floor"]["median_us"]
        print()
        print("Method round trip (libdbus send_with_reply_and_block via ctypes, 1 in flight, %d calls each, medians):" % ort["floor"]["calls"])
        print("  bus floor  org.freedesktop.DBus.GetId           %7.1f µs  (p99 %.1f)" % (f, ort["floor"]["p99_us"]))
        for k, label in (("ping", "Peer.Ping (ours)"), ("get_role", "Accessible.GetRole (ours, leaf)"),
                         ("get_name", "Properties.Get Name (ours, leaf)")):
            v = ort[k]["median_us"]
            line = "  %-44s %7.1f µs  (p99 %.1f)  %.2f× floor" % (label, v, ort[k]["p99_us"], v / f)
            if k == "get_role":
                ok = v / f <= TARGET_RT
                verdicts.append(ok)
                line += "  target ≤%.1f× %s" % (TARGET_RT, "ok" if ok else "MISSED")
                # A Peer.Ping is answered inside the app's D-Bus library without reaching any toolkit code: the
                # fastest answer an app can give through the bus (two daemon hops, where GetId takes one).
                pings = [r["ping"]["median_us"] for r in (ort, grt) if r and "ping" in r]
                if not ok and pings and min(pings) / f > TARGET_RT:
                    line += "  target below the no-op answer (Peer.Ping %.2f× floor)" % (min(pings) / f)
            print(line)
        if "get_role_p2p" in ort:
            v = ort["get_role_p2p"]["median_us"]
            print("  %-44s %7.1f µs  (p99 %.1f)  %.2f× the bus floor" % ("GetRole over the app's peer-to-peer socket", v,
                                                                       ort["get_role_p2p"]["p99_us"], v / f))
        if "getitems_raw" in ort:
            line = "  Cache.GetItems, whole tree, reply received undecoded: ours %.1f ms" % (ort["getitems_raw"]["median_us"] / 1000)
            if grt and "getitems_raw" in grt:
                line += ", GTK4 %.1f ms: ratio %.3f" % (grt["getitems_raw"]["median_us"] / 1000,
                                                      ort["getitems_raw"]["median_us"] / grt["getitems_raw"]["median_us"])
            print(line)
        if grt:
            gf = grt["floor"]["median_us"]
            print("  for reference, GTK4: GetRole %.1f µs (%.2f× its run's floor %.1f µs), Properties.Get Name %.1f µs" % (
                grt["get_role"]["median_us"], grt["get_role"]["median_us"] / gf, gf, grt["get_name"]["median_us"]))
    ready_o, ready_g = one(ours, "ready_s"), one(gtk, "ready_s")
    if ready_o and ready_g:
        print()
        print("start → READY: ours %.2f s, GTK4 %.2f s" % (ready_o["ready_s"], ready_g["ready_s"]))
    print()
    print("targets: %s" % ("all met" if verdicts and all(verdicts) else "%d of %d met" % (sum(verdicts), len(verdicts))))
    return 0


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("roundtrip", "report"):
        print(__doc__)
        return 2
    return {"roundtrip": cmd_roundtrip, "report": cmd_report}[sys.argv[1]](sys.argv[2:]) or 0


if __name__ == "__main__":
    sys.exit(main())
