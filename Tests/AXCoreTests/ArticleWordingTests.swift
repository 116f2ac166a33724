import XCTest

@testable import AXCore

/// Audit wording (issue 25 item 8): the indefinite article follows the sound of the first letter, and a capital
/// class prefix is read letter by letter ("a UIButton", never "an UIButton"; "an NSView").
final class ArticleWordingTests: XCTestCase {
    func testArticles() {
        XCTAssertEqual(TreeText.withArticle("adjustable"), "an adjustable")
        XCTAssertEqual(TreeText.withArticle("button"), "a button")
        XCTAssertEqual(TreeText.withArticle("image"), "an image")
        XCTAssertEqual(TreeText.withArticle("UIButton"), "a UIButton")
        XCTAssertEqual(TreeText.withArticle("NSView"), "an NSView")
        XCTAssertEqual(TreeText.withArticle("MKMapView"), "an MKMapView")
        XCTAssertEqual(TreeText.withArticle("Image"), "an Image")
        XCTAssertEqual(TreeText.withArticle("TouchPad"), "a TouchPad")
        XCTAssertEqual(TreeText.withArticle(""), "")
    }
}
