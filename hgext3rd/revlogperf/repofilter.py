# repofilter.py - a filtered repository's changelog, timed only when computed
#
# Up to Mercurial 7.2.0, every read of a filtered repository's ``changelog``
# ran inside ``util.timedcm``, a generator-based context manager with a
# tracing span, though the filtered revisions are computed once:
# ``repo[rev]`` reads it, and each changeset's text again, so ``hg log``
# over curl's 39,491 changesets paid for it 78,982 times, 0.3 s or 17% of
# the command on 6.3.3 (2026-12). 7.2.1 times the computation only, on a
# cache miss; this gives the releases before it the same property, which
# otherwise reads as theirs.

from mercurial import (
    repoview,
    util,
)

from . import compat


# core's property, once this module's replaced it
replaced = None


def install():
    """put the property on ``repoview.repoview`` where core's times every
    read (hg < 7.2.1)"""
    global replaced
    core = vars(repoview.repoview).get('changelog')
    fget = getattr(core, 'fget', None)
    # another extension's property stays
    if getattr(fget, '__module__', None) != repoview.__name__:
        return
    if compat.times_every_filtered_changelog_read(core):
        replaced = core
        repoview.repoview.changelog = property(_changelog, doc=core.__doc__)


def _changelog(self):
    # core's (hg 7.2.1+), on the attributes of older releases
    unfi = self._unfilteredrepo
    unfichangelog = unfi.changelog
    unfiindex = unfichangelog.index
    unfilen = len(unfiindex)
    unfinode = unfiindex[unfilen - 1][7]
    revs = _filtered_revs(unfi, self.filtername, self._visibilityexceptions)
    cl = self._clcache
    newkey = (unfilen, unfinode, hash(revs), compat.is_delaying(unfichangelog))
    # a changelog of another index is one unfi.changelog has replaced
    if cl is not None and (
        cl.index is not unfiindex or newkey != self._clcachekey
    ):
        cl = None
    if cl is None:
        cl = (
            repoview.wrapchangelog(unfichangelog, revs)
            if revs
            else unfichangelog
        )
        object.__setattr__(self, '_clcache', cl)
        object.__setattr__(self, '_clcachekey', newkey)
    return cl


def _filtered_revs(unfi, filtername, exceptions):
    # through repoview.filterrevs either way, and any wrapper of it
    if filtername in unfi.filteredrevcache:
        return repoview.filterrevs(unfi, filtername, exceptions)
    with util.timedcm('repo filter for %s', filtername):
        return repoview.filterrevs(unfi, filtername, exceptions)
