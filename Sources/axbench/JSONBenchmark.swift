import AXJSON

/// JSON codec measurements (parse and serialize throughput of a document).
enum JSONBenchmark {
    struct Result: Sendable, CustomStringConvertible {
        /// Size of the compact serialization.
        var bytes: Int
        /// Best time of one parse / one serialization.
        var parseSeconds: Double
        var serializeSeconds: Double
        var parseMBps: Double { Double(bytes) / parseSeconds / 1_000_000 }
        var serializeMBps: Double { Double(bytes) / serializeSeconds / 1_000_000 }
        var description: String {
            "\(bytes) bytes: parse \(Int(parseMBps)) MB/s (\(ms(parseSeconds)) ms), serialize \(Int(serializeMBps)) MB/s (\(ms(serializeSeconds)) ms)"
        }
        private func ms(_ seconds: Double) -> String {
            let hundredths = Int(seconds * 100_000 + 0.5)
            let frac = hundredths % 100
            return "\(hundredths / 100)." + (frac < 10 ? "0" : "") + "\(frac)"
        }
    }

    /// A tree shaped like the accessibility trees this project exchanges: `nodes` objects with ids, roles,
    /// labels (some non-ASCII, some with escapes), frames, flags and trait arrays, 10 children per parent.
    static func sampleTree(nodes: Int) -> JSON {
        func node(_ index: Int) -> JSON {
            var object = JSONObject(minimumCapacity: 8)
            object.appendUnchecked("id", .string("e\(index)"))
            object.appendUnchecked("role", .string(index % 3 == 0 ? "button" : index % 3 == 1 ? "staticText" : "cell"))
            object.appendUnchecked(
                "label", .string(index % 7 == 0 ? "Größe \"\(index)\" — ok\n" : "Item number \(index)"))
            object.appendUnchecked(
                "frame", .array([.number(Double(index % 400)), .number(Double(index / 400) * 44.5), 320, 44]))
            object.appendUnchecked("enabled", .bool(index % 5 != 0))
            object.appendUnchecked("value", index % 4 == 0 ? .number(Double(index) / 8) : .null)
            object.appendUnchecked("traits", .array(index % 2 == 0 ? ["button"] : ["staticText", "header"]))
            return .object(object)
        }
        var level: [JSON] = (0..<max(1, nodes)).map(node)
        var base = nodes
        while level.count > 1 {
            var next: [JSON] = []
            var chunkStart = 0
            while chunkStart < level.count {
                guard case .object(var object) = node(base) else { break }
                base += 1
                object.appendUnchecked("children", .array(Array(level[chunkStart..<min(chunkStart + 10, level.count)])))
                next.append(.object(object))
                chunkStart += 10
            }
            level = next
        }
        return level[0]
    }

    /// Measures parse and serialize of `document`, best of repeated runs lasting at least `minDuration` each.
    static func measure(_ document: JSON, minDuration: Duration = .milliseconds(300)) throws(JSONParseError)
        -> Result
    {
        let bytes = document.serialized()
        let clock = ContinuousClock()
        var bestParse = Duration.seconds(1000)
        var bestSer = Duration.seconds(1000)
        var spent = Duration.zero
        var parsed: JSON = .null
        while spent < minDuration {
            let t0 = clock.now
            parsed = try JSON.parse(bytes)
            let t1 = clock.now
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            parsed.serialize(into: &out)
            let t2 = clock.now
            bestParse = min(bestParse, t1 - t0)
            bestSer = min(bestSer, t2 - t1)
            spent += t2 - t0
            precondition(out.count == bytes.count)
        }
        func secs(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        return Result(bytes: bytes.count, parseSeconds: secs(bestParse), serializeSeconds: secs(bestSer))
    }
}
