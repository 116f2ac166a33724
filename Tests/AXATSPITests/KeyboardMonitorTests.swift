import AXDBus
import XCTest

@testable import AXATSPI

/// The keyboard monitor's grab rules (D-KEY-MONITOR-1), as libatspi 2.56's a11y-manager device sets them for Orca 48
/// (`atspi-device-a11y-manager.c`: `SetKeyGrabs(au modifiers, a(uu) keystrokes)`; Orca maps Insert and KP_Insert as
/// its modifiers and grabs each command by keysym) and as the interface defines them (mutter's
/// `org.freedesktop.a11y.xml`: keys pressed while a grabbed modifier is down are grabbed too).
final class KeyboardMonitorTests: XCTestCase {
    static let insert: UInt32 = 0xff63
    static let kpEnter: UInt32 = 0xff8d
    static let tab: UInt32 = 0xff09
    static let letterH: UInt32 = 0x68
    static let shiftMask: UInt32 = 1
    static let numLockMask: UInt32 = 1 << 4

    func orca48() -> KeyboardMonitorGrabs {
        var grabs = KeyboardMonitorGrabs()
        XCTAssertTrue(
            grabs.update(":1.7") { client in
                client.watching = true
                client.modifiers = [Self.insert]
                client.keystrokes = [
                    .init(keysym: Self.kpEnter, modifiers: 0), .init(keysym: Self.insert, modifiers: 0),
                ]
            })
        return grabs
    }

    func testAGrabbedKeystrokeIsConsumedPressAndRelease() {
        var grabs = orca48()
        XCTAssertTrue(grabs.consumes(keysym: Self.kpEnter, modifiers: 0, pressed: true))
        XCTAssertTrue(grabs.consumes(keysym: Self.kpEnter, modifiers: 0, pressed: false))
        // NumLock on does not change the match; Shift does (Shift+KP_Enter is another keystroke).
        XCTAssertTrue(grabs.consumes(keysym: Self.kpEnter, modifiers: Self.numLockMask, pressed: true))
        XCTAssertTrue(grabs.consumes(keysym: Self.kpEnter, modifiers: 0, pressed: false))
        XCTAssertFalse(grabs.consumes(keysym: Self.kpEnter, modifiers: Self.shiftMask, pressed: true))
        XCTAssertFalse(grabs.consumes(keysym: Self.kpEnter, modifiers: Self.shiftMask, pressed: false))
    }

    func testOrdinaryKeysPassAndKeysUnderTheOrcaModifierAreConsumed() {
        var grabs = orca48()
        XCTAssertFalse(grabs.consumes(keysym: Self.tab, modifiers: 0, pressed: true))
        XCTAssertFalse(grabs.consumes(keysym: Self.tab, modifiers: 0, pressed: false))
        XCTAssertTrue(grabs.consumes(keysym: Self.insert, modifiers: 0, pressed: true))
        XCTAssertTrue(grabs.consumes(keysym: Self.letterH, modifiers: 0, pressed: true))  // Orca+h
        XCTAssertTrue(grabs.consumes(keysym: Self.letterH, modifiers: 0, pressed: false))
        XCTAssertTrue(grabs.consumes(keysym: Self.insert, modifiers: 0, pressed: false))
        XCTAssertFalse(grabs.consumes(keysym: Self.letterH, modifiers: 0, pressed: true))  // Insert is up again
    }

    func testGrabKeyboardTakesEveryKeyAndALeavingClientTakesNothing() {
        var grabs = orca48()
        XCTAssertTrue(grabs.update(":1.7") { $0.grabAll = true })
        XCTAssertTrue(grabs.consumes(keysym: Self.tab, modifiers: 0, pressed: true))
        XCTAssertTrue(grabs.consumes(keysym: Self.tab, modifiers: 0, pressed: false))
        grabs.remove(":1.7")
        XCTAssertFalse(grabs.hasClients)
        XCTAssertEqual(grabs.recipients, [])
        XCTAssertFalse(grabs.consumes(keysym: Self.kpEnter, modifiers: 0, pressed: true))
    }

    func testClientsBeyondTheLimitAreRefused() {
        var grabs = KeyboardMonitorGrabs()
        for index in 0..<KeyboardMonitorGrabs.clientLimit {
            XCTAssertTrue(grabs.update(":1.\(index)") { $0.watching = true })
        }
        XCTAssertFalse(grabs.update(":2.0") { $0.watching = true })
        XCTAssertEqual(grabs.recipients.count, KeyboardMonitorGrabs.clientLimit)
    }

    func testSetKeyGrabsWithAWrongSignatureIsRefused() throws {
        let wrong = try DBusMessage.methodCall(
            destination: nil, path: A11yKeyboardMonitor.objectPath, interface: A11yKeyboardMonitor.interface,
            member: "SetKeyGrabs"
        ).append { $0.append("Insert") }
        guard case .failure(let error) = A11yKeyboardMonitor.readKeyGrabs(wrong) else {
            return XCTFail("a string is not (au, a(uu))")
        }
        XCTAssertEqual(error.name, DBusError.Name.invalidArgs)
        let right = try DBusMessage.methodCall(
            destination: nil, path: A11yKeyboardMonitor.objectPath, interface: A11yKeyboardMonitor.interface,
            member: "SetKeyGrabs"
        ).append { writer in
            writer.array("u") { writer.append(Self.insert) }
            writer.array("(uu)") {
                writer.structure {
                    writer.append(Self.kpEnter)
                    writer.append(UInt32(0))
                }
            }
        }
        guard case .success(let (modifiers, keystrokes)) = A11yKeyboardMonitor.readKeyGrabs(right) else {
            return XCTFail("(au, a(uu)) is read")
        }
        XCTAssertEqual(modifiers, [Self.insert])
        XCTAssertEqual(keystrokes, [.init(keysym: Self.kpEnter, modifiers: 0)])
    }
}
