#!/usr/bin/env python3
"""code_budgets.py - the complexity budgets of issue 31, for the Swift sources and the Python client.

    Tools/code_budgets.py                    prints the figures beside the budgets and the baseline
    Tools/code_budgets.py --check            exits 1 when a budget or a ratchet is broken (what CI runs)
    Tools/code_budgets.py --write-baseline   records today's figures in Tools/code_budgets.json

Measured over functions, the way lizard (not a dependency) measures them, so that the figures sit beside the anchors
(AccessKit, swift-nio, swift-argument-parser, Hummingbird):

  density      CCN per 100 lines: 100 x the sum of the functions' cyclomatic complexity over the sum of their code
               lines (budget <= 26; anchors 19-26)
  tokens/line  the functions' tokens over their code lines (budget <= 8; anchors 5.7-7.3)
  share >= 6   functions at CCN 6 or more (anchors 5.6-9.2 %; reported, no budget)
  share > 15   functions over CCN 15 (budget <= 1 %)
  max          the largest CCN (budget <= 30: none over 30; a function over 30 today is named in the baseline
               with its CCN, which it may not exceed, and no other may join it)

Swift: every .swift file under Sources, read by Tools/code_metrics.py's token scan (its doc says what a function, a
code line and a decision point are). Python: every .py file under Sources/PythonClient/axclient, read with the
standard library's tokenize and ast: a function is a def (methods and nested defs count on their own; a lambda counts
for the def around it), its code lines are the lines from its def to its last line holding a token other than a
comment or a docstring, and its CCN is 1 + the number of if, elif, for, while, except, and, or and case tokens in it
(comprehension and conditional-expression `if` / `for` included), as lizard counts Python.

A budget the code meets is a hard limit. A budget the code does not meet yet is a ratchet: the figure may not get
worse than the committed baseline (Tools/code_budgets.json) by more than the slack (0.1 for density, tokens per
line and share; none for a function over 30); when it gets better, --write-baseline records the better figure (the
check says so). --write-baseline never raises a recorded figure, and a budget the code meets stays the limit.
"""

import ast
import io
import json
import os
import sys
import tokenize

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import code_metrics  # noqa: E402  (Tools/ is not a package)

BASELINE = os.path.join(HERE, "code_budgets.json")
SOURCES = {"swift": os.path.join(ROOT, "Sources"), "python": os.path.join(ROOT, "Sources", "PythonClient", "axclient")}
# How much worse than its baseline a ratcheted figure may get: one rounding step of the printed figure, so that a
# change of a few lines does not fail the check while a trend does.
SLACK = 0.1
# figure -> (budget, what it means); a figure is worse when it is larger.
BUDGETS = {
    "density": (26.0, "CCN per 100 lines"),
    "tokens_per_line": (8.0, "tokens per line"),
    "share_over_15": (1.0, "% of functions over CCN 15"),
    "max_ccn": (30, "largest CCN"),
}
PYTHON_DECISIONS = {"if", "elif", "for", "while", "except", "and", "or", "case"}


def swift_functions(root):
    """(path, name, line, ccn, code lines, tokens) of every Swift function under root."""
    out = []
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8", errors="replace") as handle:
                metrics = code_metrics.analyze(code_metrics.tokenize(handle.read()))
            out.extend((path, *size) for size in metrics.function_sizes)
    return out


def docstring_lines(tree):
    """The lines of every docstring (module, class, function): they count as comments."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                if isinstance(first.value.value, str):
                    lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def python_file_functions(path, source):
    """(path, name, line, ccn, code lines, tokens) of every def in one Python file."""
    tree = ast.parse(source, filename=path)
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    # Innermost def of each line: defs sorted outermost first, so a nested def overwrites its parent's lines.
    owner = {}
    for function in sorted(functions, key=lambda node: (node.lineno, -node.end_lineno)):
        start = min([function.lineno] + [decorator.lineno for decorator in function.decorator_list])
        for line in range(start, function.end_lineno + 1):
            owner[line] = function
    skipped = docstring_lines(tree)
    figures = {id(function): [1, set(), 0] for function in functions}
    ignored = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT, tokenize.ENDMARKER}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in ignored or token.start[0] in skipped:
            continue
        function = owner.get(token.start[0])
        if function is None:
            continue
        entry = figures[id(function)]
        entry[1].add(token.start[0])
        entry[2] += 1
        if token.type == tokenize.NAME and token.string in PYTHON_DECISIONS:
            entry[0] += 1
    return [
        (path, function.name, function.lineno, *(lambda ccn, lines, count: (ccn, len(lines), count))(
            *figures[id(function)]))
        for function in functions
    ]


def python_functions(root):
    out = []
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    out.extend(python_file_functions(path, handle.read()))
    return out


def figures(functions):
    """The budget figures of a list of functions, each rounded to 0.01."""
    count = len(functions)
    lines = sum(function[4] for function in functions) or 1
    return {
        "functions": count,
        "lines": lines,
        "density": round(100.0 * sum(function[3] for function in functions) / lines, 2),
        "tokens_per_line": round(sum(function[5] for function in functions) / lines, 2),
        "share_6_or_more": round(100.0 * sum(1 for function in functions if function[3] >= 6) / (count or 1), 2),
        "over_15": sum(1 for function in functions if function[3] > 15),
        "share_over_15": round(100.0 * sum(1 for function in functions if function[3] > 15) / (count or 1), 2),
        "max_ccn": max((function[3] for function in functions), default=0),
    }


def measure():
    """{language: (figures, functions)} for Swift and Python."""
    swift = swift_functions(SOURCES["swift"])
    python = python_functions(SOURCES["python"])
    return {"swift": (figures(swift), swift), "python": (figures(python), python)}


def limits(baseline):
    """{language: {figure: limit}}: the budget where the baseline meets it, else the baseline plus the slack (the
    ratchet)."""
    out = {}
    for language in SOURCES:
        recorded = baseline.get(language, {})
        out[language] = {
            figure: budget if recorded.get(figure, budget) <= budget else round(recorded[figure] + SLACK, 2)
            for figure, (budget, _) in BUDGETS.items()
            if figure != "max_ccn"
        }
    return out


def problems(measured, baseline):
    """The broken budgets and ratchets, one sentence each (empty when all hold)."""
    out = []
    for language, language_limits in limits(baseline).items():
        current, functions = measured[language]
        for figure, limit in language_limits.items():
            budget, meaning = BUDGETS[figure]
            if current[figure] <= limit:
                continue
            kind = "budget" if limit == budget else "ratchet (baseline in Tools/code_budgets.json; budget %s)" % budget
            out.append(f"{language} {figure} ({meaning}) is {current[figure]}, over its {kind} {limit}")
        allowed = baseline.get(language, {}).get("over_30", {})
        for path, name, line, ccn, _, _ in functions:
            where = f"{os.path.relpath(path, ROOT)}:{name}"
            if ccn > BUDGETS["max_ccn"][0] and ccn > allowed.get(where, 0):
                recorded = f" (baseline {allowed[where]})" if where in allowed else ""
                out.append(f"{language} {where} (line {line}) has CCN {ccn}, over 30{recorded}")
    return out


def improvements(measured, baseline):
    """Ratchets the code now beats: the baseline can be lowered."""
    out = []
    for language, language_limits in limits(baseline).items():
        current = measured[language][0]
        for figure, limit in language_limits.items():
            recorded = baseline.get(language, {}).get(figure)
            if limit > BUDGETS[figure][0] and recorded is not None and current[figure] < recorded:
                out.append(f"{language} {figure} improved to {current[figure]} (baseline {recorded})")
    return out


def load_baseline():
    try:
        with open(BASELINE, encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return {}


def main(arguments):
    measured = measure()
    baseline = load_baseline()
    if "--write-baseline" in arguments:
        record = {}
        for language in SOURCES:
            current, functions = measured[language]
            recorded = baseline.get(language, {})
            record[language] = {
                figure: min(value, recorded.get(figure, value)) if figure in BUDGETS else value
                for figure, value in current.items()
            }
            allowed = recorded.get("over_30")
            record[language]["over_30"] = {
                where: ccn if allowed is None else min(ccn, allowed.get(where, ccn))
                for where, ccn in (
                    (f"{os.path.relpath(path, ROOT)}:{name}", ccn)
                    for path, name, _, ccn, _, _ in functions
                    if ccn > BUDGETS["max_ccn"][0]
                )
                if allowed is None or where in allowed
            }
        with open(BASELINE, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=2, sort_keys=True)
            handle.write("\n")
        print(f"wrote {os.path.relpath(BASELINE, ROOT)}")
        return 0
    print(f"{'':10}{'functions':>10}{'lines':>8}{'density':>9}{'tok/line':>9}{'>=6':>7}{'>15':>5}{'share':>7}{'max':>5}")
    for language in SOURCES:
        current = measured[language][0]
        print(
            f"{language:10}{current['functions']:>10}{current['lines']:>8}{current['density']:>9}"
            f"{current['tokens_per_line']:>9}{current['share_6_or_more']:>6}%{current['over_15']:>5}"
            f"{current['share_over_15']:>6}%{current['max_ccn']:>5}"
        )
    print("budgets: density <= 26, tokens/line <= 8, share over 15 <= 1 %, max <= 30; anchors: density 19-26, "
          "tokens/line 5.7-7.3, share >= 6 5.6-9.2 %")
    for note in improvements(measured, baseline):
        print("improved: " + note + " - record it with Tools/code_budgets.py --write-baseline")
    found = problems(measured, baseline)
    for problem in found:
        print("over: " + problem)
    return 1 if found and "--check" in arguments else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
