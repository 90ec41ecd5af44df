#!/usr/bin/env bash
# Starts crown-server's command as systemd would (the unit's ExecStart, with the
# variables of its EnvironmentFile), on a free port, checks that it answers and keeps
# its database where the unit says, and stops it with SIGTERM as systemd does. Used by
# tests/test_debian.sh on the tree's build and by bench/deb-test.sh inside a root where
# the packages are installed.
#   usage: tests/deb/service-try.sh UNIT ENV_FILE [CROWN_BIN STATE_DIR]
# CROWN_BIN and STATE_DIR stand in for /usr/bin/crown and /var/lib/crown when given.
set -eu
unit=$1 env_file=$2 bin=${3:-} state=${4:-}
fail() { echo "service-try: $*" >&2; exit 1; }

exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
[ -n "$exec_start" ] || fail "$unit has no ExecStart"
[ "$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "$unit")" = /etc/crown/serve.conf ] ||
    fail "$unit does not read /etc/crown/serve.conf"
# systemd splits an unquoted $VAR into words, as the shell does; the file's lines are
# plain assignments.
# shellcheck disable=SC1090
set -a && . "$env_file" && set +a
[ -n "$bin" ] && exec_start=${exec_start//\/usr\/bin\/crown/$bin}
[ -n "$state" ] && exec_start=${exec_start//\/var\/lib\/crown/$state}
db_dir=${state:-/var/lib/crown}
exec_start=${exec_start//\$CROWN_SERVE_OPTIONS/${CROWN_SERVE_OPTIONS:-}}
case $exec_start in *'$'*) fail "ExecStart names a variable other than CROWN_SERVE_OPTIONS: $exec_start" ;; esac
# The last --port wins, so the server never meets another on the configured one.
read -r -a cmd <<<"$exec_start --port 0"

log=$(mktemp)
"${cmd[@]}" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -f "$log"' EXIT
port=
for _ in $(seq 300); do
    port=$(sed -n 's|^crown serve: open http://[^ ]*:\([0-9]*\)/.*|\1|p' "$log")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || fail "'${cmd[*]}' exited: $(cat "$log")"
    sleep 0.1
done
[ -n "$port" ] || fail "'${cmd[*]}' did not start within 30 s: $(cat "$log")"

exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$port" >&3
answer=$(cat <&3)
exec 3>&-
case $answer in
"HTTP/1.1 200"*'"ok": true'* | "HTTP/1.1 200"*'"ok":true'*) ;;
*) fail "GET /api/health answered: $answer" ;;
esac
[ -f "$db_dir/crown.db" ] || fail "no database in $db_dir"

kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
trap 'rm -f "$log"' EXIT
[ "$rc" -eq 0 ] || fail "the server exited $rc on SIGTERM: $(cat "$log")"
echo "service-try: '${cmd[*]}' answered on port $port and stopped on SIGTERM"
