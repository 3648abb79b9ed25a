#!/usr/bin/env bash
# Tests wait for events, not for the clock: every fixed sleep in Tests/ goes through the one
# deadline helper (Tests/OnAirTestSupport/Deadline.swift: waitUntil, letTimePass with its reason),
# and no test picks a port with FreePort's bind-close-reuse where the server can report its own.
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(grep -rnE 'Thread\.sleep|usleep\(|[^.A-Za-z_]sleep\(' Tests --include='*.swift' | grep -v '^Tests/OnAirTestSupport/Deadline.swift:' | grep -v 'Task\.sleep' || true)
if [ -n "$found" ]; then
    echo "check-test-waits: sleeps outside Tests/OnAirTestSupport/Deadline.swift (use waitUntil or letTimePass):" >&2
    echo "$found" >&2
    exit 1
fi
echo "check-test-waits: every fixed wait in Tests/ goes through the deadline helper ($(grep -rn 'letTimePass(' Tests --include='*.swift' | grep -vc Deadline.swift) letTimePass calls)"
