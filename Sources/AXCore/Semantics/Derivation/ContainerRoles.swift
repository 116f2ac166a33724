/// The role a view takes as an accessibility container (R39–R41, X11, X32, X35; D-MODAL-1).
extension Deriver {
    func containerRole(_ view: ViewNode) -> AXRole? {
        if let role = Deriver.declaredContainerRole(view.ax.containerType) { return role }
        if (view.ax.traits ?? view.kind.defaultTraits).contains(.tabBar) { return .tabBar }  // X35
        if let role = Deriver.classContainerRole(view) { return role }
        if view.ax.shouldGroupChildren { return .group }  // X11
        // X10, X32 (D-MODAL-1): a view marked modal is a container, so its modal state and its escape action
        // reach clients, and escape can bubble to it.
        if view.ax.viewIsModal == true { return .group }
        return nil
    }

    /// The role `accessibilityContainerType` declares (R39; menus: D-MENU-1).
    @inline(__always)
    static func declaredContainerRole(_ type: ContainerType) -> AXRole? {
        switch type {
        case .dataTable: return .table
        case .list: return .list
        case .landmark: return .landmark
        case .semanticGroup: return .group
        case .menu: return .menu  // D-MENU-1
        case .menuBar: return .menuBar
        case .none: return nil
        }
    }

    /// The container role of a UIKit class (R40, R41).
    @inline(__always)
    static func classContainerRole(_ view: ViewNode) -> AXRole? {
        switch view.kind {
        case .alertController, .actionSheet: return .alert
        case .navigationBar: return .navigationBar
        case .toolbar: return .toolbar
        case .tableView, .collectionView: return .list
        case .segmentedControl: return .segmentedControl
        case .pickerView: return .picker
        case .datePicker: return view.control.components.isEmpty ? nil : .picker
        case .window, .view, .label, .button, .barButtonItem, .switchControl, .slider, .stepper, .textField, .textView,
            .searchBar, .imageView, .scrollView, .tableViewCell, .collectionViewCell, .tabBar, .tabBarButton,
            .pageControl, .progressView, .activityIndicator, .stackView:
            return nil
        }
    }
}
