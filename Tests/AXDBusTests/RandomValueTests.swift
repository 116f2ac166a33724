import AXDBus
import AXTestSupport
import XCTest

/// Random D-Bus types and values (seeded) for round-trip tests of the writer's signature tracking.
struct RandomTypes {
    indirect enum T {
        case basic(Character)
        case array(T)
        case dict(Character, T)
        case structure([T])
        case variant
    }

    var rng: SplitMix

    static let basics: [Character] = ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g"]

    mutating func type(depth: Int) -> T {
        let result = depth <= 0 ? 0 : 1 + rng.next(5)
        switch result {
        case 0, 1: return .basic(Self.basics[rng.next(Self.basics.count)])
        case 2: return .array(type(depth: depth - 1))
        case 3: return .dict(Self.basics[rng.next(Self.basics.count)], type(depth: depth - 1))
        case 4: return .structure((0...rng.next(3)).map { _ in type(depth: depth - 1) })
        default: return .variant
        }
    }

    static func signature(_ t: T) -> String {
        switch t {
        case .basic(let code): return String(code)
        case .array(let element): return "a" + signature(element)
        case .dict(let key, let valueType): return "a{\(key)\(signature(valueType))}"
        case .structure(let fields): return "(" + fields.map(signature).joined() + ")"
        case .variant: return "v"
        }
    }

    mutating func value(_ t: T, depth: Int) -> DBusValue {
        switch t {
        case .basic(let code): return basic(code)
        case .array(let element):
            return .array(
                elementSignature: Self.signature(element),
                (0..<rng.next(4)).map { _ in value(element, depth: depth - 1) })
        case .dict(let key, let valueType):
            return .array(
                elementSignature: "{\(key)\(Self.signature(valueType))}",
                (0..<rng.next(4)).map { _ in .dictEntry(basic(key), value(valueType, depth: depth - 1)) })
        case .structure(let fields): return .struct(fields.map { value($0, depth: depth - 1) })
        case .variant:
            let inner = type(depth: max(0, depth - 1))
            return .variant(value(inner, depth: depth - 1))
        }
    }

    mutating func basic(_ c: Character) -> DBusValue {
        switch c {
        case "y": return .byte(UInt8(truncatingIfNeeded: rng.raw()))
        case "b": return .bool(rng.next(2) == 1)
        case "n": return .int16(Int16(truncatingIfNeeded: rng.raw()))
        case "q": return .uint16(UInt16(truncatingIfNeeded: rng.raw()))
        case "i": return .int32(Int32(truncatingIfNeeded: rng.raw()))
        case "u": return .uint32(UInt32(truncatingIfNeeded: rng.raw()))
        case "x": return .int64(Int64(bitPattern: rng.raw()))
        case "t": return .uint64(rng.raw())
        case "d": return .double(Double(Int64(bitPattern: rng.raw()) % 1_000_000) / 7)
        case "s": return .string(["", "a", "héllo", "✓ 🎉", "with 'quote'", "x\(rng.next(1000))"][rng.next(6)])
        case "o": return .objectPath(["/", "/a", "/org/a11y/atspi/accessible/\(rng.next(100))"][rng.next(3)])
        default: return .signature(["", "i", "a{sv}", "(so)"][rng.next(4)])
        }
    }
}

struct SplitMix {
    var state: UInt64
    mutating func raw() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var otherState = state
        otherState = (otherState ^ (otherState >> 30)) &* 0xBF58_476D_1CE4_E5B9
        otherState = (otherState ^ (otherState >> 27)) &* 0x94D0_49BB_1331_11EB
        return otherState ^ (otherState >> 31)
    }
    mutating func next(_ n: Int) -> Int { Int(raw() % UInt64(n)) }
}

final class RandomValueTests: XCTestCase {
    /// Random nested values survive writer → libdbus → bus → libdbus → reader unchanged, and the
    /// message signature equals the signature computed from the types.
    func testRandomValuesRoundTripThroughTheBus() throws {
        let bus = try PrivateBus(purpose: "AXDBus integration tests", tag: "axdbus-test")
        defer { bus.stop() }
        let server = try DBusConnection.open(address: bus.address)
        defer { server.close() }
        let client = try DBusConnection.open(address: bus.address)
        defer { client.close() }
        try server.register(path: "/echo") { msg in .reply(msg.makeReply().append(values: try msg.values())) }
        var gen = RandomTypes(rng: SplitMix(state: 0xA11D_B05))
        for round in 0..<300 {
            let types = (0..<(1 + gen.rng.next(3))).map { _ in gen.type(depth: 5) }
            let values = types.map { gen.value($0, depth: 4) }
            let sig = types.map(RandomTypes.signature).joined()
            if sig.utf8.count > 200 { continue }  // D-Bus signatures are limited to 255 bytes
            if round % 60 == 0 { print("random signature sample: \(sig)") }
            let message = try DBusMessage.methodCall(
                destination: server.uniqueName, path: "/echo", interface: "org.axserver.Test", member: "Echo")
            message.append(values: values)
            XCTAssertNil(message.marshalError, "round \(round) sig \(sig): \(String(describing: message.marshalError))")
            XCTAssertEqual(message.signature, sig, "round \(round)")
            let reply = try client.call(message, timeoutMilliseconds: 5_000)
            XCTAssertEqual(reply.signature, sig, "round \(round)")
            XCTAssertEqual(try reply.values(), values, "round \(round) sig \(sig)")
        }
    }
}
