/// A fixed string → small-integer table for the schema's property names: open addressing on an FNV-1a hash of
/// the UTF-8 bytes, confirmed by one string comparison. Decoding a snapshot looks up every key of every view,
/// and this costs a fraction of a `Dictionary<String, Int>` lookup (whose SipHash dominates for short keys).
struct KeyTable: Sendable {
    private let keys: [String?]
    private let values: [Int]
    private let mask: Int

    init(_ entries: [String: Int]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        var keys = [String?](repeating: nil, count: size)
        var values = [Int](repeating: -1, count: size)
        for (k, v) in entries {
            var i = KeyTable.hash(k) & (size - 1)
            while keys[i] != nil { i = (i + 1) & (size - 1) }
            keys[i] = k
            values[i] = v
        }
        self.keys = keys
        self.values = values
        mask = size - 1
    }

    @inline(__always) static func hash(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { bytes in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return Int(truncatingIfNeeded: h ^ (h >> 29))
        }
    }

    /// The value for `key`, or nil.
    @inline(__always) subscript(key: String) -> Int? {
        var i = KeyTable.hash(key) & mask
        while let k = keys[i] {
            if k == key { return values[i] }
            i = (i + 1) & mask
        }
        return nil
    }
}
