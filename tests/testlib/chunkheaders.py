"""print the compression headers of a revlog's stored chunks

usage (in a repository): chunkheaders.py FILE   (a tracked file, or -c, -m)

It reads the stored chunks with Mercurial's code only, on purpose: the
tests check revlogperf's storage with code that is not revlogperf's.
"""

import collections
import sys

from mercurial import hg, ui as uimod

u = uimod.ui.load()
u.setconfig(b'devel', b'all-warnings', b'no')
repo = hg.repository(u, b'.')
what = sys.argv[1].encode()
if what == b'-c':
    rl = repo.changelog
elif what == b'-m':
    rl = repo.manifestlog.getstorage(b'')
else:
    rl = repo.file(what)
rl = getattr(rl, '_revlog', rl)
inner = getattr(rl, '_inner', rl)
segment = (
    getattr(inner, 'get_segment_for_revs', None) or inner._getsegmentforrevs
)
counts = collections.Counter()
for rev in rl:
    chunk = bytes(segment(rev, rev)[1])
    counts[repr(chunk[0:1])] += 1
print(' '.join('%s:%d' % kv for kv in sorted(counts.items())))
