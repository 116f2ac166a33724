/// The W3C WebDriver endpoint table (WebDriver §6.5, "Endpoints") plus Appium's `GET /sessions`, and what
/// axdriver does with each: `WebDriverCommand` names the command; `WebDriverRoute.match` finds it for a request.
package enum WebDriverCommand: String, Sendable, CaseIterable {
    case newSession = "New Session"
    case deleteSession = "Delete Session"
    case status = "Status"
    case listSessions = "Get Sessions"
    case getTimeouts = "Get Timeouts"
    case setTimeouts = "Set Timeouts"
    case navigateTo = "Navigate To"
    case getCurrentURL = "Get Current URL"
    case back = "Back"
    case forward = "Forward"
    case refresh = "Refresh"
    case getTitle = "Get Title"
    case getWindowHandle = "Get Window Handle"
    case closeWindow = "Close Window"
    case switchToWindow = "Switch To Window"
    case getWindowHandles = "Get Window Handles"
    case newWindow = "New Window"
    case switchToFrame = "Switch To Frame"
    case switchToParentFrame = "Switch To Parent Frame"
    case getWindowRect = "Get Window Rect"
    case setWindowRect = "Set Window Rect"
    case maximizeWindow = "Maximize Window"
    case minimizeWindow = "Minimize Window"
    case fullscreenWindow = "Fullscreen Window"
    case getActiveElement = "Get Active Element"
    case getElementShadowRoot = "Get Element Shadow Root"
    case findElement = "Find Element"
    case findElements = "Find Elements"
    case findElementFromElement = "Find Element From Element"
    case findElementsFromElement = "Find Elements From Element"
    case isElementSelected = "Is Element Selected"
    case getElementAttribute = "Get Element Attribute"
    case getElementProperty = "Get Element Property"
    case getElementCSSValue = "Get Element CSS Value"
    case getElementText = "Get Element Text"
    case getElementTagName = "Get Element Tag Name"
    case getElementRect = "Get Element Rect"
    case isElementEnabled = "Is Element Enabled"
    case getComputedRole = "Get Computed Role"
    case getComputedLabel = "Get Computed Label"
    case isElementDisplayed = "Is Element Displayed"
    case elementClick = "Element Click"
    case elementClear = "Element Clear"
    case elementSendKeys = "Element Send Keys"
    case getPageSource = "Get Page Source"
    case executeScript = "Execute Script"
    case executeAsyncScript = "Execute Async Script"
    case getAllCookies = "Get All Cookies"
    case performActions = "Perform Actions"
    case releaseActions = "Release Actions"
    case dismissAlert = "Dismiss Alert"
    case acceptAlert = "Accept Alert"
    case getAlertText = "Get Alert Text"
    case sendAlertText = "Send Alert Text"
    case takeScreenshot = "Take Screenshot"
    case takeElementScreenshot = "Take Element Screenshot"
    case printPage = "Print Page"
}

/// Where axdriver answers a command. Every command belongs to exactly one family (`WebDriverCommand.family` is an
/// exhaustive switch), and each family's runner switches exhaustively over its own commands, so a new command does
/// not compile until it has a family and its runner answers it (issue 31 item 3; before, four runners each ended in
/// `default: return nil` and were tried in turn).
package enum WebDriverFamily: Sendable, Equatable {
    /// Answered without a session.
    case server(ServerCommand)
    /// Get Page Source: the server's own XML string handed on as it came.
    case pageSource
    /// The session's own commands.
    case session(SessionCommand)
    /// Title, windows and the focused element.
    case window(WindowCommand)
    /// Finding elements and reading them.
    case elementQuery(ElementQueryCommand)
    /// Click, clear and send keys.
    case elementAction(ElementActionCommand)
    /// The user prompt (alert) commands.
    case alert(AlertCommand)
    /// What an accessibility tree has no counterpart for (URLs, frames, window geometry, printing).
    case unsupported

    /// Commands answered without a session.
    package enum ServerCommand: Sendable, Equatable { case status, newSession, listSessions }
    /// The session's own commands.
    package enum SessionCommand: Sendable, Equatable {
        case deleteSession, getTimeouts, setTimeouts, takeScreenshot, takeElementScreenshot, executeScript
        case executeAsyncScript, performActions, releaseActions, getAllCookies
    }
    /// Title, windows and the focused element.
    package enum WindowCommand: Sendable, Equatable {
        case getTitle, getWindowHandle, getWindowHandles, switchToWindow, getWindowRect, getActiveElement
    }
    /// Finding elements and reading them.
    package enum ElementQueryCommand: Sendable, Equatable {
        case find, attributeOrProperty, cssValue, text, tagName, rect, enabled, selected, displayed
        case computedRole, computedLabel
    }
    /// Click, clear and send keys.
    package enum ElementActionCommand: Sendable, Equatable { case click, clear, sendKeys }
    /// The user prompt commands.
    package enum AlertCommand: Sendable, Equatable { case getText, accept, dismiss, sendText }
}

extension WebDriverCommand {
    /// The family that answers the command.
    package var family: WebDriverFamily {
        switch self {
        case .status: .server(.status)
        case .newSession: .server(.newSession)
        case .listSessions: .server(.listSessions)
        case .getPageSource: .pageSource
        case .deleteSession: .session(.deleteSession)
        case .getTimeouts: .session(.getTimeouts)
        case .setTimeouts: .session(.setTimeouts)
        case .takeScreenshot: .session(.takeScreenshot)
        case .takeElementScreenshot: .session(.takeElementScreenshot)
        case .executeScript: .session(.executeScript)
        case .executeAsyncScript: .session(.executeAsyncScript)
        case .performActions: .session(.performActions)
        case .releaseActions: .session(.releaseActions)
        case .getAllCookies: .session(.getAllCookies)
        case .getTitle: .window(.getTitle)
        case .getWindowHandle: .window(.getWindowHandle)
        case .getWindowHandles: .window(.getWindowHandles)
        case .switchToWindow: .window(.switchToWindow)
        case .getWindowRect: .window(.getWindowRect)
        case .getActiveElement: .window(.getActiveElement)
        case .findElement, .findElements, .findElementFromElement, .findElementsFromElement: .elementQuery(.find)
        case .getElementAttribute, .getElementProperty: .elementQuery(.attributeOrProperty)
        case .getElementCSSValue: .elementQuery(.cssValue)
        case .getElementText: .elementQuery(.text)
        case .getElementTagName: .elementQuery(.tagName)
        case .getElementRect: .elementQuery(.rect)
        case .isElementEnabled: .elementQuery(.enabled)
        case .isElementSelected: .elementQuery(.selected)
        case .isElementDisplayed: .elementQuery(.displayed)
        case .getComputedRole: .elementQuery(.computedRole)
        case .getComputedLabel: .elementQuery(.computedLabel)
        case .elementClick: .elementAction(.click)
        case .elementClear: .elementAction(.clear)
        case .elementSendKeys: .elementAction(.sendKeys)
        case .getAlertText: .alert(.getText)
        case .acceptAlert: .alert(.accept)
        case .dismissAlert: .alert(.dismiss)
        case .sendAlertText: .alert(.sendText)
        case .navigateTo, .getCurrentURL, .back, .forward, .refresh, .closeWindow, .newWindow, .switchToFrame,
            .switchToParentFrame, .setWindowRect, .maximizeWindow, .minimizeWindow, .fullscreenWindow,
            .getElementShadowRoot, .printPage:
            .unsupported
        }
    }
}

/// One endpoint: an HTTP method and a path template (`{sessionId}`, `{elementId}`, `{name}` are variables).
package struct WebDriverRoute: Sendable {
    package var method: String
    package var template: [String]
    package var command: WebDriverCommand

    init(_ method: String, _ path: String, _ command: WebDriverCommand) {
        self.method = method
        template = path.split(separator: "/").map(String.init)
        self.command = command
    }

    /// Every endpoint (W3C order).
    package static let table: [WebDriverRoute] = [
        .init("POST", "/session", .newSession),
        .init("DELETE", "/session/{sessionId}", .deleteSession),
        .init("GET", "/status", .status),
        .init("GET", "/sessions", .listSessions),
        .init("GET", "/session/{sessionId}/timeouts", .getTimeouts),
        .init("POST", "/session/{sessionId}/timeouts", .setTimeouts),
        .init("POST", "/session/{sessionId}/url", .navigateTo),
        .init("GET", "/session/{sessionId}/url", .getCurrentURL),
        .init("POST", "/session/{sessionId}/back", .back),
        .init("POST", "/session/{sessionId}/forward", .forward),
        .init("POST", "/session/{sessionId}/refresh", .refresh),
        .init("GET", "/session/{sessionId}/title", .getTitle),
        .init("GET", "/session/{sessionId}/window", .getWindowHandle),
        .init("DELETE", "/session/{sessionId}/window", .closeWindow),
        .init("POST", "/session/{sessionId}/window", .switchToWindow),
        .init("GET", "/session/{sessionId}/window/handles", .getWindowHandles),
        .init("POST", "/session/{sessionId}/window/new", .newWindow),
        .init("POST", "/session/{sessionId}/frame", .switchToFrame),
        .init("POST", "/session/{sessionId}/frame/parent", .switchToParentFrame),
        .init("GET", "/session/{sessionId}/window/rect", .getWindowRect),
        .init("POST", "/session/{sessionId}/window/rect", .setWindowRect),
        .init("POST", "/session/{sessionId}/window/maximize", .maximizeWindow),
        .init("POST", "/session/{sessionId}/window/minimize", .minimizeWindow),
        .init("POST", "/session/{sessionId}/window/fullscreen", .fullscreenWindow),
        .init("GET", "/session/{sessionId}/element/active", .getActiveElement),
        .init("GET", "/session/{sessionId}/element/{elementId}/shadow", .getElementShadowRoot),
        .init("POST", "/session/{sessionId}/element", .findElement),
        .init("POST", "/session/{sessionId}/elements", .findElements),
        .init("POST", "/session/{sessionId}/element/{elementId}/element", .findElementFromElement),
        .init("POST", "/session/{sessionId}/element/{elementId}/elements", .findElementsFromElement),
        .init("GET", "/session/{sessionId}/element/{elementId}/selected", .isElementSelected),
        .init("GET", "/session/{sessionId}/element/{elementId}/attribute/{name}", .getElementAttribute),
        .init("GET", "/session/{sessionId}/element/{elementId}/property/{name}", .getElementProperty),
        .init("GET", "/session/{sessionId}/element/{elementId}/css/{name}", .getElementCSSValue),
        .init("GET", "/session/{sessionId}/element/{elementId}/text", .getElementText),
        .init("GET", "/session/{sessionId}/element/{elementId}/name", .getElementTagName),
        .init("GET", "/session/{sessionId}/element/{elementId}/rect", .getElementRect),
        .init("GET", "/session/{sessionId}/element/{elementId}/enabled", .isElementEnabled),
        .init("GET", "/session/{sessionId}/element/{elementId}/computedrole", .getComputedRole),
        .init("GET", "/session/{sessionId}/element/{elementId}/computedlabel", .getComputedLabel),
        .init("GET", "/session/{sessionId}/element/{elementId}/displayed", .isElementDisplayed),
        .init("POST", "/session/{sessionId}/element/{elementId}/click", .elementClick),
        .init("POST", "/session/{sessionId}/element/{elementId}/clear", .elementClear),
        .init("POST", "/session/{sessionId}/element/{elementId}/value", .elementSendKeys),
        .init("GET", "/session/{sessionId}/source", .getPageSource),
        .init("POST", "/session/{sessionId}/execute/sync", .executeScript),
        .init("POST", "/session/{sessionId}/execute/async", .executeAsyncScript),
        .init("GET", "/session/{sessionId}/cookie", .getAllCookies),
        .init("POST", "/session/{sessionId}/actions", .performActions),
        .init("DELETE", "/session/{sessionId}/actions", .releaseActions),
        .init("POST", "/session/{sessionId}/alert/dismiss", .dismissAlert),
        .init("POST", "/session/{sessionId}/alert/accept", .acceptAlert),
        .init("GET", "/session/{sessionId}/alert/text", .getAlertText),
        .init("POST", "/session/{sessionId}/alert/text", .sendAlertText),
        .init("GET", "/session/{sessionId}/screenshot", .takeScreenshot),
        .init("GET", "/session/{sessionId}/element/{elementId}/screenshot", .takeElementScreenshot),
        .init("POST", "/session/{sessionId}/print", .printPage),
    ]

    /// A matched request: the command and the path variables (percent-decoded).
    package struct Match: Sendable, Equatable {
        package var command: WebDriverCommand
        package var sessionID: String?
        package var elementID: String?
        package var name: String?

        package init(command: WebDriverCommand, sessionID: String? = nil, elementID: String? = nil, name: String? = nil)
        {
            self.command = command
            self.sessionID = sessionID
            self.elementID = elementID
            self.name = name
        }
    }

    /// The command for `method` and `path` (query string ignored; a trailing slash and a `/wd/hub` prefix, as
    /// Selenium 3 clients send, are accepted). An unknown path is `unknown command`; a known path with another
    /// method is `unknown method`.
    package static func match(method: String, path: String) throws(WebDriverError) -> Match {
        var rawPath = Substring(path)
        if let query = rawPath.firstIndex(where: { $0 == "?" || $0 == "#" }) { rawPath = rawPath[..<query] }
        var segments = rawPath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if segments.count >= 2, segments[0] == "wd", segments[1] == "hub" { segments.removeFirst(2) }
        var pathMatched = false
        for route in table where route.template.count == segments.count {
            var match = Match(command: route.command)
            var matched = true
            for (part, segment) in zip(route.template, segments) {
                switch part {
                case "{sessionId}": match.sessionID = percentDecode(segment)
                case "{elementId}": match.elementID = percentDecode(segment)
                case "{name}": match.name = percentDecode(segment)
                default: matched = part == segment
                }
                if !matched { break }
            }
            guard matched else { continue }
            if route.method == method { return match }
            pathMatched = true
        }
        if pathMatched {
            throw WebDriverError("unknown method", "\(method) is not allowed on \(path)")
        }
        throw WebDriverError("unknown command", "no WebDriver command at \(method) \(path)")
    }

    static func percentDecode(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
