#!/bin/sh
# systemctl for the upgrade test, which has no systemd: `restart api@PORT` and `stop api@PORT` do
# what deploy/api@.service makes systemd do. Stop: SIGTERM (its KillSignal) to the instance in
# $RUN_DIR/PORT.pid, then wait until it has exited. Start: $SITE_ROOT/current/api serve on
# 127.0.0.1:PORT from $SITE_ROOT/current (its ExecStart and WorkingDirectory), settings from the
# environment (its EnvironmentFile), output appended to $RUN_DIR/PORT.log.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 restart|stop api@PORT" >&2; exit 2; }
port=${2#api@}
pidfile=$RUN_DIR/$port.pid

running() {
    # A zombie (exited, not yet reaped by whoever adopted it) has stopped too.
    [ -r "/proc/$1/stat" ] && ! sed 's/^.*) //' "/proc/$1/stat" | grep -q '^Z'
}

if [ -f "$pidfile" ]; then
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null || true
    while running "$pid"; do sleep 0.05; done
    rm -f "$pidfile"
fi
case "$1" in
stop) exit 0 ;;
restart) ;;
*) echo "$0: unknown command $1" >&2; exit 2 ;;
esac
cd "$SITE_ROOT/current"
setsid "$SITE_ROOT/current/api" serve --listen "127.0.0.1:$port" >>"$RUN_DIR/$port.log" 2>&1 </dev/null &
echo $! >"$pidfile"
