"""A pygame_gui list app that knows nothing of AXServer: a fruit list with selection (UISelectionList), a notes
box (UITextEntryBox), tabs (UITabContainer), a logo image with a tool tip, a status bar and a "Details…" button
opening a details window (UIWindow) with its own button. Up / Down move the list's selection (the app's own
keys). Prints one stdout line per event; "ready" after the first frame."""
import sys

import pygame
import pygame_gui
from pygame_gui.elements import (UIButton, UIImage, UILabel, UISelectionList, UITabContainer, UITextEntryBox,
                                 UIWindow)

FRUITS = ["Apple", "Banana", "Cherry", "Damson", "Elderberry", "Fig", "Grape", "Huckleberry", "Kiwi", "Lemon"]


def say(*words):
    print(*words, flush=True)


def main():
    pygame.init()
    screen = pygame.display.set_mode((720, 480))
    pygame.display.set_caption("Fruit list")
    manager = pygame_gui.UIManager((720, 480))
    UILabel(pygame.Rect(20, 10, 200, 24), "Fruits", manager)
    fruits = UISelectionList(pygame.Rect(20, 40, 200, 130), FRUITS, manager, object_id="#fruits")
    chosen = UILabel(pygame.Rect(20, 180, 150, 24), "Selected: none", manager, object_id="#chosen")
    details = UIButton(pygame.Rect(240, 40, 120, 30), "Details…", manager, object_id="#details")
    UILabel(pygame.Rect(240, 90, 200, 24), "Notes", manager)
    notes = UITextEntryBox(pygame.Rect(240, 120, 250, 100), "first line\nsecond line\nthird line", manager,
                           object_id="#notes")
    logo_surface = pygame.Surface((48, 48))
    logo_surface.fill((200, 40, 40))
    logo = UIImage(pygame.Rect(520, 40, 48, 48), logo_surface, manager, object_id="#logo")
    logo.set_tooltip("Fruit shop logo")
    UIImage(pygame.Rect(580, 40, 48, 48), logo_surface, manager, object_id="#decoration")
    tabs = UITabContainer(pygame.Rect(20, 240, 400, 180), manager, object_id="#tabs")
    general = tabs.add_tab("General", "#general_tab")
    tabs.add_tab("Advanced", "#advanced_tab")
    UIButton(pygame.Rect(10, 10, 160, 30), "Sort by name", manager, container=tabs.get_tab_container(general),
             object_id="#sort")
    UIButton(pygame.Rect(10, 10, 160, 30), "Clear cache", manager, container=tabs.get_tab_container(1),
             object_id="#clear")
    window = None
    clock = pygame.time.Clock()
    first = True
    running = True
    while running:
        delta = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_UP, pygame.K_DOWN) and not notes.is_focused:
                current = fruits.get_single_selection()
                index = FRUITS.index(current) if current in FRUITS else -1
                index = min(max(index + (1 if event.key == pygame.K_DOWN else -1), 0), len(FRUITS) - 1)
                fruits.set_item_list(FRUITS)
                fruits.item_list[index]["selected"] = True
                fruits.item_list[index]["button_element"].select()
                chosen.set_text("Selected: %s" % FRUITS[index])
                say("selected", FRUITS[index])
                continue
            manager.process_events(event)
            if event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and event.ui_element is fruits:
                chosen.set_text("Selected: %s" % event.text)
                say("selected", event.text)
            elif event.type == pygame_gui.UI_BUTTON_PRESSED:
                if event.ui_element is details and window is None:
                    window = UIWindow(pygame.Rect(300, 120, 320, 200), manager, window_display_title="Details",
                                      object_id="#details_window")
                    UILabel(pygame.Rect(10, 10, 280, 24), "Fresh fruit daily", manager, container=window)
                    UIButton(pygame.Rect(10, 50, 140, 30), "Order now", manager, container=window,
                             object_id="#order")
                    say("window open")
                elif getattr(event.ui_element, "object_ids", [None])[-1] == "#order":
                    say("ordered")
                elif getattr(event.ui_element, "object_ids", [None])[-1] == "#sort":
                    say("sorted")
                elif getattr(event.ui_element, "object_ids", [None])[-1] == "#clear":
                    say("cleared")
            elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is window:
                window = None
                say("window closed")
            elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is notes:
                say("notes", repr(notes.get_text()))
        manager.update(delta)
        screen.fill((20, 40, 30))
        manager.draw_ui(screen)
        pygame.display.flip()
        if first:
            first = False
            say("ready")
    pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
