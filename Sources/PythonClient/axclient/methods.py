"""The JSON-RPC method names the client sends, each written once (issue 31 item 1, D-PYCLIENT-METHODS-1).

Every name is a method of the protocol catalog (``Sources/AXProtocol``, published as ``Specs/protocol.json``);
``Tests/Integration/test_protocol_catalog.py`` fails when this table and the catalog differ, when a catalog
method is neither here nor listed there as deliberately absent, and when a client file writes a method name as
a string instead of naming it here. Standard library only.
"""


class Method:
    """The methods, grouped as ``Specs/protocol.md`` groups them. Use ``Method.TREE_GET``, never ``"tree.get"``."""

    # Lifecycle
    INITIALIZE = "initialize"
    PING = "ping"
    CANCEL_REQUEST = "$/cancelRequest"
    APPS_LIST = "apps.list"

    # Provider role
    APP_REGISTER = "app.register"
    HIERARCHY_SET = "hierarchy.set"
    HIERARCHY_UPDATE = "hierarchy.update"
    ACCESSIBILITY_POST = "accessibility.post"

    # Tree
    TREE_GET = "tree.get"
    TREE_DIFF = "tree.diff"
    TREE_REVISION = "tree.revision"
    ELEMENT_GET = "element.get"

    # Query
    QUERY_FIND = "query.find"
    QUERY_ONE = "query.one"
    QUERY_COUNT = "query.count"
    QUERY_EXPLAIN = "query.explain"

    # Waiting
    WAIT_FOR = "wait.for"

    # App reset
    APP_RESET = "app.reset"

    # Actions
    ACTION_ACTIVATE = "action.activate"
    ACTION_INCREMENT = "action.increment"
    ACTION_DECREMENT = "action.decrement"
    ACTION_SCROLL = "action.scroll"
    ACTION_ESCAPE = "action.escape"
    ACTION_MAGIC_TAP = "action.magicTap"
    ACTION_CUSTOM = "action.custom"
    ACTION_SET_VALUE = "action.setValue"
    ACTION_TYPE_TEXT = "action.typeText"
    ACTION_ZOOM_IN = "action.zoomIn"
    ACTION_ZOOM_OUT = "action.zoomOut"
    ACTION_DRAG = "action.drag"
    ACTION_DROP = "action.drop"
    ACTION_TAP = "action.tap"

    # Script queries
    ELEMENT_AT_POINT = "element.atPoint"
    ELEMENT_CELL = "element.cell"
    ELEMENT_NEXT = "element.next"
    ELEMENT_PREVIOUS = "element.previous"
    ELEMENT_LARGE_CONTENT = "element.largeContent"
    ELEMENT_READING_CONTENT = "element.readingContent"

    # Focus
    FOCUS_GET = "focus.get"
    FOCUS_SET = "focus.set"

    # Focus engine
    FOCUS_MOVE = "focus.move"
    FOCUS_QUERY = "focus.query"
    FOCUS_UPDATE = "focus.update"
    FOCUS_EXPLAIN = "focus.explain"
    FOCUS_STATUS = "focus.status"
    FOCUS_ITEMS = "focus.items"
    FOCUS_ACTIVATE = "focus.activate"

    # Keys
    INPUT_KEY = "input.key"
    INPUT_TYPE = "input.type"

    # Settings
    A11Y_SETTINGS = "a11y.settings"

    # Rotors
    ROTOR_LIST = "rotor.list"
    ROTOR_NEXT = "rotor.next"
    ROTOR_PREVIOUS = "rotor.previous"

    # Events
    EVENTS_SUBSCRIBE = "events.subscribe"
    EVENTS_UNSUBSCRIBE = "events.unsubscribe"

    # Guided access
    POLICY_GET = "policy.get"
    POLICY_SET = "policy.set"
    POLICY_CHECK = "policy.check"

    # Audits
    AUDIT_LIST_CHECKS = "audit.listChecks"
    AUDIT_RUN = "audit.run"

    # Speech
    SPEECH_DESCRIBE = "speech.describe"
    SPEECH_WALK = "speech.walk"

    # Pictures
    TREE_RENDER = "tree.render"


class ServerRequest:
    """The requests the server sends a provider (``serverMessages`` in ``Specs/protocol.json``), which the provider
    library answers."""

    ACTION_PERFORM = "action.perform"
    APP_RESET = "app.reset"
