"""what a benchmark is doing, and about how long is left

A line per step, and a line at least every 30 seconds during a long one:
the same lines on a terminal and in a log, where a ``\\r`` redraw would
leave nothing for minutes.
"""

import sys
import threading
import time

EVERY = 30.0


class Progress:
    """``step(what)`` before each of ``total`` steps; ``close()`` after

    The time left is estimated from the steps done so far.
    """

    def __init__(self, total, stream=None, every=EVERY):
        self.total = total
        self.stream = stream or sys.stderr
        self.every = every
        self.done = 0
        self.doing = None
        self.started = self.said = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, daemon=True)
        self._beat.start()

    def step(self, doing):
        with self._lock:
            if self.doing is not None:
                self.done += 1
            self.doing = doing
            self._say('')

    def close(self):
        self._stop.set()
        self._beat.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def left(self, now):
        """seconds left, or None before the first step is done"""
        if not self.done:
            return None
        per_step = (now - self.started) / self.done
        return per_step * (self.total - self.done)

    def _say(self, still):
        now = time.monotonic()
        left = self.left(now)
        self.stream.write(
            '[%d/%d] %s%s (%d s%s)\n'
            % (
                min(self.done + 1, self.total),
                self.total,
                still,
                self.doing,
                now - self.started,
                '' if left is None else ', about %d s left' % left,
            )
        )
        self.stream.flush()
        self.said = now

    def _heartbeat(self):
        while not self._stop.wait(min(5.0, self.every)):
            with self._lock:
                if time.monotonic() - self.said >= self.every:
                    self._say('still ')
