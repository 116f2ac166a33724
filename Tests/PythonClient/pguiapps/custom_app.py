"""A pygame_gui app that mirrors itself (``axclient.pygame_gui.mirror(manager)``, no runner) and registers
adapters for its own element classes: a fuel ``Gauge`` (a UIImage the app draws) maps as a progress view, and a
``Fancy`` button whose adapter raises (a bug in the app's adapter: the mirror shows a generic view and says so
once on stderr). Prints "ready" after the first frame; "fuel N" when Space lowers the gauge."""
import sys

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage

import axclient.pygame_gui


class Gauge(UIImage):
    """A fuel gauge the app draws itself."""

    def __init__(self, rect, manager):
        super().__init__(rect, pygame.Surface(rect.size), manager)
        self.value = 80
        self.redraw()

    def redraw(self):
        surface = pygame.Surface(self.rect.size)
        surface.fill((20, 20, 20))
        surface.fill((40, 200, 40), pygame.Rect(0, 0, self.rect.width * self.value // 100, self.rect.height))
        self.set_image(surface)


class Fancy(UIButton):
    """A button with an adapter that fails."""


def gauge_view(walker, element):
    return {"class": "UIProgressView", "progress": element.value / 100.0, "accessibilityLabel": "Fuel"}


def broken_view(walker, element):
    raise RuntimeError("this adapter is broken on purpose")


def main():
    pygame.init()
    screen = pygame.display.set_mode((400, 200))
    pygame.display.set_caption("Custom")
    manager = pygame_gui.UIManager((400, 200))
    axclient.pygame_gui.register_adapter(Gauge, gauge_view)
    axclient.pygame_gui.register_adapter(Fancy, broken_view)
    gauge = Gauge(pygame.Rect(20, 20, 200, 20), manager)
    Fancy(pygame.Rect(20, 60, 120, 30), "Fancy", manager, object_id="#fancy")
    UIButton(pygame.Rect(20, 100, 120, 30), "Plain", manager, object_id="#plain")
    axclient.pygame_gui.mirror(manager)
    clock = pygame.time.Clock()
    first = True
    running = True
    while running:
        delta = clock.tick(60) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
                gauge.value -= 10
                gauge.redraw()
                print("fuel", gauge.value, flush=True)
            manager.process_events(event)
        manager.update(delta)
        screen.fill((0, 0, 0))
        manager.draw_ui(screen)
        pygame.display.flip()
        if first:
            first = False
            print("ready", flush=True)
    pygame.quit()


if __name__ == "__main__":
    sys.exit(main())
