"""A sign-in form with every way a tkinter app masks a secret (knows nothing of AXServer): an Entry with
``show``, one whose ``show`` is set later, a masked and a plain Entry sharing one StringVar, and a PIN field the
app forgot to mask. Prints "ready" once its main loop runs."""
import tkinter as tk

root = tk.Tk()
root.title("Sign in")
root.geometry("420x260+0+0")
tk.Label(root, text="Password:").grid(row=0, column=0, sticky="w")
tk.Entry(root, show="\u2022", name="password").grid(row=0, column=1)
tk.Label(root, text="Key:").grid(row=1, column=0, sticky="w")
later = tk.Entry(root, name="later")
later.grid(row=1, column=1)
tk.Button(root, text="Hide key", command=lambda: later.configure(show="*")).grid(row=1, column=2)
shared = tk.StringVar()
tk.Label(root, text="Passphrase:").grid(row=2, column=0, sticky="w")
tk.Entry(root, textvariable=shared, show="*", name="phrase").grid(row=2, column=1)
tk.Label(root, text="Echo:").grid(row=3, column=0, sticky="w")
tk.Entry(root, textvariable=shared, name="echo").grid(row=3, column=1)
tk.Label(root, text="PIN code:").grid(row=4, column=0, sticky="w")
tk.Entry(root, name="pin").grid(row=4, column=1)
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
