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
# The documentation's Swift blocks and the Examples programs build in the same package, against
# the same compile of OnAir (DocumentationSnippetTests would otherwise build OnAir once more, in
# debug, in the middle of the suite: four minutes of both cores beside real-time tests). Each
# becomes a program with its exact source kept beside the binary; the test takes these programs
# only when every source it extracts itself matches, and builds its own otherwise.
python3 - "$root" "$work/consumer" <<'PY'
import os, sys
root, consumer = sys.argv[1], sys.argv[2]
def markdown(folder):
    path = os.path.join(root, folder)
    return sorted(os.path.join(path, n) for n in os.listdir(path) if n.endswith(".md"))
# As DocumentationSnippetTests.snippets(): README, docs/, the DocC catalog; a block's target is
# "Snippet" + the document's name (letters and digits) + the line its code starts on.
programs = {}
for document in [os.path.join(root, "README.md")] + markdown("docs") + markdown("Sources/OnAir/OnAir.docc"):
    lines = open(document, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip(" \t") != "```swift":
            index += 1
            continue
        start = end = index + 1
        while end < len(lines) and lines[end].strip(" \t") != "```":
            end += 1
        name = "".join(c for c in os.path.splitext(os.path.basename(document))[0] if c.isalnum())
        programs[f"Snippet{name}{start}"] = "\n".join(lines[start:end])
        index = end + 1
for example in ("StreamAppFrames", "MiniPlayer"):
    programs[example] = open(os.path.join(root, "Examples/Sources", example, "main.swift"), encoding="utf-8").read()
targets = ""
for target, code in programs.items():
    os.makedirs(os.path.join(consumer, "Sources", target))
    open(os.path.join(consumer, "Sources", target, "main.swift"), "w", encoding="utf-8").write(code)
    targets += f'        .executableTarget(name: "{target}", dependencies: [.product(name: "OnAir", package: "OnAir")]),\n'
manifest = open(os.path.join(consumer, "Package.swift"), encoding="utf-8").read()
marker = "    targets: [\n"
assert marker in manifest, "no targets list in .ci/cli-package/Package.swift"
open(os.path.join(consumer, "Package.swift"), "w", encoding="utf-8").write(manifest.replace(marker, marker + targets, 1))
open(os.path.join(consumer, "programs.txt"), "w").write("\n".join(programs) + "\n")
PY
cd "$work/consumer"
ONAIR_PACKAGE_URL="file://$work/onair" swift build -c release --static-swift-stdlib 2>&1 | tee /tmp/onair-cli-build.log >&2
# The one warning allowed is the linker's about mktemp inside the toolchain's static Foundation
# (libFoundationEssentials.a), printed for every --static-swift-stdlib link.
if grep "warning:" /tmp/onair-cli-build.log | grep -vq "the use of \`mktemp' is dangerous"; then
    echo "CI: the versioned-dependency build has warnings" >&2
    exit 1
fi
mkdir -p "$root/.build/ci-consumer"
bin="$(ONAIR_PACKAGE_URL="file://$work/onair" swift build -c release --static-swift-stdlib --show-bin-path)"
cp "$bin/onair-cli" "$root/.build/ci-consumer/onair"
# The programs of the documentation's blocks and of Examples/, each with its source.
rm -rf "$root/.build/ci-consumer/snippets"
mkdir -p "$root/.build/ci-consumer/snippets"
while read -r program; do
    cp "$bin/$program" "$root/.build/ci-consumer/snippets/$program"
    cp "Sources/$program/main.swift" "$root/.build/ci-consumer/snippets/$program.swift"
done <programs.txt
echo "CI: built .ci/cli-package against OnAir 0.1.0 from a git repository (by version), with the $(wc -l <programs.txt) programs of the documentation's Swift blocks and Examples/" >&2

# The second consumer records and streams only: OnAir by version with no trait. Neither its
# compile and link commands nor its binary may reach GStreamer, libmicrohttpd or SDL2 (their
# headers are installed here, so a build that succeeds proves nothing by itself).
cp -R "$root/.ci/recording-consumer" "$work/recording"
cd "$work/recording"
ONAIR_PACKAGE_URL="file://$work/onair" swift build -v >/tmp/onair-recording-build.log 2>&1 || {
    tail -40 /tmp/onair-recording-build.log >&2
    exit 1
}
# -v echoes each manifest's compile command as "warning: 'name': …swift-frontend … Package.swift".
if grep "warning:" /tmp/onair-recording-build.log | grep -v "the use of \`mktemp' is dangerous" |
    grep -Evq "^warning: '[^']+': [^ ]*swift-frontend .*-primary-file [^ ]*Package\.swift "; then
    echo "CI: the recording consumer's build has warnings" >&2
    exit 1
fi
if grep -Eo -- "-I[^ ]*(gstreamer|SDL2)[^ ]*|-l(gst|SDL2|microhttpd)[^ ]*" /tmp/onair-recording-build.log | sort -u | grep . >&2; then
    echo "CI: the recording consumer's build reached GStreamer, SDL2 or libmicrohttpd" >&2
    exit 1
fi
binary="$(ONAIR_PACKAGE_URL="file://$work/onair" swift build --show-bin-path)/record-stream"
if ldd "$binary" | grep -E "libgst|libSDL2|libmicrohttpd" >&2; then
    echo "CI: the recording consumer links GStreamer, SDL2 or libmicrohttpd" >&2
    exit 1
fi
# A UDP receiver on a free loopback port counts what the stream sends.
python3 - "$work/udp" <<'PY' &
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
open(sys.argv[1] + ".port", "w").write(str(s.getsockname()[1]))
s.settimeout(10)
total = 0
try:
    while True:
        total += len(s.recv(65536))
        s.settimeout(2)
except socket.timeout:
    pass
open(sys.argv[1] + ".bytes", "w").write(str(total))
PY
receiver=$!
for _ in $(seq 50); do [ -s "$work/udp.port" ] && break; sleep 0.1; done
"$binary" "$work/clip.mp4" "udp://127.0.0.1:$(cat "$work/udp.port")" 2 | tee "$work/consumer.out" >&2
wait "$receiver"
sent=$(cat "$work/udp.bytes")
# What the one encode made (a loaded machine drops frames at the source, so not a fixed count):
# the file must hold every one of them, and the stream must have carried them.
encoded=$(sed -n 's/^stopped: .*, \([0-9]*\) video frames encoded$/\1/p' "$work/consumer.out")
frames=$(ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0 "$work/clip.mp4")
audio=$(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name -of csv=p=0 "$work/clip.mp4")
if [ "${encoded:-0}" -lt 10 ] || [ "${frames:-0}" -ne "${encoded:-0}" ] || [ "$audio" != "aac" ] || [ "${sent:-0}" -lt $(( ${encoded:-0} * 1000 )) ]; then
    echo "CI: the recording consumer encoded ${encoded:-no} video frames; its file has $frames and audio '$audio', its stream sent $sent bytes (want the file to hold every frame, at least 10, aac, >= 1 kB a frame)" >&2
    exit 1
fi
echo "CI: built .ci/recording-consumer against OnAir 0.1.0 with no trait: no GStreamer, libmicrohttpd or SDL2; its 2 s recording has $frames video frames and AAC, its UDP stream $sent bytes" >&2
echo "$root/.build/ci-consumer/onair"
