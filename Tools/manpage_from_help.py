#!/usr/bin/python3
"""Prints a man page (roff) for an ArgumentParser tool made from its --help and each subcommand's --help.

Usage: manpage_from_help.py PATH/TO/TOOL
Used by Tools/install.sh when ArgumentParser's generate-manual plugin cannot run.
"""
import os
import re
import subprocess
import sys


def help_text(tool, *args):
    out = subprocess.run([tool, *args, "--help"], capture_output=True, text=True, timeout=30,
                         env=dict(os.environ, NO_COLOR="1", COLUMNS="100"))
    return out.stdout


def roff_escape(line):
    line = line.replace("\\", "\\\\")
    if line.startswith((".", "'")):
        line = "\\&" + line
    return line.replace("-", "\\-")


def subcommands(text):
    """The names listed under SUBCOMMANDS: in a --help text."""
    names = []
    inside = False
    for line in text.splitlines():
        if line.strip() == "SUBCOMMANDS:":
            inside = True
            continue
        if inside:
            if not line.strip():
                break
            match = re.match(r"\s+([a-z][a-z0-9-]*)", line)
            if match and match.group(1) != "help":
                names.append(match.group(1))
    return names


def section(title, text):
    lines = [".SH " + title, ".nf"]
    lines += [roff_escape(line) for line in text.rstrip().splitlines()]
    lines.append(".fi")
    return lines


def main():
    tool = sys.argv[1]
    name = os.path.basename(tool)
    top = help_text(tool)
    abstract = " ".join(top.split("\n\n")[0].split()).replace("OVERVIEW: ", "") if top else name
    page = ['.TH %s 1 "" "%s" "AXServer"' % (name.upper(), name), ".SH NAME", "%s \\- %s" % (name, roff_escape(abstract))]
    page += section("DESCRIPTION", top)
    for sub in subcommands(top):
        page += section("%s %s" % (name.upper(), sub.upper()), help_text(tool, sub))
    print("\n".join(page))


if __name__ == "__main__":
    main()
