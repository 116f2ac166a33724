"""The documentation's indexes point at something (issue 20, the developer's loop):

* every `Specs/<file>.md §Section` reference in Sources, Tests, Specs, Tools and the README names a heading of that
  file: the text after § starts with the heading's title (numbering, backticks and a parenthetical dropped), or is
  the start of it, or starts with the heading's number (`§6.6`, `§4a`, `§2–§6`);
* every file in Tools/ has a row in Tools/README.md.

Standard library only; needs no build.
"""
import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
REFERENCE = re.compile(r"(Specs/[\w./-]+\.md) §([^,;:)\]`'\"\n]+)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$")
NUMBER = re.compile(r"^(\d+[a-z]?(?:\.\d+)*)\.?\s+")
SCANNED = (".swift", ".md", ".py", ".sh", ".json", ".txt")


def headings(path):
    """(number or None, title) of every heading of a Markdown file, outside code blocks."""
    out, fenced = [], False
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("```"):
                fenced = not fenced
                continue
            match = None if fenced else HEADING.match(line)
            if not match:
                continue
            text = match.group(1).replace("`", "")
            number = NUMBER.match(text)
            title = text[number.end():] if number else text
            title = re.sub(r"\s*\(.*$", "", title).strip()
            out.append((number.group(1) if number else None, title))
    return out


def resolves(section, heads):
    section = section.strip().replace("`", "")
    for number, title in heads:
        if number and re.match(re.escape(number) + r"(?!\w|\.\d)", section):
            return True
        if title and (section.startswith(title) or title.startswith(section)):
            return True
    return False


def scanned_files():
    yield os.path.join(ROOT, "README.md")
    for folder in ("Sources", "Tests", "Specs", "Tools"):
        for directory, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if name.endswith(SCANNED):
                    yield os.path.join(directory, name)


class DocsIndexTests(unittest.TestCase):
    def test_every_specs_section_reference_names_a_heading(self):
        cache, broken, checked = {}, [], 0
        for path in scanned_files():
            with open(path, encoding="utf-8", errors="replace") as handle:
                for number, line in enumerate(handle, 1):
                    for match in REFERENCE.finditer(line):
                        document, section = match.group(1), match.group(2)
                        target = os.path.join(ROOT, document)
                        if document not in cache:
                            cache[document] = headings(target) if os.path.exists(target) else None
                        checked += 1
                        if cache[document] is None or not resolves(section, cache[document]):
                            broken.append("%s:%d: %s §%s" % (os.path.relpath(path, ROOT), number, document,
                                                             section.strip()))
        print("%d Specs § references checked" % checked)
        self.assertGreater(checked, 20, "the references were found")
        self.assertEqual(broken, [], "references to no heading:\n" + "\n".join(broken))

    def test_a_wrong_reference_is_noticed(self):
        heads = headings(os.path.join(ROOT, "Specs", "selectors.md"))
        self.assertTrue(resolves("6.6 Visibility and strictness", heads))
        self.assertTrue(resolves("Roles", heads))
        self.assertFalse(resolves("Strictness", heads))

    def test_every_tool_has_a_row_in_the_tools_index(self):
        with open(os.path.join(ROOT, "Tools", "README.md"), encoding="utf-8") as handle:
            index = handle.read()
        missing = [name for name in sorted(os.listdir(os.path.join(ROOT, "Tools")))
                   if name != "README.md" and not name.startswith(".") and "`%s`" % name not in index]
        self.assertEqual(missing, [], "Tools/README.md has no row for these files")


if __name__ == "__main__":
    unittest.main()
