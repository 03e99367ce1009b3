#!/bin/sh
# Mutation test of weft validate (issue 12, item 8; docs/validate.md
# "Mutation test"): every synchronization statement of the generated code of
# the synchronization examples is deleted in turn and validated again
# (weft validate --mutate --sms 1). The examples, their inputs (the AuDaLa
# ones generated), the exact kill line of each and the surviving mutants
# (each shown redundant in docs/validate.md) are TestMutation in
# validate/mutation_test.go, which CI runs (scripts/test.sh; -short skips the
# cases of more than 10 s). This runs it verbosely: every mutant's line, per
# example the kill line, and the total.
# Usage: scripts/mutation.sh [go test flags, e.g. -short]
cd "$(dirname "$0")/.." || exit 2
exec go test -count=1 -timeout 30m -run '^TestMutation$' -v "$@" ./validate
