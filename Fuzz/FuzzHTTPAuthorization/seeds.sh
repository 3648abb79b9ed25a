#!/usr/bin/env bash
# Writes seed Authorization header values for FuzzHTTPAuthorization into directory $1.
set -euo pipefail
out=${1:?usage: seeds.sh DIRECTORY}
mkdir -p "$out"
i=0
for value in 'Basic YWxpY2U6cHc=' 'basic YWxpY2U6' 'Basic Og==' 'Basic !!!' 'Basic YWxpY2U=' 'Bearer tok-123' 'bearer  x ' 'Bearer' 'Digest x' ''; do
    printf '%s' "$value" > "$out/seed$i"
    i=$((i + 1))
done
