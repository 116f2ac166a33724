import Synchronization

/// The session's short refs (Specs/mcp.md §Refs, D-MCP-REF-1): each element the session shows gets a ref made of a
/// letter naming its role (`b` button, `s` switch, …; `e` any other) and a base-36 number counted per letter
/// (`b1`, `s2f`). A ref names the same element for the whole session, across revisions, so an agent's refs stay
/// valid while the element lives. Bounded: past `maxRefs` elements no new refs are minted and lines carry the
/// server's id instead (still accepted as a ref).
package final class RefTable: Sendable {
    /// The most refs a session mints (about 100 bytes each).
    package static let maxRefs = 200_000

    /// The roles a ref's letter names; a line whose ref starts with one of these letters leaves the role out.
    /// Any other role gets `e` and its role word on the line.
    package static let letters: [(letter: Character, role: String)] = [
        ("b", "button"), ("s", "switch"), ("a", "adjustable"), ("t", "textField"), ("l", "link"), ("c", "cell"),
        ("f", "searchField"), ("p", "secureTextField"), ("k", "keyboardKey"), ("n", "tab"),
    ]

    struct State {
        var refByID: [String: String] = [:]
        var idByRef: [String: String] = [:]
        var counters: [Character: Int] = [:]
    }

    let state = Mutex(State())

    package init() {}

    /// The letter of a role's refs.
    package static func letter(for role: String?) -> Character {
        letters.first { $0.role == role }?.letter ?? "e"
    }

    /// The role a ref's letter names (nil for `e` and for server ids, whose lines say their role).
    package static func impliedRole(of ref: String) -> String? {
        guard let first = ref.first, ref.count > 1,
            ref.dropFirst().allSatisfy({ ($0 >= "0" && $0 <= "9") || ($0 >= "a" && $0 <= "z") })
        else { return nil }
        return letters.first { $0.letter == first }?.role
    }

    /// The element's ref: the one it was given, else a new one for `role` (nil role: `e`), else (table full) the
    /// server id. `minted` says whether the ref is the session's (its letter names the role) or the server id.
    package func ref(for id: String, role: String?) -> (ref: String, minted: Bool) {
        state.withLock { table in
            if let ref = table.refByID[id] { return (ref, true) }
            guard table.refByID.count < Self.maxRefs else { return (id, false) }
            let letter = Self.letter(for: role)
            let number = (table.counters[letter] ?? 0) + 1
            table.counters[letter] = number
            let ref = String(letter) + String(number, radix: 36)
            table.refByID[id] = ref
            table.idByRef[ref] = id
            return (ref, true)
        }
    }

    /// The ref shown for an id without minting one (an element that left the tree): its ref, else the id.
    package func existingRef(for id: String) -> String {
        state.withLock { $0.refByID[id] } ?? id
    }

    /// The server id an agent's ref names: the session's ref, else the text itself (a server id; the server
    /// answers whether it exists).
    package func id(for ref: String) -> String {
        state.withLock { $0.idByRef[ref] } ?? ref
    }

    /// Whether `ref` is one of the session's refs.
    package func isSessionRef(_ ref: String) -> Bool {
        state.withLock { $0.idByRef[ref] != nil }
    }
}
