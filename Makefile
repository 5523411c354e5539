# Two commands do all set-up on a fresh machine:
#   make run   installs missing Debian packages, configures, builds, runs the main example
#   make test  the same, then runs every test (GPU tests only where a GPU is present)
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)

.PHONY: all deps configure build run test test-gpu bench fuzz fuzz-run clean

all: build

deps:
	@bash scripts/install_deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	@bash scripts/run_example.sh $(BUILD_DIR)

test: build
	@bash scripts/run_tests.sh $(BUILD_DIR) $(JOBS)

bench: build
	@bash scripts/run_benchmarks.sh $(BUILD_DIR)

fuzz: deps
	@cmake --preset fuzz >/dev/null && cmake --build build/fuzz -j $(JOBS)

# Every fuzzer for 300 s, two at a time (scripts/run_fuzzers.sh).
fuzz-run: deps
	@cmake --preset fuzz >/dev/null && cmake --build build/fuzz -j $(JOBS) --target fuzzers
	@bash scripts/run_fuzzers.sh build/fuzz 300

clean:
	rm -rf build
