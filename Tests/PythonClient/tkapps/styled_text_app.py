"""A Text widget with styled tags (a bold heading, an underlined link, an italic word through a named font), a
word-wrapped paragraph and 30 more lines; buttons restyle a tag and scroll the text with the app's own Tk calls
(Specs/tk-adapter.md §Line boxes and attribute runs)."""
import tkinter as tk
import tkinter.font

root = tk.Tk()
root.title("Styled Text")
root.geometry("420x300+0+0")
title = tk.Entry(root, name="title")  # Tk 8.6 Entry indices count the emoji as two
title.insert(0, "Notes \U0001F4D8 v2")
title.pack(fill="x")
notes = tk.Text(root, name="notes", wrap="word", width=40, height=10, font=("DejaVu Sans", 10))
notes.pack(fill="both", expand=True)
notes.tag_configure("heading", font=("DejaVu Sans", 12, "bold"))
notes.tag_configure("link", underline=True, foreground="blue")
emphasis = tkinter.font.Font(root, name="emphasisFont", family="DejaVu Sans", size=10, slant="italic")
notes.tag_configure("em", font=emphasis)
notes.tag_configure("comment", foreground="grey")  # colour only: no attribute run
notes.insert("end", "Release notes", "heading")
notes.insert("end", "\nRead the \U0001F4D8 ")  # a character outside the BMP: Tk 8.6 counts it as two
notes.insert("end", "manual", "link")
notes.insert("end", " before ")
notes.insert("end", "upgrading", "em")
notes.insert("end", ".\n")
notes.insert("end", "This paragraph is long enough to wrap onto several display lines in a narrow window, "
                    "so that its line boxes split it without newlines.\n", "comment")
notes.insert("end", "".join("item %d\n" % n for n in range(1, 31)))
notes.mark_set("insert", "1.0")


def restyle():
    """The app underlines its emphasis too (``tag configure``: reads like a read to the dirty filter)."""
    notes.tag_configure("em", underline=True)


# Later, from a timer: no event marks the tree dirty, only the `tag configure` call itself.
tk.Button(root, text="Restyle", command=lambda: root.after(300, restyle), name="restyle").pack(side="left")
tk.Button(root, text="Scroll", command=lambda: notes.yview("moveto", 0.5), name="scroll").pack(side="left")
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
