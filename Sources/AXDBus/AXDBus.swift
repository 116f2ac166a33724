// AXDBus — a small, safe Swift layer over libdbus-1 (the `CDBus` system library).
//
// Overview for the AT-SPI bridge (AXATSPI):
//
//   let session = try DBusConnection.sessionBus()
//   let a11y = try DBusConnection.open(address: DBusConnection.accessibilityBusAddress(session: session))
//   // one fallback handler serves /org/a11y/atspi/accessible/root and every /org/a11y/atspi/accessible/<id>
//   try a11y.export(path: "/org/a11y/atspi/accessible", fallback: true,
//                   standard: DBusStandardInterfaces(properties: props, introspect: xmlFor)) { msg in
//       guard let node = tree.node(at: msg.path) else { return .error(.unknownObject(path: msg.path)) }
//       if msg.isMethodCall("org.a11y.atspi.Accessible", "GetState") {
//           return .reply(msg.makeReply { $0.appendArray(node.stateWords) })       // au
//       }
//       if msg.isMethodCall("org.a11y.atspi.Accessible", "GetChildAtIndex") {
//           try msg.requireSignature("i")                                          // InvalidArgs otherwise
//           let i = try msg.reader().readInt32()
//           return .reply(msg.makeReply { $0.appendReference(bus: a11y.uniqueName, path: node.childPath(i)) })
//       }
//       return .error(.unknownMethod(for: msg))
//   }
//   try a11y.register(path: "/org/a11y/atspi/cache") { msg in … a((so)(so)(so)iiassusau) … }
//   let embed = try DBusMessage.methodCall(destination: "org.a11y.atspi.Registry",
//       path: "/org/a11y/atspi/accessible/root", interface: "org.a11y.atspi.Socket", member: "Embed")
//   embed.append { $0.appendReference(bus: a11y.uniqueName, path: "/org/a11y/atspi/accessible/root") }
//   a11y.callAsync(embed) { result in … keep the desktop (so) as the root's Parent … }
//   _ = try a11y.subscribe(DBusSignalFilter(interface: "org.a11y.atspi.Registry")) { sig in … }  // listener tracking
//   try a11y.emitSignal(path: focusedPath, interface: "org.a11y.atspi.Event.Object", member: "StateChanged") { w in
//       w.append("focused"); w.append(Int32(1)); w.append(Int32(0))
//       w.variant("i") { w.append(Int32(0)) }; w.appendEmptyVardict()                // (siiva{sv})
//   }
//
// Threading model
//   * Every `DBusConnection` owns one loop thread. Object handlers, signal handlers, async reply callbacks and
//     `perform {}` closures run on it, one at a time: handlers never race each other and must never block
//     (libatspi gives an app 800 ms before it calls it hung). Serve from a snapshot.
//   * `send`, `emitSignal`, `call`, `callAsync`, `register…`, `subscribe`, `perform` are safe from any thread.
//     A message is written immediately by the sending thread when the socket is free, otherwise by the loop.
//   * `call` (blocking) from a non-loop thread is an async call + semaphore: only the loop thread reads the
//     socket, so the loop is never starved. From the loop thread it is libdbus's blocking call (the loop
//     stalls meanwhile — avoid in handlers; use `callAsync`).
//   * `close()` stops and joins the loop, fails outstanding async calls with `Disconnected`, closes the
//     socket. The loop keeps the connection alive until then.
//
// Safety
//   libdbus *aborts the process* on many argument-check failures (invalid object path/interface/member/error
//   name/signature, appending a type an array or variant does not expect, closing an incomplete container,
//   reading a value with the wrong type). AXDBus validates every such input first:
//   * names: `DBusMessage.methodCall/signal` throw `InvalidArgs`; `DBusNames`, `DBusObjectPath`, `DBusSignature`.
//   * writing: `DBusWriter` tracks the expected signature of every open container; the first mistake is
//     recorded (`writer.error`, `message.marshalError`), open containers are abandoned, and the message is
//     never sent (a handler's broken reply becomes a `Failed` error reply).
//   * reading: every `DBusReader` read checks the wire type and throws `InvalidArgs` with the position, e.g.
//     "expected 'i' at struct field 2 (nesting depth 2, top-level argument 1), got 's'". Handlers that
//     throw get their error sent as the reply; the server keeps serving.
//   * messages are ref-counted `final class`es (unref in deinit); C callbacks hold no strong Swift cycles.
//
// Files: DBusConnection (loop, send/call, export, signals), DBusMessage, DBusWriter, DBusReader, DBusValue
// (generic recursive values for slow paths), DBusStandardInterfaces (Properties / Introspectable / Peer +
// introspection XML), DBusError (errors + name validation), DBusBenchmark.
