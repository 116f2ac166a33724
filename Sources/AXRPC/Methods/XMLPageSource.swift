import AXCore
import AXQuery

/// The tree.get "xml" format: an Appium XCUITest-style page source (AXQuery.TreeXML).
enum XMLPageSource {
    static func xml(_ tree: AXTree) -> String { TreeXML.xml(tree) }
}
