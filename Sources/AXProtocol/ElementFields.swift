// The members of an element object, declared once (Specs/protocol.md §Common shapes, element; D-CATALOG-6).
import AXJSON

/// The members of an element object: what `element.get` and `query.one` answer, and each item of `query.find`'s
/// `elements`. Absent values are omitted. The conformance runner holds every element answer to these members and
/// kinds, and the clients read elements by them.
public enum RPCElementField: String, RPCResultKey {
    /// `id` (string): The element's id.
    case id
    /// `role` (string): Its role (Specs/protocol.md §Roles).
    case role
    /// `class` (string): The class of the view behind it.
    case `class`
    /// `label` (string): `accessibilityLabel`.
    case label
    /// `value` (string): `accessibilityValue`.
    case value
    /// `hint` (string): `accessibilityHint`.
    case hint
    /// `identifier` (string): `accessibilityIdentifier`.
    case identifier
    /// `placeholder` (string): A text field's placeholder.
    case placeholder
    /// `traits` (array): Its trait names.
    case traits
    /// `states` (array): Its state names (`focused` included when it has focus).
    case states
    /// `isElement` (boolean): Whether it is an element (a navigation stop) rather than a container.
    case isElement
    /// `frame` (object): Its frame in screen coordinates (`{x, y, width, height}`).
    case frame
    /// `activationPoint` (object): Where a tap activates it (`{x, y}`).
    case activationPoint
    /// `parent` (string): Its parent's id.
    case parent
    /// `window` (string): Its window's id.
    case window
    /// `children` (array): Its children's ids.
    case children
    /// `language` (string): `accessibilityLanguage`.
    case language
    /// `headingLevel` (integer): A heading's level.
    case headingLevel
    /// `actions` (array): The standard actions it takes.
    case actions
    /// `customActions` (array): Its custom actions (`{id, name, category, image?}`).
    case customActions
    /// `rotors` (array): Its custom rotors.
    case rotors
    /// `actionTarget` (string): The view that performs its actions when not itself.
    case actionTarget
    /// `numericValue` (object): An adjustable element's numeric value (`{current, minimum, maximum, step}`).
    case numericValue
    /// `table` (object): A table's or collection's size and headers.
    case table
    /// `cell` (object): A cell's row and column.
    case cell
    /// `position` (object): Its position in its set (`{index, count}`).
    case position
    /// `containerType` (string): `accessibilityContainerType`.
    case containerType
    /// `navigationStyle` (string): `accessibilityNavigationStyle`.
    case navigationStyle
    /// `canBecomeFocused` (boolean): Whether the focus engine can focus it.
    case canBecomeFocused
    /// `focusGroupIdentifier` (string): Its focus group.
    case focusGroupIdentifier
    /// `directTouchOptions` (array): `accessibilityDirectTouchOptions`.
    case directTouchOptions
    /// `dragSources` (array): Its drag sources (`accessibilityDragSourceDescriptors`).
    case dragSources
    /// `dropPoints` (array): Its drop points (`accessibilityDropPointDescriptors`).
    case dropPoints
    /// `userInputLabels` (array): `accessibilityUserInputLabels`.
    case userInputLabels
    /// `largeContent` (object): The large content viewer's title and image.
    case largeContent
    /// `ignoresInvertColors` (boolean): `accessibilityIgnoresInvertColors`.
    case ignoresInvertColors
    /// `restrictions` (array): The guided-access restrictions it sits under.
    case restrictions
    /// `automationElements` (array): `automationElements` ids (D-AUTO-1).
    case automationElements
    /// `virtual` (boolean): Whether the app, not a view, provides it.
    case virtual
    /// `text` (string): A text element's whole text.
    case text
    /// `selectedTextRange` (array): The caret or selection (`[start, length]`).
    case selectedTextRange
    /// `textAttributes` (array): Attribute runs of its text.
    case textAttributes
    /// `textualContext` (string): `accessibilityTextualContext`.
    case textualContext
    /// `readingContent` (object): Line-by-line reading content (`UIAccessibilityReadingContent`).
    case readingContent
    /// `hittable` (boolean): `element.get`, `query.one`: whether a tap at its activation point reaches it.
    case hittable
    /// `visible` (boolean): `element.get`, `query.one`: whether it is on screen with a non-empty frame.
    case visible
    /// `focused` (boolean): `element.get`, `query.one`: whether it has accessibility focus.
    case focused
    /// `revision` (integer): `element.get`, `query.one`: the tree's revision the answer shows.
    case revision
    /// `app` (string): `element.get`, `query.one`: the app's id.
    case app
    /// `ancestors` (array): `element.get`, `query.one`: its ancestors' ids.
    case ancestors
    /// `index` (integer): `element.get`, `query.one`: its index among its parent's children.
    case index
    /// `truncated` (object): a `tree.get` node whose children were left out (`{kind: depth|children, omitted}`).
    case truncated
    /// `removed` (boolean): `element.get`: true when the element left the tree (the answer has only `id` besides).
    case removed

    /// The JSON kind of the value.
    public var kind: RPCParamKind {
        switch self {
        case .id, .role, .`class`, .label, .value, .hint, .identifier, .placeholder, .parent, .window, .language,
            .actionTarget, .containerType, .navigationStyle, .focusGroupIdentifier, .text, .textualContext, .app:
            .string
        case .traits, .states, .children, .actions, .customActions, .rotors, .directTouchOptions, .dragSources,
            .dropPoints, .userInputLabels, .restrictions, .automationElements, .selectedTextRange, .textAttributes,
            .ancestors:
            .array
        case .isElement, .canBecomeFocused, .ignoresInvertColors, .virtual, .hittable, .visible, .focused, .removed:
            .boolean
        case .frame, .activationPoint, .numericValue, .table, .cell, .position, .largeContent, .readingContent,
            .truncated:
            .object
        case .headingLevel, .revision, .index: .integer
        }
    }
}
