# cgt — common tasks. `make test` is the command CI runs (see README.md).
GO ?= go

.PHONY: build test test-next-go sdkclient race gen gen-check bench bench-report bench-mcp bench-toolcli bench-dense bench-1m bench-import bench-wasm bench-bins ledgers fuzz lint test-jsoncodec pgo web-overlay fx eri docs docs-test web web-test web-serve release cross clean

# Every program: cgt and the siblings its built-ins hand over to (cgt-mcp, cgt-serve, tool-cli,
# cgt-gen), side by side in bin/ as `cgt mcp` expects them.
build:
	$(GO) build -o bin/ ./cmd/...

# The packages that run work concurrently (the ledger reader's parts, the engine's shards, the
# rate table, the servers), tested again under the race detector; -short keeps their large
# inputs small.
RACE_PKGS := ./cgt/... ./mcp/... ./toolcli/... ./envelope/... ./records/...
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

test: lint sdkclient
	$(GO) test ./...
	$(GO) test -race -short $(RACE_PKGS)

race:
	$(GO) test -race -short $(RACE_PKGS)

# The packages the browser module links, tested again through the JSON codec the page uses
# (internal/jsoncodec) instead of encoding/json: the same goldens, so the page answers as the
# CLI does. The HTML report's Chromium rendering reads no JSON and runs once, in make test.
test-jsoncodec:
	$(GO) test -tags cgt_jsoncodec -skip 'Chromium' $(WEB_VET_PKGS)

# The tests again under the next Go release, which the go command fetches from the module
# proxy (76 MB, once): cgt builds with "Go 1.26 or later", and Go 1.27's encoding/json
# follows encoding/json/v2, which once changed the shape of a result. The browser module's
# link-set checks (cmd/cgt-wasm/webapp) pin what Go 1.26 links, and its JSON codec
# (internal/jsoncodec) is held to Go 1.26's encoding/json, whose messages and offsets 1.27's
# differs from, so they stay out.
NEXT_GO := go1.27.3
test-next-go: sdkclient
	GOTOOLCHAIN=$(NEXT_GO) $(GO) version
	GOTOOLCHAIN=$(NEXT_GO) $(GO) test $$($(GO) list ./... | grep -v -e '/cmd/cgt-wasm/webapp$$' -e '/internal/jsoncodec$$')

gen:
	$(GO) run ./cmd/cgt-gen

# The official MCP TypeScript SDK client and the tokenizer that the mcp tests drive the server
# with (protocol checks and the token budgets): installed when npm is present and they are not
# yet, so the tests run wherever Node is; without Node they skip with a message (fail under CI).
SDKCLIENT := mcp/testdata/sdkclient
sdkclient:
	@if [ ! -d $(SDKCLIENT)/node_modules ] && command -v npm >/dev/null 2>&1; then \
		npm ci --no-audit --no-fund --prefix $(SDKCLIENT) || echo "npm ci failed: the MCP SDK client tests will skip"; \
	fi

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
	$(GO) test -run '^$$' -bench 'BenchmarkCalculate|BenchmarkParseAndCalculate|BenchmarkAppendDisposalsJSON' -benchmem ./cgt/engine
	CGT_BENCH_LINES=$(LINES) $(GO) test -run '^$$' -bench 'BenchmarkReportLedger' -benchtime $(BENCHTIME) -benchmem ./cmd/cgt

bench-mcp:
	$(GO) test -run '^$$' -bench 'BenchmarkToolsCall|BenchmarkSDKClient' -benchtime 100x -benchmem ./mcp

# The targets of DESIGN.md §27, each in process (Go benchmarks) and then as users run it: the
# built binary, whole processes, output into a file, interleaved ROUNDS times with the wall
# time, CPU and peak memory of each run (cmd/cgt/testdata/timing.sh). docs/performance.md has
# the figures and how they were taken.
#
# BASE=/path/to/an/older/cgt times that binary too, interleaved with bin/cgt (labels base-…).
#
# Compact and schema against JSON for the same report (LINES lines; LINES=1000000 for 1M).
bench-dense: bench-bins
	CGT_BENCH_LINES=$(LINES) $(GO) test -run '^$$' -bench 'BenchmarkReportLedger/(json|compact|schema)$$' -benchtime $(BENCHTIME) -benchmem ./cmd/cgt
	@mkdir -p $(LEDGER_DIR); test -f $(LEDGER_DIR)/ledger-$(LINES).cgt || bin/cgt-ledgergen -n $(LINES) -o $(LEDGER_DIR)/ledger-$(LINES).cgt
	@echo "goal: compact and schema at least as fast as json"
	cmd/cgt/testdata/timing.sh $(ROUNDS) $(foreach f,json compact schema,"$(f) bin/cgt report.calculate $(LEDGER_DIR)/ledger-$(LINES).cgt --output $(f)" $(if $(BASE),"base-$(f) $(BASE) report.calculate $(LEDGER_DIR)/ledger-$(LINES).cgt --output $(f)"))

# The full JSON report of 1M lines: < 4 s and ≤ 1 GB peak.
bench-1m: bench-bins
	@mkdir -p $(LEDGER_DIR); test -f $(LEDGER_DIR)/ledger-1000000.cgt || bin/cgt-ledgergen -n 1000000 -o $(LEDGER_DIR)/ledger-1000000.cgt
	@echo "goal: < 4 s wall and <= 1 GB (1048576 KB) peak, quiet machine"
	cmd/cgt/testdata/timing.sh $(ROUNDS) "json-1m bin/cgt report.calculate $(LEDGER_DIR)/ledger-1000000.cgt --output json" $(if $(BASE),"base-json-1m $(BASE) report.calculate $(LEDGER_DIR)/ledger-1000000.cgt --output json")

# transactions.import of a Trading 212 export of ROWS trades with ISINs: ≤ 1 s for 100,000.
ROWS ?= 100000
bench-import: bench-bins
	CGT_BENCH_ROWS=$(ROWS) $(GO) test -run '^$$' -bench 'BenchmarkImport$$' -benchtime $(BENCHTIME) -benchmem ./cmd/cgt
	@mkdir -p $(LEDGER_DIR); test -f $(LEDGER_DIR)/t212-$(ROWS).csv || bin/cgt-ledgergen -trading212 -n $(ROWS) -o $(LEDGER_DIR)/t212-$(ROWS).csv
	@echo "goal: <= 1 s wall for 100000 rows, quiet machine"
	cmd/cgt/testdata/timing.sh $(ROUNDS) "import bin/cgt transactions.import $(LEDGER_DIR)/t212-$(ROWS).csv" $(if $(BASE),"base-import $(BASE) transactions.import $(LEDGER_DIR)/t212-$(ROWS).csv")

# The browser module as make web builds it: bytes, and gzip -9 against the 2,000,000 budget
# (over it fails).
bench-wasm: web-overlay
	@mkdir -p bin
	$(WEB_BUILD) -o bin/cgt.wasm ./cmd/cgt-wasm
	@gz=$$(gzip -9 -c bin/cgt.wasm | wc -c); echo "cgt.wasm: $$(wc -c < bin/cgt.wasm) bytes, $$gz gzip -9 (budget 2000000)"; \
		test $$gz -le 2000000 || { echo "cgt.wasm is over its budget of 2,000,000 bytes gzip -9 (docs/performance.md, \"The browser app\")"; exit 1; }

# The CPU profiles the command line and the MCP server are built with (profile-guided
# optimisation: go build and go test take a main package's default.pgo on their own), each
# taken from the benchmarks of that program's heaviest paths, built without a profile:
# cmd/cgt/default.pgo from the report of PGO_LINES lines in each output format and an import
# of 100,000 rows; cmd/cgt-mcp/default.pgo from calculate_report calls over stdio. Regenerate
# them after a large change to those paths (docs/performance.md, step 12). Each profile is
# written beside the others in bin/pgo and moved into place whole.
PGO_LINES ?= 200000
pgo:
	@mkdir -p bin/pgo
	CGT_BENCH_LINES=$(PGO_LINES) $(GO) test -pgo=off -run '^$$' -bench 'BenchmarkReportLedger/(json|compact|schema|text)$$' -benchtime 2x -cpuprofile bin/pgo/report.prof -o bin/pgo/cgt.test ./cmd/cgt
	$(GO) test -pgo=off -run '^$$' -bench 'BenchmarkImport$$' -benchtime 2x -cpuprofile bin/pgo/import.prof -o bin/pgo/cgt.test ./cmd/cgt
	$(GO) tool pprof -proto bin/pgo/report.prof bin/pgo/import.prof > bin/pgo/cgt.pgo && mv bin/pgo/cgt.pgo cmd/cgt/default.pgo
	$(GO) test -pgo=off -run '^$$' -bench 'BenchmarkToolsCallServe' -benchtime 200x -cpuprofile bin/pgo/mcp.prof -o bin/pgo/mcp.test ./mcp
	$(GO) tool pprof -proto bin/pgo/mcp.prof > bin/pgo/cgt-mcp.pgo && mv bin/pgo/cgt-mcp.pgo cmd/cgt-mcp/default.pgo

bench-bins:
	$(GO) build -o bin/ ./cmd/cgt ./cmd/cgt-ledgergen

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
	@for pkg in $$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...); do \
		for t in $$($(GO) test -list 'Fuzz.*' $$pkg | grep ^Fuzz); do \
			echo "fuzz $$t in $$pkg"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

# The packages the browser module builds from, vetted (tests included) as WebAssembly too: a
# test that reads the process's CPU time through syscall, or uses a command the module leaves
# out, does not build there.
WEB_VET_PKGS := ./cgt/... ./records/... ./envelope/... ./registry/... ./reportview/... ./commands/... ./cmd/cgt-wasm/... ./internal/...
lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (echo "not gofmt-ed (run gofmt -w):"; gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet $(WEB_VET_PKGS)
	$(GO) run $(STATICCHECK) ./...

# Rebuild the embedded HMRC monthly rate table from HMRC's XML files.
HMRC_DIR ?= ../shared/hmrc-rates/monthly
fx:
	$(GO) run ./cmd/fxgen -in $(HMRC_DIR) -out cgt/fx/rates.csv

# Rebuild the embedded table of excess reportable income per unit (and its notice) from the
# fund families' CSV files (docs-site "Funds and ERI" says how to add a family's new year).
ERI_DIR ?= ../shared/eri
eri:
	$(GO) run ./cmd/erigen -in $(ERI_DIR) -out cgt/eri

# The documentation site (docs-site/, Astro Starlight on Node.js 20): install pinned packages,
# build with the broken-link check (the browser app, built first, is copied in and served at
# /app/); docs-test also runs the headless-chromium browser test.
NPM_CI := npm ci --no-audit --no-fund
docs: web
	cd docs-site && $(NPM_CI) && npm run build

docs-test: docs
	cd docs-site && npm run test:browser

# Release files in DIST: for Linux, macOS and Windows on amd64 and arm64, an archive with every
# program (tar.gz; zip for Windows) and an MCP bundle (.mcpb), server.json for the MCP Registry,
# and SHA256SUMS. Plain go build (CGO_ENABLED=0, -trimpath, the version stamped with -ldflags
# -X); the same commit and Go version give the same bytes. VERSION defaults to the release in
# internal/version. DIST must be new, empty, or hold only an earlier release (a marker file says so):
# anything else, and the source tree or a folder containing it, is refused and left as it is.
DIST ?= dist
release:
	$(GO) run ./cmd/cgt-release -out $(DIST) $(if $(VERSION),-version $(VERSION))

# Every release target type-checked as its compiler sees it (seconds; part of make test).
cross:
	$(GO) test -run TestEveryTargetCompiles -v ./cmd/cgt-release

# The browser app (web/, see docs-site's "cgt in your browser"): the registry compiled to
# WebAssembly with the page's own files, static, in web/dist/. Go's loader, wasm_exec.js, is
# copied from the Go installation that built the module (the two must match).
# Inlining is kept in the runtime only: in cgt's own packages it multiplied code every visitor
# downloads (53 KB gzipped) and, measured in Node on the 10,000-line report, did not make the
# page faster; the runtime's makes it a sixth faster (docs/performance.md, "The browser app").
# The module is built without the bundled rates and ERI tables, which are copied beside it
# into tables/ (the page fetches them; cmd/cgt-wasm).
WEB_DIST := web/dist
WEB_GCFLAGS := -gcflags=all=-l -gcflags='runtime='
# Go's previous garbage collector: Green Tea (Go 1.26's default) is 15 KB more of the module,
# for parallel marking a single-threaded WebAssembly page does not have.
WEB_ENV := GOOS=js GOARCH=wasm GOEXPERIMENT=nogreenteagc
# The module is built through an overlay of the files it links with the jsonschema struct tags
# taken out (cmd/webstrip): only the native programs' schema reflector reads them, and the
# page would otherwise carry every one in its type data (11 KB gzipped).
WEB_OVERLAY := bin/web-overlay/overlay.json
# How make web and make bench-wasm build the module, so that the bytes measured are the bytes
# served.
WEB_BUILD = $(WEB_ENV) $(GO) build -trimpath $(WEB_GCFLAGS) -overlay=$(WEB_OVERLAY) -ldflags="-s -w"
web-overlay:
	$(GO) run ./cmd/webstrip bin/web-overlay
web: web-overlay
	rm -rf $(WEB_DIST)
	mkdir -p $(WEB_DIST)
	$(WEB_BUILD) -o $(WEB_DIST)/cgt.wasm ./cmd/cgt-wasm
	root="$$($(GO) env GOROOT)"; cp "$$root/lib/wasm/wasm_exec.js" $(WEB_DIST)/ 2>/dev/null || cp "$$root/misc/wasm/wasm_exec.js" $(WEB_DIST)/
	cp web/index.html web/app.js web/app.css web/worker.js $(WEB_DIST)/
	cp examples/portfolio.cgt $(WEB_DIST)/example.cgt
	mkdir -p $(WEB_DIST)/tables
	cp cgt/fx/rates.csv $(WEB_DIST)/tables/rates.csv
	cp cgt/eri/table.txt $(WEB_DIST)/tables/eri.txt
	cat cgt/fx/NOTICE.txt > $(WEB_DIST)/tables/NOTICE.txt
	printf '\n' >> $(WEB_DIST)/tables/NOTICE.txt
	cat cgt/eri/NOTICE.txt >> $(WEB_DIST)/tables/NOTICE.txt
	cp LICENSE NOTICE $(WEB_DIST)/
	@echo "web/dist: cgt.wasm $$(wc -c < $(WEB_DIST)/cgt.wasm) bytes, $$(gzip -9 -c $(WEB_DIST)/cgt.wasm | wc -c) gzip -9"

# The browser test: the built page in Debian's chromium (playwright-core), against the CLI.
web-test: web
	$(GO) build -o bin/ ./cmd/cgt ./cmd/cgt-ledgergen
	$(NPM_CI) --prefix web
	cd web && node --test test/browser.test.mjs

# Serve web/dist on http://127.0.0.1:8080/ (PORT=...) to try the page.
PORT ?= 8080
web-serve: web
	node web/test/serve.mjs $(WEB_DIST) $(PORT)

clean:
	rm -rf bin $(DIST) $(WEB_DIST)
