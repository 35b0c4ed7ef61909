#!/usr/bin/env bash
# Measures README's test command, `go test ./...`, as a newcomer runs it:
# in a fresh clone of a revision (default HEAD) with an empty build cache
# (the module cache is kept: the modules are downloaded already), and says
# where its CPU time goes: compiling (the standard library, the other
# modules, crmem's own packages), go test's vet checks, linking, running
# each package's tests (the processes they start included) and the go
# command itself. Every tool the go command runs (-toolexec, through
# GOFLAGS so that the tests' own go builds are counted too) runs under
# /usr/bin/time, and every test binary (-exec) under a wrapper that also
# waits for what its tests left running on its own (a tmux server leaves
# its parent at once: /usr/bin/time would count neither it nor the crmem
# in its terminal); what they leave of the whole run's time is the go
# command's own. Then the same command runs again in the same clone with
# -count=1, the build cache now warm: what running every test again costs
# (the test binaries are linked again, nothing is compiled).
#
#   scripts/test-cost.sh [REV]          print the figures
#   scripts/test-cost.sh --docs [REV]   also write them into
#                                       docs/development.md (between its
#                                       test-cost markers)
#
# The machine is shared: CPU seconds are what load disturbs least; the
# load average at the start and end is printed with them. The wrappers add
# a process per tool run (some 900, a few CPU-seconds in all). Not part of
# go test; takes 5 to 15 minutes on 2 cores. TEST_COST_KEEP=DIR keeps the
# raw logs there (the tools' and test binaries' times, go test -json; the
# empty cache's run's names start with empty-, the warm run's with warm-).
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
# A test binary's wrapper: a child subreaper (Linux), so that what its
# tests started and left (a tmux server, the crmem in its terminal) is
# its child once orphaned, waited for and counted in its time; it waits at
# most 20 s for those after the test binary ends.
cat >"$work/reap.py" <<'EOF'
import ctypes, os, resource, signal, sys, time
log, cmd = sys.argv[1], sys.argv[2:]
try:
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except (OSError, AttributeError):
    pass
start = time.time()
pid = os.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):  # go test's timeout
    signal.signal(s, lambda n, _: os.kill(pid, n))
status, deadline = 0, None
while True:
    try:
        p, st = os.waitpid(-1, os.WNOHANG if deadline else 0)
    except ChildProcessError:
        break
    if p == pid:
        status, deadline = st, time.time() + 20
    elif p == 0:
        if time.time() > deadline:
            break
        time.sleep(0.05)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(log, "a") as f:
    f.write(f"{time.time() - start:.2f} {ru.ru_utime:.2f} {ru.ru_stime:.2f} {os.getcwd()}\n")
sys.exit(os.waitstatus_to_exitcode(status))
EOF
cat >"$work/test" <<EOF
#!/bin/sh
exec python3 "$work/reap.py" "$work/tests.log" "\$@"
EOF
chmod +x "$work/tool" "$work/test"

# measure PREFIX [FLAGS]: go test ./... in the clone with FLAGS, its logs
# kept with PREFIX in front of their names.
measure() {
  local prefix=$1
  shift
  : >"$work/tools.log"
  : >"$work/tests.log"
  set +e
  (cd "$work/clone" && GOCACHE="$work/cache" GOFLAGS="${GOFLAGS:-} -toolexec=$work/tool" \
    /usr/bin/time -o "$work/total" -f "%e %U %S" go test -exec "$work/test" -json "$@" ./... >"$work/test.json")
  echo $? >"$work/status"
  set -e
  for f in tools.log tests.log total test.json status; do mv "$work/$f" "$work/$prefix$f"; done
}

load0=$(cut -d' ' -f1 /proc/loadavg)
measure empty-
load1=$(cut -d' ' -f1 /proc/loadavg)
measure warm- -count=1
load2=$(cut -d' ' -f1 /proc/loadavg)
status=$(cat "$work/empty-status")
warm_status=$(cat "$work/warm-status")
if [ -n "${TEST_COST_KEEP:-}" ]; then # the raw logs, for a closer look
  mkdir -p "$TEST_COST_KEEP" && cp "$work"/{empty,warm}-{tools.log,tests.log,total,test.json} "$TEST_COST_KEEP"/
fi

python3 - "$work" "$rev" "$load0" "$load1" "$status" "$docs" "$repo/docs/development.md" "$load2" "$warm_status" <<'EOF'
import json, os, re, sys
work, rev, load0, load1, status, docs, page, load2, warm_status = sys.argv[1:10]
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

def run_cost(prefix):
    """The figures of one run, from the logs named with prefix."""
    r = {}
    # The go command's work folder of each tool run: go test's own is the
    # commonest; the others are the go builds tests ran (their CPU time is
    # in their test binary's figure too, and is taken out of it below).
    tools = rows(prefix + "tools.log")
    def workdir(cmd):
        m = re.search(r"/go-build[0-9]+/", cmd)
        return m.group(0) if m else ""
    count = {}
    for _, cmd in tools:
        count[workdir(cmd)] = count.get(workdir(cmd), 0) + 1
    outer = max((w for w in count if w), key=lambda w: count[w], default="")
    inner = 0.0
    for k in ("compile_std", "compile_mod", "compile_own", "vet", "link", "other"):
        r[k] = 0.0
    r["links"] = r["own_links"] = 0
    for cpu, cmd in tools:
        if workdir(cmd) not in ("", outer):
            inner += cpu
        args = cmd.split()
        tool = os.path.basename(args[0]).removesuffix(".exe")
        if "-V=full" in args:
            r["other"] += cpu
        elif tool == "compile":
            pkg = args[args.index("-p") + 1] if "-p" in args else ""
            if pkg == module or pkg.startswith(module + "/") or pkg == "main":
                r["compile_own"] += cpu
            elif "." in pkg.split("/")[0]:
                r["compile_mod"] += cpu
            else:
                r["compile_std"] += cpu
        elif tool == "vet":
            r["vet"] += cpu
        elif tool == "link":
            r["link"] += cpu
            r["links"] += 1
            out = args[args.index("-o") + 1] if "-o" in args else ""
            if not out.endswith(".test"):
                r["own_links"] += 1
        else:
            r["other"] += cpu  # asm, cgo, gcc, pack
    # A test binary's figure includes the processes its tests started
    # (crmem, man, git, tmux and what runs in it), and the go builds some
    # tests run, whose tools are in tools.log too: those are taken out of
    # the total (inner).
    tests = {}
    for cpu, d in rows(prefix + "tests.log"):
        pkg = os.path.relpath(d, clone)
        tests[pkg] = tests.get(pkg, 0) + cpu
    r["run"] = sum(tests.values()) - inner
    # the last line: a failed run's is after "Command exited with non-zero status"
    last = open(os.path.join(work, prefix + "total")).read().strip().splitlines()[-1]
    r["elapsed"], r["user"], r["system"] = map(float, last.split())
    r["total"] = r["user"] + r["system"]
    r["compile"] = r["compile_std"] + r["compile_mod"] + r["compile_own"]
    r["gocmd"] = r["total"] - (r["compile"] + r["vet"] + r["link"] + r["other"] + r["run"])
    r["failed"] = []
    failed_tests, output = {}, {}  # package → its failed tests; (package, test) → output
    for line in open(os.path.join(work, prefix + "test.json")):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        pkg, test = e.get("Package", "").removeprefix(module + "/"), e.get("Test")
        if e.get("Action") == "output" and test:
            output.setdefault((pkg, test), []).append(e["Output"])
        if e.get("Action") == "fail" and test and "/" not in test:
            failed_tests.setdefault(pkg, []).append(test)
            # a test that fails now and then must be named, with what it said
            print(f"{prefix}run: {pkg} {test} failed:\n" + "".join(output.get((pkg, test), []))[-4000:], file=sys.stderr)
        if e.get("Action") == "fail" and not test:
            r["failed"].append(pkg + (f" ({', '.join(failed_tests[pkg])})" if pkg in failed_tests else ""))
    # inner builds are not attributed by package: the figures by package
    # are whole test binaries'.
    r["slow"] = sorted(tests.items(), key=lambda kv: -kv[1])
    return r

def s(x):
    return f"{x:.0f}"

def wall(r):
    m, sec = divmod(round(r["elapsed"]), 60)
    return f"{m} min {sec:02d} s"

def failures(r, status):
    return f"; FAILED: {' '.join(r['failed']) or 'exit ' + status}" if r["failed"] or status != "0" else ""

def by_package(r, n):
    slow = r["slow"]
    top = ", ".join(f"`{p}` {v:.0f}" for p, v in slow[:n] if v >= 1)
    return f"{top}, the other {len(slow) - min(n, len(slow))} together {sum(v for _, v in slow[n:]):.0f}"

c, w = run_cost("empty-"), run_cost("warm-")
lines = [
    f"`go test ./...` at {rev}, fresh clone, empty build cache, 2 cores, load average {load0} at the start and {load1} at the end "
    f"(`scripts/test-cost.sh`): **{s(c['total'])} CPU-seconds** ({s(c['user'])} user, {s(c['system'])} system), {wall(c)} of wall time"
    + failures(c, status) + ".",
    "",
    "| where the CPU time goes | CPU-s |",
    "|---|---:|",
    f"| compiling: the standard library {s(c['compile_std'])}, other modules {s(c['compile_mod'])}, crmem's packages {s(c['compile_own'])} (with their tests) | {s(c['compile'])} |",
    f"| go test's vet checks (every package's dependencies too) | {s(c['vet'])} |",
    f"| linking: {c['links'] - c['own_links']} test binaries, crmem {c['own_links']} times (tests that build it) | {s(c['link'])} |",
    f"| running the tests (the processes they start included, tmux's servers too; the go builds they run excepted) | {s(c['run'])} |",
    f"| the go command itself, other tools, the wrappers | {s(c['gocmd'] + c['other'])} |",
    f"| total | {s(c['total'])} |",
    "",
    f"Running the tests, by package (CPU-s, the go builds they run included): {by_package(c, 7)}.",
    "",
    f"Then again in that clone with the build cache warm (`go test -count=1 ./...`, load average {load2} at the end): "
    f"**{s(w['total'])} CPU-seconds warm** ({s(w['user'])} user, {s(w['system'])} system), {wall(w)} of wall time"
    + failures(w, warm_status) + f": compiling {s(w['compile'])}, linking {s(w['link'])} ({w['links']} links), "
    f"running the tests {s(w['run'])} ({by_package(w, 4)}), the go command and the rest {s(w['gocmd'] + w['other'] + w['vet'])}.",
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
