"""A Tk app that destroys its first root from a button and builds its real window in a second Tk() (as Thonny's
first-run dialog does); knows nothing of AXServer. Prints "ready" per root and "event: second root"."""
import tkinter as tk

first = tk.Tk()
first.title("Welcome")
tk.Button(first, text="Continue", command=first.destroy).pack()
first.after(10, lambda: print("ready", flush=True))
first.mainloop()

second = tk.Tk()
second.title("Main window")
tk.Label(second, text="Second root").pack()
tk.Button(second, text="Quit", command=second.destroy).pack()
second.after(10, lambda: print("event: second root", flush=True))
second.mainloop()
