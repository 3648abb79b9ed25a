#!/usr/bin/env python3
"""Runs a command (the `swift test` of scripts/test.sh), passing its output through line by line,
and stops it when it has printed nothing for --silence seconds: then it names the tests that had
started and not ended (Swift Testing's "◇ Test x() started." without its passed/failed line),
kills the command's whole process group and exits 124. --prefix TEXT starts every line it passes
on with TEXT (two lanes of scripts/test.sh print side by side). A hung test then fails the run
within minutes with its name, instead of holding CI until CI's own time limit says nothing useful.

    python3 scripts/test-watchdog.py --silence 600 -- swift test --no-parallel
"""
import os
import re
import select
import signal
import subprocess
import sys
import time


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
