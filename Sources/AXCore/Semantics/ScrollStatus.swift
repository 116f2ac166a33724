/// The default scroll status of a paging scroll view (X53; D-NA-22 rewritten as D-SCROLL-1): without a
/// scroll-view accessibility delegate UIKit says "Page X of Y". The server computes it from the view's
/// `isPagingEnabled`, `contentOffset` (bounds origin), frame and the frames of its content, when the app posts
/// `pageScrolled` without a status.
package enum ScrollStatus {
    /// "Page X of Y" for the paging scroll view `id`, or nil when it is not one. Pages run along the axis the
    /// content overflows (horizontal first); X is the page the offset shows (rounded), clamped to 1…Y.
    package static func pageStatus(of id: String, in views: ViewHierarchy) -> String? {
        guard let view = views[id], view.control.isPagingEnabled, !view.isHidden else { return nil }
        var extentX = view.frame.width
        var extentY = view.frame.height
        for childID in view.children {
            guard let child = views[childID], !child.isHidden else { continue }
            extentX = max(extentX, child.frame.maxX)
            extentY = max(extentY, child.frame.maxY)
        }
        let horizontal = extentX > view.frame.width + 0.5
        let pageSize = horizontal ? view.frame.width : view.frame.height
        guard pageSize > 0 else { return nil }
        let extent = horizontal ? extentX : extentY
        let offset = horizontal ? view.boundsOrigin.x : view.boundsOrigin.y
        let pages = max(1, Int((extent / pageSize - 0.001).rounded(.up)))
        let page = min(max(Int((offset / pageSize).rounded()) + 1, 1), pages)
        return "Page \(page) of \(pages)"
    }

    /// The paging scroll view a status-less `pageScrolled` is about: the only visible one, else the one holding
    /// the focused element's view; nil when that is ambiguous or there is none.
    package static func pagingView(in views: ViewHierarchy, focusedView: String?) -> String? {
        var candidates: [String] = []
        for (id, view) in views.nodes where view.control.isPagingEnabled && !view.isHidden {
            candidates.append(id)
        }
        if candidates.count == 1 { return candidates[0] }
        guard let focusedView else { return nil }
        let holding = candidates.filter { $0 == focusedView || views.isAncestor($0, of: focusedView) }
        return holding.count == 1 ? holding[0] : nil
    }
}
