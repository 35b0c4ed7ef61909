#!/usr/bin/env bash
# Times whole crmem processes for the one-shot commands (version, search,
# ls, show, check, export) on a 3,000-entry and a 100k-entry memory: this
# tree's build (B) against an older revision's (A, default HEAD~1), run
# A B A B … (the order flips every round) so load on the machine hits both
# alike, plus a bare Go hello-world for crmem version's start. Prints per
# command the median and min–max wall time of each, the ratio A/B of the
# medians (above 1: B is faster), the same ratio for CPU time (user + system,
# less disturbed by other load than wall time) and each one's median peak
# RSS.
#
#   scripts/oneshot-bench.sh [OLD_REV] [SMALL_DB] [BIG_DB]
#
# Corpora default to /tmp/crmem-bench/3k.db and big.db, made with
# ../shared/tools/gen_corpus.py (--seed 7) when missing; they are only read.
# ROUNDS (default 20) and BIG_ROUNDS (default 6) set the pairs per command.
# Not part of go test.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:-HEAD~1}
small=${2:-/tmp/crmem-bench/3k.db}
big=${3:-/tmp/crmem-bench/big.db}
gen=../shared/tools/gen_corpus.py

corpus() { # path entries
  [ -f "$1" ] && return
  [ -f "$gen" ] || { echo "missing corpus $1 (and $gen to make it)" >&2; exit 1; }
  mkdir -p "$(dirname "$1")"
  python3 "$gen" --entries "$2" --seed 7 --crmem "$1" >/dev/null
}
corpus "$small" 3000
corpus "$big" 100000

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. scripts/build-ab.sh
name=$("$tmp/B" ls --db "$small" --json | python3 -c 'import json,sys; e=json.load(sys.stdin); print(e[len(e)//2]["name"])')
bigname=$("$tmp/B" ls --db "$big" --json | python3 -c 'import json,sys; e=json.load(sys.stdin); print(e[len(e)//2]["name"])')

uptime
python3 - "$tmp" "$small" "$big" "$name" "$bigname" "${ROUNDS:-20}" "${BIG_ROUNDS:-6}" <<'EOF'
import os, statistics, subprocess, sys, time

tmp, small, big, name, bigname, rounds, big_rounds = sys.argv[1:8]
rounds, big_rounds = int(rounds), int(big_rounds)
A, B, hello = f"{tmp}/A", f"{tmp}/B", f"{tmp}/hello"
q = ["deploy", "canary", "rollback"]
cases = [
    ("version", ["version"], rounds),
    ("search 3k", ["search", "--db", small, *q], rounds),
    ("search 100k", ["search", "--db", big, *q], big_rounds),
    ("ls 3k", ["ls", "--db", small], rounds),
    ("show 3k", ["show", "--db", small, name], rounds),
    ("check 3k", ["check", "--db", small], rounds),
    ("export 3k", ["export", "--db", small], rounds),
    ("ls 100k", ["ls", "--db", big], big_rounds),
    ("show 100k", ["show", "--db", big, bigname], big_rounds),
    ("check 100k", ["check", "--db", big], big_rounds),
    ("export 100k", ["export", "--db", big], big_rounds),
]

def once(argv):
    """Wall time in ms, peak RSS in MB and CPU time in ms of one process."""
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    ms = (time.perf_counter_ns() - t0) / 1e6
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}")
    return ms, ru.ru_maxrss / 1024, (ru.ru_utime + ru.ru_stime) * 1e3

def span(xs):
    return f"{statistics.median(xs):8.1f} ({min(xs):.1f}–{max(xs):.1f})"

hello_ms = [once([hello])[0] for _ in range(rounds)]
hello_cpu = statistics.median(once([hello])[2] for _ in range(rounds))
print(f"{'hello-world (bare Go)':22} {span(hello_ms)} ms, CPU {hello_cpu:.1f} ms")
print(f"{'command':22} {'A median (min–max) ms':>28} {'B median (min–max) ms':>28} {'A/B':>6} {'CPU A':>7} {'CPU B':>7} {'A/B':>5} {'RSS A':>7} {'RSS B':>7}")
for label, args, n in cases:
    res = {A: [], B: []}
    for i in range(n):
        for binary in ((A, B) if i % 2 == 0 else (B, A)):
            res[binary].append(once([binary, *args]))
    a, b = [t for t, _, _ in res[A]], [t for t, _, _ in res[B]]
    ra, rb = statistics.median(r for _, r, _ in res[A]), statistics.median(r for _, r, _ in res[B])
    ca, cb = statistics.median(c for _, _, c in res[A]), statistics.median(c for _, _, c in res[B])
    ratio = statistics.median(a) / statistics.median(b)
    print(f"{label:22} {span(a):>28} {span(b):>28} {ratio:6.2f} {ca:7.1f} {cb:7.1f} {ca / max(cb, 0.1):5.2f} {ra:6.0f}M {rb:6.0f}M")
    if label == "version":
        h = statistics.median(hello_ms)
        print(f"{'  version / hello':22} wall A {statistics.median(a) / h:.1f}×, B {statistics.median(b) / h:.1f}×; CPU A {ca / hello_cpu:.1f}×, B {cb / hello_cpu:.1f}×")
EOF
