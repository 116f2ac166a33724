// The JSON-RPC methods, declared once (Specs/protocol.md §The catalog, D-CATALOG-1). Each method is a type in
// `RPCCatalog` with its wire name, its parameter keys and their JSON kinds, the roles that may call it, a summary and
// the errors it may answer; `RPCMethodName` lists them and `RPCMethod` is the typed handle clients call.
import AXJSONRPC

/// Every JSON-RPC method a client may call, by its wire name.
public enum RPCMethodName: String, CaseIterable, Sendable {
    /// `initialize`.
    case initialize = "initialize"
    /// `ping`.
    case ping = "ping"
    /// `$/cancelRequest`.
    case cancelRequest = "$/cancelRequest"
    /// `shutdown`.
    case shutdown = "shutdown"
    /// `apps.list`.
    case appsList = "apps.list"
    /// `app.register`.
    case appRegister = "app.register"
    /// `hierarchy.set`.
    case hierarchySet = "hierarchy.set"
    /// `hierarchy.update`.
    case hierarchyUpdate = "hierarchy.update"
    /// `accessibility.post`.
    case accessibilityPost = "accessibility.post"
    /// `tree.get`.
    case treeGet = "tree.get"
    /// `tree.diff`.
    case treeDiff = "tree.diff"
    /// `tree.revision`.
    case treeRevision = "tree.revision"
    /// `element.get`.
    case elementGet = "element.get"
    /// `query.find`.
    case queryFind = "query.find"
    /// `query.one`.
    case queryOne = "query.one"
    /// `query.count`.
    case queryCount = "query.count"
    /// `query.explain`.
    case queryExplain = "query.explain"
    /// `wait.for`.
    case waitFor = "wait.for"
    /// `app.reset`.
    case appReset = "app.reset"
    /// `action.activate`.
    case actionActivate = "action.activate"
    /// `action.increment`.
    case actionIncrement = "action.increment"
    /// `action.decrement`.
    case actionDecrement = "action.decrement"
    /// `action.scroll`.
    case actionScroll = "action.scroll"
    /// `action.escape`.
    case actionEscape = "action.escape"
    /// `action.magicTap`.
    case actionMagicTap = "action.magicTap"
    /// `action.custom`.
    case actionCustom = "action.custom"
    /// `action.setValue`.
    case actionSetValue = "action.setValue"
    /// `action.typeText`.
    case actionTypeText = "action.typeText"
    /// `action.zoomIn`.
    case actionZoomIn = "action.zoomIn"
    /// `action.zoomOut`.
    case actionZoomOut = "action.zoomOut"
    /// `action.drag`.
    case actionDrag = "action.drag"
    /// `action.drop`.
    case actionDrop = "action.drop"
    /// `action.tap`.
    case actionTap = "action.tap"
    /// `element.atPoint`.
    case elementAtPoint = "element.atPoint"
    /// `element.cell`.
    case elementCell = "element.cell"
    /// `element.next`.
    case elementNext = "element.next"
    /// `element.previous`.
    case elementPrevious = "element.previous"
    /// `element.largeContent`.
    case elementLargeContent = "element.largeContent"
    /// `element.readingContent`.
    case elementReadingContent = "element.readingContent"
    /// `focus.get`.
    case focusGet = "focus.get"
    /// `focus.set`.
    case focusSet = "focus.set"
    /// `focus.move`.
    case focusMove = "focus.move"
    /// `focus.query`.
    case focusQuery = "focus.query"
    /// `focus.update`.
    case focusUpdate = "focus.update"
    /// `focus.explain`.
    case focusExplain = "focus.explain"
    /// `focus.status`.
    case focusStatus = "focus.status"
    /// `focus.items`.
    case focusItems = "focus.items"
    /// `focus.activate`.
    case focusActivate = "focus.activate"
    /// `input.key`.
    case inputKey = "input.key"
    /// `input.type`.
    case inputType = "input.type"
    /// `input.configure`.
    case inputConfigure = "input.configure"
    /// `accessibility.status`.
    case accessibilityStatus = "accessibility.status"
    /// `a11y.settings`.
    case a11ySettings = "a11y.settings"
    /// `rotor.list`.
    case rotorList = "rotor.list"
    /// `rotor.next`.
    case rotorNext = "rotor.next"
    /// `rotor.previous`.
    case rotorPrevious = "rotor.previous"
    /// `events.subscribe`.
    case eventsSubscribe = "events.subscribe"
    /// `events.unsubscribe`.
    case eventsUnsubscribe = "events.unsubscribe"
    /// `policy.get`.
    case policyGet = "policy.get"
    /// `policy.set`.
    case policySet = "policy.set"
    /// `policy.check`.
    case policyCheck = "policy.check"
    /// `audit.listChecks`.
    case auditListChecks = "audit.listChecks"
    /// `audit.run`.
    case auditRun = "audit.run"
    /// `speech.describe`.
    case speechDescribe = "speech.describe"
    /// `speech.walk`.
    case speechWalk = "speech.walk"
    /// `tree.render`.
    case treeRender = "tree.render"

    /// What the catalog says about the method.
    public var entry: RPCMethodEntry {
        switch self {
        case .initialize: RPCCatalog.Initialize.entry
        case .ping: RPCCatalog.Ping.entry
        case .cancelRequest: RPCCatalog.CancelRequest.entry
        case .shutdown: RPCCatalog.Shutdown.entry
        case .appsList: RPCCatalog.AppsList.entry
        case .appRegister: RPCCatalog.AppRegister.entry
        case .hierarchySet: RPCCatalog.HierarchySet.entry
        case .hierarchyUpdate: RPCCatalog.HierarchyUpdate.entry
        case .accessibilityPost: RPCCatalog.AccessibilityPost.entry
        case .treeGet: RPCCatalog.TreeGet.entry
        case .treeDiff: RPCCatalog.TreeDiff.entry
        case .treeRevision: RPCCatalog.TreeRevision.entry
        case .elementGet: RPCCatalog.ElementGet.entry
        case .queryFind: RPCCatalog.QueryFind.entry
        case .queryOne: RPCCatalog.QueryOne.entry
        case .queryCount: RPCCatalog.QueryCount.entry
        case .queryExplain: RPCCatalog.QueryExplain.entry
        case .waitFor: RPCCatalog.WaitFor.entry
        case .appReset: RPCCatalog.AppReset.entry
        case .actionActivate: RPCCatalog.ActionActivate.entry
        case .actionIncrement: RPCCatalog.ActionIncrement.entry
        case .actionDecrement: RPCCatalog.ActionDecrement.entry
        case .actionScroll: RPCCatalog.ActionScroll.entry
        case .actionEscape: RPCCatalog.ActionEscape.entry
        case .actionMagicTap: RPCCatalog.ActionMagicTap.entry
        case .actionCustom: RPCCatalog.ActionCustom.entry
        case .actionSetValue: RPCCatalog.ActionSetValue.entry
        case .actionTypeText: RPCCatalog.ActionTypeText.entry
        case .actionZoomIn: RPCCatalog.ActionZoomIn.entry
        case .actionZoomOut: RPCCatalog.ActionZoomOut.entry
        case .actionDrag: RPCCatalog.ActionDrag.entry
        case .actionDrop: RPCCatalog.ActionDrop.entry
        case .actionTap: RPCCatalog.ActionTap.entry
        case .elementAtPoint: RPCCatalog.ElementAtPoint.entry
        case .elementCell: RPCCatalog.ElementCell.entry
        case .elementNext: RPCCatalog.ElementNext.entry
        case .elementPrevious: RPCCatalog.ElementPrevious.entry
        case .elementLargeContent: RPCCatalog.ElementLargeContent.entry
        case .elementReadingContent: RPCCatalog.ElementReadingContent.entry
        case .focusGet: RPCCatalog.FocusGet.entry
        case .focusSet: RPCCatalog.FocusSet.entry
        case .focusMove: RPCCatalog.FocusMove.entry
        case .focusQuery: RPCCatalog.FocusQuery.entry
        case .focusUpdate: RPCCatalog.FocusUpdate.entry
        case .focusExplain: RPCCatalog.FocusExplain.entry
        case .focusStatus: RPCCatalog.FocusStatus.entry
        case .focusItems: RPCCatalog.FocusItems.entry
        case .focusActivate: RPCCatalog.FocusActivate.entry
        case .inputKey: RPCCatalog.InputKey.entry
        case .inputType: RPCCatalog.InputType.entry
        case .inputConfigure: RPCCatalog.InputConfigure.entry
        case .accessibilityStatus: RPCCatalog.AccessibilityStatus.entry
        case .a11ySettings: RPCCatalog.A11ySettings.entry
        case .rotorList: RPCCatalog.RotorList.entry
        case .rotorNext: RPCCatalog.RotorNext.entry
        case .rotorPrevious: RPCCatalog.RotorPrevious.entry
        case .eventsSubscribe: RPCCatalog.EventsSubscribe.entry
        case .eventsUnsubscribe: RPCCatalog.EventsUnsubscribe.entry
        case .policyGet: RPCCatalog.PolicyGet.entry
        case .policySet: RPCCatalog.PolicySet.entry
        case .policyCheck: RPCCatalog.PolicyCheck.entry
        case .auditListChecks: RPCCatalog.AuditListChecks.entry
        case .auditRun: RPCCatalog.AuditRun.entry
        case .speechDescribe: RPCCatalog.SpeechDescribe.entry
        case .speechWalk: RPCCatalog.SpeechWalk.entry
        case .treeRender: RPCCatalog.TreeRender.entry
        }
    }
}

/// The typed method declarations (one type per method).
public enum RPCCatalog {}

/// The members of an element action's result (`action.<name>`).
public enum RPCActionResultMember: String, RPCPerformedResultKey {
    /// `performed` (boolean).
    case performed
    /// `element` (string or null).
    case element
    /// `revisionBefore` (integer).
    case revisionBefore
    /// `revisionAfter` (integer).
    case revisionAfter

    /// The JSON kind of the value.
    public var kind: RPCParamKind {
        switch self {
        case .performed: .boolean
        case .element: .string
        case .revisionBefore, .revisionAfter: .integer
        }
    }

    /// The members whose value may be `null`.
    public static let nullable: Set<Self> = [.element]
}

/// The members of a step's result to another element (`element.atPoint`, `element.cell`, `element.next`,
/// `element.previous`).
public enum RPCElementStepMember: String, RPCResultKey {
    /// `element` (string or null).
    case element
    /// `view` (string).
    case view
    /// `node` (object or null).
    case node

    /// The JSON kind of the value.
    public var kind: RPCParamKind {
        switch self {
        case .element, .view: .string
        case .node: .object
        }
    }

    /// The members whose value may be `null`.
    public static let nullable: Set<Self> = [.element, .node]

    /// The members whose value carries elements.
    public static let carryingElements: Set<Self> = [.node]
}

/// The members of a focus update's result (`focus.move`, `focus.update`).
public enum RPCFocusMoveMember: String, RPCResultKey {
    /// `from` (string or null).
    case from
    /// `to` (string or null).
    case to
    /// `heading` (string).
    case heading
    /// `moved` (boolean).
    case moved
    /// `guide` (string or null).
    case guide
    /// `preferredChain` (array).
    case preferredChain
    /// `scroll` (object or null).
    case scroll
    /// `element` (object).
    case element
    /// `failure` (string).
    case failure
    /// `message` (string).
    case message
    /// `cancelledBy` (string).
    case cancelledBy

    /// The JSON kind of the value.
    public var kind: RPCParamKind {
        switch self {
        case .from, .to, .heading, .guide, .failure, .message, .cancelledBy: .string
        case .moved: .boolean
        case .preferredChain: .array
        case .scroll, .element: .object
        }
    }

    /// The members whose value may be `null`.
    public static let nullable: Set<Self> = [.from, .to, .guide, .scroll]

    /// The members whose value carries elements.
    public static let carryingElements: Set<Self> = [.element]
}

/// The members of a rotor step's result (`rotor.next`, `rotor.previous`).
public enum RPCRotorStepMember: String, RPCResultKey {
    /// `rotor` (object).
    case rotor
    /// `direction` (string).
    case direction
    /// `from` (object or null).
    case from
    /// `item` (object or null).
    case item
    /// `end` (boolean).
    case end
    /// `searched` (integer).
    case searched
    /// `focusMoved` (boolean).
    case focusMoved

    /// The JSON kind of the value.
    public var kind: RPCParamKind {
        switch self {
        case .rotor, .from, .item: .object
        case .direction: .string
        case .end, .focusMoved: .boolean
        case .searched: .integer
        }
    }

    /// The members whose value may be `null`.
    public static let nullable: Set<Self> = [.from, .item]
}

extension RPCCatalog {
    /// `initialize`: Starts the session: chooses the role and answers the protocol version, server info and capabilities.
    public enum Initialize: RPCMethodSpec {
        /// The parameter keys of `initialize` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `role` (string).
            case role
            /// `clientInfo` (object).
            case clientInfo
            /// `token` (string).
            case token
            /// `operatorToken` (string).
            case operatorToken
            /// `protocolVersion` (string).
            case protocolVersion
            /// `capabilities` (object).
            case capabilities

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .role, .token, .operatorToken, .protocolVersion: .string
                case .clientInfo, .capabilities: .object
                }
            }
        }
        /// The members of `initialize`'s result.
        public enum Member: String, RPCResultKey {
            /// `protocolVersion` (string).
            case protocolVersion
            /// `serverInfo` (object).
            case serverInfo
            /// `capabilities` (object).
            case capabilities

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .protocolVersion: .string
                case .serverInfo, .capabilities: .object
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .initialize, Param.self, section: .lifecycle, roles: .everyone, requiresInitialize: false,
            summary:
                "Starts the session: chooses the role and answers the protocol version, server info and capabilities.",
            result: .object(Member.self),
            errors: [RPCError.Code.unauthorized])
    }
}

extension RPCMethod where Spec == RPCCatalog.Initialize {
    /// `initialize`: Starts the session: chooses the role and answers the protocol version, server info and capabilities.
    public static var initialize: Self { Self() }
}

extension RPCCatalog {
    /// `ping`: Answers pong; needs no `initialize`.
    public enum Ping: RPCMethodSpec {
        /// `ping` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .ping, Param.self, section: .lifecycle, roles: .everyone, requiresInitialize: false,
            summary: "Answers pong; needs no `initialize`.",
            result: .string,
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.Ping {
    /// `ping`: Answers pong; needs no `initialize`.
    public static var ping: Self { Self() }
}

extension RPCCatalog {
    /// `$/cancelRequest`: Cancels a running concurrent request (`wait.for`) by its id (D-PROTO-1).
    public enum CancelRequest: RPCMethodSpec {
        /// The parameter keys of `$/cancelRequest` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `id` (any).
            case id

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .any
            }
        }
        /// The members of `$/cancelRequest`'s result.
        public enum Member: String, RPCResultKey {
            /// `cancelled` (boolean).
            case cancelled

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .boolean }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .cancelRequest, Param.self, section: .lifecycle, roles: .everyone,
            summary: "Cancels a running concurrent request (`wait.for`) by its id (D-PROTO-1).",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.CancelRequest {
    /// `$/cancelRequest`: Cancels a running concurrent request (`wait.for`) by its id (D-PROTO-1).
    public static var cancelRequest: Self { Self() }
}

extension RPCCatalog {
    /// `shutdown`: Answers null; the session may close.
    public enum Shutdown: RPCMethodSpec {
        /// `shutdown` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .shutdown, Param.self, section: .lifecycle, roles: .everyone,
            summary: "Answers null; the session may close.",
            result: .null,
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.Shutdown {
    /// `shutdown`: Answers null; the session may close.
    public static var shutdown: Self { Self() }
}

extension RPCCatalog {
    /// `apps.list`: Lists the registered apps with their revision, registration, windows and focus.
    public enum AppsList: RPCMethodSpec {
        /// `apps.list` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `apps.list`'s result (each object of the array).
        public enum Member: String, RPCResultKey {
            /// `id` (string).
            case id
            /// `name` (string).
            case name
            /// `revision` (integer).
            case revision
            /// `registration` (integer).
            case registration
            /// `windows` (array).
            case windows
            /// `elements` (integer).
            case elements
            /// `focused` (string or null).
            case focused

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .id, .name, .focused: .string
                case .revision, .registration, .elements: .integer
                case .windows: .array
                }
            }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.focused]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .appsList, Param.self, section: .lifecycle, roles: .everyone,
            summary: "Lists the registered apps with their revision, registration, windows and focus.",
            result: .objects(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.AppsList {
    /// `apps.list`: Lists the registered apps with their revision, registration, windows and focus.
    public static var appsList: Self { Self() }
}

extension RPCCatalog {
    /// `app.register`: Registers this connection's app (it becomes a provider) and answers its id and reclaim token.
    public enum AppRegister: RPCMethodSpec {
        /// The parameter keys of `app.register` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `name` (string).
            case name
            /// `reclaimToken` (string).
            case reclaimToken
            /// `reset` (boolean).
            case reset

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .name, .reclaimToken: .string
                case .reset: .boolean
                }
            }
        }
        /// The members of `app.register`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `reclaimToken` (string).
            case reclaimToken

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .string }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .appRegister, Param.self, section: .providerRole, roles: .everyone,
            summary: "Registers this connection's app (it becomes a provider) and answers its id and reclaim token.",
            result: .object(Member.self),
            errors: [RPCError.Code.invalidRequest])
    }
}

extension RPCMethod where Spec == RPCCatalog.AppRegister {
    /// `app.register`: Registers this connection's app (it becomes a provider) and answers its id and reclaim token.
    public static var appRegister: Self { Self() }
}

extension RPCCatalog {
    /// `hierarchy.set`: Replaces the provider's own app tree with a full snapshot.
    public enum HierarchySet: RPCMethodSpec {
        /// The parameter keys of `hierarchy.set` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `windows` (array).
            case windows
            /// `roots` (array).
            case roots
            /// `guidedAccessRestrictions` (array).
            case guidedAccessRestrictions

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .array
            }
        }
        /// The members of `hierarchy.set`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `revision` (integer).
            case revision
            /// `elements` (integer).
            case elements

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app: .string
                case .revision, .elements: .integer
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .hierarchySet, Param.self, section: .providerRole, roles: .providers,
            summary: "Replaces the provider's own app tree with a full snapshot.",
            result: .object(Member.self),
            errors: [RPCError.Code.forbidden])
    }
}

extension RPCMethod where Spec == RPCCatalog.HierarchySet {
    /// `hierarchy.set`: Replaces the provider's own app tree with a full snapshot.
    public static var hierarchySet: Self { Self() }
}

extension RPCCatalog {
    /// `hierarchy.update`: Applies patch ops to the provider's own app tree.
    public enum HierarchyUpdate: RPCMethodSpec {
        /// The parameter keys of `hierarchy.update` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `ops` (array).
            case ops
            /// `baseRevision` (integer).
            case baseRevision

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .ops: .array
                case .baseRevision: .integer
                }
            }
        }
        /// The members of `hierarchy.update`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `revision` (integer).
            case revision
            /// `changes` (object).
            case changes

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app: .string
                case .revision: .integer
                case .changes: .object
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .hierarchyUpdate, Param.self, section: .providerRole, roles: .providers,
            summary: "Applies patch ops to the provider's own app tree.",
            result: .object(Member.self),
            errors: [RPCError.Code.forbidden, RPCError.Code.contentModified])
    }
}

extension RPCMethod where Spec == RPCCatalog.HierarchyUpdate {
    /// `hierarchy.update`: Applies patch ops to the provider's own app tree.
    public static var hierarchyUpdate: Self { Self() }
}

extension RPCCatalog {
    /// `accessibility.post`: Posts a UIAccessibility notification for the provider's own app.
    public enum AccessibilityPost: RPCMethodSpec {
        /// The parameter keys of `accessibility.post` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `notification` (string).
            case notification
            /// `argument` (any).
            case argument
            /// `priority` (string).
            case priority

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .notification, .priority: .string
                case .argument: .any
                }
            }
        }
        /// The members of `accessibility.post`'s result.
        public enum Member: String, RPCResultKey {
            /// `posted` (string).
            case posted

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .string }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .accessibilityPost, Param.self, section: .providerRole, roles: .providers,
            summary: "Posts a UIAccessibility notification for the provider's own app.",
            result: .object(Member.self),
            errors: [RPCError.Code.forbidden])
    }
}

extension RPCMethod where Spec == RPCCatalog.AccessibilityPost {
    /// `accessibility.post`: Posts a UIAccessibility notification for the provider's own app.
    public static var accessibilityPost: Self { Self() }
}

extension RPCCatalog {
    /// `tree.get`: The app's tree as JSON, text or XCUITest-style XML.
    public enum TreeGet: RPCMethodSpec {
        /// The parameter keys of `tree.get` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `format` (string).
            case format
            /// `root` (target).
            case root
            /// `depth` (integer).
            case depth
            /// `maxChildren` (integer).
            case maxChildren
            /// `frames` (boolean).
            case frames
            /// `fields` (array).
            case fields

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .format: .string
                case .root: .target
                case .depth, .maxChildren: .integer
                case .frames: .boolean
                case .fields: .array
                }
            }

            /// `format` takes one of `Format`.
            public var values: [String]? {
                switch self {
                case .format: Format.allCases.map(\.rawValue)
                case .root, .depth, .maxChildren, .frames, .fields: nil
                }
            }
        }
        /// The forms `format` asks for (`json` when none is given).
        public enum Format: String, CaseIterable, Sendable {
            /// The elements as JSON objects.
            case json
            /// An indented outline, one element a line.
            case text
            /// XCUITest-style XML (the WebDriver page source).
            case xml
        }
        /// The members of `tree.get`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `revision` (integer).
            case revision
            /// `format` (string).
            case format
            /// `windows` (array).
            case windows
            /// `count` (integer).
            case count
            /// `truncated` (array).
            case truncated
            /// `text` (string).
            case text
            /// `xml` (string).
            case xml

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app, .format, .text, .xml: .string
                case .revision, .count: .integer
                case .windows, .truncated: .array
                }
            }

            /// The members whose value carries elements.
            public static let carryingElements: Set<Self> = [.windows]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .treeGet, Param.self, section: .tree, roles: .everyone,
            summary: "The app's tree as JSON, text or XCUITest-style XML.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.TreeGet {
    /// `tree.get`: The app's tree as JSON, text or XCUITest-style XML.
    public static var treeGet: Self { Self() }
}

extension RPCCatalog {
    /// `tree.diff`: The net change set between two revisions.
    public enum TreeDiff: RPCMethodSpec {
        /// The parameter keys of `tree.diff` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `fromRevision` (integer).
            case fromRevision
            /// `toRevision` (integer).
            case toRevision

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .integer
            }
        }
        /// The members of `tree.diff`'s result.
        public enum Member: String, RPCResultKey {
            /// `fromRevision` (integer).
            case fromRevision
            /// `toRevision` (integer).
            case toRevision
            /// `added` (array).
            case added
            /// `removed` (array).
            case removed
            /// `moved` (array).
            case moved
            /// `updated` (object).
            case updated
            /// `windowsChanged` (boolean).
            case windowsChanged

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .fromRevision, .toRevision: .integer
                case .added, .removed, .moved: .array
                case .updated: .object
                case .windowsChanged: .boolean
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .treeDiff, Param.self, section: .tree, roles: .everyone,
            summary: "The net change set between two revisions.",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.TreeDiff {
    /// `tree.diff`: The net change set between two revisions.
    public static var treeDiff: Self { Self() }
}

extension RPCCatalog {
    /// `tree.revision`: The app's current revision and registration number.
    public enum TreeRevision: RPCMethodSpec {
        /// `tree.revision` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `tree.revision`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `revision` (integer).
            case revision
            /// `registration` (integer).
            case registration
            /// `automationOnly` (integer).
            case automationOnly

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app: .string
                case .revision, .registration, .automationOnly: .integer
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .treeRevision, Param.self, section: .tree, roles: .everyone,
            summary: "The app's current revision and registration number.",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.TreeRevision {
    /// `tree.revision`: The app's current revision and registration number.
    public static var treeRevision: Self { Self() }
}

extension RPCCatalog {
    /// `element.get`: One element with hittable, visible, focused, ancestors and index.
    public enum ElementGet: RPCMethodSpec {
        /// The parameter keys of `element.get` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `target` (target).
            case target

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .target
            }
        }
        /// The members of its result: an element object.
        public typealias Member = RPCElementField
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .elementGet, Param.self, section: .tree, roles: .everyone,
            summary: "One element with hittable, visible, focused, ancestors and index.",
            result: .element,
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ElementGet {
    /// `element.get`: One element with hittable, visible, focused, ancestors and index.
    public static var elementGet: Self { Self() }
}

extension RPCCatalog {
    /// `query.find`: Every element a selector matches; never waits.
    public enum QueryFind: RPCMethodSpec {
        /// The parameter keys of `query.find` (besides `app`).
        public enum Param: String, RPCSelectorParameterKey {
            /// `selector` (target).
            case selector
            /// `ast` (object).
            case ast
            /// `root` (target).
            case root
            /// `limit` (integer).
            case limit

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .selector, .root: .target
                case .ast: .object
                case .limit: .integer
                }
            }
        }
        /// The members of `query.find`'s result.
        public enum Member: String, RPCResultKey {
            /// `revision` (integer).
            case revision
            /// `selector` (string).
            case selector
            /// `count` (integer).
            case count
            /// `elements` (array).
            case elements
            /// `truncated` (object).
            case truncated

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .revision, .count: .integer
                case .selector: .string
                case .elements: .array
                case .truncated: .object
                }
            }

            /// The members whose value carries elements.
            public static let carryingElements: Set<Self> = [.elements]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .queryFind, Param.self, section: .query, roles: .everyone,
            summary: "Every element a selector matches; never waits.",
            result: .object(Member.self),
            errors: [RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.invalidSelector])
    }
}

extension RPCMethod where Spec == RPCCatalog.QueryFind {
    /// `query.find`: Every element a selector matches; never waits.
    public static var queryFind: Self { Self() }
}

extension RPCCatalog {
    /// `query.one`: The one element a selector matches (strict).
    public enum QueryOne: RPCMethodSpec {
        /// The parameter keys of `query.one` (besides `app`).
        public enum Param: String, RPCSelectorParameterKey {
            /// `selector` (target).
            case selector
            /// `ast` (object).
            case ast
            /// `root` (target).
            case root

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .selector, .root: .target
                case .ast: .object
                }
            }
        }
        /// The members of its result: an element object.
        public typealias Member = RPCElementField
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .queryOne, Param.self, section: .query, roles: .everyone,
            summary: "The one element a selector matches (strict).",
            result: .element,
            errors: [RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.invalidSelector])
    }
}

extension RPCMethod where Spec == RPCCatalog.QueryOne {
    /// `query.one`: The one element a selector matches (strict).
    public static var queryOne: Self { Self() }
}

extension RPCCatalog {
    /// `query.count`: How many elements a selector matches.
    public enum QueryCount: RPCMethodSpec {
        /// The parameter keys of `query.count` (besides `app`): those of `query.one`.
        public typealias Param = RPCCatalog.QueryOne.Param
        /// The members of `query.count`'s result.
        public enum Member: String, RPCResultKey {
            /// `count` (integer).
            case count
            /// `revision` (integer).
            case revision

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .integer }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .queryCount, Param.self, section: .query, roles: .everyone,
            summary: "How many elements a selector matches.",
            result: .object(Member.self),
            errors: [RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.invalidSelector])
    }
}

extension RPCMethod where Spec == RPCCatalog.QueryCount {
    /// `query.count`: How many elements a selector matches.
    public static var queryCount: Self { Self() }
}

extension RPCCatalog {
    /// `query.explain`: Per-step counts and near misses of a selector.
    public enum QueryExplain: RPCMethodSpec {
        /// The parameter keys of `query.explain` (besides `app`): those of `query.one`.
        public typealias Param = RPCCatalog.QueryOne.Param
        /// The members of `query.explain`'s result.
        public enum Member: String, RPCResultKey {
            /// `canonical` (string).
            case canonical
            /// `selector` (string).
            case selector
            /// `count` (integer).
            case count
            /// `matches` (array).
            case matches
            /// `chains` (array).
            case chains
            /// `summary` (string).
            case summary

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .canonical, .selector, .summary: .string
                case .count: .integer
                case .matches, .chains: .array
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .queryExplain, Param.self, section: .query, roles: .everyone,
            summary: "Per-step counts and near misses of a selector.",
            result: .object(Member.self),
            errors: [RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.invalidSelector])
    }
}

extension RPCMethod where Spec == RPCCatalog.QueryExplain {
    /// `query.explain`: Per-step counts and near misses of a selector.
    public static var queryExplain: Self { Self() }
}

extension RPCCatalog {
    /// `wait.for`: Waits until the target reaches a state, woken by revisions (D-PROTO-1).
    public enum WaitFor: RPCMethodSpec {
        /// The parameter keys of `wait.for` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `target` (target).
            case target
            /// `state` (string).
            case state
            /// `value` (any).
            case value
            /// `timeoutMs` (integer).
            case timeoutMs

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .state: .string
                case .value: .any
                case .timeoutMs: .integer
                }
            }

            /// `state` takes one of `State`.
            public var values: [String]? {
                switch self {
                case .state: State.allCases.map(\.rawValue)
                case .target, .value, .timeoutMs: nil
                }
            }
        }
        /// The states `state` accepts (`attached` when none is given).
        public enum State: String, CaseIterable, Sendable {
            /// The target is in the tree.
            case attached
            /// The target is not in the tree (or its app went away).
            case detached
            /// On screen with a non-empty frame.
            case visible
            /// Off screen, with an empty frame, or not in the tree.
            case hidden
            /// A tap at its activation point reaches it.
            case hittable
            /// Enabled.
            case enabled
            /// Not enabled.
            case disabled
            /// It has accessibility focus.
            case focused
            /// Its value equals `value`.
            case value
            /// Its label equals `value`.
            case label

            /// Whether the state compares the element with `value` (then required).
            public var comparesValue: Bool {
                switch self {
                case .value, .label: true
                case .attached, .detached, .visible, .hidden, .hittable, .enabled, .disabled, .focused: false
                }
            }
        }
        /// The members of `wait.for`'s result.
        public enum Member: String, RPCResultKey {
            /// `state` (string).
            case state
            /// `satisfied` (boolean).
            case satisfied
            /// `revision` (integer).
            case revision
            /// `waitedMs` (integer).
            case waitedMs
            /// `element` (object).
            case element
            /// `reason` (string): why a `detached` wait ended without a tree (`app removed`).
            case reason

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .state, .reason: .string
                case .satisfied: .boolean
                case .revision, .waitedMs: .integer
                case .element: .object
                }
            }

            /// The members whose value carries elements.
            public static let carryingElements: Set<Self> = [.element]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .waitFor, Param.self, section: .waiting, roles: .everyone,
            summary: "Waits until the target reaches a state, woken by revisions (D-PROTO-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.timeout, RPCError.Code.cancelled, RPCError.Code.busy,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.WaitFor {
    /// `wait.for`: Waits until the target reaches a state, woken by revisions (D-PROTO-1).
    public static var waitFor: Self { Self() }
}

extension RPCCatalog {
    /// `app.reset`: Asks the app for its initial state and waits until the server has it (D-APP-RESET-1).
    public enum AppReset: RPCMethodSpec {
        /// The parameter keys of `app.reset` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `timeoutMs` (integer).
            case timeoutMs

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .integer
            }
        }
        /// The members of `app.reset`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `reset` (boolean).
            case reset
            /// `revisionBefore` (integer).
            case revisionBefore
            /// `revision` (integer).
            case revision
            /// `ms` (number).
            case ms

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app: .string
                case .reset: .boolean
                case .revisionBefore, .revision: .integer
                case .ms: .number
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .appReset, Param.self, section: .appReset, roles: .everyone,
            summary: "Asks the app for its initial state and waits until the server has it (D-APP-RESET-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.actionNotSupported, RPCError.Code.policyDenied, RPCError.Code.appNotResponding,
                RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.AppReset {
    /// `app.reset`: Asks the app for its initial state and waits until the server has it (D-APP-RESET-1).
    public static var appReset: Self { Self() }
}

extension RPCCatalog {
    /// `action.activate`: Activates the target (accessibilityActivate, X30).
    public enum ActionActivate: RPCMethodSpec {
        /// The parameter keys of `action.activate` (besides `app`).
        public enum Param: String, RPCActionParameterKey {
            /// `target` (target).
            case target
            /// `force` (boolean).
            case force

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .force: .boolean
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionActivate, Param.self, section: .actions, roles: .everyone,
            summary: "Activates the target (accessibilityActivate, X30).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionActivate {
    /// `action.activate`: Activates the target (accessibilityActivate, X30).
    public static var actionActivate: Self { Self() }
}

extension RPCCatalog {
    /// `action.increment`: Increments an adjustable target.
    public enum ActionIncrement: RPCMethodSpec {
        /// The parameter keys of `action.increment` (besides `app`): those of `action.activate`.
        public typealias Param = RPCCatalog.ActionActivate.Param
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionIncrement, Param.self, section: .actions, roles: .everyone,
            summary: "Increments an adjustable target.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionIncrement {
    /// `action.increment`: Increments an adjustable target.
    public static var actionIncrement: Self { Self() }
}

extension RPCCatalog {
    /// `action.decrement`: Decrements an adjustable target.
    public enum ActionDecrement: RPCMethodSpec {
        /// The parameter keys of `action.decrement` (besides `app`): those of `action.activate`.
        public typealias Param = RPCCatalog.ActionActivate.Param
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionDecrement, Param.self, section: .actions, roles: .everyone,
            summary: "Decrements an adjustable target.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionDecrement {
    /// `action.decrement`: Decrements an adjustable target.
    public static var actionDecrement: Self { Self() }
}

extension RPCCatalog {
    /// `action.scroll`: Scrolls the target's view ancestors in a direction (X40).
    public enum ActionScroll: RPCMethodSpec {
        /// The parameter keys of `action.scroll` (besides `app`).
        public enum Param: String, RPCActionParameterKey {
            /// `target` (target).
            case target
            /// `force` (boolean).
            case force
            /// `direction` (string).
            case direction

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .force: .boolean
                case .direction: .string
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionScroll, Param.self, section: .actions, roles: .everyone,
            summary: "Scrolls the target's view ancestors in a direction (X40).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionScroll {
    /// `action.scroll`: Scrolls the target's view ancestors in a direction (X40).
    public static var actionScroll: Self { Self() }
}

extension RPCCatalog {
    /// `action.escape`: Performs escape from the target or the focused element upwards (X32).
    public enum ActionEscape: RPCMethodSpec {
        /// The parameter keys of `action.escape` (besides `app`): those of `action.activate`.
        public typealias Param = RPCCatalog.ActionActivate.Param
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionEscape, Param.self, section: .actions, roles: .everyone,
            summary: "Performs escape from the target or the focused element upwards (X32).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionEscape {
    /// `action.escape`: Performs escape from the target or the focused element upwards (X32).
    public static var actionEscape: Self { Self() }
}

extension RPCCatalog {
    /// `action.magicTap`: Performs the magic tap from the target or the focused element upwards (X33).
    public enum ActionMagicTap: RPCMethodSpec {
        /// The parameter keys of `action.magicTap` (besides `app`): those of `action.activate`.
        public typealias Param = RPCCatalog.ActionActivate.Param
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionMagicTap, Param.self, section: .actions, roles: .everyone,
            summary: "Performs the magic tap from the target or the focused element upwards (X33).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionMagicTap {
    /// `action.magicTap`: Performs the magic tap from the target or the focused element upwards (X33).
    public static var actionMagicTap: Self { Self() }
}

extension RPCCatalog {
    /// `action.custom`: Performs one of the target's custom actions by id or name.
    public enum ActionCustom: RPCMethodSpec {
        /// The parameter keys of `action.custom` (besides `app`).
        public enum Param: String, RPCActionParameterKey {
            /// `target` (target).
            case target
            /// `force` (boolean).
            case force
            /// `name` (string).
            case name
            /// `action` (string).
            case action

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .force: .boolean
                case .name, .action: .string
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionCustom, Param.self, section: .actions, roles: .everyone,
            summary: "Performs one of the target's custom actions by id or name.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionCustom {
    /// `action.custom`: Performs one of the target's custom actions by id or name.
    public static var actionCustom: Self { Self() }
}

extension RPCCatalog {
    /// `action.setValue`: Sets the target's value.
    public enum ActionSetValue: RPCMethodSpec {
        /// The parameter keys of `action.setValue` (besides `app`).
        public enum Param: String, RPCActionParameterKey {
            /// `target` (target).
            case target
            /// `force` (boolean).
            case force
            /// `value` (any).
            case value

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .force: .boolean
                case .value: .any
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionSetValue, Param.self, section: .actions, roles: .everyone,
            summary: "Sets the target's value.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionSetValue {
    /// `action.setValue`: Sets the target's value.
    public static var actionSetValue: Self { Self() }
}

extension RPCCatalog {
    /// `action.typeText`: Types text at the target's insertion point.
    public enum ActionTypeText: RPCMethodSpec {
        /// The parameter keys of `action.typeText` (besides `app`).
        public enum Param: String, RPCActionParameterKey {
            /// `target` (target).
            case target
            /// `force` (boolean).
            case force
            /// `text` (string).
            case text
            /// `value` (string).
            case value

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .force: .boolean
                case .text, .value: .string
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionTypeText, Param.self, section: .actions, roles: .everyone,
            summary: "Types text at the target's insertion point.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionTypeText {
    /// `action.typeText`: Types text at the target's insertion point.
    public static var actionTypeText: Self { Self() }
}

extension RPCCatalog {
    /// `action.zoomIn`: Zooms a supportsZoom target in at a point (D-ZOOM-1).
    public enum ActionZoomIn: RPCMethodSpec {
        /// The parameter keys of `action.zoomIn` (besides `app`).
        public enum Param: String, RPCActionParameterKey {
            /// `target` (target).
            case target
            /// `force` (boolean).
            case force
            /// `point` (point).
            case point

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .force: .boolean
                case .point: .point
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionZoomIn, Param.self, section: .actions, roles: .everyone,
            summary: "Zooms a supportsZoom target in at a point (D-ZOOM-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionZoomIn {
    /// `action.zoomIn`: Zooms a supportsZoom target in at a point (D-ZOOM-1).
    public static var actionZoomIn: Self { Self() }
}

extension RPCCatalog {
    /// `action.zoomOut`: Zooms a supportsZoom target out at a point (D-ZOOM-1).
    public enum ActionZoomOut: RPCMethodSpec {
        /// The parameter keys of `action.zoomOut` (besides `app`): those of `action.zoomIn`.
        public typealias Param = RPCCatalog.ActionZoomIn.Param
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionZoomOut, Param.self, section: .actions, roles: .everyone,
            summary: "Zooms a supportsZoom target out at a point (D-ZOOM-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionZoomOut {
    /// `action.zoomOut`: Zooms a supportsZoom target out at a point (D-ZOOM-1).
    public static var actionZoomOut: Self { Self() }
}

extension RPCCatalog {
    /// `action.drag`: Starts a drag from the target's drag source descriptor (D-DRAG-1).
    public enum ActionDrag: RPCMethodSpec {
        /// The parameter keys of `action.drag` (besides `app`).
        public enum Param: String, RPCActionParameterKey {
            /// `target` (target).
            case target
            /// `force` (boolean).
            case force
            /// `name` (string).
            case name

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .force: .boolean
                case .name: .string
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionDrag, Param.self, section: .actions, roles: .everyone,
            summary: "Starts a drag from the target's drag source descriptor (D-DRAG-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionDrag {
    /// `action.drag`: Starts a drag from the target's drag source descriptor (D-DRAG-1).
    public static var actionDrag: Self { Self() }
}

extension RPCCatalog {
    /// `action.drop`: Drops at the target's drop point descriptor (D-DRAG-1).
    public enum ActionDrop: RPCMethodSpec {
        /// The parameter keys of `action.drop` (besides `app`): those of `action.drag`.
        public typealias Param = RPCCatalog.ActionDrag.Param
        /// The members of its result.
        public typealias Member = RPCActionResultMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionDrop, Param.self, section: .actions, roles: .everyone,
            summary: "Drops at the target's drop point descriptor (D-DRAG-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionDrop {
    /// `action.drop`: Drops at the target's drop point descriptor (D-DRAG-1).
    public static var actionDrop: Self { Self() }
}

extension RPCCatalog {
    /// `action.tap`: Taps through UIKit hit testing at the target's activation point or a point.
    public enum ActionTap: RPCMethodSpec {
        /// The parameter keys of `action.tap` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `target` (target).
            case target
            /// `point` (point).
            case point

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .point: .point
                }
            }
        }
        /// The members of `action.tap`'s result.
        public enum Member: String, RPCPerformedResultKey {
            /// `performed` (boolean).
            case performed
            /// `element` (string).
            case element
            /// `view` (string).
            case view

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .performed: .boolean
                case .element, .view: .string
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .actionTap, Param.self, section: .actions, roles: .everyone,
            summary: "Taps through UIKit hit testing at the target's activation point or a point.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ActionTap {
    /// `action.tap`: Taps through UIKit hit testing at the target's activation point or a point.
    public static var actionTap: Self { Self() }
}

extension RPCCatalog {
    /// `element.atPoint`: The element an exploring finger finds at a screen point (X48, D-HIT-1).
    public enum ElementAtPoint: RPCMethodSpec {
        /// The parameter keys of `element.atPoint` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `point` (point).
            case point

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .point
            }
        }
        /// The members of its result.
        public typealias Member = RPCElementStepMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .elementAtPoint, Param.self, section: .scriptQueries, roles: .everyone,
            summary: "The element an exploring finger finds at a screen point (X48, D-HIT-1).",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.ElementAtPoint {
    /// `element.atPoint`: The element an exploring finger finds at a screen point (X48, D-HIT-1).
    public static var elementAtPoint: Self { Self() }
}

extension RPCCatalog {
    /// `element.cell`: The data-table cell covering a row and column.
    public enum ElementCell: RPCMethodSpec {
        /// The parameter keys of `element.cell` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `target` (target).
            case target
            /// `row` (integer).
            case row
            /// `column` (integer).
            case column

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .row, .column: .integer
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCElementStepMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .elementCell, Param.self, section: .scriptQueries, roles: .everyone,
            summary: "The data-table cell covering a row and column.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ElementCell {
    /// `element.cell`: The data-table cell covering a row and column.
    public static var elementCell: Self { Self() }
}

extension RPCCatalog {
    /// `element.next`: The next element in reading order (D-QUERY-1).
    public enum ElementNext: RPCMethodSpec {
        /// The parameter keys of `element.next` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `from` (target).
            case from
            /// `moveFocus` (boolean).
            case moveFocus

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .from: .target
                case .moveFocus: .boolean
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCElementStepMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .elementNext, Param.self, section: .scriptQueries, roles: .everyone,
            summary: "The next element in reading order (D-QUERY-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ElementNext {
    /// `element.next`: The next element in reading order (D-QUERY-1).
    public static var elementNext: Self { Self() }
}

extension RPCCatalog {
    /// `element.previous`: The previous element in reading order (D-QUERY-1).
    public enum ElementPrevious: RPCMethodSpec {
        /// The parameter keys of `element.previous` (besides `app`): those of `element.next`.
        public typealias Param = RPCCatalog.ElementNext.Param
        /// The members of its result.
        public typealias Member = RPCElementStepMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .elementPrevious, Param.self, section: .scriptQueries, roles: .everyone,
            summary: "The previous element in reading order (D-QUERY-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ElementPrevious {
    /// `element.previous`: The previous element in reading order (D-QUERY-1).
    public static var elementPrevious: Self { Self() }
}

extension RPCCatalog {
    /// `element.largeContent`: What the large content viewer shows for an element (D-LCV-1).
    public enum ElementLargeContent: RPCMethodSpec {
        /// The parameter keys of `element.largeContent` (besides `app`): those of `element.get`.
        public typealias Param = RPCCatalog.ElementGet.Param
        /// The members of `element.largeContent`'s result.
        public enum Member: String, RPCResultKey {
            /// `element` (string).
            case element
            /// `title` (string).
            case title
            /// `image` (string).
            case image
            /// `scalesImage` (boolean).
            case scalesImage

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .element, .title, .image: .string
                case .scalesImage: .boolean
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .elementLargeContent, Param.self, section: .scriptQueries, roles: .everyone,
            summary: "What the large content viewer shows for an element (D-LCV-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ElementLargeContent {
    /// `element.largeContent`: What the large content viewer shows for an element (D-LCV-1).
    public static var elementLargeContent: Self { Self() }
}

extension RPCCatalog {
    /// `element.readingContent`: An element's reading content, or one line of it (D-READ-1).
    public enum ElementReadingContent: RPCMethodSpec {
        /// The parameter keys of `element.readingContent` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `target` (target).
            case target
            /// `line` (integer).
            case line
            /// `point` (point).
            case point

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .line: .integer
                case .point: .point
                }
            }
        }
        /// The members of `element.readingContent`'s result.
        public enum Member: String, RPCResultKey {
            /// `element` (string).
            case element
            /// `lineCount` (integer).
            case lineCount
            /// `pageContent` (string).
            case pageContent
            /// `line` (object or null).
            case line

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .element, .pageContent: .string
                case .lineCount: .integer
                case .line: .object
                }
            }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.line]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .elementReadingContent, Param.self, section: .scriptQueries, roles: .everyone,
            summary: "An element's reading content, or one line of it (D-READ-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.ElementReadingContent {
    /// `element.readingContent`: An element's reading content, or one line of it (D-READ-1).
    public static var elementReadingContent: Self { Self() }
}

extension RPCCatalog {
    /// `focus.get`: The accessibility focus of the app.
    public enum FocusGet: RPCMethodSpec {
        /// `focus.get` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `focus.get`'s result.
        public enum Member: String, RPCResultKey {
            /// `element` (object or null).
            case element
            /// `app` (string).
            case app

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .element: .object
                case .app: .string
                }
            }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.element]

            /// The members whose value carries elements.
            public static let carryingElements: Set<Self> = [.element]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusGet, Param.self, section: .focus, roles: .everyone,
            summary: "The accessibility focus of the app.",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusGet {
    /// `focus.get`: The accessibility focus of the app.
    public static var focusGet: Self { Self() }
}

extension RPCCatalog {
    /// `focus.set`: Moves (or, without a target, clears) accessibility focus.
    public enum FocusSet: RPCMethodSpec {
        /// The parameter keys of `focus.set` (besides `app`): those of `element.get`.
        public typealias Param = RPCCatalog.ElementGet.Param
        /// The members of `focus.set`'s result.
        public enum Member: String, RPCResultKey {
            /// `focused` (string or null).
            case focused

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .string }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.focused]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusSet, Param.self, section: .focus, roles: .everyone,
            summary: "Moves (or, without a target, clears) accessibility focus.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusSet {
    /// `focus.set`: Moves (or, without a target, clears) accessibility focus.
    public static var focusSet: Self { Self() }
}

extension RPCCatalog {
    /// `focus.move`: Moves engine focus in a direction (C6, C7).
    public enum FocusMove: RPCMethodSpec {
        /// The parameter keys of `focus.move` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `direction` (string).
            case direction

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .string
            }
        }
        /// The members of its result.
        public typealias Member = RPCFocusMoveMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusMove, Param.self, section: .focusEngine, roles: .everyone,
            summary: "Moves engine focus in a direction (C6, C7).",
            result: .object(Member.self),
            errors: [RPCError.Code.appNotResponding])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusMove {
    /// `focus.move`: Moves engine focus in a direction (C6, C7).
    public static var focusMove: Self { Self() }
}

extension RPCCatalog {
    /// `focus.query`: Where engine focus would go; nothing changes (C33).
    public enum FocusQuery: RPCMethodSpec {
        /// The parameter keys of `focus.query` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `direction` (string).
            case direction
            /// `from` (target).
            case from

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .direction: .string
                case .from: .target
                }
            }
        }
        /// The members of `focus.query`'s result.
        public enum Member: String, RPCResultKey {
            /// `from` (string).
            case from
            /// `to` (string or null).
            case to
            /// `heading` (string).
            case heading
            /// `guide` (string or null).
            case guide
            /// `preferredChain` (array).
            case preferredChain
            /// `scroll` (object or null).
            case scroll
            /// `element` (object).
            case element
            /// `simulated` (boolean).
            case simulated
            /// `failure` (string).
            case failure
            /// `message` (string).
            case message

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .from, .to, .heading, .guide, .failure, .message: .string
                case .preferredChain: .array
                case .scroll, .element: .object
                case .simulated: .boolean
                }
            }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.to, .guide, .scroll]

            /// The members whose value carries elements.
            public static let carryingElements: Set<Self> = [.element]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusQuery, Param.self, section: .focusEngine, roles: .everyone,
            summary: "Where engine focus would go; nothing changes (C33).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusQuery {
    /// `focus.query`: Where engine focus would go; nothing changes (C33).
    public static var focusQuery: Self { Self() }
}

extension RPCCatalog {
    /// `focus.update`: A focus update request for a view or guide (C10).
    public enum FocusUpdate: RPCMethodSpec {
        /// The parameter keys of `focus.update` (besides `app`): those of `element.get`.
        public typealias Param = RPCCatalog.ElementGet.Param
        /// The members of its result.
        public typealias Member = RPCFocusMoveMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusUpdate, Param.self, section: .focusEngine, roles: .everyone,
            summary: "A focus update request for a view or guide (C10).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.appNotResponding,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusUpdate {
    /// `focus.update`: A focus update request for a view or guide (C10).
    public static var focusUpdate: Self { Self() }
}

extension RPCCatalog {
    /// `focus.explain`: Whether a view can take focus and which check fails (C32).
    public enum FocusExplain: RPCMethodSpec {
        /// The parameter keys of `focus.explain` (besides `app`): those of `element.get`.
        public typealias Param = RPCCatalog.ElementGet.Param
        /// The members of `focus.explain`'s result.
        public enum Member: String, RPCResultKey {
            /// `target` (string).
            case target
            /// `focusable` (boolean).
            case focusable
            /// `focused` (boolean).
            case focused
            /// `failed` (object or null).
            case failed
            /// `checks` (array).
            case checks
            /// `group` (string or null).
            case group
            /// `priority` (number).
            case priority

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target, .group: .string
                case .focusable, .focused: .boolean
                case .failed: .object
                case .checks: .array
                case .priority: .number
                }
            }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.failed, .group]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusExplain, Param.self, section: .focusEngine, roles: .everyone,
            summary: "Whether a view can take focus and which check fails (C32).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusExplain {
    /// `focus.explain`: Whether a view can take focus and which check fails (C32).
    public static var focusExplain: Self { Self() }
}

extension RPCCatalog {
    /// `focus.status`: The focus debugger's status: groups, sequence, guides (C31).
    public enum FocusStatus: RPCMethodSpec {
        /// `focus.status` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `focus.status`'s result.
        public enum Member: String, RPCResultKey {
            /// `engine` (object or null).
            case engine
            /// `accessibility` (string or null).
            case accessibility
            /// `group` (string or null).
            case group
            /// `groups` (array).
            case groups
            /// `sequence` (array).
            case sequence
            /// `initial` (string).
            case initial
            /// `preferredChain` (array).
            case preferredChain
            /// `keyWindow` (string).
            case keyWindow
            /// `guides` (array).
            case guides

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .engine: .object
                case .accessibility, .group, .initial, .keyWindow: .string
                case .groups, .sequence, .preferredChain, .guides: .array
                }
            }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.engine, .accessibility, .group]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusStatus, Param.self, section: .focusEngine, roles: .everyone,
            summary: "The focus debugger's status: groups, sequence, guides (C31).",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusStatus {
    /// `focus.status`: The focus debugger's status: groups, sequence, guides (C31).
    public static var focusStatus: Self { Self() }
}

extension RPCCatalog {
    /// `focus.items`: The focusable items whose frames meet a rectangle (C26).
    public enum FocusItems: RPCMethodSpec {
        /// The parameter keys of `focus.items` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `rect` (array).
            case rect

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .array
            }
        }
        /// The members of `focus.items`'s result.
        public enum Member: String, RPCResultKey {
            /// `items` (array).
            case items

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .array }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusItems, Param.self, section: .focusEngine, roles: .everyone,
            summary: "The focusable items whose frames meet a rectangle (C26).",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusItems {
    /// `focus.items`: The focusable items whose frames meet a rectangle (C26).
    public static var focusItems: Self { Self() }
}

extension RPCCatalog {
    /// `focus.activate`: Activates the engine-focused item (C30).
    public enum FocusActivate: RPCMethodSpec {
        /// `focus.activate` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `focus.activate`'s result.
        public enum Member: String, RPCResultKey {
            /// `performed` (boolean).
            case performed
            /// `element` (string).
            case element

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .performed: .boolean
                case .element: .string
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .focusActivate, Param.self, section: .focusEngine, roles: .everyone,
            summary: "Activates the engine-focused item (C30).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.FocusActivate {
    /// `focus.activate`: Activates the engine-focused item (C30).
    public static var focusActivate: Self { Self() }
}

extension RPCCatalog {
    /// `input.key`: A key press or release, offered to the assistive technology first (D-KEY-2).
    public enum InputKey: RPCMethodSpec {
        /// The parameter keys of `input.key` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `key` (string).
            case key
            /// `modifiers` (array).
            case modifiers
            /// `phase` (string).
            case phase

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .key, .phase: .string
                case .modifiers: .array
                }
            }

            /// `phase` takes one of `Phase`.
            public var values: [String]? {
                switch self {
                case .phase: Phase.allCases.map(\.rawValue)
                case .key, .modifiers: nil
                }
            }
        }
        /// Which half of a keystroke `input.key` sends (`both` when none is given).
        public enum Phase: String, CaseIterable, Sendable {
            /// The key goes down.
            case press
            /// The key comes up.
            case release
            /// Down, then up.
            case both
        }
        /// The members of `input.key`'s result.
        public enum Member: String, RPCResultKey {
            /// `consumed` (boolean).
            case consumed
            /// `handledBy` (string).
            case handledBy
            /// `focus` (string or null).
            case focus
            /// `assistiveTechnology` (string).
            case assistiveTechnology

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .consumed: .boolean
                case .handledBy, .focus, .assistiveTechnology: .string
                }
            }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.focus]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .inputKey, Param.self, section: .keys, roles: .everyone,
            summary: "A key press or release, offered to the assistive technology first (D-KEY-2).",
            result: .object(Member.self),
            errors: [RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.busy])
    }
}

extension RPCMethod where Spec == RPCCatalog.InputKey {
    /// `input.key`: A key press or release, offered to the assistive technology first (D-KEY-2).
    public static var inputKey: Self { Self() }
}

extension RPCCatalog {
    /// `input.type`: Types text into the target or the focused element (D-KEY-5).
    public enum InputType: RPCMethodSpec {
        /// The parameter keys of `input.type` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `text` (string).
            case text
            /// `target` (target).
            case target

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .text: .string
                case .target: .target
                }
            }
        }
        /// The members of `input.type`'s result.
        public enum Member: String, RPCResultKey {
            /// `typed` (boolean).
            case typed
            /// `element` (string).
            case element

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .typed: .boolean
                case .element: .string
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .inputType, Param.self, section: .keys, roles: .everyone,
            summary: "Types text into the target or the focused element (D-KEY-5).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.notInteractable, RPCError.Code.actionNotSupported,
                RPCError.Code.policyDenied, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.InputType {
    /// `input.type`: Types text into the target or the focused element (D-KEY-5).
    public static var inputType: Self { Self() }
}

extension RPCCatalog {
    /// `input.configure`: Lets the server handle the provider's navigation keys.
    public enum InputConfigure: RPCMethodSpec {
        /// The parameter keys of `input.configure` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `serverHandlesNavigation` (boolean).
            case serverHandlesNavigation

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .boolean
            }
        }
        /// The members of `input.configure`'s result.
        public enum Member: String, RPCResultKey {
            /// `serverHandlesNavigation` (boolean).
            case serverHandlesNavigation

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .boolean }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .inputConfigure, Param.self, section: .keys, roles: .providers,
            summary: "Lets the server handle the provider's navigation keys.",
            result: .object(Member.self),
            errors: [RPCError.Code.forbidden])
    }
}

extension RPCMethod where Spec == RPCCatalog.InputConfigure {
    /// `input.configure`: Lets the server handle the provider's navigation keys.
    public static var inputConfigure: Self { Self() }
}

extension RPCCatalog {
    /// `accessibility.status`: Whether a screen reader runs (D-SR-1).
    public enum AccessibilityStatus: RPCMethodSpec {
        /// `accessibility.status` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `accessibility.status`'s result.
        public enum Member: String, RPCResultKey {
            /// `screenReaderRunning` (boolean or null).
            case screenReaderRunning

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .boolean }

            /// The members whose value may be `null`.
            public static let nullable: Set<Self> = [.screenReaderRunning]
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .accessibilityStatus, Param.self, section: .keys, roles: .everyone,
            summary: "Whether a screen reader runs (D-SR-1).",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.AccessibilityStatus {
    /// `accessibility.status`: Whether a screen reader runs (D-SR-1).
    public static var accessibilityStatus: Self { Self() }
}

extension RPCCatalog {
    /// `a11y.settings`: The user's accessibility settings and where each came from (D-SET-1).
    public enum A11ySettings: RPCMethodSpec {
        /// `a11y.settings` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `a11y.settings`'s result.
        public enum Member: String, RPCResultKey {
            /// `settings` (object).
            case settings
            /// `sources` (object).
            case sources
            /// `keys` (object).
            case keys
            /// `reader` (object).
            case reader

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .object }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .a11ySettings, Param.self, section: .settings, roles: .everyone,
            summary: "The user's accessibility settings and where each came from (D-SET-1).",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.A11ySettings {
    /// `a11y.settings`: The user's accessibility settings and where each came from (D-SET-1).
    public static var a11ySettings: Self { Self() }
}

extension RPCCatalog {
    /// `rotor.list`: The rotors of an element and its ancestors, custom and system (D-ROTOR-1).
    public enum RotorList: RPCMethodSpec {
        /// The parameter keys of `rotor.list` (besides `app`): those of `element.get`.
        public typealias Param = RPCCatalog.ElementGet.Param
        /// The members of `rotor.list`'s result.
        public enum Member: String, RPCResultKey {
            /// `element` (string).
            case element
            /// `rotors` (array).
            case rotors
            /// `unavailable` (array).
            case unavailable

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .element: .string
                case .rotors, .unavailable: .array
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .rotorList, Param.self, section: .rotors, roles: .everyone,
            summary: "The rotors of an element and its ancestors, custom and system (D-ROTOR-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.RotorList {
    /// `rotor.list`: The rotors of an element and its ancestors, custom and system (D-ROTOR-1).
    public static var rotorList: Self { Self() }
}

extension RPCCatalog {
    /// `rotor.next`: The next item of a rotor (R58).
    public enum RotorNext: RPCMethodSpec {
        /// The parameter keys of `rotor.next` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `rotor` (string).
            case rotor
            /// `from` (target).
            case from
            /// `fromRange` (array).
            case fromRange
            /// `target` (target).
            case target
            /// `moveFocus` (boolean).
            case moveFocus

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .rotor: .string
                case .from, .target: .target
                case .fromRange: .array
                case .moveFocus: .boolean
                }
            }
        }
        /// The members of its result.
        public typealias Member = RPCRotorStepMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .rotorNext, Param.self, section: .rotors, roles: .everyone,
            summary: "The next item of a rotor (R58).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.RotorNext {
    /// `rotor.next`: The next item of a rotor (R58).
    public static var rotorNext: Self { Self() }
}

extension RPCCatalog {
    /// `rotor.previous`: The previous item of a rotor (R59).
    public enum RotorPrevious: RPCMethodSpec {
        /// The parameter keys of `rotor.previous` (besides `app`): those of `rotor.next`.
        public typealias Param = RPCCatalog.RotorNext.Param
        /// The members of its result.
        public typealias Member = RPCRotorStepMember
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .rotorPrevious, Param.self, section: .rotors, roles: .everyone,
            summary: "The previous item of a rotor (R59).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector, RPCError.Code.appNotResponding, RPCError.Code.appError,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.RotorPrevious {
    /// `rotor.previous`: The previous item of a rotor (R59).
    public static var rotorPrevious: Self { Self() }
}

extension RPCCatalog {
    /// `events.subscribe`: Subscribes to event notifications of one app or all.
    public enum EventsSubscribe: RPCMethodSpec {
        /// The parameter keys of `events.subscribe` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `events` (array).
            case events

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .array
            }
        }
        /// The members of `events.subscribe`'s result.
        public enum Member: String, RPCResultKey {
            /// `subscription` (integer).
            case subscription
            /// `events` (array).
            case events
            /// `shared` (boolean): true when the connection was already subscribed to the same events of the same app
            /// (the live subscription's id is answered).
            case shared

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .subscription: .integer
                case .events: .array
                case .shared: .boolean
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .eventsSubscribe, Param.self, section: .events, roles: .everyone,
            summary: "Subscribes to event notifications of one app or all.",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.EventsSubscribe {
    /// `events.subscribe`: Subscribes to event notifications of one app or all.
    public static var eventsSubscribe: Self { Self() }
}

extension RPCCatalog {
    /// `events.unsubscribe`: Ends a subscription.
    public enum EventsUnsubscribe: RPCMethodSpec {
        /// The parameter keys of `events.unsubscribe` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `subscription` (integer).
            case subscription

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .integer
            }
        }
        /// The members of `events.unsubscribe`'s result.
        public enum Member: String, RPCResultKey {
            /// `unsubscribed` (integer).
            case unsubscribed

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .integer }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .eventsUnsubscribe, Param.self, section: .events, roles: .everyone,
            summary: "Ends a subscription.",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.EventsUnsubscribe {
    /// `events.unsubscribe`: Ends a subscription.
    public static var eventsUnsubscribe: Self { Self() }
}

extension RPCCatalog {
    /// `policy.get`: The app's guided-access restrictions and their states (R84).
    public enum PolicyGet: RPCMethodSpec {
        /// `policy.get` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `policy.get`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `name` (string).
            case name
            /// `unknownApps` (string).
            case unknownApps
            /// `guidedAccessEnabled` (boolean).
            case guidedAccessEnabled
            /// `restrictions` (array).
            case restrictions

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app, .name, .unknownApps: .string
                case .guidedAccessEnabled: .boolean
                case .restrictions: .array
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .policyGet, Param.self, section: .guidedAccess, roles: .everyone,
            summary: "The app's guided-access restrictions and their states (R84).",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.PolicyGet {
    /// `policy.get`: The app's guided-access restrictions and their states (R84).
    public static var policyGet: Self { Self() }
}

extension RPCCatalog {
    /// `policy.set`: Allows or denies a restriction; operator only.
    public enum PolicySet: RPCMethodSpec {
        /// The parameter keys of `policy.set` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `restriction` (string).
            case restriction
            /// `state` (string).
            case state
            /// `appName` (string).
            case appName

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                .string
            }
        }
        /// The members of `policy.set`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `appName` (string).
            case appName
            /// `restriction` (string).
            case restriction
            /// `state` (string).
            case state

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .string }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .policySet, Param.self, section: .guidedAccess, roles: .operators,
            summary: "Allows or denies a restriction; operator only.",
            result: .object(Member.self),
            errors: [RPCError.Code.forbidden, RPCError.Code.internalError])
    }
}

extension RPCMethod where Spec == RPCCatalog.PolicySet {
    /// `policy.set`: Allows or denies a restriction; operator only.
    public static var policySet: Self { Self() }
}

extension RPCCatalog {
    /// `policy.check`: A dry run of the guided-access check an activation makes.
    public enum PolicyCheck: RPCMethodSpec {
        /// The parameter keys of `policy.check` (besides `app`): those of `element.get`.
        public typealias Param = RPCCatalog.ElementGet.Param
        /// The members of `policy.check`'s result.
        public enum Member: String, RPCResultKey {
            /// `allowed` (boolean).
            case allowed
            /// `restriction` (string).
            case restriction

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .allowed: .boolean
                case .restriction: .string
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .policyCheck, Param.self, section: .guidedAccess, roles: .everyone,
            summary: "A dry run of the guided-access check an activation makes.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.PolicyCheck {
    /// `policy.check`: A dry run of the guided-access check an activation makes.
    public static var policyCheck: Self { Self() }
}

extension RPCCatalog {
    /// `audit.listChecks`: The accessibility audit checks.
    public enum AuditListChecks: RPCMethodSpec {
        /// `audit.listChecks` takes no parameter besides `app`.
        public typealias Param = RPCNoParam
        /// The members of `audit.listChecks`'s result.
        public enum Member: String, RPCResultKey {
            /// `checks` (array).
            case checks

            /// The JSON kind of the value.
            public var kind: RPCParamKind { .array }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .auditListChecks, Param.self, section: .audits, roles: .everyone,
            summary: "The accessibility audit checks.",
            result: .object(Member.self),
            errors: [])
    }
}

extension RPCMethod where Spec == RPCCatalog.AuditListChecks {
    /// `audit.listChecks`: The accessibility audit checks.
    public static var auditListChecks: Self { Self() }
}

extension RPCCatalog {
    /// `audit.run`: Runs the audit checks and answers the findings.
    public enum AuditRun: RPCMethodSpec {
        /// The parameter keys of `audit.run` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `root` (target).
            case root
            /// `checks` (array).
            case checks
            /// `suppress` (array).
            case suppress
            /// `maxFindings` (integer).
            case maxFindings
            /// `report` (string).
            case report

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .root: .target
                case .checks, .suppress: .array
                case .maxFindings: .integer
                case .report: .string
                }
            }
        }
        /// The members of `audit.run`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `revision` (integer).
            case revision
            /// `root` (string).
            case root
            /// `checks` (array).
            case checks
            /// `count` (integer).
            case count
            /// `errors` (integer).
            case errors
            /// `warnings` (integer).
            case warnings
            /// `suppressed` (integer).
            case suppressed
            /// `examined` (object).
            case examined
            /// `findings` (array).
            case findings
            /// `truncated` (object).
            case truncated
            /// `report`: the findings as the CI report the `report` param asked for (a JUnit XML string, or a
            /// SARIF object).
            case report

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app, .root: .string
                case .revision, .count, .errors, .warnings, .suppressed: .integer
                case .checks, .findings: .array
                case .examined, .truncated: .object
                case .report: .any
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .auditRun, Param.self, section: .audits, roles: .everyone,
            summary: "Runs the audit checks and answers the findings.",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.AuditRun {
    /// `audit.run`: Runs the audit checks and answers the findings.
    public static var auditRun: Self { Self() }
}

extension RPCCatalog {
    /// `speech.describe`: What VoiceOver and Orca say for an element (D-SPEECH-1, D-SPEECH-2).
    public enum SpeechDescribe: RPCMethodSpec {
        /// The parameter keys of `speech.describe` (besides `app`).
        public enum Param: String, RPCTargetParameterKey {
            /// `target` (target).
            case target
            /// `model` (string).
            case model
            /// `screenReader` (string).
            case screenReader

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .target: .target
                case .model, .screenReader: .string
                }
            }
        }
        /// The members of `speech.describe`'s result.
        public enum Member: String, RPCResultKey {
            /// `element` (string).
            case element
            /// `revision` (integer).
            case revision
            /// `voiceOver` (object).
            case voiceOver
            /// `orca` (object).
            case orca

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .element: .string
                case .revision: .integer
                case .voiceOver, .orca: .object
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .speechDescribe, Param.self, section: .speech, roles: .everyone,
            summary: "What VoiceOver and Orca say for an element (D-SPEECH-1, D-SPEECH-2).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.SpeechDescribe {
    /// `speech.describe`: What VoiceOver and Orca say for an element (D-SPEECH-1, D-SPEECH-2).
    public static var speechDescribe: Self { Self() }
}

extension RPCCatalog {
    /// `speech.walk`: Every element's speech in reading order (R104).
    public enum SpeechWalk: RPCMethodSpec {
        /// The parameter keys of `speech.walk` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `root` (target).
            case root
            /// `model` (string).
            case model
            /// `limit` (integer).
            case limit
            /// `screenReader` (string).
            case screenReader

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .root: .target
                case .model, .screenReader: .string
                case .limit: .integer
                }
            }
        }
        /// The members of `speech.walk`'s result.
        public enum Member: String, RPCResultKey {
            /// `revision` (integer).
            case revision
            /// `count` (integer).
            case count
            /// `items` (array).
            case items
            /// `truncated` (object).
            case truncated

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .revision, .count: .integer
                case .items: .array
                case .truncated: .object
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .speechWalk, Param.self, section: .speech, roles: .everyone,
            summary: "Every element's speech in reading order (R104).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.SpeechWalk {
    /// `speech.walk`: Every element's speech in reading order (R104).
    public static var speechWalk: Self { Self() }
}

extension RPCCatalog {
    /// `tree.render`: A wireframe picture of the windows as SVG or PNG (D-RENDER-1).
    public enum TreeRender: RPCMethodSpec {
        /// The parameter keys of `tree.render` (besides `app`).
        public enum Param: String, RPCParameterKey {
            /// `format` (string).
            case format
            /// `root` (target).
            case root
            /// `overlay` (array).
            case overlay
            /// `maxNodes` (integer).
            case maxNodes

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .format: .string
                case .root: .target
                case .overlay: .array
                case .maxNodes: .integer
                }
            }

            /// `format` takes one of `Format`.
            public var values: [String]? {
                switch self {
                case .format: Format.allCases.map(\.rawValue)
                case .root, .overlay, .maxNodes: nil
                }
            }
        }
        /// The picture formats (`svg` when none is given).
        public enum Format: String, CaseIterable, Sendable {
            /// The SVG text.
            case svg
            /// A PNG, base64 (needs a rasterizer on the server).
            case png
        }
        /// The members of `tree.render`'s result.
        public enum Member: String, RPCResultKey {
            /// `app` (string).
            case app
            /// `revision` (integer).
            case revision
            /// `format` (string).
            case format
            /// `width` (integer).
            case width
            /// `height` (integer).
            case height
            /// `overlays` (array).
            case overlays
            /// `drawn` (integer).
            case drawn
            /// `findings` (integer).
            case findings
            /// `truncated` (object).
            case truncated
            /// `svg` (string).
            case svg
            /// `encoding` (string).
            case encoding
            /// `data` (string).
            case data

            /// The JSON kind of the value.
            public var kind: RPCParamKind {
                switch self {
                case .app, .format, .svg, .encoding, .data: .string
                case .revision, .width, .height, .drawn, .findings: .integer
                case .overlays: .array
                case .truncated: .object
                }
            }
        }
        /// The catalog entry.
        public static let entry = RPCMethodEntry(
            .treeRender, Param.self, section: .pictures, roles: .everyone,
            summary: "A wireframe picture of the windows as SVG or PNG (D-RENDER-1).",
            result: .object(Member.self),
            errors: [
                RPCError.Code.noSuchElement, RPCError.Code.ambiguousMatch, RPCError.Code.staleElement,
                RPCError.Code.invalidSelector,
            ])
    }
}

extension RPCMethod where Spec == RPCCatalog.TreeRender {
    /// `tree.render`: A wireframe picture of the windows as SVG or PNG (D-RENDER-1).
    public static var treeRender: Self { Self() }
}
