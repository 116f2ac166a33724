"""A Treeview table of N rows (argv[1], default 10,000) and a label; stdin-free, knows nothing of AXServer.

Buttons: "Rename row 5" changes one row's values, "Add row" appends one, "Relabel" changes the label."""
import sys
import time
import tkinter as tk
from tkinter import ttk

rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
root = tk.Tk()
root.title("Tree App")
root.geometry("600x500+0+0")
status = tk.Label(root, text="Label 0", name="status")
status.pack(anchor="w")
if "own-label" in sys.argv[2:]:
    # The table gets its own caption (the label rule: the Label packed just before it), so a status change
    # does not relabel the table.
    tk.Label(root, text="Files", name="caption").pack(anchor="w")
tree = ttk.Treeview(root, columns=("name", "size"), show="headings", name="table", height=15)
tree.heading("name", text="Name")
tree.heading("size", text="Size")
started = time.perf_counter()
for index in range(rows):
    tree.insert("", "end", iid="r%d" % index, values=("file%d" % index, index))
tree.pack(fill="both", expand=True)
counter = {"n": 0}


def relabel():
    counter["n"] += 1
    status.configure(text="Label %d" % counter["n"])


def rename():
    tree.item("r5", values=("renamed", 5))


tk.Button(root, text="Relabel", command=relabel, name="relabel").pack(side="left")
tk.Button(root, text="Rename row 5", command=rename, name="rename").pack(side="left")
tk.Button(root, text="Add row", command=lambda: tree.insert("", "end", iid="new", values=("added", 0)),
          name="add").pack(side="left")
if "tick" in sys.argv[2:]:
    def tick():
        relabel()
        print("tick %d %.6f" % (counter["n"], time.time()), flush=True)
        if counter["n"] < 40:
            root.after(150, tick)
    root.after(1000, tick)
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
