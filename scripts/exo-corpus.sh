#!/bin/sh
# Measures how much of the object code Exo prints Weft accepts (issue 19):
# the procs of Exo's golden test outputs on its main and GPU branches,
# counted as parsing, reprinting with weft fmt token for token, and passing
# weft check, for CPU and GPU procs. Exo's text is extracted to a scratch
# directory outside the repository (OUT, default a temporary directory).
#
#   scripts/exo-corpus.sh /work/.mirror/exo-lang+exo/repo [-out OUT] [-v]
#
# MIRROR is a git directory of github.com/exo-lang/exo with the refs main
# and akeley98/endgame. -v lists every rejected proc with its first error.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: scripts/exo-corpus.sh MIRROR_GIT_DIR [-out DIR] [-v]" >&2
	exit 2
fi
mirror=$1
shift
cd "$(dirname "$0")/.."
exec go run ./bench/exocorpus -mirror "$mirror" "$@"
