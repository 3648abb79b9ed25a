#!/usr/bin/env python3
"""Checks the manifest for Apple platforms from `swift package dump-package`: on iOS and macOS no
system-library target and no target with unsafe flags is reachable from the OnAir umbrella or from
any test target (every Linux-only dependency carries a `.when(platforms: [.linux])` condition),
and OnAirApple is. Run by .ci/run; prints what it found and exits 1 on a violation."""
import json
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


def reachable(name, platform, seen):
    if name in targets and name not in seen:
        seen.add(name)
        for other in dependencies(targets[name], platform):
            reachable(other, platform, seen)
    return seen


def linux_only(name):
    target = targets[name]
    return target["type"] == "system" or "unsafeFlags" in json.dumps(target.get("settings", []))


roots = ["OnAir"] + [t["name"] for t in dump["targets"] if t["type"] == "test"]
failed = False
for platform in ["ios", "macos"]:
    found = {root: sorted(n for n in reachable(root, platform, set()) if linux_only(n)) for root in roots}
    found = {root: names for root, names in found.items() if names}
    apple = "OnAirApple" in reachable("OnAir", platform, set())
    print(f"manifest on {platform}: OnAirApple reachable from OnAir: {apple}; Linux-only targets reachable: {found or 'none'}")
    failed = failed or bool(found) or not apple
sys.exit(1 if failed else 0)
