#!/usr/bin/env bash
# Builds the command-line tool's sources (.ci/cli-package) against OnAir as a versioned dependency:
# the current tree — what is committed and what is not — is committed into a temporary git
# repository and tagged there (a tag of an old commit would test an old tree, and a fresh clone may
# have no tags), then the consumer depends on it with `.package(url: "file://…", from: "0.1.0")`.
# SwiftPM refuses unsafe flags in such a dependency; any warning fails too. It is built as
# scripts/build.sh builds `onair` (release, --static-swift-stdlib) and copied to
# .build/ci-consumer/onair, whose path is printed on stdout: .ci/run runs the suite with that
# binary, so the tests exercise a tool made from OnAir's public API alone, and the release
# build is made once instead of twice.
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
ONAIR_PACKAGE_URL="file://$work/onair" swift build -c release --static-swift-stdlib 2>&1 | tee /tmp/onair-cli-build.log >&2
# The one warning allowed is the linker's about mktemp inside the toolchain's static Foundation
# (libFoundationEssentials.a), printed for every --static-swift-stdlib link.
if grep "warning:" /tmp/onair-cli-build.log | grep -vq "the use of \`mktemp' is dangerous"; then
    echo "CI: the versioned-dependency build has warnings" >&2
    exit 1
fi
mkdir -p "$root/.build/ci-consumer"
cp "$(ONAIR_PACKAGE_URL="file://$work/onair" swift build -c release --static-swift-stdlib --show-bin-path)/onair-cli" "$root/.build/ci-consumer/onair"
echo "CI: built .ci/cli-package against OnAir 0.1.0 from a git repository (by version)" >&2
echo "$root/.build/ci-consumer/onair"
