#!/bin/sh
# `make release`: the archive an operator installs (docs/deploy.md, "Releases"), built once on a
# build machine: site-VERSION.tar.gz holding site-VERSION/ with the `api` binary, the built site
# (dist/), site-config.yaml, deploy/ and docs/deploy.md, plus RELEASE (what it was built from)
# and ASSETS (its own hashed assets, which the next release keeps serving during an upgrade).
# Settings: VERSION (default: the crate's version and `git describe`), API_BIN, DIST, OUT_DIR,
# GZIP_LEVEL (6; the deployment test, which makes two archives, uses 1).
set -eu
cd "$(dirname "$0")/.."

crate_version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
VERSION=${VERSION:-$crate_version-$(git describe --always --dirty 2>/dev/null || echo unknown)}
API_BIN=${API_BIN:-target/release/api}
DIST=${DIST:-dist}
OUT_DIR=${OUT_DIR:-target/releases}
GZIP_LEVEL=${GZIP_LEVEL:-6}

case "$VERSION" in
*[!A-Za-z0-9._+-]*) echo "release: VERSION may hold letters, digits and . _ + - only" >&2; exit 2 ;;
esac
for needed in "$API_BIN" "$DIST/index.html" "$DIST/_site.json" "$DIST/assets/manifest.json"; do
    if [ ! -e "$needed" ]; then
        echo "release: $needed is missing (make build makes it)" >&2
        exit 1
    fi
done

name=site-$VERSION
mkdir -p "$OUT_DIR"
stage=$(mktemp -d "$OUT_DIR/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/docs"
cp "$API_BIN" "$stage/$name/api"
# Hard links where the output is on the same file system: the archive is what gets written.
cp -al "$DIST" "$stage/$name/dist" 2>/dev/null || cp -R "$DIST" "$stage/$name/dist"
cp -R deploy "$stage/$name/deploy"
cp site-config.yaml "$stage/$name/"
cp docs/deploy.md "$stage/$name/docs/"
ls -1 "$DIST/assets" | grep -v '^manifest\.json$' >"$stage/$name/ASSETS"
{
    echo "version: $VERSION"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "rustc: $(rustc --version 2>/dev/null || echo unknown)"
    echo "node: $(node --version 2>/dev/null || echo unknown)"
} >"$stage/$name/RELEASE"
tar -C "$stage" --owner=0 --group=0 -cf - "$name" | gzip -"$GZIP_LEVEL" >"$stage/$name.tar.gz"
mv "$stage/$name.tar.gz" "$OUT_DIR/$name.tar.gz"
echo "$OUT_DIR/$name.tar.gz"
