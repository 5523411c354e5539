# Two commands do all set-up on a fresh machine:
#   make run   installs missing Debian packages, configures, builds, runs the main example
#   make test  the same, then runs every test (GPU tests only where a GPU is present)
# Thorns from outside the tree go into opuntia with THORN_DIRS (OPUNTIA_THORN_DIRS; folders
# separated by blanks or ;, relative to this folder; docs/outside-thorns.md), and stay there until
# THORN_DIRS is given again (THORN_DIRS= leaves them out):
#   make run THORN_DIRS=~/my-thorns
PRESET ?= release
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)
empty :=
blank := $(empty) $(empty)
ifdef THORN_DIRS
CONFIGURE_ARGS += "-DOPUNTIA_THORN_DIRS=$(subst $(blank),;,$(strip $(THORN_DIRS)))"
else ifeq ($(origin THORN_DIRS),command line)
CONFIGURE_ARGS += "-DOPUNTIA_THORN_DIRS="
endif

.PHONY: all deps configure build run test test-gpu bench fuzz fuzz-run clean

all: build

deps:
	@bash scripts/install_deps.sh

configure: deps
	@cmake --preset $(PRESET) $(CONFIGURE_ARGS) >/dev/null

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

# Every fuzzer for FUZZ_SECONDS each, two at a time (scripts/run_fuzzers.sh, tests/fuzz/README.md):
#   make fuzz-run                   600 s each, eight fuzzers: about 40 minutes
#   make fuzz-run FUZZ_SECONDS=60   a quick pass
FUZZ_SECONDS ?= 600
fuzz-run: deps
	@cmake --preset fuzz >/dev/null && cmake --build build/fuzz -j $(JOBS) --target fuzzers
	@bash scripts/run_fuzzers.sh build/fuzz $(FUZZ_SECONDS)

clean:
	rm -rf build
