#!/usr/bin/env python3
"""Runs a command (the `swift test` of scripts/test.sh), passing its output through line by line,
and stops it when it has printed nothing for --silence seconds: then it names the tests that had
started and not ended (Swift Testing's "◇ Test x() started." without its passed/failed line),
kills the command's whole process group and exits 124. --prefix TEXT starts every line it passes
on with TEXT (two lanes of scripts/test.sh print side by side). A hung test then fails the run
within minutes with its name, instead of holding CI until CI's own time limit says nothing useful.

It also measures each suite: when Swift Testing prints a suite's end it adds a line
"test-watchdog: suite NAME: C cores of its own, machine M busy over S s" — C the CPU time of the
test process and its children (onair, ffmpeg, Chromium, aiortc: /proc/PID/stat, the live ones and
the ones waited for) over the suite's wall time, M the whole machine's busy cores (/proc/stat) over the same time.
scripts/test-summary.py prints both beside each suite's time: the measured reason a suite runs
in lane A or alone (scripts/test.sh).

    python3 scripts/test-watchdog.py --silence 600 -- swift test --no-parallel
"""
import os
import re
import select
import signal
import subprocess
import sys
import time


def process_seconds(pid: int) -> float:
    """CPU seconds of a process and its live descendants, each with the children it has waited for
    (utime stime cutime cstime of /proc/PID/stat)."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
                stats[int(entry)] = (int(fields[1]), sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK"))
            except (OSError, IndexError, ValueError):
                pass
    total, family = 0.0, {pid}
    changed = True
    while changed:
        changed = False
        for candidate, (parent, _) in stats.items():
            if parent in family and candidate not in family:
                family.add(candidate)
                changed = True
    for member in family:
        total += stats.get(member, (0, 0.0))[1]
    return total


def machine_seconds() -> float:
    """Busy CPU seconds of the whole machine since boot (all but idle and iowait)."""
    try:
        values = [int(v) for v in open("/proc/stat").readline().split()[1:]]
        return (sum(values[:8]) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def main() -> int:
    args = sys.argv[1:]
    silence, prefix = 600.0, b""
    while len(args) >= 2 and args[0] in ("--silence", "--prefix"):
        if args[0] == "--silence":
            silence = float(args[1])
        else:
            prefix = args[1].encode()
        args = args[2:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        print("usage: test-watchdog.py [--silence SECONDS] [--prefix TEXT] -- COMMAND ...", file=sys.stderr)
        return 2
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    running: dict[str, float] = {}
    suites: dict[str, tuple[float, float, float]] = {}
    pending = b""
    last = time.monotonic()
    out = sys.stdout.buffer
    while True:
        ready, _, _ = select.select([child.stdout], [], [], 5.0)
        if ready:
            chunk = os.read(child.stdout.fileno(), 65536)
            if not chunk:
                if pending:
                    out.write(prefix + pending + b"\n")
                break
            last = time.monotonic()
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                out.write(prefix + raw + b"\n")
                line = raw.decode("utf-8", "replace")
                suite = re.search(r"Suite (.+?) started\.", line)
                if suite:
                    suites[suite.group(1)] = (time.monotonic(), process_seconds(child.pid), machine_seconds())
                suite = re.search(r"Suite (.+?) (passed|failed) after ([0-9.]+) seconds", line)
                began, own, busy = suites.pop(suite.group(1), (0.0, 0.0, 0.0)) if suite else (0.0, 0.0, 0.0)
                wall = time.monotonic() - began
                # Measured only where the lines came as they were printed (not held back by a
                # `swift test` in between): the suite's own time and ours agree.
                # A suite of under a second (one whose tests another lane runs) is not measured.
                if began and float(suite.group(3)) >= 1 and wall >= 0.8 * float(suite.group(3)) - 1:
                    wall = max(wall, 0.001)
                    cores = (process_seconds(child.pid) - own) / wall
                    machine = (machine_seconds() - busy) / wall
                    out.write(
                        prefix + f"test-watchdog: suite {suite.group(1)}: {cores:.2f} cores of its own,"
                        f" machine {machine:.2f} busy over {wall:.0f} s\n".encode())
                started = re.search(r"Test (.+?) started\.", line)
                if started:
                    running[started.group(1)] = last
                ended = re.search(r"Test (.+?) (passed|failed|skipped|recorded)", line)
                if ended and "recorded" not in ended.group(2):
                    running.pop(ended.group(1), None)
            out.flush()
        elif time.monotonic() - last > silence:
            names = ", ".join(sorted(running)) or "none known"
            print(
                f"\n{prefix.decode()}test-watchdog: no output for {silence:.0f} s; tests started and not ended: {names}."
                " Stopping the run.",
                flush=True,
            )
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
            return 124
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
