// AXDBus — a small, safe Swift layer over libdbus-1 (the `CDBus` system library), with one allocation-free fast
// path for replies and signals whose signature is fixed by the code.
//
// How the AT-SPI bridge (AXATSPI) uses it:
//
//   let session = try DBusConnection.sessionBus(startLoop: false)
//   let a11y = try DBusConnection.open(address: DBusConnection.accessibilityBusAddress(session: session))
//   // one fallback handler serves /org/a11y/atspi/accessible/root and every /org/a11y/atspi/accessible/<n>
//   try a11y.registerFallback(path: "/org/a11y/atspi/accessible") { msg in
//       guard dbusMessageHasSignature(msg.pointer, "i") else { return .error(.invalidArgs("expected 'i'")) }
//       var arguments = DBusFastReader(msg.pointer)               // fast path: signature checked first
//       let index = arguments.int32()
//       DBusFastWriter.sendReply(on: a11y.pointer, to: msg.pointer) { out in
//           out.reference(bus: busName, path: childPath(index))     // (so)
//       }
//       return .handled                                             // or .reply(msg.makeReply { … }) / .error(…)
//   }
//   let embed = try DBusMessage.methodCall(destination: "org.a11y.atspi.Registry",
//       path: "/org/a11y/atspi/accessible/root", interface: "org.a11y.atspi.Socket", member: "Embed")
//   let writer = embed.writer()                                     // checked writer (slow paths)
//   writer.openStruct(); writer.append(a11y.uniqueName); writer.appendObjectPath(rootPath); writer.close()
//   writer.finish()
//   a11y.callAsync(embed, timeoutMilliseconds: 5_000) { result in … try reply.reader().readReference() … }
//   try a11y.addMatch(rule)                                         // registry listener tracking
//   a11y.addSignalHandler(DBusSignalFilter(interface: "org.a11y.atspi.Registry")) { signal in … }
//   DBusFastWriter.sendSignal(on: a11y.pointer, path: path, interface: "org.a11y.atspi.Event.Object",
//       member: "StateChanged") { out in                             // (siiva{sv})
//       out.string("focused"); out.int32(1); out.int32(0)
//       out.variant("i") { $0.int32(0) }; out.array("{sv}") { _ in }
//   }
//
// Two ways to marshal:
//   * checked (`DBusWriter`, `DBusReader`, `DBusValue`): every value and container is checked against the
//     signature; for arguments from the outside (Collection match rules, Properties.Set values, registry replies)
//     and for anything built at run time.
//   * fast (`DBusFastWriter`, `DBusFastReader`, `sendReply`/`sendSignal`): straight on libdbus iterators, no
//     checks, no allocation; only where the signature is fixed by the code and the arguments were matched with
//     `dbusMessageHasSignature` first (DBusFastPath.swift states the caller's obligations).
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
//   * the fast path skips all of this by design; its callers carry the obligations DBusFastPath.swift lists.
//
// Files: DBusConnection (loop, send/call, export, signals), DBusMessage, DBusWriter, DBusReader, DBusValue
// (generic recursive values for slow paths), DBusFastPath (the unchecked fast path), DBusStandardInterfaces
// (Properties / Introspectable / Peer + introspection XML), DBusError (errors + name validation). The round-trip
// micro benchmark lives in AXTestSupport (DBusBenchmark), not in this library.
