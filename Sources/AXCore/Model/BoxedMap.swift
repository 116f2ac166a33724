import HashTreeCollections

/// An immutable heap box: map entries stay one pointer wide, so persistent-map updates never copy large structs.
public final class Box<Value: Sendable>: Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

/// A persistent (structure-sharing) map from ids to boxed values. Copies are O(1); an update copies only the
/// path to one entry. Reads return the value (`map[id]`) or, on hot paths, the box itself (`box(id)`).
public struct BoxedMap<Value: Sendable & Equatable>: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    public private(set) var storage: TreeDictionary<String, Box<Value>>

    public init() { storage = [:] }
    public init(dictionaryLiteral elements: (String, Value)...) {
        storage = [:]
        for (k, v) in elements { storage[k] = Box(v) }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    public subscript(id: String) -> Value? {
        get { storage[id]?.value }
        set { storage[id] = newValue.map { Box($0) } }
    }

    @inline(__always) public func box(_ id: String) -> Box<Value>? { storage[id] }
    @inline(__always) public func contains(_ id: String) -> Bool { storage[id] != nil }

    public mutating func setBox(_ b: Box<Value>, for id: String) { storage[id] = b }
    /// Sets the box and returns the one it replaced (one hash and one descent where `contains` + `setBox` take two).
    @discardableResult
    public mutating func insertBox(_ b: Box<Value>, for id: String) -> Box<Value>? { storage.updateValue(b, forKey: id) }

    @discardableResult
    public mutating func removeValue(forKey id: String) -> Value? { storage.removeValue(forKey: id)?.value }

    public struct Iterator: IteratorProtocol {
        var base: TreeDictionary<String, Box<Value>>.Iterator
        public mutating func next() -> (key: String, value: Value)? {
            guard let (k, b) = base.next() else { return nil }
            return (k, b.value)
        }
    }
    public func makeIterator() -> Iterator { Iterator(base: storage.makeIterator()) }

    public var keys: [String] { storage.keys.map { $0 } }

    public static func == (a: BoxedMap, b: BoxedMap) -> Bool {
        guard a.storage.count == b.storage.count else { return false }
        for (k, ba) in a.storage {
            guard let bb = b.storage[k] else { return false }
            if ba !== bb && ba.value != bb.value { return false }
        }
        return true
    }
}
