#!/bin/sh
# The explorer whose terminal disappears without a SIGHUP reaching it
# (issue 12, item 3): it runs on a pty as the session leader with SIGHUP
# ignored (a parent that ignores it, as nohup does), the screen is drawn,
# then the pty's master side is closed. Reading the terminal now gives end
# of file or an error at once, forever: the explorer must end (like Q)
# within seconds instead of spinning, and must not have burnt a second of
# CPU doing it. Also with a `:` prompt open (a prompt reads keys too).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
for keys in "" ":"; do
    rm -f "$WORK/pid" "$WORK/result"
    python3 - "$BIN" "$SAMPLE" "$keys" "$WORK" <<'PY' >"$WORK/log" 2>&1
import os, pty, select, signal, sys, time
binary, sample, keys, work = sys.argv[1:5]
pid, fd = pty.fork()
if pid == 0:
    # The session leader: ignores SIGHUP, stays alive, and runs the
    # explorer as its child, so the hangup's SIGHUP (sent to the leader
    # only) never reaches the explorer.
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    child = os.fork()
    if child == 0:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        os.environ["TERM"] = "xterm"
        os.execv(binary, [binary, sample])
    open(work + "/pid", "w").write(str(child))
    _, status, usage = os.wait4(child, 0)
    with open(work + "/result.tmp", "w") as f:
        f.write("%d %.2f" % (status, usage.ru_utime + usage.ru_stime))
    os.rename(work + "/result.tmp", work + "/result")
    os._exit(0)
screen = b""
deadline = time.time() + 20
while b"Functions" not in screen and time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.5)
    if r:
        try:
            screen += os.read(fd, 65536)
        except OSError:
            break
explorer = int(open(work + "/pid").read())
if b"Functions" not in screen:
    print("the explorer never drew its screen")
    os.kill(explorer, signal.SIGKILL)
    sys.exit(1)
if keys:
    os.write(fd, keys.encode())
    time.sleep(0.5)
os.close(fd)
deadline = time.time() + 10
while time.time() < deadline and not os.path.exists(work + "/result"):
    time.sleep(0.1)
if os.path.exists(work + "/result"):
    status, cpu = open(work + "/result").read().split()
    print("ended (wait status %s) after its terminal closed, %s s of CPU" % (status, cpu))
    sys.exit(0 if float(cpu) < 1.0 else 1)
ticks = open("/proc/%d/stat" % explorer).read().split(")")[1].split()
os.kill(explorer, signal.SIGKILL)
print("still running 10 s after its terminal closed (%d ticks of CPU)" % (int(ticks[11]) + int(ticks[12])))
sys.exit(1)
PY
    rc=$?
    if [ $rc -eq 0 ]; then
        ok "terminal closed${keys:+ under a '$keys' prompt}: $(tail -1 "$WORK/log")"
    else
        fail "terminal closed${keys:+ under a '$keys' prompt}: $(tail -1 "$WORK/log")"
    fi
done
finish
