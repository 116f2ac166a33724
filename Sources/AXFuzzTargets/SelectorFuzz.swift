import AXCore
import AXDemo
import AXJSON
import AXQuery

/// The selector parser and engine. The input (as UTF-8 text) is parsed as a selector; when it parses, its
/// canonical form must parse to a selector with the same canonical form, and running it on the demo tree must
/// agree with itself (`find` returns `count` distinct ids, a limited `find` is a prefix of the full one, every id
/// found `matches`).
enum SelectorFuzz {
    static let target = FuzzTarget(
        name: "selector",
        summary:
            "AXQuery parser and engine: canonical form re-parses to itself; find/count/matches agree on the demo tree",
        run: run)

    /// The demo app's tree and views (built once).
    static let demo: QueryContext = {
        let store = HierarchyStore()
        do {
            try store.setSnapshot(DemoApp().snapshot())
        } catch {
            fatalError("the demo snapshot does not load: \(error)")
        }
        return QueryContext(tree: store.tree, views: store.views, cache: QueryIndexCache(capacity: 2))
    }()

    static func run(_ bytes: UnsafeRawBufferPointer) -> [String] {
        var check = FuzzCheck()
        let text = String(decoding: bytes, as: UTF8.self)
        let selector: Selector
        do {
            selector = try Selector(parsing: text)
        } catch {
            return []
        }
        let canonical = selector.canonical
        do {
            let reparsed = try Selector(parsing: canonical)
            check.expect(
                reparsed.canonical == canonical,
                "canonical form \(quoted(canonical)) of \(quoted(text)) re-parses to \(quoted(reparsed.canonical))")
        } catch {
            check.fail("canonical form \(quoted(canonical)) of \(quoted(text)) does not parse: \(error)")
        }
        do throws(SelectorError) {
            let found = try QueryEngine.find(selector, in: demo)
            let count = try QueryEngine.count(selector, in: demo)
            check.expect(
                found.count == count, "find returned \(found.count) ids but count says \(count) for \(quoted(text))")
            check.expect(Set(found).count == found.count, "find returned an id twice for \(quoted(text))")
            let limited = try QueryEngine.find(selector, in: demo, limit: 2)
            check.expect(
                Array(found.prefix(2)) == limited,
                "find(limit: 2) \(limited) is not the start of \(found.prefix(4)) for \(quoted(text))")
            for id in found.prefix(8) {
                let matches = try QueryEngine.matches(selector, id: id, in: demo)
                check.expect(matches, "find returned \(id) but matches says no for \(quoted(text))")
            }
        } catch {
            // A regex over its step budget is a typed refusal (D-WIRE-2), never a crash or a wrong answer.
            check.expect(error.reason == "regex too expensive", "query of \(quoted(text)) failed: \(error)")
        }
        return check.failures
    }
}
