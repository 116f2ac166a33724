// The protocol catalog's vocabulary (Specs/protocol.md §The catalog, D-CATALOG-1): what one method declaration
// holds, the typed handle a client calls it by, and the JSON kinds and roles its entries use.
import AXJSON
import AXJSONRPC

/// The JSON kind a parameter's value must have.
public enum RPCParamKind: String, Sendable, CaseIterable {
    /// A JSON string.
    case string
    /// An integral JSON number (checked against the method's range, Specs/protocol.md §Integer parameters).
    case integer
    /// A finite JSON number.
    case number
    /// `true` or `false`.
    case boolean
    /// A JSON array.
    case array
    /// A JSON object.
    case object
    /// A target: `{id}`, `{selector}`, `{ast}` or a bare selector string (Specs/protocol.md §Common shapes).
    case target
    /// A point in screen coordinates: `{x, y}` or `[x, y]`.
    case point
    /// Any JSON value.
    case any
}

/// A connection's role (Specs/protocol.md §Roles and trust, D-TRUST-1).
public enum RPCRole: String, Sendable, CaseIterable {
    /// The default: reads, queries, waits, acts, subscribes.
    case automation
    /// A connection that registered an app (`app.register`): may also change its own app.
    case provider
    /// A connection that proved the operator token: may also set guided-access restrictions.
    case `operator`
}

/// Who may call a method.
public enum RPCCallers: String, Sendable, CaseIterable {
    /// Every role.
    case everyone
    /// Only a provider, and only for its own app (−32018 `needs: provider` otherwise).
    case providers
    /// Only the kiosk operator (−32018 `needs: operator` otherwise).
    case operators

    /// The roles that may call.
    public var roles: [RPCRole] {
        switch self {
        case .everyone: RPCRole.allCases
        case .providers: [.provider]
        case .operators: [.operator]
        }
    }
}

/// The sections of Specs/protocol.md §Methods, in the order the document lists them.
public enum RPCSection: String, Sendable, CaseIterable {
    /// §Lifecycle.
    case lifecycle = "Lifecycle"
    /// §Provider role.
    case providerRole = "Provider role"
    /// §Tree.
    case tree = "Tree"
    /// §Query.
    case query = "Query"
    /// §Waiting.
    case waiting = "Waiting"
    /// §App reset.
    case appReset = "App reset"
    /// §Actions.
    case actions = "Actions"
    /// §Script queries.
    case scriptQueries = "Script queries"
    /// §Focus.
    case focus = "Focus"
    /// §Focus engine.
    case focusEngine = "Focus engine"
    /// §Keys.
    case keys = "Keys"
    /// §Settings.
    case settings = "Settings"
    /// §Rotors.
    case rotors = "Rotors"
    /// §Events.
    case events = "Events"
    /// §Guided access.
    case guidedAccess = "Guided access"
    /// §Audits.
    case audits = "Audits"
    /// §Speech.
    case speech = "Speech"
    /// §Pictures.
    case pictures = "Pictures"
}

/// The parameter keys of one method (besides `app`, which every method takes): a closed set, each with its kind.
public protocol RPCParameterKey: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The JSON kind of the value.
    var kind: RPCParamKind { get }
    /// The strings the value may be, for a key that takes one of a closed set (nil: any value of its kind).
    var values: [String]? { get }
}

extension RPCParameterKey {
    /// Any value of its kind.
    public var values: [String]? { nil }
}

/// The key set of a method that takes a `target` (an element to act on or read).
public protocol RPCTargetParameterKey: RPCParameterKey {
    /// The `target` key.
    static var target: Self { get }
}

/// The key set of an element action's method (`action.<name>`): a target, `force`, and the action's payload keys.
public protocol RPCActionParameterKey: RPCTargetParameterKey {
    /// The `force` key (skip the actionability checks).
    static var force: Self { get }
}

/// The key set of a query method: a selector (or its `ast`) and the element the search starts at.
public protocol RPCSelectorParameterKey: RPCParameterKey {
    /// The `selector` key.
    static var selector: Self { get }
    /// The `ast` key (the selector as a parsed tree).
    static var ast: Self { get }
    /// The `root` key.
    static var root: Self { get }
}

/// The key set of a method that takes no parameter besides `app`.
public enum RPCNoParam: String, RPCParameterKey {
    /// Never sent: the type has to have a case to be a string enum.
    case none = ""

    /// The JSON kind of the value.
    public var kind: RPCParamKind { .any }

    /// No keys.
    public static var allCases: [RPCNoParam] { [] }
}

/// The members of one method's result object (or of each object of its array): a closed set, each with its JSON
/// kind, declared with the method (D-CATALOG-5). Clients read an answer by these keys, and the conformance runner
/// holds every answer to them.
public protocol RPCResultKey: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The JSON kind of the value.
    var kind: RPCParamKind { get }
    /// The members whose value may be `null`.
    static var nullable: Set<Self> { get }
    /// The members whose value is an element object, or an array of them (`RPCElementField`; a tree's nodes with
    /// their `children` nested).
    static var carryingElements: Set<Self> { get }
}

extension RPCResultKey {
    /// No member is `null`.
    public static var nullable: Set<Self> { [] }
    /// No member carries elements.
    public static var carryingElements: Set<Self> { [] }
}

/// The member set of a method that acts and answers whether the app performed it (`performed`).
public protocol RPCPerformedResultKey: RPCResultKey {
    /// The `performed` member (boolean).
    static var performed: Self { get }
}

/// The member set of a method whose result is not an object of members (an element, a string, `null`).
public enum RPCNoMember: String, RPCResultKey {
    /// Never answered: the type has to have a case to be a string enum.
    case none = ""

    /// The JSON kind of the value.
    public var kind: RPCParamKind { .any }

    /// No members.
    public static var allCases: [RPCNoMember] { [] }
}

/// One method's declaration: a type whose `Param` is its key set, whose `Member` is its result's member set and whose
/// `entry` says the rest.
public protocol RPCMethodSpec: Sendable {
    /// The method's parameter keys.
    associatedtype Param: RPCParameterKey
    /// The members of the method's result (`RPCNoMember` when it answers no object of members).
    associatedtype Member: RPCResultKey = RPCNoMember
    /// What the catalog says about the method.
    static var entry: RPCMethodEntry { get }
}

/// A declared parameter: its wire key and kind.
public struct RPCParamEntry: Sendable, Equatable {
    /// The wire key.
    public let name: String
    /// The JSON kind of its value.
    public let kind: RPCParamKind
    /// The strings the value may be, for a closed set (nil: any value of its kind).
    public let values: [String]?
}

/// A declared member of a method's result: its key, its JSON kind and whether it may be `null`.
public struct RPCResultMemberEntry: Sendable, Equatable {
    /// The key.
    public let name: String
    /// The JSON kind of its value.
    public let kind: RPCParamKind
    /// Whether its value may be `null`.
    public let nullable: Bool
    /// Whether its value is an element object or an array of them.
    public let carriesElements: Bool

    /// Why `value` is not of the member's kind, or holds an element that is not one (nil when it is).
    func mismatch(_ value: JSON) -> String? {
        if value == .null { return nullable ? nil : "null, which it is not declared to be" }
        if let why = kindMismatch(value) { return why }
        guard carriesElements else { return nil }
        for element in value.arrayValue ?? [value] {
            if let why = RPCResultShape.elementMismatch(element) { return "an element: " + why }
        }
        return nil
    }

    /// Why `value` is not of the member's kind.
    private func kindMismatch(_ value: JSON) -> String? {
        let fits: Bool
        switch kind {
        case .string: fits = value.stringValue != nil
        case .integer: fits = value.doubleValue.map { $0.rounded() == $0 } ?? false
        case .number, .boolean, .array, .object: fits = value.typeName == kind.rawValue
        case .target: fits = value.stringValue != nil || value.objectValue != nil
        case .point: fits = value.arrayValue != nil || value.objectValue != nil
        case .any: fits = true
        }
        return fits ? nil : "\(value.typeName) instead of \(kind.rawValue == "integer" ? "an" : "a") \(kind.rawValue)"
    }

    /// The member as protocol.json lists it: `{"name": …, "kind": …}`, with `"nullable": true` when it may be null.
    var json: JSON {
        var object: JSONObject = ["name": .string(name), "kind": .string(kind.rawValue)]
        if nullable { object["nullable"] = true }
        if carriesElements { object["elements"] = true }
        return .object(object)
    }

    /// The members of `keys`, in declaration order.
    static func of<Key: RPCResultKey>(_ keys: Key.Type) -> [RPCResultMemberEntry] {
        Key.allCases.map { key in
            RPCResultMemberEntry(
                name: key.rawValue, kind: key.kind, nullable: Key.nullable.contains(key),
                carriesElements: Key.carryingElements.contains(key))
        }
    }
}

/// What a method answers: the JSON form of its result and the members it may have, declared with the method
/// (Specs/protocol.md §Methods describes each member). The conformance runner checks every answer it sees against
/// it, so a member added on one side only fails a case that names the method (D-CATALOG-5).
public enum RPCResultShape: Sendable, Equatable {
    /// An object whose members are among these (a member may be absent from some answers).
    case object([RPCResultMemberEntry])
    /// An array of objects whose members are among these.
    case objects([RPCResultMemberEntry])
    /// An element object (Specs/protocol.md §Common shapes: `id`, `role`, … and the fields the method adds).
    case element
    /// A string.
    case string
    /// `null`.
    case null

    /// An object of the members `keys` declares.
    static func object<Key: RPCResultKey>(_ keys: Key.Type) -> Self { .object(RPCResultMemberEntry.of(keys)) }

    /// An array of objects of the members `keys` declares.
    static func objects<Key: RPCResultKey>(_ keys: Key.Type) -> Self { .objects(RPCResultMemberEntry.of(keys)) }

    /// Why `result` does not have this shape (nil when it has): the first member not declared, or the JSON kind
    /// found instead of the declared one.
    public func mismatch(_ result: JSON) -> String? {
        switch self {
        case .object(let members): Self.objectMismatch(result, members)
        case .objects(let members): Self.arrayMismatch(result, members)
        case .element: Self.elementMismatch(result)
        case .string: result.stringValue == nil ? "\(result.typeName) instead of a string" : nil
        case .null: result == .null ? nil : "\(result.typeName) instead of null"
        }
    }

    /// Why `result` is not an object of `members`.
    private static func objectMismatch(_ result: JSON, _ members: [RPCResultMemberEntry]) -> String? {
        guard case .object(let object) = result else { return "\(result.typeName) instead of an object" }
        for (key, value) in object {
            guard let member = members.first(where: { $0.name == key }) else {
                return "the member `\(key)`, which is not declared"
            }
            if let why = member.mismatch(value) { return "the member `\(key)` as \(why)" }
        }
        return nil
    }

    /// The members of an element object.
    static let elementMembers = RPCResultMemberEntry.of(RPCElementField.self)

    /// Why `result` is not an element object: one with an `id`, of the members `RPCElementField` declares (a tree
    /// node's nested `children` each one too).
    static func elementMismatch(_ result: JSON) -> String? {
        guard result[RPCElementField.id.rawValue]?.stringValue != nil else {
            return "no element (an object with an `id`)"
        }
        if let why = objectMismatch(result, elementMembers) { return why }
        for child in result[RPCElementField.children.rawValue]?.arrayValue ?? [] where child.objectValue != nil {
            if let why = elementMismatch(child) { return "a child: " + why }
        }
        return nil
    }

    /// Why `result` is not an array of objects of `members`.
    private static func arrayMismatch(_ result: JSON, _ members: [RPCResultMemberEntry]) -> String? {
        guard case .array(let items) = result else { return "\(result.typeName) instead of an array" }
        for item in items {
            if let why = objectMismatch(item, members) { return "an item: " + why }
        }
        return nil
    }

    /// The shape as protocol.json lists it: `{"kind": …, "members": […]}`.
    public var json: JSON {
        switch self {
        case .object(let members): ["kind": "object", "members": .array(members.map(\.json))]
        case .objects(let members): ["kind": "array of objects", "members": .array(members.map(\.json))]
        case .element: ["kind": "element"]
        case .string: ["kind": "string"]
        case .null: ["kind": "null"]
        }
    }

    /// The shape as protocol.md's index shows it: `{app, reclaimToken}`, `[{id, name}]`, `element`, `string`,
    /// `null`.
    public var markdown: String {
        switch self {
        case .object(let members): "`{" + members.map(\.name).joined(separator: ", ") + "}`"
        case .objects(let members): "`[{" + members.map(\.name).joined(separator: ", ") + "}]`"
        case .element: "element"
        case .string: "string"
        case .null: "`null`"
        }
    }
}

/// What the catalog says about one method.
public struct RPCMethodEntry: Sendable {
    /// The wire name.
    public let name: RPCMethodName
    /// The parameter keys (besides `app`), in declaration order.
    public let params: [RPCParamEntry]
    /// Where Specs/protocol.md describes it.
    public let section: RPCSection
    /// Who may call it.
    public let callers: RPCCallers
    /// False for the methods a session may call before `initialize` (`initialize`, `ping`).
    public let requiresInitialize: Bool
    /// One line about what it does.
    public let summary: String
    /// The error codes particular to it (`RPCError.Code`); every method may also answer −32602 and −32603, and
    /// −32002 before `initialize` when `requiresInitialize`.
    public let errors: [Int]
    /// What it answers.
    public let result: RPCResultShape

    init<Param: RPCParameterKey>(
        _ name: RPCMethodName, _ keys: Param.Type, section: RPCSection, roles: RPCCallers,
        requiresInitialize: Bool = true, summary: String, result: RPCResultShape, errors: [Int]
    ) {
        self.name = name
        self.params = Param.allCases.map { RPCParamEntry(name: $0.rawValue, kind: $0.kind, values: $0.values) }
        self.section = section
        self.callers = roles
        self.requiresInitialize = requiresInitialize
        self.summary = summary
        self.result = result
        self.errors = errors
    }

    /// The parameter keys as a set (besides `app`).
    public var parameterNames: Set<String> { Set(params.map(\.name)) }
}

/// A method as a client calls it: `client.call(.treeGet, [.format: "json"])` names the method by a symbol and only
/// compiles with keys the method declares.
public struct RPCMethod<Spec: RPCMethodSpec>: Sendable {
    init() {}

    /// The wire name.
    public var name: RPCMethodName { Spec.entry.name }
    /// The wire name as a string.
    public var wireName: String { Spec.entry.name.rawValue }

}

/// The params of one call, keyed by the method's declared keys, in the order written (JSON-RPC's by-name params).
public struct RPCParams<Key: RPCParameterKey>: Sendable, ExpressibleByDictionaryLiteral {
    /// The params object as it goes on the wire.
    public private(set) var object: JSONObject

    /// The members of the literal, in order.
    public init(dictionaryLiteral elements: (Key, JSON)...) {
        object = JSONObject(minimumCapacity: elements.count)
        for (key, value) in elements { object[key.rawValue] = value }
    }

    /// The value of `key`; setting nil removes it.
    public subscript(key: Key) -> JSON? {
        get { object[key.rawValue] }
        set { object[key.rawValue] = newValue }
    }
}

/// A method's answer, read by the members its catalog entry declares (D-CATALOG-5): `reply[.count]?.intValue`
/// compiles only with a member the method answers, and the conformance runner holds the server to each member's kind.
public struct RPCReply<Member: RPCResultKey>: Sendable {
    /// The answer as it came.
    public let json: JSON

    /// The answer `json`, read by `Member`.
    public init(_ json: JSON) { self.json = json }

    /// The value of `member` (nil when the answer does not have it).
    public subscript(member: Member) -> JSON? { json[member.rawValue] }
}

/// A method's answer object as the server builds it, keyed by the members the method declares (D-CATALOG-6):
/// `RPCCatalog.QueryCount.answer([.count: 3, .revision: 7])` compiles only with members `query.count` answers. The
/// members go on the wire in the order written.
public struct RPCResultObject<Member: RPCResultKey>: Sendable, ExpressibleByDictionaryLiteral {
    /// The object as it goes on the wire.
    public private(set) var object: JSONObject

    /// The members of the literal, in order.
    public init(dictionaryLiteral elements: (Member, JSON)...) {
        object = JSONObject(minimumCapacity: elements.count)
        for (member, value) in elements { object[member.rawValue] = value }
    }

    /// The object `members` (`RPCResultObject<M>([.a: 1])`).
    public init(_ members: Self) { self = members }

    /// The value of `member`; setting nil removes it.
    public subscript(member: Member) -> JSON? {
        get { object[member.rawValue] }
        set { object[member.rawValue] = newValue }
    }

    /// The object as a JSON value.
    public var json: JSON { .object(object) }
}

extension RPCMethodSpec {
    /// The method's answer: an object of its declared members, in the order written.
    public static func answer(_ members: RPCResultObject<Member>) -> JSON { members.json }
}

/// One request as it goes on the wire, built from the catalog's typed keys: the method's name and its by-name
/// params (`RPCMethod.treeGet.request([.format: "json"], app: id)`), for a caller without a typed client (the
/// provider library, the conformance runner, the fuzzers and the bench). A key its method does not declare does
/// not compile (D-CATALOG-3).
public struct RPCRequest: Sendable {
    /// The wire name.
    public let method: String
    /// The params object.
    public let params: JSONObject

    /// The params as a JSON value.
    public var json: JSON { .object(params) }
}

extension RPCMethod {
    /// The request for this method with `params`, naming `app` when given.
    public func request(_ params: RPCParams<Spec.Param> = [:], app: String? = nil) -> RPCRequest {
        request(snapshot: params.object, app: app)
    }

    /// The request for this method with a params object built from another declaration: `hierarchy.set`'s
    /// params are the app's snapshot, whose keys AXSchema declares.
    public func request(snapshot object: JSONObject, app: String? = nil) -> RPCRequest {
        var object = object
        if let app { object[rpcAppParameter] = .string(app) }
        return RPCRequest(method: wireName, params: object)
    }
}

/// What `initialize` answers about the server (`serverInfo`, `protocolVersion`), declared once for the server and
/// its clients.
public enum RPCServerInfo {
    /// `serverInfo.name`.
    public static let name = "axserver"
    /// `serverInfo.version`.
    public static let version = "0.1.0"
    /// `protocolVersion` (Specs/protocol.md).
    public static let protocolVersion = "1.0"
}

/// The key every method takes: the app (an app id or name) it acts on (Specs/protocol.md §Common shapes).
public let rpcAppParameter = "app"

extension RPCSection {
    /// The wire-name prefix of the section's methods where they share one (`action.` for §Actions).
    public var methodPrefix: String {
        let names = RPCMethodName.allCases.filter { $0.entry.section == self }.map(\.rawValue)
        guard let first = names.first, let dot = first.firstIndex(of: ".") else { return "" }
        let prefix = String(first[...dot])
        return names.allSatisfy { $0.hasPrefix(prefix) } ? prefix : ""
    }
}
