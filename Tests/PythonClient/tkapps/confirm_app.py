"""A small unmodified tkinter app with a text field and a modal confirmation dialog (issue 38: the Selenium idiom
suite runs against it as against the demo). It knows nothing of AXServer.

Prints "ready" once its main loop runs and "event: ..." lines for what the user did."""
import tkinter as tk


def log(*parts):
    print("event:", *parts, flush=True)


root = tk.Tk()
root.title("Items")
root.geometry("420x300+0+0")
name = tk.StringVar(value="")
entry = tk.Entry(root, textvariable=name, name="item")
entry.pack(padx=8, pady=8, fill="x")
status = tk.Label(root, text="1 item", name="status")
status.pack(padx=8, pady=4)


def confirm_delete():
    dialog = tk.Toplevel(root, name="confirm")
    dialog.title("Delete item?")
    dialog.transient(root)
    tk.Label(dialog, text="This cannot be undone.", name="message").pack(padx=8, pady=8)

    def close(deleted):
        if deleted:
            status.config(text="0 items")
        log("deleted" if deleted else "kept")
        dialog.grab_release()
        dialog.destroy()

    tk.Button(dialog, text="Cancel", name="cancel", command=lambda: close(False)).pack(side="left", padx=8, pady=8)
    tk.Button(dialog, text="Delete", name="delete", command=lambda: close(True)).pack(side="right", padx=8, pady=8)
    dialog.bind("<Escape>", lambda event: close(False))
    dialog.wait_visibility()
    dialog.grab_set()


tk.Button(root, text="Delete item", name="deleteitem", command=confirm_delete).pack(padx=8, pady=8)
root.after(0, lambda: print("ready", flush=True))
root.mainloop()
