// The attributes of a run of attributed text declared once (Specs/hierarchy.md §Per view, "text the app owns";
// Specs/decisions.md D-TEXT-APP-3): `attributedText`, `accessibilityAttributedLabel` and
// `accessibilityAttributedValue` are lists of runs `{"range": [location, length], "attributes": {…}}`, and every key an
// `attributes` object may carry is a row here, with its JSON form and the UIKit name it stands for. The provider
// library and the core's decoder read this table; the AT-SPI bridge maps the rows to GTK's attribute names.

/// One attribute a run of text may carry.
public struct TextAttributeProperty: Sendable, Equatable {
    /// The key in a run's `attributes`.
    public let key: String
    /// Its JSON form: `.boolean`, `.string` or `.number`.
    public let form: SchemaForm
    /// The UIKit attribute (`NSAttributedString.Key`, `UIAccessibilitySpeechAttribute…`, a font trait) it mirrors.
    public let uikitName: String

    /// A row: `key` in `form`, mirroring `uikitName`.
    public init(_ key: String, _ form: SchemaForm, _ uikitName: String) {
        self.key = key
        self.form = form
        self.uikitName = uikitName
    }
}

/// The attribute table of attributed text (D-TEXT-APP-3).
public enum TextAttributeSchema {
    /// Every attribute a run may carry, declared once.
    public static let attributes: [TextAttributeProperty] = [
        TextAttributeProperty("bold", .boolean, "UIFontDescriptor.SymbolicTraits.traitBold"),
        TextAttributeProperty("italic", .boolean, "UIFontDescriptor.SymbolicTraits.traitItalic"),
        TextAttributeProperty("underline", .boolean, "NSAttributedString.Key.underlineStyle"),
        TextAttributeProperty("strikethrough", .boolean, "NSAttributedString.Key.strikethroughStyle"),
        TextAttributeProperty("misspelled", .boolean, "UITextChecker misspelled range (UITextInput spell checking)"),
        TextAttributeProperty("language", .string, "UIAccessibilitySpeechAttributeLanguage"),
        TextAttributeProperty("fontSize", .number, "UIFont.pointSize (NSAttributedString.Key.font)"),
        TextAttributeProperty("fontFamily", .string, "UIFont.familyName (NSAttributedString.Key.font)"),
        TextAttributeProperty("foregroundColor", .string, "NSAttributedString.Key.foregroundColor"),
        TextAttributeProperty("backgroundColor", .string, "NSAttributedString.Key.backgroundColor"),
        TextAttributeProperty("spellOut", .boolean, "UIAccessibilitySpeechAttributeSpellOut"),
        TextAttributeProperty("punctuation", .boolean, "UIAccessibilitySpeechAttributePunctuation"),
        TextAttributeProperty("pitch", .number, "UIAccessibilitySpeechAttributePitch"),
    ]

    /// The row of `key`, or nil when a run's attributes have no such key.
    public static func attribute(named key: String) -> TextAttributeProperty? {
        attributesByKey[key]
    }

    private static let attributesByKey: [String: TextAttributeProperty] = Dictionary(
        uniqueKeysWithValues: attributes.map { ($0.key, $0) })
}
