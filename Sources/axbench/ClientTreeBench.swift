import AXClient
import AXJSON
import AXProtocol

/// The Swift client's `tree.get` at the caller (issue 35 item 3): what `AXClient` hands a caller for the full tree
/// and for the lean `fields` form, as `Tools/bench_playwright.py` sets it beside Playwright's `aria_snapshot()`.
///
///   axbench --client-tree SOCKET [--runs N] [--warmup W]   one JSON line of medians (ms) of `tree()` (every
///                                                          element decoded: `tree_*`) and `treeReply()`
///                                                          (`reply_*`), each full and lean (`fields`), and each
///                                                          with every element then read (`*_read`), plus the
///                                                          element count read
enum ClientTreeBench {
    /// What an ARIA snapshot carries: role, name, value, states and the nesting (tree.get `fields`).
    static let leanFields: [String] = ["role", "label", "value", "states", "children"]

    static func runIfAsked() async throws -> Bool {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: "--client-tree"), index + 1 < arguments.count else {
            return false
        }
        func value(after flag: String) -> Int? {
            guard let at = arguments.firstIndex(of: flag), at + 1 < arguments.count else { return nil }
            return Int(arguments[at + 1])
        }
        let runs = max(1, value(after: "--runs") ?? 15)
        let warmup = max(0, value(after: "--warmup") ?? 2)
        let client = try await AXClient.connect(arguments[index + 1])
        let lean = leanFields
        var figures: [(String, Double)] = []
        var read = 0
        // `tree` decodes every element as the client did before D-CLIENT-TREE-2; `treeReply` decodes what is read.
        figures.append(("tree_full", try await median(runs, warmup) { _ = try await client.tree() }))
        figures.append(("tree_lean", try await median(runs, warmup) { _ = try await client.tree(fields: lean) }))
        figures.append(
            (
                "tree_full_read",
                try await median(runs, warmup) {
                    let tree = try await client.tree()
                    read = try elementsRead(tree["windows"]?.arrayValue ?? [])
                }
            ))
        figures.append(
            (
                "tree_lean_read",
                try await median(runs, warmup) {
                    let tree = try await client.tree(fields: lean)
                    _ = try elementsRead(tree["windows"]?.arrayValue ?? [])
                }
            ))
        figures.append(("reply_full", try await median(runs, warmup) { _ = try await client.treeReply() }))
        figures.append(("reply_lean", try await median(runs, warmup) { _ = try await client.treeReply(fields: lean) }))
        figures.append(
            (
                "reply_full_read",
                try await median(runs, warmup) { read = try elementsRead(try await client.treeReply().windows()) }
            ))
        figures.append(
            (
                "reply_lean_read",
                try await median(runs, warmup) {
                    _ = try elementsRead(try await client.treeReply(fields: lean).windows())
                }
            ))
        await client.close()
        var line = "{"
        for (name, milliseconds) in figures {
            line += "\"\(name)\":\(milliseconds),"
        }
        print(line + "\"elements_read\":\(read)}")
        return true
    }

    /// Reads every element (its role), as a caller that uses the whole tree does.
    static func elementsRead(_ windows: [JSON]) throws -> Int {
        var stack = windows
        var count = 0
        while let element = stack.popLast() {
            if element["role"] != nil { count += 1 }
            stack.append(contentsOf: element["children"]?.arrayValue ?? [])
        }
        return count
    }

    static func median(_ runs: Int, _ warmup: Int, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        for _ in 0..<warmup { try await body() }
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            try await body()
            let elapsed = clock.now - start
            samples.append(
                Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return samples.sorted()[samples.count / 2]
    }
}
