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
from mercurial.node import short
from mercurial import (
    error,
    extensions,
    exthelper,
    mdiff,
    policy,
    revlog,
)
from mercurial.utils import stringutil

from . import hotwrap

eh = exthelper.exthelper()

# what reading the stored bytes of a damaged revision raises, besides
# Mercurial's errors, on every supported release: a damaged index entry
# gives a None size or an offset out of range (a negative one fails to
# seek: EINVAL), a damaged delta a patch that cannot be decoded
_DAMAGE = (
    TypeError,
    ValueError,
    IndexError,
    OverflowError,
    struct.error,
)


def _damage():
    # mdiff's, looked up when something is raised: a command that reads
    # no delta would run mdiff and load two C modules for it (hg <= 6.x)
    return _DAMAGE + (mdiff.mpatch.mpatchError,)


parsers = policy.importmod('parsers')


@eh.extsetup
def _pure_index_damage(ui):
    # every release: the pure parser asserts that a separate index is whole
    # entries, and fails to unpack a short inline entry, where the C parser
    # raises ValueError, reported as corruption; only pure builds pay for
    # this wrapper when a revlog opens
    if parsers.__name__.startswith('mercurial.pure'):
        extensions.wrapfunction(revlog.revlog, '_loadindex', _loadindex)
        extensions.wrapfunction(revlog.revlog, '_revisiondata', _entry_first)


def _loadindex(orig, rl, *args, **kwargs):
    try:
        return orig(rl, *args, **kwargs)
    except (AssertionError, struct.error):
        raise index_corrupted(rl)


def _entry_first(orig, rl, nodeorrev, *args, **kwargs):
    # the pure index parses an entry when it is read, and refuses unknown
    # flags with a ValueError: read it first, and say which index it is
    if isinstance(nodeorrev, int):
        try:
            rl.index[nodeorrev]
        except ValueError as exc:
            raise index_damage(rl, exc)
    return orig(rl, nodeorrev, *args, **kwargs)


def index_corrupted(rl):
    """core's own error for an index it cannot parse"""
    return error.RevlogError(_(b"index %s is corrupted") % rl.display_id)


@hotwrap.hot_wrapper(eh, revlog.revlog, '_rawtext')
def _naming_the_revision(core_rawtext):
    def _rawtext(rl, node, rev, *args, **kwargs):
        # the stored bytes only: index entry, segment, decompression,
        # patches; flag processors, hash checks and extensions run outside,
        # and their errors stay theirs
        try:
            return core_rawtext(rl, node, rev, *args, **kwargs)
        except (OSError, *_damage()) as exc:
            if isinstance(exc, OSError) and exc.errno != errno.EINVAL:
                raise  # not the file's content: reported as core does
            which = b'%d' % rev if rev is not None else short(node)
            raise error.RevlogError(
                _(b'%s: cannot read revision %s: %s')
                % (rl.display_id, which, stringutil.forcebytestr(exc)),
                hint=_(b'the revlog may be damaged: run "hg verify"'),
            )

    return _rawtext


# The graph walks of the C index (heads, phases, common ancestors, reachable
# roots) refuse a parent out of range with a ValueError; the pure index
# fails on it with an IndexError. Each runs once or a few times per
# command: not parents(), which reads run millions of times (the hash check
# that calls it is readpath's).
_GRAPH_WALKS = (
    'headrevs',
    'computephases',
    '_commonancestorsheads',
    'reachableroots',
    'ancestor',
)


@eh.extsetup
def _wrap_graph_walks(ui):
    for name in _GRAPH_WALKS:
        extensions.wrapfunction(revlog.revlog, name, _graph_walk)


def _graph_walk(orig, rl, *args, **kwargs):
    try:
        return orig(rl, *args, **kwargs)
    except (ValueError, IndexError) as exc:
        raise index_damage(rl, exc)


def index_damage(rl, exc):
    """the error for an index entry that points where no revision is"""
    return error.RevlogError(
        _(b'index %s is corrupted: %s')
        % (rl.display_id, stringutil.forcebytestr(exc)),
        hint=_(
            b"run 'hg verify' to see the damage, then restore the file "
            b"from a backup or a clone"
        ),
    )
