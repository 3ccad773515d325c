# damage.py - damaged revlogs end in Mercurial errors, not tracebacks
#
# Where a supported release turns a damaged file into a traceback, this
# turns it into the error the release gives for the same damage elsewhere.

from mercurial.i18n import _
from mercurial import (
    error,
    exthelper,
    revlog,
)

eh = exthelper.exthelper()


@eh.wrapfunction(revlog.revlog, '_loadindex')
def _loadindex(orig, rl, *args, **kwargs):
    try:
        return orig(rl, *args, **kwargs)
    except AssertionError:
        # every release: the pure parser asserts that a separate index is
        # whole entries, where the C one raises ValueError, which core
        # reports so
        raise error.RevlogError(_(b"index %s is corrupted") % rl.display_id)
