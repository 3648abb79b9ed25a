#!/usr/bin/env python3
"""Checks the manifest for Apple platforms from `swift package dump-package`: on iOS and macOS no
system-library target and no target with unsafe flags is reachable from the OnAir umbrella or from
any test target (every Linux-only dependency carries a `.when(platforms: [.linux])` condition),
and OnAirApple is; on Linux with no trait enabled (an app that records and streams), the only C
libraries reachable from OnAir are FFmpeg's and libsrt's. Run by .ci/run; prints what it found and
exits 1 on a violation."""
import json
import subprocess
import sys

dump = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
targets = {t["name"]: t for t in dump["targets"]}


def dependencies(target, platform, traits):
    for dependency in target.get("dependencies", []):
        value = next(iter(dependency.values()))
        condition = value[-1] if len(value) > 1 and isinstance(value[-1], dict) else None
        if condition and condition.get("platformNames") and platform not in condition["platformNames"]:
            continue
        if condition and condition.get("traits") and not set(condition["traits"]) & traits:
            continue
        yield value[0]


def default_traits():
    return set(next(t["enabledTraits"] for t in dump.get("traits", []) if t["name"] == "default"))


def reachable(name, platform, seen, traits=None):
    traits = default_traits() if traits is None else traits
    if name in targets and name not in seen:
        seen.add(name)
        for other in dependencies(targets[name], platform, traits):
            reachable(other, platform, seen, traits)
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
# Recording and streaming alone: FFmpeg and libsrt, nothing of GStreamer, libmicrohttpd or SDL2.
system = sorted(n for n in reachable("OnAir", "linux", set(), set()) if targets[n]["type"] == "system" or n.startswith("C"))
print(f"manifest on linux with no trait: C targets reachable from OnAir: {system}")
failed = failed or system != ["CFFmpeg", "CSRT"]
sys.exit(1 if failed else 0)
