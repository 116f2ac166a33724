/// The UIKit classes the schema knows. Any other class name behaves as `UIView` (the class name is still
/// kept and reported). Subclass names can declare their base with `"baseClass"` in the schema.
package enum ViewClass: String, Sendable, CaseIterable {
    case window = "UIWindow"
    case view = "UIView"
    case label = "UILabel"
    case button = "UIButton"
    case barButtonItem = "UIBarButtonItem"
    case switchControl = "UISwitch"
    case slider = "UISlider"
    case stepper = "UIStepper"
    case segmentedControl = "UISegmentedControl"
    case textField = "UITextField"
    case textView = "UITextView"
    case searchBar = "UISearchBar"
    case imageView = "UIImageView"
    case scrollView = "UIScrollView"
    case tableView = "UITableView"
    case tableViewCell = "UITableViewCell"
    case collectionView = "UICollectionView"
    case collectionViewCell = "UICollectionViewCell"
    case navigationBar = "UINavigationBar"
    case tabBar = "UITabBar"
    case tabBarButton = "UITabBarButton"
    case toolbar = "UIToolbar"
    case pageControl = "UIPageControl"
    case progressView = "UIProgressView"
    case activityIndicator = "UIActivityIndicatorView"
    case datePicker = "UIDatePicker"
    case pickerView = "UIPickerView"
    case stackView = "UIStackView"
    case alertController = "UIAlertController"
    case actionSheet = "UIActionSheet"

    package init(className: String, baseClass: String?) {
        if let known = ViewClass.byName[className] {
            self = known
            return
        }
        if let baseClass, let known = ViewClass.byName[baseClass] {
            self = known
            return
        }
        self = .view
    }

    /// Class name → class (every view's class is looked up while decoding a snapshot).
    private static let byName = KeyTable(allCases.map { (key: $0.rawValue, value: $0) })

    /// Whether instances are accessibility elements when the app does not say (R1, R17, X1; D-EXPOSE-1).
    package var isElementByDefault: Bool {
        switch self {
        case .label, .button, .barButtonItem, .switchControl, .slider, .stepper, .textField, .textView, .searchBar,
            .tableViewCell, .collectionViewCell, .pageControl, .progressView, .activityIndicator, .tabBarButton:
            return true
        case .imageView:
            return true  // but only when it has a label; see Semantics/Derivation/Exposure.swift (D-IMAGE-1)
        default:
            return false
        }
    }

    /// UIKit's default traits for the class (R3–R8, R17; A49; D-TRAITS-1 for classes the seeds leave open).
    package var defaultTraits: Traits {
        switch self {
        case .button, .barButtonItem, .tabBarButton: return .button
        case .label: return .staticText
        case .imageView: return .image
        case .slider, .stepper, .pageControl: return .adjustable
        case .switchControl: return [.button, .toggleButton]
        case .searchBar: return .searchField
        case .tabBar: return .tabBar
        case .progressView, .activityIndicator: return .updatesFrequently
        case .window, .view, .segmentedControl, .textField, .textView, .scrollView, .tableView, .tableViewCell,
            .collectionView, .collectionViewCell, .navigationBar, .toolbar, .datePicker, .pickerView, .stackView,
            .alertController, .actionSheet:
            return []
        }
    }

    /// `isUserInteractionEnabled` default: false for UIImageView (R116) and UILabel (A.9), true otherwise.
    package var defaultUserInteractionEnabled: Bool {
        switch self {
        case .imageView, .label: return false
        default: return true
        }
    }

    /// `clipsToBounds` default: scroll views clip their content (A.3, 000:17649); others do not (A1).
    package var defaultClipsToBounds: Bool {
        switch self {
        case .scrollView, .tableView, .collectionView, .textView: return true
        default: return false
        }
    }

    package var isScrollView: Bool {
        switch self {
        case .scrollView, .tableView, .collectionView, .textView: return true
        default: return false
        }
    }

    /// A UIControl subclass (R2: supplies a default value and frame).
    package var isControl: Bool {
        switch self {
        case .button, .switchControl, .slider, .stepper, .segmentedControl, .textField, .pageControl, .datePicker:
            return true
        default: return false
        }
    }
}
