#!/usr/bin/env bash
# A throwaway offline IPFS node (js-ipfs, tools/ipfs-node; docs/decisions/076) for the IPFS suites.
#   scripts/ipfs-throwaway.sh install        → npm ci in tools/ipfs-node when its lockfile changed (npm packages only)
#   scripts/ipfs-throwaway.sh start DIR      → prints the IPFS_API_URL (repository under DIR, API on a free port)
#   scripts/ipfs-throwaway.sh stop DIR
set -euo pipefail
tool="$(cd "$(dirname "$0")/../tools/ipfs-node" && pwd)"
cmd=${1:?install|start|stop}
case "$cmd" in
  install)
    # Cached by the lockfile: the installed tree keeps a copy of the lockfile it was made from.
    if ! cmp -s "$tool/package-lock.json" "$tool/node_modules/.package-lock.installed.json" 2>/dev/null; then
      # No install scripts: the one native module (classic-level) ships prebuilt binaries in its npm package.
      (cd "$tool" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
      cp "$tool/package-lock.json" "$tool/node_modules/.package-lock.installed.json"
    fi
    ;;
  start)
    dir=${2:?directory}
    mkdir -p "$dir"
    node "$tool/node.mjs" --repo "$dir/repo" >"$dir/out" 2>"$dir/node.log" &
    echo $! >"$dir/pid"
    for _ in $(seq 1 600); do
      url=$(sed -n 's/^IPFS_API_URL=//p' "$dir/out")
      if [ -n "$url" ]; then echo "$url"; exit 0; fi
      kill -0 "$(cat "$dir/pid")" 2>/dev/null || { cat "$dir/node.log" >&2; exit 1; }
      sleep 0.1
    done
    echo "the IPFS node did not start in 60 s" >&2
    exit 1
    ;;
  stop)
    dir=${2:?directory}
    [ -f "$dir/pid" ] || exit 0
    pid=$(cat "$dir/pid")
    if kill "$pid" 2>/dev/null; then
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/pid"
    ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
