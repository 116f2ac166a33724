"""The user's accessibility settings reach apps and clients (D-SET-1…3; R70, R72, R97–R99): a real server reads
them through GIO's GSettings from a private backend (GSETTINGS_BACKEND=keyfile in a temporary XDG_CONFIG_HOME,
changed with the real ``gsettings`` tool), reports them under UIKit's names with their sources, and notifies
``a11y.settingsChanged`` once per change burst. A Python provider app adapts to Reduce Motion and larger text."""
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from axclient import Client, ServerProcess, expect

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "apps"))
from adaptive_settings_app import AdaptiveApp  # noqa: E402

GSETTINGS = shutil.which("gsettings")
pytestmark = pytest.mark.skipif(GSETTINGS is None, reason="gsettings (libglib2.0-bin) is not installed")
SCHEMA_DIR = "/usr/share/glib-2.0/schemas"
needs_gnome_schemas = pytest.mark.skipif(
    not os.path.exists(os.path.join(SCHEMA_DIR, "org.gnome.desktop.a11y.applications.gschema.xml")),
    reason="the GNOME desktop schemas (gsettings-desktop-schemas) are not installed")


def private_env(directory, backend="keyfile", **extra):
    env = dict(os.environ, GSETTINGS_BACKEND=backend, XDG_CONFIG_HOME=os.path.join(directory, "config"))
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    env.update(extra)
    return env


def gsettings_set(env, schema, key, value):
    subprocess.run([GSETTINGS, "set", schema, key, value], env=env, check=True, timeout=10)


@pytest.fixture
def desktop():
    """A server reading a private keyfile GSettings backend, and the environment that writes to it."""
    directory = tempfile.mkdtemp(prefix="ax-settings-")
    env = private_env(directory)
    server = ServerProcess(demo=False, env=env)
    try:
        yield server, env
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


def wait_settings_event(stream, name, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = stream.next(timeout=max(0.01, deadline - time.monotonic()))
        if name in event["changed"]:
            return event
    raise AssertionError("no a11y.settingsChanged naming %s" % name)


@needs_gnome_schemas
def test_defaults_name_their_source_keys(desktop):
    server, _ = desktop
    with Client(server.socket) as ax:
        settings = ax.accessibility_settings()
    assert settings.reader["kind"] == "gsettings"
    assert settings.reader["backend"] == "GKeyfileSettingsBackend"
    assert settings.isReduceMotionEnabled is False and settings.isDarkerSystemColorsEnabled is False
    assert settings.preferredContentSizeCategory == "large"
    assert settings.source("isReduceMotionEnabled")["keys"] == ["org.gnome.desktop.interface enable-animations"]
    assert settings.source("isBoldTextEnabled")["keys"] == []
    assert "no Linux source" in settings.source("isBoldTextEnabled")["rule"]
    assert settings.keys["org.gnome.desktop.interface enable-animations"] == {"value": True,
                                                                               "origin": "schemaDefault"}


@needs_gnome_schemas
@pytest.mark.parametrize("schema,key,value,flag", [
    ("org.gnome.desktop.interface", "enable-animations", "false", "isReduceMotionEnabled"),
    ("org.gnome.desktop.a11y.interface", "high-contrast", "true", "isDarkerSystemColorsEnabled"),
    ("org.gnome.desktop.a11y.applications", "screen-reader-enabled", "true", "isVoiceOverRunning"),
    ("org.gnome.desktop.a11y.applications", "screen-keyboard-enabled", "true", "isOnScreenKeyboardEnabled"),
])
def test_each_flag_follows_its_key_with_one_notification(desktop, schema, key, value, flag):
    server, env = desktop
    with Client(server.socket) as ax, ax.events("a11y.settingsChanged", timeout=5) as stream:
        assert getattr(ax.accessibility_settings(), flag) is False
        gsettings_set(env, schema, key, value)
        event = wait_settings_event(stream, flag)
        assert event["settings"][flag] is True
        settings = ax.accessibility_settings()
        assert getattr(settings, flag) is True
        assert settings.keys["%s %s" % (schema, key)]["origin"] == "user"


@needs_gnome_schemas
def test_magnifier_invert_and_grayscale(desktop):
    server, env = desktop
    with Client(server.socket) as ax, ax.events("a11y.settingsChanged", timeout=5) as stream:
        gsettings_set(env, "org.gnome.desktop.a11y.magnifier", "invert-lightness", "true")
        gsettings_set(env, "org.gnome.desktop.a11y.magnifier", "color-saturation", "0.0")
        # The magnifier is off: GNOME applies neither filter, so neither flag is on.
        time.sleep(0.3)  # give a (wrong) notification the time to come; the read below is what is checked
        settings = ax.accessibility_settings()
        assert settings.isInvertColorsEnabled is False and settings.isGrayscaleEnabled is False
        gsettings_set(env, "org.gnome.desktop.a11y.applications", "screen-magnifier-enabled", "true")
        event = wait_settings_event(stream, "isInvertColorsEnabled")
        assert event["settings"]["isGrayscaleEnabled"] is True
        assert "isGrayscaleEnabled" in event["changed"]


@needs_gnome_schemas
def test_text_scaling_factor_maps_to_content_size_category(desktop):
    server, env = desktop
    with Client(server.socket) as ax, ax.events("a11y.settingsChanged", timeout=5) as stream:
        gsettings_set(env, "org.gnome.desktop.interface", "text-scaling-factor", "2.0")
        event = wait_settings_event(stream, "preferredContentSizeCategory")
        # 17 pt × 2 = 34 pt: nearest UIKit body size is accessibilityLarge's 33 pt.
        assert event["settings"]["preferredContentSizeCategory"] == "accessibilityLarge"
        gsettings_set(env, "org.gnome.desktop.interface", "text-scaling-factor", "1.12")
        event = wait_settings_event(stream, "preferredContentSizeCategory")
        assert event["settings"]["preferredContentSizeCategory"] == "extraLarge"


@needs_gnome_schemas
def test_flapping_setting_is_coalesced_and_bounded(desktop):
    """1,000 changes, about a millisecond apart (written straight into the keyfile, as fast as the backend sees
    them): a bounded number of notifications (the 50 ms window: ≤ 1 + 20/s of the burst), the last one carrying the
    final value. The burst is a count, not a time, so a loaded machine makes it longer, never smaller."""
    server, env = desktop
    path = os.path.join(env["XDG_CONFIG_HOME"], "glib-2.0", "settings", "keyfile")
    gsettings_set(env, "org.gnome.desktop.interface", "enable-animations", "true")
    with Client(server.socket) as ax, ax.events("a11y.settingsChanged", timeout=5) as stream:
        start = time.monotonic()
        writes = 0
        while writes < 1000:
            value = "false" if writes % 2 == 0 else "true"
            with open(path + ".tmp", "w") as handle:
                handle.write("[org/gnome/desktop/interface]\nenable-animations=%s\n" % value)
            os.replace(path + ".tmp", path)
            writes += 1
            time.sleep(0.001)
        final = "true" if writes % 2 == 0 else "false"
        with open(path, "w") as handle:
            handle.write("[org/gnome/desktop/interface]\nenable-animations=%s\n" % final)
        elapsed = time.monotonic() - start
        events = []
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            try:
                events.append(stream.next(timeout=0.3))
            except Exception:  # noqa: BLE001 - ClientTimeout ends the burst
                if events:
                    break
        assert events, "no notification for %d changes" % writes
        assert len(events) * 4 <= writes, "%d notifications for %d changes: not coalesced" % (len(events), writes)
        bound = 2 + int((elapsed + 1.5) / 0.05)
        assert len(events) <= bound, "%d notifications for %d changes (bound %d)" % (len(events), writes, bound)
        expected_reduce = final == "false"
        assert ax.accessibility_settings().isReduceMotionEnabled is expected_reduce
    print("flapping: %d writes in %.2f s -> %d notifications" % (writes, elapsed, len(events)))


def test_other_desktop_without_schemas_reports_defaults_and_says_so():
    directory = tempfile.mkdtemp(prefix="ax-settings-")
    empty = os.path.join(directory, "share")
    os.makedirs(empty)
    env = private_env(directory, XDG_DATA_DIRS=empty, GSETTINGS_SCHEMA_DIR=empty)
    server = ServerProcess(demo=False, env=env)
    try:
        with Client(server.socket) as ax:
            settings = ax.accessibility_settings()
        assert settings.isReduceMotionEnabled is False and settings.preferredContentSizeCategory == "large"
        assert settings.keys["org.gnome.desktop.interface enable-animations"]["origin"] == "missing"
        assert "no GNOME schema" in settings.reader["note"]
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@needs_gnome_schemas
def test_no_desktop_session_reports_defaults_and_where_they_came_from():
    directory = tempfile.mkdtemp(prefix="ax-settings-")
    server = ServerProcess(demo=False, env=private_env(directory, backend="memory"))
    try:
        with Client(server.socket) as ax:
            settings = ax.accessibility_settings()
        assert settings.reader["backend"] == "GMemorySettingsBackend"
        assert "no desktop settings backend" in settings.reader["note"]
        assert settings.keys["org.gnome.desktop.interface text-scaling-factor"] == {"value": 1.0,
                                                                                     "origin": "schemaDefault"}
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


def test_no_settings_flag_reports_uikit_defaults_not_read():
    server = ServerProcess(demo=False, args=["--no-settings"])
    try:
        with Client(server.socket) as ax:
            settings = ax.accessibility_settings()
        assert settings.reader["kind"] == "none"
        assert settings.keys["org.gnome.desktop.interface enable-animations"]["origin"] == "notRead"
        assert settings.isReduceMotionEnabled is False
    finally:
        server.stop()


@needs_gnome_schemas
def test_provider_app_adapts_to_reduce_motion_and_larger_text(desktop):
    server, env = desktop
    app = AdaptiveApp(server.socket)
    try:
        with Client(server.socket, app=app.provider.app) as ax:
            banner = ax.locator("#banner")
            expect(banner).to_have_label("Animated banner")
            cancel_before = ax.element({"id": "cancel"}).frame
            gsettings_set(env, "org.gnome.desktop.interface", "enable-animations", "false")
            expect(banner).to_have_label("Still banner")
            expect(banner).to_have_value("static")
            gsettings_set(env, "org.gnome.desktop.interface", "text-scaling-factor", "2.5")
            expect(ax.locator("#greeting")).to_have_value("40 pt")
            cancel_after = ax.element({"id": "cancel"}).frame
            # Stacked under OK at an accessibility size (same x as OK, lower than before).
            assert cancel_after["x"] == 16 and cancel_after["y"] > cancel_before["y"], (cancel_before, cancel_after)
            gsettings_set(env, "org.gnome.desktop.interface", "enable-animations", "true")
            expect(banner).to_have_label("Animated banner")
    finally:
        app.close()
