#!/usr/bin/env python3
"""Writes Sources/AXCore/Focus/KeysymNames.swift: every X keysym name (X11/keysymdef.h and XF86keysym.h, the
`x11proto-dev` headers) with its value and, where the header gives one, its Unicode character — the data
`input.key` accepts (D-KEY-1). Run again after a new X release: `python3 Tools/gen_keysym_names.py`."""
import os
import re
import sys

HEADERS = (("/usr/include/X11/keysymdef.h", "XK_"), ("/usr/include/X11/XF86keysym.h", "XF86XK_"))
LINE = re.compile(r"^#define (XK_|XF86XK_)(\w+)\s+(0x[0-9a-fA-F]+)\s*(?:/\*\s*(\(?)U\+([0-9A-Fa-f]{4,6}))?")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "AXCore", "Focus",
                   "KeysymNames.swift")


def main() -> int:
    rows = []
    seen = set()
    for path, prefix in HEADERS:
        with open(path, encoding="latin-1") as header:
            for line in header:
                match = LINE.match(line)
                if not match:
                    continue
                kind, name, value, approximate, code = match.groups()
                name = ("XF86" + name) if kind == "XF86XK_" else name
                if name in seen:
                    continue
                seen.add(name)
                text = code if code and not approximate and int(code, 16) >= 0x20 else "-"
                rows.append("%s %x %s" % (name, int(value, 16), text.lower()))
    body = "\n".join("    " + row for row in rows)  # indented as swift-format leaves a multi-line literal
    with open(OUT, "w", encoding="utf-8") as out:
        out.write('/// Every X keysym name with its value and the Unicode scalar it types ("-": none), one per line: the\n'
                  "/// data `input.key` accepts beyond the US-layout keys of `Keysyms` (D-KEY-1). Generated from X11's\n"
                  "/// keysymdef.h and XF86keysym.h by Tools/gen_keysym_names.py; do not edit by hand.\n"
                  "let xKeysymNames = \"\"\"\n%s\n    \"\"\"\n" % body)
    print("%d keysym names" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
