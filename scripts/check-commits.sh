#!/usr/bin/env bash
# Every commit subject since the rule began (after 6068e21) is one line of at most 72 characters,
# so that `git log --oneline` reads; the why goes in the body.
set -euo pipefail
cd "$(dirname "$0")/.."
since=6068e21
if ! git cat-file -e "$since^{commit}" 2>/dev/null; then
    echo "check-commits: $since is not in this clone's history (shallow?); nothing checked" >&2
    exit 0
fi
long=$(git log --format='%h %s' "$since..HEAD" | awk '{ subject = substr($0, index($0, " ") + 1); if (length(subject) > 72) print }')
if [ -n "$long" ]; then
    echo "check-commits: subjects over 72 characters:" >&2
    echo "$long" >&2
    exit 1
fi
echo "check-commits: $(git rev-list --count "$since..HEAD") subjects of at most 72 characters"
