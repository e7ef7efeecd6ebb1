#!/usr/bin/env bash
# Four Hardhat nodes (EDR, tools/hardhat-nodes; docs/decisions/094) for the chain stage of the test command: real
# EVM nodes by URL, chain ids 31337 (open-alliance), 31338 (the test network), 31339 and 31340 (the pool: the chains
# made at run time, spread over two nodes so that cross-chain messages cross between nodes), each with a fresh
# treasury key.
#   scripts/hardhat-nodes.sh install     → npm ci in tools/hardhat-nodes when its lockfile changed (npm packages only)
#   scripts/hardhat-nodes.sh start DIR   → starts them on free ports and prints the CHAIN_NODES file's path
#   scripts/hardhat-nodes.sh stop DIR
set -euo pipefail
tool="$(cd "$(dirname "$0")/../tools/hardhat-nodes" && pwd)"
cmd=${1:?install|start|stop}
case "$cmd" in
  install)
    if ! cmp -s "$tool/package-lock.json" "$tool/node_modules/.package-lock.installed.json" 2>/dev/null; then
      # No install scripts: EDR's engine ships prebuilt in its npm package (@nomicfoundation/edr-linux-x64-gnu).
      (cd "$tool" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
      cp "$tool/package-lock.json" "$tool/node_modules/.package-lock.installed.json"
    fi
    ;;
  start)
    dir=${2:?directory}
    mkdir -p "$dir"
    entries=()
    for spec in "31337 open-alliance" "31338 test-network" "31339 *" "31340 *"; do
      read -r chain_id chains <<<"$spec"
      port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
      key=0x$(node -e 'console.log(require("crypto").randomBytes(32).toString("hex"))')
      # exec: the recorded pid is the node's own, and nothing here keeps the caller's stdout open.
      (cd "$tool" && HH_CHAIN_ID=$chain_id HH_TREASURY_KEY=$key HARDHAT_DISABLE_TELEMETRY_PROMPT=true CI=true \
        exec node node_modules/hardhat/internal/cli/cli.js --config hardhat.config.cjs node --hostname 127.0.0.1 \
        --port "$port") </dev/null >"$dir/node-$chain_id.log" 2>&1 &
      echo $! >"$dir/pid-$chain_id"
      entries+=("{\"url\":\"http://127.0.0.1:$port\",\"treasuryKey\":\"$key\",\"chains\":[\"$chains\"]}")
    done
    for chain_id in 31337 31338 31339 31340; do
      url=$(printf '%s\n' "${entries[@]}" | grep -o '"url":"[^"]*"' | sed -n "$((chain_id - 31336))p" | cut -d'"' -f4)
      for _ in $(seq 1 300); do
        if curl -sf -X POST -H 'content-type: application/json' \
          --data '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$url" >/dev/null 2>&1; then break; fi
        kill -0 "$(cat "$dir/pid-$chain_id")" 2>/dev/null || { cat "$dir/node-$chain_id.log" >&2; exit 1; }
        sleep 0.1
      done
    done
    (IFS=,; echo "{\"nodes\":[${entries[*]}]}") >"$dir/chain-nodes.json"
    echo "$dir/chain-nodes.json"
    ;;
  stop)
    dir=${2:?directory}
    for pidfile in "$dir"/pid-*; do
      [ -f "$pidfile" ] || continue
      pid=$(cat "$pidfile")
      if kill "$pid" 2>/dev/null; then
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
      fi
      rm -f "$pidfile"
    done
    ;;
  *) echo "usage: $0 install | start DIR | stop DIR" >&2; exit 2 ;;
esac
