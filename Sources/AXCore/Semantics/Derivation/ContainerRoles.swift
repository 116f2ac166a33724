/// The role a view takes as an accessibility container (R39–R41, X11, X32, X35; D-MODAL-1).
extension Deriver {
    func containerRole(_ view: ViewNode) -> AXRole? {
        switch view.ax.containerType {
        case .dataTable: return .table
        case .list: return .list
        case .landmark: return .landmark
        case .semanticGroup: return .group
        case .none: break
        }
        if (view.ax.traits ?? view.kind.defaultTraits).contains(.tabBar) { return .tabBar }  // X35
        switch view.kind {
        case .alertController, .actionSheet: return .alert
        case .navigationBar: return .navigationBar
        case .toolbar: return .toolbar
        case .tableView, .collectionView: return .list
        case .segmentedControl: return .segmentedControl
        case .pickerView: return .picker
        case .datePicker: return view.control.components.isEmpty ? nil : .picker
        default: break
        }
        if view.ax.shouldGroupChildren { return .group }  // X11
        // X10, X32 (D-MODAL-1): a view marked modal is a container, so its modal state and its escape action
        // reach clients, and escape can bubble to it.
        if view.ax.viewIsModal == true { return .group }
        return nil
    }
}
