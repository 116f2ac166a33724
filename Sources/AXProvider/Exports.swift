// The provider library re-exports the schema module (issue 20 item 1): an app that imports AXProvider names the schema
// table (`HierarchySchema`), the action vocabulary (`ActionName`, `ScrollDirection`), the trait names and the wire
// forms of geometry without importing AXSchema itself. `@_exported` is the form Swift 6 supports for this (the
// swift-nio and swift-collections umbrella modules use it the same way).
@_exported import AXSchema
