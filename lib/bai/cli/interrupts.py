"""Ctrl-C while a chapter executes: the kernel and its workers are ended, one line is printed,
exit status 130, and every finished task stays in its checkpoint. Part of :mod:`bai.cli`.
"""

from __future__ import annotations

import os
import sys
import time


class _CtrlC:
    """Ctrl-C while a chapter executes. At the signal, before papermill's own clean-up can
    write to the terminal: the kernel is ended (:func:`_end_kernels`; it runs in its own
    session, so the terminal's Ctrl-C does not reach it, and a polite shutdown races with its
    last reply and writes a traceback), this process's stderr is set aside, and
    ``KeyboardInterrupt`` is raised; :meth:`end` then writes the one line on the real stderr.
    Every finished task is in its checkpoint (written atomically: an ended kernel leaves no
    half-written result)."""

    def __init__(self):
        import signal

        self.fired = False
        self.saved_fd = None
        try:
            self.previous = signal.signal(signal.SIGINT, self._handler)
        except ValueError:                 # not the main thread: the default behaviour
            self.previous = None

    def _handler(self, signum, frame):
        import signal

        if self.fired:
            return
        self.fired = True
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:
            pass
        _end_kernels()
        try:
            sys.stderr.flush()
            self.saved_fd = os.dup(2)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        except (OSError, ValueError):
            self.saved_fd = None
        raise KeyboardInterrupt

    def restore(self) -> None:
        import signal

        if self.previous is not None and not self.fired:
            signal.signal(signal.SIGINT, self.previous)

    def end(self, message: str) -> int:
        """The one line, on the terminal's stderr; exit status 130."""
        if self.saved_fd is None:
            return _interrupted(message)
        try:
            os.write(self.saved_fd, ("\n" + message.lstrip("\n") + "\n").encode())
        except OSError:
            pass
        return 130


def _interrupted(message: str) -> int:
    """Ctrl-C during a chapter's execution: the kernel this process started is ended (it runs
    in its own session, so the terminal's Ctrl-C does not reach it, and it would write its own
    farewell to the terminal), ``message`` is the last line, and the interpreter's teardown
    (papermill's pending tasks) writes nothing after it. Exit status 130. Every finished task is
    in its checkpoint (written atomically: a killed kernel leaves no half-written result)."""
    _quiet_interrupts()
    _end_kernels()
    print(message, file=sys.stderr, flush=True)
    try:
        sys.stdout.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
    except (OSError, ValueError):
        pass
    return 130


def _end_kernels(timeout: float = 3.0) -> None:
    """End the Jupyter kernels this process started and every process they started (the
    experiments' worker pools), by their ids, read from ``/proc`` (Linux; elsewhere nothing is
    done): SIGKILL (a kernel ended politely writes to the terminal; an orphaned worker would go on
    computing, and hold the terminal's pipes, after the command has returned), then wait up to
    ``timeout`` seconds for the kernels."""
    import signal

    me = os.getpid()
    parent, cmd = {}, {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                parent[int(name)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd[int(name)] = fh.read()
        except (OSError, ValueError, IndexError):
            continue
    kernels = [pid for pid, pp in parent.items() if pp == me and b"ipykernel" in cmd.get(pid, b"")]
    tree, frontier = list(kernels), list(kernels)
    while frontier:                       # every descendant of the kernels
        frontier = [pid for pid, pp in parent.items() if pp in frontier and pid not in tree]
        tree += frontier
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    end = time.time() + timeout
    for pid in kernels:
        while time.time() < end:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                break
            if done:
                break
            time.sleep(0.05)


def _quiet_interrupts() -> None:
    """After a first Ctrl-C, further ones while the command cleans up are ignored (no second
    traceback)."""
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:            # not the main thread
        pass
