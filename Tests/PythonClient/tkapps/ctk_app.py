"""A customtkinter app (PyPI customtkinter: Canvas-drawn compound widgets); knows nothing of AXServer."""
import customtkinter as ctk

root = ctk.CTk()
root.title("CTk App")
root.geometry("420x560+0+0")


def log(*parts):
    print("event:", *parts, flush=True)


status = ctk.CTkLabel(root, text="Ready")
status.pack(pady=4)
ctk.CTkButton(root, text="Save", command=lambda: status.configure(text="Saved")).pack(pady=4)
ctk.CTkLabel(root, text="Email").pack()
ctk.CTkEntry(root, placeholder_text="you@example.org").pack(pady=4)
ctk.CTkCheckBox(root, text="Subscribe", command=lambda: log("subscribe")).pack(pady=4)
ctk.CTkSwitch(root, text="Dark mode", command=lambda: log("dark")).pack(pady=4)
ctk.CTkLabel(root, text="Volume").pack()
ctk.CTkSlider(root, from_=0, to=100, command=lambda v: log("volume", round(v))).pack(pady=4)
progress = ctk.CTkProgressBar(root)
progress.set(0.25)
progress.pack(pady=4)
ctk.CTkLabel(root, text="Size").pack()
ctk.CTkOptionMenu(root, values=["Small", "Large"], command=lambda v: log("size", v)).pack(pady=4)
card = ctk.CTkFrame(root, corner_radius=12, border_width=2)  # rounded corners drawn as glyphs on a CTkCanvas
card.pack(pady=4)
ctk.CTkLabel(card, text="Card").pack(padx=8, pady=4)
ctk.CTkLabel(root, text="Password").pack()
ctk.CTkEntry(root, placeholder_text="Password", show="*").pack(pady=4)
root.after(10, lambda: print("ready", flush=True))
root.mainloop()
