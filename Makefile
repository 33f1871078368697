# Shortcuts for developers; the scripts under scripts/ are what the README and CI run.
.PHONY: all build arm64 package test quickstart check deps bench clean

all: build

deps:
	scripts/install-deps.sh --tests --arm64

build:
	scripts/build.sh

arm64:
	scripts/build-arm64.sh

package:
	scripts/package.sh

test:
	scripts/test.sh

quickstart:
	scripts/quickstart.sh

check:
	scripts/check.sh

bench: build
	bench/loadgen_vs_peers.sh

clean:
	rm -rf build build-asan build-fuzz
