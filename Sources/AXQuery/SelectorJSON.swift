import AXCore
import AXJSON

// The JSON form of the AST (Specs/selectors.md §JSON form). `Selector(json: s.json) == s` for every selector,
// and `Selector(json: j).json == j` for every canonical JSON document.

extension Selector {
    /// The JSON form: a compound object, `{"chain": [...]}`, or `{"union": [...]}`.
    package var json: JSON { SelJSON.list(chains) }

    /// Decodes the JSON form. A JSON string is parsed as the string form.
    package init(json: JSON) throws(SelectorError) {
        if case .string(let text) = json {
            try self.init(parsing: text)
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

    static func chain(_ chain: Chain) -> JSON {
        if chain.steps.count == 1 {
            var object = compound(chain.steps[0].compound)
            if let leading = chain.leading { object["combinator"] = .string(leading.rawValue) }
            return .object(object)
        }
        var steps: [JSON] = []
        for (index, step) in chain.steps.enumerated() {
            var object = compound(step.compound)
            if index > 0 {
                object["combinator"] = .string(step.combinator.rawValue)
            } else if let leading = chain.leading {
                object["combinator"] = .string(leading.rawValue)
            }
            steps.append(.object(object))
        }
        return ["chain": .array(steps)]
    }

    static func compound(_ compound: Compound) -> JSONObject {
        var object = JSONObject()
        if let role = compound.role {
            object["role"] = .string(role.rawValue)
        } else if compound.attributes.isEmpty && compound.pseudos.isEmpty {
            object["role"] = "*"
        }
        if !compound.attributes.isEmpty { object["attrs"] = .array(compound.attributes.map(attribute)) }
        if !compound.pseudos.isEmpty { object["pseudos"] = .array(compound.pseudos.map(pseudo)) }
        return object
    }

    static func attribute(_ attribute: AttributeTest) -> JSON {
        var object: JSONObject = ["name": .string(attribute.name.rawValue)]
        guard let value = attribute.value else { return .object(object) }
        object["op"] = .string(attribute.op.rawValue)
        switch value {
        case .string(let text): object["value"] = .string(text)
        case .number(let number): object["value"] = .number(number)
        case .regex(let regex):
            object["regex"] = .string(regex.pattern)
            if !regex.flags.isEmpty { object["flags"] = .string(regex.canonicalFlags) }
        }
        if attribute.caseInsensitive { object["caseInsensitive"] = true }
        return .object(object)
    }

    static func pseudo(_ pseudo: Pseudo) -> JSON {
        switch pseudo {
        case .has(let selector), .not(let selector), .is(let selector):
            return ["pseudo": .string(nestedPseudoName(pseudo)), "selector": list(selector.chains)]
        case .nth(let count): return ["pseudo": "nth", "n": JSON(count)]
        case .nthLast(let count): return ["pseudo": "nth-last", "n": JSON(count)]
        case .first: return ["pseudo": "first"]
        case .last: return ["pseudo": "last"]
        case .flag(let flag): return ["pseudo": .string(flag.rawValue)]
        case .state(let names): return ["pseudo": "state", "names": JSON(names)]
        case .trait(let names): return ["pseudo": "trait", "names": JSON(names)]
        case .action(let name): return ["pseudo": "action", "name": .string(name)]
        case .rotor(let name): return ["pseudo": "rotor", "name": .string(name)]
        case .text(.substring(let text)): return ["pseudo": "text", "value": .string(text)]
        case .text(.regex(let regex)):
            var object: JSONObject = ["pseudo": "text", "regex": .string(regex.pattern)]
            if !regex.flags.isEmpty { object["flags"] = .string(regex.canonicalFlags) }
            return .object(object)
        }
    }

    static func nestedPseudoName(_ pseudo: Pseudo) -> String {
        switch pseudo {
        case .has: return "has"
        case .not: return "not"
        default: return "is"
        }
    }

    // MARK: decode

    static func fail(_ path: String, _ expected: String, _ found: String) -> SelectorError {
        SelectorError(path: path, expected: expected, found: found)
    }

    static func object(_ json: JSON, _ path: String, allowed: [String]) throws(SelectorError) -> JSONObject {
        guard case .object(let object) = json else { throw fail(path, "an object", json.typeName) }
        for key in object.keys where !allowed.contains(key) {
            throw fail(path, "only the keys \(allowed.joined(separator: ", "))", "key '\(key)'")
        }
        return object
    }

    static func string(_ json: JSON?, _ path: String) throws(SelectorError) -> String {
        guard let json else { throw fail(path, "a string", "nothing") }
        guard case .string(let text) = json else { throw fail(path, "a string", json.typeName) }
        return text
    }

    static func decodeList(_ json: JSON, path: String, relative: Bool, depth: Int) throws(SelectorError) -> [Chain] {
        guard depth <= Selector.maxNesting else {
            throw fail(path, "at most \(Selector.maxNesting) nested :has/:not/:is", "deeper nesting")
        }
        if case .string(let text) = json {
            var parser = SelectorParser(text)
            do { return try parser.parseTop() } catch {
                throw fail(path, error.expected + " at position \(error.position) of the string", error.found)
            }
        }
        if case .object(let object) = json, let union = object["union"] {
            guard object.count == 1 else { throw fail(path, "only the key union", "other keys next to union") }
            guard case .array(let items) = union, !items.isEmpty else {
                throw fail("\(path).union", "a non-empty array", union.typeName)
            }
            var out: [Chain] = []
            for (k, it) in items.enumerated() {
                out.append(try decodeChain(it, path: "\(path).union[\(k)]", relative: relative, depth: depth))
            }
            return out
        }
        return [try decodeChain(json, path: path, relative: relative, depth: depth)]
    }

    static func combinator(_ json: JSON, _ path: String) throws(SelectorError) -> Combinator {
        let text = try string(json, path)
        guard let combinator = Combinator(rawValue: text) else {
            throw fail(
                path, "a combinator (\(Combinator.allCases.map(\.rawValue).joined(separator: ", ")))", "'\(text)'")
        }
        return combinator
    }

    static func decodeChain(_ json: JSON, path: String, relative: Bool, depth: Int) throws(SelectorError) -> Chain {
        if case .object(let object) = json, let steps = object["chain"] {
            guard object.count == 1 else { throw fail(path, "only the key chain", "other keys next to chain") }
            guard case .array(let items) = steps, !items.isEmpty else {
                throw fail("\(path).chain", "a non-empty array", steps.typeName)
            }
            var chain = Chain(steps: [])
            for (index, it) in items.enumerated() {
                let stepPath = "\(path).chain[\(index)]"
                let (comb, c) = try decodeCompound(it, path: stepPath, relative: relative, depth: depth)
                if index == 0 {
                    if let comb, !relative {
                        throw fail(
                            "\(stepPath).combinator", "no combinator on the first compound (only inside :has)",
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
        if case .array = json {
            throw fail(path, "an object (compound, {\"chain\": …} or {\"union\": …}) or a string", "array")
        }
        let (comb, c) = try decodeCompound(json, path: path, relative: relative, depth: depth)
        if let comb, !relative {
            throw fail(
                "\(path).combinator", "no combinator on the first compound (only inside :has)", "'\(comb.rawValue)'")
        }
        return Chain(leading: comb, steps: [Step(.descendant, c)])
    }

    static func decodeCompound(_ json: JSON, path: String, relative: Bool, depth: Int) throws(SelectorError) -> (
        Combinator?, Compound
    ) {
        let members = try object(json, path, allowed: ["role", "attrs", "pseudos", "combinator"])
        var compound = Compound()
        var comb: Combinator?
        if let cj = members["combinator"] { comb = try combinator(cj, "\(path).combinator") }
        if let rj = members["role"] {
            let roleName = try string(rj, "\(path).role")
            if roleName != "*" {
                guard let role = RoleNames.role(roleName) else {
                    throw fail("\(path).role", "a role (\(RoleNames.known)) or \"*\"", "'\(roleName)'")
                }
                compound.role = role
            }
        }
        if let aj = members["attrs"] {
            guard case .array(let items) = aj else { throw fail("\(path).attrs", "an array", aj.typeName) }
            for (index, it) in items.enumerated() {
                compound.attributes.append(try decodeAttribute(it, path: "\(path).attrs[\(index)]"))
            }
        }
        if let pj = members["pseudos"] {
            guard case .array(let items) = pj else { throw fail("\(path).pseudos", "an array", pj.typeName) }
            var positional: [Pseudo] = []
            for (index, it) in items.enumerated() {
                let pseudo = try decodePseudo(it, path: "\(path).pseudos[\(index)]", depth: depth)
                if pseudo.isPositional { positional.append(pseudo) } else { compound.pseudos.append(pseudo) }
            }
            compound.pseudos += positional
        }
        return (comb, compound)
    }

    static func decodeAttribute(_ json: JSON, path: String) throws(SelectorError) -> AttributeTest {
        let members = try object(json, path, allowed: ["name", "op", "value", "regex", "flags", "caseInsensitive"])
        let nameText = try string(members["name"], "\(path).name")
        guard let name = AttributeName(rawValue: nameText) else {
            throw fail(
                "\(path).name", "an attribute name (\(AttributeName.allCases.map(\.rawValue).joined(separator: ", ")))",
                "'\(nameText)'")
        }
        let caseInsensitive = try decodeCaseFlag(members["caseInsensitive"], path: path)
        guard let opj = members["op"] else {
            guard members["value"] == nil, members["regex"] == nil else {
                throw fail("\(path).op", "an operator next to a value", "no op")
            }
            let test = AttributeTest(name, .exists, nil, caseInsensitive: caseInsensitive)
            try test.validate(path: path)
            return test
        }
        let ops = try string(opj, "\(path).op")
        guard var op = AttributeOp(rawValue: ops), op != .exists else {
            throw fail("\(path).op", "an operator (=, !=, *=, ^=, $=, ~=, &=, <, <=, >, >=)", "'\(ops)'")
        }
        var value = try decodeValue(members, op: ops, path: path)
        if case .regex = value, op == .equals { op = .matches }
        if name == .role, op == .equals || op == .notEquals, case .string(let roleName) = value {
            guard let role = RoleNames.role(roleName) else {
                throw fail("\(path).value", "a role (\(RoleNames.known))", "'\(roleName)'")
            }
            value = .string(role.rawValue)
        }
        let test = AttributeTest(name, op, value, caseInsensitive: caseInsensitive)
        try test.validate(path: path)
        return test
    }

    static func decodeCaseFlag(_ caseValue: JSON?, path: String) throws(SelectorError) -> Bool {
        guard let caseValue else { return false }
        guard case .bool(let flag) = caseValue else {
            throw fail("\(path).caseInsensitive", "true or false", caseValue.typeName)
        }
        return flag
    }

    /// The `value` (string or finite number) or `regex` (with `flags`, canonical) of an attribute test.
    static func decodeValue(_ members: JSONObject, op ops: String, path: String) throws(SelectorError)
        -> AttributeValue
    {
        if let regex = members["regex"] {
            guard members["value"] == nil else { throw fail(path, "either value or regex", "both") }
            var flags = ""
            if let flagsValue = members["flags"] { flags = try string(flagsValue, "\(path).flags") }
            let literal = RegexLiteral(pattern: normalizeRegex(try string(regex, "\(path).regex")), flags: flags)
            for flag in flags where !RegexLiteral.allowedFlags.contains(flag) {
                throw fail("\(path).flags", "regex flags i, s or m", "'\(flag)'")
            }
            return .regex(RegexLiteral(pattern: literal.pattern, flags: literal.canonicalFlags))
        }
        guard let valueJSON = members["value"] else {
            throw fail(path, "a value or a regex after op '\(ops)'", "neither")
        }
        guard members["flags"] == nil else {
            throw fail("\(path).flags", "flags only next to regex", "flags next to value")
        }
        switch valueJSON {
        case .string(let text): return .string(text)
        case .number(let number):
            guard number.isFinite else { throw fail("\(path).value", "a finite number", "\(number)") }
            return .number(number)
        default: throw fail("\(path).value", "a string or a number", valueJSON.typeName)
        }
    }

    /// `\/` in a regex means `/`; the AST keeps the plain `/` so that the string form round-trips.
    static func normalizeRegex(_ pattern: String) -> String {
        var out = ""
        var backslashes = 0
        for character in pattern {
            if character == "/" && backslashes % 2 == 1 { out.removeLast() }
            out.append(character)
            backslashes = character == "\\" ? backslashes + 1 : 0
        }
        return out
    }

    static func decodePseudo(_ json: JSON, path: String, depth: Int) throws(SelectorError) -> Pseudo {
        guard case .object(let members) = json else { throw fail(path, "an object", json.typeName) }
        let name = try string(members["pseudo"], "\(path).pseudo")
        func only(_ keys: [String]) throws(SelectorError) { _ = try object(json, path, allowed: ["pseudo"] + keys) }
        func names() throws(SelectorError) -> [String] {
            guard let namesValue = members["names"], case .array(let items) = namesValue else {
                throw fail("\(path).names", "an array of names", members["names"]?.typeName ?? "nothing")
            }
            var out: [String] = []
            for (k, it) in items.enumerated() { out.append(try string(it, "\(path).names[\(k)]")) }
            return out
        }
        func n() throws(SelectorError) -> Int {
            guard let countValue = members["n"], let count = countValue.intValue, abs(count) < 1_000_000_000 else {
                throw fail("\(path).n", "an integer", members["n"]?.typeName ?? "nothing")
            }
            return count
        }
        switch name {
        case "has", "not", "is":
            try only(["selector"])
            return try decodeNestedPseudo(name, members["selector"], path: path, depth: depth)
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
            return .action(try string(members["name"], "\(path).name"))
        case "rotor":
            try only(["name"])
            return .rotor(try string(members["name"], "\(path).name"))
        case "text":
            try only(["value", "regex", "flags"])
            return try decodeTextPseudo(members, path: path)
        default:
            if let flag = StatePseudo(rawValue: name) {
                try only([])
                return .flag(flag)
            }
            throw fail(
                "\(path).pseudo", "a pseudo-class (\(SelectorParser.pseudoNames.joined(separator: ", ")))", "'\(name)'")
        }
    }
    /// `{"pseudo": "has"|"not"|"is", "selector": …}`.
    static func decodeNestedPseudo(_ name: String, _ selectorJSON: JSON?, path: String, depth: Int)
        throws(SelectorError) -> Pseudo
    {
        guard let sj = selectorJSON else { throw fail("\(path).selector", "a selector", "nothing") }
        let chains = try decodeList(sj, path: "\(path).selector", relative: name == "has", depth: depth + 1)
        try Selector.validate(chains, path: "\(path).selector", depth: depth + 1, relative: name == "has")
        let sub = try Selector(validated: chains)
        return name == "has" ? .has(sub) : name == "not" ? .not(sub) : .is(sub)
    }

    /// `{"pseudo": "text", "value": …}` or `{"pseudo": "text", "regex": …, "flags": …}`.
    static func decodeTextPseudo(_ members: JSONObject, path: String) throws(SelectorError) -> Pseudo {
        guard let regex = members["regex"] else {
            return .text(.substring(try string(members["value"], "\(path).value")))
        }
        var flags = ""
        if let flag = members["flags"] { flags = try string(flag, "\(path).flags") }
        for flag in flags where !RegexLiteral.allowedFlags.contains(flag) {
            throw fail("\(path).flags", "regex flags i, s or m", "'\(flag)'")
        }
        return .text(
            .regex(
                RegexLiteral(
                    pattern: normalizeRegex(try string(regex, "\(path).regex")),
                    flags: RegexLiteral(pattern: "", flags: flags).canonicalFlags)))
    }
}
