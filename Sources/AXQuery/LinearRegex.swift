/// The selector regex engine (Specs/selectors.md §Regular expressions): a Thompson NFA run as a Pike VM over
/// Unicode scalars. It never backtracks, so a search costs at most (program size × text length) steps whatever
/// the pattern: `(.+)+X` against a long label is as cheap as `.+X`. Matching is a yes/no search (no captures),
/// so greedy and lazy quantifiers behave alike.
///
/// Supported syntax: literals; `.`; escapes `\d \D \w \W \s \S \b \B \n \r \t \f \v \0`, `\xHH`, `\u{H…}`,
/// `\uHHHH` and any escaped punctuation; classes `[abc] [^a-z] [\d_]`; anchors `^ $` (line anchors with `m`),
/// `\A \z`; groups `( )`, `(?: )`; alternation `|`; quantifiers `* + ? {n} {n,} {n,m}` (each optionally lazy
/// with `?`). Refused with a position: backreferences, lookaround, named groups, inline flags, possessive
/// quantifiers.
struct LinearRegex: Sendable {
    /// At most this many instructions after expanding counted repetitions (`a{1000}` is 1,000 instructions).
    static let maxProgram = 10_000
    /// At most this many repetitions in `{n,m}`.
    static let maxRepeat = 1_000

    enum Assertion: Sendable, Equatable {
        case textStart, textEnd, lineStart, lineEnd, wordBoundary, notWordBoundary
    }

    enum Inst: Sendable {
        case scalar(Unicode.Scalar)
        case any(dotAll: Bool)
        case set(Int)
        case split(Int, Int)
        case jump(Int)
        case assert(Assertion)
        case match
    }

    let program: [Inst]
    let classes: [ScalarClass]
    let caseInsensitive: Bool

    /// Why a pattern was refused: `offset` is the 0-based scalar offset in the pattern.
    struct SyntaxError: Error, Sendable {
        var offset: Int
        var reason: String
    }

    init(pattern: String, caseInsensitive: Bool, dotAll: Bool, multiline: Bool) throws(SyntaxError) {
        var parser = RegexPatternParser(
            pattern: Array(pattern.unicodeScalars), caseInsensitive: caseInsensitive,
            dotAll: dotAll, multiline: multiline)
        let tree = try parser.parseAll()
        var emitter = RegexEmitter(classes: parser.classes)
        try emitter.emit(tree)
        emitter.program.append(.match)
        program = emitter.program
        classes = parser.classes
        self.caseInsensitive = caseInsensitive
    }

    /// Whether the pattern matches anywhere in `text`. Each thread step spends one unit of `budget`; nil when the
    /// budget ran out before an answer (the caller reports "regex too expensive").
    func search(_ text: String, budget: inout Int) -> Bool? {
        let count = program.count
        return program.withUnsafeBufferPointer { code in
            classes.withUnsafeBufferPointer { sets in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * count + 2) { lists in
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { marks in
                        marks.initialize(repeating: 0)
                        var machine = Machine(
                            code: code, sets: sets, caseInsensitive: caseInsensitive,
                            current: UnsafeMutableBufferPointer(rebasing: lists[0..<count]),
                            next: UnsafeMutableBufferPointer(rebasing: lists[count..<(2 * count)]),
                            stack: UnsafeMutableBufferPointer(rebasing: lists[(2 * count)...]), marks: marks)
                        return machine.run(text, budget: &budget)
                    }
                }
            }
        }
    }

    /// The Pike VM over borrowed buffers: thread lists hold each program counter at most once per position
    /// (`marks`), and the closure stack holds at most two pushes per instruction.
    private struct Machine {
        let code: UnsafeBufferPointer<Inst>
        let sets: UnsafeBufferPointer<ScalarClass>
        let caseInsensitive: Bool
        var current: UnsafeMutableBufferPointer<Int32>
        var next: UnsafeMutableBufferPointer<Int32>
        let stack: UnsafeMutableBufferPointer<Int32>
        let marks: UnsafeMutableBufferPointer<UInt32>
        var currentCount = 0
        var nextCount = 0
        var generation: UInt32 = 1

        init(
            code: UnsafeBufferPointer<Inst>, sets: UnsafeBufferPointer<ScalarClass>, caseInsensitive: Bool,
            current: UnsafeMutableBufferPointer<Int32>, next: UnsafeMutableBufferPointer<Int32>,
            stack: UnsafeMutableBufferPointer<Int32>, marks: UnsafeMutableBufferPointer<UInt32>
        ) {
            self.code = code
            self.sets = sets
            self.caseInsensitive = caseInsensitive
            self.current = current
            self.next = next
            self.stack = stack
            self.marks = marks
        }

        mutating func run(_ text: String, budget: inout Int) -> Bool? {
            var previous: Unicode.Scalar?
            var iterator = text.unicodeScalars.makeIterator()
            var scalar = iterator.next()
            // The closure of the start state at the first position goes to `next`, then becomes `current`.
            if closure(from: 0, previous: previous, following: scalar, budget: &budget) { return true }
            swapLists()
            if budget < 0 { return nil }
            while let input = scalar {
                let folded = caseInsensitive ? ScalarClass.fold(input) : input
                let following = iterator.next()
                nextGeneration()
                for k in 0..<currentCount {
                    let pc = Int(current[k])
                    budget &-= 1
                    let advance: Bool
                    switch code[pc] {
                    case .scalar(let expected): advance = folded == expected
                    case .any(let dotAll): advance = dotAll || input != "\n"
                    case .set(let index): advance = sets[index].contains(input, caseInsensitive: caseInsensitive)
                    default: advance = false
                    }
                    if advance, closure(from: pc + 1, previous: input, following: following, budget: &budget) {
                        return true
                    }
                }
                previous = input
                scalar = following
                // Unanchored search: a new thread starts at every position.
                if closure(from: 0, previous: previous, following: scalar, budget: &budget) { return true }
                swapLists()
                if budget < 0 { return nil }
            }
            return false
        }

        mutating func nextGeneration() {
            generation &+= 1
            if generation == 0 {
                for k in 0..<marks.count { marks[k] = 0 }
                generation = 1
            }
            nextCount = 0
        }

        mutating func swapLists() {
            swap(&current, &next)
            currentCount = nextCount
            nextCount = 0
        }

        /// Adds the consuming instructions reachable from `start` without input to `next`; true when `match` is
        /// reachable (the search is over).
        mutating func closure(from start: Int, previous: Unicode.Scalar?, following: Unicode.Scalar?, budget: inout Int)
            -> Bool
        {
            var depth = 0
            stack[0] = Int32(start)
            depth = 1
            while depth > 0 {
                depth -= 1
                let pc = Int(stack[depth])
                if marks[pc] == generation { continue }
                marks[pc] = generation
                budget &-= 1
                switch code[pc] {
                case .match: return true
                case .jump(let target):
                    stack[depth] = Int32(target)
                    depth += 1
                case .split(let first, let second):
                    stack[depth] = Int32(second)
                    stack[depth + 1] = Int32(first)
                    depth += 2
                case .assert(let assertion):
                    if LinearRegex.holds(assertion, previous: previous, next: following) {
                        stack[depth] = Int32(pc + 1)
                        depth += 1
                    }
                case .scalar, .any, .set:
                    next[nextCount] = Int32(pc)
                    nextCount += 1
                }
            }
            return false
        }
    }

    static func holds(_ assertion: Assertion, previous: Unicode.Scalar?, next: Unicode.Scalar?) -> Bool {
        switch assertion {
        case .textStart: return previous == nil
        case .textEnd: return next == nil
        case .lineStart: return previous == nil || previous == "\n"
        case .lineEnd: return next == nil || next == "\n"
        case .wordBoundary, .notWordBoundary:
            let before = previous.map(ScalarClass.isWord) ?? false
            let after = next.map(ScalarClass.isWord) ?? false
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}

/// A bracket class or a class escape (`\d`), matched against one scalar.
struct ScalarClass: Sendable {
    enum Item: Sendable {
        case range(UInt32, UInt32)
        case digit(Bool)
        case word(Bool)
        case space(Bool)
    }
    var items: [Item] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar, caseInsensitive: Bool) -> Bool {
        var hit = containsExactly(scalar)
        if !hit && caseInsensitive {
            let lower = ScalarClass.fold(scalar)
            let upper = ScalarClass.upper(scalar)
            hit = (lower != scalar && containsExactly(lower)) || (upper != scalar && containsExactly(upper))
        }
        return hit != negated
    }

    private func containsExactly(_ scalar: Unicode.Scalar) -> Bool {
        for item in items {
            switch item {
            case .range(let lo, let hi): if scalar.value >= lo && scalar.value <= hi { return true }
            case .digit(let negate): if ScalarClass.isDigit(scalar) != negate { return true }
            case .word(let negate): if ScalarClass.isWord(scalar) != negate { return true }
            case .space(let negate): if scalar.properties.isWhitespace != negate { return true }
            }
        }
        return false
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 0x30 && scalar.value <= 0x39 }
        return scalar.properties.numericType == .decimal
    }

    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
                || (value >= 0x61 && value <= 0x7A) || value == 0x5F
        }
        let category = scalar.properties.generalCategory
        return scalar.properties.isAlphabetic || category == .decimalNumber || category == .nonspacingMark
            || category == .spacingMark || category == .connectorPunctuation
    }

    /// Simple lowercase folding (one scalar to one scalar; others unchanged).
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(UInt8(scalar.value | 0x20)) : scalar
        }
        let mapped = scalar.properties.lowercaseMapping.unicodeScalars
        return mapped.count == 1 ? (mapped.first ?? scalar) : scalar
    }

    static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return scalar.value >= 0x61 && scalar.value <= 0x7A ? Unicode.Scalar(UInt8(scalar.value - 0x20)) : scalar
        }
        let mapped = scalar.properties.uppercaseMapping.unicodeScalars
        return mapped.count == 1 ? (mapped.first ?? scalar) : scalar
    }
}

/// The parsed pattern.
indirect enum RegexNode {
    case empty
    case scalar(Unicode.Scalar)
    case any(dotAll: Bool)
    case set(Int)
    case assert(LinearRegex.Assertion)
    case concat([RegexNode])
    case alternation([RegexNode])
    case repeated(RegexNode, min: Int, max: Int?)
}

/// Recursive-descent parser of the supported syntax. Nesting is bounded by the selector's own limits (the
/// pattern is at most 1,024 characters) and checked here too.
struct RegexPatternParser {
    let pattern: [Unicode.Scalar]
    let caseInsensitive: Bool
    let dotAll: Bool
    let multiline: Bool
    var position = 0
    var depth = 0
    var classes: [ScalarClass] = []
    static let maxDepth = 64

    init(pattern: [Unicode.Scalar], caseInsensitive: Bool, dotAll: Bool, multiline: Bool) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.dotAll = dotAll
        self.multiline = multiline
    }

    func fail(_ reason: String, at offset: Int? = nil) -> LinearRegex.SyntaxError {
        LinearRegex.SyntaxError(offset: offset ?? position, reason: reason)
    }

    func peek() -> Unicode.Scalar? { position < pattern.count ? pattern[position] : nil }

    mutating func parseAll() throws(LinearRegex.SyntaxError) -> RegexNode {
        let node = try alternation()
        if let scalar = peek() {
            throw fail(scalar == ")" ? "unbalanced ')'" : "unexpected '\(scalar)'")
        }
        return node
    }

    mutating func alternation() throws(LinearRegex.SyntaxError) -> RegexNode {
        var branches = [try sequence()]
        while peek() == "|" {
            position += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// Whether a quantifier (`*`, `+`, `?`, `{n,m}`) starts at the cursor.
    func atQuantifier() -> Bool {
        guard let quantifierScalar = peek() else { return false }
        return quantifierScalar == "*" || quantifierScalar == "+" || quantifierScalar == "?"
            || (quantifierScalar == "{" && isCountedRepeat())
    }

    /// The node under the quantifier at the cursor; anchors, empty atoms and a second quantifier are refused.
    mutating func quantified(_ node: RegexNode, atomStart: Int) throws(LinearRegex.SyntaxError) -> RegexNode {
        if case .assert = node { throw fail("a quantifier after an anchor", at: position) }
        if case .empty = node { throw fail("a quantifier with nothing to repeat", at: position) }
        let repeated = try quantifier(node)
        if let extra = peek(), extra == "*" || extra == "+" || extra == "?" || extra == "{" {
            throw fail(
                "a second quantifier after '\(String(String.UnicodeScalarView(pattern[atomStart..<position])))'"
            )
        }
        return repeated
    }

    mutating func sequence() throws(LinearRegex.SyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = peek(), scalar != "|", scalar != ")" {
            let atomStart = position
            var node = try atom()
            while atQuantifier() {
                node = try quantified(node, atomStart: atomStart)
            }
            items.append(node)
        }
        return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
    }

    /// `{` starts a counted repetition only when it reads `{n}`, `{n,}` or `{n,m}`; otherwise it is a literal.
    func isCountedRepeat() -> Bool {
        var cursor = position + 1
        var digits = 0
        while cursor < pattern.count, pattern[cursor].value >= 0x30, pattern[cursor].value <= 0x39 {
            cursor += 1
            digits += 1
        }
        guard digits > 0, cursor < pattern.count else { return false }
        if pattern[cursor] == "}" { return true }
        guard pattern[cursor] == "," else { return false }
        cursor += 1
        while cursor < pattern.count, pattern[cursor].value >= 0x30, pattern[cursor].value <= 0x39 { cursor += 1 }
        return cursor < pattern.count && pattern[cursor] == "}"
    }

    mutating func quantifier(_ node: RegexNode) throws(LinearRegex.SyntaxError) -> RegexNode {
        let scalar = pattern[position]
        position += 1
        var result: RegexNode
        switch scalar {
        case "*": result = .repeated(node, min: 0, max: nil)
        case "+": result = .repeated(node, min: 1, max: nil)
        case "?": result = .repeated(node, min: 0, max: 1)
        default:
            let start = position - 1
            let low = number()
            var high: Int? = low
            if peek() == "," {
                position += 1
                high = peek() == "}" ? nil : number()
            }
            position += 1  // "}" (checked by isCountedRepeat)
            guard let low, low <= LinearRegex.maxRepeat, (high ?? low) <= LinearRegex.maxRepeat else {
                throw fail("a repetition count of at most \(LinearRegex.maxRepeat)", at: start)
            }
            if let high, high < low { throw fail("{n,m} with n ≤ m", at: start) }
            result = .repeated(node, min: low, max: high)
        }
        if peek() == "?" {
            position += 1  // lazy: the same yes/no answer
        } else if peek() == "+" {
            throw fail("no possessive quantifiers (not supported)")
        }
        return result
    }

    /// Decimal digits (nil when the value exceeds 1,000,000: the caller refuses it).
    mutating func number() -> Int? {
        var value = 0
        var overflow = false
        while let scalar = peek(), scalar.value >= 0x30, scalar.value <= 0x39 {
            if value > 1_000_000 { overflow = true } else { value = value * 10 + Int(scalar.value - 0x30) }
            position += 1
        }
        return overflow ? nil : value
    }

    mutating func atom() throws(LinearRegex.SyntaxError) -> RegexNode {
        let scalar = pattern[position]
        switch scalar {
        case "(":
            let open = position
            position += 1
            if peek() == "?" {
                guard position + 1 < pattern.count, pattern[position + 1] == ":" else {
                    throw fail("only '(?:' groups (no lookaround, named groups or inline flags)", at: open)
                }
                position += 2
            }
            depth += 1
            guard depth <= RegexPatternParser.maxDepth else {
                throw fail("at most \(RegexPatternParser.maxDepth) nested groups", at: open)
            }
            let inner = try alternation()
            depth -= 1
            guard peek() == ")" else { throw fail("')' to close the group opened at offset \(open)") }
            position += 1
            return inner
        case "[":
            return .set(try bracketClass())
        case ".":
            position += 1
            return .any(dotAll: dotAll)
        case "^":
            position += 1
            return .assert(multiline ? .lineStart : .textStart)
        case "$":
            position += 1
            return .assert(multiline ? .lineEnd : .textEnd)
        case "\\":
            return try escape()
        case "*", "+", "?":
            throw fail("a quantifier with nothing to repeat")
        default:
            position += 1
            return literal(scalar)
        }
    }

    func literal(_ scalar: Unicode.Scalar) -> RegexNode {
        .scalar(caseInsensitive ? ScalarClass.fold(scalar) : scalar)
    }

    mutating func addClass(_ item: ScalarClass.Item) -> RegexNode {
        classes.append(ScalarClass(items: [item], negated: false))
        return .set(classes.count - 1)
    }

    mutating func escape() throws(LinearRegex.SyntaxError) -> RegexNode {
        let start = position
        position += 1
        guard let scalar = peek() else { throw fail("a character after '\\'", at: start) }
        switch scalar {
        case "d", "D":
            position += 1
            return addClass(.digit(scalar == "D"))
        case "w", "W":
            position += 1
            return addClass(.word(scalar == "W"))
        case "s", "S":
            position += 1
            return addClass(.space(scalar == "S"))
        case "b":
            position += 1
            return .assert(.wordBoundary)
        case "B":
            position += 1
            return .assert(.notWordBoundary)
        case "A":
            position += 1
            return .assert(.textStart)
        case "z":
            position += 1
            return .assert(.textEnd)
        default:
            position = start
            return literal(try escapedScalar())
        }
    }

    /// A single-scalar escape (also inside classes): `\n`, `\x41`, `\u{1F600}`, `\.`.
    mutating func escapedScalar() throws(LinearRegex.SyntaxError) -> Unicode.Scalar {
        let start = position
        position += 1
        guard let scalar = peek() else { throw fail("a character after '\\'", at: start) }
        position += 1
        switch scalar {
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "0": return "\u{00}"
        case "x": return try hexScalar(digits: 2, start: start)
        case "u": return peek() == "{" ? try bracedScalar(start: start) : try hexScalar(digits: 4, start: start)
        default: return try escapedSymbol(scalar, start: start)
        }
    }

    /// An escaped punctuation or symbol stands for itself; letters and digits without a meaning are refused.
    func escapedSymbol(_ scalar: Unicode.Scalar, start: Int) throws(LinearRegex.SyntaxError) -> Unicode.Scalar {
        if scalar.properties.isAlphabetic || (scalar.value >= 0x30 && scalar.value <= 0x39) {
            let what =
                scalar.value >= 0x31 && scalar.value <= 0x39
                ? "backreferences are not supported" : "unknown escape '\\\(scalar)'"
            throw fail(what, at: start)
        }
        return scalar
    }

    /// `\u{…}`: one to eight hex digits naming a Unicode scalar (the cursor on the `{`).
    mutating func bracedScalar(start: Int) throws(LinearRegex.SyntaxError) -> Unicode.Scalar {
        position += 1
        var value: UInt32 = 0
        var digits = 0
        while let hexDigit = peek(), let digitValue = RegexPatternParser.hexValue(hexDigit) {
            guard digits < 8 else { throw fail("at most 8 hex digits in \\u{…}", at: start) }
            value = value * 16 + digitValue
            digits += 1
            position += 1
        }
        guard digits > 0, peek() == "}", let codePoint = Unicode.Scalar(value) else {
            throw fail("\\u{hex} naming a Unicode scalar", at: start)
        }
        position += 1
        return codePoint
    }

    mutating func hexScalar(digits: Int, start: Int) throws(LinearRegex.SyntaxError) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let hexDigit = peek(), let digitValue = RegexPatternParser.hexValue(hexDigit) else {
                throw fail("\(digits) hex digits", at: start)
            }
            value = value * 16 + digitValue
            position += 1
        }
        guard let scalar = Unicode.Scalar(value) else { throw fail("a Unicode scalar value", at: start) }
        return scalar
    }

    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46: return scalar.value - 0x41 + 10
        case 0x61...0x66: return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    mutating func bracketClass() throws(LinearRegex.SyntaxError) -> Int {
        let open = position
        position += 1
        var set = ScalarClass()
        if peek() == "^" {
            set.negated = true
            position += 1
        }
        var first = true
        while true {
            guard let scalar = peek() else { throw fail("']' to close the class opened at offset \(open)") }
            if scalar == "]" && !first {
                position += 1
                break
            }
            first = false
            var low: Unicode.Scalar
            if scalar == "\\" {
                let next = position + 1 < pattern.count ? pattern[position + 1] : nil
                switch next {
                case "d", "D":
                    position += 2
                    set.items.append(.digit(next == "D"))
                    continue
                case "w", "W":
                    position += 2
                    set.items.append(.word(next == "W"))
                    continue
                case "s", "S":
                    position += 2
                    set.items.append(.space(next == "S"))
                    continue
                case "b":
                    position += 2
                    low = "\u{08}"
                default: low = try escapedScalar()
                }
            } else {
                position += 1
                low = scalar
            }
            if peek() == "-", position + 1 < pattern.count, pattern[position + 1] != "]" {
                let dash = position
                position += 1
                let high: Unicode.Scalar
                if peek() == "\\" {
                    high = try escapedScalar()
                } else {
                    high = pattern[position]
                    position += 1
                }
                guard low.value <= high.value else {
                    throw fail("a range from low to high ('\(low)' > '\(high)')", at: dash)
                }
                set.items.append(.range(low.value, high.value))
            } else {
                set.items.append(.range(low.value, low.value))
            }
        }
        classes.append(set)
        return classes.count - 1
    }
}

/// Emits the Pike VM program, refusing programs above `LinearRegex.maxProgram` instructions.
struct RegexEmitter {
    var program: [LinearRegex.Inst] = []
    let classes: [ScalarClass]

    init(classes: [ScalarClass]) { self.classes = classes }

    mutating func append(_ inst: LinearRegex.Inst) throws(LinearRegex.SyntaxError) {
        guard program.count < LinearRegex.maxProgram else {
            throw LinearRegex.SyntaxError(
                offset: 0,
                reason: "regex too expensive: more than \(LinearRegex.maxProgram) states after expanding repetitions")
        }
        program.append(inst)
    }

    mutating func emit(_ node: RegexNode) throws(LinearRegex.SyntaxError) {
        switch node {
        case .empty: break
        case .scalar(let scalar): try append(.scalar(scalar))
        case .any(let dotAll): try append(.any(dotAll: dotAll))
        case .set(let classIndex): try append(.set(classIndex))
        case .assert(let assertion): try append(.assert(assertion))
        case .concat(let items): for item in items { try emit(item) }
        case .alternation(let branches): try emitAlternation(branches)
        case .repeated(let body, let low, let high): try emitRepetition(body, low: low, high: high)
        }
    }

    /// Each branch but the last: a split to it or onward, and a jump past the rest.
    mutating func emitAlternation(_ branches: [RegexNode]) throws(LinearRegex.SyntaxError) {
        var exits: [Int] = []
        for (classIndex, branch) in branches.enumerated() {
            if classIndex < branches.count - 1 {
                let split = program.count
                try append(.split(split + 1, 0))
                try emit(branch)
                exits.append(program.count)
                try append(.jump(0))
                program[split] = .split(split + 1, program.count)
            } else {
                try emit(branch)
            }
        }
        for exit in exits { program[exit] = .jump(program.count) }
    }

    /// `low` copies, then `high - low` optional copies or a loop.
    mutating func emitRepetition(_ body: RegexNode, low: Int, high: Int?) throws(LinearRegex.SyntaxError) {
        for _ in 0..<low { try emit(body) }
        if let high {
            var exits: [Int] = []
            for _ in low..<high {
                exits.append(program.count)
                try append(.split(program.count + 1, 0))
                try emit(body)
            }
            for exit in exits { program[exit] = .split(exit + 1, program.count) }
        } else {
            let loop = program.count
            try append(.split(loop + 1, 0))
            try emit(body)
            try append(.jump(loop))
            program[loop] = .split(loop + 1, program.count)
        }
    }
}
