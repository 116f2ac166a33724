import AXCore
import AXHub
import AXInsight
import AXJSON
import AXJSONRPC
import AXProtocol

/// `speech.describe` and `speech.walk` (Specs/protocol.md §Speech; D-SPEECH-1, D-SPEECH-2). The models live in
/// AXInsight; this file only reads params and writes the answer.
extension AXMethods {
    static let speechModels = ["voiceOver", "orca"]
    static let speechWalkDefaultLimit = 5000
    static let speechWalkMaxLimit = 250_000

    static func installSpeech(_ router: RPCRouter, _ hub: Hub) {
        router.registerSync(.speechDescribe) { params, session in
            let arguments = try Params(params, RPCCatalog.SpeechDescribe.self)
            let snap = try snapshot(arguments, hub, session)
            guard let target = arguments[.target] else {
                throw arguments.bad(.target, "is required ({id} or {selector})")
            }
            let id = try Targets.resolveOne(target, in: snap, hub: hub, method: RPCMethodName.speechDescribe.rawValue)
            let models = try speechModelParam(arguments, .model)
            let reader = try screenReaderParam(arguments, .screenReader)
            guard let node = snap.tree[id] else {
                throw RPCError.noSuchElement("no element '\(id)'", data: ["id": .string(id)])
            }
            var out: RPCResultObject<RPCCatalog.SpeechDescribe.Member> = [
                .element: .string(id), .revision: JSON(snap.revision),
            ]
            if models.contains("voiceOver") {
                out[.voiceOver] = voiceOverJSON(VoiceOverSpeech.describe(node, in: snap.tree))
            }
            if models.contains("orca") { out[.orca] = orcaJSON(node, snap.tree, reader: reader) }
            return out.json
        }
        router.registerSync(.speechWalk) { params, session in
            let arguments = try Params(params, RPCCatalog.SpeechWalk.self)
            let snap = try snapshot(arguments, hub, session)
            var rootID: String?
            if let root = arguments[.root] {
                rootID = try Targets.resolveOne(
                    root, in: snap, hub: hub, method: RPCMethodName.speechWalk.rawValue, param: arguments.name(.root))
            }
            let models = try speechModelParam(arguments, .model)
            let reader = try screenReaderParam(arguments, .screenReader)
            let limit = try arguments.int(.limit, in: 0...speechWalkMaxLimit) ?? speechWalkDefaultLimit
            let wantsVoiceOver = models.contains("voiceOver")
            let wantsOrca = models.contains("orca")
            let (items, omitted) = SpeechWalk.walk(
                snap.tree, root: rootID, limit: limit, voiceOver: wantsVoiceOver, orca: wantsOrca, reader: reader)
            let list: [JSON] = items.map { item in
                var object = JSONObject(minimumCapacity: 3)
                object.appendUnchecked("id", .string(item.id))
                if wantsVoiceOver { object.appendUnchecked("voiceOver", .string(item.voiceOver.text)) }
                if wantsOrca { object.appendUnchecked("orca", JSON(item.orca)) }
                return .object(object)
            }
            var out: RPCResultObject<RPCCatalog.SpeechWalk.Member> = [
                .revision: JSON(snap.revision), .count: JSON(items.count), .items: .array(list),
            ]
            if omitted > 0 { out[.truncated] = ["kind": "limit", "limit": JSON(limit), "omitted": JSON(omitted)] }
            return out.json
        }
    }

    /// `model`: "voiceOver", "orca" or both (default).
    static func speechModelParam<Key>(_ arguments: Params<Key>, _ key: Key) throws(RPCError) -> [String] {
        guard let model = try arguments.string(key) else { return speechModels }
        guard speechModels.contains(model) else {
            throw RPCError.invalidParams(
                "\(arguments.method): '\(key.rawValue)' must be one of \(speechModels.joined(separator: ", "))",
                data: [
                    "param": .string(key.rawValue), "method": .string(arguments.method), "accepted": JSON(speechModels),
                ])
        }
        return [model]
    }

    /// `screenReader`: whose phrasing the Orca model speaks in ("orca-43", the default, or "orca-48"; D-SPEECH-3).
    static func screenReaderParam<Key>(_ arguments: Params<Key>, _ key: Key) throws(RPCError) -> ScreenReaderVersion {
        guard let name = try arguments.string(key) else { return .standard }
        guard let reader = ScreenReaderVersion(rawValue: name) else {
            let accepted = ScreenReaderVersion.allCases.map(\.rawValue)
            throw RPCError.invalidParams(
                "\(arguments.method): '\(key.rawValue)' must be one of \(accepted.joined(separator: ", "))",
                data: ["param": .string(key.rawValue), "method": .string(arguments.method), "accepted": JSON(accepted)])
        }
        return reader
    }

    static func voiceOverJSON(_ utterance: VoiceOverUtterance) -> JSON {
        let parts: [JSON] = utterance.parts.map { ["kind": .string($0.kind), "text": .string($0.text)] }
        return ["text": .string(utterance.text), "parts": .array(parts), "hint": JSON(utterance.hint)]
    }

    static func orcaJSON(_ node: AXNode, _ tree: AXTree, reader: ScreenReaderVersion) -> JSON {
        let parentRole = node.parent.flatMap { tree[$0]?.role }
        return [
            "utterances": JSON(OrcaSpeech.describe(node, in: tree, reader: reader)),
            "role": .string(OrcaSpeech.roleName(node, parentRole: parentRole, reader: reader)),
            "screenReader": .string(reader.rawValue),
        ]
    }
}
