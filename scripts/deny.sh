#!/usr/bin/env bash
# The dependency check of `make lint`: `cargo deny check` (deny.toml) for advisories, bans,
# licences and sources, offline. The advisories come from the snapshot in deny/advisory-db/
# (scripts/advisory-snapshot.sh), laid out as the git checkout cargo-deny opens; the crates
# themselves are fetched from crates.io beforehand (`cargo fetch`), as cargo-deny's offline run
# reads every crate's manifest, other platforms' included. Installs cargo-deny when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo-deny >/dev/null 2>&1; then
    echo "cargo-deny: installing from crates.io (cargo install --locked cargo-deny; compiles a few hundred crates, once)" >&2
    cargo install --locked --quiet cargo-deny
fi

snapshot=deny/advisory-db
# cargo-deny keeps each database under db-path in a directory named after its URL (the last
# path segment and the URL's XxHash64 with cargo-deny's seed): this one is deny.toml's
# https://github.com/rustsec/advisory-db.
checkout=target/cargo-deny/advisory-db-3157b0e258782691
stamp=$checkout/.git/snapshot-commit
want=$(sed -n 's/^commit //p' "$snapshot/SNAPSHOT")
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    rm -rf "$checkout"
    mkdir -p "$checkout"
    cp -r "$snapshot/crates" "$checkout/"
    date=$(sed -n 's/^date //p' "$snapshot/SNAPSHOT")
    git -C "$checkout" init --quiet
    git -C "$checkout" add crates
    GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date git -C "$checkout" \
        -c user.name=advisory-snapshot -c user.email=advisory-snapshot@localhost -c commit.gpgsign=false \
        commit --quiet -m "RustSec advisory-db $want"
    # cargo-deny dates a database by its HEAD file as well as its commit: the snapshot's own
    # date, so deny.toml's maximum-db-staleness measures the snapshot, not this copy.
    touch -d "$date" "$checkout/.git/HEAD"
    echo "$want" >"$stamp"
fi

# Crates that came into Cargo.lock after the snapshot was made have not been looked up in it.
new=$(comm -13 "$snapshot/covered-crates.txt" <(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.lock | sort -u))
if [ -n "$new" ]; then
    echo "cargo-deny: the advisory snapshot predates these crates of Cargo.lock; run scripts/advisory-snapshot.sh: $(echo $new)" >&2
fi

cargo fetch --locked --quiet
# Errors in full; the warnings (crates in several versions) only counted: `cargo deny --offline
# check bans` lists them.
cargo deny --offline --log-level error check --show-stats advisories bans licenses sources
