"""A Tk app with huge widget texts (knows nothing of AXServer): ``huge_text_app.py LABEL_CHARS [COUNT]`` shows
COUNT (default 1) Labels of LABEL_CHARS characters each and a normal button. Prints "ready"."""
import sys
import tkinter as tk

size = int(sys.argv[1]) if len(sys.argv) > 1 else 70000
count = int(sys.argv[2]) if len(sys.argv) > 2 else 1
root = tk.Tk()
root.title("Huge text")
root.geometry("400x300+0+0")
for index in range(count):
    tk.Label(root, text=("%d " % index) + "x" * size, wraplength=380, height=1).pack()
tk.Button(root, text="Still here").pack()
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
