// An append-only byte sink for large replies (issue 35 item 1, Specs/decisions.md D-PERF-5).
//
// Bytes are stored through a raw pointer into one fixed block (64 KiB, so it stays in the cache) that is copied
// into the output array in one `append` whenever it fills: a write is one comparison and a store, with none of an
// `Array`'s per-append uniqueness and capacity checks. The bound: every store into the block is preceded by
// `makeRoom(n)` with `n <= blockSize`, after which `used + n <= blockSize`; writes longer than the block go
// straight to the output array.

/// Writes bytes, JSON strings and numbers into a block that is flushed into an output array (see the file header).
/// Made by `ByteWriter.appending(to:_:)` only, which owns the block and flushes it when the body returns.
/// Public (not `package`) so its small writes are inlined into the writers in other modules: Swift 6.3 serializes
/// the bodies of `@inlinable` public declarations only, not of `package` ones.
public struct ByteWriter: ~Copyable {
    /// The block's size: every fixed-size write (a literal, an escape, a number) is far smaller.
    @usableFromInline static var blockSize: Int { 1 << 16 }

    @usableFromInline let block: UnsafeMutablePointer<UInt8>
    /// Bytes written into `block` and not yet flushed; always `<= blockSize`.
    @usableFromInline var used = 0
    /// The bytes flushed so far, after whatever the output held before.
    @usableFromInline var output: [UInt8]

    @usableFromInline init(block: UnsafeMutablePointer<UInt8>) {
        self.block = block
        output = []
    }

    /// Runs `body` with a writer whose bytes are appended to `output` (all of them, also when `body` throws).
    @inlinable
    public static func appending<Failure: Error>(
        to output: inout [UInt8], _ body: (inout ByteWriter) throws(Failure) -> Void
    ) throws(Failure) {
        let block = UnsafeMutablePointer<UInt8>.allocate(capacity: blockSize)
        defer { block.deallocate() }
        var writer = ByteWriter(block: block)
        swap(&writer.output, &output)
        defer {
            writer.flush()
            swap(&writer.output, &output)
        }
        try body(&writer)
    }

    /// The number of bytes written so far (including what the output held before).
    @inlinable public var count: Int { output.count &+ used }

    /// Reserves output capacity for `additional` more bytes (an estimate; the output grows beyond it as needed).
    public mutating func reserveCapacity(_ additional: Int) {
        output.reserveCapacity(count + max(0, additional))
    }

    /// Copies the block into the output.
    @usableFromInline mutating func flush() {
        guard used > 0 else { return }
        output.append(contentsOf: UnsafeBufferPointer(start: block, count: used))
        used = 0
    }

    /// Ensures `count` (at most `blockSize`) bytes are free in the block.
    @inlinable @inline(__always) mutating func makeRoom(_ count: Int) {
        if Self.blockSize &- used < count { flush() }
    }

    /// Appends one byte.
    @inlinable @inline(__always) public mutating func byte(_ value: UInt8) {
        makeRoom(1)
        (block + used).initialize(to: value)
        used &+= 1
    }

    /// Appends `count` bytes from `start`.
    @inlinable @inline(__always) public mutating func bytes(_ start: UnsafePointer<UInt8>, count: Int) {
        guard count <= Self.blockSize else {
            flush()
            output.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
            return
        }
        makeRoom(count)
        Self.copy(start, to: block + used, count: count)
        used &+= count
    }

    /// Copies `count` bytes: up to 32 by overlapping loads and stores (every load and store inside the `count`
    /// bytes of source and target), longer ones by `memcpy` (a call costs ~40 instructions; most member heads,
    /// names and state words are 8 to 32 bytes).
    @inlinable @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        switch count {
        case 17...32:
            // The first 16 bytes and the last 16, as two pairs of words (they overlap when count < 32).
            let head0 = from.loadUnaligned(as: UInt64.self)
            let head1 = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let tail0 = from.loadUnaligned(fromByteOffset: count &- 16, as: UInt64.self)
            let tail1 = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            to.storeBytes(of: head0, as: UInt64.self)
            to.storeBytes(of: head1, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: tail0, toByteOffset: count &- 16, as: UInt64.self)
            to.storeBytes(of: tail1, toByteOffset: count &- 8, as: UInt64.self)
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        case 1..<4:
            target.initialize(to: source[0])
            target[count &- 1] = source[count &- 1]
            target[count &>> 1] = source[count &>> 1]
        case ...0: return
        default: target.initialize(from: source, count: count)
        }
    }

    /// Appends the bytes of `buffer`.
    @inlinable @inline(__always) public mutating func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let start = buffer.baseAddress else { return }
        bytes(start, count: buffer.count)
    }

    /// Appends an ASCII or UTF-8 literal as it is.
    @inlinable @inline(__always) public mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes($0) }
    }

    /// Appends `text`'s UTF-8 as it is (no escaping).
    @inlinable public mutating func raw(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes($0) }
        if done == nil {
            var copy = text
            copy.withUTF8 { bytes($0) }
        }
    }

    /// Appends `text` as a JSON string literal, quoted and escaped exactly as `JSON.serializeString`.
    @inlinable public mutating func jsonString(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { jsonString(utf8: $0) }
        if done == nil {
            var copy = text
            copy.withUTF8 { jsonString(utf8: $0) }
        }
    }

    /// Appends UTF-8 `text` as a JSON string literal, quoted and escaped exactly as `JSON.serializeString`.
    public mutating func jsonString(utf8 text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else {
            literal(#""""#)
            return
        }
        let count = text.count
        // Most strings of a reply (ids, classes, labels) are short and need no escape: one scan, one room check,
        // the quotes and the bytes stored in place.
        if count <= 32, EscapeScan.isClean(JSONEscapeRule.self, base, count: count) {
            makeRoom(count &+ 2)
            let at = block + used
            at.initialize(to: 0x22)
            Self.copy(base, to: at + 1, count: count)
            (at + 1 + count).initialize(to: 0x22)
            used &+= count &+ 2
            return
        }
        byte(0x22)
        jsonEscaped(base, count: count)
        byte(0x22)
    }

    /// Appends the escaped form of `count` bytes at `base`: clean runs copied in one piece, found eight bytes at a
    /// time (`EscapeScan` with `JSONEscapeRule`).
    @usableFromInline mutating func jsonEscaped(_ base: UnsafePointer<UInt8>, count: Int) {
        var runStart = 0
        var index = 0
        while let found = EscapeScan.next(JSONEscapeRule.self, base, from: index, count: count) {
            if found > runStart { bytes(base + runStart, count: found &- runStart) }
            escape(base[found])
            index = found &+ 1
            runStart = index
        }
        if count > runStart { bytes(base + runStart, count: count &- runStart) }
    }

    /// The escape sequence of one byte that needs one (a control character, '"' or '\\'), as `_JSONWriter`.
    @usableFromInline mutating func escape(_ byte: UInt8) {
        makeRoom(6)
        let at = block + used
        at.initialize(to: 0x5C)
        let short: UInt8
        switch byte {
        case 0x22: short = 0x22
        case 0x5C: short = 0x5C
        case 0x0A: short = 0x6E
        case 0x0D: short = 0x72
        case 0x09: short = 0x74
        case 0x08: short = 0x62
        case 0x0C: short = 0x66
        default:
            (at + 1).initialize(to: 0x75)
            (at + 2).initialize(to: 0x30)
            (at + 3).initialize(to: 0x30)
            (at + 4).initialize(to: Self.hexDigit(byte >> 4))
            (at + 5).initialize(to: Self.hexDigit(byte & 0xF))
            used &+= 6
            return
        }
        (at + 1).initialize(to: short)
        used &+= 2
    }

    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble
    }

    /// Appends the decimal digits of `value` (no sign), formed in the block.
    @inlinable @inline(__always) public mutating func digits(_ value: UInt64) {
        // Coordinates, sizes, indexes and counts are mostly under 10,000: written here, by two divisions at most.
        if value < 10_000 {
            makeRoom(4)
            shortDigits(UInt32(truncatingIfNeeded: value))
            return
        }
        longDigits(value)
    }

    /// `digits` of 10,000 and more.
    @usableFromInline mutating func longDigits(_ value: UInt64) {
        makeRoom(20)
        var length = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            length &+= 1
        }
        var position = used &+ length
        var rest = value
        repeat {
            position &-= 1
            (block + position).initialize(to: 0x30 &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        used &+= length
    }

    /// Appends the 1 to 4 decimal digits of `value` (< 10,000); the room is made.
    @inlinable @inline(__always) mutating func shortDigits(_ value: UInt32) {
        let at = block + used
        let high = value / 100
        let low = value &- high &* 100
        let highTens = high / 10
        let lowTens = low / 10
        let digits = (
            0x30 &+ UInt8(truncatingIfNeeded: highTens), 0x30 &+ UInt8(truncatingIfNeeded: high &- highTens &* 10),
            0x30 &+ UInt8(truncatingIfNeeded: lowTens), 0x30 &+ UInt8(truncatingIfNeeded: low &- lowTens &* 10)
        )
        // The four digits stored at once, then the leading zeros left out by where the write starts.
        let word = UInt32(digits.0) | UInt32(digits.1) << 8 | UInt32(digits.2) << 16 | UInt32(digits.3) << 24
        let length = value >= 1000 ? 4 : value >= 100 ? 3 : value >= 10 ? 2 : 1
        UnsafeMutableRawPointer(at).storeBytes(
            of: UInt32(littleEndian: word >> UInt32(truncatingIfNeeded: (4 &- length) &* 8)), as: UInt32.self)
        used &+= length
    }

    /// Appends `value` in decimal, with a minus sign when negative.
    @inlinable @inline(__always) public mutating func integer(_ value: Int) {
        if value < 0 { byte(0x2D) }
        digits(UInt64(value.magnitude))
    }

    /// Appends the JSON form of a number, exactly as `JSON.serializeNumber`: integral values within ±2^53 as
    /// integers, others by `ShortDecimal` when it applies, else Swift's shortest round-trip `description`; NaN and
    /// infinities as `null`.
    @inlinable @inline(__always) public mutating func number(_ value: Double) {
        // Coordinates and sizes are mostly whole numbers under 10,000: written here, the rest by `anyNumber`.
        if value >= 0, value < 10_000, case let whole = UInt32(value), Double(whole) == value {
            makeRoom(4)
            shortDigits(whole)
            return
        }
        anyNumber(value)
    }

    /// `number` past its short path.
    @usableFromInline mutating func anyNumber(_ value: Double) {
        guard value.isFinite else {
            literal("null")
            return
        }
        if value.magnitude <= 9_007_199_254_740_992, case let integer = Int64(value), Double(integer) == value {
            if integer < 0 { byte(0x2D) }
            digits(integer.magnitude)
            return
        }
        if let decimal = ShortDecimal(value) {
            if value < 0 { byte(0x2D) }
            digits(decimal.units)
            byte(0x2E)
            fraction(decimal.fraction, places: decimal.places)
            return
        }
        raw(value.description)
    }

    /// Appends `value` as exactly `places` digits (leading zeros kept).
    @usableFromInline mutating func fraction(_ value: UInt64, places: Int) {
        makeRoom(places)
        var rest = value
        var position = used &+ places
        while position > used {
            position &-= 1
            (block + position).initialize(to: 0x30 &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        }
        used &+= places
    }
}

/// A finite, non-integral double whose shortest round-trip form has at most four decimals and magnitude in
/// [0.001, 2^50 / 10⁴): `units.fraction` (fraction with `places` digits), which is exactly what Swift's
/// `description` prints for it. Why: with |x|·10^k < 2^50 the doubles around x are less than a quarter of 10^-k
/// apart, so at most one k-decimal number reads back as x, and rounding x·10^k finds it; the smallest such k gives
/// the fewest digits, which `description` prints in positional form in this range (`ByteWriterTests` compares
/// them over millions of values).
@usableFromInline struct ShortDecimal {
    @usableFromInline let units: UInt64
    @usableFromInline let fraction: UInt64
    @usableFromInline let places: Int

    @usableFromInline init?(_ value: Double) {
        let magnitude = value.magnitude
        guard magnitude >= 0.001, magnitude < 0x1p50 / 10000 else { return nil }
        for places in 1...4 {
            let power: Double
            let scale: UInt64
            switch places {
            case 1: (power, scale) = (10, 10)
            case 2: (power, scale) = (100, 100)
            case 3: (power, scale) = (1000, 1000)
            default: (power, scale) = (10000, 10000)
            }
            let scaled = (magnitude * power).rounded()
            guard scaled / power == magnitude else { continue }
            // 0 < scaled < 2^50: the conversion is exact.
            let whole = UInt64(scaled)
            units = whole / scale
            fraction = whole % scale
            self.places = places
            return
        }
        return nil
    }
}

/// A set of bytes an escaping writer stops at, for `EscapeScan`: a caseless enum per rule (JSON strings here, the
/// page source's attributes in AXQuery), so the scan is specialised for each rule where it is used.
public protocol ByteEscapeRule {
    /// The high bit of exactly each byte of `word` in the set (no carry may cross a byte, so any subset of the
    /// flags can be masked off; `ByteFlags` forms such flags).
    static func flagged(_ word: UInt64) -> UInt64
    /// Whether `byte` is in the set (the same set as `flagged`'s, one byte at a time).
    static func contains(_ byte: UInt8) -> Bool
    /// Non-zero exactly when some byte of `word` is in the set (which bytes its bits mark is unspecified): a test
    /// that may be cheaper than `flagged` (the default is `flagged`).
    static func anyFlagged(_ word: UInt64) -> UInt64
}

extension ByteEscapeRule {
    @inlinable @inline(__always) public static func anyFlagged(_ word: UInt64) -> UInt64 { flagged(word) }
}

/// Per-byte flags of a 64-bit word, for `ByteEscapeRule.flagged`: the high bit of each byte that meets the
/// condition, with no carry crossing a byte.
public enum ByteFlags {
    /// The flags of the bytes of `word` below `bound` (1…0x80).
    @inlinable @inline(__always) public static func below(_ word: UInt64, _ bound: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // Per byte: (b & 0x7F) + k never carries out of the byte; its high bit, or b's, is set iff b ≥ 0x80 - k.
        return ~(((word & lows) &+ ones &* (0x80 &- bound)) | word | lows)
    }

    /// Non-zero exactly when some byte of `word` is below `bound` (1…0x80); which bits are set says nothing about
    /// which bytes (a borrow runs on past a byte below the bound): `(w - bound·0x01…) & ~w & 0x80…`.
    @inlinable @inline(__always) public static func anyBelow(_ word: UInt64, _ bound: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        return (word &- ones &* bound) & ~word & (ones &* 0x80)
    }

    /// Non-zero exactly when some byte of `word` equals `byte` (as `anyBelow`, of `word ^ byte·0x01…` and 1).
    @inlinable @inline(__always) public static func anyEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        anyBelow(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)), 1)
    }

    /// The flags of the bytes of `word` equal to `byte`.
    @inlinable @inline(__always) public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        below(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)), 1)
    }
}

/// Finds the next byte of a text that a `ByteEscapeRule` flags, eight bytes at a time.
public enum EscapeScan {
    /// Whether no byte of a text of at most 32 bytes is flagged: its bytes gathered into at most four words by
    /// overlapping loads inside the text (a byte seen twice is flagged twice), with no loop over its bytes.
    @inlinable @inline(__always)
    public static func isClean<Rule: ByteEscapeRule>(_ rule: Rule.Type, _ base: UnsafePointer<UInt8>, count: Int)
        -> Bool
    {
        let text = UnsafeRawPointer(base)
        let flags: UInt64
        switch count {
        case 8...32:
            var words = Rule.anyFlagged(text.loadUnaligned(as: UInt64.self))
            words |= Rule.anyFlagged(text.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            if count > 16 { words |= Rule.anyFlagged(text.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
            if count > 24 { words |= Rule.anyFlagged(text.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) }
            flags = words
        case 4..<8:
            let head = UInt64(text.loadUnaligned(as: UInt32.self))
            let tail = UInt64(text.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            flags = Rule.anyFlagged(head | tail << 32)
        case 1..<4:
            // The first, middle and last bytes (all of them), in the low three bytes of a word whose other bytes
            // repeat the first.
            let first = UInt64(base[0])
            flags = Rule.anyFlagged(
                first &* 0x0101_0101_0101_0101 & 0xFFFF_FFFF_FF00_0000 | first | UInt64(base[count &>> 1]) << 8
                    | UInt64(base[count &- 1]) << 16)
        case ...0: return true
        default: return next(rule, base, from: 0, count: count) == nil
        }
        return flags == 0
    }

    /// The index of the first byte at or after `start` (and before `count`) that `Rule` flags, or nil: eight
    /// bytes at a time, the last few by one overlapping load of the final eight (its bytes before `index`, already
    /// checked, masked off) when the text has eight or more, else byte by byte.
    @inlinable @inline(__always)
    public static func next<Rule: ByteEscapeRule>(
        _ rule: Rule.Type, _ base: UnsafePointer<UInt8>, from start: Int, count: Int
    ) -> Int? {
        var index = start
        while index &+ 8 <= count {
            let flags = Rule.flagged(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            if flags != 0 { return index &+ (UInt64(littleEndian: flags).trailingZeroBitCount &>> 3) }
            index &+= 8
        }
        let rest = count &- index
        guard rest > 0 else { return nil }
        if count >= 8 {
            let last = count &- 8
            let checked = UInt64(8 &- rest) &* 8  // 8…56 bits: the bytes below `index`
            let flags = UInt64(littleEndian: Rule.flagged(UnsafeRawPointer(base + last).loadUnaligned(as: UInt64.self)))
            let fresh = flags & (UInt64.max << checked)
            return fresh == 0 ? nil : last &+ (fresh.trailingZeroBitCount &>> 3)
        }
        while index < count {
            if Rule.contains(base[index]) { return index }
            index &+= 1
        }
        return nil
    }
}

/// The bytes a JSON string must escape: control characters (< 0x20), '"' and '\\'; bytes ≥ 0x80 never are
/// (UTF-8 sequences are copied as they are).
@usableFromInline enum JSONEscapeRule: ByteEscapeRule {
    @usableFromInline @inline(__always) static func flagged(_ word: UInt64) -> UInt64 {
        ByteFlags.below(word, 0x20) | ByteFlags.equal(word, 0x22) | ByteFlags.equal(word, 0x5C)
    }

    @usableFromInline @inline(__always) static func contains(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// Some byte below 0x20, or equal to '"' or '\\' (`ByteFlags.anyBelow`, `anyEqual`).
    @usableFromInline @inline(__always) static func anyFlagged(_ word: UInt64) -> UInt64 {
        ByteFlags.anyBelow(word, 0x20) | ByteFlags.anyEqual(word, 0x22) | ByteFlags.anyEqual(word, 0x5C)
    }
}
