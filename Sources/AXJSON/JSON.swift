/// A JSON value. Numbers are `Double` (integers up to 2^53 are exact and serialize without a fraction).
/// Objects keep their key order (first insertion wins the position) but compare order-insensitively.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

/// An insertion-ordered JSON object. Lookups are linear, which is fastest for the small objects this
/// project exchanges; `==` and `hash` ignore order.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String]
    public private(set) var values: [JSON]

    public init() {
        keys = []
        values = []
    }
    public init(minimumCapacity n: Int) {
        keys = []
        values = []
        keys.reserveCapacity(n)
        values.reserveCapacity(n)
    }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(minimumCapacity: elements.count)
        for (k, v) in elements { self[k] = v }
    }
    public init(_ pairs: [(String, JSON)]) {
        self.init(minimumCapacity: pairs.count)
        for (k, v) in pairs { self[k] = v }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> JSON? {
        get {
            if let i = keys.firstIndex(of: key) { return values[i] }
            return nil
        }
        set {
            if let i = keys.firstIndex(of: key) {
                if let v = newValue {
                    values[i] = v
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let v = newValue {
                keys.append(key)
                values.append(v)
            }
        }
    }

    /// Appends without checking for a duplicate key (the caller guarantees uniqueness). Fast path for encoders.
    public mutating func appendUnchecked(_ key: String, _ value: JSON) {
        keys.append(key)
        values.append(value)
    }

    public func makeIterator() -> AnyIterator<(key: String, value: JSON)> {
        var i = 0
        return AnyIterator {
            guard i < keys.count else { return nil }
            defer { i += 1 }
            return (keys[i], values[i])
        }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        for (i, k) in a.keys.enumerated() {
            guard let v = b[k], v == a.values[i] else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-insensitive: combine per-pair hashes commutatively.
        var acc = 0
        for (i, k) in keys.enumerated() {
            var h = Hasher()
            h.combine(k)
            h.combine(values[i])
            acc = acc &+ h.finalize()
        }
        hasher.combine(count)
        hasher.combine(acc)
    }
}

// MARK: - Convenience accessors

extension JSON {
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    public subscript(index: Int) -> JSON? {
        if case .array(let a) = self, index >= 0, index < a.count { return a[index] }
        return nil
    }
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }
    public var arrayValue: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    public var doubleValue: Double? {
        if case .number(let d) = self { return d }
        return nil
    }
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
    /// The value as an exact integer, or nil when it is not a number or not integral.
    public var intValue: Int? {
        // Integrality via an Int round trip rather than `rounded()`, so AXJSON needs no libm at link time.
        guard case .number(let d) = self, d.isFinite, abs(d) < 9.007_199_254_740_992e15 else { return nil }
        let i = Int(d)
        return Double(i) == d ? i : nil
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
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSON {
    public init(_ s: String?) { self = s.map { .string($0) } ?? .null }
    public init(_ i: Int) { self = .number(Double(i)) }
    public init(_ d: Double) { self = .number(d) }
    public init(_ b: Bool) { self = .bool(b) }
    public init(_ strings: [String]) { self = .array(strings.map { .string($0) }) }
}

/// A parse error with the byte offset where it was found and what was expected there.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
    public var description: String { "\(message) at offset \(offset)" }
}

/// Limits the parser enforces so hostile input cannot exhaust the stack or memory.
public struct JSONParseLimits: Sendable {
    public var maxDepth: Int
    public var maxBytes: Int
    public init(maxDepth: Int = 512, maxBytes: Int = 64 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
    public static let `default` = JSONParseLimits()
}
