#!/usr/bin/env bash
# Tests wait for events, not for the clock: every fixed sleep in Tests/ goes through the one
# deadline helper (Tests/OnAirTestSupport/Deadline.swift: waitUntil, letTimePass with its reason),
# and no test picks a port ahead of the server that binds it (see "Ports" below).
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(grep -rnE 'Thread\.sleep|usleep\(|[^.A-Za-z_]sleep\(' Tests --include='*.swift' | grep -v '^Tests/OnAirTestSupport/Deadline.swift:' | grep -v 'Task\.sleep' || true)
if [ -n "$found" ]; then
    echo "check-test-waits: sleeps outside Tests/OnAirTestSupport/Deadline.swift (use waitUntil or letTimePass):" >&2
    echo "$found" >&2
    exit 1
fi
# Ports: our servers bind port 0 and name the port they got (a ready line, the library's
# endpoints); an outside peer that cannot name it gets one from StreamTestPorts.peer, which starts
# it again on another port when that one is taken. No port is bound, closed and handed on
# (FreePort's race), nor drawn at random without that retry.
ports=$(grep -rnE '\bFreePort\b|StreamTestPorts\.free\b|\bfree_?[pP]ort\b|[pP]ort = (Int\.)?random' Tests --include='*.swift' --include='*.py' \
    | grep -v '^Tests/OnAirCLITests/StreamTestPorts.swift:' || true)
if [ -n "$ports" ]; then
    echo "check-test-waits: a port picked ahead of its server (bind port 0 and read the port back, or StreamTestPorts.peer):" >&2
    echo "$ports" >&2
    exit 1
fi
echo "check-test-waits: every fixed wait in Tests/ goes through the deadline helper ($(grep -rn 'letTimePass(' Tests --include='*.swift' | grep -vc Deadline.swift) letTimePass calls); no port picked ahead of its server"
