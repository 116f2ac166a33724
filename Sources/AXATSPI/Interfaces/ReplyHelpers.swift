import AXDBus

extension AppBridge {
    /// Checks the call's signature, then sends the reply `write` builds from the call's arguments (read with the
    /// reader it is given). For queries only: `write` does not run when the caller wants no reply, so a call with a
    /// side effect performs it before replying.
    @inline(__always) func reply(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ signature: StaticString,
        _ write: (inout DBusFastReader, inout DBusFastWriter) -> Void
    ) -> DBusMethodResult {
        if let failure = check(msg, rawMessage, signature) { return failure }
        var input = DBusFastReader(rawMessage)
        DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in write(&input, &out) }
        return .handled
    }

    /// Checks the call's signature and replies with a boolean computed before the reply is built (so a side
    /// effect happens whether or not the caller wants the reply).
    @inline(__always) func replyBool(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ signature: StaticString,
        _ perform: (inout DBusFastReader) -> Bool
    ) -> DBusMethodResult {
        if let failure = check(msg, rawMessage, signature) { return failure }
        var input = DBusFastReader(rawMessage)
        let answer = perform(&input)
        DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.bool(answer) }
        return .handled
    }
}
