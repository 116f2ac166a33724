"""Masked text never leaves a Tk app (issue 32): an Entry with ``show`` (also set later, or sharing its StringVar
with a plain Entry) and customtkinter's ``CTkEntry(show="*")`` are secure text fields whose value is bullets on
every route, and the adapter itself never sends the text (its debug log prints every payload it sends). A plain
field named like a password is an audit finding (D-AUDIT-17). The server's own rule (D-SECURE-1) is tested by the
conformance case `secure-text-never-leaves`."""
import json

import pytest

from tk_support import needs_tk, tk_app, tk_client, xvfb_display  # noqa: F401

pytestmark = [needs_tk, pytest.mark.axserver(demo=False)]

DEBUG = {"AXCLIENT_TK_DEBUG": "1"}
BULLETS = "\u2022"


def assert_nowhere(ax, app, secrets):
    """No route the tests can read shows any of ``secrets``: the element tree, the XML page source, speech,
    and the adapter's own log of what it sent."""
    routes = {"tree": json.dumps(ax.tree(), ensure_ascii=False), "xml": ax.tree_xml(),
              "speech": json.dumps(ax.speech_walk(), ensure_ascii=False), "sent": app.stderr_text()}
    for route, text in routes.items():
        for secret in secrets:
            assert secret not in text, "%r leaked on %s" % (secret, route)


def test_every_masked_tk_entry_is_a_secure_field_with_bullets(tk_app, tk_client):
    app = tk_app("secrets_app.py", env=DEBUG)
    ax = tk_client(app.app_id)
    password = ax.get_by_role("secureTextField", name="Password")
    password.type_text("hunter2")
    assert password.value() == BULLETS * 7
    phrase = ax.get_by_role("secureTextField", name="Passphrase")
    phrase.type_text("sesame")
    assert phrase.value() == BULLETS * 6
    # The plain entry sharing the StringVar shows the same secret: it is masked too.
    echo = ax.get_by_role("secureTextField", name="Echo")
    assert echo.value() == BULLETS * 6
    # show= set after the entry was created (and after it held text).
    ax.get_by_role("button", name="Hide key").click()
    key = ax.get_by_role("secureTextField", name="Key")
    key.type_text("opensesame")
    assert key.value() == BULLETS * 10
    assert ax.query_count('*[value*="hunter"]') == 0 and ax.query_count(':text("sesame")') == 0
    assert_nowhere(ax, app, ["hunter2", "sesame", "opensesame"])


def test_a_plain_field_named_pin_is_an_audit_finding(tk_app, tk_client):
    app = tk_app("secrets_app.py")
    ax = tk_client(app.app_id)
    findings = ax.audit(checks=["unmaskedSecret"])["findings"]
    assert [f["label"] for f in findings] == ["PIN code"], findings
    assert "mask" in findings[0]["fix"]


def test_customtkinter_masked_entry_never_publishes_the_password(tk_app, tk_client):
    pytest.importorskip("customtkinter", reason="needs customtkinter (Tools/requirements-test.txt)")
    app = tk_app("ctk_app.py", env=DEBUG)
    ax = tk_client(app.app_id)
    secret = ax.get_by_role("secureTextField", name="Password")
    assert not secret.value()  # the placeholder is not the text
    secret.type_text("hunter2")
    assert secret.value() == BULLETS * 7
    assert_nowhere(ax, app, ["hunter2"])
