"""The Tk adapter's opt-in text scaling (D-SET-4): a Tk app that calls TextScaling(root).follow(provider) scales
its named fonts by the desktop's text-scaling factor, read by the real server from a private GSettings keyfile
backend and changed with the real gsettings tool; an app that does not opt in keeps its sizes."""
import os
import shutil
import subprocess
import tempfile
import time

import pytest

from axclient import Provider, ServerProcess
from tk_support import xvfb_display  # noqa: F401

GSETTINGS = shutil.which("gsettings")
pytestmark = pytest.mark.skipif(GSETTINGS is None, reason="gsettings (libglib2.0-bin) is not installed")


def test_text_scaling_follows_the_setting_only_when_the_app_opts_in(xvfb_display, monkeypatch):  # noqa: F811
    import tkinter
    import tkinter.font

    from axclient.tk.settings import TextScaling, clamp_factor, scaled_size

    directory = tempfile.mkdtemp(prefix="ax-tk-settings-")
    env = dict(os.environ, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=os.path.join(directory, "config"))
    server = ServerProcess(demo=False, env=env)
    monkeypatch.setenv("DISPLAY", xvfb_display)
    root = tkinter.Tk()
    other = tkinter.Tk()
    provider = Provider("tk-scaling", server.socket)
    try:
        default = tkinter.font.nametofont("TkDefaultFont", root=root)
        base = default.cget("size")
        other_base = tkinter.font.nametofont("TkDefaultFont", root=other).cget("size")
        scaling = TextScaling(root)
        scaling.follow(provider)
        assert default.cget("size") == base  # factor 1 at start
        subprocess.run([GSETTINGS, "set", "org.gnome.desktop.interface", "text-scaling-factor", "2.0"], env=env,
                       check=True, timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and default.cget("size") == base:
            root.update()
            time.sleep(0.02)
        assert default.cget("size") == scaled_size(base, 2.0)
        other.update()
        assert tkinter.font.nametofont("TkDefaultFont", root=other).cget("size") == other_base
        # Hostile factors fall back to 1 (GNOME's range is 0.5…3).
        assert [clamp_factor(v) for v in (float("nan"), -1, 9, "x", None, 1.5)] == [1.0, 1.0, 1.0, 1.0, 1.0, 1.5]
        assert scaled_size(-12, 1.5) == -18 and scaled_size(0, 2) == 0 and scaled_size(1, 0.5) == 1
    finally:
        provider.close()
        other.destroy()
        root.destroy()
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)
