"""A pygame_gui app with many elements, for Tools/bench_pgui.py (knows nothing of AXServer): COUNT elements (half
buttons, half labels) in 10 panels; ``--change-every MS`` sets the "ticker" label's text every MS milliseconds and
prints "changed <time.time()>" just before; ``--quit-after-ready`` quits after the first frame. Prints "ready"
after the first frame."""
import sys
import time

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIPanel


def build(manager, count):
    """COUNT elements in 10 panels and the ticker label (returned)."""
    per_panel = max(1, count // 10)
    made = 0
    for panel_index in range(10):
        panel = UIPanel(pygame.Rect(10 + (panel_index % 5) * 236, 10 + (panel_index // 5) * 440, 230, 430),
                        manager=manager)
        for index in range(per_panel):
            if made >= count:
                break
            rect = pygame.Rect(2 + (index % 4) * 56, 2 + (index // 4) * 8, 54, 8)
            if index % 2:
                UIButton(rect, "B%d" % made, manager, container=panel)
            else:
                UILabel(rect, "L%d" % made, manager, container=panel)
            made += 1
    return UILabel(pygame.Rect(10, 880, 300, 18), "tick 0", manager, object_id="#ticker")


def main():
    args = sys.argv[1:]
    count = int(args[0]) if args and args[0].isdigit() else 1000
    every = float(args[args.index("--change-every") + 1]) / 1000.0 if "--change-every" in args else 0.0
    pygame.init()
    screen = pygame.display.set_mode((1200, 900))
    pygame.display.set_caption("Many")
    manager = pygame_gui.UIManager((1200, 900))
    ticker = build(manager, count)
    clock = pygame.time.Clock()
    first = True
    ticks = 0
    next_change = time.monotonic() + 1.0
    while True:
        delta = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return 0
            manager.process_events(event)
        if every and time.monotonic() >= next_change:
            next_change += every
            ticks += 1
            print("changed %.6f" % time.time(), flush=True)
            ticker.set_text("tick %d" % ticks)
        manager.update(delta)
        screen.fill((0, 0, 0))
        manager.draw_ui(screen)
        pygame.display.flip()
        if first:
            first = False
            print("ready", flush=True)
            if "--quit-after-ready" in args:
                return 0


if __name__ == "__main__":
    sys.exit(main())
