#!/usr/bin/env python3
"""Conformance-suite coverage: counts the cases in Specs/conformance and the distinct rule ids they cite, and
checks the coverage table in Specs/conformance/README.md.

    python3 Tools/conformance_coverage.py            # summary + check (exit 1 on any problem)
    python3 Tools/conformance_coverage.py --write    # regenerate the README table from the cases, then check

Every seed-backed rule of the two reference files (R1–R122, X1–X55, A1–A51, B1–B35, C1–C41) must be cited by at
least one case or be listed in Specs/decisions.md §3 ("Rules that do not apply"), never both. Every D- id a case
cites must be defined in Specs/decisions.md; ids may have several parts (D-ATSPI-TEXT-2). Standard library only.
"""
import glob
import json
import os
import re
import sys

sys.setrecursionlimit(20000)  # some cases nest deeper than Python's default JSON recursion allows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "Specs", "conformance")
README = os.path.join(CASES, "README.md")
DECISIONS = os.path.join(ROOT, "Specs", "decisions.md")
FAMILIES = {"R": 122, "X": 55, "A": 51, "B": 35, "C": 41}
BEGIN, END = "<!-- coverage:begin -->", "<!-- coverage:end -->"
RULE = re.compile(r"^([RXABC])(\d+)$")
# A decision id: D-, one or more upper-case parts, a number (D-HIT-1, D-ATSPI-TEXT-2).
DECISION = re.compile(r"\bD-(?:[A-Z0-9]+-)+\d+\b")


def load_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(CASES, "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for c in data if isinstance(data, list) else [data]:
            cases.append((os.path.relpath(path, CASES), c))
    return cases


def expand(text):
    """'R52–R55, X39' -> ['R52', 'R53', 'R54', 'R55', 'X39']"""
    out = []
    for a, b, c, d in re.findall(r"\b([RXABC])(\d+)(?:\s*[–-]\s*([RXABC])?(\d+))?", text):
        lo, hi = int(b), int(d) if d else int(b)
        out += [f"{a}{n}" for n in range(lo, hi + 1)]
    return out


def not_applicable():
    with open(DECISIONS, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## 3\. Rules that do not apply.*?(?=^## )", text, re.S | re.M)
    if not m:
        raise SystemExit("decisions.md has no '## 3. Rules that do not apply' section")
    na = {}
    for line in m.group(0).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        # Rows are: | D-NA-n | rule ids | reason |
        if len(cells) < 3 or not re.match(r"^D-NA-\d+$", cells[0]):
            continue
        # Only the rule-id part of the cell counts (it may carry a parenthesised remark).
        for rid in expand(cells[1].split("(")[0]):
            na.setdefault(rid, cells[0])
    return na, set(DECISION.findall(text))


def table(coverage, na):
    rows = ["| rule | covered by |", "|---|---|"]
    for fam, n in FAMILIES.items():
        for i in range(1, n + 1):
            rid = f"{fam}{i}"
            if rid in coverage:
                rows.append(f"| {rid} | {', '.join(sorted(coverage[rid]))} |")
            elif rid in na:
                rows.append(f"| {rid} | does not apply: {na[rid]} (decisions.md §3) |")
            else:
                rows.append(f"| {rid} | **UNCOVERED** |")
    return "\n".join(rows)


def main():
    cases = load_cases()
    problems = []
    ids = [c["id"] for _, c in cases]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        problems.append(f"duplicate case ids: {dup}")
    coverage, decisions_cited = {}, set()
    for _, c in cases:
        if not c.get("rules"):
            problems.append(f"case {c['id']} cites no rule")
        for r in c.get("rules", []):
            m = RULE.match(r)
            if m:
                if not 1 <= int(m.group(2)) <= FAMILIES[m.group(1)]:
                    problems.append(f"case {c['id']} cites {r}, outside {m.group(1)}1–{m.group(1)}{FAMILIES[m.group(1)]}")
                coverage.setdefault(r, set()).add(c["id"])
            elif r.startswith("D-"):
                decisions_cited.add(r)
            else:
                problems.append(f"case {c['id']} cites '{r}', which is neither a rule nor a decision id")
    na, defined = not_applicable()
    for d in sorted(decisions_cited - defined):
        problems.append(f"decision {d} is cited by a case but not defined in Specs/decisions.md")
    for rid in sorted(set(coverage) & set(na)):
        problems.append(f"{rid} is cited by cases ({', '.join(sorted(coverage[rid]))}) and also listed as not applicable")
    for fam, n in FAMILIES.items():
        for i in range(1, n + 1):
            rid = f"{fam}{i}"
            if rid not in coverage and rid not in na:
                problems.append(f"{rid} has no case and no 'does not apply' entry")

    expected = table(coverage, na)
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    if BEGIN not in readme or END not in readme:
        problems.append(f"README.md lacks the {BEGIN} … {END} markers")
    else:
        head, rest = readme.split(BEGIN, 1)
        current, tail = rest.split(END, 1)
        if "--write" in sys.argv:
            readme = head + BEGIN + "\n" + expected + "\n" + END + tail
            with open(README, "w", encoding="utf-8") as f:
                f.write(readme)
        elif current.strip() != expected.strip():
            problems.append("the coverage table in README.md is out of date (run with --write)")

    by_family = {fam: sorted((r for r in coverage if r.startswith(fam)), key=lambda r: int(r[1:])) for fam in FAMILIES}
    print(f"cases: {len(cases)} in {len({p for p, _ in cases})} files")
    print(f"distinct rule ids cited: {len(coverage)} "
          + " ".join(f"({fam}: {len(v)}/{FAMILIES[fam]})" for fam, v in by_family.items()))
    print(f"decision ids cited: {len(decisions_cited)}; rules that do not apply: {len(na)}")
    for p in problems:
        print("PROBLEM:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
