#!/usr/bin/env bash
# Builds the command-line tool's sources (.ci/cli-package) against OnAir as a versioned dependency:
# the current tree — what is committed and what is not — is committed into a temporary git
# repository and tagged there (a tag of an old commit would test an old tree, and a fresh clone may
# have no tags), then the consumer depends on it with `.package(url: "file://…", from: "0.1.0")`.
# SwiftPM refuses unsafe flags in such a dependency; any warning fails too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d /tmp/onair-versioned.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/onair"
# Tracked files as they are in the work tree, plus new files not ignored; symlinks kept as links.
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    mkdir -p "$work/onair/$(dirname "$f")"
    cp -P "$f" "$work/onair/$f"
done
git -C "$work/onair" init -q
git -C "$work/onair" -c user.name=ci -c user.email=ci@localhost add -A
git -C "$work/onair" -c user.name=ci -c user.email=ci@localhost commit -q -m "the tree under test"
git -C "$work/onair" tag 0.1.0
cp -R "$root/.ci/cli-package" "$work/consumer"
# The consumer's sources are a symlink into the tree: point it at the copy.
rm "$work/consumer/Sources/onair-cli"
ln -s "$work/onair/Sources/onair" "$work/consumer/Sources/onair-cli"
cd "$work/consumer"
ONAIR_PACKAGE_URL="file://$work/onair" swift build 2>&1 | tee /tmp/onair-cli-build.log
if grep -q "warning:" /tmp/onair-cli-build.log; then
    echo "CI: the versioned-dependency build has warnings" >&2
    exit 1
fi
echo "CI: built .ci/cli-package against OnAir 0.1.0 from a git repository (by version)" >&2
