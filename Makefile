# cgt — common tasks. `make test` is the command CI runs (see README.md).
GO ?= go

.PHONY: build test race gen gen-check bench fuzz lint fx docs docs-test clean

# Every program: cgt and the siblings its built-ins hand over to (cgt-mcp, cgt-serve, tool-cli,
# cgt-gen), side by side in bin/ as `cgt mcp` expects them.
build:
	$(GO) build -o bin/ ./cmd/...

# The packages that run work concurrently (the ledger reader's parts, the engine's shards, the
# rate table, the servers), tested again under the race detector; -short keeps their large
# inputs small.
RACE_PKGS := ./cgt/... ./mcp/... ./toolcli/... ./envelope/... ./records/...
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

test: lint
	$(GO) test ./...
	$(GO) test -race -short $(RACE_PKGS)

race:
	$(GO) test -race -short $(RACE_PKGS)

gen:
	$(GO) run ./cmd/cgt-gen

gen-check:
	$(GO) run ./cmd/cgt-gen --check

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Each fuzz target runs for FUZZTIME (default 20s).
FUZZTIME ?= 20s
fuzz:
	@for t in $$($(GO) test -list 'Fuzz.*' ./cgt/... | grep ^Fuzz); do \
		pkg=$$(grep -rl "func $$t(" --include='*_test.go' cgt | xargs -n1 dirname | head -1); \
		echo "fuzz $$t in ./$$pkg"; \
		$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) ./$$pkg || exit 1; \
	done

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "not gofmt-ed (run gofmt -w):"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# Rebuild the embedded HMRC monthly rate table from HMRC's XML files.
HMRC_DIR ?= ../shared/hmrc-rates/monthly
fx:
	$(GO) run ./cmd/fxgen -in $(HMRC_DIR) -out cgt/fx/rates.csv

# The documentation site (docs-site/, Astro Starlight on Node.js 20): install pinned packages,
# build with the broken-link check; docs-test also runs the headless-chromium browser test.
NPM_CI := npm ci --no-audit --no-fund
docs:
	cd docs-site && $(NPM_CI) && npm run build

docs-test: docs
	cd docs-site && npm run test:browser

clean:
	rm -rf bin
