/// The large content viewer (UILargeContentViewerItem; seed 000:7551–7569, 25409–25574; R118, D-LCV-1): what a
/// low-vision user's tool shows, enlarged, for an element that must stay small (a bar item, an icon).
package struct LargeContent: Sendable, Equatable {
    /// `largeContentTitle`, else the element's label.
    package var title: String?
    /// `largeContentImage`, by name.
    package var image: String?
    /// `scalesLargeContentImage`.
    package var scalesImage: Bool

    package init(title: String?, image: String?, scalesImage: Bool) {
        self.title = title
        self.image = image
        self.scalesImage = scalesImage
    }

    /// The element's large content, or nil when it does not show the viewer. `showsLargeContentViewer` defaults
    /// to true for the items of UIKit's bars (`UIBarButtonItem`, `UITabBarButton`), which UIKit shows in the
    /// viewer, and false elsewhere; the title defaults to the label; images are scaled only when asked.
    package static func resolve(_ settings: LargeContentSettings, kind: ViewClass, label: String?) -> LargeContent? {
        let shows = settings.shows ?? (kind == .barButtonItem || kind == .tabBarButton)
        guard shows else { return nil }
        return LargeContent(
            title: settings.title ?? label, image: settings.image, scalesImage: settings.scalesImage ?? false)
    }
}
