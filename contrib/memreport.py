# memreport.py - an hg extension for benchmarks: at exit, write the process's
# private (USS) and proportional (PSS) memory, and the peak of its anonymous
# memory (the heap, sampled every 10 ms), in bytes, as a JSON list to the
# file named by $REVLOGPERF_MEMREPORT (Linux: /proc/self/smaps_rollup and
# /proc/self/status)
"""write this process's USS, PSS and peak heap at exit (bench_commands.py)"""

import json
import os
import threading

testedwith = b'6.3 6.6 6.9 7.2'

SAMPLE_EVERY = 0.01  # seconds: a read of /proc/self/status is ~20 us


def uisetup(ui):
    path = os.environ.get('REVLOGPERF_MEMREPORT')
    if path:
        peak = _PeakHeap()
        peak.start()
        ui.atexit(_write, path, peak)  # at the end of the command


class _PeakHeap(threading.Thread):
    """the highest RssAnon seen, from now on"""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak = 0
        self.done = threading.Event()

    def sample(self):
        try:
            with open('/proc/self/status') as fp:
                for line in fp:
                    if line.startswith('RssAnon:'):
                        anon = int(line.split()[1]) * 1024
                        self.peak = max(self.peak, anon)
                        return
        except OSError:
            pass

    def run(self):
        while not self.done.wait(SAMPLE_EVERY):
            self.sample()


def _write(path, peak):
    peak.done.set()
    peak.sample()
    fields = {}
    try:
        with open('/proc/self/smaps_rollup') as fp:
            for line in fp:
                key, _sep, value = line.partition(':')
                if value.strip().endswith('kB'):
                    fields[key] = int(value.split()[0]) * 1024
    except OSError:
        return
    uss = fields.get('Private_Clean', 0) + fields.get('Private_Dirty', 0)
    with open(path, 'w') as fp:
        json.dump([uss, fields.get('Pss'), peak.peak or None], fp)
