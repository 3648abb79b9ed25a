#!/usr/bin/env python3
"""Summarizes a `swift test` log (Swift Testing's output): the time of each suite, longest first,
the tests that were skipped with their reasons, the issues recorded (last, so that the tail of a
failed run names them), and the totals. Used by scripts/test.sh."""
import re
import sys

suites, skipped, issues = [], [], []
following = 0
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
    found = re.search(r"Test (.+?) skipped(?:: (.*))?$", line.strip())
    if found and "Test run with" not in line:
        skipped.append((found.group(1), (found.group(2) or "").strip()))
print("\n== time per suite (seconds, longest first; suites run one after another)")
for seconds, name, status in sorted(suites, reverse=True):
    print(f"{seconds:9.1f}  {name}{'' if status == 'passed' else '  FAILED'}")
print(f"{sum(s for s, _, _ in suites):9.1f}  all suites")
print(f"\n== skipped tests: {len(skipped)}")
for name, reason in skipped:
    print(f"  {name}: {reason or 'no reason given'}")
if issues:
    print(f"\n== issues recorded: {sum('recorded an issue' in line for line in issues)}")
    for line in issues[:60]:
        print(line)
