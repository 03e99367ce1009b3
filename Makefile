.PHONY: all build test demo codes
all: build
build:
	go build -o bin/weft ./cmd/weft
test:
	scripts/test.sh
codes:
	go run ./cmd/weft help codes > docs/diagnostics.md
