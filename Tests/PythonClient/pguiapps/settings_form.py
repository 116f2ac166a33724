"""A pygame_gui settings form that knows nothing of AXServer: name, password, volume, theme, newsletter, Save
(status label) and Reset… (a confirmation dialog). Tab / Shift+Tab move pygame_gui's focus through the controls,
Space / Return press the focused button or toggle the focused check box, Left / Right move the focused slider,
Escape closes the dialog — the app's own keyboard handling.
Prints one stdout line per event (the tests read them), "ready" after the first frame."""
import sys

import pygame
import pygame_gui
from pygame_gui.elements import (UIButton, UICheckBox, UIDropDownMenu, UIHorizontalSlider, UILabel, UIProgressBar,
                                 UITextEntryLine)
from pygame_gui.windows import UIConfirmationDialog


def say(*words):
    print(*words, flush=True)


def open_dialog(manager):
    dialog = UIConfirmationDialog(pygame.Rect(160, 100, 300, 200), "Reset every setting?", manager,
                                  window_title="Reset settings", object_id="#confirm")
    say("dialog open")
    return dialog


def main():
    pygame.init()
    screen = pygame.display.set_mode((640, 420))
    pygame.display.set_caption("Settings")
    manager = pygame_gui.UIManager((640, 420))
    UILabel(pygame.Rect(20, 20, 100, 30), "Name:", manager)
    name = UITextEntryLine(pygame.Rect(130, 20, 220, 30), manager, object_id="#name", initial_text="Ada")
    UILabel(pygame.Rect(20, 60, 100, 30), "Password:", manager)
    password = UITextEntryLine(pygame.Rect(130, 60, 220, 30), manager, object_id="#password")
    password.set_text_hidden(True)
    password.set_text("hunter2")
    UILabel(pygame.Rect(20, 100, 100, 30), "Volume", manager)
    volume = UIHorizontalSlider(pygame.Rect(130, 100, 220, 30), 50, (0, 100), manager, object_id="#volume",
                                click_increment=5)
    UILabel(pygame.Rect(20, 140, 100, 30), "Theme", manager)
    theme = UIDropDownMenu(["Light", "Dark", "High contrast"], "Light", pygame.Rect(130, 140, 220, 30), manager,
                           object_id="#theme")
    news = UICheckBox(pygame.Rect(130, 180, 20, 20), "Newsletter", manager, object_id="#news")
    save = UIButton(pygame.Rect(130, 220, 100, 30), "Save", manager, object_id="#save")
    reset = UIButton(pygame.Rect(240, 220, 110, 30), "Reset…", manager, object_id="#reset")
    disabled = UIButton(pygame.Rect(360, 220, 100, 30), "Export", manager, object_id="#export")
    disabled.disable()
    status = UILabel(pygame.Rect(20, 270, 400, 30), "Not saved", manager, object_id="#status")
    UILabel(pygame.Rect(20, 310, 100, 24), "Upload", manager)
    bar = UIProgressBar(pygame.Rect(130, 310, 220, 24), manager, object_id="#progress")
    bar.set_current_progress(40)
    order = [name, password, volume, theme, news, save, reset]
    dialog = None
    clock = pygame.time.Clock()
    first = True
    running = True
    while running:
        delta = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            if event.type == pygame.KEYDOWN:
                say("key", pygame.key.name(event.key))
            if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and dialog is None:
                focused = [e for e in order if e in (manager.get_focus_set() or ())]
                index = order.index(focused[0]) if focused else -1
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                manager.set_focus_set(order[(index + step) % len(order)])
                continue
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and dialog is not None:
                dialog.kill()
                dialog = None
                manager.set_focus_set(reset)
                say("dialog closed")
                continue
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN) and dialog is None:
                focused = [e for e in order if e in (manager.get_focus_set() or ())]
                if focused and focused[0] is save:
                    status.set_text("Saved %s" % name.get_text())
                    say("saved", name.get_text())
                    continue
                if focused and focused[0] is news:
                    news.set_state(not news.get_state())
                    say("news", news.get_state())
                    continue
                if focused and focused[0] is reset:
                    dialog = open_dialog(manager)
                    continue
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_LEFT, pygame.K_RIGHT) \
                    and volume in (manager.get_focus_set() or ()):
                volume.set_current_value(volume.get_current_value() + (5 if event.key == pygame.K_RIGHT else -5))
                say("volume", volume.get_current_value())
                continue
            manager.process_events(event)
            if event.type == pygame_gui.UI_BUTTON_PRESSED:
                if event.ui_element is save:
                    status.set_text("Saved %s" % name.get_text())
                    say("saved", name.get_text())
                elif event.ui_element is reset:
                    dialog = open_dialog(manager)
            elif event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED:
                name.set_text("")
                status.set_text("Reset")
                say("reset")
            elif event.type == pygame_gui.UI_WINDOW_CLOSE and event.ui_element is dialog:
                dialog = None
                say("dialog closed")
            elif event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED:
                say("volume", event.value)
            elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
                say("theme", event.text)
            elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
                say("text", "*" * len(event.text) if event.ui_element is password else event.text)
            elif event.type in (pygame_gui.UI_CHECK_BOX_CHECKED, pygame_gui.UI_CHECK_BOX_UNCHECKED):
                say("news", news.get_state())
        manager.update(delta)
        screen.fill((30, 30, 40))
        manager.draw_ui(screen)
        pygame.display.flip()
        if first:
            first = False
            say("ready")
    pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
