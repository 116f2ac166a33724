import AXCore
import AXJSON
import AXQuery
import XCTest

/// Random trees and random selectors, checked against a brute-force reference evaluator written from
/// Specs/selectors.md §6 using only the AXTree API (no index, no ranges, quadratic and obviously correct).
final class DifferentialTests: XCTestCase {
    struct RNG {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ a: [T]) -> T { a[int(a.count)] }
        mutating func chance(_ p: Int) -> Bool { int(100) < p }
    }

    static let words = ["Alpha", "Beta", "Gamma", "alpha beta", "Delta"]

    /// Returns the view JSON and its height; children are stacked vertically so reading order = array order.
    static func randomView(_ rng: inout RNG, id: inout Int, depth: Int) -> (JSON, Double) {
        id += 1
        let vid = "v\(id)"
        if depth < 4 && rng.chance(30) {
            var kids: [JSON] = []
            var yValue = 0.0
            for _ in 0..<(1 + rng.int(5)) {
                var (key, header) = randomView(&rng, id: &id, depth: depth + 1)
                if case .object(var object) = key {
                    object["frame"] = [10, .number(yValue), 300, .number(header)]
                    key = .object(object)
                }
                kids.append(key)
                yValue += header + 10
            }
            return (
                Fixtures.view(vid, "UIView", [0, 0, 320, yValue], ["shouldGroupAccessibilityChildren": true], kids),
                yValue
            )
        }
        switch rng.int(3) {
        case 0:
            return (
                Fixtures.view(
                    vid, "UIButton", [0, 0, 100, 30],
                    ["title": .string(rng.pick(words)), "isEnabled": .bool(rng.chance(70))]), 30
            )
        case 1: return (Fixtures.view(vid, "UILabel", [0, 0, 100, 30], ["text": .string(rng.pick(words))]), 30)
        default:
            return (
                Fixtures.view(
                    vid, "UISwitch", [0, 0, 51, 30],
                    ["isOn": .bool(rng.chance(50)), "accessibilityLabel": .string(rng.pick(words))]), 30
            )
        }
    }

    static func randomTree(_ rng: inout RNG) -> JSON {
        var id = 0
        var windows: [JSON] = []
        for window in 0..<(1 + rng.int(2)) {
            var kids: [JSON] = []
            var yValue = 0.0
            for _ in 0..<(3 + rng.int(6)) {
                var (key, header) = randomView(&rng, id: &id, depth: 1)
                if case .object(var object) = key {
                    object["frame"] = [0, .number(yValue), 320, .number(header)]
                    key = .object(object)
                }
                kids.append(key)
                yValue += header + 10
            }
            windows.append(
                Fixtures.view(
                    "win\(window)", "UIWindow", [0, 0, 390, 500], ["windowLevel": .number(Double(window))], kids))
        }
        return ["windows": .array(windows)]
    }

    // MARK: - Reference evaluator

    struct Ref {
        let tree: AXTree
        var order: [String] = []
        var pos: [String: Int] = [:]

        init(_ tree: AXTree) {
            self.tree = tree
            var object: [String] = []
            tree.walk { node, _ in
                object.append(node.id)
                return true
            }
            order = object
            for (i, xValue) in object.enumerated() { pos[xValue] = i }
        }

        func isDescendant(_ x: String, of a: String) -> Bool { tree.ancestors(of: x).contains(a) }
        func siblings(_ x: String) -> [String] {
            if let point = tree[x]?.parent { return tree[point]!.children }
            return tree.windows
        }
        func relation(_ c: String, _ p: String, _ x: String) -> Bool {
            switch c {
            case " ": return isDescendant(x, of: p)
            case ">": return tree[x]?.parent == p
            case "+":
                let otherSiblings = siblings(p)
                if let firstPosition = otherSiblings.firstIndex(of: p), firstPosition + 1 < otherSiblings.count {
                    return otherSiblings[firstPosition + 1] == x
                }
                return false
            case "~":
                let otherSiblings = siblings(p)
                if let firstPosition = otherSiblings.firstIndex(of: p),
                    let secondPosition = otherSiblings.firstIndex(of: x)
                {
                    return secondPosition > firstPosition
                }
                return false
            default: fatalError()
            }
        }

        struct Comp {
            var role: AXRole?
            var label: (String, String)?  // op, value
            var state: String?
            var has: (String, AXRole)?  // relation (" " or ">"), role
            var positional: [Int]  // nth values (negative from the end)
            var text: String {
                var s = role?.rawValue ?? "*"
                if let (op, v) = label { s += "[label\(op)\"\(v)\"\(op == "*=" ? " i" : "")]" }
                if let st = state { s += ":\(st)" }
                if let (r, role) = has { s += ":has(\(r == ">" ? "> " : "")\(role.rawValue))" }
                for p in positional { s += p == 0 ? ":first" : p == -1 ? ":last" : ":nth(\(p))" }
                return s
            }
        }

        func test(_ c: Comp, _ x: String) -> Bool {
            let count = tree[x]!
            if let otherRole = c.role, count.role != otherRole { return false }
            if let (op, value) = c.label {
                let line = (count.label ?? "").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
                if op == "=" && line != value { return false }
                if op == "*=" && !line.lowercased().contains(value.lowercased()) { return false }
            }
            switch c.state {
            case "visible": if !count.states.contains(.onscreen) { return false }
            case "enabled": if !count.states.contains(.enabled) { return false }
            case "checked": if !count.states.contains(.checked) { return false }
            default: break
            }
            if let (otherRole, role) = c.has {
                let ok = order.contains { other in
                    tree[other]!.role == role
                        && (otherRole == ">" ? tree[other]!.parent == x : isDescendant(other, of: x))
                }
                if !ok { return false }
            }
            return true
        }

        func positional(_ ps: [Int], _ list: [String]) -> [String] {
            var line = list
            for point in ps {
                let index = point < 0 ? line.count + point : point
                line = (index >= 0 && index < line.count) ? [line[index]] : []
            }
            return line
        }

        func eval(_ steps: [(String, Comp)], scope: [String]) -> [String] {
            var cur: [String] = []
            for (k, (comb, c)) in steps.enumerated() {
                if k == 0 {
                    cur = scope.filter { test(c, $0) }
                } else if comb == ">>" {
                    var acc = Set<String>()
                    for point in cur {
                        let sub = order.filter { isDescendant($0, of: point) }
                        acc.formUnion(
                            eval(
                                Array(steps[k...]).enumerated().map {
                                    $0.offset == 0 ? (" ", $0.element.1) : $0.element
                                }, scope: sub))
                    }
                    return order.filter { acc.contains($0) }
                } else {
                    let prev = cur
                    cur = order.filter { candidate in
                        prev.contains { previous in relation(comb, previous, candidate) } && test(c, candidate)
                    }
                }
                cur = positional(c.positional, cur)
            }
            return cur
        }
    }

    static func randomComp(_ rng: inout RNG) -> Ref.Comp {
        var otherRef = Ref.Comp(role: nil, label: nil, state: nil, has: nil, positional: [])
        if rng.chance(75) { otherRef.role = rng.pick([.button, .staticText, .switch, .group, .window]) }
        if rng.chance(30) {
            otherRef.label = rng.chance(50) ? ("=", rng.pick(words)) : ("*=", rng.pick(["a", "ALPHA", "et", "ta"]))
        }
        if rng.chance(25) { otherRef.state = rng.pick(["visible", "enabled", "checked"]) }
        if rng.chance(12) { otherRef.has = (rng.pick([" ", ">"]), rng.pick([.button, .staticText, .switch, .group])) }
        if rng.chance(30) { otherRef.positional.append(rng.pick([0, -1, 1, 2, -2, 5])) }
        if rng.chance(5) { otherRef.positional.append(rng.pick([0, -1])) }
        return otherRef
    }

    func testRandomSelectorsAgainstReference() throws {
        var rng = RNG(state: 0x5EED_1234)
        var checked = 0
        var nonEmpty = 0
        for _ in 0..<12 {
            let store = try Fixtures.store(Self.randomTree(&rng))
            let ref = Ref(store.tree)
            let ctx = QueryContext(tree: store.tree, views: store.views)
            for _ in 0..<60 {
                var steps: [(String, Ref.Comp)] = [("", Self.randomComp(&rng))]
                for _ in 0..<rng.int(3) { steps.append((rng.pick([" ", ">", "+", "~", ">>"]), Self.randomComp(&rng))) }
                var text = steps[0].1.text
                for (comb, current) in steps.dropFirst() {
                    text += comb == " " ? " " + current.text : " \(comb) " + current.text
                }
                let expected = ref.eval(steps, scope: ref.order)
                let got = try QueryEngine.find(try Selector(parsing: text), in: ctx)
                XCTAssertEqual(got, expected, text)
                checked += 1
                if !expected.isEmpty { nonEmpty += 1 }
            }
        }
        XCTAssertGreaterThan(nonEmpty, checked / 4, "the random selectors should often match something")
    }
}
