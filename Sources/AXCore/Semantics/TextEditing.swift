import AXSchema

// The text-editing model is declared once, in AXSchema (TextEditingRules.swift; D-KEYOP-5, D-TEXT-APP-5): the server
// edits with it on an app's behalf, the provider libraries give apps the same model.

/// A caret movement in a text element (D-KEYOP-5).
package typealias TextMotion = AXSchema.TextMotion
/// One editing key, read from a key and its modifiers (D-KEYOP-5).
package typealias TextEditCommand = AXSchema.TextEditCommand
/// A text element's text with its caret and selection, in Unicode scalars.
package typealias TextEditState = AXSchema.TextEditState
/// The editing rules (AXSchema).
package typealias TextEditing = AXSchema.TextEditing

extension AXSchema.TextEditing {
    /// The editing command of a key symbol with its modifiers (its text from the keysym table, D-KEY-7), or nil when
    /// a text element does not use the key.
    package static func command(for symbol: KeySymbol, modifiers: Set<KeyModifier>, multiLine: Bool)
        -> TextEditCommand?
    {
        command(
            key: symbol.name, text: Keysyms.text(of: symbol, modifiers: modifiers),
            control: modifiers.contains(.control), shift: modifiers.contains(.shift),
            altOrSuper: modifiers.contains(.alt) || modifiers.contains(.super), multiLine: multiLine)
    }
}
