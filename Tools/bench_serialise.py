#!/usr/bin/env python3
"""`tree.get` serialisation against orjson on the same object (issue 35 item 1), side by side.

For each size, runs `axbench --treeget-mbps LEAVES --dump FILE` (the release build: the streamed reply the server
writes and the former `JSON` value path, median of 15 runs, checked byte for byte against each other; then the
`format: xml` reply and the page source alone) and times orjson.dumps on the object read back from FILE (median of
15 runs), and prints MB/s and each figure's ratio to orjson's. `--before PATH` runs a second axbench (an older
build) right after the first at each size, for a before/after pair under the same load. Needs orjson (PyPI) in
the Python running this script; prints figures and asserts nothing.

Usage: python3 Tools/bench_serialise.py [--axbench PATH] [--before PATH] [--sizes 10000,100000]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def orjson_mbps(path, runs=15):
    import orjson

    with open(path, "rb") as handle:
        data = handle.read()
    document = orjson.loads(data)
    samples = []
    size = 0
    for _ in range(runs):
        start = time.perf_counter()
        size = len(orjson.dumps(document))
        samples.append(time.perf_counter() - start)
    return size, size / statistics.median(samples) / 1e6


def rates(output):
    """(label, MB/s) for each figure line axbench printed."""
    return [(match.group(1).strip(), int(match.group(2)))
            for match in re.finditer(r"^ +([^:\n]+): median [0-9.]+ ms, ([0-9]+) MB/s", output, re.M)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--axbench", default=os.path.join(ROOT, ".build", "release", "axbench"))
    parser.add_argument("--before", help="an older axbench, run after --axbench at each size")
    parser.add_argument("--sizes", default="10000,100000")
    args = parser.parse_args()
    print("load: %s" % open("/proc/loadavg").read().strip())
    builds = [("after", args.axbench)] + ([("before", args.before)] if args.before else [])
    for leaves in (int(size) for size in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as directory:
            dump = os.path.join(directory, "tree.json")
            outputs = []
            for name, binary in builds:
                ours = subprocess.run([binary, "--treeget-mbps", str(leaves), "--dump", dump],
                                      check=True, capture_output=True, text=True).stdout
                outputs.append((name, ours))
            size, rate = orjson_mbps(dump)
            for name, ours in outputs:
                print("[%s] %s" % (name, ours.rstrip()) if args.before else ours.rstrip())
            print("  orjson.dumps of the same object: %d bytes, median %d MB/s" % (size, rate))
            for name, ours in outputs:
                for label, mbps in rates(ours):
                    print("  %s%s: %.2fx orjson" % ("[%s] " % name if args.before else "", label, mbps / rate))
        print("load: %s" % open("/proc/loadavg").read().strip())


if __name__ == "__main__":
    main()
