#!/usr/bin/env python3
"""Counts what `import OnAir` shows an app: the public types (top-level, and nested) of OnAir and
of every module it re-exports (`@_exported import` in Sources/OnAir/Exports.swift), read from the
symbol graphs SwiftPM emits (`swift package dump-symbol-graph`, public and open only: `package`
declarations are not there).

    scripts/public-api.py            # per module and in all
    scripts/public-api.py --list     # and every top-level type's name
    scripts/public-api.py --no-build # use the symbol graphs already in .build
"""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}


def exported_modules():
    text = open("Sources/OnAir/Exports.swift").read()
    return ["OnAir"] + re.findall(r"^@_exported import (\w+)", text, re.M)


def graph_directory():
    if "--no-build" not in sys.argv:
        made = subprocess.run(
            ["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"],
            capture_output=True, text=True)
        if made.returncode != 0:
            sys.stderr.write(made.stdout[-4000:] + made.stderr[-4000:])
            raise SystemExit(made.returncode)
    triple = subprocess.run(
        ["swift", "build", "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(os.path.dirname(triple), "symbolgraph")


def main():
    directory = graph_directory()
    total_top = total_all = 0
    names = []
    for module in exported_modules():
        path = os.path.join(directory, module + ".symbols.json")
        if not os.path.exists(path):
            print(f"{module}: no symbol graph at {path}", file=sys.stderr)
            return 1
        symbols = json.load(open(path))["symbols"]
        types = [s for s in symbols if s["kind"]["identifier"] in TYPE_KINDS and s["accessLevel"] in ("public", "open")]
        top = sorted(s["names"]["title"] for s in types if len(s["pathComponents"]) == 1)
        members = sum(1 for s in symbols if s["accessLevel"] in ("public", "open"))
        print(f"{module:18} {len(top):4} top-level types {len(types):4} with nested {members:5} public symbols")
        total_top += len(top)
        total_all += len(types)
        names += [f"{module}.{name}" for name in top]
    print(f"{'import OnAir':18} {total_top:4} top-level types {total_all:4} with nested")
    if "--list" in sys.argv:
        print("\n".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
