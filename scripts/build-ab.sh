# Sourced by the timing scripts (oneshot-bench.sh, first-screen.sh): builds
# into $tmp this tree's crmem as B, revision $old's as A and a bare Go
# hello-world as hello, all as the releases are built (static, cgo off: a
# dynamic binary spends 3-4 ms more in the loader and libc before main).
# The files timed are copies, not the ones the linker wrote: on the VM these
# figures come from, a binary straight out of go build sometimes ran ~2 ms
# slower per start than a cp of it (same page faults), favouring one side.
export CGO_ENABLED=0
echo "building B (this tree) and A ($old)…" >&2
go build -o "$tmp/B.build" .
mkdir "$tmp/old"
git archive "$old" | tar -x -C "$tmp/old"
(cd "$tmp/old" && go build -o "$tmp/A.build" .)
mkdir "$tmp/hello-src"
printf 'module hello\n\ngo 1.22\n' >"$tmp/hello-src/go.mod"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$tmp/hello-src/main.go"
(cd "$tmp/hello-src" && go build -o "$tmp/hello.build" .)
for b in A B hello; do cp "$tmp/$b.build" "$tmp/$b"; done
