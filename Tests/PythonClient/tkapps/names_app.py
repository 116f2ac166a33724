"""Names the label rule must find in common layouts (knows nothing of AXServer): a Text packed in a Frame with its
Scrollbar under a caption Label, a Listbox in a LabelFrame with its Scrollbar, padded texts, an icon-only button
whose image comes from a file, and an entry packed right to left after its caption. Prints "ready"."""
import os
import tempfile
import tkinter as tk

root = tk.Tk()
root.title("Names")
root.geometry("480x420+0+0")
tk.Label(root, text="Notes:").pack(anchor="w")
frame = tk.Frame(root)
frame.pack(fill="x")
notes = tk.Text(frame, height=4, width=40)
bar = tk.Scrollbar(frame, command=notes.yview)
notes.configure(yscrollcommand=bar.set)
bar.pack(side="right", fill="y")
notes.pack(side="left", fill="both")
box = tk.LabelFrame(root, text="Recent files")
box.pack(fill="x")
recent = tk.Listbox(box, height=3)
recent.insert("end", "a.txt", "b.txt")
recent.pack(side="left")
tk.Scrollbar(box, command=recent.yview).pack(side="right", fill="y")
tk.Button(root, text="  START  ").pack()
tk.Label(root, text=" Ready ").pack()
icon_path = os.path.join(tempfile.mkdtemp(prefix="names-app-"), "document-save.ppm")
with open(icon_path, "wb") as icon_file:
    icon_file.write(b"P6 2 2 255\n" + bytes([0, 0, 0]) * 4)
icon = tk.PhotoImage(file=icon_path)
tk.Button(root, image=icon).pack()
pager = tk.Frame(root)
pager.pack(fill="x")
tk.Label(pager, text="of 9").pack(side="right")
tk.Entry(pager, width=4).pack(side="right")
tk.Label(pager, text="Page").pack(side="right")
from tkinter import ttk  # noqa: E402
pages = ttk.Notebook(root)
pages.pack(fill="x")
page = ttk.Frame(pages)
tk.Text(page, height=2, width=30).pack(side="left")
ttk.Scrollbar(page).pack(side="right", fill="y")
tk.Button(page, text="Run").pack()
pages.add(page, text="Shell")
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
