"""`pip install` of Sources/PythonClient works offline, and the installed plugin loads through its entry point."""
import os
import shutil
import subprocess
import sys

PACKAGE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "PythonClient"))


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=300, **kwargs)
    assert result.returncode == 0, "%s\n%s\n%s" % (" ".join(args), result.stdout[-3000:], result.stderr[-3000:])
    return result.stdout


def test_offline_install_into_a_venv(tmp_path):
    # A copy, so the in-tree build leaves nothing (build/, *.egg-info) in the checkout.
    source = tmp_path / "PythonClient"
    shutil.copytree(PACKAGE_DIR, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)])
    python = str(venv / "bin" / "python")
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    run([python, "-m", "pip", "install", "--no-index", "--no-build-isolation", str(source)], env=env,
        cwd=str(tmp_path))
    shown = run([python, "-c", "import axclient, os; print(axclient.__version__, os.path.dirname(axclient.__file__))"],
                env=env, cwd=str(tmp_path))
    version, location = shown.split()
    assert version == "0.1.0"
    assert location.startswith(str(venv))
    help_text = run([python, "-m", "pytest", "--help"], env=env, cwd=str(tmp_path))
    assert "--axserver-bin" in help_text           # loaded through the pytest11 entry point, no -p needed


def test_every_subpackage_is_installed():
    """Each axclient package in the tree (a folder with __init__.py) is in pyproject's list: a toolkit adapter left
    out of it runs from the checkout and is missing from a `pip install` (axclient.pygame_gui was, on its merge)."""
    import tomllib

    with open(os.path.join(PACKAGE_DIR, "pyproject.toml"), "rb") as handle:
        listed = set(tomllib.load(handle)["tool"]["setuptools"]["packages"])
    in_tree = set()
    for folder, _subfolders, files in os.walk(os.path.join(PACKAGE_DIR, "axclient")):
        if "__init__.py" in files:
            in_tree.add(os.path.relpath(folder, PACKAGE_DIR).replace(os.sep, "."))
    assert sorted(in_tree - listed) == []
    assert sorted(listed - in_tree) == []
