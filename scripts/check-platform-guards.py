#!/usr/bin/env python3
"""Checks the platform guards (docs/ARCHITECTURE.md, "Platform guards") from `swift package dump-package`:

- A target is Linux-only when it needs a Linux C library (a system-library target, or a C target that
  links libraries, somewhere in its dependencies on Linux) and nothing built on macOS or iOS reaches
  it: OnAir and the test targets there drop it by a `.when(platforms: [.linux])` condition. A test
  target is Linux-only when, on macOS, it depends on nothing but OnAirTestSupport.
- Every Swift file of a Linux-only target is wrapped whole in `#if os(Linux)` ... `#endif` (a stand-in
  for other platforms may be wrapped in `#if !os(Linux)`); every C file in `#if defined(__linux__)` ...
  `#endif`. Xcode, which may build a target the manifest excludes, then compiles them to nothing.
- In every other target, an `import` of a Linux-only module sits inside `#if os(Linux)` or
  `#if canImport(ThatModule)`.

What it cannot see: a file that uses a Linux-only type re-exported by `OnAir` without importing its
module; scripts/apple-shape-check.sh type-checks that. Prints what it found; exits 1 on a violation."""
import json
import pathlib
import re
import subprocess
import sys

dump = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
targets = {t["name"]: t for t in dump["targets"]}


def dependencies(target, platform):
    for dependency in target.get("dependencies", []):
        value = next(iter(dependency.values()))
        condition = value[-1] if len(value) > 1 and isinstance(value[-1], dict) else None
        if condition and condition.get("platformNames") and platform not in condition["platformNames"]:
            continue
        yield value[0]


def closure(name, platform, seen=None):
    seen = set() if seen is None else seen
    if name in targets and name not in seen:
        seen.add(name)
        for other in dependencies(targets[name], platform):
            closure(other, platform, seen)
    return seen


def c_library(name):
    target = targets[name]
    return target["type"] == "system" or any(s.get("kind", {}).get("linkedLibrary") for s in target.get("settings", []))


def folder(name):
    target = targets[name]
    return pathlib.Path(target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + name)


apple_roots = ["OnAir"] + [n for n, t in targets.items() if t["type"] == "test"]
on_apple = set()
for platform in ["macos", "ios"]:
    for root in apple_roots:
        if root == "OnAir" or set(dependencies(targets[root], platform)) - {"OnAirTestSupport"}:
            on_apple |= closure(root, platform)
linux_only = sorted(
    n for n, t in targets.items()
    if t["type"] in ("regular", "executable", "test") and n not in on_apple and any(c_library(d) for d in closure(n, "linux"))
)
linux_modules = set(linux_only) | {n for n in targets if c_library(n)}

DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elseif|elif|else|endif)\b(.*)")


def wrapped_whole(text, openers):
    """Whether the file's first line opens a block (one of `openers`) that its last line closes."""
    lines = text.rstrip("\n").split("\n")
    if lines[0].split("//")[0].strip() not in openers or lines[-1].strip() != "#endif":
        return False
    depth = 0
    for number, line in enumerate(lines):
        match = DIRECTIVE.match(line)
        if not match:
            continue
        if match.group(1) in ("if", "ifdef", "ifndef"):
            depth += 1
        elif match.group(1) == "endif":
            depth -= 1
            if depth == 0 and number != len(lines) - 1:
                return False
    return depth == 0


problems = []
checked = 0
for name in linux_only:
    for path in sorted(folder(name).rglob("*")):
        if "system" in path.parts or path.suffix not in (".swift", ".c"):
            continue
        checked += 1
        openers = {"#if os(Linux)", "#if !os(Linux)"} if path.suffix == ".swift" else {"#if defined(__linux__)"}
        if not wrapped_whole(path.read_text(), openers):
            problems.append(f"{path}: in Linux-only target {name}, not wrapped whole in {' or '.join(sorted(openers))}")

IMPORT = re.compile(r"^\s*(?:@[\w_]+(?:\([^)]*\))?\s+)*import\s+(?:\w+\s+)?(\w+)")
imports_checked = 0
for name, target in sorted(targets.items()):
    if name in linux_only or target["type"] not in ("regular", "executable", "test"):
        continue
    for path in sorted(folder(name).rglob("*.swift")):
        stack = []
        for line in path.read_text().split("\n"):
            directive = DIRECTIVE.match(line)
            if directive:
                kind, condition = directive.groups()
                if kind == "if":
                    stack.append(condition)
                elif kind in ("elseif", "else"):
                    stack[-1] = ""  # the other branch: no longer guarded by the opening condition
                elif kind == "endif" and stack:
                    stack.pop()
                continue
            match = IMPORT.match(line)
            if match and match.group(1) in linux_modules:
                imports_checked += 1
                module = match.group(1)
                if not any("os(Linux)" in c or f"canImport({module})" in c for c in stack):
                    problems.append(f"{path}: imports Linux-only {module} outside #if os(Linux) / #if canImport({module})")

print(f"platform guards: Linux-only targets: {', '.join(linux_only)}")
print(f"platform guards: {checked} files of Linux-only targets, {imports_checked} imports of Linux-only modules elsewhere")
for problem in problems:
    print(f"platform guards: {problem}")
sys.exit(1 if problems else 0)
