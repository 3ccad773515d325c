# damage.py - damaged revlogs end in Mercurial errors, not tracebacks
#
# Where a supported release turns a damaged file into a Python exception
# other than a Mercurial error, this turns it into the error the release
# gives for the same damage elsewhere: "index ... is corrupted" for an
# index that cannot be parsed, and a RevlogError naming the revlog and the
# revision for a revision that cannot be read.

import errno
import struct

from mercurial.i18n import _
from mercurial import (
    error,
    exthelper,
    mdiff,
    revlog,
)
from mercurial.node import short
from mercurial.utils import stringutil

eh = exthelper.exthelper()

# what reading a damaged revision raises in some release, besides
# Mercurial's errors: a damaged index entry gives a None size or an offset
# out of range (a negative one fails to seek: EINVAL), a damaged delta a
# patch that cannot be decoded
_DAMAGE = (
    TypeError,
    ValueError,
    IndexError,
    OverflowError,
    struct.error,
    mdiff.mpatch.mpatchError,
)


@eh.wrapfunction(revlog.revlog, '_loadindex')
def _loadindex(orig, rl, *args, **kwargs):
    try:
        return orig(rl, *args, **kwargs)
    except (AssertionError, struct.error):
        # every release: the pure parser asserts that a separate index is
        # whole entries, and an index shorter than its 4-byte header fails
        # to unpack, where the C parser raises ValueError, reported so
        raise error.RevlogError(_(b"index %s is corrupted") % rl.display_id)


@eh.wrapfunction(revlog.revlog, '_revisiondata')
def _revisiondata(orig, rl, nodeorrev, *args, **kwargs):
    try:
        return orig(rl, nodeorrev, *args, **kwargs)
    except (OSError, *_DAMAGE) as exc:
        if isinstance(exc, OSError) and exc.errno != errno.EINVAL:
            raise  # not the file's content: reported as core reports it
        if isinstance(nodeorrev, int):
            which = b'%d' % nodeorrev
        else:
            which = short(nodeorrev)
        raise error.RevlogError(
            _(b'%s: cannot read revision %s: %s')
            % (rl.display_id, which, stringutil.forcebytestr(exc)),
            hint=_(b'the revlog may be damaged: run "hg verify"'),
        )
