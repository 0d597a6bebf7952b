#!/bin/sh
# Installs a release archive (make release) and moves the instances onto it one at a time, or
# moves them back to the release before it (docs/deploy.md, "Upgrades and rollbacks"):
#
#   upgrade.sh install /tmp/site-0.2.0-abc1234.tar.gz
#   upgrade.sh rollback
#
# Releases live in $SITE_ROOT/releases/NAME; $SITE_ROOT/current names the one the instances run
# (api@.service starts $SITE_ROOT/current/api) and $SITE_ROOT/previous the one before. An instance
# is restarted only once the one before it answers /api/health and nginx has had time to take it
# back: nginx skips an instance for fail_timeout after it refused a connection, and stopping the
# next one inside that window would leave none. The script returns only when nginx uses them all. The new release also serves the hashed assets of
# the one it replaces (listed in its ASSETS file), so a page from an instance still on the old
# release finds its scripts on a new one; nginx's `proxy_next_upstream http_404` covers the other
# way round.
#
# Settings: SITE_ROOT (/opt/site), INSTANCES (the ports: "8081 8082"), NGINX_FAIL_TIMEOUT (the
# upstream's fail_timeout in seconds: 5), HEALTH_TIMEOUT (seconds an instance has to answer: 60),
# SYSTEMCTL (systemctl; the deployment test passes a stand-in), NGINX_RELOAD (the command that
# makes nginx read its configuration again: nginx includes the current release's
# dist/_aliases.nginx.conf, the pages' old addresses, so it must read the new release's).
set -eu

SITE_ROOT=${SITE_ROOT:-/opt/site}
INSTANCES=${INSTANCES:-8081 8082}
NGINX_FAIL_TIMEOUT=${NGINX_FAIL_TIMEOUT:-5}
HEALTH_TIMEOUT=${HEALTH_TIMEOUT:-60}
SYSTEMCTL=${SYSTEMCTL:-systemctl}
NGINX_RELOAD=${NGINX_RELOAD:-nginx -t -q && systemctl reload nginx}

say() { echo "upgrade: $*" >&2; }
fail() {
    say "$*"
    exit 1
}

# Points $SITE_ROOT/$1 at releases/$2 in one rename, so it never names nothing.
point() {
    ln -sfn "releases/$2" "$SITE_ROOT/.$1.new"
    mv -T "$SITE_ROOT/.$1.new" "$SITE_ROOT/$1"
}

release_of() {
    link=$(readlink "$SITE_ROOT/$1" 2>/dev/null) || return 0
    basename "$link"
}

# Copies the hashed assets release $1 built (its ASSETS list) into release $2's dist/assets/,
# leaving every file $2 has of its own as it is.
keep_assets() {
    [ -f "$SITE_ROOT/releases/$1/ASSETS" ] || return 0
    while read -r asset; do
        case "$asset" in '' | */* | .*) continue ;; esac
        from=$SITE_ROOT/releases/$1/dist/assets/$asset
        to=$SITE_ROOT/releases/$2/dist/assets/$asset
        if [ -f "$from" ] && [ ! -e "$to" ]; then cp -p "$from" "$to"; fi
    done <"$SITE_ROOT/releases/$1/ASSETS"
}

# Moves `current` to release $1 and has nginx read that release's aliases; back to $2 (when
# there is one) if nginx refuses them.
switch_to() {
    point current "$1"
    if ! sh -c "$NGINX_RELOAD"; then
        [ -n "$2" ] && point current "$2"
        fail "nginx refused the configuration with $1's aliases (nginx -t); the instances were not touched"
    fi
}

healthy() {
    curl -fsS --max-time 5 "http://127.0.0.1:$1/api/health" >/dev/null 2>&1
}

# Restarts each instance in turn on what $SITE_ROOT/current names.
roll() {
    set -- $INSTANCES
    while [ $# -gt 0 ]; do
        port=$1
        shift
        say "restarting api@$port"
        $SYSTEMCTL restart "api@$port"
        waited=0
        until healthy "$port"; do
            waited=$((waited + 1))
            if [ "$waited" -gt $((HEALTH_TIMEOUT * 5)) ]; then
                fail "api@$port does not answer /api/health after ${HEALTH_TIMEOUT}s (journalctl -u api@$port); the instances after it were not touched"
            fi
            sleep 0.2
        done
        # Once back, an instance is tried again by nginx only after fail_timeout. Also after the
        # last one: a rollback or another upgrade right after this one must find them all in use.
        sleep $((NGINX_FAIL_TIMEOUT + 1))
    done
}

install_archive() {
    archive=$1
    [ -f "$archive" ] || fail "no archive at $archive"
    name=$(basename "$archive" .tar.gz)
    case "$name" in site-*) ;; *) fail "$archive is not a release archive (site-VERSION.tar.gz, made by make release)" ;; esac
    old=$(release_of current)
    [ "$name" != "$old" ] || fail "the instances run $name already"
    # A release unpacked before (going back more than one release) is used as it is.
    if [ ! -d "$SITE_ROOT/releases/$name" ]; then
        mkdir -p "$SITE_ROOT/releases"
        unpack=$SITE_ROOT/releases/.unpack-$name
        rm -rf "$unpack"
        mkdir "$unpack"
        tar -xzf "$archive" -C "$unpack" || fail "cannot unpack $archive"
        [ -x "$unpack/$name/api" ] && [ -f "$unpack/$name/dist/_site.json" ] || fail "$archive lacks $name/api or $name/dist"
        mv "$unpack/$name" "$SITE_ROOT/releases/$name"
        rm -rf "$unpack"
    fi
    if [ -n "$old" ]; then
        keep_assets "$old" "$name"
        point previous "$old"
    fi
    switch_to "$name" "$old"
    say "installed $name${old:+ (previous: $old)}"
    roll
    say "every instance runs $name"
}

rollback() {
    old=$(release_of previous)
    now=$(release_of current)
    [ -n "$old" ] && [ -d "$SITE_ROOT/releases/$old" ] || fail "no previous release to go back to ($SITE_ROOT/previous)"
    keep_assets "$now" "$old"
    point previous "$now"
    switch_to "$old" "$now"
    say "going back from $now to $old"
    roll
    say "every instance runs $old"
}

case "${1:-}" in
install)
    [ $# -eq 2 ] || fail "usage: $0 install ARCHIVE"
    install_archive "$2"
    ;;
rollback)
    [ $# -eq 1 ] || fail "usage: $0 rollback"
    rollback
    ;;
*) fail "usage: $0 install ARCHIVE | $0 rollback" ;;
esac
