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
        let newCount = patches.values.reduce(0) { $0 + ($1.isNew ? 1 : 0) }
        let removedCount = removed.reduce(0) { $0 + (index[$1] == nil ? 0 : 1) }
        let expected = count - removedCount + newCount
        guard expected >= 0, count > 0 else { return nil }
        var out = PageTree()
        out.reserve(expected)
        var newIndex: [String: Int] = [:]
        newIndex.reserveCapacity(expected)
        var stack: [PatchStep] = [.open(.parsed(0), parent: -1, place: nil)]
        while let step = stack.popLast() {
            switch step {
            case .close(let element): out.subtreeEnd[element] = out.names.count
            case .open(let source, let parent, let place):
                guard
                    let children = appendPatched(
                        source, parent: parent, place: place, patches, removed, index, into: &out, &newIndex)
                else { return nil }
                stack.append(.close(out.names.count - 1))
                stack.append(contentsOf: children.reversed())
            }
        }
        guard out.names.count == expected else { return nil }
        return (out, newIndex)
    }

    /// Appends the element of `source` to `out` and answers the steps of its children; nil when the element or a
    /// child cannot be placed.
    func appendPatched(
        _ source: PatchSource, parent: Int, place: Int?, _ patches: [String: PageElementPatch], _ removed: Set<String>,
        _ index: [String: Int], into out: inout PageTree, _ newIndex: inout [String: Int]
    ) -> [PatchStep]? {
        let element = out.names.count
        var name = ""
        var attributes: [(name: String, value: String)] = []
        let patch: PageElementPatch?
        var children: [PatchStep]?
        switch source {
        case .parsed(let parsed):
            patch = axid(parsed).flatMap { patches[$0] }
            guard patch?.isNew != true else { return nil }
            name = names[parsed]
            attributes = self.attributes[parsed]
            if patch?.children == nil { children = parsedChildren(of: parsed, element, patches, removed) }
        case .new(let id):
            patch = patches[id]
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
        if let ids = patch?.children { children = Self.patchedChildren(ids, element, patches, removed, index) }
        guard let children else { return nil }
        if let axid = attributes.first(where: { $0.name == "axid" })?.value {
            guard newIndex.updateValue(element, forKey: axid) == nil else { return nil }
        }
        out.names.append(name)
        out.attributes.append(attributes)
        out.parent.append(parent)
        out.children.append([])
        out.subtreeEnd.append(element + 1)
        if parent >= 0 { out.children[parent].append(element) }
        return children
    }

    /// The steps of the parsed children of `parsed` (appended as `element`); nil when one of them left or is new.
    func parsedChildren(of parsed: Int, _ element: Int, _ patches: [String: PageElementPatch], _ removed: Set<String>)
        -> [PatchStep]?
    {
        var steps: [PatchStep] = []
        steps.reserveCapacity(children[parsed].count)
        for child in children[parsed] {
            if let id = axid(child), removed.contains(id) || patches[id]?.isNew == true { return nil }
            steps.append(.open(.parsed(child), parent: element, place: nil))
        }
        return steps
    }

    /// The steps of the children `ids` of `element`, each with its place; nil when one is neither kept nor new.
    static func patchedChildren(
        _ ids: [String], _ element: Int, _ patches: [String: PageElementPatch], _ removed: Set<String>,
        _ index: [String: Int]
    ) -> [PatchStep]? {
        var steps: [PatchStep] = []
        steps.reserveCapacity(ids.count)
        for (offset, id) in ids.enumerated() {
            if patches[id]?.isNew == true {
                steps.append(.open(.new(id), parent: element, place: offset))
            } else if !removed.contains(id), let parsed = index[id] {
                steps.append(.open(.parsed(parsed), parent: element, place: offset))
            } else {
                return nil
            }
        }
        return steps
    }

    /// `attributes` with the value of `index` set to `place` (unchanged when it has no `index` or already says so).
    static func setting(index place: Int, in attributes: [(name: String, value: String)]) -> [(
        name: String, value: String
    )] {
        guard let position = attributes.firstIndex(where: { $0.name == "index" }) else { return attributes }
        let value = String(place)
        if attributes[position].value == value { return attributes }
        var out = attributes
        out[position].value = value
        return out
    }
}
