import XCTest
final class AXATSPIPlaceholder: XCTestCase { func testNothing() {} }
