"""axclient — the Python client for AXServer (Specs/python-client.md).

    from axclient import Client, expect

    with Client() as ax:                                   # $AXSERVER_SOCKET, else the default socket
        wifi = ax.get_by_role("switch", name="Wi-Fi")
        wifi.click()                                        # waits until visible, enabled and hittable
        expect(wifi).to_have_value("off")                   # waits, woken by tree revisions

Pure standard library; the pytest plugin (fixtures ``axserver``, ``ax``, ``ax_provider``, ``screen_reader``) needs
pytest.
"""
from .client import Client, to_target, __version__
from .element import Element, describe_element
from .errors import (ERROR_CLASSES, AXConnectionError, AXError, ActionNotSupported, AmbiguousMatch,
                     AppNotResponding, Cancelled, ClientTimeout, ContentModified, Forbidden, InternalError,
                     InvalidArgument, InvalidParams, InvalidRequest, InvalidSelector, MessageTooLarge,
                     MethodNotFound, NoServer, NoSuchElement, NotInitialized, NotInteractable, ParseError,
                     PolicyDenied, RPCError, StaleElement, Timeout, Unauthorized)
from .events import Event, EventStream
from .expect import LocatorAssertions, expect
from .locator import Locator
from .provider import ActionRequest, Provider, view
from .screen_reader import (Orca, ScreenReader, ScreenReaderError, ScreenReaderSession, ScreenReaderStartError,
                            ScreenReaderUnavailable, SpeechNeverSettled)
from .settings import AccessibilitySettings
from .server import A11yStack, ServerProcess, ServerStartError, find_axserver
from .text_editing import TextEditingModel

connect = Client

__all__ = [
    "Client", "connect", "to_target", "__version__", "Element", "describe_element", "Event", "EventStream",
    "expect", "LocatorAssertions", "Locator", "Provider", "ActionRequest", "view", "ServerProcess", "A11yStack",
    "ServerStartError", "find_axserver", "ERROR_CLASSES", "AXError", "AXConnectionError", "ClientTimeout",
    "RPCError", "ParseError", "InvalidRequest", "MethodNotFound", "InvalidArgument", "InvalidParams",
    "InternalError", "NotInitialized", "NoServer", "NoSuchElement", "AmbiguousMatch", "StaleElement", "NotInteractable",
    "ActionNotSupported", "InvalidSelector", "Timeout", "PolicyDenied", "Forbidden", "Unauthorized",
    "AppNotResponding", "MessageTooLarge", "Cancelled", "ContentModified", "Orca", "ScreenReader",
    "ScreenReaderError", "ScreenReaderSession", "ScreenReaderStartError", "ScreenReaderUnavailable",
    "SpeechNeverSettled", "TextEditingModel", "AccessibilitySettings",
]
