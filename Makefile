# millengine — build, run, test, perft, bench, fuzz, lint, match.
GO        ?= go
BIN       := bin
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME  ?= 30s
BENCHDEPTH ?=
GAMES     ?= 200
MOVETIME  ?= 100
PREV      ?= $(BIN)/millengine-prev
EGTB_DIR  ?=
EGTB_VARIANT ?= nine-mens-morris

# The engine is built for the CPU of the machine that runs make, as
# Stockfish's ARCH=native is: GOAMD64 is the level scripts/amd64-level.sh
# reads from /proc/cpuinfo (v3 on a CPU with AVX2 and BMI2, where a
# population count or a bit scan is one instruction; docs/speed.md has
# what each level gains). For a binary that runs on any x86-64 machine:
# make build GOAMD64=v1. Go ignores it on other architectures. The
# compiler also optimises the engine with a profile of it
# (cmd/millengine/default.pgo, see make pgo). The tests build for any x86-64:
# the level changes no behaviour, and the build cache serves them as before.
GOAMD64   ?= $(shell sh scripts/amd64-level.sh)
build run pgo bench startpair: export GOAMD64 := $(GOAMD64)

.PHONY: all build pgo run test perft randomplay sweep bench ttd gobench fuzz lint match clean egtb egtb-play book book-pack startpair egtb-game

all: build

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/millengine ./cmd/millengine
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/millmatch ./cmd/millmatch
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/milltune ./cmd/milltune

# The profile that go build optimises the engine with (profile-guided
# optimisation reads cmd/millengine/default.pgo): a CPU profile of bench to
# depth 14 (about 4 s). Make it again after a change to the hot paths; an old profile
# still builds, it only optimises less.
pgo: build
	$(BIN)/millengine --cpuprofile cmd/millengine/default.pgo bench --depth 14 >/dev/null

# The engine's own lines only on stdout: the build is silent (its errors go
# to stderr) and make echoes nothing.
run:
	@$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/millengine ./cmd/millengine >&2
	@exec $(BIN)/millengine

# The suite. First, without the race detector, the packages whose tests
# work through data — solving and verifying tables, reading the whole book —
# which the detector slows 40 to 100 times and where it finds nothing: the
# whole of internal/egtb and internal/book, and cmd/millengine's
# TestEGTBCommands; this pass also builds the small tables internal/egtb's
# tests keep in the temporary directory. Then every package under the race
# detector, where those tests skip (testkit.NotUnderRace) and internal/egtb
# runs only its concurrency tests (raceTests in internal/egtb/solve_test.go).
# A package may take longer than go test's default 10 minutes on a loaded
# 2-core machine, which is not a failure of the tests.
test:
	$(GO) vet ./...
	$(GO) test -count=1 ./internal/egtb/ ./internal/book/
	$(GO) test -count=1 -run '^TestEGTBCommands$$' ./cmd/millengine/
	$(GO) test -race -timeout 25m ./...

# Every row of testdata/perft.tsv, perft 7 of the start position included.
perft:
	PERFT_FULL=1 $(GO) test -count=1 -run 'TestPerft' -v ./internal/movegen/ | grep -v '^=== RUN'
	$(GO) run ./cmd/millengine perft --depth 6
	$(GO) run ./cmd/millengine perft --depth 7

# The long random-play test: 10,000 games over the presets and 10,000 with
# random rule sets, checking every invariant after every action.
randomplay:
	RANDOMPLAY_GAMES=10000 $(GO) test -count=1 -v -run '^TestRandomPlay' ./internal/movegen/ | grep -vE '^=== (RUN|PAUSE|CONT)'

# The random rule-set sweep through the protocol (make test runs 10 sets):
# every bestmove checked against go perft 1, pvs and results against the
# referee.
SWEEP_RULESETS ?= 500
sweep:
	SWEEP_RULESETS=$(SWEEP_RULESETS) $(GO) test -count=1 -timeout 60m -v -run '^TestRuleSetSweep$$' ./internal/uci/ | grep -vE '^=== (RUN|PAUSE|CONT)'

# The engine's bench (node count = build signature), then perft 6 and bench
# timed against the previous build in alternating pairs (scripts/benchpair;
# PREV_REF=<rev> picks the previous build, default HEAD with changes in the
# tree, else HEAD~1). The Go benchmarks are gobench.
PREV_REF ?=
BENCH_PAIRS ?= 5
bench: build
	$(BIN)/millengine bench $(if $(BENCHDEPTH),--depth $(BENCHDEPTH))
	$(GO) run ./scripts/benchpair --new $(BIN)/millengine --pairs $(BENCH_PAIRS) $(if $(PREV_REF),--prev $(PREV_REF))

# Time to a fixed depth against Sanmill's C++ engine (scripts/ttd), per
# phase, on TTD_POSITIONS: by default 8 Nine Men's Morris positions of each
# phase from random games (testdata/ttd-phases.txt, written by scripts/ttd
# --generate 8 --seed 1); testdata/ttd-positions.txt holds bench's 12
# positions. Sanmill searches once to SkillLevel plies
# (DeveloperMode and DrawOnHumanExperience off, MoveTime 0), millengine
# iterates to go depth; both one thread, no tables, no book. SANMILL is the
# peer built by ../shared/peers/build-sanmill-cpp.sh.
SANMILL   ?= $(HOME)/.cache/mill-peers/.peers/bin/sanmill
TTD_DEPTH ?= 12
TTD_POSITIONS ?= testdata/ttd-phases.txt
TTD_ROUNDS ?= 3
ttd: build
	$(GO) run ./scripts/ttd --depth $(TTD_DEPTH) --rounds $(TTD_ROUNDS) --positions $(TTD_POSITIONS) \
		--engine "$(BIN)/millengine" --engine "$(SANMILL)" \
		--setup "1:setoption name EGTBPath value <empty>" --setup "1:setoption name Book value <empty>" \
		--go "2:go" --setup "2:setoption name SkillLevel value {d}" --setup "2:setoption name MoveTime value 0" \
		--setup "2:setoption name DeveloperMode value false" --setup "2:setoption name DrawOnHumanExperience value false" \
		--setup "2:setoption name Shuffling value false"

gobench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParseFEN -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/position/
	$(GO) test -run '^$$' -fuzz FuzzParseMove -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/position/
	$(GO) test -run '^$$' -fuzz FuzzParseLegal -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/movegen/
	$(GO) test -run '^$$' -fuzz FuzzDispatch -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/uci/
	$(GO) test -run '^$$' -fuzz '^FuzzOpen$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/egtb/
	$(GO) test -run '^$$' -fuzz '^FuzzOpenJournal$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/egtb/
	$(GO) test -run '^$$' -fuzz '^FuzzOpenPacked$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/egtb/
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/book/
	$(GO) test -run '^$$' -fuzz '^FuzzReadBinary$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/book/
	$(GO) test -run '^$$' -fuzz FuzzReadRecords -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/match/
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/record/
	$(GO) test -run '^$$' -fuzz '^FuzzParseSecval$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/malom/
	$(GO) test -run '^$$' -fuzz '^FuzzParseSector$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./internal/malom/

lint:
	@test -z "$$(gofmt -l .)" || (gofmt -l . && false)
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# The new build against the previous one: copy an older build to $(PREV)
# first (cp bin/millengine bin/millengine-prev), then change, then 'make match'.
match: build
	@test -x $(PREV) || { echo "match: no $(PREV): copy an older build there (cp $(BIN)/millengine $(PREV))"; exit 1; }
	$(BIN)/millmatch --engine $(BIN)/millengine --engine $(PREV) \
		--games $(GAMES) --movetime $(MOVETIME) --random-openings 4 --concurrency 2 \
		--out $(BIN)/match.jsonl

clean:
	rm -rf $(BIN)

# Endgame tables up to 10 pieces (the default directory, or EGTB_DIR), then
# verified: a table the record of verified tables holds (its data the data
# verified entry by entry before, internal/egtb/verified.journal) by its
# checksum, every entry of the others with the engine's own rules code.
egtb: build
	nice -n 10 $(BIN)/millengine egtb build --variant $(EGTB_VARIANT) $(if $(EGTB_DIR),--dir $(EGTB_DIR))
	nice -n 10 $(BIN)/millengine egtb verify --known --variant $(EGTB_VARIANT) $(if $(EGTB_DIR),--dir $(EGTB_DIR))

# The whole moving phase, 3v3 to 9v9 (EGTB_FULL_PIECES=18; 1.3 hours and
# 9.4 GB here, see docs/tables.md), then verified as egtb is (every entry
# of the tables not in the record: 7.5 hours for all). Both steps go on where they were when run again: the build from
# its finished sectors and checkpoints, the verify from its journal,
# $(BIN)/egtb-verify.journal (tables found OK, and the part of the one in
# flight). Run it in the background: nohup make egtb-full > egtb.log 2>&1 &
EGTB_FULL_PIECES ?= 18
.PHONY: egtb-full
egtb-full: build
	nice -n 10 $(BIN)/millengine egtb build --max-pieces $(EGTB_FULL_PIECES) --variant $(EGTB_VARIANT) $(if $(EGTB_DIR),--dir $(EGTB_DIR))
	nice -n 10 $(BIN)/millengine egtb verify --known --variant $(EGTB_VARIANT) $(if $(EGTB_DIR),--dir $(EGTB_DIR)) --journal $(BIN)/egtb-verify.journal

# The whole game: the moving phase as egtb-full builds it, then the placing
# phase's 449 sectors (24 minutes with two threads here and 4.7 GB more:
# docs/tables.md), then verified as egtb-full is, with the same journal as
# egtb-full (a table found OK there is not checked again). Goes on where it
# was when run again.
.PHONY: egtb-game
egtb-game: build
	nice -n 10 $(BIN)/millengine egtb build --game --max-pieces $(EGTB_FULL_PIECES) $(if $(EGTB_DIR),--dir $(EGTB_DIR))
	nice -n 10 $(BIN)/millengine egtb verify --known $(if $(EGTB_DIR),--dir $(EGTB_DIR)) --journal $(BIN)/egtb-verify.journal

# The engine plays 200 table positions (a third long wins, a third draws) at
# 100 ms a move against a defender that plays the tables' longest loss; every
# win must be converted and every draw held. Uses the tables of make egtb.
egtb-play:
	EGTB_PLAY=200 EGTB_PLAY_MS=100 EGTB_DIR=$(or $(EGTB_DIR),default) \
		$(GO) test -count=1 -timeout 60m -v -run '^TestTablePlay$$' ./internal/search/ | grep -vE '^=== (RUN|PAUSE|CONT)'

# The jobs of 'egtb plan --format slurm' on a one-node Slurm cluster that it
# starts on this machine (Debian's slurmctld, slurmd and munge, installed
# with apt-get if missing: root) and of '--format make' with make -j2, up to
# 8 pieces, each table compared byte for byte with a local egtb build, then
# verified; it stops the daemons it started. Not part of make test. See
# scripts/egtb-slurm.sh for its variables (PIECES, THREADS, TIMEOUT, WORK).
.PHONY: egtb-slurm
egtb-slurm: build
	bash scripts/egtb-slurm.sh

# The opening book shipped in the binary, searched deepest where it is used
# most: the first 4 plies at depth 14, plies 4-5 at depth 12, then plies 6-7
# at depth 10. Each step resumes the file, so an interrupted build (Ctrl-C)
# goes on where it stopped with the same command, and a book of fewer plies
# is a good book as far as it goes. Copy the result over
# internal/book/data/nine-mens-morris.book, then make book-pack, to ship it.
BOOK_OUT ?= $(BIN)/nine-mens-morris.book
book: build
	nice -n 10 $(BIN)/millengine book build --plies 4 --depth 14 --out $(BOOK_OUT)
	nice -n 10 $(BIN)/millengine book build --plies 6 --depth 12 --out $(BOOK_OUT)
	nice -n 10 $(BIN)/millengine book build --plies 8 --depth 10 --out $(BOOK_OUT)

# The shipped book's binary form, which the binary embeds and probes in
# place (no parsing at start-up), written from its text, the source of
# truth (go generate ./internal/book does the same). The book's tests fail
# while it is stale.
BUILTIN_BOOK := internal/book/data/nine-mens-morris.book
book-pack:
	$(GO) run ./cmd/millengine book pack $(BUILTIN_BOOK) $(BUILTIN_BOOK).bin

# The engine's start timed against the previous build's (scripts/startpair):
# uci to uciok from the process's start, isready to readyok, the first go
# from the start position (the book's), peak resident memory, in alternating
# runs; then a session that only reads the options (uci, quit). PREV is the
# previous build (cp bin/millengine bin/millengine-prev before the change);
# STARTPAIR_ARGS adds engine arguments (--arg=--egtb-path=DIR).
STARTPAIR_ARGS ?=
startpair: build
	$(GO) run ./scripts/startpair --new $(BIN)/millengine $(if $(wildcard $(PREV)),--prev $(PREV)) --go "go movetime 1000" $(STARTPAIR_ARGS)
	$(GO) run ./scripts/startpair --new $(BIN)/millengine $(if $(wildcard $(PREV)),--prev $(PREV)) --uci-only $(STARTPAIR_ARGS)

# The book's first plies (positions after fewer than BOOK_PROVE_PLIES actions)
# with their values proven down to the tables of the whole moving phase and
# the actions that keep them (book prove), which the engine then never gives
# up. It needs those tables (egtb build --max-pieces 18) in EGTB_DIR and
# writes into $(BOOK_OUT) after each position; the proofs' table is kept in
# $(BOOK_PROVE_TT), so a run stopped goes on with the same command. Without
# a $(BOOK_OUT) it starts from the shipped book and the proofs it carries.
BOOK_PROVE_PLIES ?= 8
BOOK_PROVE_TT ?= $(BIN)/book-prove.tt
.PHONY: book-prove
book-prove: build
	test -f $(BOOK_OUT) || cp $(BUILTIN_BOOK) $(BOOK_OUT)
	nice -n 5 $(BIN)/millengine book prove --plies $(BOOK_PROVE_PLIES) --tt-mb 6144 --tt-file $(BOOK_PROVE_TT) $(if $(EGTB_DIR),--dir $(EGTB_DIR)) $(BOOK_OUT)

# The browser board (millengine serve) and its tests' browser and Node. make
# test runs the browser tests with MILLWEB_REQUIRE_BROWSER=1 and the page's
# module tests (node --test, from go test) with MILLWEB_REQUIRE_NODE=1:
# without a browser or Node they fail instead of skipping. The browser step
# finds $(CHROME_PATH) or installs Debian's chromium, the node step finds
# node on the PATH or installs Debian's nodejs (Node.js 18 or later is
# needed); if one cannot, it says so and those tests fail.
CHROME_PATH ?= /usr/bin/chromium
ADDR        ?= 127.0.0.1:8080

.PHONY: browser node serve

browser:
	@if [ -x "$(CHROME_PATH)" ]; then \
		echo "browser: $(CHROME_PATH)"; \
	elif command -v apt-get >/dev/null 2>&1; then \
		echo "browser: no $(CHROME_PATH); installing Debian's chromium (apt-get, quietly)…"; \
		log=$$(mktemp); \
		if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >"$$log" 2>&1 \
			&& [ -x "$(CHROME_PATH)" ]; then \
			echo "browser: installed $(CHROME_PATH)"; \
		else \
			tail -n 5 "$$log"; \
			echo "browser: COULD NOT INSTALL chromium (apt-get needs root and Debian's package lists);"; \
			echo "browser: install it yourself or set CHROME_PATH; the browser tests will fail"; \
		fi; \
		rm -f "$$log"; \
	else \
		echo "browser: no $(CHROME_PATH) and no apt-get: install chromium or set CHROME_PATH; the browser tests will fail"; \
	fi

node:
	@if command -v node >/dev/null 2>&1; then \
		echo "node: $$(command -v node) $$(node --version)"; \
	elif command -v apt-get >/dev/null 2>&1; then \
		echo "node: no node on the PATH; installing Debian's nodejs (apt-get, quietly)…"; \
		log=$$(mktemp); \
		if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs; } >"$$log" 2>&1 \
			&& command -v node >/dev/null 2>&1; then \
			echo "node: installed $$(command -v node) $$(node --version)"; \
		else \
			tail -n 5 "$$log"; \
			echo "node: COULD NOT INSTALL nodejs (apt-get needs root and Debian's package lists);"; \
			echo "node: install Node.js 18 or later yourself; the page's module tests will fail"; \
		fi; \
		rm -f "$$log"; \
	else \
		echo "node: no node and no apt-get: install Node.js 18 or later; the page's module tests will fail"; \
	fi

test: browser node
test: export MILLWEB_REQUIRE_BROWSER = 1
test: export MILLWEB_REQUIRE_NODE = 1
test: export CHROME_PATH := $(CHROME_PATH)

# The board in the browser: open the URL it prints.
serve: build
	$(BIN)/millengine serve --addr $(ADDR)
