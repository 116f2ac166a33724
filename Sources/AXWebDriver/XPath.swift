import AXQuery

/// XPath 1.0 over a `PageTree` (the Appium page source, parsed once per tree revision).
///
/// Supported: every axis but `namespace`; name tests, `*`, `node()`, `text()` (the page source has no text nodes,
/// so it matches nothing, as on Appium's XCUITest driver); predicates (numeric = position); `|`, `or`, `and`,
/// `=`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `-`, `*`, `div`, `mod`, unary minus; XPath 1.0's core function library
/// except `id()` and `lang()`, plus `ends-with`, `lower-case` and `upper-case` (XPath 2.0 names Appium users
/// write). Variables are refused. The expression is parsed once; errors name the offset (`invalid selector`).
/// Evaluation is bounded by a step budget (`XPathQuery.maxSteps`), so `//*[count(//*) > 0]` on a large tree fails
/// with a typed error instead of occupying the driver.
package struct XPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// 0-based offset in the expression (characters), or nil for evaluation errors.
    package var position: Int?
    package var description: String {
        position.map { "\(message) at offset \($0)" } ?? message
    }
}

/// A node of the page source: an element, one of its attributes, or the document node (`element == -1`).
package struct XPathNode: Hashable, Comparable, Sendable {
    package var element: Int
    package var attribute: Int
    /// An element (`attribute` -1) or one of its attributes (its index).
    package init(element: Int, attribute: Int) {
        self.element = element
        self.attribute = attribute
    }
    package static let document = XPathNode(element: -1, attribute: -1)
    package var isAttribute: Bool { attribute >= 0 }
    package static func < (lhs: XPathNode, rhs: XPathNode) -> Bool {
        lhs.element != rhs.element ? lhs.element < rhs.element : lhs.attribute < rhs.attribute
    }
}

/// An XPath value.
package enum XPathValue: Equatable, Sendable {
    case nodes([XPathNode])
    case string(String)
    case number(Double)
    case boolean(Bool)
}

enum XPathAxis: String, CaseIterable, Sendable {
    case child, descendant, parent, ancestor, attribute, following, preceding
    case descendantOrSelf = "descendant-or-self"
    case ancestorOrSelf = "ancestor-or-self"
    case followingSibling = "following-sibling"
    case precedingSibling = "preceding-sibling"
    case `self`

    var isReverse: Bool {
        switch self {
        case .parent, .ancestor, .ancestorOrSelf, .precedingSibling, .preceding: return true
        default: return false
        }
    }
}

enum XPathNodeTest: Equatable, Sendable {
    case anyName
    case name(String)
    case node
    case text
}

struct XPathStep: Sendable {
    var axis: XPathAxis
    var test: XPathNodeTest
    var predicates: [XPathExpr]
}

indirect enum XPathExpr: Sendable {
    case binary(String, XPathExpr, XPathExpr)
    case negate(XPathExpr)
    case path(absolute: Bool, steps: [XPathStep])
    case filter(XPathExpr, predicates: [XPathExpr], steps: [XPathStep])
    case literal(String)
    case number(Double)
    case function(String, [XPathExpr])

    /// True when the value is certainly not a number and uses no position: such a predicate keeps a node or not
    /// whatever its position, so `//name[p]` may be evaluated as `descendant::name[p]`.
    var isPositionIndependentBoolean: Bool {
        switch self {
        case .binary(let op, let lhs, let rhs):
            guard ["or", "and", "=", "!=", "<", "<=", ">", ">="].contains(op) else { return false }
            return lhs.usesNoPosition && rhs.usesNoPosition
        case .path, .filter: return usesNoPosition
        case .function(let name, _):
            return ["contains", "starts-with", "ends-with", "not", "true", "false", "boolean"].contains(name)
                && usesNoPosition
        default: return false
        }
    }

    /// No `position()` or `last()` outside nested predicates (which have their own context).
    var usesNoPosition: Bool {
        switch self {
        case .binary(_, let lhs, let rhs): return lhs.usesNoPosition && rhs.usesNoPosition
        case .negate(let inner): return inner.usesNoPosition
        case .path: return true
        case .filter(let primary, _, _): return primary.usesNoPosition
        case .literal, .number: return true
        case .function(let name, let arguments):
            return name != "position" && name != "last" && arguments.allSatisfy(\.usesNoPosition)
        }
    }
}

/// A compiled XPath expression.
package struct XPathQuery: Sendable {
    /// The longest expression accepted (characters).
    package static let maxLength = 16_384
    /// The deepest nesting of parentheses, predicates and operators accepted.
    package static let maxDepth = 64
    /// Node visits one evaluation may spend before it fails (`xpath too expensive`).
    package static let maxSteps = 5_000_000

    let root: XPathExpr
    /// The source text.
    package let source: String

    /// Parses `source`; a syntax error is an `XPathError` with the offset.
    package init(_ source: String) throws(XPathError) {
        self.source = source
        guard source.count <= XPathQuery.maxLength else {
            throw XPathError(message: "xpath longer than \(XPathQuery.maxLength) characters", position: nil)
        }
        var parser = XPathParser(tokens: try XPathLexer.tokens(source), length: source.count)
        root = try parser.parseAll()
    }

    /// The nodes (elements or attributes) the expression selects from the document node, in document order;
    /// an expression whose value is not a node-set is an error (WebDriver's `invalid selector`).
    package func select(in tree: PageTree, from context: XPathNode = .document) throws(XPathError) -> [XPathNode] {
        var evaluator = XPathEvaluator(tree: tree)
        let value = try evaluator.evaluate(root, XPathContext(node: context, position: 1, size: 1))
        guard case .nodes(let nodes) = value else {
            throw XPathError(message: "the expression does not select nodes (it is a \(value.typeName))", position: nil)
        }
        return nodes
    }

    /// The value of the expression (for tests).
    package func evaluate(in tree: PageTree) throws(XPathError) -> XPathValue {
        var evaluator = XPathEvaluator(tree: tree)
        return try evaluator.evaluate(root, XPathContext(node: .document, position: 1, size: 1))
    }
}

extension XPathValue {
    var typeName: String {
        switch self {
        case .nodes: return "node-set"
        case .string: return "string"
        case .number: return "number"
        case .boolean: return "boolean"
        }
    }
}

// MARK: - Lexer

enum XPathToken: Equatable {
    case name(String)
    case literal(String)
    case number(Double)
    case symbol(String)
    /// `and`, `or`, `div`, `mod`, `*` in operator position.
    case operatorName(String)
    case variable(String)
}

enum XPathLexer {
    static func isNameStart(_ character: Character) -> Bool {
        character.isLetter || character == "_"
    }
    static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "."
    }

    static func tokens(_ source: String) throws(XPathError) -> [(XPathToken, Int)] {
        var tokenizer = XPathTokenizer(characters: Array(source))
        try tokenizer.run()
        return tokenizer.tokens
    }
}

/// The state of one `XPathLexer.tokens(_:)` run: the source's characters, the cursor and the tokens so far.
struct XPathTokenizer {
    let characters: [Character]
    var tokens: [(XPathToken, Int)] = []
    var index = 0

    init(characters: [Character]) {
        self.characters = characters
    }

    /// XPath 1.0 §3.7: `*` and the names and/or/div/mod are operators when a token precedes them that is not
    /// `@`, `::`, `(`, `[`, `,` or an operator.
    func operatorPosition() -> Bool {
        guard let last = tokens.last?.0 else { return false }
        switch last {
        case .symbol(let symbol):
            return [")", "]", ".", ".."].contains(symbol)
        case .operatorName: return false
        default: return true
        }
    }

    mutating func run() throws(XPathError) {
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "\"" || character == "'" {
                try literal(quote: character)
            } else if startsNumber(character) {
                try number()
            } else if XPathLexer.isNameStart(character) {
                try name()
            } else if character == "$" {
                variable()
            } else {
                try symbol(character)
            }
        }
    }

    func isDigit(at position: Int) -> Bool {
        position < characters.count && characters[position].isASCII && characters[position].isNumber
    }

    /// A digit, or a `.` followed by a digit.
    func startsNumber(_ character: Character) -> Bool {
        isDigit(at: index) || (character == "." && isDigit(at: index + 1))
    }

    mutating func literal(quote: Character) throws(XPathError) {
        let start = index
        guard let close = characters[(index + 1)...].firstIndex(of: quote) else {
            throw XPathError(message: "unterminated string literal", position: start)
        }
        tokens.append((.literal(String(characters[(index + 1)..<close])), start))
        index = close + 1
    }

    mutating func number() throws(XPathError) {
        let start = index
        while isDigit(at: index) || (index < characters.count && characters[index] == ".") { index += 1 }
        guard let number = Double(String(characters[start..<index])) else {
            throw XPathError(message: "malformed number", position: start)
        }
        tokens.append((.number(number), start))
    }

    /// A name or QName `prefix:local` (`prefix:*`), an operator name in operator position.
    mutating func name() throws(XPathError) {
        let start = index
        skipNameCharacters()
        // A QName prefix:local (but not the axis separator ::).
        if index + 1 < characters.count, characters[index] == ":", characters[index + 1] != ":",
            XPathLexer.isNameStart(characters[index + 1]) || characters[index + 1] == "*"
        {
            index += 1
            if characters[index] == "*" {
                index += 1
            } else {
                skipNameCharacters()
            }
        }
        let name = String(characters[start..<index])
        guard operatorPosition() else {
            tokens.append((.name(name), start))
            return
        }
        guard ["and", "or", "div", "mod"].contains(name) else {
            throw XPathError(message: "expected an operator, found '\(name)'", position: start)
        }
        tokens.append((.operatorName(name), start))
    }

    mutating func skipNameCharacters() {
        while index < characters.count, XPathLexer.isNameCharacter(characters[index]) { index += 1 }
    }

    mutating func variable() {
        let start = index
        index += 1
        skipNameCharacters()
        tokens.append((.variable(String(characters[(start + 1)..<index])), start))
    }

    /// A two-character symbol, `*` (an operator in operator position), or a one-character symbol.
    mutating func symbol(_ character: Character) throws(XPathError) {
        let start = index
        let two = index + 1 < characters.count ? String(characters[index...(index + 1)]) : ""
        if ["//", "::", "..", "!=", "<=", ">="].contains(two) {
            tokens.append((.symbol(two), start))
            index += 2
        } else if character == "*" {
            tokens.append((operatorPosition() ? .operatorName("*") : .symbol("*"), start))
            index += 1
        } else if "()[].@,/|+-=<>".contains(character) {
            tokens.append((.symbol(String(character)), start))
            index += 1
        } else {
            throw XPathError(message: "unexpected character '\(character)'", position: start)
        }
    }
}

// MARK: - Parser

struct XPathParser {
    let tokens: [(XPathToken, Int)]
    let length: Int
    var index = 0
    var depth = 0

    init(tokens: [(XPathToken, Int)], length: Int) {
        self.tokens = tokens
        self.length = length
    }

    static let functions: [String: ClosedRange<Int>] = [
        "last": 0...0, "position": 0...0, "count": 1...1, "string": 0...1, "concat": 2...Int.max,
        "starts-with": 2...2, "ends-with": 2...2, "contains": 2...2, "substring-before": 2...2,
        "substring-after": 2...2, "substring": 2...3, "string-length": 0...1, "normalize-space": 0...1,
        "translate": 3...3, "not": 1...1, "true": 0...0, "false": 0...0, "boolean": 1...1, "number": 0...1,
        "sum": 1...1, "floor": 1...1, "ceiling": 1...1, "round": 1...1, "name": 0...1, "local-name": 0...1,
        "lower-case": 1...1, "upper-case": 1...1,
    ]

    var current: XPathToken? { index < tokens.count ? tokens[index].0 : nil }
    var position: Int { index < tokens.count ? tokens[index].1 : length }
    func peek(_ offset: Int) -> XPathToken? { index + offset < tokens.count ? tokens[index + offset].0 : nil }

    func fail(_ message: String) -> XPathError { XPathError(message: message, position: position) }

    func describe(_ token: XPathToken?) -> String {
        switch token {
        case nil: return "end of expression"
        case .name(let name), .operatorName(let name): return "'\(name)'"
        case .literal(let text): return "string '\(text)'"
        case .number(let number): return "number \(number)"
        case .symbol(let symbol): return "'\(symbol)'"
        case .variable(let name): return "'$\(name)'"
        }
    }

    mutating func accept(_ symbol: String) -> Bool {
        if current == .symbol(symbol) {
            index += 1
            return true
        }
        return false
    }

    mutating func expect(_ symbol: String) throws(XPathError) {
        guard accept(symbol) else { throw fail("expected '\(symbol)', found \(describe(current))") }
    }

    mutating func parseAll() throws(XPathError) -> XPathExpr {
        guard !tokens.isEmpty else { throw fail("empty expression") }
        let expression = try parseExpression()
        guard index == tokens.count else { throw fail("unexpected \(describe(current))") }
        return expression
    }

    mutating func parseExpression() throws(XPathError) -> XPathExpr {
        depth += 1
        defer { depth -= 1 }
        guard depth <= XPathQuery.maxDepth else { throw fail("expression nested deeper than \(XPathQuery.maxDepth)") }
        return try parseBinary(level: 0)
    }

    static let levels: [[String]] = [
        ["or"], ["and"], ["=", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "div", "mod"],
    ]

    mutating func parseBinary(level: Int) throws(XPathError) -> XPathExpr {
        if level == XPathParser.levels.count { return try parseUnary() }
        var lhs = try parseBinary(level: level + 1)
        while let token = current {
            let op: String
            switch token {
            case .operatorName(let name): op = name
            case .symbol(let symbol): op = symbol
            default: return lhs
            }
            guard XPathParser.levels[level].contains(op) else { return lhs }
            index += 1
            let rhs = try parseBinary(level: level + 1)
            lhs = .binary(op, lhs, rhs)
        }
        return lhs
    }

    mutating func parseUnary() throws(XPathError) -> XPathExpr {
        if accept("-") { return .negate(try parseUnary()) }
        var lhs = try parsePath()
        while accept("|") { lhs = .binary("|", lhs, try parsePath()) }
        return lhs
    }

    mutating func parsePath() throws(XPathError) -> XPathExpr {
        switch current {
        case .symbol("/"):
            index += 1
            if startsStep { return .path(absolute: true, steps: try parseRelative()) }
            return .path(absolute: true, steps: [])
        case .symbol("//"):
            index += 1
            return .path(absolute: true, steps: [XPathParser.descendantOrSelf] + (try parseRelative()))
        case .symbol("("), .literal, .number, .variable:
            return try parseFilter()
        case .name(let name)
        where peek(1) == .symbol("(") && !["node", "text", "comment", "processing-instruction"].contains(name):
            return try parseFilter()
        default:
            guard startsStep else { throw fail("expected a location step, found \(describe(current))") }
            return .path(absolute: false, steps: try parseRelative())
        }
    }

    static let descendantOrSelf = XPathStep(axis: .descendantOrSelf, test: .node, predicates: [])

    var startsStep: Bool {
        switch current {
        case .name: return true
        case .symbol(let symbol): return ["*", "@", ".", ".."].contains(symbol)
        default: return false
        }
    }

    /// `name(arguments…)`: a supported function with an argument count its arity allows.
    mutating func parseFunctionCall(_ name: String) throws(XPathError) -> XPathExpr {
        guard let arity = XPathParser.functions[name] else {
            throw fail(
                "unknown function '\(name)()' (supported: \(XPathParser.functions.keys.sorted().joined(separator: ", ")))"
            )
        }
        index += 2
        var arguments: [XPathExpr] = []
        if !accept(")") {
            repeat { arguments.append(try parseExpression()) } while accept(",")
            try expect(")")
        }
        guard arity.contains(arguments.count) else {
            throw fail(
                "\(name)() takes \(arity.upperBound == Int.max ? "at least \(arity.lowerBound)" : arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) or \(arity.upperBound)") argument(s), got \(arguments.count)"
            )
        }
        return .function(name, arguments)
    }

    mutating func parseFilter() throws(XPathError) -> XPathExpr {
        let primary: XPathExpr
        switch current {
        case .symbol("("):
            index += 1
            primary = try parseExpression()
            try expect(")")
        case .literal(let text):
            index += 1
            primary = .literal(text)
        case .number(let number):
            index += 1
            primary = .number(number)
        case .variable(let name):
            throw fail("variables are not supported ('$\(name)')")
        case .name(let name):
            primary = try parseFunctionCall(name)
        default:
            throw fail("expected an expression, found \(describe(current))")
        }
        var predicates: [XPathExpr] = []
        while accept("[") {
            predicates.append(try parseExpression())
            try expect("]")
        }
        var steps: [XPathStep] = []
        if accept("/") {
            steps = try parseRelative()
        } else if accept("//") {
            steps = [XPathParser.descendantOrSelf] + (try parseRelative())
        }
        if predicates.isEmpty && steps.isEmpty { return primary }
        return .filter(primary, predicates: predicates, steps: steps)
    }

    mutating func parseRelative() throws(XPathError) -> [XPathStep] {
        var steps = [try parseStep()]
        while true {
            if accept("/") {
                steps.append(try parseStep())
            } else if accept("//") {
                steps.append(XPathParser.descendantOrSelf)
                steps.append(try parseStep())
            } else {
                return steps
            }
        }
    }

    mutating func parseStep() throws(XPathError) -> XPathStep {
        if accept(".") { return XPathStep(axis: .self, test: .node, predicates: []) }
        if accept("..") { return XPathStep(axis: .parent, test: .node, predicates: []) }
        var axis = XPathAxis.child
        if accept("@") {
            axis = .attribute
        } else if case .name(let name) = current, peek(1) == .symbol("::") {
            guard let named = XPathAxis(rawValue: name) else {
                throw fail(
                    "unknown axis '\(name)' (supported: \(XPathAxis.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            axis = named
            index += 2
        }
        let test: XPathNodeTest
        switch current {
        case .symbol("*"):
            index += 1
            test = .anyName
        case .name(let name):
            index += 1
            if ["node", "text", "comment", "processing-instruction"].contains(name), accept("(") {
                try expect(")")
                test = name == "node" ? .node : .text
            } else {
                test = .name(name)
            }
        default:
            throw fail("expected a node test, found \(describe(current))")
        }
        var predicates: [XPathExpr] = []
        while accept("[") {
            predicates.append(try parseExpression())
            try expect("]")
        }
        return XPathStep(axis: axis, test: test, predicates: predicates)
    }
}

// MARK: - Evaluator

struct XPathContext {
    var node: XPathNode
    var position: Int
    var size: Int
}

/// A function call's name, evaluated arguments and context.
struct XPathCall {
    var name: String
    var values: [XPathValue]
    var context: XPathContext
}

struct XPathEvaluator {
    let tree: PageTree
    var steps = 0

    init(tree: PageTree) { self.tree = tree }

    mutating func spend(_ count: Int) throws(XPathError) {
        steps = steps.addingReportingOverflow(count).overflow ? Int.max : steps + count
        if steps > XPathQuery.maxSteps {
            throw XPathError(
                message: "xpath too expensive (more than \(XPathQuery.maxSteps) node visits)", position: nil)
        }
    }

    mutating func evaluate(_ expression: XPathExpr, _ context: XPathContext) throws(XPathError) -> XPathValue {
        switch expression {
        case .literal(let text): return .string(text)
        case .number(let number): return .number(number)
        case .negate(let inner): return .number(-number(try evaluate(inner, context)))
        case .path(let absolute, let steps):
            let start: XPathNode = absolute ? .document : context.node
            return .nodes(try walk([start], steps))
        case .filter(let primary, let predicates, let steps):
            guard case .nodes(var nodes) = try evaluate(primary, context) else {
                throw XPathError(
                    message: "a predicate or path applied to something that is not a node-set", position: nil)
            }
            for predicate in predicates { nodes = try filter(nodes, predicate) }
            return .nodes(steps.isEmpty ? nodes : try walk(nodes, steps))
        case .function(let name, let arguments):
            return try call(name, arguments, context)
        case .binary(let op, let lhsExpression, let rhsExpression):
            return try binary(op, lhsExpression, rhsExpression, context)
        }
    }

    /// `or` and `and` (the right side only when needed), `|`, arithmetic, comparisons.
    mutating func binary(_ op: String, _ lhsExpression: XPathExpr, _ rhsExpression: XPathExpr, _ context: XPathContext)
        throws(XPathError) -> XPathValue
    {
        switch op {
        case "or":
            if boolean(try evaluate(lhsExpression, context)) { return .boolean(true) }
            return .boolean(boolean(try evaluate(rhsExpression, context)))
        case "and":
            if !boolean(try evaluate(lhsExpression, context)) { return .boolean(false) }
            return .boolean(boolean(try evaluate(rhsExpression, context)))
        default: break
        }
        let lhs = try evaluate(lhsExpression, context)
        let rhs = try evaluate(rhsExpression, context)
        switch op {
        case "|":
            guard case .nodes(let left) = lhs, case .nodes(let right) = rhs else {
                throw XPathError(message: "'|' joins node-sets only", position: nil)
            }
            return .nodes(Array(Set(left).union(right)).sorted())
        case "+": return .number(number(lhs) + number(rhs))
        case "-": return .number(number(lhs) - number(rhs))
        case "*": return .number(number(lhs) * number(rhs))
        case "div": return .number(number(lhs) / number(rhs))
        case "mod": return .number(number(lhs).truncatingRemainder(dividingBy: number(rhs)))
        default: return .boolean(try compare(op, lhs, rhs))
        }
    }

    /// Applies `steps` to every context node; the union in document order.
    mutating func walk(_ start: [XPathNode], _ steps: [XPathStep]) throws(XPathError) -> [XPathNode] {
        var nodes = start
        var index = 0
        while index < steps.count {
            var step = steps[index]
            // `//name[p]` (descendant-or-self::node()/child::name[p]) is descendant::name[p] when no predicate
            // depends on the position: one pass over each subtree instead of a union over every descendant.
            if step.axis == .descendantOrSelf, step.test == .node, step.predicates.isEmpty, index + 1 < steps.count,
                steps[index + 1].axis == .child, steps[index + 1].predicates.allSatisfy(\.isPositionIndependentBoolean)
            {
                step = steps[index + 1]
                step.axis = .descendant
                index += 1
            }
            var result: [XPathNode] = []
            for node in nodes {
                var selected = try axisNodes(node, step)
                for predicate in step.predicates { selected = try filter(selected, predicate) }
                result.append(contentsOf: selected)
            }
            if nodes.count > 1 || step.axis.isReverse {
                result = Array(Set(result)).sorted()
            }
            nodes = result
            index += 1
        }
        return nodes
    }

    /// Keeps the nodes for which `predicate` holds; positions count in axis order (reverse axes list nearest first).
    mutating func filter(_ nodes: [XPathNode], _ predicate: XPathExpr) throws(XPathError) -> [XPathNode] {
        var kept: [XPathNode] = []
        for (offset, node) in nodes.enumerated() {
            try spend(1)
            let value = try evaluate(predicate, XPathContext(node: node, position: offset + 1, size: nodes.count))
            if case .number(let number) = value {
                if number == Double(offset + 1) { kept.append(node) }
            } else if boolean(value) {
                kept.append(node)
            }
        }
        return kept
    }

    func matches(_ element: Int, _ test: XPathNodeTest) -> Bool {
        switch test {
        case .anyName, .node: return true
        case .name(let name): return tree.names[element] == name
        case .text: return false
        }
    }

    /// The nodes of `step`'s axis from `node` that pass its node test, in axis order (reverse axes nearest first).
    mutating func axisNodes(_ node: XPathNode, _ step: XPathStep) throws(XPathError) -> [XPathNode] {
        var out: [XPathNode] = []
        switch step.axis {
        case .self: selfAxis(node, step.test, into: &out)
        case .child: try childAxis(node, step.test, into: &out)
        case .descendant, .descendantOrSelf: try descendantAxis(node, step, into: &out)
        case .parent, .ancestor, .ancestorOrSelf: try ancestorAxis(node, step, into: &out)
        case .followingSibling, .precedingSibling: try siblingAxis(node, step, into: &out)
        case .following: try followingAxis(node, step.test, into: &out)
        case .preceding: try precedingAxis(node, step.test, into: &out)
        case .attribute: try attributeAxis(node, step.test, into: &out)
        }
        return out
    }

    /// Appends the element at `index` when it passes the node test.
    func appendElement(_ index: Int, _ test: XPathNodeTest, to out: inout [XPathNode]) {
        if matches(index, test) { out.append(XPathNode(element: index, attribute: -1)) }
    }

    /// The document node, an attribute or an element itself, when it passes the test (`node()` for the document).
    func appendSelf(_ node: XPathNode, _ test: XPathNodeTest, to out: inout [XPathNode]) {
        if node.isAttribute {
            if test == .node || test == .anyName { out.append(node) }
            if case .name(let name) = test, tree.attributes[node.element][node.attribute].name == name {
                out.append(node)
            }
        } else if node.element < 0 {
            if test == .node { out.append(node) }
        } else {
            appendElement(node.element, test, to: &out)
        }
    }

    func selfAxis(_ node: XPathNode, _ test: XPathNodeTest, into out: inout [XPathNode]) {
        appendSelf(node, test, to: &out)
    }

    mutating func childAxis(_ node: XPathNode, _ test: XPathNodeTest, into out: inout [XPathNode])
        throws(XPathError)
    {
        guard !node.isAttribute else { return }
        if node.element < 0 {
            if tree.count > 0 { appendElement(0, test, to: &out) }
        } else {
            try spend(tree.children[node.element].count)
            for child in tree.children[node.element] { appendElement(child, test, to: &out) }
        }
    }

    mutating func descendantAxis(_ node: XPathNode, _ step: XPathStep, into out: inout [XPathNode])
        throws(XPathError)
    {
        let isDocument = node.element < 0
        guard !node.isAttribute else {
            if step.axis == .descendantOrSelf, step.test == .node { out.append(node) }
            return
        }
        if step.axis == .descendantOrSelf {
            if isDocument {
                if step.test == .node { out.append(node) }
            } else {
                appendElement(node.element, step.test, to: &out)
            }
        }
        let range = isDocument ? 0..<tree.count : (node.element + 1)..<tree.subtreeEnd[node.element]
        try spend(range.count)
        for index in range { appendElement(index, step.test, to: &out) }
    }

    mutating func ancestorAxis(_ node: XPathNode, _ step: XPathStep, into out: inout [XPathNode])
        throws(XPathError)
    {
        let isDocument = node.element < 0
        let isAttribute = node.isAttribute
        if step.axis == .ancestorOrSelf {
            if isAttribute || isDocument {
                if step.test == .node { out.append(node) }
            } else {
                appendElement(node.element, step.test, to: &out)
            }
        }
        guard !isDocument else { return }
        var current = isAttribute ? node.element : tree.parent[node.element]
        if isAttribute {
            // An attribute's parent is its element.
            appendElement(current, step.test, to: &out)
            if step.axis == .parent { return }
            current = tree.parent[current]
        }
        while true {
            try spend(1)
            if current < 0 {
                if step.test == .node { out.append(.document) }
                return
            }
            appendElement(current, step.test, to: &out)
            if step.axis == .parent { return }
            current = tree.parent[current]
        }
    }

    mutating func siblingAxis(_ node: XPathNode, _ step: XPathStep, into out: inout [XPathNode])
        throws(XPathError)
    {
        guard !node.isAttribute, node.element >= 0 else { return }
        let parent = tree.parent[node.element]
        let siblings = parent < 0 ? [node.element] : tree.children[parent]
        guard let position = siblings.firstIndex(of: node.element) else { return }
        try spend(siblings.count)
        if step.axis == .followingSibling {
            for sibling in siblings[(position + 1)...] { appendElement(sibling, step.test, to: &out) }
        } else {
            for sibling in siblings[..<position].reversed() { appendElement(sibling, step.test, to: &out) }
        }
    }

    mutating func followingAxis(_ node: XPathNode, _ test: XPathNodeTest, into out: inout [XPathNode])
        throws(XPathError)
    {
        guard node.element >= 0 else { return }
        let start = node.isAttribute ? node.element + 1 : tree.subtreeEnd[node.element]
        try spend(tree.count - start)
        for index in start..<tree.count { appendElement(index, test, to: &out) }
    }

    mutating func precedingAxis(_ node: XPathNode, _ test: XPathNodeTest, into out: inout [XPathNode])
        throws(XPathError)
    {
        guard node.element >= 0 else { return }
        var ancestors = Set<Int>()
        var current = node.isAttribute ? node.element : tree.parent[node.element]
        if node.isAttribute { ancestors.insert(node.element) }
        while current >= 0 {
            ancestors.insert(current)
            current = tree.parent[current]
        }
        try spend(node.element)
        for index in stride(from: node.element - 1, through: 0, by: -1) where !ancestors.contains(index) {
            appendElement(index, test, to: &out)
        }
    }

    mutating func attributeAxis(_ node: XPathNode, _ test: XPathNodeTest, into out: inout [XPathNode])
        throws(XPathError)
    {
        guard !node.isAttribute, node.element >= 0 else { return }
        let attributes = tree.attributes[node.element]
        try spend(attributes.count)
        for (offset, attribute) in attributes.enumerated() {
            switch test {
            case .anyName, .node: out.append(XPathNode(element: node.element, attribute: offset))
            case .name(let name) where attribute.name == name:
                out.append(XPathNode(element: node.element, attribute: offset))
            default: break
            }
        }
    }

    // MARK: Conversions (XPath 1.0 §4)

    func stringValue(_ node: XPathNode) -> String {
        node.isAttribute ? tree.attributes[node.element][node.attribute].value : ""
    }

    func name(_ node: XPathNode) -> String {
        if node.isAttribute { return tree.attributes[node.element][node.attribute].name }
        return node.element >= 0 ? tree.names[node.element] : ""
    }

    func string(_ value: XPathValue) -> String {
        switch value {
        case .string(let text): return text
        case .boolean(let flag): return flag ? "true" : "false"
        case .number(let number): return XPathEvaluator.format(number)
        case .nodes(let nodes): return nodes.first.map(stringValue) ?? ""
        }
    }

    static func format(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    func number(_ value: XPathValue) -> Double {
        switch value {
        case .number(let number): return number
        case .boolean(let flag): return flag ? 1 : 0
        case .string, .nodes: return XPathEvaluator.parseNumber(string(value))
        }
    }

    /// XPath's Number production (optional minus, digits, optional fraction); anything else is NaN.
    static func parseNumber(_ text: String) -> Double {
        let trimmed = text.trimmingCharacters()
        var body = Substring(trimmed)
        if body.first == "-" { body = body.dropFirst() }
        guard !body.isEmpty, body.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
            body.filter({ $0 == "." }).count <= 1, body != "."
        else { return .nan }
        return Double(trimmed) ?? Double("0" + trimmed) ?? .nan
    }

    func boolean(_ value: XPathValue) -> Bool {
        switch value {
        case .boolean(let flag): return flag
        case .number(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        case .nodes(let nodes): return !nodes.isEmpty
        }
    }

    func compare(_ op: String, _ lhs: XPathValue, _ rhs: XPathValue) throws(XPathError) -> Bool {
        func atoms(_ value: XPathValue) -> [XPathValue] {
            if case .nodes(let nodes) = value { return nodes.map { .string(stringValue($0)) } }
            return [value]
        }
        // A node-set against a boolean compares the set's boolean (§3.4).
        if case .nodes = lhs, case .boolean = rhs { return compareAtoms(op, .boolean(boolean(lhs)), rhs) }
        if case .boolean = lhs, case .nodes = rhs { return compareAtoms(op, lhs, .boolean(boolean(rhs))) }
        for left in atoms(lhs) {
            for right in atoms(rhs) where compareAtoms(op, left, right) { return true }
        }
        return false
    }

    func compareAtoms(_ op: String, _ lhs: XPathValue, _ rhs: XPathValue) -> Bool {
        switch op {
        case "=", "!=":
            let equal: Bool
            if case .boolean = lhs {
                equal = boolean(lhs) == boolean(rhs)
            } else if case .boolean = rhs {
                equal = boolean(lhs) == boolean(rhs)
            } else if case .number = lhs {
                equal = number(lhs) == number(rhs)
            } else if case .number = rhs {
                equal = number(lhs) == number(rhs)
            } else {
                equal = string(lhs) == string(rhs)
            }
            return op == "=" ? equal : !equal
        case "<": return number(lhs) < number(rhs)
        case "<=": return number(lhs) <= number(rhs)
        case ">": return number(lhs) > number(rhs)
        default: return number(lhs) >= number(rhs)
        }
    }

    // MARK: Functions (XPath 1.0 §4)

    mutating func call(_ name: String, _ arguments: [XPathExpr], _ context: XPathContext) throws(XPathError)
        -> XPathValue
    {
        var values: [XPathValue] = []
        for argument in arguments { values.append(try evaluate(argument, context)) }
        let call = XPathCall(name: name, values: values, context: context)
        try spend(stringWork(call))
        if let value = try nodeFunction(call) { return value }
        if let value = stringFunction(call) { return value }
        if let value = numberFunction(call) { return value }
        throw XPathError(message: "unknown function '\(name)()'", position: nil)
    }

    /// The string functions, whose work (`stringWork`) counts against the visit budget.
    static let stringFunctions: Set<String> = [
        "string", "concat", "starts-with", "ends-with", "contains", "substring-before", "substring-after",
        "substring", "string-length", "normalize-space", "translate", "lower-case", "upper-case",
    ]

    /// The work a string function call does, charged to the visit budget before it runs (one visit per UTF-8
    /// byte it reads): the sum of its arguments' lengths, and for a search (`contains`, `substring-before`,
    /// `substring-after`) the string's length times the searched-for text's (the worst case of the search).
    /// So `substring()` of a 16,000-character literal in a predicate over every node fails with `xpath too
    /// expensive` instead of running for seconds outside the budget.
    func stringWork(_ call: XPathCall) -> Int {
        guard XPathEvaluator.stringFunctions.contains(call.name) else { return 0 }
        let lengths =
            call.values.isEmpty
            ? [stringValue(call.context.node).utf8.count] : call.values.map { string($0).utf8.count }
        let total = lengths.reduce(0) { $0.addingReportingOverflow($1).overflow ? Int.max : $0 + $1 }
        switch call.name {
        case "contains", "substring-before", "substring-after":
            let (product, overflow) = lengths[0].multipliedReportingOverflow(by: max(1, lengths[1]))
            return overflow ? Int.max : max(total, product)
        default:
            return total
        }
    }

    /// The string value of argument `index`, or of the context node when there is none.
    func text(_ call: XPathCall, _ index: Int) -> String {
        index < call.values.count ? string(call.values[index]) : stringValue(call.context.node)
    }

    /// Argument `index` as a node-set; any other type is an error.
    func nodes(_ call: XPathCall, _ index: Int) throws(XPathError) -> [XPathNode] {
        guard case .nodes(let nodes) = call.values[index] else {
            throw XPathError(message: "\(call.name)() needs a node-set", position: nil)
        }
        return nodes
    }

    /// The functions on the context and on node-sets: last, position, count, sum, name, local-name.
    func nodeFunction(_ call: XPathCall) throws(XPathError) -> XPathValue? {
        switch call.name {
        case "last": return .number(Double(call.context.size))
        case "position": return .number(Double(call.context.position))
        case "count": return .number(Double(try nodes(call, 0).count))
        case "sum": return .number(try nodes(call, 0).reduce(0) { $0 + XPathEvaluator.parseNumber(stringValue($1)) })
        case "name", "local-name":
            let node = call.values.isEmpty ? call.context.node : try nodes(call, 0).first
            guard let node else { return .string("") }
            let full = self.name(node)
            if call.name == "local-name", let colon = full.lastIndex(of: ":") {
                return .string(String(full[full.index(after: colon)...]))
            }
            return .string(full)
        default: return nil
        }
    }

    /// The string functions (XPath 1.0 §4.2, and lower-case / upper-case from XPath 2.0).
    func stringFunction(_ call: XPathCall) -> XPathValue? {
        switch call.name {
        case "string": return .string(text(call, 0))
        case "concat": return .string(call.values.map(string).joined())
        case "starts-with": return .boolean(text(call, 0).hasPrefix(text(call, 1)))
        case "ends-with": return .boolean(text(call, 0).hasSuffix(text(call, 1)))
        case "contains": return .boolean(text(call, 1).isEmpty || text(call, 0).contains(text(call, 1)))
        case "substring-before", "substring-after": return .string(substringAround(call))
        case "substring": return .string(substring(call))
        case "string-length": return .number(Double(text(call, 0).count))
        case "normalize-space":
            return .string(text(call, 0).split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
        case "translate": return .string(translate(call))
        case "lower-case": return .string(text(call, 0).lowercased())
        case "upper-case": return .string(text(call, 0).uppercased())
        default: return nil
        }
    }

    /// `substring-before(s, t)` / `substring-after(s, t)`: the part before or after the first `t`, or "".
    func substringAround(_ call: XPathCall) -> String {
        let whole = text(call, 0)
        guard let range = whole.firstRange(of: text(call, 1)) else { return "" }
        return call.name == "substring-before"
            ? String(whole[..<range.lowerBound]) : String(whole[range.upperBound...])
    }

    /// `substring(s, start, length?)`: 1-based, rounded positions (§4.2).
    func substring(_ call: XPathCall) -> String {
        let values = call.values
        let characters = Array(text(call, 0))
        let start = number(values[1]).rounded(.toNearestOrAwayFromZero)
        let length = values.count > 2 ? number(values[2]).rounded(.toNearestOrAwayFromZero) : .infinity
        guard !start.isNaN, !length.isNaN else { return "" }
        let first = max(start, 1)
        let end = min(start + length, Double(characters.count + 1))
        guard first < end else { return "" }
        return String(characters[(Int(first) - 1)..<(Int(end) - 1)])
    }

    /// `translate(s, from, to)`: characters of `from` replaced by those at the same place in `to`, or dropped.
    func translate(_ call: XPathCall) -> String {
        let to = Array(text(call, 2))
        // The first occurrence in `from` decides (§4.2); a table keeps this linear.
        var replacement: [Character: Character?] = [:]
        for (index, character) in text(call, 1).enumerated() where replacement[character] == nil {
            replacement[character] = .some(index < to.count ? to[index] : nil)
        }
        var out = ""
        for character in text(call, 0) {
            if let mapped = replacement[character] {
                if let mapped { out.append(mapped) }
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The boolean and number functions (§4.3, §4.4).
    func numberFunction(_ call: XPathCall) -> XPathValue? {
        let values = call.values
        switch call.name {
        case "not": return .boolean(!boolean(values[0]))
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "boolean": return .boolean(boolean(values[0]))
        case "number":
            return .number(
                values.isEmpty ? XPathEvaluator.parseNumber(stringValue(call.context.node)) : number(values[0]))
        case "floor": return .number(number(values[0]).rounded(.down))
        case "ceiling": return .number(number(values[0]).rounded(.up))
        case "round": return .number((number(values[0]) + 0.5).rounded(.down))
        default: return nil
        }
    }
}
