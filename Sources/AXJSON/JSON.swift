/// A JSON value. Numbers are `Double` (integers up to 2^53 are exact and serialize without a fraction).
/// Objects keep their key order (first insertion wins the position) but compare order-insensitively.
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A finite number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object.
    case object(JSONObject)
}

/// An insertion-ordered JSON object. Lookups are linear, which is fastest for the small objects this
/// project exchanges; `==` and `hash` ignore order.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The keys, in insertion order.
    public private(set) var keys: [String]
    /// The values, parallel to `keys`.
    public private(set) var values: [JSON]

    /// An empty object.
    public init() {
        keys = []
        values = []
    }
    /// An empty object with room for `capacity` members.
    public init(minimumCapacity capacity: Int) {
        keys = []
        values = []
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }
    /// An object of the literal's members, in order (a repeated key keeps its first position and last value).
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(minimumCapacity: elements.count)
        for (key, value) in elements {
            self[key] = value
        }
    }
    /// An object of `pairs`, in order (a repeated key keeps its first position and last value).
    public init(_ pairs: [(String, JSON)]) {
        self.init(minimumCapacity: pairs.count)
        for (key, value) in pairs {
            self[key] = value
        }
    }

    /// The number of members.
    public var count: Int { keys.count }
    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value of `key`, or nil. Setting nil removes the member; setting a new key appends it.
    public subscript(key: String) -> JSON? {
        get {
            if let index = keys.firstIndex(of: key) { return values[index] }
            return nil
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Replaces the value at `index` (a position in `keys`): a caller that already knows where a key is (the
    /// parser's hash of key positions) replaces it in constant time instead of searching the keys again.
    public mutating func replaceValue(at index: Int, with value: JSON) {
        guard values.indices.contains(index) else { return }
        values[index] = value
    }

    /// Appends without checking for a duplicate key (the caller guarantees uniqueness). Fast path for encoders.
    public mutating func appendUnchecked(_ key: String, _ value: JSON) {
        keys.append(key)
        values.append(value)
    }

    /// Iterates the members in insertion order.
    public func makeIterator() -> AnyIterator<(key: String, value: JSON)> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            return (keys[index], values[index])
        }
    }

    /// Equal when both hold the same members, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (index, key) in lhs.keys.enumerated() {
            guard let value = rhs[key], value == lhs.values[index] else { return false }
        }
        return true
    }

    /// Hashes the members order-insensitively (consistent with `==`).
    public func hash(into hasher: inout Hasher) {
        // Order-insensitive: combine per-pair hashes commutatively.
        var combined = 0
        for (index, key) in keys.enumerated() {
            var pairHasher = Hasher()
            pairHasher.combine(key)
            pairHasher.combine(values[index])
            combined = combined &+ pairHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

// MARK: - Convenience accessors

extension JSON {
    /// The member `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
    /// Element `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSON? {
        if case .array(let elements) = self, index >= 0, index < elements.count { return elements[index] }
        return nil
    }
    /// The object, or nil for any other value.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }
    /// The array's elements, or nil for any other value.
    public var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
    /// The string, or nil for any other value.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }
    /// The number, or nil for any other value.
    public var doubleValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
    /// The boolean, or nil for any other value.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
    /// The value as an exact integer, or nil when it is not a number or not integral.
    public var intValue: Int? {
        // Integrality via an Int round trip rather than `rounded()`, so AXJSON needs no libm at link time.
        guard case .number(let number) = self, number.isFinite, abs(number) < 9.007_199_254_740_992e15 else {
            return nil
        }
        let integer = Int(number)
        return Double(integer) == number ? integer : nil
    }
    /// A short name of the JSON type, for error messages ("string", "number", …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal is a JSON number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A floating-point literal is a JSON number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `true` / `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array literal is a JSON array.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// A dictionary literal is a JSON object, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
    /// `nil` is `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSON {
    /// A string, or `null` for nil.
    public init(_ string: String?) { self = string.map { .string($0) } ?? .null }
    /// An integer as a number.
    public init(_ integer: Int) { self = .number(Double(integer)) }
    /// A number.
    public init(_ number: Double) { self = .number(number) }
    /// A boolean.
    public init(_ flag: Bool) { self = .bool(flag) }
    /// An array of strings.
    public init(_ strings: [String]) { self = .array(strings.map { .string($0) }) }
}

/// A parse error with the byte offset where it was found and what was expected there.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset in the input where parsing stopped.
    public var offset: Int
    /// What was wrong or expected there.
    public var message: String
    /// An error at `offset`.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
    /// "message at offset N".
    public var description: String { "\(message) at offset \(offset)" }
}

/// Limits the parser enforces so hostile input cannot exhaust the stack or memory.
public struct JSONParseLimits: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int
    /// The largest input accepted, in bytes.
    public var maxBytes: Int
    /// Whether a key repeated in one object is an error (offset of the repeated key) instead of the last value
    /// winning. Readers of operator files ask for it, so a key written twice never silently drops a value.
    public var rejectDuplicateKeys: Bool
    /// Limits of `maxDepth` levels and `maxBytes` bytes; duplicate keys refused when `rejectDuplicateKeys`.
    public init(maxDepth: Int = 512, maxBytes: Int = 64 << 20, rejectDuplicateKeys: Bool = false) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }
    /// 512 levels, 64 MiB.
    public static let `default` = JSONParseLimits()
}
