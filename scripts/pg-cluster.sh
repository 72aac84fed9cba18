#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1, for the tests, the benchmarks and trying the
# PostgreSQL store by hand. It uses Debian's server packages (postgresql: initdb and pg_ctl under
# /usr/lib/postgresql/*/bin; `bash .ci/install-postgres.sh` installs them). The server refuses to
# run as root: as root, the cluster runs as the `postgres` user (runuser), in a folder it owns.
#
#     scripts/pg-cluster.sh start [DIR] [--fast]   make and start a cluster in DIR (default: a new
#                                                  temporary folder) on a free port; prints
#                                                  LEDGER_PG_DIR=... and LEDGER_PG_URL=...
#     scripts/pg-cluster.sh env DIR                the same two lines for a running cluster
#     scripts/pg-cluster.sh stop DIR               stop it and remove DIR
#
# --fast turns off fsync, synchronous_commit and full-page writes: a crash of the machine loses
# the cluster (the tests do not care); without it the server is as durable as any.
#
#     eval "$(scripts/pg-cluster.sh start)"; ledger ingest sample_logs --db "$LEDGER_PG_URL"
#     scripts/pg-cluster.sh stop "$LEDGER_PG_DIR"
#
# The URL names the database `ledger` as the superuser `ledger` (trust authentication, loopback
# only). Exit 1 with a message on stderr when no cluster can be started.
set -euo pipefail

die() { echo "pg-cluster: $*" >&2; exit 1; }

bindir() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$found" ] && command -v pg_config >/dev/null 2>&1; then
        found=$(pg_config --bindir)
    fi
    [ -n "$found" ] && [ -x "$found/initdb" ] && [ -x "$found/pg_ctl" ] || \
        die "no PostgreSQL server here (initdb, pg_ctl); install Debian's postgresql package (bash .ci/install-postgres.sh)"
    echo "$found"
}

# run a server program as the cluster's owner: `postgres` when we are root, else ourselves
as_owner() {
    if [ "$(id -u)" = "0" ]; then
        id postgres >/dev/null 2>&1 || die "running as root and there is no 'postgres' user to run the server as"
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

print_env() {
    local dir=$1
    [ -f "$dir/port" ] || die "$dir holds no cluster made by this script"
    echo "LEDGER_PG_DIR=$dir"
    echo "LEDGER_PG_URL=postgresql://ledger@127.0.0.1:$(cat "$dir/port")/ledger"
}

start() {
    local dir="" fast=0
    for arg in "$@"; do
        case "$arg" in
            --fast) fast=1 ;;
            *) dir=$arg ;;
        esac
    done
    local bin; bin=$(bindir)
    if [ -z "$dir" ]; then
        dir=$(mktemp -d "${TMPDIR:-/tmp}/ledger-pg.XXXXXX")
    fi
    mkdir -p "$dir"
    [ -e "$dir/data" ] && die "$dir/data exists: stop that cluster first (scripts/pg-cluster.sh stop $dir)"
    if [ "$(id -u)" = "0" ]; then
        chown postgres: "$dir"
        chmod 0700 "$dir"
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U ledger --auth=trust --encoding=UTF8 --no-locale \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    local options="-c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c max_connections=200"
    if [ "$fast" = "1" ]; then
        options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    fi
    local port tries=0
    while :; do
        port=$(free_port)
        if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
                -o "-p $port $options" start >/dev/null 2>&1; then
            break
        fi
        tries=$((tries + 1))
        [ "$tries" -lt 3 ] || { tail -n 20 "$dir/server.log" >&2 || true; die "the server did not start"; }
    done
    echo "$port" >"$dir/port"
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U ledger ledger || die "createdb failed"
    print_env "$dir"
}

stop() {
    local dir=${1:-}
    [ -n "$dir" ] || die "usage: scripts/pg-cluster.sh stop DIR"
    if [ -d "$dir/data" ]; then
        local bin; bin=$(bindir)
        as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) shift; start "$@" ;;
    stop) shift; stop "$@" ;;
    env) shift; print_env "${1:?usage: scripts/pg-cluster.sh env DIR}" ;;
    *) echo "usage: scripts/pg-cluster.sh start [DIR] [--fast] | env DIR | stop DIR" >&2; exit 2 ;;
esac
