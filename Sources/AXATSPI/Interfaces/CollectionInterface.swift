import AXATSPIModel
import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension MatchRule {
    /// Reads a match rule at the reader's position (the Collection methods' first argument).
    package static func read(_ reader: DBusReader) throws(AXDBus.DBusError) -> MatchRule {
        var rule = MatchRule()
        try reader.enterStruct()
        let stateWords = try reader.readInt32Array()
        for (index, word) in stateWords.prefix(2).enumerated() {
            rule.states |= UInt64(UInt32(bitPattern: word)) << UInt64(32 * index)
        }
        rule.stateMatch = CollectionMatchType(wireValue: try reader.readInt32())
        rule.setAttributes(try reader.readStringDictionary())
        rule.attributeMatch = CollectionMatchType(wireValue: try reader.readInt32())
        rule.roleWords = try reader.readInt32Array().map { UInt32(bitPattern: $0) }
        rule.roleMatch = CollectionMatchType(wireValue: try reader.readInt32())
        rule.setInterfaces(try reader.readStringArray())
        rule.interfaceMatch = CollectionMatchType(wireValue: try reader.readInt32())
        _ = try reader.readBool()  // invert: read and ignored, like the reference implementation
        try reader.leave()
        return rule
    }
}

extension AppBridge {
    /// `org.a11y.atspi.Collection`: reads the rule and arguments, asks `CollectionModel`, writes the matches.
    func collection(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ object: ServedObject
    )
        -> DBusMethodResult
    {
        let name = String(cString: member)
        if name == "GetActiveDescendant" {
            if let failure = check(msg, rawMessage, "") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { writeNullRef(&$0) }
            return .handled
        }
        let model = CollectionModel(snapshot: served)
        let reader = msg.reader()
        var matches: [String] = []
        do throws(DBusError) {
            switch name {
            case "GetMatches":
                if let failure = check(msg, rawMessage, "(aiia{ss}iaiiasib)uib") { return failure }
                let rule = try MatchRule.read(reader)
                let sortOrder = CollectionSortOrder(wireValue: try reader.readUInt32())
                let count = try reader.readInt32()
                let traverse = try reader.readBool()
                matches = model.matches(
                    in: object, rule: rule, sortOrder: sortOrder, count: count, traverse: traverse)
            case "GetMatchesTo", "GetMatchesFrom":
                let before = name == "GetMatchesTo"
                if before {
                    if let failure = check(msg, rawMessage, "o(aiia{ss}iaiiasib)uubib") { return failure }
                } else {
                    if let failure = check(msg, rawMessage, "o(aiia{ss}iaiiasib)uuib") { return failure }
                }
                let currentPath = try reader.readObjectPath()
                let rule = try MatchRule.read(reader)
                let sortOrder = CollectionSortOrder(wireValue: try reader.readUInt32())
                _ = try reader.readUInt32()  // tree traversal type
                if before { _ = try reader.readBool() }  // limit_scope
                let count = try reader.readInt32()
                let traverse = try reader.readBool()
                guard sortOrder.isSupported else { break }
                let currentID: String? = currentPath.withCString { path -> String? in resolve(path)?.node?.id }
                guard let currentID,
                    let found = model.matches(
                        in: object, relativeTo: currentID, before: before, rule: rule, sortOrder: sortOrder,
                        count: count, traverse: traverse)
                else {
                    return .error(.unknownObject(path: currentPath))
                }
                matches = found
            default:
                return .error(.unknownMethod(for: msg))
            }
        } catch {
            return .error(error)
        }
        DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
            out.array("(so)") { array in
                for id in matches { writeRef(&array, id) }
            }
        }
        return .handled
    }
}
