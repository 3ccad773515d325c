# compat.py - what differs between the supported Mercurial releases
#
# Every shim names the newest release that needs it ("# hg <= X.Y"): when the
# minimum supported release moves past X.Y, delete the shim and its callers'
# branch.

import os

from mercurial import (
    localrepo,
    policy,
    revlog,
    util,
)

from . import lazyload

try:
    from mercurial.repo import factory as _factory
except ImportError:  # hg <= 7.1: hg.repository (deprecated in 7.2)
    from mercurial import hg as _factory
repository = _factory.repository

try:  # hg <= 7.1: store options are resolved in localrepo
    from mercurial.repo import vfs_options as _vfs_options
except ImportError:
    _vfs_options = None

if _vfs_options is not None:
    STORE_OPTIONS_MODULE = _vfs_options
    STORE_OPTIONS_FUNCTION = 'resolve_store_vfs_options'
else:  # hg <= 7.1
    STORE_OPTIONS_MODULE = localrepo
    STORE_OPTIONS_FUNCTION = 'resolvestorevfsoptions'

# The classes whose ``file()`` opens a repository's filelogs.
if hasattr(localrepo, 'revlogfilestorage'):  # hg <= 7.1: storage mixins
    FILE_STORAGE_CLASSES = (
        localrepo.revlogfilestorage,
        localrepo.revlognarrowfilestorage,
    )
else:
    FILE_STORAGE_CLASSES = (localrepo.localrepository,)


def chunk_owner(rl):
    """the DECOMPRESSION_OWNER of a revlog object"""
    return getattr(rl, INNER, rl) if INNER else rl


def chunk_cache(owner):
    """the revlog's cache of decompressed chunks, or None"""
    return getattr(owner, CHUNK_CACHE, None)


def zstd_policy_set_by_user():
    """whether the user named the zstd modules Mercurial may use

    ``HGZSTDPOLICY`` (e.g. ``none``, or ``vendored`` alone) is a choice to
    respect, not a missing module to make up for.
    """
    if not hasattr(policy, 'zstd_policy'):  # hg <= 7.1: no HGZSTDPOLICY
        return False
    return bool(os.environ.get('HGZSTDPOLICY'))


CHUNK_CACHE = '_uncompressed_chunk_cache'


def uses_rust(rl):
    """whether Rust reads this revlog's chunks (and revlogperf does not)"""
    # hg <= 6.9: Rust reads no chunks (a Rust index is read through Python)
    return getattr(rl, 'uses_rust', False)


def revision_cache(rl):
    """(revision, text) that core keeps in its revision cache, or None"""
    # asked at reads of a walk: both are instance attributes, and a
    # getattr that misses raises an exception, on every read up to 6.9
    found = chunk_owner(rl).__dict__
    cache = found.get('_revision_cache')
    if cache is not None:
        return cache[0], cache[1]
    cache = found.get('_revisioncache')  # hg <= 6.9
    return (cache[1], cache[2]) if cache else None


# the extra positional arguments of ``_revisiondata`` when ``revision()``
# asks for a checked text: none, or hg <= 6.5's file handle ``_df=None``
REVISION_TEXT_ARGS = ((), (None,))


def cache_checked_text(owner, rev, node, text):
    """keep ``text`` in core's revision cache, as a read whose hash was
    checked does"""
    cache_text = getattr(owner, 'cache_revision_text', None)
    if cache_text is not None:
        cache_text(rev, text, True)
    else:  # hg <= 6.9
        owner._revisioncache = (node, rev, text)


def seen_text_size(owner, size):
    """let core's chunk cache grow for a text of ``size``, as a read does"""
    seen = getattr(owner, 'seen_file_size', None)
    if seen is not None:  # hg <= 6.9 sizes its cache once
        seen(size)


def compression_engine(owner):
    """the name of the engine a revlog writes new chunks with"""
    feature_config = getattr(owner, 'feature_config', None)
    if feature_config is not None:
        return feature_config.compression_engine
    return owner._compengine  # hg <= 6.5


def chunk_file(owner):
    """the store path of the file a revlog's chunks are read from"""
    if hasattr(owner, 'index_file'):
        inline, index, data = owner.inline, owner.index_file, owner.data_file
    else:  # hg <= 6.5
        inline, index, data = owner._inline, owner._indexfile, owner._datafile
    return index if inline else data


def raw_chunk(owner, rev):
    """the bytes stored for ``rev``, compression header included"""
    if hasattr(owner, 'get_segment_for_revs'):
        return bytes(owner.get_segment_for_revs(rev, rev)[1])
    return bytes(owner._getsegmentforrevs(rev, rev)[1])  # hg <= 6.5


def _takes(func, name):
    """whether ``func``, as core defines it, takes an argument ``name``

    revlogperf sets up after every extension (activation.py): another may
    have wrapped ``func`` by then. Its code's names, not
    ``inspect.signature``: that took 0.2 ms of every command that opens a
    repository (7.2.4, 2026-12).
    """
    while hasattr(func, '_origfunc'):  # extensions.wrapfunction's wrappers
        func = func._origfunc
    code = func.__code__
    count = code.co_argcount + code.co_kwonlyargcount
    return name in code.co_varnames[:count]


# hg <= 6.8 never pre-populates a map (and has no ``pre_populate``)
_MMAPREAD_POPULATES = _takes(util.mmapread, 'pre_populate')


def mmapread_lazily(fp, size=None):
    """map the file (its first ``size`` bytes), faulting pages in as touched

    Positional arguments, as core passes them: extensions wrapping
    ``util.mmapread(orig, fp, *args)`` keep working.
    """
    if _MMAPREAD_POPULATES:
        return util.mmapread(fp, size, False)
    if size is None:
        return util.mmapread(fp)
    return util.mmapread(fp, size)


def readonly_revlog(opener, target, radix, mmaplargeindex):
    """a new, read-only revlog object"""
    kwargs = {}
    if _REVLOG_TAKES_WRITABLE:
        kwargs['writable'] = False
    return revlog.revlog(
        opener,
        target=target,
        radix=radix,
        mmaplargeindex=mmaplargeindex,
        **kwargs,
    )


def filelog_paths(repo):
    """the tracked paths that have a filelog in the store"""
    store = repo.store
    if hasattr(store, 'data_entries'):
        for entry in store.data_entries():
            if entry.is_filelog:
                yield entry.target_id
    else:  # hg <= 6.5
        for item in store.datafiles():
            path = item[1]
            if path.startswith(b'data/') and path.endswith(b'.i'):
                yield path[5:-2]


def get_revlog(storage):
    """the revlog behind a filelog or a manifest storage"""
    # hg <= 6.3 has no get_revlog()
    get = getattr(storage, 'get_revlog', None)
    return get() if get is not None else storage._revlog


def is_delaying(cl):
    """whether the changelog ``cl`` holds its new entries back until the
    transaction closes"""
    delaying = getattr(cl, 'is_delaying', None)
    if delaying is None:  # hg <= 6.5
        return cl._delayed
    return delaying


def times_every_filtered_changelog_read(prop):
    """whether core's ``repoview.changelog`` property ``prop`` runs every
    read in ``util.timedcm``, not only the computation of the filtered
    revisions"""
    # hg < 7.2.1 (repofilter.py)
    return 'timedcm' in prop.fget.__code__.co_names


def _know_revlog():
    """the names that depend on the revlog module, set once it is executed

    Not at import: ``hg branch`` or ``hg status -q`` may never run revlog,
    and revlogperf's set-up must not run it for them (activation.py).
    """
    global DECOMPRESSION_OWNER, INNER, INLINE, NO_CORE_CHUNK_CACHE
    global _REVLOG_TAKES_WRITABLE
    # The object that owns chunk decompression and, on 6.6+, the cache of
    # decompressed chunks: its instances get the revlogperf decompressor.
    if hasattr(revlog, '_InnerRevlog'):
        DECOMPRESSION_OWNER = revlog._InnerRevlog
        # its attributes, for the code that runs at every revlog opened (a
        # getattr with a constant name costs no Python call)
        INNER, INLINE = '_inner', 'inline'
    else:  # hg <= 6.5: the revlog is its own chunk reader
        DECOMPRESSION_OWNER = revlog.revlog
        INNER, INLINE = None, '_inline'
    # hg <= 6.5 has no chunk cache of its own
    NO_CORE_CHUNK_CACHE = DECOMPRESSION_OWNER is revlog.revlog
    # hg <= 7.0 has no ``writable`` argument (7.2 requires it for filelogs)
    _REVLOG_TAKES_WRITABLE = _takes(revlog.revlog.__init__, 'writable')


lazyload.after_load(revlog, _know_revlog)
