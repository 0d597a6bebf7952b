#!/usr/bin/env bash
# Refreshes deny/advisory-db/, the RustSec advisories `make lint` checks Cargo.lock against
# offline (scripts/deny.sh): the advisories of every crate Cargo.lock names, copied from a
# clone of https://github.com/rustsec/advisory-db at its newest commit. Only those crates' are
# kept (the whole database is 8 MB, theirs about a tenth of it); run this again after adding a
# dependency (scripts/deny.sh names any crate the snapshot does not cover) and at least every
# few months, since `make lint` fails once the snapshot is older than deny.toml's
# `maximum-db-staleness`.
#
#   scripts/advisory-snapshot.sh                 # clones the database (needs github.com)
#   scripts/advisory-snapshot.sh path/to/clone   # or reads a clone already on disk
set -euo pipefail
cd "$(dirname "$0")/.."

source_repo=${1:-}
if [ -z "$source_repo" ]; then
    source_repo=$(mktemp -d "${TMPDIR:-/tmp}/advisory-db.XXXXXX")
    trap 'rm -rf "$source_repo"' EXIT
    git clone --quiet --depth 1 https://github.com/rustsec/advisory-db "$source_repo"
fi
git -C "$source_repo" rev-parse --verify -q HEAD >/dev/null || {
    echo "advisory-snapshot: $source_repo is not a git clone of the advisory database" >&2
    exit 1
}

out=deny/advisory-db
work=$(mktemp -d "${TMPDIR:-/tmp}/advisory-snapshot.XXXXXX")
git -C "$source_repo" archive HEAD crates | tar -x -C "$work"
rm -rf "$out"
mkdir -p "$out/crates"
# Every crate name in Cargo.lock (path crates too: a crates.io crate of the same name is not
# theirs, and cargo-deny matches advisories by source as well as name).
sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.lock | sort -u >"$out/covered-crates.txt"
while read -r name; do
    [ -d "$work/crates/$name" ] && cp -r "$work/crates/$name" "$out/crates/"
done <"$out/covered-crates.txt"
rm -rf "$work"
# The advisories are CC0-1.0, a few CC-BY-4.0 (those name it and link their source): the licences go along.
git -C "$source_repo" archive HEAD LICENSES | tar -x -C "$out"
{
    echo "source https://github.com/rustsec/advisory-db"
    echo "commit $(git -C "$source_repo" rev-parse HEAD)"
    echo "date $(git -C "$source_repo" show -s --format=%cI HEAD)"
} >"$out/SNAPSHOT"
echo "advisory-snapshot: $(find "$out/crates" -name '*.md' | wc -l) advisories for $(ls "$out/crates" | wc -l) of the $(wc -l <"$out/covered-crates.txt") crates in Cargo.lock ($(sed -n 's/^date //p' "$out/SNAPSHOT"))"
