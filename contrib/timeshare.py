# timeshare.py - an hg extension for benchmarks: at exit, say how much of a
# command's time went to reading revisions (and, of that, to the hash check
# and to patching), to line diffs, to writing the working copy and to
# output. A statistical profile charges a long C call (bdiff) to whatever
# Python line it samples next: these are clocks around the calls.
"""time spent reading revisions, diffing and writing, printed at exit

  hg --config extensions.timeshare=contrib/timeshare.py annotate FILE

Each line is the wall time inside one kind of call, outermost calls only,
with its share of the command's wall time; indented lines are parts of the
line above. $REVLOGPERF_TIMESHARE names a file to write them to as JSON
instead of printing them to stderr.
"""

import json
import os
import sys
import time

from mercurial import (
    extensions,
    localrepo,
    mdiff,
    revlog,
    ui as uimod,
)
from mercurial.utils import storageutil

testedwith = b'6.3 6.6 6.9 7.2'

# (label, parent label): the order of the report
LABELS = [
    ('read changelog', None),
    ('read manifest', None),
    ('read filelog', None),
    ('hash check', 'read'),
    ('patch', 'read'),
    ('line diff (bdiff)', None),
    ('write working copy', None),
    ('ui.write', None),
]

_spent = dict.fromkeys((label for label, _parent in LABELS), 0.0)
_inside = set()
_started = time.perf_counter()


def _timed(label, call, /, *args, **kwargs):
    """call, adding its wall time to ``label`` unless already inside it"""
    # positional only: ui.write takes a ``label`` of its own
    if label in _inside:
        return call(*args, **kwargs)
    _inside.add(label)
    start = time.perf_counter()
    try:
        return call(*args, **kwargs)
    finally:
        _spent[label] += time.perf_counter() - start
        _inside.discard(label)


def _kind(rl):
    radix = rl.radix
    if radix.startswith(b'00changelog'):
        return 'read changelog'
    if radix.startswith(b'00manifest') or radix.startswith(b'meta/'):
        return 'read manifest'
    return 'read filelog'


def _revision(orig, rl, *args, **kwargs):
    # one read at a time: a read inside a read is part of the outer one
    if _inside.intersection(
        ('read changelog', 'read manifest', 'read filelog')
    ):
        return orig(rl, *args, **kwargs)
    return _timed(_kind(rl), orig, rl, *args, **kwargs)


def _wrapped_function(module, name, label):
    core = getattr(module, name)

    def timed(*args, **kwargs):
        return _timed(label, core, *args, **kwargs)

    setattr(module, name, timed)


def uisetup(ui):
    _wrapped_function(storageutil, 'hashrevisionsha1', 'hash check')
    _wrapped_function(mdiff, 'patches', 'patch')
    # looked up at each call by mdiff, for annotate, diff and log -p alike
    _wrapped_function(mdiff.bdiff, 'blocks', 'line diff (bdiff)')
    extensions.wrapfunction(
        localrepo.localrepository,
        'wwrite',
        lambda orig, *a, **k: _timed('write working copy', orig, *a, **k),
    )
    extensions.wrapfunction(
        uimod.ui,
        'write',
        lambda orig, *a, **k: _timed('ui.write', orig, *a, **k),
    )
    ui.atexit(_report)


_reads_timed = False


def reposetup(ui, repo):
    # the outermost wrapper, after every extension's extsetup: revlogperf
    # reads changelog texts in a wrapper of its own (readpath.py)
    global _reads_timed
    if not _reads_timed:
        extensions.wrapfunction(revlog.revlog, '_revisiondata', _revision)
        _reads_timed = True


def report_lines(spent, wall):
    """the report, one line per label, as printed"""
    lines = ['%-24s %8.3f s  100%%' % ('command (wall)', wall)]
    for label, parent in LABELS:
        indent = '  ' if parent else ''
        share = 100.0 * spent[label] / wall if wall else 0.0
        lines.append(
            '%-24s %8.3f s %4.0f%%' % (indent + label, spent[label], share)
        )
    return lines


def _report():
    wall = time.perf_counter() - _started
    path = os.environ.get('REVLOGPERF_TIMESHARE')
    if path:
        with open(path, 'w') as fp:
            json.dump({**_spent, 'wall': wall}, fp)
        return
    sys.stderr.write('\n'.join(report_lines(_spent, wall)) + '\n')
