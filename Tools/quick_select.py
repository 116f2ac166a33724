#!/usr/bin/env python3
"""quick_select.py - which unit-test targets a change needs, for `Tools/test.sh quick`.

    swift package describe --type json | Tools/quick_select.py CHANGED_PATH...

Reads the package description on stdin and the changed paths (relative to the repository) as arguments. Prints one
line: the test targets to run, space-separated, or nothing. A test target is chosen when one of its own files
changed or when it depends, directly or through other targets, on a target whose files changed (`Sources/<Target>/`
or the `path` the package gives it). `Package.swift` changed: every test target.
"""
import json
import sys


def owners(targets, path):
    """The targets whose folder holds path."""
    return [target["name"] for target in targets if path.startswith(target["path"].rstrip("/") + "/")]


def depends_on(name, changed, by_name, memo):
    """True when target name is in changed or reaches one of them through its target dependencies."""
    if name in memo:
        return memo[name]
    memo[name] = False  # a cycle (SwiftPM forbids them) ends here rather than recursing for ever
    target = by_name.get(name)
    result = name in changed or bool(target) and any(
        depends_on(dependency, changed, by_name, memo) for dependency in target.get("target_dependencies", []))
    memo[name] = result
    return result


def main():
    description = json.load(sys.stdin)
    targets = description.get("targets", [])
    by_name = {target["name"]: target for target in targets}
    tests = sorted(target["name"] for target in targets if target.get("type") == "test")
    paths = sys.argv[1:]
    if "Package.swift" in paths:
        print(" ".join(tests))
        return
    changed = {name for path in paths for name in owners(targets, path)}
    memo = {}
    print(" ".join(name for name in tests if depends_on(name, changed, by_name, memo)))


if __name__ == "__main__":
    main()
