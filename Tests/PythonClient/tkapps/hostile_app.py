"""A Tk app that misbehaves: a callback that raises, one that blocks the main loop, one that destroys its own
button, one that opens 50 toplevels, and one that quits. Knows nothing of AXServer."""
import time
import tkinter as tk

root = tk.Tk()
root.title("Hostile App")
root.geometry("400x300+0+0")
state = tk.Label(root, text="idle", name="state")
state.pack()


def boom():
    state.configure(text="about to raise")
    raise RuntimeError("callback failed on purpose")


def block():
    print("event: blocking", flush=True)
    time.sleep(float(block_seconds.get()))
    state.configure(text="unblocked")
    print("event: unblocked", flush=True)


def vanish():
    gone.destroy()
    state.configure(text="vanished")


def many():
    for index in range(50):
        window = tk.Toplevel(root, name="w%d" % index)
        window.title("Window %d" % index)
        tk.Label(window, text="Label in window %d" % index).pack()
    state.configure(text="50 windows")


block_seconds = tk.StringVar(value="6")
tk.Button(root, text="Raise", command=boom, name="raise").pack()
tk.Button(root, text="Block", command=block, name="block").pack()
gone = tk.Button(root, text="Vanish", command=vanish, name="vanish")
gone.pack()
tk.Button(root, text="Many windows", command=many, name="many").pack()
tk.Button(root, text="Quit", command=root.destroy, name="quit").pack()
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
print("event: exit", flush=True)
