#!/usr/bin/env python3
"""Summarizes a `swift test` log (Swift Testing's output): the time of each suite, longest first,
with its lane and CPU (test-watchdog.py's lines), the tests that were skipped with their reasons,
the issues recorded (last, so that the tail of a failed run names them), and the totals. Used by
scripts/test.sh, which passes its lists (--reasons FILE...): then each listed suite is printed
with the reason it does not run in lane B and what this run measured of it.

    python3 scripts/test-summary.py LOG [--reasons scripts/test-lane-a.txt scripts/test-solo.txt]"""
import re
import sys

suites, skipped, issues = [], [], []
# Per suite: the lane that ran it (the line's "A| ", "B| " or "S| ") and test-watchdog.py's
# measurement of it (its own cores and the machine's busy cores over its time).
lanes, cores = {}, {}
following = 0


def reasons(path):
    """A list's suites with their reasons: a suite line's own "# …", else the comments above it."""
    listed, above = [], []
    for raw in open(path, encoding="utf-8"):
        text = raw.strip()
        if not text:
            above = []
        elif text.startswith("#"):
            above.append(text.lstrip("# "))
        else:
            name, _, own = text.partition("#")
            listed.append((name.strip(), own.strip() or " ".join(above)))
            above = []
    return listed


for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    # An issue's line and the comment lines (↳) Swift Testing prints under it.
    if "recorded an issue" in line:
        issues.append(line.rstrip()[:1500])
        following = 6
    elif following and "↳" in line:
        issues.append(line.rstrip()[:1500])
        following -= 1
    else:
        following = 0
    found = re.search(r"Suite (.+?) (passed|failed) after ([0-9.]+) seconds", line)
    if found:
        suites.append((float(found.group(3)), found.group(1), found.group(2)))
        # A lane reports every suite, the ones whose tests the other lanes run in a few
        # milliseconds: the suite's lane is the one where it took longest.
        if float(found.group(3)) >= max((s for s, n, _ in suites[:-1] if n == found.group(1)), default=0):
            lanes[found.group(1)] = line[:1] if line[1:3] == "| " else ""
    found = re.search(r"test-watchdog: suite (.+?): ([0-9.]+) cores of its own, machine ([0-9.]+) busy", line)
    if found:
        cores[(line[:1] if line[1:3] == "| " else "", found.group(1))] = (float(found.group(2)), float(found.group(3)))
    found = re.search(r"Test (.+?) skipped(?:: (.*))?$", line.strip())
    if found and "Test run with" not in line:
        skipped.append((found.group(1), (found.group(2) or "").strip()))
print("\n== time per suite (seconds, longest first), its lane, its own cores and the machine's busy cores")
for seconds, name, status in sorted(suites, reverse=True):
    own, machine = cores.get((lanes.get(name, ""), name), (float("nan"), float("nan")))
    print(f"{seconds:9.1f}  {lanes.get(name) or '-'}  {own:5.2f} {machine:5.2f}  {name}{'' if status == 'passed' else '  FAILED'}")
print(f"{sum(s for s, _, _ in suites):9.1f}  all suites")
if "--reasons" in sys.argv:
    print("\n== why these suites do not run in lane B (A: never beside another of lane A; S: alone),"
          " with this run's time, own cores and machine's busy cores")
    times = {}
    for seconds, name, _ in suites:
        times[name] = max(seconds, times.get(name, 0.0))
    for path in sys.argv[sys.argv.index("--reasons") + 1:]:
        for name, why in reasons(path):
            short = name.rsplit(".", 1)[-1]
            if short not in times:
                continue
            own, machine = cores.get((lanes.get(short, ""), short), (float("nan"), float("nan")))
            if times[short] < 1:
                print(f"  {short} (no test of it ran this time): {why}")
                continue
            print(f"  {short} ({lanes.get(short) or '-'}; {times.get(short, float('nan')):.0f} s, {own:.2f}/{machine:.2f} cores): {why}")
print(f"\n== skipped tests: {len(skipped)}")
for name, reason in skipped:
    print(f"  {name}: {reason or 'no reason given'}")
if issues:
    print(f"\n== issues recorded: {sum('recorded an issue' in line for line in issues)}")
    for line in issues[:60]:
        print(line)
