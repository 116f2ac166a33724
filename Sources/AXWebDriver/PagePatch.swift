import AXJSON
import AXQuery

/// What a change does to one element of the parsed page, named by its `axid` (issue 35 item 5): new page
/// attributes, a new list of children, or both. Built from `tree.diff` and `element.get` (`DriverSession.patched`).
package struct PageElementPatch: Sendable {
    /// The element's page attributes in the page source's order (`PageTree.pageAttributes`); nil keeps the parsed
    /// ones. Their `index` is replaced by the element's place when its parent's children are patched.
    package var attributes: [(name: String, value: String)]?
    /// The axids of the element's children in order; nil keeps the parsed children.
    package var children: [String]?
    /// True for an element the parsed page does not have (it needs `attributes`).
    package var isNew: Bool

    package init(attributes: [(name: String, value: String)]?, children: [String]?, isNew: Bool) {
        self.attributes = attributes
        self.children = children
        self.isNew = isNew
    }
}

extension PageTree {
    /// Where the patched walk takes an element from: the parsed page (by index) or a patch (by axid).
    enum PatchSource {
        case parsed(Int)
        case new(String)
    }

    /// One step of the patched walk: an element to append (with its place in its parent when the parent's children
    /// were patched), or the end of the subtree of an appended element.
    enum PatchStep {
        case open(PatchSource, parent: Int, place: Int?)
        case close(Int)
    }

    /// What the walk consults for each element: the patches (by axid and by parsed index), which parsed elements
    /// left, and the parsed page's axid index.
    struct PatchContext {
        let patches: [String: PageElementPatch]
        let patchOfParsed: [Int: PageElementPatch]
        let removedParsed: [Bool]
        let index: [String: Int]
    }

    /// This page with `patches` applied and the elements of `removed` left out, walked in document order like the
    /// page source is written, with the axid → element index of the result. `index` is this page's axid → index.
    ///
    /// Nil when the change does not describe one tree: a child that is neither kept nor new, an element reached
    /// twice, a new element without attributes or never reached, or a count that does not add up (an element that
    /// left without being named removed). The caller then reads the page source again, so a patch is only ever
    /// the page a fresh read gives (`PagePatchTests` compares the two after insertions, removals and moves).
    package func patched(_ patches: [String: PageElementPatch], removed: Set<String>, index: [String: Int]) -> (
        tree: PageTree, index: [String: Int]
    )? {
        guard count > 0 else { return nil }
        var patchOfParsed: [Int: PageElementPatch] = [:]
        var newCount = 0
        for (id, patch) in patches {
            if patch.isNew {
                guard index[id] == nil else { return nil }  // "new", yet on the page
                newCount += 1
            } else if let parsed = index[id] {
                patchOfParsed[parsed] = patch
            }
        }
        var removedParsed = [Bool](repeating: false, count: count)
        var removedCount = 0
        for id in removed {
            guard let parsed = index[id] else { continue }
            removedParsed[parsed] = true
            removedCount += 1
        }
        let expected = count - removedCount + newCount
        let context = PatchContext(
            patches: patches, patchOfParsed: patchOfParsed, removedParsed: removedParsed, index: index)
        var out = PageTree()
        out.reserve(expected)
        var newIndex: [String: Int] = [:]
        newIndex.reserveCapacity(expected)
        var stack: [PatchStep] = [.open(.parsed(0), parent: -1, place: nil)]
        while let step = stack.popLast() {
            switch step {
            case .close(let element): out.subtreeEnd[element] = out.names.count
            case .open(let source, let parent, let place):
                let element = out.names.count
                guard let children = appendPatched(source, parent: parent, place: place, context, into: &out),
                    out.axid(element).map({ newIndex.updateValue(element, forKey: $0) == nil }) ?? true
                else { return nil }
                stack.append(.close(element))
                stack.append(contentsOf: children.reversed())
            }
        }
        guard out.names.count == expected else { return nil }
        return (out, newIndex)
    }

    /// Appends the element of `source` to `out` and answers the steps of its children; nil when the element or a
    /// child cannot be placed.
    func appendPatched(
        _ source: PatchSource, parent: Int, place: Int?, _ context: PatchContext, into out: inout PageTree
    ) -> [PatchStep]? {
        let element = out.names.count
        var name = ""
        var attributes: [(name: String, value: String)] = []
        let patch: PageElementPatch?
        var children: [PatchStep]?
        switch source {
        case .parsed(let parsed):
            patch = context.patchOfParsed[parsed]
            name = names[parsed]
            attributes = self.attributes[parsed]
            if patch?.children == nil { children = parsedChildren(of: parsed, element, context) }
        case .new(let id):
            patch = context.patches[id]
            guard patch?.isNew == true else { return nil }
        }
        if let patched = patch?.attributes {
            guard let type = patched.first(where: { $0.name == "type" })?.value else { return nil }
            attributes = patched
            name = type
        } else if case .new = source {
            return nil
        }
        if let place { attributes = Self.setting(index: place, in: attributes) }
        if let ids = patch?.children {
            var old: Int?
            if case .parsed(let parsed) = source { old = parsed }
            children = patchedChildren(ids, element, old: old, context)
        }
        guard let children else { return nil }
        out.names.append(name)
        out.attributes.append(attributes)
        out.parent.append(parent)
        out.children.append([])
        out.subtreeEnd.append(element + 1)
        if parent >= 0 { out.children[parent].append(element) }
        return children
    }

    /// The steps of the parsed children of `parsed` (appended as `element`); nil when one of them left.
    func parsedChildren(of parsed: Int, _ element: Int, _ context: PatchContext) -> [PatchStep]? {
        var steps: [PatchStep] = []
        steps.reserveCapacity(children[parsed].count)
        for child in children[parsed] {
            if context.removedParsed[child] { return nil }
            steps.append(.open(.parsed(child), parent: element, place: nil))
        }
        return steps
    }

    /// The steps of the children `ids` of `element`, each with its place; nil when one is neither kept nor new.
    /// Ids are matched against the parsed children of `old` in order first (a list that changed by a few ids needs
    /// no lookup for the rest), then by the index.
    func patchedChildren(_ ids: [String], _ element: Int, old: Int?, _ context: PatchContext) -> [PatchStep]? {
        var steps: [PatchStep] = []
        steps.reserveCapacity(ids.count)
        let oldChildren = old.map { children[$0] } ?? []
        var cursor = 0
        for (offset, id) in ids.enumerated() {
            if context.patches[id]?.isNew == true {
                steps.append(.open(.new(id), parent: element, place: offset))
                continue
            }
            var parsed: Int?
            while cursor < oldChildren.count, context.removedParsed[oldChildren[cursor]] { cursor += 1 }
            if cursor < oldChildren.count, axid(oldChildren[cursor]) == id {
                parsed = oldChildren[cursor]
                cursor += 1
            } else {
                parsed = context.index[id]
            }
            guard let parsed, !context.removedParsed[parsed] else { return nil }
            steps.append(.open(.parsed(parsed), parent: element, place: offset))
        }
        return steps
    }

    /// This page with the attributes of `patches` (none new, none with children) replaced in place: a change that
    /// moved nothing. Nil when a patch names an element the page does not have.
    package func updated(_ patches: [String: PageElementPatch], index: [String: Int]) -> PageTree? {
        var out = self
        for (id, patch) in patches {
            guard !patch.isNew, patch.children == nil, let parsed = index[id], let attributes = patch.attributes,
                let type = attributes.first(where: { $0.name == "type" })?.value
            else { return nil }
            out.attributes[parsed] = attributes
            out.names[parsed] = type
        }
        return out
    }

    /// `attributes` with the value of `index` set to `place` (unchanged when it has no `index` or already says so).
    /// The page source writes `index` third from the end (before `role` and `axid`), so the search starts there.
    static func setting(index place: Int, in attributes: [(name: String, value: String)]) -> [(
        name: String, value: String
    )] {
        guard let position = attributes.lastIndex(where: { $0.name == "index" }) else { return attributes }
        let value = String(place)
        if attributes[position].value == value { return attributes }
        var out = attributes
        out[position].value = value
        return out
    }
}
