#!/usr/bin/env bash
# A throwaway PostgreSQL server for the test suite (Debian's postgresql package; see README).
#   scripts/pg-throwaway.sh start DIR PORT   → prints the DATABASE_URL
#   scripts/pg-throwaway.sh stop DIR
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?directory}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
as_owner() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
case "$cmd" in
  start)
    port=${3:-55432}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    as_owner "'$bin/initdb' -D '$dir/data' -U postgres --auth=trust -E UTF8 >'$dir/initdb.log' 2>&1"
    as_owner "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -o \"-c listen_addresses=127.0.0.1 -p $port -k '$dir' -c fsync=off -c synchronous_commit=off\" -w start >/dev/null"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    # Already stopped (scripts/test.sh stops it after the backend stages, and again when the run ends): nothing to do.
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    as_owner "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop >/dev/null" || true
    ;;
  *) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
