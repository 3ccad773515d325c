# memreport.py - an hg extension for benchmarks: at exit, write the process's
# private (USS), proportional (PSS) and anonymous (heap) memory, in bytes,
# as a JSON list to the file named by $REVLOGPERF_MEMREPORT (Linux:
# /proc/self/smaps_rollup)
"""write this process's USS, PSS and heap at exit (contrib/bench_commands.py)"""

import json
import os

testedwith = b'6.3 6.6 6.9 7.2'


def uisetup(ui):
    path = os.environ.get('REVLOGPERF_MEMREPORT')
    if path:
        ui.atexit(_write, path)  # at the end of the command


def _write(path):
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
        json.dump([uss, fields.get('Pss'), fields.get('Anonymous')], fp)
