import AXJSON

/// JSON codec measurements (`axbench --json`).
package enum JSONBenchmark {
    package struct Result: Sendable, CustomStringConvertible {
        /// Size of the compact serialization.
        package var bytes: Int
        /// Best time of one parse.
        package var parseSeconds: Double
        /// Best time of one serialization.
        package var serializeSeconds: Double
        package var parseMBps: Double { Double(bytes) / parseSeconds / 1_000_000 }
        package var serializeMBps: Double { Double(bytes) / serializeSeconds / 1_000_000 }
        package var description: String {
            let parse = "parse \(Int(parseMBps)) MB/s (\(milliseconds(parseSeconds)) ms)"
            let serialize = "serialize \(Int(serializeMBps)) MB/s (\(milliseconds(serializeSeconds)) ms)"
            return "\(bytes) bytes: \(parse), \(serialize)"
        }
        /// `seconds` in milliseconds with two decimals.
        private func milliseconds(_ seconds: Double) -> String {
            let hundredths = Int(seconds * 100_000 + 0.5)
            let fraction = hundredths % 100
            return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
        }
    }

    /// A tree shaped like the accessibility trees this project exchanges: `nodes` objects with ids, roles,
    /// labels (some non-ASCII, some with escapes), frames, flags and trait arrays, 10 children per parent.
    package static func sampleTree(nodes: Int) -> JSON {
        var level: [JSON] = (0..<max(1, nodes)).map(sampleNode)
        var nextNumber = nodes
        while level.count > 1 {
            var parents: [JSON] = []
            var start = 0
            while start < level.count {
                guard case .object(var parent) = sampleNode(nextNumber) else { break }
                nextNumber += 1
                parent.appendUnchecked("children", .array(Array(level[start..<min(start + 10, level.count)])))
                parents.append(.object(parent))
                start += 10
            }
            level = parents
        }
        return level[0]
    }

    /// Node `number` of the sample tree, without children.
    private static func sampleNode(_ number: Int) -> JSON {
        var object = JSONObject(minimumCapacity: 8)
        let role = number % 3 == 0 ? "button" : number % 3 == 1 ? "staticText" : "cell"
        let label = number % 7 == 0 ? "Größe \"\(number)\" — ok\n" : "Item number \(number)"
        object.appendUnchecked("id", .string("e\(number)"))
        object.appendUnchecked("role", .string(role))
        object.appendUnchecked("label", .string(label))
        object.appendUnchecked(
            "frame", .array([.number(Double(number % 400)), .number(Double(number / 400) * 44.5), 320, 44]))
        object.appendUnchecked("enabled", .bool(number % 5 != 0))
        object.appendUnchecked("value", number % 4 == 0 ? .number(Double(number) / 8) : .null)
        object.appendUnchecked("traits", .array(number % 2 == 0 ? ["button"] : ["staticText", "header"]))
        return .object(object)
    }

    /// Measures parse and serialize of `document`, best of repeated runs lasting at least `minDuration` each.
    package static func measure(_ document: JSON, minDuration: Duration = .milliseconds(300)) throws(JSONParseError)
        -> Result
    {
        let bytes = document.serialized()
        let clock = ContinuousClock()
        var bestParse = Duration.seconds(1000)
        var bestSerialize = Duration.seconds(1000)
        var spent = Duration.zero
        var parsed: JSON = .null
        while spent < minDuration {
            let start = clock.now
            parsed = try JSON.parse(bytes)
            let parsedAt = clock.now
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            parsed.serialize(into: &output)
            let serializedAt = clock.now
            bestParse = min(bestParse, parsedAt - start)
            bestSerialize = min(bestSerialize, serializedAt - parsedAt)
            spent += serializedAt - start
            precondition(output.count == bytes.count, "a parsed document serializes to the bytes it was parsed from")
        }
        return Result(
            bytes: bytes.count, parseSeconds: seconds(bestParse), serializeSeconds: seconds(bestSerialize))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
