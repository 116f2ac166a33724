import AXCore
import AXDemo
import AXJSON
let store = HierarchyStore()
try store.setSnapshot(DemoApp().snapshot())
print(TreeText.render(store.tree, frames: true))
