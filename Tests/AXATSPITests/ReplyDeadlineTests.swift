import AXDBus
import AXHub
import XCTest

/// Issue 19 item 3 (D-REL-3): each AT-SPI `DoAction` left a detached task sleeping for the whole reply timeout
/// (holding the call and its connection). The reply deadline is now cancelled and freed when the reply goes out.
final class ReplyDeadlineTests: XCTestCase {
    func testAnsweredActionsLeaveNoReplyDeadlineBehind() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let seen = try fixture.walk()
        let edit = try fixture.node(id: "edit", in: seen)
        let baseline = WaitDeadline.liveCount
        for _ in 0..<50 {
            let ok = try fixture.call(edit.path, "org.a11y.atspi.Action", "DoAction") { $0.append(Int32(0)) }.reader()
                .readBool()
            XCTAssertTrue(ok)
        }
        let clock = ContinuousClock()
        let giveUp = clock.now + .seconds(2)
        while WaitDeadline.liveCount > baseline && clock.now < giveUp { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(WaitDeadline.liveCount, baseline, "answered actions left their reply deadlines running")
    }
}
