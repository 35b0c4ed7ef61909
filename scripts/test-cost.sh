#!/usr/bin/env bash
# Measures README's test command, `go test ./...`, as a newcomer runs it:
# in a fresh clone of a revision (default HEAD) with an empty build cache
# (the module cache is kept: the modules are downloaded already), and says
# where its CPU time goes: compiling (the standard library, the other
# modules, crmem's own packages), go test's vet checks, linking, running
# each package's tests (the processes they start included) and the go
# command itself. Every tool the go command runs (-toolexec, through
# GOFLAGS so that the tests' own go builds are counted too) and every test
# binary (-exec) runs under /usr/bin/time; what they leave of the whole
# run's time is the go command's own.
#
#   scripts/test-cost.sh [REV]          print the figures
#   scripts/test-cost.sh --docs [REV]   also write them into
#                                       docs/development.md (between its
#                                       test-cost markers)
#
# The machine is shared: CPU seconds are what load disturbs least; the
# load average at the start and end is printed with them. The wrappers add
# a process per tool run (some 900, a few CPU-seconds in all). Not part of
# go test; takes 3 to 12 minutes on 2 cores. TEST_COST_KEEP=DIR keeps the
# raw logs there (the tools' and test binaries' times, go test -json).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
docs=""
if [ "${1:-}" = "--docs" ]; then docs=1; shift; fi
rev=$(git rev-parse --short=7 "${1:-HEAD}")

work=$(mktemp -d /tmp/crmem-test-cost.XXXXXX)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
git clone -q "$repo" "$work/clone"
git -C "$work/clone" checkout -q "$rev"
mkdir "$work/cache"

# The wrappers: sh, not bash (started some 900 times).
cat >"$work/tool" <<EOF
#!/bin/sh
exec /usr/bin/time -a -o "$work/tools.log" -f "%e %U %S %C" "\$@"
EOF
cat >"$work/test" <<EOF
#!/bin/sh
exec /usr/bin/time -a -o "$work/tests.log" -f "%e %U %S \$PWD" "\$@"
EOF
chmod +x "$work/tool" "$work/test"

load0=$(cut -d' ' -f1 /proc/loadavg)
set +e
(cd "$work/clone" && GOCACHE="$work/cache" GOFLAGS="${GOFLAGS:-} -toolexec=$work/tool" \
  /usr/bin/time -o "$work/total" -f "%e %U %S" go test -exec "$work/test" -json ./... >"$work/test.json")
status=$?
set -e
load1=$(cut -d' ' -f1 /proc/loadavg)
if [ -n "${TEST_COST_KEEP:-}" ]; then # the raw logs, for a closer look
  mkdir -p "$TEST_COST_KEEP" && cp "$work"/{tools.log,tests.log,total,test.json} "$TEST_COST_KEEP"/
fi

python3 - "$work" "$rev" "$load0" "$load1" "$status" "$docs" "$repo/docs/development.md" <<'EOF'
import json, os, re, sys
work, rev, load0, load1, status, docs, page = sys.argv[1:8]
clone = os.path.join(work, "clone")
module = "github.com/crmem/crmem"

def rows(name):
    out = []
    for line in open(os.path.join(work, name)):
        f = line.split(None, 3)
        if len(f) < 4 or not re.match(r"^[0-9.]+$", f[0]):
            continue  # "Command exited with non-zero status", a signal
        out.append((float(f[1]) + float(f[2]), f[3].strip()))
    return out

# The go command's work folder of each tool run: go test's own is the
# commonest; the others are the go builds tests ran (their CPU time is in
# their test binary's figure too, and is taken out of it below).
tools = rows("tools.log")
def workdir(cmd):
    m = re.search(r"/go-build[0-9]+/", cmd)
    return m.group(0) if m else ""
count = {}
for _, cmd in tools:
    count[workdir(cmd)] = count.get(workdir(cmd), 0) + 1
outer = max((w for w in count if w), key=lambda w: count[w], default="")
inner = 0.0
compile_std = compile_mod = compile_own = vet = link = other = 0.0
links = own_links = 0
for cpu, cmd in tools:
    if workdir(cmd) not in ("", outer):
        inner += cpu
    args = cmd.split()
    tool = os.path.basename(args[0]).removesuffix(".exe")
    if "-V=full" in args:
        other += cpu
    elif tool == "compile":
        pkg = args[args.index("-p") + 1] if "-p" in args else ""
        if pkg == module or pkg.startswith(module + "/") or pkg == "main":
            compile_own += cpu
        elif "." in pkg.split("/")[0]:
            compile_mod += cpu
        else:
            compile_std += cpu
    elif tool == "vet":
        vet += cpu
    elif tool == "link":
        link += cpu
        links += 1
        out = args[args.index("-o") + 1] if "-o" in args else ""
        if not out.endswith(".test"):
            own_links += 1
    else:
        other += cpu  # asm, cgo, gcc, pack

# A test binary's figure includes the processes its tests started and
# waited for (crmem, man, git), and the go builds some tests run, whose
# tools are in tools.log too: those are taken out of the total (inner).
tests = {}
for cpu, d in rows("tests.log"):
    pkg = os.path.relpath(d, clone)
    pkg = "." if pkg == "." else pkg
    tests[pkg] = tests.get(pkg, 0) + cpu
run = sum(tests.values()) - inner
elapsed, user, system = map(float, open(os.path.join(work, "total")).read().split())
total = user + system
gocmd = total - (compile_std + compile_mod + compile_own + vet + link + other + run)
failed = []
for line in open(os.path.join(work, "test.json")):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("Action") == "fail" and not e.get("Test"):
        failed.append(e["Package"].removeprefix(module + "/"))

def s(x):
    return f"{x:.0f}"
compile = compile_std + compile_mod + compile_own
slow = sorted(tests.items(), key=lambda kv: -kv[1])
# inner builds are not attributed by package: the figures by package are
# whole test binaries'.
top = ", ".join(f"`{p}` {v:.0f}" for p, v in slow[:7] if v >= 1)
m, sec = divmod(round(elapsed), 60)
lines = [
    f"`go test ./...` at {rev}, fresh clone, empty build cache, 2 cores, load average {load0} at the start and {load1} at the end "
    f"(`scripts/test-cost.sh`): **{s(total)} CPU-seconds** ({s(user)} user, {s(system)} system), {m} min {sec:02d} s of wall time"
    + (f"; FAILED: {' '.join(failed) or 'exit ' + status}" if failed or status != "0" else "") + ".",
    "",
    "| where the CPU time goes | CPU-s |",
    "|---|---:|",
    f"| compiling: the standard library {s(compile_std)}, other modules {s(compile_mod)}, crmem's packages {s(compile_own)} (with their tests) | {s(compile)} |",
    f"| go test's vet checks (every package's dependencies too) | {s(vet)} |",
    f"| linking: {links - own_links} test binaries, crmem {own_links} times (tests that build it) | {s(link)} |",
    f"| running the tests (the processes they wait for included, the go builds they run excepted) | {s(run)} |",
    f"| the go command itself, other tools, the wrappers | {s(gocmd + other)} |",
    f"| total | {s(total)} |",
    "",
    f"Running the tests, by package (CPU-s, the go builds they run included): {top}, the other {len(slow) - min(7, len(slow))} together {sum(v for _, v in slow[7:]):.0f}.",
]
block = "\n".join(lines)
print(block)
if docs:
    text = open(page).read()
    begin = "<!-- test-cost: generated by scripts/test-cost.sh --docs; do not edit by hand -->\n"
    end = "\n<!-- end test-cost -->"
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        sys.exit(f"{page}: no test-cost markers")
    open(page, "w").write(text[: i + len(begin)] + block + text[j:])
    print(f"written into {page}", file=sys.stderr)
EOF
