# barbu: the two commands that matter are `make run` and `make check`.
# Each first installs whatever is missing on a Debian 12 machine.

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
CMAKE_FLAGS ?=
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# The release tests run two to a core (tests/tests.cmake says which count as two).
TEST_JOBS  ?= $(shell echo $$(( $(JOBS) * 2 )))

.PHONY: all build run check setup test test-asan format format-check fuzz bench clean

all: build

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

setup:
	@sh scripts/setup.sh

# The main job: the server, on this machine only (127.0.0.1:2118).  Players
# join with `barbu connect` or a browser; `barbu play` is a game on your own.
run: setup
	@$(MAKE) --no-print-directory build
	./$(BUILD)/barbu serve $(SERVE_FLAGS)

# Every test: unit, property, golden, CLI, end-to-end and browser tests on the
# release build (the browser client and the score sheet page in headless
# Chromium, installed for this only); the
# unit tests and the server's end-to-end tests again under ASan + UBSan (and
# LeakSanitizer: the server must stop without a leak) with the invariant checker,
# but for those labelled long (whole games the release run plays already); the
# formatting; short runs of the record-reader and protocol-decoder fuzzers.
check:
	@sh scripts/setup.sh check
	@$(MAKE) --no-print-directory build
	cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory format-check
	@$(MAKE) --no-print-directory fuzz

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBARBU_SANITIZE=ON -DBARBU_WEB=OFF $(CMAKE_FLAGS)

test-asan: $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS) -L 'unit|e2e' -LE long

$(FUZZ_BUILD)/build.ninja:
	CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBARBU_FUZZ=ON $(CMAKE_FLAGS)

fuzz: $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_record fuzz_proto
	sh tests/fuzz/run.sh $(CURDIR)/$(FUZZ_BUILD)/fuzz_record
	sh tests/fuzz/run.sh $(CURDIR)/$(FUZZ_BUILD)/fuzz_proto 20 $(CURDIR)/tests/fuzz/proto_corpus

FORMAT_FILES = $(shell find include src tests bench -name '*.[ch]' 2>/dev/null)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run -Werror $(FORMAT_FILES)
	@echo "format: ok"

bench: build
	./$(BUILD)/barbu bench

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
