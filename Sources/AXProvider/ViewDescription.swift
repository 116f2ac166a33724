// One Swift property per property of Specs/hierarchy.schema.json ($defs/view and $defs/virtualElement);
// ViewDescriptionTests fails when the schema gains a property this model does not have.
import AXJSON

/// The UIAccessibility properties a view and a virtual element share (Specs/hierarchy.md §UIAccessibility).
/// nil leaves a property at its UIKit default.
public struct AccessibilityProperties: Sendable, Equatable {
    /// `isAccessibilityElement`
    public var isAccessibilityElement: Bool?
    /// `accessibilityLabel`
    public var accessibilityLabel: String?
    /// `accessibilityValue`
    public var accessibilityValue: String?
    /// `accessibilityHint`
    public var accessibilityHint: String?
    /// `accessibilityIdentifier`
    public var accessibilityIdentifier: String?
    /// `accessibilityTraits`
    public var accessibilityTraits: [String]?
    /// `accessibilityFrame`
    public var accessibilityFrame: ViewRect?
    /// `accessibilityActivationPoint`
    public var accessibilityActivationPoint: ViewPoint?
    /// `accessibilityLanguage`
    public var accessibilityLanguage: String?
    /// `accessibilityElementsHidden`
    public var accessibilityElementsHidden: Bool?
    /// `accessibilityViewIsModal`
    public var accessibilityViewIsModal: Bool?
    /// `shouldGroupAccessibilityChildren`
    public var shouldGroupAccessibilityChildren: Bool?
    /// `accessibilityNavigationStyle`
    public var accessibilityNavigationStyle: NavigationStyle?
    /// `accessibilityContainerType`
    public var accessibilityContainerType: AccessibilityContainerType?
    /// `accessibilityRespondsToUserInteraction`
    public var accessibilityRespondsToUserInteraction: Bool?
    /// `accessibilityUserInputLabels`
    public var accessibilityUserInputLabels: [String]?
    /// `accessibilityTextualContext`
    public var accessibilityTextualContext: String?
    /// `accessibilityHeadingLevel`
    public var accessibilityHeadingLevel: Int?
    /// `accessibilityCustomActions`
    public var accessibilityCustomActions: [CustomActionDescription]?
    /// `accessibilityCustomRotors`
    public var accessibilityCustomRotors: [CustomRotorDescription]?
    /// `accessibilityElements`
    public var accessibilityElements: [AccessibilityElementItem]?
    /// `automationElements`
    public var automationElements: [String]?
    /// `accessibilityDataTable`
    public var accessibilityDataTable: DataTableDescription?
    /// `accessibilityRowRange`
    public var accessibilityRowRange: ViewRange?
    /// `accessibilityColumnRange`
    public var accessibilityColumnRange: ViewRange?
    /// `accessibilityDirectTouchOptions`
    public var accessibilityDirectTouchOptions: [String]?
    /// `accessibilityIgnoresInvertColors`
    public var accessibilityIgnoresInvertColors: Bool?
    /// `accessibilityExpandedStatus`
    public var accessibilityExpandedStatus: String?

    /// No property set.
    public init() {}

    /// The names of the properties this type models, in schema order.
    public static let propertyNames: [String] = [
        "isAccessibilityElement", "accessibilityLabel", "accessibilityValue", "accessibilityHint",
        "accessibilityIdentifier", "accessibilityTraits", "accessibilityFrame", "accessibilityActivationPoint",
        "accessibilityLanguage", "accessibilityElementsHidden", "accessibilityViewIsModal",
        "shouldGroupAccessibilityChildren", "accessibilityNavigationStyle", "accessibilityContainerType",
        "accessibilityRespondsToUserInteraction", "accessibilityUserInputLabels", "accessibilityTextualContext",
        "accessibilityHeadingLevel", "accessibilityCustomActions", "accessibilityCustomRotors", "accessibilityElements",
        "automationElements", "accessibilityDataTable", "accessibilityRowRange", "accessibilityColumnRange",
        "accessibilityDirectTouchOptions", "accessibilityIgnoresInvertColors", "accessibilityExpandedStatus",
    ]

    /// Reads `key` when it is one of these properties with a value of the modelled type; false otherwise.
    mutating func read(_ key: String, _ value: JSON) -> Bool {
        switch key {
        case "isAccessibilityElement":
            guard let decoded = value.boolValue else { return false }
            self.isAccessibilityElement = decoded
        case "accessibilityLabel":
            guard let decoded = value.stringValue else { return false }
            self.accessibilityLabel = decoded
        case "accessibilityValue":
            guard let decoded = value.stringValue else { return false }
            self.accessibilityValue = decoded
        case "accessibilityHint":
            guard let decoded = value.stringValue else { return false }
            self.accessibilityHint = decoded
        case "accessibilityIdentifier":
            guard let decoded = value.stringValue else { return false }
            self.accessibilityIdentifier = decoded
        case "accessibilityTraits":
            guard let decoded = value.stringList else { return false }
            self.accessibilityTraits = decoded
        case "accessibilityFrame":
            guard let decoded = ViewRect(json: value) else { return false }
            self.accessibilityFrame = decoded
        case "accessibilityActivationPoint":
            guard let decoded = ViewPoint(json: value) else { return false }
            self.accessibilityActivationPoint = decoded
        case "accessibilityLanguage":
            guard let decoded = value.stringValue else { return false }
            self.accessibilityLanguage = decoded
        case "accessibilityElementsHidden":
            guard let decoded = value.boolValue else { return false }
            self.accessibilityElementsHidden = decoded
        case "accessibilityViewIsModal":
            guard let decoded = value.boolValue else { return false }
            self.accessibilityViewIsModal = decoded
        case "shouldGroupAccessibilityChildren":
            guard let decoded = value.boolValue else { return false }
            self.shouldGroupAccessibilityChildren = decoded
        case "accessibilityNavigationStyle":
            guard let decoded = value.stringValue.flatMap(NavigationStyle.init(rawValue:)) else { return false }
            self.accessibilityNavigationStyle = decoded
        case "accessibilityContainerType":
            guard let decoded = value.stringValue.flatMap(AccessibilityContainerType.init(rawValue:)) else {
                return false
            }
            self.accessibilityContainerType = decoded
        case "accessibilityRespondsToUserInteraction":
            guard let decoded = value.boolValue else { return false }
            self.accessibilityRespondsToUserInteraction = decoded
        case "accessibilityUserInputLabels":
            guard let decoded = value.stringList else { return false }
            self.accessibilityUserInputLabels = decoded
        case "accessibilityTextualContext":
            guard let decoded = value.stringValue else { return false }
            self.accessibilityTextualContext = decoded
        case "accessibilityHeadingLevel":
            guard let decoded = value.intValue else { return false }
            self.accessibilityHeadingLevel = decoded
        case "accessibilityCustomActions":
            guard let decoded = CustomActionDescription.list(value) else { return false }
            self.accessibilityCustomActions = decoded
        case "accessibilityCustomRotors":
            guard let decoded = CustomRotorDescription.list(value) else { return false }
            self.accessibilityCustomRotors = decoded
        case "accessibilityElements":
            guard let decoded = AccessibilityElementItem.list(value) else { return false }
            self.accessibilityElements = decoded
        case "automationElements":
            guard let decoded = value.stringList else { return false }
            self.automationElements = decoded
        case "accessibilityDataTable":
            guard let decoded = DataTableDescription(json: value) else { return false }
            self.accessibilityDataTable = decoded
        case "accessibilityRowRange":
            guard let decoded = ViewRange(json: value) else { return false }
            self.accessibilityRowRange = decoded
        case "accessibilityColumnRange":
            guard let decoded = ViewRange(json: value) else { return false }
            self.accessibilityColumnRange = decoded
        case "accessibilityDirectTouchOptions":
            guard let decoded = value.stringList else { return false }
            self.accessibilityDirectTouchOptions = decoded
        case "accessibilityIgnoresInvertColors":
            guard let decoded = value.boolValue else { return false }
            self.accessibilityIgnoresInvertColors = decoded
        case "accessibilityExpandedStatus":
            guard let decoded = value.stringValue else { return false }
            self.accessibilityExpandedStatus = decoded
        default: return false
        }
        return true
    }

    /// Writes the properties that are set into `object`.
    func write(into object: inout JSONObject) {
        if let isAccessibilityElement {
            object["isAccessibilityElement"] = .bool(isAccessibilityElement)
        }
        if let accessibilityLabel {
            object["accessibilityLabel"] = .string(accessibilityLabel)
        }
        if let accessibilityValue {
            object["accessibilityValue"] = .string(accessibilityValue)
        }
        if let accessibilityHint {
            object["accessibilityHint"] = .string(accessibilityHint)
        }
        if let accessibilityIdentifier {
            object["accessibilityIdentifier"] = .string(accessibilityIdentifier)
        }
        if let accessibilityTraits {
            object["accessibilityTraits"] = JSON(accessibilityTraits)
        }
        if let accessibilityFrame {
            object["accessibilityFrame"] = accessibilityFrame.json
        }
        if let accessibilityActivationPoint {
            object["accessibilityActivationPoint"] = accessibilityActivationPoint.json
        }
        if let accessibilityLanguage {
            object["accessibilityLanguage"] = .string(accessibilityLanguage)
        }
        if let accessibilityElementsHidden {
            object["accessibilityElementsHidden"] = .bool(accessibilityElementsHidden)
        }
        if let accessibilityViewIsModal {
            object["accessibilityViewIsModal"] = .bool(accessibilityViewIsModal)
        }
        if let shouldGroupAccessibilityChildren {
            object["shouldGroupAccessibilityChildren"] = .bool(shouldGroupAccessibilityChildren)
        }
        if let accessibilityNavigationStyle {
            object["accessibilityNavigationStyle"] = .string(accessibilityNavigationStyle.rawValue)
        }
        if let accessibilityContainerType {
            object["accessibilityContainerType"] = .string(accessibilityContainerType.rawValue)
        }
        if let accessibilityRespondsToUserInteraction {
            object["accessibilityRespondsToUserInteraction"] = .bool(accessibilityRespondsToUserInteraction)
        }
        if let accessibilityUserInputLabels {
            object["accessibilityUserInputLabels"] = JSON(accessibilityUserInputLabels)
        }
        if let accessibilityTextualContext {
            object["accessibilityTextualContext"] = .string(accessibilityTextualContext)
        }
        if let accessibilityHeadingLevel {
            object["accessibilityHeadingLevel"] = JSON(accessibilityHeadingLevel)
        }
        if let accessibilityCustomActions {
            object["accessibilityCustomActions"] = .array(accessibilityCustomActions.map(\.json))
        }
        if let accessibilityCustomRotors {
            object["accessibilityCustomRotors"] = .array(accessibilityCustomRotors.map(\.json))
        }
        if let accessibilityElements {
            object["accessibilityElements"] = .array(accessibilityElements.map(\.json))
        }
        if let automationElements {
            object["automationElements"] = JSON(automationElements)
        }
        if let accessibilityDataTable {
            object["accessibilityDataTable"] = accessibilityDataTable.json
        }
        if let accessibilityRowRange {
            object["accessibilityRowRange"] = accessibilityRowRange.json
        }
        if let accessibilityColumnRange {
            object["accessibilityColumnRange"] = accessibilityColumnRange.json
        }
        if let accessibilityDirectTouchOptions {
            object["accessibilityDirectTouchOptions"] = JSON(accessibilityDirectTouchOptions)
        }
        if let accessibilityIgnoresInvertColors {
            object["accessibilityIgnoresInvertColors"] = .bool(accessibilityIgnoresInvertColors)
        }
        if let accessibilityExpandedStatus {
            object["accessibilityExpandedStatus"] = .string(accessibilityExpandedStatus)
        }
    }
}

/// One view of the hierarchy, typed (`$defs/view` of Specs/hierarchy.schema.json): its class, id, geometry,
/// visibility, control state, focus-engine and guided-access properties, its accessibility properties and its
/// subviews. `json` gives the form `hierarchy.set` takes; `init(json:)` reads that form back.
public struct ViewDescription: Sendable, Equatable {
    /// `id`: unique in the app, stable across updates.
    public var id: String
    /// `class`
    public var viewClass: String?
    /// `baseClass`
    public var baseClass: String?
    /// `frame`
    public var frame: ViewRect?
    /// `bounds`
    public var bounds: ViewRect?
    /// `boundsOrigin`
    public var boundsOrigin: ViewPoint?
    /// `contentOffset`
    public var contentOffset: ViewPoint?
    /// `transform`
    public var transform: ViewTransform?
    /// `isHidden`
    public var isHidden: Bool?
    /// `alpha`
    public var alpha: Double?
    /// `clipsToBounds`
    public var clipsToBounds: Bool?
    /// `isUserInteractionEnabled`
    public var isUserInteractionEnabled: Bool?
    /// `tag`
    public var tag: Int?
    /// `isEnabled`
    public var isEnabled: Bool?
    /// `isSelected`
    public var isSelected: Bool?
    /// `isHighlighted`
    public var isHighlighted: Bool?
    /// `isOn`
    public var isOn: Bool?
    /// `value`
    public var value: Double?
    /// `minimumValue`
    public var minimumValue: Double?
    /// `maximumValue`
    public var maximumValue: Double?
    /// `stepValue`
    public var stepValue: Double?
    /// `text`
    public var text: String?
    /// `title`
    public var title: String?
    /// `placeholder`
    public var placeholder: String?
    /// `isSecureTextEntry`
    public var isSecureTextEntry: Bool?
    /// `isEditable`
    public var isEditable: Bool?
    /// `currentPage`
    public var currentPage: Int?
    /// `numberOfPages`
    public var numberOfPages: Int?
    /// `selectedSegmentIndex`
    public var selectedSegmentIndex: Int?
    /// `segmentTitles`
    public var segmentTitles: [String]?
    /// `progress`
    public var progress: Double?
    /// `isAnimating`
    public var isAnimating: Bool?
    /// `accessoryType`
    public var accessoryType: String?
    /// `backButtonTitle`
    public var backButtonTitle: String?
    /// `message`
    public var message: String?
    /// `preferredStyle`
    public var preferredStyle: AlertStyle?
    /// `components`
    public var components: [PickerComponentDescription]?
    /// `dateText`
    public var dateText: String?
    /// `isKeyWindow`
    public var isKeyWindow: Bool?
    /// `windowLevel`
    public var windowLevel: Double?
    /// `windowTitle`
    public var windowTitle: String?
    /// `layoutDirection`
    public var layoutDirection: String?
    /// `semanticContentAttribute`
    public var semanticContentAttribute: String?
    /// `canBecomeFocused`
    public var canBecomeFocused: Bool?
    /// `focusGroupIdentifier`
    public var focusGroupIdentifier: String?
    /// `focusGroupPriority`
    public var focusGroupPriority: FocusGroupPriority?
    /// `focusGuides`
    public var focusGuides: [FocusGuideDescription]?
    /// `isTransparentFocusItem`
    public var isTransparentFocusItem: Bool?
    /// `isFocused`
    public var isFocused: Bool?
    /// `preferredFocusEnvironments`
    public var preferredFocusEnvironments: [String]?
    /// `focusUpdateRequests`
    public var focusUpdateRequests: Bool?
    /// `restrictionIdentifiers`
    public var restrictionIdentifiers: [String]?
    /// `guidedAccessRestrictionIdentifiers`
    public var guidedAccessRestrictionIdentifiers: [String]?
    /// `fontSize`: Point size of the view's text, for the text-clipped and contrast audits (D-AUDIT-7, D-AUDIT-8).
    public var fontSize: Double?
    /// `textColor`: Opaque sRGB colour for the contrast audit (D-AUDIT-8): #RRGGBB or #RGB.
    public var textColor: String?
    /// `backgroundColor`: Opaque sRGB colour for the contrast audit (D-AUDIT-8): #RRGGBB or #RGB.
    public var backgroundColor: String?
    /// The UIAccessibility properties.
    public var accessibility: AccessibilityProperties
    /// `children`: the subviews, back to front.
    public var children: [ViewDescription]
    /// Properties sent as given: ones this type does not model, values in a form it does not model (an
    /// integer trait mask, a frame as an object), and explicit nulls.
    public var extra: JSONObject

    /// A view with an id, a class (`UIButton`, `UILabel`, or your own with `baseClass`), a frame and subviews.
    public init(
        id: String, viewClass: String? = nil, frame: ViewRect? = nil,
        accessibility: AccessibilityProperties = AccessibilityProperties(), children: [ViewDescription] = []
    ) {
        self.id = id
        self.viewClass = viewClass
        self.frame = frame
        self.accessibility = accessibility
        self.children = children
        self.extra = JSONObject()
    }

    /// The names of the view properties this type models (with `AccessibilityProperties.propertyNames`).
    public static let propertyNames: [String] = [
        "id", "class", "baseClass", "frame", "bounds", "boundsOrigin", "contentOffset", "transform", "isHidden",
        "alpha", "clipsToBounds", "isUserInteractionEnabled", "tag", "isEnabled", "isSelected", "isHighlighted", "isOn",
        "value", "minimumValue", "maximumValue", "stepValue", "text", "title", "placeholder", "isSecureTextEntry",
        "isEditable", "currentPage", "numberOfPages", "selectedSegmentIndex", "segmentTitles", "progress",
        "isAnimating", "accessoryType", "backButtonTitle", "message", "preferredStyle", "components", "dateText",
        "isKeyWindow", "windowLevel", "windowTitle", "layoutDirection", "semanticContentAttribute", "canBecomeFocused",
        "focusGroupIdentifier", "focusGroupPriority", "focusGuides", "isTransparentFocusItem", "isFocused",
        "preferredFocusEnvironments", "focusUpdateRequests", "restrictionIdentifiers",
        "guidedAccessRestrictionIdentifiers", "children", "fontSize", "textColor", "backgroundColor",
    ]

    /// Reads a view in the JSON form; nil when `json` is not an object with a string `id`.
    public init?(json: JSON) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue else { return nil }
        self.init(id: id)
        for (key, value) in object where key != "id" {
            if !read(key, value) && !accessibility.read(key, value) {
                extra[key] = value
            }
        }
    }

    private mutating func read(_ key: String, _ value: JSON) -> Bool {
        switch key {
        case "class":
            guard let decoded = value.stringValue else { return false }
            self.viewClass = decoded
        case "baseClass":
            guard let decoded = value.stringValue else { return false }
            self.baseClass = decoded
        case "frame":
            guard let decoded = ViewRect(json: value) else { return false }
            self.frame = decoded
        case "bounds":
            guard let decoded = ViewRect(json: value) else { return false }
            self.bounds = decoded
        case "boundsOrigin":
            guard let decoded = ViewPoint(json: value) else { return false }
            self.boundsOrigin = decoded
        case "contentOffset":
            guard let decoded = ViewPoint(json: value) else { return false }
            self.contentOffset = decoded
        case "transform":
            guard let decoded = ViewTransform(json: value) else { return false }
            self.transform = decoded
        case "isHidden":
            guard let decoded = value.boolValue else { return false }
            self.isHidden = decoded
        case "alpha":
            guard let decoded = value.finiteNumber else { return false }
            self.alpha = decoded
        case "clipsToBounds":
            guard let decoded = value.boolValue else { return false }
            self.clipsToBounds = decoded
        case "isUserInteractionEnabled":
            guard let decoded = value.boolValue else { return false }
            self.isUserInteractionEnabled = decoded
        case "tag":
            guard let decoded = value.intValue else { return false }
            self.tag = decoded
        case "isEnabled":
            guard let decoded = value.boolValue else { return false }
            self.isEnabled = decoded
        case "isSelected":
            guard let decoded = value.boolValue else { return false }
            self.isSelected = decoded
        case "isHighlighted":
            guard let decoded = value.boolValue else { return false }
            self.isHighlighted = decoded
        case "isOn":
            guard let decoded = value.boolValue else { return false }
            self.isOn = decoded
        case "value":
            guard let decoded = value.finiteNumber else { return false }
            self.value = decoded
        case "minimumValue":
            guard let decoded = value.finiteNumber else { return false }
            self.minimumValue = decoded
        case "maximumValue":
            guard let decoded = value.finiteNumber else { return false }
            self.maximumValue = decoded
        case "stepValue":
            guard let decoded = value.finiteNumber else { return false }
            self.stepValue = decoded
        case "text":
            guard let decoded = value.stringValue else { return false }
            self.text = decoded
        case "title":
            guard let decoded = value.stringValue else { return false }
            self.title = decoded
        case "placeholder":
            guard let decoded = value.stringValue else { return false }
            self.placeholder = decoded
        case "isSecureTextEntry":
            guard let decoded = value.boolValue else { return false }
            self.isSecureTextEntry = decoded
        case "isEditable":
            guard let decoded = value.boolValue else { return false }
            self.isEditable = decoded
        case "currentPage":
            guard let decoded = value.intValue else { return false }
            self.currentPage = decoded
        case "numberOfPages":
            guard let decoded = value.intValue else { return false }
            self.numberOfPages = decoded
        case "selectedSegmentIndex":
            guard let decoded = value.intValue else { return false }
            self.selectedSegmentIndex = decoded
        case "segmentTitles":
            guard let decoded = value.stringList else { return false }
            self.segmentTitles = decoded
        case "progress":
            guard let decoded = value.finiteNumber else { return false }
            self.progress = decoded
        case "isAnimating":
            guard let decoded = value.boolValue else { return false }
            self.isAnimating = decoded
        case "accessoryType":
            guard let decoded = value.stringValue else { return false }
            self.accessoryType = decoded
        case "backButtonTitle":
            guard let decoded = value.stringValue else { return false }
            self.backButtonTitle = decoded
        case "message":
            guard let decoded = value.stringValue else { return false }
            self.message = decoded
        case "preferredStyle":
            guard let decoded = value.stringValue.flatMap(AlertStyle.init(rawValue:)) else { return false }
            self.preferredStyle = decoded
        case "components":
            guard let decoded = PickerComponentDescription.list(value) else { return false }
            self.components = decoded
        case "dateText":
            guard let decoded = value.stringValue else { return false }
            self.dateText = decoded
        case "isKeyWindow":
            guard let decoded = value.boolValue else { return false }
            self.isKeyWindow = decoded
        case "windowLevel":
            guard let decoded = value.finiteNumber else { return false }
            self.windowLevel = decoded
        case "windowTitle":
            guard let decoded = value.stringValue else { return false }
            self.windowTitle = decoded
        case "layoutDirection":
            guard let decoded = value.stringValue else { return false }
            self.layoutDirection = decoded
        case "semanticContentAttribute":
            guard let decoded = value.stringValue else { return false }
            self.semanticContentAttribute = decoded
        case "canBecomeFocused":
            guard let decoded = value.boolValue else { return false }
            self.canBecomeFocused = decoded
        case "focusGroupIdentifier":
            guard let decoded = value.stringValue else { return false }
            self.focusGroupIdentifier = decoded
        case "focusGroupPriority":
            guard let decoded = FocusGroupPriority(json: value) else { return false }
            self.focusGroupPriority = decoded
        case "focusGuides":
            guard let decoded = FocusGuideDescription.list(value) else { return false }
            self.focusGuides = decoded
        case "isTransparentFocusItem":
            guard let decoded = value.boolValue else { return false }
            self.isTransparentFocusItem = decoded
        case "isFocused":
            guard let decoded = value.boolValue else { return false }
            self.isFocused = decoded
        case "preferredFocusEnvironments":
            guard let decoded = value.stringList else { return false }
            self.preferredFocusEnvironments = decoded
        case "focusUpdateRequests":
            guard let decoded = value.boolValue else { return false }
            self.focusUpdateRequests = decoded
        case "restrictionIdentifiers":
            guard let decoded = value.stringList else { return false }
            self.restrictionIdentifiers = decoded
        case "guidedAccessRestrictionIdentifiers":
            guard let decoded = value.stringList else { return false }
            self.guidedAccessRestrictionIdentifiers = decoded
        case "fontSize":
            guard let decoded = value.finiteNumber else { return false }
            self.fontSize = decoded
        case "textColor":
            guard let decoded = value.stringValue else { return false }
            self.textColor = decoded
        case "backgroundColor":
            guard let decoded = value.stringValue else { return false }
            self.backgroundColor = decoded
        case "children":
            guard let list = value.arrayValue else { return false }
            var views: [ViewDescription] = []
            for item in list {
                guard let child = ViewDescription(json: item) else { return false }
                views.append(child)
            }
            children = views
        default: return false
        }
        return true
    }

    /// The JSON form (`windows[]` items and `children[]` of `hierarchy.set`).
    public var json: JSON {
        var object: JSONObject = ["id": .string(id)]
        if let viewClass {
            object["class"] = .string(viewClass)
        }
        if let baseClass {
            object["baseClass"] = .string(baseClass)
        }
        if let frame {
            object["frame"] = frame.json
        }
        if let bounds {
            object["bounds"] = bounds.json
        }
        if let boundsOrigin {
            object["boundsOrigin"] = boundsOrigin.json
        }
        if let contentOffset {
            object["contentOffset"] = contentOffset.json
        }
        if let transform {
            object["transform"] = transform.json
        }
        if let isHidden {
            object["isHidden"] = .bool(isHidden)
        }
        if let alpha {
            object["alpha"] = .number(alpha)
        }
        if let clipsToBounds {
            object["clipsToBounds"] = .bool(clipsToBounds)
        }
        if let isUserInteractionEnabled {
            object["isUserInteractionEnabled"] = .bool(isUserInteractionEnabled)
        }
        if let tag {
            object["tag"] = JSON(tag)
        }
        if let isEnabled {
            object["isEnabled"] = .bool(isEnabled)
        }
        if let isSelected {
            object["isSelected"] = .bool(isSelected)
        }
        if let isHighlighted {
            object["isHighlighted"] = .bool(isHighlighted)
        }
        if let isOn {
            object["isOn"] = .bool(isOn)
        }
        if let value {
            object["value"] = .number(value)
        }
        if let minimumValue {
            object["minimumValue"] = .number(minimumValue)
        }
        if let maximumValue {
            object["maximumValue"] = .number(maximumValue)
        }
        if let stepValue {
            object["stepValue"] = .number(stepValue)
        }
        if let text {
            object["text"] = .string(text)
        }
        if let title {
            object["title"] = .string(title)
        }
        if let placeholder {
            object["placeholder"] = .string(placeholder)
        }
        if let isSecureTextEntry {
            object["isSecureTextEntry"] = .bool(isSecureTextEntry)
        }
        if let isEditable {
            object["isEditable"] = .bool(isEditable)
        }
        if let currentPage {
            object["currentPage"] = JSON(currentPage)
        }
        if let numberOfPages {
            object["numberOfPages"] = JSON(numberOfPages)
        }
        if let selectedSegmentIndex {
            object["selectedSegmentIndex"] = JSON(selectedSegmentIndex)
        }
        if let segmentTitles {
            object["segmentTitles"] = JSON(segmentTitles)
        }
        if let progress {
            object["progress"] = .number(progress)
        }
        if let isAnimating {
            object["isAnimating"] = .bool(isAnimating)
        }
        if let accessoryType {
            object["accessoryType"] = .string(accessoryType)
        }
        if let backButtonTitle {
            object["backButtonTitle"] = .string(backButtonTitle)
        }
        if let message {
            object["message"] = .string(message)
        }
        if let preferredStyle {
            object["preferredStyle"] = .string(preferredStyle.rawValue)
        }
        if let components {
            object["components"] = .array(components.map(\.json))
        }
        if let dateText {
            object["dateText"] = .string(dateText)
        }
        if let isKeyWindow {
            object["isKeyWindow"] = .bool(isKeyWindow)
        }
        if let windowLevel {
            object["windowLevel"] = .number(windowLevel)
        }
        if let windowTitle {
            object["windowTitle"] = .string(windowTitle)
        }
        if let layoutDirection {
            object["layoutDirection"] = .string(layoutDirection)
        }
        if let semanticContentAttribute {
            object["semanticContentAttribute"] = .string(semanticContentAttribute)
        }
        if let canBecomeFocused {
            object["canBecomeFocused"] = .bool(canBecomeFocused)
        }
        if let focusGroupIdentifier {
            object["focusGroupIdentifier"] = .string(focusGroupIdentifier)
        }
        if let focusGroupPriority {
            object["focusGroupPriority"] = focusGroupPriority.json
        }
        if let focusGuides {
            object["focusGuides"] = .array(focusGuides.map(\.json))
        }
        if let isTransparentFocusItem {
            object["isTransparentFocusItem"] = .bool(isTransparentFocusItem)
        }
        if let isFocused {
            object["isFocused"] = .bool(isFocused)
        }
        if let preferredFocusEnvironments {
            object["preferredFocusEnvironments"] = JSON(preferredFocusEnvironments)
        }
        if let focusUpdateRequests {
            object["focusUpdateRequests"] = .bool(focusUpdateRequests)
        }
        if let restrictionIdentifiers {
            object["restrictionIdentifiers"] = JSON(restrictionIdentifiers)
        }
        if let guidedAccessRestrictionIdentifiers {
            object["guidedAccessRestrictionIdentifiers"] = JSON(guidedAccessRestrictionIdentifiers)
        }
        if let fontSize {
            object["fontSize"] = .number(fontSize)
        }
        if let textColor {
            object["textColor"] = .string(textColor)
        }
        if let backgroundColor {
            object["backgroundColor"] = .string(backgroundColor)
        }
        accessibility.write(into: &object)
        if !children.isEmpty { object["children"] = .array(children.map(\.json)) }
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }
}

/// A virtual accessibility element (`$defs/virtualElement`): an element with no view of its own, listed in a
/// view's `accessibilityElements`.
public struct VirtualElementDescription: Sendable, Equatable {
    /// `id`: unique in the app.
    public var id: String
    /// `accessibilityFrameInContainerSpace`
    public var accessibilityFrameInContainerSpace: ViewRect?
    /// `frame`
    public var frame: ViewRect?
    /// The UIAccessibility properties.
    public var accessibility: AccessibilityProperties
    /// Properties sent as given (see `ViewDescription.extra`).
    public var extra: JSONObject

    /// A virtual element with an id and accessibility properties.
    public init(id: String, accessibility: AccessibilityProperties = AccessibilityProperties()) {
        self.id = id
        self.accessibility = accessibility
        self.extra = JSONObject()
    }

    /// The names of the properties this type models besides `AccessibilityProperties.propertyNames`.
    public static let propertyNames: [String] = ["id", "accessibilityFrameInContainerSpace", "frame"]

    /// Reads a virtual element in the JSON form; nil when `json` is not an object with a string `id`.
    public init?(json: JSON) {
        guard let object = json.objectValue, let id = object["id"]?.stringValue else { return nil }
        self.init(id: id)
        for (key, value) in object where key != "id" {
            if !read(key, value) && !accessibility.read(key, value) {
                extra[key] = value
            }
        }
    }

    private mutating func read(_ key: String, _ value: JSON) -> Bool {
        switch key {
        case "accessibilityFrameInContainerSpace":
            guard let decoded = ViewRect(json: value) else { return false }
            self.accessibilityFrameInContainerSpace = decoded
        case "frame":
            guard let decoded = ViewRect(json: value) else { return false }
            self.frame = decoded
        default: return false
        }
        return true
    }

    /// The JSON form (an item of a view's `accessibilityElements`).
    public var json: JSON {
        var object: JSONObject = ["id": .string(id)]
        if let accessibilityFrameInContainerSpace {
            object["accessibilityFrameInContainerSpace"] = accessibilityFrameInContainerSpace.json
        }
        if let frame {
            object["frame"] = frame.json
        }
        accessibility.write(into: &object)
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }
}
