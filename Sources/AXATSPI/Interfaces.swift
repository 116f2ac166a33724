import AXCore
import AXDBus
import AXHub
import AXJSON
import CDBus
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One reply owed to a caller; whoever claims it first (the app's answer or the deadline) sends it.
final class DeferredReply: @unchecked Sendable {
    let call: DBusMessage
    /// The connection the call came on (bus or peer-to-peer), kept alive by a libdbus reference; libdbus's send
    /// is thread-safe.
    let connection: OpaquePointer
    private let done = Atomic<Bool>(false)
    init(_ call: DBusMessage, _ connection: OpaquePointer) {
        self.call = call
        self.connection = connection
        dbus_connection_ref(connection)
    }
    deinit { dbus_connection_unref(connection) }

    func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }

    func sendBool(_ b: Bool) {
        guard claim() else { return }
        sendReply(connection, to: call.pointer) { $0.bool(b) }
    }
    func sendEmpty() {
        guard claim() else { return }
        sendReply(connection, to: call.pointer) { _ in }
    }
    func sendError(_ e: DBusError) {
        guard claim() else { return }
        if call.noReplyExpected { return }
        let m = call.makeErrorReply(e)
        withExtendedLifetime(m) { _ = dbus_connection_send(connection, m.pointer, nil) }
    }
}

extension ActionError {
    /// The D-Bus error an AT-SPI caller gets for a failed action.
    var dbusError: DBusError {
        switch self {
        case .noSuchApp(let a):
            return DBusError(name: DBusError.Name.unknownObject, message: "The application no longer exists (\(a))")
        case .noSuchElement(let e):
            return DBusError(
                name: DBusError.Name.unknownObject, message: "Object does not exist at path (element '\(e)')")
        case .notSupported(let a, let s):
            return DBusError(
                name: DBusError.Name.notSupported,
                message: "Action '\(a)' is not supported (supported: \(s.joined(separator: ", ")))")
        case .notInteractable(let r): return DBusError.failed("The element cannot be interacted with: \(r)")
        case .policyDenied(let r, let t):
            return DBusError(
                name: DBusError.Name.accessDenied,
                message: "Guided Access restriction '\(r)' denies this\(t.map { " (\($0))" } ?? "")")
        case .appNotResponding(let r):
            return DBusError(name: DBusError.Name.noReply, message: "The application did not answer: \(r)")
        case .appFailed(let message, _, _): return DBusError.failed("The application reported an error: \(message)")
        case .failed(let s): return DBusError.failed(s)
        }
    }
}

extension AppBridge {
    // MARK: Routing actions to the app (never blocks the loop thread)

    /// Runs `work` (the hub's action routing) off the loop thread and replies with its Bool, or with an error
    /// reply when it fails or does not finish within `actionReplyTimeout` (the action may still complete later).
    func routeAsync(
        _ msg: DBusMessage, empty: Bool = false,
        _ work: @escaping @Sendable (Hub, String) async throws(ActionError) -> Bool
    ) -> DBusMethodResult {
        let reply = DeferredReply(msg, replyConn)
        let hub = self.hub
        let app = appID
        let timeout = actionReplyTimeout
        Task.detached { [weak self] in
            do throws(ActionError) {
                let ok = try await work(hub, app)
                // The app published its change before answering, so it is already pending here: serve it (and
                // emit its events) before replying, so the caller's next read sees the new state.
                await self?.flushBeforeReply()
                if empty { reply.sendEmpty() } else { reply.sendBool(ok) }
            } catch {
                reply.sendError(error.dbusError)
            }
        }
        Task.detached {
            try? await Task.sleep(for: timeout)
            reply.sendError(
                DBusError(
                    name: DBusError.Name.noReply,
                    message: "The application did not answer within \(timeout) (the action may still complete)"))
        }
        return .handled
    }

    /// Runs a flush on the loop thread and waits for it (at most 200 ms, so a closed connection never hangs a reply).
    func flushBeforeReply() async {
        let once = OneShot()
        await withCheckedContinuation { (cont: CheckedContinuation<Void, Never>) in
            connection.perform { [weak self] in
                self?.flush()
                if once.fire() { cont.resume() }
            }
            Task.detached {
                try? await Task.sleep(for: .milliseconds(200))
                if once.fire() { cont.resume() }
            }
        }
    }

    // MARK: Action

    func action(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode) -> DBusMethodResult
    {
        let acts = ATSPIMapping.actions(n)
        let name = String(cString: member)
        if name == "GetActions" {
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { o in
                o.array("(sss)") { a in
                    for x in acts {
                        a.structure { s in
                            s.string(x.localizedName)
                            s.string(x.description)
                            s.string(x.keyBinding)
                        }
                    }
                }
            }
            return .handled
        }
        guard ["GetDescription", "GetName", "GetLocalizedName", "GetKeyBinding", "DoAction"].contains(name) else {
            return .error(.unknownMethod(for: msg))
        }
        if let e = check(msg, m, "i") { return e }
        var i = In(m)
        let idx = Int(i.int32())
        guard idx >= 0 && idx < acts.count else {
            return .error(
                .invalidArgs(
                    "Action index \(idx) out of range (the object has \(acts.count) action\(acts.count == 1 ? "" : "s"))"
                ))
        }
        let a = acts[idx]
        switch name {
        case "GetDescription": sendReply(replyConn, to: m) { $0.string(a.description) }
        case "GetName": sendReply(replyConn, to: m) { $0.string(a.name) }
        case "GetLocalizedName": sendReply(replyConn, to: m) { $0.string(a.localizedName) }
        case "GetKeyBinding": sendReply(replyConn, to: m) { $0.string(a.keyBinding) }
        default:
            let id = n.id
            switch a.kind {
            case .activate:
                return routeAsync(msg) { (h, app) throws(ActionError) in
                    try await h.perform(app: app, element: id, action: .activate)
                }
            case .increment:
                return routeAsync(msg) { (h, app) throws(ActionError) in
                    try await h.perform(app: app, element: id, action: .increment)
                }
            case .decrement:
                return routeAsync(msg) { (h, app) throws(ActionError) in
                    try await h.perform(app: app, element: id, action: .decrement)
                }
            case .escape:
                return routeAsync(msg) { (h, app) throws(ActionError) in
                    try await h.perform(app: app, element: id, action: .escape)
                }
            case .custom(let cid):
                return routeAsync(msg) { (h, app) throws(ActionError) in
                    try await h.perform(app: app, element: id, action: .custom(cid))
                }
            }
        }
        return .handled
    }

    // MARK: Value

    /// `Properties.Set(Value.CurrentValue)`: setValue where the control takes it, else increment/decrement
    /// steps toward the target (clamped to the range).
    func setCurrentValue(_ msg: DBusMessage, _ n: AXNode, _ target: Double) -> DBusMethodResult {
        guard let num = n.numeric, target.isFinite else {
            return .error(.invalidArgs("CurrentValue must be a finite number"))
        }
        let clamped = min(max(target, num.minimum), num.maximum)
        let v = clamped.isFinite ? clamped : target
        let id = n.id
        if n.actions.contains(.setValue) {
            return routeAsync(msg, empty: true) { (h, app) throws(ActionError) in
                try await h.perform(app: app, element: id, action: .setValue(.number(v)))
            }
        }
        let span = num.maximum - num.minimum
        let step = num.step > 0 && num.step.isFinite ? num.step : (span.isFinite && span > 0 ? span / 10 : 1)
        let raw = ((v - num.current) / step).rounded()
        let steps = raw.isFinite ? Int(min(max(raw, -1000), 1000)) : 0
        if steps == 0 {
            sendReply(replyConn, to: msg.pointer) { _ in }
            return .handled
        }
        let action: ElementAction = steps > 0 ? .increment : .decrement
        let count = abs(steps)
        return routeAsync(msg, empty: true) { (h, app) throws(ActionError) in
            var any = false
            for _ in 0..<count {
                if try await h.perform(app: app, element: id, action: action) { any = true } else { break }
            }
            return any
        }
    }

    // MARK: Text

    func text(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode) -> DBusMethodResult {
        let content = Array(ATSPIMapping.text(n).unicodeScalars)
        let count = content.count
        func clampOffset(_ i: Int32) -> Int { i < 0 ? count : min(Int(i), count) }
        func sub(_ a: Int, _ b: Int) -> String {
            guard a < b else { return "" }
            var s = String.UnicodeScalarView()
            s.append(contentsOf: content[a..<b])
            return String(s)
        }
        switch String(cString: member) {
        case "GetText":
            if let e = check(msg, m, "ii") { return e }
            var i = In(m)
            let s0 = i.int32()
            let e0 = i.int32()
            let a = s0 < 0 ? 0 : min(Int(s0), count)
            let b = clampOffset(e0)
            let s = sub(a, max(a, b))
            sendReply(replyConn, to: m) { $0.string(s) }
        case "GetCharacterAtOffset":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let off = Int(i.int32())
            let c: Int32 = off >= 0 && off < count ? Int32(bitPattern: content[off].value) : 0
            sendReply(replyConn, to: m) { $0.int32(c) }
        case "GetStringAtOffset":
            if let e = check(msg, m, "iu") { return e }
            var i = In(m)
            let off = Int(i.int32())
            let g = i.uint32()
            let r = TextBoundaries.range(content, off, granularity: g)
            let s = sub(r.0, r.1)
            sendReply(replyConn, to: m) { o in
                o.string(s)
                o.int32(Int32(r.0))
                o.int32(Int32(r.1))
            }
        case "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset":
            if let e = check(msg, m, "iu") { return e }
            var i = In(m)
            let off = Int(i.int32())
            let boundary = i.uint32()
            let g: UInt32 = boundary == 0 ? 0 : (boundary <= 2 ? 1 : (boundary <= 4 ? 2 : 3))
            var r = TextBoundaries.range(content, off, granularity: g)
            let mem = String(cString: member)
            if mem == "GetTextBeforeOffset" {
                r = r.0 > 0 ? TextBoundaries.range(content, r.0 - 1, granularity: g) : (0, 0)
            }
            if mem == "GetTextAfterOffset" {
                r = r.1 < count ? TextBoundaries.range(content, r.1, granularity: g) : (count, count)
            }
            let s = sub(r.0, r.1)
            sendReply(replyConn, to: m) { o in
                o.string(s)
                o.int32(Int32(r.0))
                o.int32(Int32(r.1))
            }
        case "SetCaretOffset":
            if let e = check(msg, m, "i") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "GetNSelections":
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { $0.int32(0) }
        case "GetSelection":
            if let e = check(msg, m, "i") { return e }
            sendReply(replyConn, to: m) { o in
                o.int32(0)
                o.int32(0)
            }
        case "AddSelection", "RemoveSelection", "SetSelection", "ScrollSubstringTo", "ScrollSubstringToPoint":
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "GetCharacterExtents":
            if let e = check(msg, m, "iu") { return e }
            var i = In(m)
            let off = Int(i.int32())
            let c = i.uint32()
            let r = charExtents(n, off, off + 1, count, c)
            sendReply(replyConn, to: m) { o in
                o.int32(r.0)
                o.int32(r.1)
                o.int32(r.2)
                o.int32(r.3)
            }
        case "GetRangeExtents":
            if let e = check(msg, m, "iiu") { return e }
            var i = In(m)
            let a = Int(i.int32())
            let b = Int(i.int32())
            let c = i.uint32()
            let r = charExtents(n, a, b, count, c)
            sendReply(replyConn, to: m) { o in
                o.int32(r.0)
                o.int32(r.1)
                o.int32(r.2)
                o.int32(r.3)
            }
        case "GetOffsetAtPoint":
            if let e = check(msg, m, "iiu") { return e }
            var i = In(m)
            let x = i.int32()
            let y = i.int32()
            let c = i.uint32()
            let p = toScreen(n, x, y, c)
            var off: Int32 = -1
            if n.frame.contains(p), count > 0, n.frame.width > 0 {
                off = Int32(min(count - 1, max(0, Int((p.x - n.frame.x) / n.frame.width * Double(count)))))
            }
            sendReply(replyConn, to: m) { $0.int32(off) }
        case "GetAttributeRun":
            if let e = check(msg, m, "ib") { return e }
            sendReply(replyConn, to: m) { o in
                o.stringDict([])
                o.int32(0)
                o.int32(Int32(count))
            }
        case "GetAttributes":
            if let e = check(msg, m, "i") { return e }
            sendReply(replyConn, to: m) { o in
                o.stringDict([])
                o.int32(0)
                o.int32(Int32(count))
            }
        case "GetAttributeValue":
            if let e = check(msg, m, "is") { return e }
            sendReply(replyConn, to: m) { $0.string("") }
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            if let e = check(msg, m, "") { return e }
            let lang = n.language.map { [("language", $0)] } ?? []
            sendReply(replyConn, to: m) { $0.stringDict(lang) }
        case "GetBoundedRanges":
            if let e = check(msg, m, "iiiiuuu") { return e }
            sendReply(replyConn, to: m) { o in o.array("(iisv)") { _ in } }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }

    /// Character extents estimated by dividing the element's frame evenly (the mirror has no glyph metrics).
    func charExtents(_ n: AXNode, _ a: Int, _ b: Int, _ count: Int, _ coord: UInt32) -> (Int32, Int32, Int32, Int32) {
        let e = extents(n, coord)
        guard count > 0, a < b, a >= 0 else { return (e.0, e.1, 0, e.3) }
        let w = Double(e.2) / Double(count)
        let x0 = Double(e.0) + w * Double(a)
        let x1 = Double(e.0) + w * Double(min(b, count))
        return (clampInt(x0), e.1, clampInt(x1 - x0), e.3)
    }

    // MARK: EditableText

    func editableText(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode)
        -> DBusMethodResult
    {
        let current = Array((n.text ?? "").unicodeScalars)
        let id = n.id
        func str(_ s: ArraySlice<Unicode.Scalar>) -> String {
            var v = String.UnicodeScalarView()
            v.append(contentsOf: s)
            return String(v)
        }
        switch String(cString: member) {
        case "SetTextContents":
            if let e = check(msg, m, "s") { return e }
            var i = In(m)
            let s = i.string()
            return routeAsync(msg) { (h, app) throws(ActionError) in
                try await h.perform(app: app, element: id, action: .setValue(.string(s)))
            }
        case "InsertText":
            if let e = check(msg, m, "isi") { return e }
            var i = In(m)
            let pos = Int(i.int32())
            let s = i.string()
            let len = Int(i.int32())
            var ins = Array(s.unicodeScalars)
            if len >= 0 && len < ins.count { ins = Array(ins[0..<len]) }
            let insert = str(ins[...])
            if pos < 0 || pos >= current.count {
                return routeAsync(msg) { (h, app) throws(ActionError) in
                    try await h.perform(app: app, element: id, action: .typeText(insert))
                }
            }
            let new = str(current[0..<pos]) + insert + str(current[pos...])
            return routeAsync(msg) { (h, app) throws(ActionError) in
                try await h.perform(app: app, element: id, action: .setValue(.string(new)))
            }
        case "DeleteText", "CutText":
            if let e = check(msg, m, "ii") { return e }
            var i = In(m)
            let a = max(0, min(Int(i.int32()), current.count))
            let b0 = Int(i.int32())
            let b = b0 < 0 ? current.count : max(a, min(b0, current.count))
            let new = str(current[0..<a]) + str(current[b...])
            return routeAsync(msg) { (h, app) throws(ActionError) in
                try await h.perform(app: app, element: id, action: .setValue(.string(new)))
            }
        case "CopyText":
            if let e = check(msg, m, "ii") { return e }
            sendReply(replyConn, to: m) { _ in }
        case "PasteText":
            if let e = check(msg, m, "i") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }

    // MARK: Selection

    func selection(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode)
        -> DBusMethodResult
    {
        let sel = selectedChildren(n)
        switch String(cString: member) {
        case "GetSelectedChild":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = Int(i.int32())
            sendReply(replyConn, to: m) { o in writeRef(&o, idx >= 0 && idx < sel.count ? sel[idx] : nil) }
        case "IsChildSelected":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = Int(i.int32())
            let yes = idx >= 0 && idx < n.children.count && sel.contains(n.children[idx])
            sendReply(replyConn, to: m) { $0.bool(yes) }
        case "SelectChild":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = Int(i.int32())
            guard idx >= 0 && idx < n.children.count else {
                return .error(.invalidArgs("SelectChild: index \(idx) out of range (\(n.children.count) children)"))
            }
            let child = n.children[idx]
            if sel.contains(child) {
                sendReply(replyConn, to: m) { $0.bool(true) }
                return .handled
            }
            return routeAsync(msg) { (h, app) throws(ActionError) in
                try await h.perform(app: app, element: child, action: .activate)
            }
        case "DeselectSelectedChild", "DeselectChild":
            if let e = check(msg, m, "i") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "SelectAll", "ClearSelection":
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }

    // MARK: Table / TableCell

    /// Cells of a table in reading order (descendants carrying cell info; nested tables excluded).
    func cells(_ table: AXNode) -> [AXNode] {
        var out: [AXNode] = []
        var stack = Array(table.children.reversed())
        while let id = stack.popLast() {
            guard let c = served.tree[id] else { continue }
            if c.cell != nil { out.append(c) }
            if c.table == nil { stack.append(contentsOf: c.children.reversed()) }
        }
        return out
    }

    func cellAt(_ cells: [AXNode], _ r: Int, _ c: Int) -> AXNode? {
        cells.first {
            guard let ci = $0.cell else { return false }
            return r >= ci.row && r < ci.row + max(1, ci.rowSpan) && c >= ci.column
                && c < ci.column + max(1, ci.columnSpan)
        }
    }

    func table(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode) -> DBusMethodResult
    {
        let info = n.table ?? AXTableInfo(rows: 0, columns: 0)
        let cs = cells(n)
        switch String(cString: member) {
        case "GetAccessibleAt":
            if let e = check(msg, m, "ii") { return e }
            var i = In(m)
            let r = Int(i.int32())
            let c = Int(i.int32())
            let cell = cellAt(cs, r, c)
            sendReply(replyConn, to: m) { o in writeRef(&o, cell?.id) }
        case "GetIndexAt":
            if let e = check(msg, m, "ii") { return e }
            var i = In(m)
            let r = Int(i.int32())
            let c = Int(i.int32())
            let idx = cellAt(cs, r, c).flatMap { cell in cs.firstIndex { $0.id == cell.id } } ?? -1
            sendReply(replyConn, to: m) { $0.int32(Int32(idx)) }
        case "GetRowAtIndex", "GetColumnAtIndex":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = Int(i.int32())
            let row = strcmp(member, "GetRowAtIndex") == 0
            let v = idx >= 0 && idx < cs.count ? (row ? cs[idx].cell!.row : cs[idx].cell!.column) : -1
            // rows come from the provider: no trap above 2^31
            sendReply(replyConn, to: m) { $0.int32(Int32(clamping: v)) }
        case "GetRowDescription", "GetColumnDescription":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = i.int32()
            let headers =
                strcmp(member, "GetRowDescription") == 0 ? info.rowHeaders[Int(idx)] : info.columnHeaders[Int(idx)]
            let text = (headers ?? []).compactMap { served.tree[$0]?.label }.joined(separator: " ")
            sendReply(replyConn, to: m) { $0.string(text) }
        case "GetRowExtentAt", "GetColumnExtentAt":
            if let e = check(msg, m, "ii") { return e }
            var i = In(m)
            let r = Int(i.int32())
            let c = Int(i.int32())
            let cell = cellAt(cs, r, c)?.cell
            let v = strcmp(member, "GetRowExtentAt") == 0 ? cell?.rowSpan ?? 0 : cell?.columnSpan ?? 0
            sendReply(replyConn, to: m) { $0.int32(Int32(clamping: v)) }
        case "GetRowHeader", "GetColumnHeader":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = Int(i.int32())
            let h = (strcmp(member, "GetRowHeader") == 0 ? info.rowHeaders[idx] : info.columnHeaders[idx])?.first
            sendReply(replyConn, to: m) { o in writeRef(&o, h.flatMap { served.tree[$0] != nil ? $0 : nil }) }
        case "GetSelectedRows", "GetSelectedColumns":
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { o in o.array("i") { _ in } }
        case "IsRowSelected", "IsColumnSelected":
            if let e = check(msg, m, "i") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "IsSelected":
            if let e = check(msg, m, "ii") { return e }
            var i = In(m)
            let r = Int(i.int32())
            let c = Int(i.int32())
            let s = cellAt(cs, r, c)?.states.contains(.selected) ?? false
            sendReply(replyConn, to: m) { $0.bool(s) }
        case "AddRowSelection", "AddColumnSelection", "RemoveRowSelection", "RemoveColumnSelection":
            if let e = check(msg, m, "i") { return e }
            sendReply(replyConn, to: m) { $0.bool(false) }
        case "GetRowColumnExtentsAtIndex":
            if let e = check(msg, m, "i") { return e }
            var i = In(m)
            let idx = Int(i.int32())
            let cell = idx >= 0 && idx < cs.count ? cs[idx] : nil
            sendReply(replyConn, to: m) { o in
                o.bool(cell != nil)
                o.int32(Int32(clamping: cell?.cell?.row ?? -1))
                o.int32(Int32(clamping: cell?.cell?.column ?? -1))
                o.int32(Int32(clamping: cell?.cell?.rowSpan ?? 0))
                o.int32(Int32(clamping: cell?.cell?.columnSpan ?? 0))
                o.bool(cell?.states.contains(.selected) ?? false)
            }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }

    func tableCell(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode)
        -> DBusMethodResult
    {
        let ci = n.cell ?? AXCellInfo(row: 0, rowSpan: 1, column: 0, columnSpan: 1)
        let tableNode = tableOf(n).flatMap { served.tree[$0] }
        switch String(cString: member) {
        case "GetRowColumnSpan":
            if let e = check(msg, m, "") { return e }
            sendReply(replyConn, to: m) { o in
                o.bool(true)
                o.int32(Int32(clamping: ci.row))
                o.int32(Int32(clamping: ci.column))
                o.int32(Int32(clamping: ci.rowSpan))
                o.int32(Int32(clamping: ci.columnSpan))
            }
        case "GetColumnHeaderCells", "GetRowHeaderCells":
            if let e = check(msg, m, "") { return e }
            let col = strcmp(member, "GetColumnHeaderCells") == 0
            let ids = (col ? tableNode?.table?.columnHeaders[ci.column] : tableNode?.table?.rowHeaders[ci.row]) ?? []
            let live = ids.filter { served.tree[$0] != nil }
            sendReply(replyConn, to: m) { o in o.array("(so)") { a in for h in live { writeRef(&a, h) } } }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }

    // MARK: Image

    func image(_ msg: DBusMessage, _ m: OpaquePointer, _ member: UnsafePointer<CChar>, _ n: AXNode) -> DBusMethodResult
    {
        switch String(cString: member) {
        case "GetImageExtents": return replyExtents(.rect, msg, m, n)
        case "GetImagePosition": return replyExtents(.position, msg, m, n)
        case "GetImageSize": return replyExtents(.size, msg, m, n)
        default:
            return .error(.unknownMethod(for: msg))
        }
    }

    // MARK: Cache

    func handleCache(_ msg: DBusMessage, _ iface: UnsafePointer<CChar>?, _ member: UnsafePointer<CChar>)
        -> DBusMethodResult
    {
        let m = msg.pointer
        if cEqual(iface, "org.freedesktop.DBus.Introspectable"), strcmp(member, "Introspect") == 0 {
            let xml = DBusIntrospection.xml(interfaces: [
                DBusInterfaceDescription(
                    name: ATSPIInterface.cache,
                    methods: [.method("GetItems", out: ["a((so)(so)(so)iiassusau)"])],
                    signals: [
                        .signal("AddAccessible", ["((so)(so)(so)iiassusau)"]), .signal("RemoveAccessible", ["(so)"]),
                    ])
            ])
            sendReply(replyConn, to: m) { $0.string(xml) }
            return .handled
        }
        guard cEqual(iface, "org.a11y.atspi.Cache") || iface == nil, strcmp(member, "GetItems") == 0 else {
            return .error(.unknownMethod(for: msg))
        }
        if let e = check(msg, m, "") { return e }
        let tree = served.tree
        sendReply(replyConn, to: m) { o in
            o.array("((so)(so)(so)iiassusau)") { a in
                writeRootItem(&a)
                tree.walk { n, _ in
                    writeItem(&a, n)
                    return true
                }
            }
        }
        HeapTrim.soon()
        return .handled
    }

    func writeRootItem(_ a: inout Out) {
        a.structure { s in
            writeRootRef(&s)
            writeRootRef(&s)
            writeParentRef(&s, .root)
            s.int32(-1)
            s.int32(Int32(clamping: served.tree.windows.count))
            s.array("s") { l in for x in interfaces(.root).names { l.string(x) } }
            s.string(appName)
            s.uint32(ATSPIRole.application.rawValue)
            s.string("")
            s.states(ATSPIStateSet())
        }
    }

    /// One cache item: (object, app root, parent, index in parent, child count, interfaces, name, role, description, states).
    func writeItem(_ a: inout Out, _ n: AXNode) {
        let pr = parentRole(n)
        a.structure { s in
            writeRef(&s, n.id)
            writeRootRef(&s)
            writeParentRef(&s, .node(n))
            s.int32(indexInParent(n))
            s.int32(Int32(clamping: n.children.count))
            s.array("s") { l in for x in ATSPIMapping.interfaces(n, parentRole: pr).names { l.string(x) } }
            s.string(n.label ?? "")
            s.uint32(ATSPIMapping.role(n, parentRole: pr).rawValue)
            s.string(description(n))
            s.states(ATSPIMapping.states(n, parentRole: pr, focused: n.id == served.focusedID))
        }
    }
}

/// Text boundaries over Unicode scalars (AtspiTextGranularity: 0 char, 1 word, 2 sentence, 3 line, 4 paragraph).
package enum TextBoundaries {
    /// The [start, end) range of the unit at `offset` in `t`.
    package static func range(_ t: [Unicode.Scalar], _ offset: Int, granularity g: UInt32) -> (Int, Int) {
        let n = t.count
        if g >= 3, offset == n, n > 0, t[n - 1] != "\n" {
            // The caret after the last character is on the last line (as GTK/ATK and Gecko answer): Orca's where am
            // I reads the line at the caret, and after typing the caret is at the end.
            return range(t, n - 1, granularity: g)
        }
        guard offset >= 0, offset < n else { return (min(max(offset, 0), n), min(max(offset, 0), n)) }
        func isSpace(_ c: Unicode.Scalar) -> Bool { c.properties.isWhitespace }
        switch g {
        case 0: return (offset, offset + 1)
        case 1:
            // A word plus its trailing whitespace (ATK's WORD_START convention).
            var a = offset
            if isSpace(t[a]) {
                while a > 0 && isSpace(t[a - 1]) { a -= 1 }
                while a > 0 && !isSpace(t[a - 1]) { a -= 1 }
            } else {
                while a > 0 && !isSpace(t[a - 1]) { a -= 1 }
            }
            var b = max(offset, a)
            while b < n && !isSpace(t[b]) { b += 1 }
            while b < n && isSpace(t[b]) { b += 1 }
            return (a, b)
        case 2:
            var a = offset
            while a > 0 && !".!?\n".unicodeScalars.contains(t[a - 1]) { a -= 1 }
            while a < offset && isSpace(t[a]) { a += 1 }
            var b = offset
            while b < n && !".!?\n".unicodeScalars.contains(t[b]) { b += 1 }
            if b < n { b += 1 }
            while b < n && t[b] == " " { b += 1 }
            return (a, b)
        default:
            var a = offset
            while a > 0 && t[a - 1] != "\n" { a -= 1 }
            var b = offset
            while b < n && t[b] != "\n" { b += 1 }
            if b < n { b += 1 }
            return (a, b)
        }
    }
}

/// A whole-tree reply (GetItems) leaves megabytes of freed message buffers in the heap; hand them back to the
/// system shortly after it is sent (at most once a second), so a server's resident size reflects what it keeps.
package enum HeapTrim {
    private static let last = Mutex<UInt64>(0)

    /// Returns freed heap memory to the system now.
    package static func trimNow() { _ = atspi_malloc_trim(0) }

    static func soon() {
        let now = monotonicNow()
        let go = last.withLock { l -> Bool in
            if l != 0 && now &- l < 1_000_000_000 { return false }
            l = now
            return true
        }
        guard go else { return }
        Task.detached {
            try? await Task.sleep(for: .milliseconds(250))
            trimNow()
        }
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("malloc_trim") func atspi_malloc_trim(_ pad: Int) -> Int32
