"""Every function of the Tk adapter and the adapter kit (axclient/tk, axclient/kit) stays under cyclomatic
complexity 15, as the project's Swift does (HELPER_BRIEF standards; issue 32 item 4: "Python functions stay under
complexity 15, and a CI phase checks it"). Measured with the standard library's ``ast``: 1 + if/elif, for, while,
except, assert, ternary, each extra operand of ``and``/``or``, each comprehension and its ``if``s, match cases;
a nested function counts on its own. No Tk, no server: runs in the python phase."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2] / "Sources" / "PythonClient" / "axclient"
PACKAGES = ("tk", "kit")
LIMIT = 15

DECISIONS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.IfExp, ast.ExceptHandler, ast.Assert)


def complexity(function):
    """1 + the decision points of ``function``'s own body (nested functions and classes excluded)."""
    count = 1
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, DECISIONS):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        elif type(node).__name__ == "match_case":
            count += 1
        pending.extend(ast.iter_child_nodes(node))
    return count


def functions(tree, prefix=""):
    """(qualified name, line, complexity) of every function and method, nested ones included."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node.lineno, complexity(node)
            yield from functions(node, prefix + node.name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, prefix + node.name + ".")
        else:
            yield from functions(node, prefix)


def measure():
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).glob("*.py")):
            for name, line, value in functions(ast.parse(path.read_text(encoding="utf-8"))):
                found.append(("%s/%s:%d %s" % (package, path.name, line, name), value))
    return found


def test_the_counter_counts_what_it_says():
    source = ("def f(a, b):\n"
              "    if a and b or a:\n"          # if +1, and/or +2
              "        return [x for x in a if x]\n"  # comprehension +1, its if +1
              "    for x in b:\n"               # +1
              "        try:\n"
              "            pass\n"
              "        except ValueError:\n"  # +1
              "            pass\n"
              "    def inner():\n"              # counted on its own
              "        if a: pass\n"
              "    return 1 if a else 2\n")     # +1
    counted = dict((name, value) for name, _, value in functions(ast.parse(source)))
    assert counted == {"f": 9, "f.inner": 2}


def test_adapter_functions_stay_under_complexity_15():
    found = measure()
    assert len(found) > 100, "the adapter's sources were not found under %s" % ROOT
    over = sorted(((value, where) for where, value in found if value > LIMIT), reverse=True)
    if over:
        pytest.fail("functions over complexity %d (simplify them):\n%s" % (
            LIMIT, "\n".join("%4d %s" % entry for entry in over)))
