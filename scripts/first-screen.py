#!/usr/bin/env python3
"""Times a TUI's first screen in a real terminal.

Run inside a terminal (tmux does for scripts/first-screen.sh): spawns
COMMAND on a pty of the same size, passes its output to the terminal and
the terminal's replies (to the program's queries) back, and records when
the output first contains MARKER, counted from just before the spawn.
Prints one line: "<ms to first byte> <ms to marker>" to FILE.

    first-screen.py FILE MARKER COMMAND [ARG...]
"""
import fcntl, os, pty, select, sys, termios, time, tty

out_file, marker, argv = sys.argv[1], sys.argv[2].encode(), sys.argv[3:]
size = fcntl.ioctl(1, termios.TIOCGWINSZ, b"\0" * 8)
tty.setraw(0)
t0 = time.perf_counter()
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, size)
seen, first, hit = b"", None, None
deadline = t0 + 10
while time.perf_counter() < deadline and hit is None:
    r, _, _ = select.select([fd, 0], [], [], 0.05)
    if 0 in r:
        os.write(fd, os.read(0, 4096))
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        now = time.perf_counter()
        first = first or now
        os.write(1, data)
        seen = seen[-len(marker):] + data
        if marker in seen:
            hit = now
os.kill(pid, 9)
os.waitpid(pid, 0)
ms = lambda t: "%.1f" % ((t - t0) * 1000) if t else "-"
with open(out_file, "a") as f:
    f.write("%s %s\n" % (ms(first), ms(hit)))
