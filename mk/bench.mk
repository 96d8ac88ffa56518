# mk/bench.mk — make bench: callgrind instruction counts, median wall times, stress throughput,
# the threaded soak and hardware race rates → build/evidence/bench.json (+ race.json).  Not part
# of `make check`.
# (Read before mk/lib.mk and mk/test.mk: prerequisites use literal paths, recipes their variables.)
BENCH_DIR  := $(BUILD)/bench
BENCH_HDRS := $(wildcard src/include/irqsync/*.h src/port/*.h src/port/hosted/*.h)

$(BENCH_DIR)/bench-v2: tools/bench/bench.c $(BUILD)/lib/libirqsync.a $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(IRQSYNC_CPPFLAGS) $(IRQSYNC_HOSTED_CPPFLAGS) $< $(IRQSYNC_LIB) $(IRQSYNC_HOST_LIBS) -o $@
$(BENCH_DIR)/bench-%: tools/bench/bench.c $(BUILD)/libs/%/libirqsync.a $(BENCH_HDRS)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TESTING) $(IRQSYNC_CPPFLAGS) $(IRQSYNC_HOSTED_CPPFLAGS) $< $(TLIB)/$*/libirqsync.a $(IRQSYNC_HOST_LIBS) -o $@

# The peers of issue 14, in the same program, loop and flags as the library's lock pair:
# concurrencykit's ck_spinlock_ticket (libck-dev, header-only) and glibc's pthread_spin_lock,
# plus the goals (lock pair <= ck; handle_irq to an empty handler <= 100 instructions).
# Alone: `make bench-peers` (seconds); `make bench` folds its rows into bench.json.
BENCH_PEERS_JSON := $(BENCH_DIR)/peers.json
.PHONY: bench-peers
bench-peers: $(BENCH_DIR)/bench-v2
	BUILD=$(BUILD) $(PYTHON) -m tools.bench.bench --peers $(BENCH_PEERS_JSON)

# The threaded rows of issue 25: handle_irq waking a thread (a primary returning IRQ_WAKE_THREAD;
# the ONESHOT default primary) against a plain line's dispatch, the goal that a plain line's
# dispatch stays <= 166 instructions (its figure before the threaded handlers), and the soak of
# tests/stress/threaded.c: >= 10^7 interrupts, zero violations (BENCH_THREADED_N sizes it).
# Alone: `make bench-threaded` (minutes: the soak); `make bench` folds its rows into bench.json.
BENCH_THREADED_JSON := $(BENCH_DIR)/threaded.json
.PHONY: bench-threaded
bench-threaded: $(BENCH_DIR)/bench-v2 $(BUILD)/tests/threaded
	BUILD=$(BUILD) $(PYTHON) -m tools.bench.bench --threaded $(BENCH_THREADED_JSON)

# The floor under the plain-dispatch goal (issue 25; tools/bench/dispatch_floor.py): the dispatch
# of the last commit before the threaded code, counted again with only the per-context serving
# record added (the port's thread query), beside this tree's.  Needs the git history back to
# that commit.  make bench folds its row into bench.json; alone: `make bench-floor` (seconds).
BENCH_FLOOR_JSON := $(BENCH_DIR)/floor.json
.PHONY: bench-floor
bench-floor: $(BENCH_DIR)/bench-v2 ## the plain-dispatch goal's floor: the pre-threaded dispatch + the context query
	BUILD=$(BUILD) $(PYTHON) -m tools.bench.dispatch_floor --out $(BENCH_FLOOR_JSON)

.PHONY: bench
bench: $(BENCH_DIR)/bench-v2 $(BENCH_DIR)/bench-v0 $(BENCH_DIR)/bench-naive \
       $(BUILD)/tests/stress $(BUILD)/tests/stress-v0 $(BUILD)/tests/stress-naive \
       $(BUILD)/tests/race-v0 $(BUILD)/tests/race-v1 $(BUILD)/tests/race-v2 bench-peers \
       bench-threaded bench-floor
	BUILD=$(BUILD) BENCH_PEERS=$(BENCH_PEERS_JSON) BENCH_THREADED=$(BENCH_THREADED_JSON) \
	  BENCH_FLOOR=$(BENCH_FLOOR_JSON) \
	  $(PYTHON) -m tools.bench.bench

# The proof and test times of issue 13's goals, in a fresh clone of HEAD (tools/bench/prove_bench.py):
# make prove fresh / one body changed / worst unit / cold, the proof group, make check.
# Long (the cold proof and a whole make check): BENCH_PROVE_SKIP="cold check" leaves rows out.
.PHONY: bench-prove
bench-prove:
	$(PYTHON) -m tools.bench.prove_bench
bench: bench-prove
