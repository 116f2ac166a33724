import AXATSPIModel
import AXCore
import AXDBus
import CDBus

#if canImport(Glibc)
    import Glibc
#endif

extension AppBridge {
    /// `org.a11y.atspi.Accessible`: reads the arguments, asks `AccessibleModel`, writes the reply.
    func accessible(
        _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ member: UnsafePointer<CChar>, _ object: ServedObject
    )
        -> DBusMethodResult
    {
        let model = accessibleModel
        switch String(cString: member) {
        case "GetChildAtIndex":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let index = input.int32()
            guard index >= 0 else { return .error(.invalidArgs("GetChildAtIndex: negative index \(index)")) }
            let child = model.child(of: object, at: index)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in writeRef(&out, child) }
        case "GetChildren":
            if let failure = check(msg, rawMessage, "") { return failure }
            let children = model.children(of: object)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.array("(so)") { array in
                    for child in children { writeRef(&array, child) }
                }
            }
        case "GetIndexInParent":
            if let failure = check(msg, rawMessage, "") { return failure }
            let index = model.indexInParent(of: object, cache: &siblingIndex)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.int32(index) }
        case "GetRelationSet":
            if let failure = check(msg, rawMessage, "") { return failure }
            let relations = model.relations(of: object)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.array("(ua(so))") { array in
                    for relation in relations {
                        array.structure { item in
                            item.uint32(relation.type)
                            item.array("(so)") { targets in
                                for target in relation.targets { writeRef(&targets, target) }
                            }
                        }
                    }
                }
            }
        case "GetRole":
            if let failure = check(msg, rawMessage, "") { return failure }
            let role = model.role(of: object).rawValue
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.uint32(role) }
        case "GetRoleName", "GetLocalizedRoleName":
            if let failure = check(msg, rawMessage, "") { return failure }
            let role = model.role(of: object)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.string(role.name) }
        case "GetState":
            if let failure = check(msg, rawMessage, "") { return failure }
            let states = model.states(of: object)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.states(states) }
        case "GetAttributes":
            if let failure = check(msg, rawMessage, "") { return failure }
            let attributes = model.attributes(of: object)
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { $0.stringDictionary(attributes) }
        case "GetApplication":
            if let failure = check(msg, rawMessage, "") { return failure }
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { writeRootRef(&$0) }
        case "GetInterfaces":
            if let failure = check(msg, rawMessage, "") { return failure }
            let names = model.interfaces(of: object).names
            DBusFastWriter.sendReply(on: replyConn, to: rawMessage) { out in
                out.array("s") { array in
                    for name in names { array.string(name) }
                }
            }
        default:
            return .error(.unknownMethod(for: msg))
        }
        return .handled
    }
}
