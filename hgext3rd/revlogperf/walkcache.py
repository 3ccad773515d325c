# walkcache.py - what a command reads of a file's history, kept for its next
# changesets
#
# Core opens a file's filelog anew for every changeset a command walks
# (``log -p``, ``diff``, ``annotate``, ``update``), and a filelog keeps the
# last text it read only. ``diff`` reads each side twice (its binary check,
# then its text), and ``log -p`` reads a file's revision again as the parent
# side of the next changeset: each read goes down the delta chain from its
# base, after the index was read again. On the 20k sample (7.2.4, 2026-12)
# that was half of ``log -p -l 300``.
#
# A repository keeps, for one command or one hgweb request, the filelogs it
# opened for reading and the file texts read through them, within
# ``revlogperf.walk-cache`` bytes. Texts are kept by node, which names
# their content.
#
# The walk's lifetime is decided here, in one place (``command_scope`` and
# ``walk_of``). It lives only while ``dispatch.runcommand`` or an hgweb
# request runs on that repository object: a repository held through the
# Python API (a GUI, a web front end, a script) keeps nothing between its
# calls, and each ``repo.file()`` opens a fresh filelog as in core, which
# sees what other processes wrote since (a censor, a strip, a rollback).
# Inside the scope, all is dropped when a transaction starts or a strip
# ends in this process, on any repository object, when this one is
# invalidated or reloads its changelog, and when the command or request
# ends: nothing is answered that core would refuse.

import collections
import contextlib
import weakref

from mercurial import (
    dispatch,
    extensions,
    exthelper,
    filelog,
    hg,
    localrepo,
    manifest,
    revlog,
    txnutil,
    util,
)
from mercurial.revlogutils import randomaccessfile

from . import (
    checkpoints,
    compat,
    config,
    hotwrap,
    lazyload,
    mmapdata,
)

eh = exthelper.exthelper()

MAX_KEPT = 2048
"""filelogs and texts a walk keeps, at most"""

INDEX_ENTRY_SIZE = 2 * 64
"""what a revision costs a filelog kept, in bytes: its index entry (revlog
v1), and as much again for the index's node tree"""

FILELOG_SIZE = 16 * 1024
"""what a filelog kept costs besides its index and caches: its objects"""

RECOSTED = 4
"""filelogs handed out last, whose caches grow as they are read: each is
costed again when this many others were asked for since"""


def kept_within(budget):
    """the bytes a walk keeps, for a peak heap at most ``budget`` above
    core's: the heap holds more than the texts in it, and the command's own
    allocations cannot reuse their place (``annotate`` of a file of 2,055
    revisions on curl's history, 7.2.4, 2026-12: 66.4 MiB above core's
    peak with 64 MiB kept)"""
    return budget - budget // 16


ON_TRIAL = 32
"""texts a filelog keeps whether they are read again or not: after that,
it keeps new ones while its texts were read again at least half as often
as new ones were read (ASKED_AGAIN). ``annotate`` of configure.ac on
6.3.3 reads one of 1,327 texts again, the 3rd: keeping the rest made
its heap 57 MB larger and the command 6-9% slower (curl, 2026-12). ``log
-p FILE`` reads 899 again for 301 new."""

TEXTS_ON_TRIAL = 1024
"""new texts a walk keeps on its filelogs' trials (ON_TRIAL), whether
they are read again or not: after that, a filelog on trial keeps new
ones while the walk's texts were read again at least half as often as
new ones were (ASKED_AGAIN); a filelog whose own texts were keeps them.
``verify`` reads the first text of each of its 7,451 files (for copy
metadata), and none again: keeping them made its peak RSS 124 MB, 108
MB since, against 101 MB without the walk cache (6.3.3, curl, 2026-12)."""

FILELOGS_ON_TRIAL = 64
"""filelogs a walk keeps, whether files are asked for again or not: after
that, it keeps a new one while files were asked for again at least half
as often as new ones were (ASKED_AGAIN). ``update`` asks for each file
once: keeping its 1,636 filelogs cost it 3% of its instructions.
``verify`` asks again for 1,614 of 7,451 files: keeping 2,048 filelogs
made it 5 to 19% slower than core, and now 0.93 of core's time. ``log
-p -l 300`` asks again 956 times for 801 files, ``export`` of 100
changesets 197 times for 331 (curl's history, 7.2.4, 2026-12)."""

ASKED_AGAIN = 2

HEAP_GAPS = 2
"""the heap may hold this fraction of the bound free before its free pages
go back to the system (mmapdata.give_back_heap_gaps)"""

LOOK_AT_GAPS = 8
"""the heap's gaps are looked at each time this fraction of the bound was
kept since: looking walks the heap's free lists, and at every filelog
asked for made ``diff`` 13% slower (curl, 7.2.4, 2026-12)"""


def _kept_types():
    """the filelogs a walk keeps (not remotefilelog's or others' storage)"""
    return (filelog.filelog, filelog.narrowfilelog)


_WALK = '_revlogperf_walk'
_TEXTS = '_revlogperf_texts'
_SCOPE = '_revlogperf_scope'

# transactions begun and strips ended in this process, on any repository
# object: a walk made before one of them is dropped at its next use
_store_writes = 0


class _Walk:
    """the filelogs and texts one repository keeps for one command

    Filelogs (by path) and texts (by path or revlog, and node) share one
    bound of ``budget`` bytes, least recently used out first. A filelog
    costs what it holds that core would have let go with it: its index
    read, its chunk cache and its cached text. A text larger than a quarter
    of the bound is not kept.
    """

    __slots__ = (
        '__weakref__',
        'alive',
        'changelog',
        'writes',
        'kept',
        'mapped',
        'maps',
        'largest',
        'recent',
        'churn',
        'asked',
        'asked_again',
        'texts_read',
    )

    def __init__(self, changelog, budget, maps):
        # False once dropped: revlogs that outlive it keep nothing more
        self.alive = True
        # the changelog the repository had: another one means a reload
        self.changelog = changelog
        # another one means something was written since
        self.writes = _store_writes
        self.kept = util.lrucachedict(MAX_KEPT, maxcost=kept_within(budget))
        # a mapped index holds a descriptor while its filelog lives: no
        # more of those kept than data files may be mapped
        self.mapped = collections.OrderedDict()
        self.maps = maps
        # one large file read must not push out every other text
        self.largest = self.kept.maxcost // 4
        self.recent = collections.deque()
        # bytes kept since the heap was last looked at (a list: filelogs
        # share it, not the walk, which keeps them)
        self.churn = [0]
        # the files asked for, and how often one was asked for again
        self.asked = set()
        self.asked_again = 0
        # texts read again, and new ones read (a list: filelogs share it)
        self.texts_read = [0, 0]

    def outdated(self):
        """was the store written in this process since the walk began?"""
        return self.writes != _store_writes

    def worth_keeping(self, path):
        """should the filelog of ``path``, not kept, be?"""
        asked = self.asked
        if path in asked:
            self.asked_again += 1
        else:
            asked.add(path)
        if len(asked) <= FILELOGS_ON_TRIAL:
            return True
        return self.asked_again * ASKED_AGAIN >= len(asked)

    def keep(self, path, fl):
        """keep ``fl``, costed as it is now, and cost again the one handed
        out RECOSTED filelogs ago: it was read in the meantime"""
        recent = self.recent
        if path in recent:
            recent.remove(path)
        elif len(recent) == RECOSTED:
            # costing each of them at every call was 2% of update's
            # instructions (6.3.3, 2026-12)
            done = recent.popleft()
            kept = self.kept.peek(done, None)
            if kept is not None:  # else let go since
                _let_go_of_segment(kept)
                self.kept.insert(done, kept, cost=_held(kept))
        recent.append(path)
        if getattr(fl._revlog, 'revlogperf_mapped_index', False):
            self.mapped[path] = None
            self.mapped.move_to_end(path)
            if len(self.mapped) > self.maps:
                self.kept.pop(self.mapped.popitem(last=False)[0], None)
        cost = _held(fl)
        # what is new in the heap: a filelog handed out again is not
        new = self.kept.peek(path, None) is not fl
        self.kept.insert(path, fl, cost=cost)
        if new:
            self.count_kept(cost)

    def count_kept(self, cost):
        """count ``cost`` more bytes kept (_count_kept)"""
        _count_kept(self.churn, self.kept, cost)

    def clear(self):
        self.alive = False
        # an lrucachedict is a ring of nodes, a reference cycle: emptied
        # now, the filelogs (and their maps' descriptors) go at once, not
        # when the cycle collector runs (hgweb, command servers)
        self.kept.clear()
        self.mapped.clear()
        self.recent.clear()
        self.asked.clear()


def _count_kept(churn, kept, cost):
    """count ``cost`` more bytes kept in ``kept``, and give the heap's gaps
    back to the system where they grew large

    What a walk keeps pins the heap: the texts a command drops around it
    leave gaps that glibc does not give back. ``log -p FILE`` on curl's
    history peaked 98 MB above core's peak, not 64 (7.2.4, 2026-12).
    """
    churn[0] += cost
    if churn[0] > kept.maxcost // LOOK_AT_GAPS:
        churn[0] = 0
        mmapdata.give_back_heap_gaps(kept.maxcost // HEAP_GAPS)


def _let_go_of_segment(fl):
    # the last segment read (up to 64 KB): a filelog handed out again seldom
    # reads in it. The base class's method: a map stays (mmapdata.py).
    owner = compat.chunk_owner(fl._revlog)
    randomaccessfile.randomaccessfile.clear_cache(owner._segmentfile)


def _held(fl):
    """the bytes a filelog kept holds that core would have let go"""
    # measured on curl's history: 300 filelogs with 36,623 revisions kept
    # 36.1 MB of heap, 36.7 MB as costed here (7.2.4, 2026-12)
    rl = fl._revlog
    owner = compat.chunk_owner(rl)
    held = FILELOG_SIZE + len(owner._segmentfile._cached_chunk)
    if not getattr(rl, 'revlogperf_mapped_index', False):
        held += len(rl) * INDEX_ENTRY_SIZE
    cache = compat.chunk_cache(owner)
    if cache is not None:
        held += cache.totalcost
    cached = compat.revision_cache(rl)
    if cached is not None:
        held += len(cached[1])
    return held


def walk_of(repo):
    """the ``_Walk`` of ``repo`` for the command running, or None when
    nothing may be kept (outside a command or request, option off, or a
    transaction pending in the process that runs a hook)"""
    unfi = repo.unfiltered()
    found = unfi.__dict__
    walk = found.get(_WALK)
    if (
        walk is not None
        and walk.changelog is found.get('changelog')
        and not walk.outdated()
    ):
        return walk
    forget(unfi)
    if not found.get(_SCOPE):
        return None
    settings = config.settings(unfi.svfs)
    if (
        settings is None
        or settings.walk_cache is None
        or txnutil.mayhavepending(unfi.root)
    ):
        return None
    walk = _Walk(
        found.get('changelog'), settings.walk_cache, settings.data_budget
    )
    found[_WALK] = walk
    # log -p reads a manifest per changeset, newest first; another
    # extension's manifest storage is left alone
    storage = unfi.manifestlog.getstorage(b'')
    if isinstance(storage, manifest.manifestrevlog):
        checkpoints.attach(compat.get_revlog(storage), walk)
    return walk


def forget(repo):
    """drop what ``repo`` keeps, here and in filelogs still held elsewhere"""
    _forget_in(repo.unfiltered().__dict__)


def _forget_in(found):
    walk = found.pop(_WALK, None)
    if walk is not None:
        walk.clear()


@contextlib.contextmanager
def command_scope(repo):
    """keep what ``repo`` reads while one command or request runs on it

    A scope inside another (a command server's commands and hgweb's
    requests run inside ``hg serve``'s) starts and ends with nothing kept
    too: the next command or request sees what was written in between.
    """
    # the object's own dict, taken now: ``unshare`` poisons the object,
    # whose every attribute then raises
    found = repo.unfiltered().__dict__
    outer = found.get(_SCOPE, False)
    _forget_in(found)
    found[_SCOPE] = True
    try:
        yield
    finally:
        found[_SCOPE] = outer
        _forget_in(found)


def _count_store_write():
    global _store_writes
    _store_writes += 1


def _keep_filelog(orig, repo, path, *args, **kwargs):
    # a filelog for writing (7.0+: writable=True) is never kept, nor one
    # opened while a transaction runs (hg <= 6.9 writes through those)
    if args or kwargs or repo.currenttransaction() is not None:
        return orig(repo, path, *args, **kwargs)
    walk = walk_of(repo)
    if walk is None:
        return orig(repo, path)
    if path.startswith(b'/'):
        path = path[1:]
    fl = walk.kept.get(path)
    if fl is None:
        fl = orig(repo, path)
        if type(fl) not in _kept_types():
            return fl
        # weakly: the walk keeps the filelog. Its texts (read again, read)
        reads = [0, 0]
        kept = (path, weakref.ref(walk), reads)
        setattr(fl, _TEXTS, kept)
        # perf.py and others clear the caches of the revlog inside
        setattr(fl._revlog, _TEXTS, kept)
        checkpoints.attach(fl._revlog, walk)
        # diff reads each side twice through one filelog: its texts are
        # kept, whether it is or not
        if not walk.worth_keeping(path):
            return fl
    else:
        walk.asked_again += 1
    walk.keep(path, fl)
    return fl


for _storage in compat.FILE_STORAGE_CLASSES:
    eh.wrapfunction(_storage, 'file')(_keep_filelog)


@hotwrap.hot_wrapper(eh, lambda: filelog.filelog, 'revision', filelog)
def keeping_texts(core_revision):
    """``filelog.revision`` that answers from, and fills, the texts its
    repository keeps for the command"""

    def revision(fl, node, *args, **kwargs):
        kept = fl.__dict__.get(_TEXTS)
        # a revision number, or hg <= 6.3's _df: core's path
        if kept is None or args or kwargs or type(node) is not bytes:
            return core_revision(fl, node, *args, **kwargs)
        path, walk, reads = kept
        walk = walk()
        # a filelog held past its command or request reads as core's
        if walk is None or not walk.alive:
            return core_revision(fl, node)
        texts, largest, walk_reads = walk.kept, walk.largest, walk.texts_read
        key = (path, node)
        text = texts.get(key)
        if text is not None:
            reads[0] += 1
            walk_reads[0] += 1
        else:
            text = core_revision(fl, node)
            reads[1] += 1
            walk_reads[1] += 1
            # annotate reads each revision once, verify each file's first:
            # they would fill the bound with texts no one reads again
            if len(text) <= largest and (
                reads[0] * ASKED_AGAIN >= reads[1]
                or (
                    reads[1] <= ON_TRIAL
                    and (
                        walk_reads[1] <= TEXTS_ON_TRIAL
                        or walk_reads[0] * ASKED_AGAIN >= walk_reads[1]
                    )
                )
            ):
                texts.insert(key, text, cost=len(text))
                # a filelog read on without being asked for again (log -f
                # FILE) grows its chunk cache meanwhile
                if texts.peek(path, None) is fl:
                    texts.insert(path, fl, cost=_held(fl))
                _count_kept(walk.churn, texts, len(text))
        return text

    return revision


def _forget_texts_with_caches(orig, rl, *args, **kwargs):
    kept = rl.__dict__.get(_TEXTS)
    walk = kept[1]() if kept is not None else None
    if walk is not None:
        walk.kept.clear()
    return orig(rl, *args, **kwargs)


lazyload.wrap_after_load(
    eh,
    revlog,
    'clearcaches',
    _forget_texts_with_caches,
    container=lambda: revlog.revlog,
)


@eh.wrapfunction(localrepo.localrepository, 'transaction')
def _forget_before_writing(orig, repo, *args, **kwargs):
    forget(repo)
    _count_store_write()
    return orig(repo, *args, **kwargs)


@eh.wrapfunction(localrepo.localrepository, 'invalidate')
def _forget_on_invalidate(orig, repo, *args, **kwargs):
    forget(repo)
    return orig(repo, *args, **kwargs)


@eh.wrapfunction(localrepo.localrepository, 'destroyed')
def _forget_after_strip(orig, repo, *args, **kwargs):
    forget(repo)
    _count_store_write()
    return orig(repo, *args, **kwargs)


@eh.wrapfunction(dispatch, 'runcommand')
def _keep_within_command(orig, lui, repo, *args, **kwargs):
    # a command server runs many commands on one repository, and waits
    # between them holding nothing of the last one
    if repo is None:
        return orig(lui, repo, *args, **kwargs)
    with command_scope(repo):
        return orig(lui, repo, *args, **kwargs)


def _let_go_of_a_replaced_repository(orig, cached):
    # hgweb makes a new repository when the store changed (its walk was
    # dropped when its last request ended: _forget_after_request)
    old = cached._repo
    repo, created = orig(cached)
    if created and old is not None and old is not repo:
        # the one it replaces is this request's alone (hgweb gives each
        # thread its own cachedlocalrepo)
        mmapdata.let_go_of_repository(old)
    return repo, created


# once hg runs: hgweb does, and most commands never make one
lazyload.wrap_after_load(
    eh,
    hg,
    'fetch',
    _let_go_of_a_replaced_repository,
    container=lambda: hg.cachedlocalrepo,
)


@eh.extsetup
def _forget_after_requests(ui):
    # an idle hgweb worker or command server holds nothing: no texts, no
    # filelog and no page of a map until its next request (neither module
    # is run for that: most commands never serve)
    # not ``from mercurial.hgweb import hgweb_mod``: that runs the package
    # (hg <= 6.x would not for a command)
    from mercurial import commandserver, hgweb

    def wrap_hgweb():
        extensions.wrapfunction(
            hgweb.hgweb_mod.hgweb, '_obtainrepo', _forget_after_request
        )

    def wrap_commandserver():
        extensions.wrapfunction(
            commandserver.server, 'runcommand', _pages_go_after_command
        )

    lazyload.after_load(
        hgweb, lambda: lazyload.after_load(hgweb.hgweb_mod, wrap_hgweb)
    )
    lazyload.after_load(commandserver, wrap_commandserver)


def _pages_go_after_command(orig, server, *args, **kwargs):
    # a command server waits between commands (its walk went when the
    # command ended: _forget_around_command)
    try:
        return orig(server, *args, **kwargs)
    finally:
        mmapdata.let_pages_go()


@contextlib.contextmanager
def _forget_after_request(orig, web):
    # the page is generated inside: it is sent when this exits
    with orig(web) as repo:
        try:
            with command_scope(repo):
                yield repo
        finally:
            mmapdata.let_pages_go()
