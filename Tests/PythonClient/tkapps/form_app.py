"""A small unmodified tkinter app (classic + ttk widgets) for the axclient.tk tests. It knows nothing of AXServer.

Prints "ready" on stdout once its main loop runs; state changes are printed as "event: ..." lines."""
import sys
import tkinter as tk
from tkinter import ttk


class Gauge(tk.Frame):
    """A custom compound widget with its own Tk class: the mirror shows it as a generic view."""

    def __init__(self, master, **kw):
        super().__init__(master, class_="Gauge", **kw)


def log(*parts):
    print("event:", *parts, flush=True)


root = tk.Tk()
root.title("Form App")
root.geometry("900x980+0+0")

menubar = tk.Menu(root)
file_menu = tk.Menu(menubar, tearoff=0)
wrap = tk.BooleanVar(value=False)
size = tk.StringVar(value="small")
file_menu.add_command(label="Open...", accelerator="Ctrl+O", command=lambda: log("open"))
file_menu.add_checkbutton(label="Wrap lines", variable=wrap, command=lambda: log("wrap", wrap.get()))
file_menu.add_separator()
file_menu.add_radiobutton(label="Small", variable=size, value="small")
file_menu.add_radiobutton(label="Large", variable=size, value="large")
file_menu.add_command(label="Quit", command=root.destroy)
menubar.add_cascade(label="File", menu=file_menu, underline=0)
help_menu = tk.Menu(menubar, tearoff=0)
help_menu.add_command(label="About", command=lambda: log("about"))
menubar.add_cascade(label="Help", menu=help_menu)
root.config(menu=menubar)

form = tk.LabelFrame(root, text="Account", name="account")
form.grid(row=0, column=0, sticky="nw", padx=4, pady=4)
tk.Label(form, text="Name:").grid(row=0, column=0, sticky="w")
name = tk.StringVar(value="Ada")
typed = []
name_entry = tk.Entry(form, textvariable=name, name="name")
name_entry.grid(row=0, column=1)
name_entry.bind("<Key>", lambda e: typed.append(e.keysym))
tk.Label(form, text="Password:").grid(row=1, column=0, sticky="w")
tk.Entry(form, show="*", name="password").grid(row=1, column=1)
tk.Label(form, text="Digits only").grid(row=2, column=1, sticky="w")
digits = tk.Entry(form, name="digits", validate="key",
                  validatecommand=(root.register(lambda p: p.isdigit() or p == ""), "%P"))
digits.grid(row=3, column=1)
news = tk.IntVar(value=0)
tk.Checkbutton(form, text="Newsletter", variable=news, name="news",
               command=lambda: log("news", news.get())).grid(row=4, column=0, columnspan=2, sticky="w")
color = tk.StringVar(value="red")
for index, value in enumerate(("red", "green", "blue")):
    tk.Radiobutton(form, text=value.title(), variable=color, value=value,
                   name="color_" + value).grid(row=5, column=index, sticky="w")
status = tk.StringVar(value="Not submitted")
tk.Label(root, textvariable=status, name="status").grid(row=1, column=0, sticky="w")
count = {"n": 0}


def submit():
    count["n"] += 1
    status.set("Submitted %d as %s" % (count["n"], name.get()))


tk.Button(root, text="Submit", command=submit, name="submit").grid(row=2, column=0, sticky="w")
tk.Button(root, text="Disabled", state="disabled", name="off").grid(row=2, column=1, sticky="w")

controls = ttk.Frame(root, name="controls")
controls.grid(row=3, column=0, columnspan=2, sticky="w")
tk.Label(controls, text="Volume").pack(side="top", anchor="w")
tk.Scale(controls, from_=0, to=10, orient="horizontal", name="volume",
         command=lambda v: log("volume", v)).pack(side="top", anchor="w")
ttk.Label(controls, text="Copies").pack(side="top", anchor="w")
tk.Spinbox(controls, from_=1, to=5, name="copies", width=5).pack(side="top", anchor="w")
ttk.Label(controls, text="Fruit").pack(side="top", anchor="w")
fruit = ttk.Combobox(controls, values=("apple", "pear", "plum"), state="readonly", name="fruit")
fruit.current(0)
fruit.pack(side="top", anchor="w")
fruit.bind("<<ComboboxSelected>>", lambda e: log("fruit", fruit.get()))
progress = ttk.Progressbar(controls, maximum=100, value=40, name="progress")
progress.pack(side="top", anchor="w")
ttk.Checkbutton(controls, text="Remember me", name="remember").pack(side="top", anchor="w")
ttk.Separator(controls, orient="horizontal").pack(side="top", fill="x")

themed = ttk.Labelframe(root, text="Themed", name="themed")
themed.grid(row=7, column=0, columnspan=2, sticky="w")
ttk.Label(themed, text="City:").grid(row=0, column=0)
ttk.Entry(themed, name="city").grid(row=0, column=1)
ttk.Label(themed, text="Level").grid(row=1, column=0)
level = ttk.Spinbox(themed, from_=0, to=9, name="level", width=4,
                    command=lambda: log("level", level.get()))
level.set(3)
level.grid(row=1, column=1)
ttk.Label(themed, text="Zoom").grid(row=2, column=0)
ttk.Scale(themed, from_=0, to=100, value=50, name="zoom",
          command=lambda v: log("zoom", round(float(v)))).grid(row=2, column=1)
mode = tk.StringVar(value="fast")
ttk.Radiobutton(themed, text="Fast", variable=mode, value="fast", name="fast").grid(row=3, column=0)
ttk.Radiobutton(themed, text="Safe", variable=mode, value="safe", name="safe").grid(row=3, column=1)
ttk.Button(themed, text="Apply", name="apply", command=lambda: log("apply", mode.get())).grid(row=4, column=0)

side = tk.Frame(root, name="side")
side.grid(row=0, column=1, rowspan=2, sticky="n")
tk.Label(side, text="Cities").pack(anchor="w")
cities = tk.Listbox(side, height=4, name="cities")
for city in ("Oslo", "Lima", "Pune", "Kyiv", "Accra", "Quito"):
    cities.insert("end", city)
cities.pack(anchor="w")
cities.bind("<<ListboxSelect>>", lambda e: log("city", cities.curselection()))
notebook = ttk.Notebook(side, name="tabs")
page1 = ttk.Frame(notebook, name="general")
page2 = ttk.Frame(notebook, name="advanced")
ttk.Label(page1, text="General settings").pack()
ttk.Label(page2, text="Advanced settings").pack()
notebook.add(page1, text="General")
notebook.add(page2, text="Advanced")
notebook.pack(anchor="w")
tree = ttk.Treeview(side, columns=("size",), height=4, name="files")
tree.heading("#0", text="Name")
tree.heading("size", text="Size")
docs = tree.insert("", "end", text="docs", values=("",), open=False)
tree.insert(docs, "end", text="a.txt", values=("10 KB",))
tree.insert("", "end", text="b.txt", values=("2 KB",))
tree.pack(anchor="w")
canvas = tk.Canvas(side, width=160, height=40, name="chart", background="white")
canvas.create_rectangle(2, 2, 60, 38, fill="blue")
canvas.create_text(110, 20, text="Sales 42")
canvas.pack(anchor="w")
panes = tk.PanedWindow(side, name="panes")
panes.add(tk.Label(panes, text="Left pane"))
panes.add(tk.Label(panes, text="Right pane"))
panes.pack(anchor="w")
Gauge(side, name="gauge").pack(anchor="w")

notes = tk.Text(root, height=4, width=40, name="notes")
notes.insert("1.0", "first line\nsecond line")
notes.grid(row=4, column=0, columnspan=2, sticky="w")
scroll = tk.Scrollbar(root, command=notes.yview, name="scroll")
scroll.grid(row=4, column=2, sticky="ns")
notes.configure(yscrollcommand=scroll.set)
ttk.Sizegrip(root).grid(row=5, column=2, sticky="se")


def open_dialog():
    dialog = tk.Toplevel(root, name="dialog")
    dialog.title("Confirm")
    tk.Label(dialog, text="Really?").pack()

    def cancel(event=None):
        log("cancel")
        dialog.grab_release()
        dialog.destroy()

    tk.Button(dialog, text="OK", command=lambda: (log("ok"), cancel()), name="ok").pack()
    dialog.bind("<Escape>", cancel)
    dialog.protocol("WM_DELETE_WINDOW", cancel)
    dialog.wait_visibility()
    dialog.grab_set()
    tk.Entry(dialog, name="reason").pack()
    dialog.focus_set()


tk.Button(root, text="Open dialog", command=open_dialog, name="open").grid(row=6, column=0, sticky="w")


def add_row():
    tree.insert("", "end", text="new%d.txt" % len(tree.get_children()), values=("1 KB",))


tk.Button(root, text="Add row", command=add_row, name="addrow").grid(row=6, column=1, sticky="w")
root.bind_all("<F9>", lambda event: log("F9"))
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
print("event: exit", flush=True)
