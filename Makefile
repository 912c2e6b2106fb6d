# cgt — common tasks. `make test` is the command CI runs (see README.md).
GO ?= go

.PHONY: build test race gen gen-check bench bench-report bench-mcp bench-toolcli ledgers fuzz lint fx docs docs-test clean

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

# Every benchmark, with the bytes allocated beside each time (-benchmem; the report and engine
# benchmarks add B/line or B/txn and CPU time). docs/performance.md says what each measures
# and how to compare two builds.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The paths with performance targets, one at a time (BENCHTIME: -benchtime; LINES: the ledger
# size of the command-line report benchmark).
BENCHTIME ?= 1x
LINES ?= 100000
bench-report:
	$(GO) test -run '^$$' -bench 'BenchmarkCalculate|BenchmarkParseAndCalculate' -benchmem ./cgt/engine
	CGT_BENCH_LINES=$(LINES) $(GO) test -run '^$$' -bench 'BenchmarkReportLedger' -benchtime $(BENCHTIME) -benchmem ./cmd/cgt

bench-mcp:
	$(GO) test -run '^$$' -bench 'BenchmarkToolsCall|BenchmarkSDKClient' -benchtime 100x -benchmem ./mcp

# tool-cli as users load it: the built cgt-serve and a bare JSON-RPC handler
# (toolcli/internal/barerpc) under wrk (a Debian package), 64 connections for 5 s each,
# interleaved ROUNDS times; then the in-process benchmarks.
ROUNDS ?= 3
bench-toolcli:
	$(GO) build -o bin/ ./cmd/cgt-serve ./toolcli/internal/barerpc
	@command -v wrk >/dev/null || (echo "wrk is not installed (apt-get install wrk)"; exit 1)
	ROUNDS=$(ROUNDS) toolcli/testdata/wrk/compare.sh bin
	$(GO) test -run '^$$' -bench 'BenchmarkCallTool|BenchmarkPlainHTTPJSON' -benchmem ./toolcli

# Large ledgers for timing the command line (the same files for the same seed), in LEDGER_DIR.
LEDGER_DIR ?= bin/ledgers
ledgers:
	mkdir -p $(LEDGER_DIR)
	$(GO) run ./cmd/cgt-ledgergen -n 1000 -o $(LEDGER_DIR)/ledger-1k.cgt
	$(GO) run ./cmd/cgt-ledgergen -n 100000 -o $(LEDGER_DIR)/ledger-100k.cgt
	$(GO) run ./cmd/cgt-ledgergen -n 1000000 -o $(LEDGER_DIR)/ledger-1m.cgt

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
