import AXCore

/// The tree.get "xml" format. Delegates to the selector engine's exporter once it exists (see AXQuery.TreeXML).
enum XMLPageSource {
    static func xml(_ tree: AXTree) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT/>\n"
    }
}
