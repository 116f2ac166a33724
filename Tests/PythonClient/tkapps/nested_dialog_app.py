"""A Tk app whose modal dialog runs the way Thonny's show_dialog does (knows nothing of AXServer): a menu entry
opens a Toplevel, grabs, waits in ``wait_window``; when the dialog's Cancel destroys it the opener releases the
grab, lifts and ``focus_force``s the main window and grabs it again. Prints "ready" and "event: ..." lines."""
import tkinter as tk
from tkinter import ttk

root = tk.Tk()
root.title("Nested dialog")
root.geometry("360x200+0+0")


def log(*parts):
    print("event:", *parts, flush=True)


def show_options():
    dialog = tk.Toplevel(root, name="options")
    dialog.title("Options")
    ttk.Label(dialog, text="Nothing to set").pack()
    ttk.Entry(dialog, name="value").pack()
    ttk.Button(dialog, text="Cancel", name="cancel", command=dialog.destroy).pack()
    dialog.transient(root)
    dialog.wait_visibility()
    dialog.grab_set()
    dialog.focus_set()
    dialog.wait_window(dialog)
    dialog.grab_release()
    root.lift()
    root.focus_force()
    root.grab_set()
    root.grab_release()
    log("options closed")


menubar = tk.Menu(root)
tools = tk.Menu(menubar, tearoff=0)
tools.add_command(label="Options...", command=show_options)
menubar.add_cascade(label="Tools", menu=tools)
root.config(menu=menubar)
ttk.Button(root, text="Options", name="open", command=show_options).pack()
ttk.Entry(root, name="main").pack()
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
