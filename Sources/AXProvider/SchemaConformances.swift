// The typed values of the provider library's model, bound to their schema forms (AXSchema's `SchemaCodec.value`).
import AXJSON
import AXSchema

extension ViewRect: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .rect }
}

extension ViewPoint: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .point }
}

extension ViewRange: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .range }
}

extension ViewTransform: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .object }
}

extension DataTableDescription: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .object }
}

extension FocusGroupPriority: SchemaRepresentable {
    package static var schemaForm: SchemaForm { .choice }
}

extension CustomActionDescription: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [CustomActionDescription]? { list(value) }
}

extension CustomRotorDescription: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [CustomRotorDescription]? { list(value) }
}

extension AccessibilityElementItem: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [AccessibilityElementItem]? { list(value) }
}

extension PickerComponentDescription: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [PickerComponentDescription]? { list(value) }
}

extension FocusGuideDescription: SchemaListItem {
    package static func schemaList(_ value: JSON) -> [FocusGuideDescription]? { list(value) }
}
