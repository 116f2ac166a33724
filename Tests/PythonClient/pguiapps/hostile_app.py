"""A pygame_gui app that is hard on an adapter, knowing nothing of AXServer: "Stall" blocks its loop for 6 s,
"Replace" moves to a new UIManager (the old one is never drawn again), "Popups" opens 50 windows, "Kill" kills the
"Victim" button. Prints one stdout line per event; "ready" after the first frame."""
import sys
import time

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel, UIWindow


def say(*words):
    print(*words, flush=True)


def main():
    pygame.init()
    screen = pygame.display.set_mode((800, 600))
    pygame.display.set_caption("Hostile")
    manager = pygame_gui.UIManager((800, 600))
    buttons = {}
    for index, name in enumerate(("Stall", "Replace", "Popups", "Kill", "Victim")):
        buttons[name] = UIButton(pygame.Rect(20, 20 + 40 * index, 120, 30), name, manager,
                                 object_id="#" + name.lower())
    state = UILabel(pygame.Rect(20, 240, 300, 30), "idle", manager, object_id="#state")
    clock = pygame.time.Clock()
    first = True
    running = True
    while running:
        delta = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            manager.process_events(event)
            if event.type != pygame_gui.UI_BUTTON_PRESSED:
                continue
            if event.ui_element is buttons.get("Stall"):
                say("stalling")
                time.sleep(6)
                state.set_text("unstalled")
                say("unstalled")
            elif event.ui_element is buttons.get("Replace"):
                manager = pygame_gui.UIManager((800, 600))
                buttons = {"Second": UIButton(pygame.Rect(20, 20, 160, 30), "Second screen", manager,
                                              object_id="#second")}
                state = UILabel(pygame.Rect(20, 60, 300, 30), "replaced", manager, object_id="#state2")
                say("replaced")
            elif event.ui_element is buttons.get("Popups"):
                for number in range(50):
                    popup = UIWindow(pygame.Rect(300 + number * 4, 40 + number * 4, 240, 140), manager,
                                     window_display_title="Popup %d" % number)
                    UILabel(pygame.Rect(10, 10, 200, 24), "Label in popup %d" % number, manager, container=popup)
                state.set_text("50 popups")
                say("popups")
            elif event.ui_element is buttons.get("Kill"):
                buttons.pop("Victim").kill()
                state.set_text("victim killed")
                say("killed")
            elif event.ui_element is buttons.get("Victim"):
                say("victim pressed")
            elif event.ui_element is buttons.get("Second"):
                say("second pressed")
        manager.update(delta)
        screen.fill((40, 20, 20))
        manager.draw_ui(screen)
        pygame.display.flip()
        if first:
            first = False
            say("ready")
    pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
