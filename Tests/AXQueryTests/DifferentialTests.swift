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
            var y = 0.0
            for _ in 0..<(1 + rng.int(5)) {
                var (k, h) = randomView(&rng, id: &id, depth: depth + 1)
                if case .object(var o) = k {
                    o["frame"] = [10, .number(y), 300, .number(h)]
                    k = .object(o)
                }
                kids.append(k)
                y += h + 10
            }
            return (Fixtures.view(vid, "UIView", [0, 0, 320, y], ["shouldGroupAccessibilityChildren": true], kids), y)
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
        for w in 0..<(1 + rng.int(2)) {
            var kids: [JSON] = []
            var y = 0.0
            for _ in 0..<(3 + rng.int(6)) {
                var (k, h) = randomView(&rng, id: &id, depth: 1)
                if case .object(var o) = k {
                    o["frame"] = [0, .number(y), 320, .number(h)]
                    k = .object(o)
                }
                kids.append(k)
                y += h + 10
            }
            windows.append(
                Fixtures.view("win\(w)", "UIWindow", [0, 0, 390, 500], ["windowLevel": .number(Double(w))], kids))
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
            var o: [String] = []
            tree.walk { n, _ in
                o.append(n.id)
                return true
            }
            order = o
            for (i, x) in o.enumerated() { pos[x] = i }
        }

        func isDescendant(_ x: String, of a: String) -> Bool { tree.ancestors(of: x).contains(a) }
        func siblings(_ x: String) -> [String] {
            if let p = tree[x]?.parent { return tree[p]!.children }
            return tree.windows
        }
        func relation(_ c: String, _ p: String, _ x: String) -> Bool {
            switch c {
            case " ": return isDescendant(x, of: p)
            case ">": return tree[x]?.parent == p
            case "+":
                let s = siblings(p)
                if let i = s.firstIndex(of: p), i + 1 < s.count { return s[i + 1] == x }
                return false
            case "~":
                let s = siblings(p)
                if let i = s.firstIndex(of: p), let j = s.firstIndex(of: x) { return j > i }
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
            let n = tree[x]!
            if let r = c.role, n.role != r { return false }
            if let (op, v) = c.label {
                let l = (n.label ?? "").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
                if op == "=" && l != v { return false }
                if op == "*=" && !l.lowercased().contains(v.lowercased()) { return false }
            }
            switch c.state {
            case "visible": if !n.states.contains(.onscreen) { return false }
            case "enabled": if !n.states.contains(.enabled) { return false }
            case "checked": if !n.states.contains(.checked) { return false }
            default: break
            }
            if let (r, role) = c.has {
                let ok = order.contains { y in
                    tree[y]!.role == role && (r == ">" ? tree[y]!.parent == x : isDescendant(y, of: x))
                }
                if !ok { return false }
            }
            return true
        }

        func positional(_ ps: [Int], _ list: [String]) -> [String] {
            var l = list
            for p in ps {
                let i = p < 0 ? l.count + p : p
                l = (i >= 0 && i < l.count) ? [l[i]] : []
            }
            return l
        }

        func eval(_ steps: [(String, Comp)], scope: [String]) -> [String] {
            var cur: [String] = []
            for (k, (comb, c)) in steps.enumerated() {
                if k == 0 {
                    cur = scope.filter { test(c, $0) }
                } else if comb == ">>" {
                    var acc = Set<String>()
                    for p in cur {
                        let sub = order.filter { isDescendant($0, of: p) }
                        acc.formUnion(
                            eval(
                                Array(steps[k...]).enumerated().map {
                                    $0.offset == 0 ? (" ", $0.element.1) : $0.element
                                }, scope: sub))
                    }
                    return order.filter { acc.contains($0) }
                } else {
                    let prev = cur
                    cur = order.filter { x in prev.contains { p in relation(comb, p, x) } && test(c, x) }
                }
                cur = positional(c.positional, cur)
            }
            return cur
        }
    }

    static func randomComp(_ rng: inout RNG) -> Ref.Comp {
        var c = Ref.Comp(role: nil, label: nil, state: nil, has: nil, positional: [])
        if rng.chance(75) { c.role = rng.pick([.button, .staticText, .switch, .group, .window]) }
        if rng.chance(30) {
            c.label = rng.chance(50) ? ("=", rng.pick(words)) : ("*=", rng.pick(["a", "ALPHA", "et", "ta"]))
        }
        if rng.chance(25) { c.state = rng.pick(["visible", "enabled", "checked"]) }
        if rng.chance(12) { c.has = (rng.pick([" ", ">"]), rng.pick([.button, .staticText, .switch, .group])) }
        if rng.chance(30) { c.positional.append(rng.pick([0, -1, 1, 2, -2, 5])) }
        if rng.chance(5) { c.positional.append(rng.pick([0, -1])) }
        return c
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
                for (comb, c) in steps.dropFirst() { text += comb == " " ? " " + c.text : " \(comb) " + c.text }
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
