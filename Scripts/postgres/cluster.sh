#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on a loopback port, for the tests and for trying
# `mnemo serve --db postgres://…` by hand.
#
#   Scripts/postgres/cluster.sh start DIR PORT   # initdb into DIR (as the postgres user), start,
#                                                # create user and database `mnemo`; prints the URL
#   Scripts/postgres/cluster.sh stop DIR [MODE]  # stop the cluster (the folder stays); MODE is
#                                                # pg_ctl's: fast (default) or immediate (a crash)
#
# Debian's postgresql-15 puts its programs in /usr/lib/postgresql/15/bin; the server refuses to
# run as root, hence `runuser -u postgres` when this script runs as root.
set -euo pipefail

bin=/usr/lib/postgresql/15/bin
[ -x "$bin/initdb" ] || bin=$(dirname "$(command -v initdb)")
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    dir=$2 port=$3
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then
        as_postgres "$bin/initdb" -D "$dir" -U postgres --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    fi
    # 500 connections: the test suite runs many nodes at once, each with a few connections.
    as_postgres "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=500" start >/dev/null
    psql="as_postgres psql -h $dir -p $port -U postgres -v ON_ERROR_STOP=1 -q"
    # Passwords are checked on TCP (scram-sha-256); the socket in DIR trusts the postgres user.
    $psql -tc "SELECT 1 FROM pg_roles WHERE rolname = 'mnemo'" | grep -q 1 ||
        $psql -c "CREATE USER mnemo CREATEDB PASSWORD 'mnemo'"
    # The store erasure tests find the table files and flush every page to them before a scan.
    $psql -c "GRANT pg_read_all_settings, pg_checkpoint TO mnemo"
    $psql -tc "SELECT 1 FROM pg_database WHERE datname = 'mnemo'" | grep -q 1 ||
        $psql -c "CREATE DATABASE mnemo OWNER mnemo"
    echo "postgres://mnemo:mnemo@127.0.0.1:$port/mnemo"
    ;;
stop)
    as_postgres "$bin/pg_ctl" -D "$2" -m "${3:-fast}" -w stop >/dev/null
    ;;
*)
    echo "usage: $0 start DIR PORT | stop DIR [fast|immediate]" >&2
    exit 64
    ;;
esac
