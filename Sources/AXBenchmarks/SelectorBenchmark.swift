import AXCore

/// Selector evaluation timings, for axbench (compared there against lxml XPath on `TreeXML.xml` of the same
/// tree, via Tools/bench_selectors.py).
package enum SelectorBenchmark {
    /// Mean milliseconds per evaluation of each query (parse excluded, index built once before timing, like a
    /// server answering many queries on one revision). A query that does not parse reports -1.
    package static func run(tree: AXTree, queries: [String], iterations: Int) -> [(String, Double)] {
        let ctx = QueryContext(tree: tree, cache: QueryIndexCache(capacity: 1))
        _ = ctx.index
        let clock = ContinuousClock()
        var out: [(String, Double)] = []
        for q in queries {
            guard let sel = try? Selector(parsing: q) else {
                out.append((q, -1))
                continue
            }
            var sink = (try? QueryEngine.find(sel, in: ctx).count) ?? 0  // warm-up
            let n = max(1, iterations)
            let t = clock.measure {
                for _ in 0..<n { sink &+= (try? QueryEngine.find(sel, in: ctx).count) ?? 0 }
            }
            if sink == Int.min { print(sink) }
            out.append((q, ms(t) / Double(n)))
        }
        return out
    }

    /// Milliseconds to build the per-revision index of `tree` (paid once per revision on the first query).
    package static func indexBuildMilliseconds(tree: AXTree, iterations: Int = 5) -> Double {
        let clock = ContinuousClock()
        var total = Duration.zero
        var sink = 0
        for _ in 0..<max(1, iterations) {
            total += clock.measure { sink &+= TreeIndex(tree).count }
        }
        if sink == Int.min { print(sink) }
        return ms(total) / Double(max(1, iterations))
    }

    /// Milliseconds to parse and compile a selector.
    package static func parseMilliseconds(_ query: String, iterations: Int = 1000) -> Double {
        let clock = ContinuousClock()
        var sink = 0
        let t = clock.measure {
            for _ in 0..<max(1, iterations) { if let s = try? Selector(parsing: query) { sink &+= s.chains.count } }
        }
        if sink == Int.min { print(sink) }
        return ms(t) / Double(max(1, iterations))
    }

    static func ms(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }
}
