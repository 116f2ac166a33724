import AXDBus
import Foundation
import XCTest

/// Issue 19 item 7: AT-SPI `Introspect` listed each interface without its methods, so generic D-Bus tools were
/// blind. Every served object now lists the methods and properties of its interfaces, and the bridge answers
/// every method it lists (a call with no arguments gets a reply or InvalidArgs, never UnknownMethod).
final class IntrospectionTests: XCTestCase {
    /// `interface name → method names` from introspection XML.
    static func methods(_ xml: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        var current: String?
        for line in xml.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("<interface name=\"") {
                current = String(text.dropFirst("<interface name=\"".count).prefix { $0 != "\"" })
                out[current!] = []
            } else if text.hasPrefix("<method name=\""), let current {
                out[current, default: []].append(String(text.dropFirst("<method name=\"".count).prefix { $0 != "\"" }))
            }
        }
        return out
    }

    func testEveryServedInterfaceListsMethodsTheBridgeAnswers() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let seen = try fixture.walk()
        var interfacesSeen = Set<String>()
        var calls = 0
        for node in seen {
            let xml = try fixture.call(node.path, "org.freedesktop.DBus.Introspectable", "Introspect").reader()
                .readString()
            for (interface, methods) in Self.methods(xml) where interface.hasPrefix("org.a11y.atspi.") {
                if interface != "org.a11y.atspi.Value" && interface != "org.a11y.atspi.Cache" {
                    XCTAssertFalse(methods.isEmpty, "\(node.path): \(interface) lists no methods")
                }
                guard interfacesSeen.insert(interface).inserted else { continue }
                for method in methods {
                    calls += 1
                    do {
                        try fixture.call(node.path, interface, method)
                    } catch let error as DBusError {
                        XCTAssertNotEqual(
                            error.name, DBusError.Name.unknownMethod, "\(interface).\(method) is listed but unknown")
                    }
                }
            }
        }
        XCTAssertTrue(interfacesSeen.isSuperset(of: ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"]))
        XCTAssertGreaterThan(calls, 30)
    }
}
