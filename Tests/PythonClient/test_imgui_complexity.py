"""Every function of the ImGui adapter (axclient/imgui) stays under cyclomatic complexity 15, counted as
test_tk_complexity counts the Tk adapter and the kit. No ImGui, no server."""
import ast

from test_tk_complexity import LIMIT, ROOT, functions


def test_imgui_adapter_functions_stay_under_complexity_15():
    found = [("%s:%d %s" % (path.name, line, name), value)
             for path in sorted((ROOT / "imgui").glob("*.py"))
             for name, line, value in functions(ast.parse(path.read_text(encoding="utf-8")))]
    assert len(found) > 50, "the adapter's sources were not found under %s" % ROOT
    over = sorted(((value, where) for where, value in found if value > LIMIT), reverse=True)
    assert not over, "functions over complexity %d: %s" % (LIMIT, over)
