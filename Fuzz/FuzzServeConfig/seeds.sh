#!/usr/bin/env bash
# Writes seed configuration files for FuzzServeConfig into directory $1: every kind of key, flow
# and block style, quoting, users with nested maps, and a few broken files.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
cat > "$out/full.yml" <<'YAML'
# every kind of key
listen: 127.0.0.1:8080
max-viewers: 8
token: [secret-token]
webrtc: true
webrtc-ports: 40000-40100
output:
  - /var/lib/onair/rec.ts
data-rate-limit: ["375000:1"]
bframes: no
realtime: yes
size: 1280x720
fps: 30
bitrate: 2M
force-keyframe-at: 1,2.5
metrics-addresses: [10.0.0.0/8, "::1"]
health-addresses: 192.168.1.0/24
tls-cert: /etc/onair/cert.pem
tls-self-signed: false
users:
  - name: alice
    password: "$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA"
    permissions: [read, playback, metrics]
    addresses: [192.168.1.0/24]
YAML
printf 'max-viewers: "3"\nlisten: 8080\n' > "$out/quoted.yml"
printf '{listen: "[::1]:8080", output: [a.ts, "b c.ts"]}\n' > "$out/flow.yml"
printf 'a: &x [1]\nb: *x\n' > "$out/alias.yml"
printf 'max-viewers: 1\nmax-viewers: 2\n' > "$out/twice.yml"
printf 'users: [[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]\n' > "$out/deep.yml"
printf 'output: "tab\\there \\"quoted\\" \\x01"\n' > "$out/escapes.yml"
printf -- '---\nlisten: 1\n...\n---\nb: 2\n' > "$out/documents.yml"
