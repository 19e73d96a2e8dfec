# Thin wrapper over CMake for the two commands of the README.
#   make bench   build everything and run the benchmark comparison
#   make test    build and run every test: a release build with gcc, then the
#                whole suite again under AddressSanitizer + UBSan with clang,
#                then one quick benchmark round that checks every adapter
#   make install PREFIX=/usr/local
JOBS ?= 2
PREFIX ?= /usr/local
# the Python the module is built for and tested with (Debian's, for CI)
PYTHON ?= /usr/bin/python3

.PHONY: all bench deps test test-release test-sanitize test-bench install clean

all:
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
	cmake --build build -j$(JOBS)

deps:
	@bash tools/install_deps.sh

bench: deps
	bash bench/run.sh

test: deps
	$(MAKE) test-release
	$(MAKE) test-sanitize
	$(MAKE) test-bench

test-release:
	CC=gcc CXX=g++ cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTYJSON_BUILD_PYTHON=ON -DPython3_EXECUTABLE=$(PYTHON)
	cmake --build build -j$(JOBS)
	cd build && ctest --output-on-failure -j$(JOBS)

test-sanitize:
	CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTYJSON_SANITIZE=ON -DTYJSON_BUILD_PYTHON=ON -DPython3_EXECUTABLE=$(PYTHON)
	cmake --build build-asan -j$(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j$(JOBS)

# Its own step, apart from ctest (the tests never compile bench/): one quick
# round of the benchmark. Peers that are missing or too old are skipped with
# a note and do not fail it; a present library's wrong result does.
test-bench:
	@echo "== test-bench: quick benchmark round, every present adapter checked"
	bash bench/run.sh --quick

install: all
	cmake --install build --prefix $(PREFIX)

clean:
	rm -rf build build-asan build-bench
