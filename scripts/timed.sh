#!/usr/bin/env bash
# scripts/timed.sh NAME CMD...: run CMD and append one line "NAME<TAB>wall s<TAB>CPU s<TAB>rc" to
# $TEST_TIMES (default build/test-times.tsv); exits with CMD's status. The CPU time is that of
# CMD's finished descendants (user + system), which another process's load does not inflate the
# way it inflates the wall time. `make test` prints the table at its end, with the CPU model.
set -uo pipefail
name=$1; shift
out=${TEST_TIMES:-build/test-times.tsv}
mkdir -p "$(dirname "$out")"
start=$(date +%s.%N)
"$@"
rc=$?
end=$(date +%s.%N)
tmp=$(mktemp)
times > "$tmp"          # a builtin in this shell (a pipe would run it in a subshell: zeros)
awk -v name="$name" -v start="$start" -v end="$end" -v rc="$rc" '
    NR == 2 { cpu = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]);
                                                  cpu += a[1] * 60 + a[2] }
              printf "%s\t%.0f\t%.0f\t%d\n", name, end - start, cpu, rc }' "$tmp" >> "$out"
rm -f "$tmp"
exit $rc
