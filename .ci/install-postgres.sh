#!/usr/bin/env bash
# Install Debian's PostgreSQL server packages for the PostgreSQL store's tests
# (tests/pg_support.py starts a throwaway cluster with scripts/pg-cluster.sh). Does nothing when
# a server (initdb and pg_ctl under /usr/lib/postgresql/*/bin) is already installed:
#
#     bash .ci/install-postgres.sh
#
# Exits 1 if the packages cannot be installed (no apt-get, not root and no sudo, no network).
set -euo pipefail

if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "install-postgres: a server is already installed ($(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1))"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-postgres: no apt-get here; install a PostgreSQL server with this system's package manager" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo="sudo -n"
    else
        echo "install-postgres: run as root (apt-get install postgresql)" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends postgresql
# the package starts a cluster of its own as a service: this project's tests run their own
$sudo service postgresql stop >/dev/null 2>&1 || true
echo "install-postgres: installed $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
