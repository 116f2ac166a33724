import AXCore
import AXJSON
import AXQuery

/// Hand-built hierarchies for the selector tests. Frames are laid out top to bottom in array order, so the
/// reading order (and document order) equals the order written here.
enum Fixtures {
    static func view(
        _ id: String, _ cls: String, _ frame: [Double], _ props: [String: JSON] = [:], _ children: [JSON] = []
    ) -> JSON {
        var object = JSONObject()
        object["id"] = .string(id)
        object["class"] = .string(cls)
        object["frame"] = .array(frame.map { .number($0) })
        for k in props.keys.sorted() { object[k] = props[k]! }
        if !children.isEmpty { object["children"] = .array(children) }
        return .object(object)
    }

    /// A sign-in screen (window `w`) plus a banner window (`banner`, in front) that covers y 0…100.
    ///
    /// Document order of the derived tree:
    ///   w, nav, back, form, hdr, lblUser, user, lblPass, pass, remember, submit, cancel,
    ///   results, c0, c1, c2, c3, volume, footer, help, banner, dismiss
    static func login() -> JSON {
        let nav = view(
            "nav", "UINavigationBar", [0, 47, 390, 44], ["accessibilityIdentifier": "nav"],
            [
                view("back", "UIButton", [8, 7, 60, 30], ["title": "Back", "accessibilityIdentifier": "nav.back"])
            ])
        let form = view(
            "form", "UIView", [0, 100, 390, 300],
            ["shouldGroupAccessibilityChildren": true, "accessibilityIdentifier": "form"],
            [
                view(
                    "hdr", "UILabel", [16, 0, 300, 30],
                    ["text": "Account", "accessibilityTraits": ["header"], "accessibilityHeadingLevel": 1]),
                view("lblUser", "UILabel", [16, 40, 100, 30], ["text": "Username"]),
                view(
                    "user", "UITextField", [130, 40, 240, 30],
                    [
                        "placeholder": "Email", "accessibilityLabel": "Username",
                        "accessibilityIdentifier": "login.user",
                    ]),
                view("lblPass", "UILabel", [16, 80, 100, 30], ["text": "Password"]),
                view(
                    "pass", "UITextField", [130, 80, 240, 30],
                    [
                        "isSecureTextEntry": true, "accessibilityLabel": "Password",
                        "accessibilityIdentifier": "login.password",
                    ]),
                view(
                    "remember", "UISwitch", [16, 120, 51, 31],
                    ["isOn": true, "accessibilityLabel": "Remember me", "accessibilityIdentifier": "remember"]),
                view(
                    "submit", "UIButton", [16, 170, 170, 44], ["title": "Submit", "accessibilityIdentifier": "submit"]),
                view(
                    "cancel", "UIButton", [204, 170, 170, 44],
                    ["title": "Cancel", "accessibilityIdentifier": "cancel", "isEnabled": false]),
            ])
        let results = view(
            "results", "UITableView", [0, 420, 390, 300], ["accessibilityIdentifier": "results"],
            [
                view(
                    "c0", "UITableViewCell", [0, 0, 390, 44], [:],
                    [view("c0l", "UILabel", [16, 11, 200, 22], ["text": "Alpha"])]),
                view(
                    "c1", "UITableViewCell", [0, 44, 390, 44],
                    ["accessibilityCustomActions": [["id": "del", "name": "Delete"]]],
                    [view("c1l", "UILabel", [16, 11, 200, 22], ["text": "Beta"])]),
                view(
                    "c2", "UITableViewCell", [0, 88, 390, 44], ["accessibilityIdentifier": "cell.gamma"],
                    [view("c2l", "UILabel", [16, 11, 200, 22], ["text": "Gamma"])]),
                view(
                    "c3", "UITableViewCell", [0, 1000, 390, 44], [:],
                    [view("c3l", "UILabel", [16, 11, 200, 22], ["text": "Alpha Two"])]),
            ])
        let volume = view(
            "volume", "UISlider", [16, 730, 200, 20],
            [
                "value": 0.25, "minimumValue": 0, "maximumValue": 1,
                "accessibilityLabel": "Volume", "accessibilityIdentifier": "volume",
            ])
        let footer = view(
            "footer", "UILabel", [16, 760, 358, 30],
            [
                "text": "  Version 1.0\n   beta ", "accessibilityIdentifier": "footer",
                "accessibilityLanguage": "en-GB",
            ])
        let help = view(
            "help", "UIButton", [300, 800, 80, 30],
            ["title": "Help", "accessibilityTraits": ["link"], "accessibilityIdentifier": "help"])
        let otherView = view(
            "w", "UIWindow", [0, 0, 390, 844], ["isKeyWindow": true], [nav, form, results, volume, footer, help])
        let banner = view(
            "banner", "UIWindow", [0, 0, 390, 100], ["windowLevel": 1],
            [
                view(
                    "dismiss", "UIButton", [300, 50, 80, 40], ["title": "Dismiss", "accessibilityIdentifier": "submit"])
            ])
        return ["windows": [otherView, banner]]
    }

    static func store(_ json: JSON) throws -> HierarchyStore {
        let otherStore = HierarchyStore()
        _ = try otherStore.setSnapshot(json)
        return otherStore
    }
}
