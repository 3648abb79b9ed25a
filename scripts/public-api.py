#!/usr/bin/env python3
"""Counts what `import OnAir` shows an app: the public types (top-level, and nested) of OnAir and
of every module it re-exports (`@_exported import` in Sources/OnAir/Exports.swift), read from the
symbol graphs SwiftPM emits (`swift package dump-symbol-graph`, public and open only: `package`
declarations are not there).

    scripts/public-api.py            # per module and in all
    scripts/public-api.py --list     # and every top-level type's name
    scripts/public-api.py --no-build # use the symbol graphs already in .build
    scripts/public-api.py --from-build # extract the graphs of these modules from the last
                                       # `swift build` (seconds; no build, no dump of every target)
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


def extract_from_build():
    """The symbol graphs of the modules `import OnAir` shows, extracted by swift-symbolgraph-extract
    from the modules the last `swift build` left (what `swift package dump-symbol-graph` does for
    every target, test targets included, after a build of its own: minutes instead of seconds)."""
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    modules = os.path.join(bin_path, "Modules")
    if not os.path.exists(os.path.join(modules, "OnAir.swiftmodule")):
        print(f"no OnAir module in {modules}: run swift build first", file=sys.stderr)
        raise SystemExit(1)
    info = json.loads(subprocess.run(
        ["swiftc", "-print-target-info"], check=True, capture_output=True, text=True).stdout)
    directory = os.path.join(os.path.dirname(bin_path), "public-api-graphs")
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        os.remove(os.path.join(directory, name))
    # The C modules' maps: the system libraries' in Sources, the C targets' generated in the build.
    maps = [os.path.join("Sources", d, "module.modulemap") for d in sorted(os.listdir("Sources"))]
    maps += [os.path.join(bin_path, d, "module.modulemap") for d in sorted(os.listdir(bin_path)) if d.endswith(".build")]
    flags = ["-I", modules, "-target", info["target"]["triple"], "-minimum-access-level", "public", "-output-dir", directory]
    for path in maps:
        if os.path.exists(path):
            flags += ["-Xcc", "-fmodule-map-file=" + os.path.abspath(path)]
    for module in exported_modules():
        made = subprocess.run(["swift-symbolgraph-extract", "-module-name", module] + flags, capture_output=True, text=True)
        if made.returncode != 0:
            sys.stderr.write(made.stdout[-4000:] + made.stderr[-4000:])
            raise SystemExit(made.returncode)
    return directory


def graph_directory():
    if "--from-build" in sys.argv:
        return extract_from_build()
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
