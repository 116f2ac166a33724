/// A fixed string → value table for the schema's names (property keys, class names): open addressing on an FNV-1a
/// hash of the UTF-8 bytes, confirmed by one string comparison. Decoding a snapshot looks up every key of every
/// view, and this costs a fraction of a `Dictionary<String, Value>` lookup (whose SipHash dominates for short keys).
struct KeyTable<Value: Sendable>: Sendable {
    private let keys: [String?]
    private let values: [Value?]
    private let mask: Int

    /// A table of `entries`; a key given twice keeps its first value.
    init(_ entries: some Sequence<(key: String, value: Value)>) {
        let entries = Array(entries)
        var size = 16
        while size < entries.count * 4 {
            size *= 2
        }
        var keys = [String?](repeating: nil, count: size)
        var values = [Value?](repeating: nil, count: size)
        for (key, value) in entries {
            var slot = KeyTable.hash(key) & (size - 1)
            while let occupant = keys[slot], occupant != key {
                slot = (slot + 1) & (size - 1)
            }
            if keys[slot] == nil {
                keys[slot] = key
                values[slot] = value
            }
        }
        self.keys = keys
        self.values = values
        mask = size - 1
    }

    @inline(__always) static func hash(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return Int(truncatingIfNeeded: hash ^ (hash >> 29))
        }
    }

    /// The value for `key`, or nil.
    @inline(__always) subscript(key: String) -> Value? {
        var slot = KeyTable.hash(key) & mask
        while let candidate = keys[slot] {
            if candidate == key {
                return values[slot]
            }
            slot = (slot + 1) & mask
        }
        return nil
    }
}
