#!/usr/bin/python3
"""lxml side of the selector benchmark (SelectorBenchmark in Sources/AXBenchmarks is the Swift side).

Reads a page-source XML file written by AXQuery's TreeXML and a JSON file of queries
{"name": "xpath", ...}; compiles each XPath once and times N evaluations.
Prints one JSON object: {"parse_ms": …, "nodes": …, "queries": {"name": {"xpath", "ms", "count"}}}.

Usage: /usr/bin/python3 Tools/bench_selectors.py TREE.xml QUERIES.json [ITERATIONS]
Needs python3-lxml (Debian) — use /usr/bin/python3.
"""
import json
import sys
import time

from lxml import etree


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    xml_path, queries_path = sys.argv[1], sys.argv[2]
    iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    t0 = time.perf_counter()
    tree = etree.parse(xml_path)
    parse_ms = (time.perf_counter() - t0) * 1000
    with open(queries_path) as f:
        queries = json.load(f)
    out = {"parse_ms": parse_ms, "nodes": sum(1 for _ in tree.iter()) - 2, "iterations": iterations, "queries": {}}
    for name, xpath in queries.items():
        compiled = etree.XPath(xpath)
        result = compiled(tree)  # warm-up, and the count to compare with the engine
        count = len(result) if isinstance(result, list) else int(bool(result))
        t = time.perf_counter()
        for _ in range(iterations):
            compiled(tree)
        ms = (time.perf_counter() - t) * 1000 / iterations
        out["queries"][name] = {"xpath": xpath, "ms": ms, "count": count}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
