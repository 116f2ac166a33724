import AXJSON

/// Small builders for view JSON, so hierarchies read like the UIKit code that would make them.
package enum V {
    package static func view(
        _ id: String, _ className: String, _ frame: [Double], _ props: [String: JSON] = [:], children: [JSON] = []
    ) -> JSON {
        var object = JSONObject(minimumCapacity: props.count + 4)
        object.appendUnchecked("id", .string(id))
        object.appendUnchecked("class", .string(className))
        object.appendUnchecked("frame", .array(frame.map { .number($0) }))
        for key in props.keys.sorted() { object.appendUnchecked(key, props[key]!) }
        if !children.isEmpty { object.appendUnchecked("children", .array(children)) }
        return .object(object)
    }
}

/// The built-in demo app: a settings-style screen (navigation bar with a back button and title, a grouped
/// table with switches and disclosure cells, a slider, a stepper, a segmented control, a text field with a
/// placeholder, a tab bar, an image with and without a label, headers, a live uptime label and a modal alert).
/// State lives here; `snapshot()` renders it as a view hierarchy and `perform` handles actions like an app would.
package struct DemoApp: Sendable {
    package var wifi = true
    package var bluetooth = false
    package var textSize = 0.5
    package var copies = 2.0
    package var appearance = 0
    package var deviceName = ""
    package var selectedTab = 1
    package var alertShown = false
    package var uptime = 0
    package var favorites = false
    package var resets = 0
    package var lastEvent: String?
    /// The About screen (activate the About cell): the focus-engine and rotor playground, in its own key window.
    package var aboutShown = false
    package var aboutScrollOffset = 0.0

    package init() {}

    package static let appName = "axserver-demo"

    package func snapshot() -> JSON {
        let screenWidth = 390.0
        var tableChildren: [JSON] = [
            V.view(
                "hdrConnectivity", "UILabel", [16, 0, 300, 30],
                ["text": "Connectivity", "accessibilityTraits": ["header"], "accessibilityHeadingLevel": 2]),
            V.view(
                "cellWifi", "UITableViewCell", [0, 30, screenWidth, 44], ["accessibilityIdentifier": "cell.wifi"],
                children: [
                    V.view("lblWifi", "UILabel", [16, 11, 200, 22], ["text": "Wi-Fi"]),
                    V.view(
                        "wifiSwitch", "UISwitch", [screenWidth - 67, 6, 51, 31],
                        [
                            "isOn": .bool(wifi), "accessibilityIdentifier": "wifiSwitch",
                            "restrictionIdentifiers": ["org.axserver.demo.wifi"],
                        ]),
                ]),
            V.view(
                "cellBluetooth", "UITableViewCell", [0, 74, screenWidth, 44],
                ["accessibilityIdentifier": "cell.bluetooth"],
                children: [
                    V.view("lblBluetooth", "UILabel", [16, 11, 200, 22], ["text": "Bluetooth"]),
                    V.view(
                        "btSwitch", "UISwitch", [screenWidth - 67, 6, 51, 31],
                        ["isOn": .bool(bluetooth), "accessibilityIdentifier": "bluetoothSwitch"]),
                ]),
            V.view(
                "cellDisplay", "UITableViewCell", [0, 118, screenWidth, 44],
                [
                    "accessoryType": "disclosureIndicator", "accessibilityIdentifier": "cell.display",
                    "accessibilityCustomActions": [
                        ["id": "favorite", "name": favorites ? "Remove from Favorites" : "Add to Favorites"]
                    ],
                ],
                children: [
                    V.view("lblDisplay", "UILabel", [16, 11, 250, 22], ["text": "Display & Brightness"])
                ]),
            V.view(
                "cellAbout", "UITableViewCell", [0, 162, screenWidth, 44],
                ["accessoryType": "disclosureIndicator", "accessibilityIdentifier": "cell.about"],
                children: [
                    V.view("lblAbout", "UILabel", [16, 11, 150, 22], ["text": "About"]),
                    V.view("lblAboutDetail", "UILabel", [screenWidth - 150, 11, 120, 22], ["text": "AXServer"]),
                ]),
        ]
        tableChildren.append(
            V.view(
                "hdrFooter", "UILabel", [16, 210, 358, 30],
                ["text": "Toggles apply immediately.", "accessibilityIdentifier": "footer"]))

        var content: [JSON] = [
            V.view(
                "navBar", "UINavigationBar", [0, 47, screenWidth, 44],
                ["title": "Accessibility", "backButtonTitle": "General", "accessibilityIdentifier": "navBar"],
                children: [
                    V.view(
                        "editButton", "UIButton", [screenWidth - 70, 7, 60, 30],
                        ["title": "Edit", "accessibilityIdentifier": "edit"])
                ]),
            V.view(
                "table", "UITableView", [0, 91, screenWidth, 250],
                [
                    "accessibilityIdentifier": "settingsTable",
                    "accessibilityCustomRotors": [["name": "Toggles", "items": ["cellWifi", "cellBluetooth"]]],
                ], children: tableChildren),
            V.view(
                "prefs", "UIView", [0, 345, screenWidth, 416], [:],
                children: [
                    V.view(
                        "hdrPrefs", "UILabel", [16, 0, 300, 30],
                        ["text": "Preferences", "accessibilityTraits": ["header"], "accessibilityHeadingLevel": 2]),
                    V.view(
                        "lblTextSize", "UILabel", [16, 40, 100, 30],
                        ["text": "Text Size", "isAccessibilityElement": false]),
                    V.view(
                        "textSize", "UISlider", [130, 40, 240, 30],
                        [
                            "value": .number(textSize), "minimumValue": 0, "maximumValue": 1,
                            "accessibilityLabel": "Text Size", "accessibilityIdentifier": "textSize",
                        ]),
                    V.view(
                        "lblCopies", "UILabel", [16, 85, 100, 30], ["text": "Copies", "isAccessibilityElement": false]),
                    V.view(
                        "copies", "UIStepper", [276, 85, 94, 32],
                        [
                            "value": .number(copies), "minimumValue": 1, "maximumValue": 10, "stepValue": 1,
                            "accessibilityLabel": "Copies", "accessibilityIdentifier": "copies",
                        ]),
                    V.view(
                        "appearance", "UISegmentedControl", [16, 130, 358, 32],
                        [
                            "segmentTitles": ["Light", "Dark", "Automatic"],
                            "selectedSegmentIndex": .number(Double(appearance)), "accessibilityLabel": "Appearance",
                            "accessibilityIdentifier": "appearance",
                        ]),
                    V.view(
                        "nameField", "UITextField", [16, 175, 358, 34],
                        [
                            "placeholder": "Device Name", "text": .string(deviceName),
                            "accessibilityIdentifier": "deviceName",
                        ]),
                    V.view(
                        "photo", "UIImageView", [16, 222, 44, 44],
                        ["accessibilityLabel": "Profile photo", "accessibilityIdentifier": "photo"]),
                    V.view("decoration", "UIImageView", [70, 222, 44, 44], ["accessibilityIdentifier": "decoration"]),
                    V.view(
                        "uptime", "UILabel", [124, 232, 246, 24],
                        [
                            "text": .string("Uptime \(uptime) s"), "accessibilityIdentifier": "uptime",
                            "accessibilityTraits": ["staticText", "updatesFrequently"],
                        ]),
                    V.view(
                        "showAlert", "UIButton", [16, 280, 170, 44],
                        [
                            "title": "Reset All Settings", "accessibilityIdentifier": "showAlert",
                            "accessibilityHint": "Asks before resetting",
                            "restrictionIdentifiers": ["org.axserver.demo.reset"],
                        ]),
                    V.view(
                        "help", "UIButton", [204, 280, 170, 44],
                        ["title": "Help", "accessibilityTraits": ["link"], "accessibilityIdentifier": "help"]),
                ]),
            V.view(
                "tabBar", "UITabBar", [0, 761, screenWidth, 83], ["accessibilityIdentifier": "tabBar"],
                children: [
                    V.view(
                        "tabHome", "UITabBarButton", [0, 0, 130, 49],
                        ["title": "Home", "isSelected": .bool(selectedTab == 0)]),
                    V.view(
                        "tabSettings", "UITabBarButton", [130, 0, 130, 49],
                        ["title": "Settings", "isSelected": .bool(selectedTab == 1)]),
                    V.view(
                        "tabProfile", "UITabBarButton", [260, 0, 130, 49],
                        [
                            "title": "Profile", "isSelected": .bool(selectedTab == 2),
                            "restrictionIdentifiers": ["org.axserver.demo.profile"],
                        ]),
                ]),
        ]
        if alertShown {
            content.append(
                V.view(
                    "alert", "UIAlertController", [45, 330, 300, 180],
                    [
                        "title": "Reset All Settings?", "message": "This cannot be undone.", "preferredStyle": "alert",
                        "accessibilityIdentifier": "alert",
                    ],
                    children: [
                        V.view(
                            "alertCancel", "UIButton", [0, 136, 150, 44],
                            ["title": "Cancel", "accessibilityIdentifier": "alert.cancel"]),
                        V.view(
                            "alertReset", "UIButton", [150, 136, 150, 44],
                            ["title": "Reset", "accessibilityIdentifier": "alert.reset"]),
                    ]))
        }
        let window = V.view(
            "mainWindow", "UIWindow", [0, 0, screenWidth, 844], ["isKeyWindow": true, "windowTitle": "Settings"],
            children: content)
        var windows = [window]
        if aboutShown { windows.append(aboutWindow(width: screenWidth)) }
        return [
            "windows": .array(windows),
            "guidedAccessRestrictions": [
                [
                    "id": "org.axserver.demo.reset", "text": "Reset settings",
                    "detailText": "Blocks the Reset All Settings button and its alert.",
                ],
                [
                    "id": "org.axserver.demo.wifi", "text": "Wi-Fi switch",
                    "detailText": "Blocks turning Wi-Fi on or off, from the switch or its cell.",
                ],
                [
                    "id": "org.axserver.demo.profile", "text": "Profile tab",
                    "detailText": "Blocks switching to the Profile tab.",
                ],
            ],
        ]
    }

    /// The name field's length limit in UTF-8 bytes: the schema's limit on a string property (64 KiB,
    /// Specs/hierarchy.md §Limits), so the field never holds text the server would refuse.
    package static let nameFieldMaxBytes = 65_536

    /// Why the app turns an action down with an error rather than performing it, or nil. Like a UITextField whose
    /// delegate caps its length (`shouldChangeCharactersIn` answering false), the name field rejects a
    /// `setValue` or `typeText` that would make its text longer than `nameFieldMaxBytes`, whole: the text stays
    /// as it was, and the app says so instead of dropping the text silently.
    package func rejection(action: String, target: String, value: JSON?) -> (reason: String, message: String)? {
        guard target == "nameField", let text = value?.stringValue else { return nil }
        let resulting: Int
        switch action {
        case "setValue": resulting = text.utf8.count
        case "typeText": resulting = deviceName.utf8.count + text.utf8.count
        default: return nil
        }
        guard resulting > Self.nameFieldMaxBytes else { return nil }
        return (
            "maxLength",
            "the Device Name field holds at most \(Self.nameFieldMaxBytes) bytes of text; this would make it \(resulting) bytes (it has \(deviceName.utf8.count)); the text was not changed"
        )
    }

    /// The About screen: headings at two levels, a focus group of tiles navigable by arrows with a focus guide
    /// (Apple's four-button layout: down from tile 2 or 3 reaches tile 4), a "Warnings" custom rotor, and a
    /// scroll view whose last items are below the fold (Specs/protocol.md §Focus engine, §Rotors).
    func aboutWindow(width screenWidth: Double) -> JSON {
        func tile(_ number: Int, _ originX: Double, _ originY: Double) -> JSON {
            V.view(
                "tile\(number)", "UIButton", [originX, originY, 110, 60],
                ["title": .string("Tile \(number)"), "accessibilityIdentifier": .string("tile\(number)")])
        }
        let tiles = V.view(
            "tiles", "UIView", [0, 150, screenWidth, 140],
            [
                "focusGroupIdentifier": "tiles", "accessibilityIdentifier": "tiles",
                // Tile 4 sits under tile 1 only: the guide under tiles 2 and 3 leads down to it.
                "focusGuides": [
                    ["id": "tilesGuide", "frame": [135, 75, 245, 60], "preferredFocusEnvironments": ["tile4"]]
                ],
            ], children: [tile(1, 15, 0), tile(2, 140, 0), tile(3, 265, 0), tile(4, 15, 75)])
        let warnings = V.view(
            "warnings", "UIView", [0, 300, screenWidth, 120],
            [
                "accessibilityCustomRotors": [["name": "Warnings", "items": ["warnDisk", "warnBattery"]]],
                "accessibilityContainerType": "semanticGroup", "accessibilityLabel": "Status",
                "accessibilityIdentifier": "warnings",
            ],
            children: [
                V.view(
                    "hdrStatus", "UILabel", [16, 0, 300, 30],
                    ["text": "Status", "accessibilityTraits": ["header"], "accessibilityHeadingLevel": 2]),
                V.view(
                    "warnDisk", "UILabel", [16, 30, 358, 24],
                    ["text": "Warning: disk almost full", "accessibilityIdentifier": "warnDisk"]),
                V.view(
                    "okNetwork", "UILabel", [16, 56, 358, 24],
                    ["text": "Network OK", "accessibilityIdentifier": "okNetwork"]),
                V.view(
                    "warnBattery", "UILabel", [16, 82, 358, 24],
                    ["text": "Warning: battery low", "accessibilityIdentifier": "warnBattery"]),
            ])
        let items = (1...6).map { number in
            V.view(
                "item\(number)", "UIButton", [16, Double(number - 1) * 60, 358, 50],
                ["title": .string("Item \(number)"), "accessibilityIdentifier": .string("item\(number)")])
        }
        let scroll = V.view(
            "aboutScroll", "UIScrollView", [0, 470, screenWidth, 200],
            [
                "contentOffset": [0, .number(aboutScrollOffset)], "accessibilityIdentifier": "aboutScroll",
            ],
            children: [
                V.view(
                    "hdrItems", "UILabel", [16, -40, 300, 30],
                    [
                        "text": "Items", "accessibilityTraits": ["header"],
                        "accessibilityHeadingLevel": 2,
                    ])
            ] + items)
        return V.view(
            "aboutWindow", "UIWindow", [0, 0, screenWidth, 844],
            ["isKeyWindow": true, "windowLevel": 1, "windowTitle": "About"],
            children: [
                V.view(
                    "hdrAbout", "UILabel", [16, 60, 358, 40],
                    ["text": "About AXServer", "accessibilityTraits": ["header"], "accessibilityHeadingLevel": 1]),
                V.view(
                    "hdrTiles", "UILabel", [16, 110, 300, 30],
                    ["text": "Tiles", "accessibilityTraits": ["header"], "accessibilityHeadingLevel": 2]),
                tiles, warnings, scroll,
                V.view(
                    "aboutDone", "UIButton", [16, 700, 358, 50],
                    ["title": "Done", "accessibilityIdentifier": "aboutDone"]),
            ])
    }

    /// Handles an action routed from the server (activate, increment, …) the way the real controls would.
    /// Returns false when the target does not handle the action (UIKit's `accessibilityActivate` returning false).
    package mutating func perform(action: String, target: String, value: JSON? = nil, customAction: String? = nil)
        -> Bool
    {
        lastEvent = "\(action) \(target)"
        if let handled = performOnControl(action, target, value: value) { return handled }
        if let handled = performOnScreen(action, target, value: value, customAction: customAction) { return handled }
        return performOnRepeated(action, target)
    }

    /// The switches, the text size slider, the copies stepper and the name field; nil for other targets.
    mutating func performOnControl(_ action: String, _ target: String, value: JSON?) -> Bool? {
        switch (action, target) {
        case ("activate", "wifiSwitch"), ("activate", "cellWifi"):
            wifi.toggle()
        case ("activate", "btSwitch"), ("activate", "cellBluetooth"):
            bluetooth.toggle()
        case ("increment", "textSize"):
            textSize = min(1, ((textSize + 0.1) * 10).rounded() / 10)
        case ("decrement", "textSize"):
            textSize = max(0, ((textSize - 0.1) * 10).rounded() / 10)
        case ("setValue", "textSize"):
            guard let level = value?.doubleValue else { return false }
            textSize = min(1, max(0, level))
        case ("increment", "copies"):
            copies = min(10, copies + 1)
        case ("decrement", "copies"):
            copies = max(1, copies - 1)
        case ("setValue", "copies"):
            guard let count = value?.doubleValue else { return false }
            copies = min(10, max(1, count.rounded()))
        case ("setValue", "nameField"):
            guard let name = value?.stringValue else { return false }
            deviceName = name
        case ("typeText", "nameField"):
            guard let typed = value?.stringValue else { return false }
            deviceName += typed
        default:
            return nil
        }
        return true
    }

    /// The alert, the tabs, the favourite action, the About window and the controls without state; nil for other
    /// targets.
    mutating func performOnScreen(_ action: String, _ target: String, value: JSON?, customAction: String?) -> Bool? {
        switch (action, target) {
        case ("activate", "showAlert"):
            alertShown = true
        case ("activate", "alertCancel"), ("escape", "alert"):
            alertShown = false
        case ("activate", "alertReset"):
            self = DemoApp(uptime: uptime, resets: resets + 1)
        case ("activate", "tabHome"):
            selectedTab = 0
        case ("activate", "tabSettings"):
            selectedTab = 1
        case ("activate", "tabProfile"):
            selectedTab = 2
        case ("custom", "cellDisplay"):
            guard customAction == "favorite" else { return false }
            favorites.toggle()
        case ("activate", "cellAbout"):
            aboutShown = true
        case ("activate", "aboutDone"), ("escape", "aboutWindow"):
            aboutShown = false
            aboutScrollOffset = 0
        case ("scrollToVisible", "aboutScroll"):
            return scrollAbout(to: value)
        case ("activate", "cellDisplay"), ("activate", "editButton"), ("activate", "help"),
            ("activate", "navBar#back"):
            break
        default:
            return nil
        }
        return true
    }

    /// The focus engine asks to show an item below the fold (C25): apply the content offset it computed.
    mutating func scrollAbout(to value: JSON?) -> Bool {
        guard let offset = value?["contentOffset"]?.arrayValue, offset.count == 2,
            let offsetY = offset[1].doubleValue,
            offsetY.isFinite
        else { return false }
        aboutScrollOffset = min(max(0, offsetY), 200)
        return true
    }

    /// The appearance choices, the grid's tiles and items, and escape on any target while the alert shows.
    mutating func performOnRepeated(_ action: String, _ target: String) -> Bool {
        if action == "activate", target.hasPrefix("appearance#"),
            let choice = Int(target.dropFirst("appearance#".count)), (0..<3).contains(choice)
        {
            appearance = choice
            return true
        }
        if action == "activate", target.hasPrefix("tile") || target.hasPrefix("item") { return true }
        if action == "escape" && alertShown {
            alertShown = false
            return true
        }
        return false
    }

    private init(uptime: Int, resets: Int) {
        self.init()
        self.uptime = uptime
        self.resets = resets
    }
}
