"""A Text widget holding N lines (argv[1], default 10,000), a button that scrolls to line 9000 and one that selects
a word with the app's own Tk calls."""
import sys
import tkinter as tk

count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
root = tk.Tk()
root.title("Big Text")
root.geometry("600x400+0+0")
editor = tk.Text(root, name="editor", height=20)
editor.insert("1.0", "".join("line %d of the big file, some words to read\n" % n for n in range(1, count + 1)))
editor.pack(fill="both", expand=True)
tk.Button(root, text="Jump", command=lambda: editor.see("9000.0"), name="jump").pack()


def select_word():
    """The app selects "line" on line 2 with its own calls (tag add sel, mark set insert: they read like reads)."""
    editor.tag_remove("sel", "1.0", "end")
    editor.tag_add("sel", "2.0", "2.4")
    editor.mark_set("insert", "2.4")


tk.Button(root, text="Select", command=select_word, name="select").pack()
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
