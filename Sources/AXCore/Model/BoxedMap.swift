import HashTreeCollections

/// An immutable heap box: map entries stay one pointer wide, so persistent-map updates never copy large structs.
package final class Box<Value: Sendable>: Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

/// A persistent (structure-sharing) map from ids to boxed values. Copies are O(1); an update copies only the
/// path to one entry. Reads return the value (`map[id]`) or, on hot paths, the box itself (`box(id)`).
package struct BoxedMap<Value: Sendable & Equatable>: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    package private(set) var storage: TreeDictionary<String, Box<Value>>

    package init() { storage = [:] }
    package init(dictionaryLiteral elements: (String, Value)...) {
        storage = [:]
        for (key, value) in elements { storage[key] = Box(value) }
    }

    package var count: Int { storage.count }
    package var isEmpty: Bool { storage.isEmpty }

    package subscript(id: String) -> Value? {
        get { storage[id]?.value }
        set { storage[id] = newValue.map { Box($0) } }
    }

    @inline(__always) package func box(_ id: String) -> Box<Value>? { storage[id] }
    @inline(__always) package func contains(_ id: String) -> Bool { storage[id] != nil }

    package mutating func setBox(_ box: Box<Value>, for id: String) { storage[id] = box }
    /// Sets the box and returns the one it replaced (one hash and one descent where `contains` + `setBox` take two).
    @discardableResult
    package mutating func insertBox(_ box: Box<Value>, for id: String) -> Box<Value>? {
        storage.updateValue(box, forKey: id)
    }

    @discardableResult
    package mutating func removeValue(forKey id: String) -> Value? { storage.removeValue(forKey: id)?.value }

    package struct Iterator: IteratorProtocol {
        var base: TreeDictionary<String, Box<Value>>.Iterator
        package mutating func next() -> (key: String, value: Value)? {
            guard let (k, b) = base.next() else { return nil }
            return (k, b.value)
        }
    }
    package func makeIterator() -> Iterator { Iterator(base: storage.makeIterator()) }

    package var keys: [String] { storage.keys.map { $0 } }

    package static func == (lhs: BoxedMap, rhs: BoxedMap) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for (key, lhsBox) in lhs.storage {
            guard let rhsBox = rhs.storage[key] else { return false }
            if lhsBox !== rhsBox && lhsBox.value != rhsBox.value { return false }
        }
        return true
    }
}
