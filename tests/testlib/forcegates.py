# forcegates.py - a test hook: open revlogperf's size gates that no setting
# reaches, so that Mercurial's own tests (tiny repositories) go through
# what they hide
#
# With the thresholds at 0, the data map budget at 2 and a 32 KB walk
# cache (contrib/hgsuite.py's "forced" profile), two gates are left:
# checkpoints along chains longer than 32 deltas, and a zlib revlog's
# dispatcher after 16 reads. This extension makes each engage at once
# (chains of 3, the second read). Load it after revlogperf; it does
# nothing without it.

import importlib

from mercurial import extensions

# a test hook, never the extension Mercurial's crash report blames: that
# must stay the one a test names (test-devel-warnings.t's buggylocking)
testedwith = b'ships-with-hg-core'

GATES = {
    'checkpoints': {'CHECKPOINT_EVERY': 2},
    'decompress': {'_READS_BEFORE_DISPATCHER': 1},
}


def extsetup(ui):
    try:
        revlogperf = extensions.find(b'revlogperf')
    except KeyError:
        return
    for module, values in GATES.items():
        loaded = importlib.import_module(revlogperf.__name__ + '.' + module)
        for name, value in values.items():
            if not hasattr(loaded, name):
                raise AttributeError('revlogperf has no %s.%s' % (module, name))
            setattr(loaded, name, value)
