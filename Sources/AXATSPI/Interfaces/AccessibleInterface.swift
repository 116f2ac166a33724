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
        let memberName = String(cString: member)
        if let result = accessibleStructureQuery(memberName, msg, rawMessage, object) { return result }
        if let result = accessibleDescriptionQuery(memberName, msg, rawMessage, object) { return result }
        return .error(.unknownMethod(for: msg))
    }

    /// The Accessible methods about the object's place in the tree: children, index, relations, application
    /// (nil: not one of them).
    private func accessibleStructureQuery(
        _ memberName: String, _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ object: ServedObject
    ) -> DBusMethodResult? {
        let model = accessibleModel
        switch memberName {
        case "GetChildAtIndex":
            if let failure = check(msg, rawMessage, "i") { return failure }
            var input = DBusFastReader(rawMessage)
            let index = input.int32()
            guard index >= 0 else { return .error(.invalidArgs("GetChildAtIndex: negative index \(index)")) }
            return reply(msg, rawMessage, "i") { _, out in writeRef(&out, model.child(of: object, at: index)) }
        case "GetChildren":
            return reply(msg, rawMessage, "") { _, out in
                out.array("(so)") { array in
                    for child in model.children(of: object) { writeRef(&array, child) }
                }
            }
        case "GetIndexInParent":
            return reply(msg, rawMessage, "") { _, out in
                out.int32(model.indexInParent(of: object, cache: &siblingIndex))
            }
        case "GetRelationSet":
            return reply(msg, rawMessage, "") { _, out in writeRelations(&out, model.relations(of: object)) }
        case "GetApplication": return reply(msg, rawMessage, "") { _, out in writeRootRef(&out) }
        default: return nil
        }
    }

    /// `GetRelationSet`'s reply `a(ua(so))`.
    private func writeRelations(_ out: inout DBusFastWriter, _ relations: [(type: UInt32, targets: [String])]) {
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

    /// The Accessible methods that describe the object: role, state, attributes, interfaces (nil: not one of them).
    private func accessibleDescriptionQuery(
        _ memberName: String, _ msg: DBusMessage, _ rawMessage: OpaquePointer, _ object: ServedObject
    ) -> DBusMethodResult? {
        let model = accessibleModel
        switch memberName {
        case "GetRole": return reply(msg, rawMessage, "") { $1.uint32(model.role(of: object).rawValue) }
        case "GetRoleName", "GetLocalizedRoleName":
            return reply(msg, rawMessage, "") { $1.string(model.role(of: object).name) }
        case "GetState": return reply(msg, rawMessage, "") { $1.states(model.states(of: object)) }
        case "GetAttributes": return reply(msg, rawMessage, "") { $1.stringDictionary(model.attributes(of: object)) }
        case "GetInterfaces":
            return reply(msg, rawMessage, "") { _, out in
                out.array("s") { array in
                    for name in model.interfaces(of: object).names { array.string(name) }
                }
            }
        default: return nil
        }
    }
}
