import AXCore
import AXQuery

/// Selector evaluation timings, for axbench and the selector benchmark test (compared there against lxml XPath on
/// `TreeXML.xml` of the same tree, via Tools/bench_selectors.py).
package enum SelectorBenchmark {
    /// Mean milliseconds per evaluation of each query (parse excluded, index built once before timing, like a
    /// server answering many queries on one revision). A query that does not parse reports -1.
    package static func run(tree: AXTree, queries: [String], iterations: Int) -> [(String, Double)] {
        let context = QueryContext(tree: tree, cache: QueryIndexCache(capacity: 1))
        _ = context.index
        let clock = ContinuousClock()
        let runs = max(1, iterations)
        var results: [(String, Double)] = []
        for query in queries {
            guard let selector = try? Selector(parsing: query) else {
                results.append((query, -1))
                continue
            }
            var sink = (try? QueryEngine.find(selector, in: context).count) ?? 0  // warm-up
            let elapsed = clock.measure {
                for _ in 0..<runs {
                    sink &+= (try? QueryEngine.find(selector, in: context).count) ?? 0
                }
            }
            keep(sink)
            results.append((query, milliseconds(elapsed) / Double(runs)))
        }
        return results
    }

    /// Milliseconds to build the per-revision index of `tree` (paid once per revision on the first query).
    package static func indexBuildMilliseconds(tree: AXTree, iterations: Int = 5) -> Double {
        let clock = ContinuousClock()
        let runs = max(1, iterations)
        var total = Duration.zero
        var sink = 0
        for _ in 0..<runs {
            total += clock.measure { sink &+= TreeIndex(tree).count }
        }
        keep(sink)
        return milliseconds(total) / Double(runs)
    }

    /// Milliseconds to parse and compile a selector.
    package static func parseMilliseconds(_ query: String, iterations: Int = 1000) -> Double {
        let clock = ContinuousClock()
        let runs = max(1, iterations)
        var sink = 0
        let elapsed = clock.measure {
            for _ in 0..<runs {
                if let selector = try? Selector(parsing: query) {
                    sink &+= selector.chains.count
                }
            }
        }
        keep(sink)
        return milliseconds(elapsed) / Double(runs)
    }

    /// Keeps the optimizer from dropping the measured work (never prints in practice).
    private static func keep(_ sink: Int) {
        if sink == Int.min {
            print(sink)
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let components = duration.components
        return Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
