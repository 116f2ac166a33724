"""axclient.pygame_gui's walk in process (the real pygame_gui, SDL's dummy driver, no server): a rebuild with
nothing touched reuses every view (the same dicts: the kit's diff skips them), and every kind of change the app
can make — a text deep in a panel, a label that names a control, focus, a killed or added element, a hidden
panel, a moved panel, the window stack — is in the next walk (Specs/pygame-gui-adapter.md §Live)."""
import os
import subprocess
import sys

from pgui_support import needs_pgui
from tk_support import PACKAGE_DIR

pytestmark = [needs_pgui]

SCRIPT = r"""
import os
os.environ["SDL_VIDEODRIVER"] = "dummy"
import pygame, pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel, UITextEntryLine, UIWindow
from axclient.pygame_gui.walker import Mirror
pygame.init(); pygame.display.set_mode((800, 600))
manager = pygame_gui.UIManager((800, 600))
panel = UIPanel(pygame.Rect(10, 10, 300, 300), manager=manager, object_id="#panel")
buttons = [UIButton(pygame.Rect(5, 5 + 30 * i, 100, 25), "B%d" % i, manager, container=panel, object_id="#b%d" % i)
           for i in range(5)]
caption = UILabel(pygame.Rect(350, 10, 80, 30), "Name", manager)
entry = UITextEntryLine(pygame.Rect(440, 10, 150, 30), manager, object_id="#entry")
mirror = Mirror(manager, name="t", address="/nonexistent/ax.sock", retry_interval=60)
def walk():
    props, children = mirror.build()
    return props, children
def check(name, condition):
    print(name, "ok" if condition else "FAILED")
first, _ = walk()
second, _ = walk()
check("untouched views are the same dicts", all(second[k] is first[k] for k in first if k != "screen"))
buttons[3].set_text("Changed")
third, _ = walk()
check("a text deep in a panel", third["screen/panel/b3"]["title"] == "Changed")
check("its siblings are reused", third["screen/panel/b2"] is first["screen/panel/b2"])
caption.set_text("Full name:")
fourth, _ = walk()
check("a label renames the control beside it", fourth["screen/entry"].get("accessibilityLabel") == "Full name")
manager.set_focus_set(buttons[1])
fifth, _ = walk()
check("focus", fifth["screen/panel/b1"].get("isFocused") is True and mirror.focused_view == "screen/panel/b1")
manager.set_focus_set(entry)
sixth, _ = walk()
check("focus moves", "isFocused" not in sixth["screen/panel/b1"] and sixth["screen/entry"].get("isFocused"))
buttons[0].kill()
UIButton(pygame.Rect(5, 200, 100, 25), "New", manager, container=panel, object_id="#new")
seventh, children = walk()
check("killed and added", "screen/panel/b0" not in seventh and seventh["screen/panel/new"]["title"] == "New")
panel.hide()
eighth, _ = walk()
check("a hidden panel", eighth["screen/panel"].get("isHidden") and eighth["screen/panel/b1"].get("isHidden"))
panel.show()
panel.set_position((50, 60))
ninth, _ = walk()
check("a moved panel", ninth["screen/panel"]["frame"][:2] == [50, 60])
one = UIWindow(pygame.Rect(100, 100, 200, 150), manager, window_display_title="One")
two = UIWindow(pygame.Rect(150, 150, 200, 150), manager, window_display_title="Two")
_, children = walk()
check("windows in stack order", [w for w in children[None] if w.startswith("win/")] == ["win/window0", "win/window1"])
manager.get_window_stack().move_window_to_front(one)
props, children = walk()
check("the window stack", children[None][-1] == "win/window0" and props["win/window0"].get("isKeyWindow")
      and not props["win/window1"].get("isKeyWindow"))
"""


def test_the_walk_reuses_untouched_views_and_sees_every_change():
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
                                  PYTHONPATH=PACKAGE_DIR))
    lines = [line for line in out.stdout.splitlines() if line.endswith(("ok", "FAILED"))]
    assert len(lines) == 11 and all(line.endswith(" ok") for line in lines), out.stdout + out.stderr[-3000:]
