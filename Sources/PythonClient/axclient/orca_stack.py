"""Which Orca and which AT-SPI stack a screen-reader test runs on (issue 39; Specs/decisions.md D-ORCA48-1, D-KEY-MONITOR-1).

    stack = orca_stack.resolve("48")       # "43" / None: the system's Orca 43 on at-spi2-core 2.46 (the default)
    stack.a11y_stack_args                  # ["--atspi-root", ...]: Tools/a11y-stack.sh starts the 2.56 daemons
    stack.server_env()                     # the server claims org.freedesktop.a11y.Manager on the private bus
    stack.orca_command(), stack.orca_env(env)

Three choices, by the pytest option ``--axserver-orca 43|48|PATH``, the marker ``@pytest.mark.axserver(orca="48")``,
``axquery listen --orca 48`` or ``$AXSERVER_ORCA``:

- ``43`` (default): Debian 12's ``/usr/bin/orca`` 43 on the system's at-spi2-core; keys reach it through the
  registry's keystroke listeners (D-KEY-3).
- ``48``: Orca 48.1 with at-spi2-core / libatspi 2.56 from ``Tools/install-orca48.sh`` (run here when the prefix is
  missing; it is a no-op when present). Orca 48 takes keys from an ``Atspi.Device``; on the private stack it uses
  the a11y-manager device (``ATSPI_USE_A11Y_MANAGER_DEVICE=1``) and the server owns ``org.freedesktop.a11y.Manager``
  there (``AXSERVER_A11Y_KEYBOARD_MONITOR=1``), so the keys the server delivers reach Orca first and its grabs
  consume its commands (D-KEY-MONITOR-1). ``keys_from_x=True`` (an app that reads its keys from X itself, e.g. a GTK
  reference app driven with xdotool) keeps Orca 48 on its X11 device instead.
- a ``PATH``: a prefix made by ``Tools/install-orca48.sh`` (``AXSERVER_ORCA48_PREFIX``) elsewhere.

Standard library only.
"""
from __future__ import annotations

import os
import subprocess
from typing import Dict, List, Optional

from .errors import AXError

#: The environment variable that picks the stack when no option does.
ENV_CHOICE = "AXSERVER_ORCA"
#: Install-script output is cut to this many characters in error messages.
_MESSAGE_LIMIT = 1500


class OrcaStackUnavailable(AXError):
    """The chosen Orca stack is not installed and could not be installed (the message says what is missing)."""


class OrcaStack:
    """One Orca and the AT-SPI daemons it runs on."""

    def __init__(self, name: str, orca: str, prefix: Optional[str] = None,
                 exports: Optional[Dict[str, str]] = None) -> None:
        #: ``"orca-43"`` or ``"orca-48"``: also the speech preview's ``screenReader`` value.
        self.name = name
        #: The Orca launcher to run.
        self.orca = orca
        #: The install prefix (None: the system's stack).
        self.prefix = prefix
        #: The prefix's variables (LD_LIBRARY_PATH, GI_TYPELIB_PATH, PYTHONPATH, XDG_DATA_DIRS, ...).
        self.exports: Dict[str, str] = dict(exports or {})

    def __repr__(self) -> str:
        return "OrcaStack(%s, %s)" % (self.name, self.prefix or "system")

    @property
    def uses_device_model(self) -> bool:
        """Orca ≥ 48 on libatspi ≥ 2.55: keys come from an ``Atspi.Device``, not registry keystroke listeners."""
        return self.prefix is not None

    @property
    def a11y_stack_args(self) -> List[str]:
        """Extra ``Tools/a11y-stack.sh start`` options: the prefix's bus launcher and registry."""
        root = self.exports.get("AXSERVER_ATSPI_ROOT")
        return ["--atspi-root", root] if root else []

    def server_env(self) -> Dict[str, str]:
        """What the server's environment gains: on the device model it claims the private bus's keyboard monitor."""
        return {"AXSERVER_A11Y_KEYBOARD_MONITOR": "1"} if self.uses_device_model else {}

    def orca_command(self) -> List[str]:
        return [self.orca]

    def orca_env(self, env: Dict[str, str], keys_from_x: bool = False) -> Dict[str, str]:
        """``env`` with this stack's libraries and typelibs first; on the device model, the a11y-manager device
        unless the app under test reads its keys from X (then Orca 48's X11 device sees them there)."""
        merged = dict(env)
        for key in ("LD_LIBRARY_PATH", "GI_TYPELIB_PATH", "PYTHONPATH", "XDG_DATA_DIRS"):
            value = self.exports.get(key)
            if value:
                rest = env.get(key) or ("/usr/local/share:/usr/share" if key == "XDG_DATA_DIRS" else "")
                merged[key] = value + (os.pathsep + rest if rest else "")
        if self.uses_device_model and not keys_from_x:
            merged["ATSPI_USE_A11Y_MANAGER_DEVICE"] = "1"
        else:
            merged.pop("ATSPI_USE_A11Y_MANAGER_DEVICE", None)
        return merged


#: The role words the two Orcas say differently (D-SPEECH-3; Specs/python-client.md "Across Orca versions"), by
#: :attr:`OrcaStack.name`: PUSH_BUTTON is "button" in libatspi 2.56's localized role names (Orca 43 on 2.46 says
#: "push button"); a switch (TOGGLE_BUTTON with ``xml-roles: switch``) is "switch" for Orca 48's
#: ``AXUtilitiesRole.is_switch``. For an assertion that holds on both: ``ROLE_WORDS[reader.version]["switch"]``.
ROLE_WORDS: Dict[str, Dict[str, str]] = {
    "orca-43": {"push button": "push button", "switch": "toggle button"},
    "orca-48": {"push button": "button", "switch": "switch"},
}

#: The bus name libatspi's a11y-manager device requests for Orca just before it calls WatchKeyboard
#: (``atspi-device-a11y-manager.c``: ``<app id>.KeyboardMonitor``, app id ``org.gnome.Orca``).
ORCA_MONITOR_NAME = "org.gnome.Orca.KeyboardMonitor"


def watching_keyboard(env: Dict[str, str]) -> bool:
    """Whether Orca's a11y-manager device is up on the session bus of ``env`` (then keys the server delivers reach
    it; Orca 48 says "Screen reader on" before it starts watching keys)."""
    try:
        done = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                               "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                               "string:" + ORCA_MONITOR_NAME], capture_output=True, text=True, timeout=5, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and "boolean true" in done.stdout


def system_stack() -> OrcaStack:
    """Debian 12's Orca 43 on the system's at-spi2-core (the default)."""
    return OrcaStack("orca-43", "orca")


def _repo_root() -> Optional[str]:
    """The checkout this package lives in (Sources/PythonClient/axclient → the repository), if it is one."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    return root if os.path.isfile(os.path.join(root, "Tools", "install-orca48.sh")) else None


def _read_env_file(path: str) -> Dict[str, str]:
    """The ``export NAME='value'`` lines of the prefix's env.sh, with ``${NAME:+:$NAME}`` tails dropped (the
    caller appends the current value itself)."""
    exports: Dict[str, str] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.startswith("export ") or "=" not in line:
                continue
            key, value = line[len("export "):].strip().split("=", 1)
            value = value.split("${", 1)[0].split(":${", 1)[0]
            exports[key] = value.strip("'").rstrip(":").strip("'")
    return exports


def _install_48(prefix: Optional[str]) -> str:
    """Runs ``Tools/install-orca48.sh`` (a no-op when present); returns the prefix."""
    root = _repo_root()
    script = os.environ.get("AXSERVER_ORCA48_INSTALL") or (os.path.join(root, "Tools", "install-orca48.sh")
                                                           if root else None)
    if prefix and os.path.isfile(os.path.join(prefix, "READY")):
        return prefix
    if script is None or not os.path.isfile(script):
        raise OrcaStackUnavailable("the Orca 48 stack is not installed%s and Tools/install-orca48.sh was not found "
                                   "(run it from an AXServer checkout, or set AXSERVER_ORCA48_PREFIX)"
                                   % (" in %s" % prefix if prefix else ""))
    env = dict(os.environ)
    if prefix:
        env["AXSERVER_ORCA48_PREFIX"] = prefix
    try:
        done = subprocess.run([script], capture_output=True, text=True, timeout=300, env=env)
    except subprocess.TimeoutExpired:
        raise OrcaStackUnavailable("Tools/install-orca48.sh did not finish within 300 s") from None
    if done.returncode != 0:
        raise OrcaStackUnavailable("Tools/install-orca48.sh failed: %s" % done.stderr.strip()[-_MESSAGE_LIMIT:])
    return prefix or os.path.join(root or "", ".build", "orca48")


def _prefix_stack(prefix: str) -> OrcaStack:
    env_file = os.path.join(prefix, "env.sh")
    orca = os.path.join(prefix, "bin", "orca")
    for needed in (env_file, orca, os.path.join(prefix, "READY")):
        if not os.path.exists(needed):
            raise OrcaStackUnavailable("%s is missing: %s is not a complete Orca 48 prefix (Tools/install-orca48.sh "
                                       "makes one)" % (needed, prefix))
    exports = _read_env_file(env_file)
    root = exports.get("AXSERVER_ATSPI_ROOT", "")
    for daemon in ("at-spi-bus-launcher", "at-spi2-registryd"):
        if not os.access(os.path.join(root, "usr", "libexec", daemon), os.X_OK):
            raise OrcaStackUnavailable("%s/usr/libexec/%s is missing (reinstall: rm -rf %s; Tools/install-orca48.sh)"
                                       % (root, daemon, prefix))
    return OrcaStack("orca-48", orca, prefix, exports)


def resolve(choice: Optional[str] = None) -> OrcaStack:
    """The stack for ``choice`` (``"43"``, ``"48"``, a prefix path, or None: ``$AXSERVER_ORCA``, else 43)."""
    if choice is None:
        choice = os.environ.get(ENV_CHOICE) or "43"
    choice = str(choice).strip()
    if choice in ("43", "system", "orca-43"):
        return system_stack()
    if choice in ("48", "orca-48"):
        return _prefix_stack(_install_48(os.environ.get("AXSERVER_ORCA48_PREFIX")))
    if os.path.isdir(choice):
        return _prefix_stack(os.path.abspath(choice))
    raise OrcaStackUnavailable("unknown Orca stack %r: use 43 (the system's), 48 (Tools/install-orca48.sh) or the "
                               "path of an install-orca48 prefix" % choice)
