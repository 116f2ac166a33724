"""An Orca transcript of IDLE under axclient.tk (run by hand; prints what Orca would have spoken per step):

    python3 Tests/PythonClient/tkapps/orca_idle.py

A private stack (Tools/a11y-stack.sh --xvfb --private-home), `axserver serve` with AT-SPI on it, IDLE run by
`python3 -m axclient.tk -m idlelib` on the stack's Xvfb, the isolated Orca of Tools/orca_capture.sh, and real X keys
(xdotool) into IDLE's window, as a user types. Reuses Tests/Integration/harness.py and orca_transcript.py.
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Integration"))
os.environ.setdefault("AXSERVER_BIN", os.path.join(ROOT, ".build", "debug"))
from harness import A11yStack, start_server  # noqa: E402
from orca_transcript import Orca, XKeys  # noqa: E402

STEPS = [
    ("type a line", ("type", "print(6*7)")),
    ("Return runs it", ("key", "Return")),
    ("Up: back in the text", ("key", "Up")),
    ("Alt+F: File menu", ("key", "alt+f")),
    ("Down", ("key", "Down")),
    ("Escape", ("key", "Escape")),
]


def main():
    stack = A11yStack(xvfb=True, private_home=True)
    server = orca = idle = None
    try:
        server, socket_path, _ = start_server(env=stack.env, atspi=True)
        env = dict(stack.env, AXSERVER_SOCKET=socket_path, HOME=tempfile.mkdtemp(),
                   PYTHONPATH=os.path.join(ROOT, "Sources", "PythonClient"))
        idle = subprocess.Popen([sys.executable, "-m", "axclient.tk", "-m", "idlelib"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        orca = Orca(stack)
        keys = XKeys(stack.env, window_title="IDLE Shell 3.11.7")
        time.sleep(2)
        print("== start\n  " + "\n  ".join(orca.speech()[-6:]))
        for title, (kind, arg) in STEPS:
            mark = len(orca.speech())
            if kind == "type":
                keys.type(arg)
            else:
                subprocess.run(["xdotool", "key", arg], env=stack.env, timeout=10)
            time.sleep(1.5)
            said = orca.speech(mark)
            print("== %s (%s %s)\n  %s" % (title, kind, arg, "\n  ".join(said) if said else "(nothing)"))
    finally:
        if orca is not None:
            orca.stop()
        if idle is not None:
            idle.terminate()
            idle.wait(10)
        if server is not None:
            server.stop()
        stack.stop()


if __name__ == "__main__":
    main()
