"""Every function of the Dear PyGui adapter (axclient/dearpygui) stays under cyclomatic complexity 15, counted
as test_tk_complexity.py counts the Tk adapter and the kit. No Dear PyGui, no server."""
import ast

import pytest

from test_tk_complexity import LIMIT, ROOT, functions


def test_dearpygui_adapter_functions_stay_under_complexity_15():
    found = []
    for path in sorted((ROOT / "dearpygui").glob("*.py")):
        for name, line, value in functions(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(("dearpygui/%s:%d %s" % (path.name, line, name), value))
    assert len(found) > 50, "the adapter's sources were not found under %s" % ROOT
    over = sorted(((value, where) for where, value in found if value > LIMIT), reverse=True)
    if over:
        pytest.fail("functions over complexity %d (simplify them):\n%s"
                    % (LIMIT, "\n".join("%3d %s" % item for item in over)))
