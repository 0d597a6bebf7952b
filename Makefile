# The two commands of the README: `make run` and `make test`. Each installs what it needs.
SHELL := /bin/bash
PORT ?= 8080
export PORT

.PHONY: run test lint build dev bench new invite deps test-deps ui-deps tests-deps ui site site-release release clean

# npm packages at the lock files' versions, installed again only when a lock file changes.
# `npm install`, not `npm ci`: it keeps what node_modules already holds. The locks list every
# platform's optional packages (as npm install writes them on a fresh clone), so it leaves them as
# they are; without those entries it added them, and `npm ci` rejected the lock.
ui/node_modules/.package-lock.json: ui/package-lock.json ui/package.json
	npm --prefix ui install --no-audit --no-fund --loglevel=error
tests/node_modules/.package-lock.json: tests/package-lock.json tests/package.json
	npm --prefix tests install --no-audit --no-fund --loglevel=error

deps:
	@scripts/ensure-deps.sh build
test-deps:
	@scripts/ensure-deps.sh test
ui-deps: deps ui/node_modules/.package-lock.json
tests-deps: test-deps tests/node_modules/.package-lock.json

ui: ui-deps
	npm --prefix ui run --silent build

# One build command per profile, so no target compiles the shared dependencies again with
# another feature set: cargo unifies features over the packages a command names, and a test
# build also turns on the dev-dependencies' features. `make test` builds every test binary and
# both debug binaries in one go; every other target reuses the release binaries of `make run`.
DEBUG_BUILD := cargo test -q --workspace --no-run
RELEASE_BUILD := cargo build -q --release -p generator -p server

# The site with the debug generator (tests) or the release one (run).
site: ui
	$(DEBUG_BUILD)
	target/debug/site build
site-release: ui
	$(RELEASE_BUILD)
	target/release/site build

build: site-release

# The archive an operator installs (docs/deploy.md, "A release"): target/releases/site-VERSION.tar.gz.
release: site-release
	deploy/build-release.sh

run: site-release
	@echo "Serving on http://127.0.0.1:$(PORT) (data in data/)"
	target/release/api serve

dev: ui
	$(RELEASE_BUILD)
	scripts/dev.sh

# The quality checks, cheapest first, so a formatting slip fails in seconds rather than after
# the build. `npm --prefix ui run format` fixes what the prettier check reports. Last, the
# dependency check (licences, bans, sources, advisories from deny/advisory-db/), offline;
# scripts/deny.sh installs cargo-deny the first time.
lint: ui-deps
	cargo fmt --all --check
	npm --prefix ui run --silent format:check
	npm --prefix ui run --silent typecheck
	cargo clippy -q --workspace --all-targets -- -D warnings
	scripts/deny.sh

# The deployment test runs deploy/'s nginx site in front of two instances and a PostgreSQL
# (docs/deploy.md); tests/deploy/aliases.test.mjs runs that nginx site alone on the fixture's
# aliases; tests/deploy/publish.test.mjs runs `site publish` against moto, a local S3-compatible
# server. The browser tests come last: their runner's summary closes the run.
test: lint site tests-deps
	scripts/with-postgres.sh cargo test --workspace
	scripts/schemathesis.sh
	npm --prefix ui test
	scripts/with-postgres.sh node --test tests/deploy/deploy.test.mjs
	node --test tests/deploy/aliases.test.mjs
	node --test tests/deploy/publish.test.mjs
	npm --prefix tests test

# A new page in every language: make new PAGE=notes/my-topic
new:
	$(RELEASE_BUILD)
	target/release/site new $(PAGE)

bench: site-release tests-deps
	bench/run.sh

# Prints a new invitation code as the last line; e.g. `make invite ARGS="--uses 5 --expires-days 30"`.
invite: deps
	$(RELEASE_BUILD)
	target/release/api invite create $(ARGS)

clean:
	rm -rf dist ui/.ssr
