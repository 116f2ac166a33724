"""A headless use of Kivy (no window provider: KIVY_WINDOW names none that exists, as in a CI job without a display)
that still calls ``axclient.kivy.mirror()``: the adapter must say why it mirrors nothing and let the program go on."""
import axclient.kivy

result = axclient.kivy.mirror(None)
print("mirror returned %r" % (result,), flush=True)
print("still running", flush=True)
