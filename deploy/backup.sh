#!/bin/sh
# One backup of the site (run daily by site-backup.timer; docs/deploy.md, "Backups and restore"):
# `api backup` writes $BACKUP_DIR/site-<UTC time>/ (database, invitation key, settings' names),
# backups older than $BACKUP_KEEP_DAYS go (the newest $BACKUP_KEEP_MIN stay whatever their age,
# so a host that stopped backing up keeps its last ones), then the directory is copied off the
# host when BACKUP_RSYNC_TARGET (rsync over ssh) or BACKUP_RCLONE_TARGET (rclone: S3 and other
# object stores) is set. The api's settings (DATABASE_URL, DATA_DIR, INVITE_KEY) come from the
# environment, as for the server.
set -eu

BACKUP_DIR=${BACKUP_DIR:-/var/backups/site}
BACKUP_KEEP_DAYS=${BACKUP_KEEP_DAYS:-14}
BACKUP_KEEP_MIN=${BACKUP_KEEP_MIN:-7}
API=${API:-/opt/site/current/api}

case "$BACKUP_KEEP_DAYS$BACKUP_KEEP_MIN" in
*[!0-9]*) echo "backup: BACKUP_KEEP_DAYS and BACKUP_KEEP_MIN must be whole numbers" >&2; exit 2 ;;
esac

# The name carries the time, so names sort by age and the retention below needs no file dates
# (which a copy may change).
name=site-$(date -u +%Y%m%dT%H%M%SZ)
"$API" backup "$BACKUP_DIR/$name"

oldest_kept=site-$(date -u -d "-$BACKUP_KEEP_DAYS days" +%Y%m%dT%H%M%SZ)
# Newest first; the first BACKUP_KEEP_MIN are kept whatever their age.
ls -1 "$BACKUP_DIR" | grep -E '^site-[0-9]{8}T[0-9]{6}Z$' | sort -r | tail -n +"$((BACKUP_KEEP_MIN + 1))" |
    while read -r old; do
        if [ "$old" \< "$oldest_kept" ]; then
            rm -rf "${BACKUP_DIR:?}/$old"
            echo "backup: removed $old (older than $BACKUP_KEEP_DAYS days)"
        fi
    done

# Off the host: the same set of backups, so the copy keeps the same retention.
if [ -n "${BACKUP_RSYNC_TARGET:-}" ]; then
    rsync -a --delete --include='site-*/***' --exclude='*' "$BACKUP_DIR/" "$BACKUP_RSYNC_TARGET"
    echo "backup: copied to $BACKUP_RSYNC_TARGET"
fi
if [ -n "${BACKUP_RCLONE_TARGET:-}" ]; then
    rclone sync --include 'site-*/**' "$BACKUP_DIR" "$BACKUP_RCLONE_TARGET"
    echo "backup: copied to $BACKUP_RCLONE_TARGET"
fi
