import AXJSON

/// How one property's value is read from and written to JSON, for a typed model of the schema (the provider
/// library's). Reading is lenient (Specs/hierarchy.md §One schema table): nil means "not in the modelled form", and the
/// caller keeps the value as given instead of refusing it.
public struct SchemaCodec<Value>: Sendable {
    /// The form this codec reads and writes; must match the schema row it is bound to.
    public let form: SchemaForm
    /// The typed value, or nil when `json` is not in the modelled form.
    public let decode: @Sendable (JSON) -> Value?
    /// The JSON form of a value.
    public let encode: @Sendable (Value) -> JSON

    /// A codec for `form` from a reader and a writer.
    public init(
        _ form: SchemaForm, decode: @escaping @Sendable (JSON) -> Value?, encode: @escaping @Sendable (Value) -> JSON
    ) {
        self.form = form
        self.decode = decode
        self.encode = encode
    }
}

extension SchemaCodec where Value == Bool {
    /// `true` or `false`.
    public static var boolean: SchemaCodec { SchemaCodec(.boolean, decode: { $0.boolValue }, encode: { .bool($0) }) }
}

extension SchemaCodec where Value == String {
    /// A string.
    public static var string: SchemaCodec { SchemaCodec(.string, decode: { $0.stringValue }, encode: { .string($0) }) }
}

extension SchemaCodec where Value == Double {
    /// A finite number.
    public static var number: SchemaCodec {
        SchemaCodec(
            .number,
            decode: { json in
                guard case .number(let number) = json, number.isFinite else { return nil }
                return number
            }, encode: { .number($0) })
    }
}

extension SchemaCodec where Value == Int {
    /// An integer.
    public static var integer: SchemaCodec { SchemaCodec(.integer, decode: { $0.intValue }, encode: { JSON($0) }) }
}

extension SchemaCodec where Value == [String] {
    /// An array of strings (nil when any item is not a string).
    public static var strings: SchemaCodec {
        SchemaCodec(
            .strings,
            decode: { json in
                guard let items = json.arrayValue else { return nil }
                var strings: [String] = []
                strings.reserveCapacity(items.count)
                for item in items {
                    guard let string = item.stringValue else { return nil }
                    strings.append(string)
                }
                return strings
            }, encode: { JSON($0) })
    }
}

extension SchemaCodec where Value: RawRepresentable & Sendable, Value.RawValue == String {
    /// One name of a string enumeration (`form` `.choice`).
    public static var choice: SchemaCodec {
        SchemaCodec(
            .choice, decode: { $0.stringValue.flatMap(Value.init(rawValue:)) }, encode: { .string($0.rawValue) })
    }
}

/// One row of the schema bound to a stored property of `Root`: reads and writes that property through its codec.
public struct SchemaBinding<Root>: Sendable {
    /// The schema key.
    public let key: String
    /// The form the codec reads and writes.
    public let form: SchemaForm
    /// Reads `json` into the property; false (and nothing changed) when it is not in the modelled form.
    public let read: @Sendable (inout Root, JSON) -> Bool
    /// Writes the property into `object` when it is set.
    public let write: @Sendable (Root, inout JSONObject) -> Void

    /// Binds `key` to the optional property at `path`, read and written by `codec`.
    public init<Value>(
        _ key: String, _ path: any WritableKeyPath<Root, Value?> & Sendable, _ codec: SchemaCodec<Value>
    ) {
        self.key = key
        self.form = codec.form
        self.read = { root, json in
            guard let value = codec.decode(json) else { return false }
            root[keyPath: path] = value
            return true
        }
        self.write = { root, object in
            if let value = root[keyPath: path] {
                object[key] = codec.encode(value)
            }
        }
    }
}

/// The bindings of one typed model (the properties of `Root`), in encoding order, with a lookup by key. Checks, once,
/// that every binding names a schema row of the same form and that every row of `owners` is bound.
public struct SchemaBindingTable<Root>: Sendable {
    /// The bindings in encoding order.
    public let bindings: [SchemaBinding<Root>]
    private let indexByKey: [String: Int]

    /// A table of `bindings` that must cover every row of `owners` (except the keys in `handledElsewhere`, which the
    /// model reads and writes itself, like `id` and `children`).
    public init(
        covering owners: [SchemaOwner], handledElsewhere: Set<String> = [], _ bindings: [SchemaBinding<Root>]
    ) {
        self.bindings = bindings
        var indexByKey: [String: Int] = [:]
        for (index, binding) in bindings.enumerated() {
            let row = HierarchySchema.property(named: binding.key)
            precondition(row != nil, "'\(binding.key)' is bound but has no row in HierarchySchema.properties")
            precondition(row?.form == binding.form, "'\(binding.key)' is bound with a codec of another form")
            precondition(indexByKey.updateValue(index, forKey: binding.key) == nil, "'\(binding.key)' bound twice")
        }
        for row in HierarchySchema.properties where owners.contains(row.owner) && !handledElsewhere.contains(row.key) {
            precondition(indexByKey[row.key] != nil, "schema property '\(row.key)' has no binding in \(Root.self)")
        }
        self.indexByKey = indexByKey
    }

    /// The bound keys in encoding order.
    public var keys: [String] { bindings.map(\.key) }

    /// Reads `key` into `root`; false when `key` is not bound or its value is not in the modelled form.
    public func read(_ key: String, _ value: JSON, into root: inout Root) -> Bool {
        guard let index = indexByKey[key] else { return false }
        return bindings[index].read(&root, value)
    }

    /// Writes every set property of `root` into `object`, in encoding order.
    public func write(_ root: Root, into object: inout JSONObject) {
        for binding in bindings {
            binding.write(root, &object)
        }
    }
}

/// A typed value with one JSON form (a rect, a point, a nested object): `SchemaCodec.value` reads and writes it.
package protocol SchemaRepresentable: Sendable {
    /// The form of its JSON.
    static var schemaForm: SchemaForm { get }
    /// Reads the value; nil when `json` is not in the modelled form.
    init?(json: JSON)
    /// The JSON form.
    var json: JSON { get }
}

/// An item of a list-valued property (custom actions, rotors, focus guides...): the list reads all or nothing.
package protocol SchemaListItem: Sendable {
    /// Every item of `value`, or nil when it is not an array or one item is not in the modelled form.
    static func schemaList(_ value: JSON) -> [Self]?
    /// The item's JSON form.
    var json: JSON { get }
}

extension Array: SchemaRepresentable where Element: SchemaListItem {
    package static var schemaForm: SchemaForm { .list }
    package init?(json: JSON) {
        guard let items = Element.schemaList(json) else { return nil }
        self = items
    }
    package var json: JSON { .array(map(\.json)) }
}

extension SchemaCodec where Value: SchemaRepresentable {
    /// The value's own reader and writer.
    package static var value: SchemaCodec {
        SchemaCodec(Value.schemaForm, decode: { Value(json: $0) }, encode: { $0.json })
    }
}
