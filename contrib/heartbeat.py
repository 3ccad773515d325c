#!/usr/bin/env python3
"""copy standard input to standard output, and say so when it falls silent

    COMMAND | heartbeat.py [--every SECONDS] [--label TEXT]

run-tests.py prints a dot per test and nothing while one runs, for
minutes: piped to a log, that reads as a hang. A line is added after
every 30 seconds without output.
"""

import argparse
import os
import sys
import threading
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--every', type=float, default=30.0)
    ap.add_argument('--label', default='still running')
    args = ap.parse_args(argv)
    out = sys.stdout.buffer
    lock = threading.Lock()
    started = time.monotonic()
    last = [started, True]  # when output last came, and whether a line ended

    def beat():
        while True:
            time.sleep(min(1.0, args.every))
            with lock:
                now = time.monotonic()
                if now - last[0] >= args.every:
                    prefix = b'' if last[1] else b'\n'
                    out.write(
                        prefix
                        + b'(%s, %d s)\n' % (args.label.encode(), now - started)
                    )
                    out.flush()
                    last[:] = [now, True]

    threading.Thread(target=beat, daemon=True).start()
    while True:
        data = os.read(0, 65536)
        if not data:
            return 0
        with lock:
            out.write(data)
            out.flush()
            last[:] = [time.monotonic(), data.endswith(b'\n')]


if __name__ == '__main__':
    sys.exit(main())
