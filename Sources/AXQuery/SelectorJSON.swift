import AXCore
import AXJSON

// The JSON form of the AST (Specs/selectors.md §JSON form). `Selector(json: s.json) == s` for every selector,
// and `Selector(json: j).json == j` for every canonical JSON document.

extension Selector {
    /// The JSON form: a compound object, `{"chain": [...]}`, or `{"union": [...]}`.
    package var json: JSON { SelJSON.list(chains) }

    /// Decodes the JSON form. A JSON string is parsed as the string form.
    package init(json: JSON) throws(SelectorError) {
        if case .string(let s) = json {
            try self.init(parsing: s)
            return
        }
        let chains = try SelJSON.decodeList(json, path: "$", relative: false, depth: 0)
        try self.init(chains: chains)
    }
}

enum SelJSON {
    // MARK: encode

    static func list(_ chains: [Chain]) -> JSON {
        if chains.count == 1 { return chain(chains[0]) }
        return ["union": .array(chains.map(chain))]
    }

    static func chain(_ c: Chain) -> JSON {
        if c.steps.count == 1 {
            var o = compound(c.steps[0].compound)
            if let l = c.leading { o["combinator"] = .string(l.rawValue) }
            return .object(o)
        }
        var steps: [JSON] = []
        for (k, st) in c.steps.enumerated() {
            var o = compound(st.compound)
            if k > 0 {
                o["combinator"] = .string(st.combinator.rawValue)
            } else if let l = c.leading {
                o["combinator"] = .string(l.rawValue)
            }
            steps.append(.object(o))
        }
        return ["chain": .array(steps)]
    }

    static func compound(_ c: Compound) -> JSONObject {
        var o = JSONObject()
        if let r = c.role {
            o["role"] = .string(r.rawValue)
        } else if c.attributes.isEmpty && c.pseudos.isEmpty {
            o["role"] = "*"
        }
        if !c.attributes.isEmpty { o["attrs"] = .array(c.attributes.map(attribute)) }
        if !c.pseudos.isEmpty { o["pseudos"] = .array(c.pseudos.map(pseudo)) }
        return o
    }

    static func attribute(_ a: AttributeTest) -> JSON {
        var o: JSONObject = ["name": .string(a.name.rawValue)]
        guard let v = a.value else { return .object(o) }
        o["op"] = .string(a.op.rawValue)
        switch v {
        case .string(let s): o["value"] = .string(s)
        case .number(let d): o["value"] = .number(d)
        case .regex(let r):
            o["regex"] = .string(r.pattern)
            if !r.flags.isEmpty { o["flags"] = .string(r.canonicalFlags) }
        }
        if a.caseInsensitive { o["caseInsensitive"] = true }
        return .object(o)
    }

    static func pseudo(_ p: Pseudo) -> JSON {
        switch p {
        case .has(let s): return ["pseudo": "has", "selector": list(s.chains)]
        case .not(let s): return ["pseudo": "not", "selector": list(s.chains)]
        case .is(let s): return ["pseudo": "is", "selector": list(s.chains)]
        case .nth(let n): return ["pseudo": "nth", "n": JSON(n)]
        case .nthLast(let n): return ["pseudo": "nth-last", "n": JSON(n)]
        case .first: return ["pseudo": "first"]
        case .last: return ["pseudo": "last"]
        case .flag(let f): return ["pseudo": .string(f.rawValue)]
        case .state(let n): return ["pseudo": "state", "names": JSON(n)]
        case .trait(let n): return ["pseudo": "trait", "names": JSON(n)]
        case .action(let s): return ["pseudo": "action", "name": .string(s)]
        case .rotor(let s): return ["pseudo": "rotor", "name": .string(s)]
        case .text(.substring(let s)): return ["pseudo": "text", "value": .string(s)]
        case .text(.regex(let r)):
            var o: JSONObject = ["pseudo": "text", "regex": .string(r.pattern)]
            if !r.flags.isEmpty { o["flags"] = .string(r.canonicalFlags) }
            return .object(o)
        }
    }

    // MARK: decode

    static func fail(_ path: String, _ expected: String, _ found: String) -> SelectorError {
        SelectorError(path: path, expected: expected, found: found)
    }

    static func object(_ j: JSON, _ path: String, allowed: [String]) throws(SelectorError) -> JSONObject {
        guard case .object(let o) = j else { throw fail(path, "an object", j.typeName) }
        for k in o.keys where !allowed.contains(k) {
            throw fail(path, "only the keys \(allowed.joined(separator: ", "))", "key '\(k)'")
        }
        return o
    }

    static func string(_ j: JSON?, _ path: String) throws(SelectorError) -> String {
        guard let j else { throw fail(path, "a string", "nothing") }
        guard case .string(let s) = j else { throw fail(path, "a string", j.typeName) }
        return s
    }

    static func decodeList(_ j: JSON, path: String, relative: Bool, depth: Int) throws(SelectorError) -> [Chain] {
        guard depth <= Selector.maxNesting else {
            throw fail(path, "at most \(Selector.maxNesting) nested :has/:not/:is", "deeper nesting")
        }
        if case .string(let s) = j {
            var p = SelectorParser(s)
            do { return try p.parseTop() } catch {
                throw fail(path, error.expected + " at position \(error.position) of the string", error.found)
            }
        }
        if case .object(let o) = j, let u = o["union"] {
            guard o.count == 1 else { throw fail(path, "only the key union", "other keys next to union") }
            guard case .array(let items) = u, !items.isEmpty else {
                throw fail("\(path).union", "a non-empty array", u.typeName)
            }
            var out: [Chain] = []
            for (k, it) in items.enumerated() {
                out.append(try decodeChain(it, path: "\(path).union[\(k)]", relative: relative, depth: depth))
            }
            return out
        }
        return [try decodeChain(j, path: path, relative: relative, depth: depth)]
    }

    static func combinator(_ j: JSON, _ path: String) throws(SelectorError) -> Combinator {
        let s = try string(j, path)
        guard let c = Combinator(rawValue: s) else {
            throw fail(path, "a combinator (\(Combinator.allCases.map(\.rawValue).joined(separator: ", ")))", "'\(s)'")
        }
        return c
    }

    static func decodeChain(_ j: JSON, path: String, relative: Bool, depth: Int) throws(SelectorError) -> Chain {
        if case .object(let o) = j, let steps = o["chain"] {
            guard o.count == 1 else { throw fail(path, "only the key chain", "other keys next to chain") }
            guard case .array(let items) = steps, !items.isEmpty else {
                throw fail("\(path).chain", "a non-empty array", steps.typeName)
            }
            var chain = Chain(steps: [])
            for (k, it) in items.enumerated() {
                let p = "\(path).chain[\(k)]"
                let (comb, c) = try decodeCompound(it, path: p, relative: relative, depth: depth)
                if k == 0 {
                    if let comb, !relative {
                        throw fail(
                            "\(p).combinator", "no combinator on the first compound (only inside :has)",
                            "'\(comb.rawValue)'")
                    }
                    chain.leading = comb
                    chain.steps.append(Step(.descendant, c))
                } else {
                    chain.steps.append(Step(comb ?? .descendant, c))
                }
            }
            return chain
        }
        if case .array = j {
            throw fail(path, "an object (compound, {\"chain\": …} or {\"union\": …}) or a string", "array")
        }
        let (comb, c) = try decodeCompound(j, path: path, relative: relative, depth: depth)
        if let comb, !relative {
            throw fail(
                "\(path).combinator", "no combinator on the first compound (only inside :has)", "'\(comb.rawValue)'")
        }
        return Chain(leading: comb, steps: [Step(.descendant, c)])
    }

    static func decodeCompound(_ j: JSON, path: String, relative: Bool, depth: Int) throws(SelectorError) -> (
        Combinator?, Compound
    ) {
        let o = try object(j, path, allowed: ["role", "attrs", "pseudos", "combinator"])
        var c = Compound()
        var comb: Combinator?
        if let cj = o["combinator"] { comb = try combinator(cj, "\(path).combinator") }
        if let rj = o["role"] {
            let r = try string(rj, "\(path).role")
            if r != "*" {
                guard let role = RoleNames.role(r) else {
                    throw fail("\(path).role", "a role (\(RoleNames.known)) or \"*\"", "'\(r)'")
                }
                c.role = role
            }
        }
        if let aj = o["attrs"] {
            guard case .array(let items) = aj else { throw fail("\(path).attrs", "an array", aj.typeName) }
            for (k, it) in items.enumerated() {
                c.attributes.append(try decodeAttribute(it, path: "\(path).attrs[\(k)]"))
            }
        }
        if let pj = o["pseudos"] {
            guard case .array(let items) = pj else { throw fail("\(path).pseudos", "an array", pj.typeName) }
            var positional: [Pseudo] = []
            for (k, it) in items.enumerated() {
                let p = try decodePseudo(it, path: "\(path).pseudos[\(k)]", depth: depth)
                if p.isPositional { positional.append(p) } else { c.pseudos.append(p) }
            }
            c.pseudos += positional
        }
        return (comb, c)
    }

    static func decodeAttribute(_ j: JSON, path: String) throws(SelectorError) -> AttributeTest {
        let o = try object(j, path, allowed: ["name", "op", "value", "regex", "flags", "caseInsensitive"])
        let n = try string(o["name"], "\(path).name")
        guard let name = AttributeName(rawValue: n) else {
            throw fail(
                "\(path).name", "an attribute name (\(AttributeName.allCases.map(\.rawValue).joined(separator: ", ")))",
                "'\(n)'")
        }
        var ci = false
        if let c = o["caseInsensitive"] {
            guard case .bool(let b) = c else { throw fail("\(path).caseInsensitive", "true or false", c.typeName) }
            ci = b
        }
        guard let opj = o["op"] else {
            guard o["value"] == nil, o["regex"] == nil else {
                throw fail("\(path).op", "an operator next to a value", "no op")
            }
            let t = AttributeTest(name, .exists, nil, caseInsensitive: ci)
            try t.validate(path: path)
            return t
        }
        let ops = try string(opj, "\(path).op")
        guard var op = AttributeOp(rawValue: ops), op != .exists else {
            throw fail("\(path).op", "an operator (=, !=, *=, ^=, $=, ~=, &=, <, <=, >, >=)", "'\(ops)'")
        }
        var value: AttributeValue
        if let r = o["regex"] {
            guard o["value"] == nil else { throw fail(path, "either value or regex", "both") }
            var flags = ""
            if let f = o["flags"] { flags = try string(f, "\(path).flags") }
            value = .regex(RegexLiteral(pattern: normalizeRegex(try string(r, "\(path).regex")), flags: flags))
            if op == .equals { op = .matches }
        } else if let v = o["value"] {
            guard o["flags"] == nil else {
                throw fail("\(path).flags", "flags only next to regex", "flags next to value")
            }
            switch v {
            case .string(let s): value = .string(s)
            case .number(let d):
                guard d.isFinite else { throw fail("\(path).value", "a finite number", "\(d)") }
                value = .number(d)
            default: throw fail("\(path).value", "a string or a number", v.typeName)
            }
        } else {
            throw fail(path, "a value or a regex after op '\(ops)'", "neither")
        }
        if name == .role, op == .equals || op == .notEquals, case .string(let r) = value {
            guard let role = RoleNames.role(r) else {
                throw fail("\(path).value", "a role (\(RoleNames.known))", "'\(r)'")
            }
            value = .string(role.rawValue)
        }
        if case .regex(let r) = value {
            for f in r.flags where !RegexLiteral.allowedFlags.contains(f) {
                throw fail("\(path).flags", "regex flags i, s or m", "'\(f)'")
            }
            value = .regex(RegexLiteral(pattern: r.pattern, flags: r.canonicalFlags))
        }
        let t = AttributeTest(name, op, value, caseInsensitive: ci)
        try t.validate(path: path)
        return t
    }

    /// `\/` in a regex means `/`; the AST keeps the plain `/` so that the string form round-trips.
    static func normalizeRegex(_ p: String) -> String {
        var out = ""
        var backslashes = 0
        for c in p {
            if c == "/" && backslashes % 2 == 1 { out.removeLast() }
            out.append(c)
            backslashes = c == "\\" ? backslashes + 1 : 0
        }
        return out
    }

    static func decodePseudo(_ j: JSON, path: String, depth: Int) throws(SelectorError) -> Pseudo {
        guard case .object(let o) = j else { throw fail(path, "an object", j.typeName) }
        let name = try string(o["pseudo"], "\(path).pseudo")
        func only(_ keys: [String]) throws(SelectorError) { _ = try object(j, path, allowed: ["pseudo"] + keys) }
        func names() throws(SelectorError) -> [String] {
            guard let a = o["names"], case .array(let items) = a else {
                throw fail("\(path).names", "an array of names", o["names"]?.typeName ?? "nothing")
            }
            var out: [String] = []
            for (k, it) in items.enumerated() { out.append(try string(it, "\(path).names[\(k)]")) }
            return out
        }
        func n() throws(SelectorError) -> Int {
            guard let v = o["n"], let i = v.intValue, abs(i) < 1_000_000_000 else {
                throw fail("\(path).n", "an integer", o["n"]?.typeName ?? "nothing")
            }
            return i
        }
        switch name {
        case "has", "not", "is":
            try only(["selector"])
            guard let sj = o["selector"] else { throw fail("\(path).selector", "a selector", "nothing") }
            let chains = try decodeList(sj, path: "\(path).selector", relative: name == "has", depth: depth + 1)
            try Selector.validate(chains, path: "\(path).selector", depth: depth + 1, relative: name == "has")
            let sub = try Selector(validated: chains)
            return name == "has" ? .has(sub) : name == "not" ? .not(sub) : .is(sub)
        case "nth":
            try only(["n"])
            return .nth(try n())
        case "nth-last":
            try only(["n"])
            return .nthLast(try n())
        case "first":
            try only([])
            return .first
        case "last":
            try only([])
            return .last
        case "state":
            try only(["names"])
            return .state(try names())
        case "trait":
            try only(["names"])
            return .trait(try names())
        case "action":
            try only(["name"])
            return .action(try string(o["name"], "\(path).name"))
        case "rotor":
            try only(["name"])
            return .rotor(try string(o["name"], "\(path).name"))
        case "text":
            try only(["value", "regex", "flags"])
            if let r = o["regex"] {
                var flags = ""
                if let f = o["flags"] { flags = try string(f, "\(path).flags") }
                for f in flags where !RegexLiteral.allowedFlags.contains(f) {
                    throw fail("\(path).flags", "regex flags i, s or m", "'\(f)'")
                }
                return .text(
                    .regex(
                        RegexLiteral(
                            pattern: normalizeRegex(try string(r, "\(path).regex")),
                            flags: RegexLiteral(pattern: "", flags: flags).canonicalFlags)))
            }
            return .text(.substring(try string(o["value"], "\(path).value")))
        default:
            if let f = StatePseudo(rawValue: name) {
                try only([])
                return .flag(f)
            }
            throw fail(
                "\(path).pseudo", "a pseudo-class (\(SelectorParser.pseudoNames.joined(separator: ", ")))", "'\(name)'")
        }
    }
}
