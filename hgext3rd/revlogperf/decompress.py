# decompress.py - per-revlog chunk decompression with inline fast paths
#
# Seed 001: routing chunk decompression through compression engines cost
# 2.5% per changelog chunk and 5.4% per manifest chunk until the common
# headers were dispatched inline and engine decompressors cached per revlog.
# Core has since taken zlib inline itself. Here a revlog that is read
# enough gets one dispatcher (a zstd revlog at once): zlib (``x``), stored
# (``\0``), uncompressed (``u``) and zstd (``(``) inline, its own engine's
# header tested first, any other header looked up once in
# ``util.compengines``.

import binascii
import importlib.util
import threading
import weakref
import zlib

from mercurial.i18n import _
from mercurial import (
    error,
    extensions,
    exthelper,
    requirements,
    revlog,
    util,
)
from mercurial.utils import stringutil

from . import (
    compat,
    config,
    hotwrap,
    revlogsetup,
)

eh = exthelper.exthelper()

ZSTD_HEADER = b'('

CHUNK_HEADERS = {
    b'x': b'zlib',
    ZSTD_HEADER: b'zstd',
    b'\0': b'stored',  # as is, the header byte part of the text
    b'u': b'uncompressed',  # the header byte dropped
}
"""the first byte of a stored chunk, and what it says of the chunk

The dispatcher tests the same bytes as ints (no one-byte slice to make).
"""


def _zstandard():
    """the ``zstandard`` package, where Mercurial has no zstd module of its
    own and the user did not say which zstd modules it may use, or None"""
    if compat.zstd_policy_set_by_user():
        return None
    try:
        import zstandard
    except ImportError:
        return None
    return zstandard


def _zstandard_installed():
    """whether ``_zstandard()`` would give a module, found without importing
    it: the import costs ~40 ms (2026-12), for zstd revlogs read only"""
    if compat.zstd_policy_set_by_user():
        return False
    try:
        return importlib.util.find_spec('zstandard') is not None
    except (ImportError, ValueError):
        return False


@eh.extsetup
def _zstd_repositories_readable(ui):
    """let builds without a zstd module open zstd repositories

    Pure builds and builds without the vendored ``mercurial.zstd`` cannot.
    The engine itself stays unavailable, so that nothing new is written in
    zstd that the same Mercurial would not write (``hg init``, ``clone``,
    ``debugupgraderepo``, bundles and the wire protocol choose among
    available engines): only revlogs that already are zstd get compressors
    and decompressors from the ``zstandard`` package.
    """
    engine = util.compengines[b'zstd']
    if engine.available() or not _zstandard_installed():
        return
    extensions.wrapfunction(
        engine.zstdrevlogcompressor, '__init__', _zstandard_revlogcompressor
    )


def readable_requirements():
    """the repository requirements revlogperf lets this Mercurial open"""
    if util.compengines[b'zstd'].available() or not _zstandard_installed():
        return set()
    return {requirements.REVLOG_COMPRESSION_ZSTD}


def _zstandard_revlogcompressor(orig, compressor, zstd, *args, **kwargs):
    # the engine passes its module, None here: the level is core's choice
    if zstd is None:
        zstd = _zstandard()
    orig(compressor, zstd, *args, **kwargs)


def zstd_for_reading():
    """the module zstd chunks are read with, or None"""
    engine = util.compengines[b'zstd']
    if engine.available():
        return engine._module
    return _zstandard()


class _ZstdContexts(threading.local):
    """one zstd decompression context per thread, for every revlog

    A context must not be used by two threads at once (hgweb serves in
    threads), holds 96 KB, and takes longer to make (20 us, 7.2.4,
    2026-12) than most revlogs a command opens take to read: core makes
    one per revlog, with a compressor.
    """

    def __init__(self, module):
        self.decompress = module.ZstdDecompressor().decompress


def zstd_contexts():
    """this process's ``_ZstdContexts``, or None where no module reads zstd"""
    global _ZSTD_CONTEXTS
    if _ZSTD_CONTEXTS is _UNKNOWN:
        module = zstd_for_reading()
        _ZSTD_CONTEXTS = None if module is None else _ZstdContexts(module)
    return _ZSTD_CONTEXTS


_UNKNOWN = object()
_ZSTD_CONTEXTS = _UNKNOWN


def _first_reads(core_read):
    def read(owner, *args, **kwargs):
        reads = owner._revlogperf_reads
        if reads < 0:  # dispatched, or core's alone
            return core_read(owner, *args, **kwargs)
        if reads == 0:
            return _first_read(core_read, owner, args, kwargs)
        if reads == _READS_BEFORE_DISPATCHER:
            _give_dispatcher(owner, compat.compression_engine(owner))
            return core_read(owner, *args, **kwargs)
        owner._revlogperf_reads = reads + 1
        try:
            return core_read(owner, *args, **kwargs)
        except error.RevlogError:
            return _naming_the_damage(core_read, owner, args, kwargs)

    return read


def _first_read(core_read, owner, args, kwargs):
    """a revlog's first read, then its set-up (revlogsetup.py): its data
    file is mapped, and its decompressed chunks kept, from its second read
    on

    Most revlogs a command opens (``diff``, ``log -p``, ``annotate``) are
    read a few times: a zlib revlog's reads go through core's own
    ``decompress``, which takes zlib chunks inline, until it has read
    enough to be worth a dispatcher (``diff`` reads each file's revlog
    four times: one made at the second read cost more than it saved,
    7.2.4, 2026-12). A zstd revlog gets one at once: core would make it a
    compressor and a context (96 KB, 20 us) and stream every chunk.
    """
    settings = config.settings(owner.opener)
    if settings is None or not settings.fast_decompress:
        owner._revlogperf_reads = _CORE_ONLY
    else:
        owner._revlogperf_reads = 1
        engine = compat.compression_engine(owner)
        if engine != b'zlib':
            _give_dispatcher(owner, engine)
    # core 6.6+ keeps every chunk of every read: a revlog read once
    # (``update``, ``diff``) keeps none of its first read's, as 6.3-6.5's
    # revlogs, which get a cache after it (chunkcache.give_cache). The
    # walk cache keeps the texts read again: without it, ``diff`` decoded
    # each file's chains twice, 11% more instructions than core's (curl,
    # 7.2.4, 2026-12).
    cache = None
    if settings is not None and settings.walk_cache is not None:
        cache = compat.chunk_cache(owner)
    if cache is not None:
        setattr(owner, compat.CHUNK_CACHE, None)
    try:
        return core_read(owner, *args, **kwargs)
    except error.RevlogError:
        if owner._revlogperf_reads < 0:  # dispatched, or core's alone
            raise
        return _naming_the_damage(core_read, owner, args, kwargs)
    finally:
        if cache is not None:
            setattr(owner, compat.CHUNK_CACHE, cache)
        if settings is not None:
            revlogsetup.set_up(owner, settings)


def _naming_the_damage(core_read, owner, args, kwargs):
    # core's decompress names neither the file nor the revision: read again
    # through a dispatcher, which does
    _give_dispatcher(owner)
    return core_read(owner, *args, **kwargs)


def _give_dispatcher(owner, engine=None):
    owner.decompress = make_dispatcher(owner, engine)
    owner._revlogperf_reads = _DISPATCHED


@eh.extsetup
def _no_read_yet(ui):
    # a class default, not a look into each instance's ``__dict__``: that
    # would make Python keep the instance's attributes in a dict of their
    # own, and every attribute core reads on it slower (3.11+)
    compat.DECOMPRESSION_OWNER._revlogperf_reads = 0


# a batch of chunks (``_chunks``: core binds ``decompress`` once per batch,
# before its first chunk), and a chunk read alone (``_chunk``)
# (once revlog is run: pure builds import this module to open a repository)
for _name in ('_chunks', '_chunk'):
    hotwrap.hot_wrapper(eh, lambda: compat.DECOMPRESSION_OWNER, _name, revlog)(
        _first_reads
    )

# a revlog's ``_revlogperf_reads``: how many times it was read, or one of
_DISPATCHED, _CORE_ONLY = -1, -2
# a zlib revlog read this many times gets a dispatcher: each chunk costs
# 0.3 us less through it (bench_decompress.py, 7.2.4, 2026-12), and making
# one costs what some 30 chunks save
_READS_BEFORE_DISPATCHER = 16


def make_dispatcher(owner, engine=None):
    """a ``decompress(data)`` for the revlog ``owner``

    It moves through three states, each a function that it makes the
    revlog's ``decompress``::

      first --(zlib or zstd chunk)--> straight_to --(refused)--> preferring
      first --(any other header)--> by_header

    Given the revlog's ``engine`` (zlib, or zstd where a module reads it),
    it starts at ``preferring`` that engine's header: core binds the
    dispatcher for a whole batch, and ``first`` would hand each chunk on.

    ``first`` decompresses a chunk by its header. A revlog whose first chunk
    is zlib or zstd most likely holds nothing else, so ``straight_to`` calls
    that library with no header test. From the first chunk the library
    refuses (another header, or damage), ``preferring`` tests its header
    first, then the others. Core binds ``decompress`` once per batch of
    chunks: ``first`` hands every later chunk of that batch to the state
    chosen, without choosing again.

    Only a weak reference to ``owner`` is kept: the revlog, its maps and
    their file descriptors go as soon as it is dropped.
    """
    owner_ref = weakref.ref(owner)
    zlib_decompress = zlib.decompress
    zlib_error = zlib.error
    buffer = util.buffer
    engines = {}  # header -> engine decompress function
    current = None  # the state chosen, once ``first`` has chosen

    def by_engine(header, data):
        decompress = engines.get(header)
        if decompress is None:
            try:
                engine = util.compengines.forrevlogheader(header)
            except KeyError:
                raise _chunk_error(
                    owner_ref(), data, _(b'unknown compression type')
                )
            decompress = engine.revlogcompressor().decompress
            engines[header] = decompress
        try:
            return decompress(data)
        except error.StorageError as exc:
            raise _chunk_error(owner_ref(), data, exc.args[0])

    zstd = zstd_contexts()

    def by_header(data):
        # compare the header as an int: no one-byte slice to allocate
        try:
            header = data[0]
        except IndexError:
            return data
        if header == 0x78:  # x: zlib
            try:
                return zlib_decompress(data)
            except zlib_error as exc:
                raise _chunk_error(owner_ref(), data, exc)
        if header == 0x28 and zstd is not None:  # (: zstd
            try:
                return zstd.decompress(data)
            except Exception:
                # frames written without a content size (core streams
                # chunks over 1 MB), or damage: the engine tells which
                return by_engine(ZSTD_HEADER, data)
        if header == 0x00:  # stored as is
            return data
        if header == 0x75:  # u: uncompressed, header dropped
            return buffer(data, 1)
        return by_engine(bytes(data[0:1]), data)

    def first(data):
        if current is not None:
            return current(data)
        text = by_header(data)
        if len(data):  # an empty chunk tells nothing: wait for the next
            header = data[0]
            if header == 0x78:
                switch_to(straight_to(header, zlib))
            elif header == 0x28 and zstd is not None:
                switch_to(straight_to(header, zstd))
            else:
                switch_to(by_header)
        return text

    def straight_to(header, library):
        # ``library``: the zlib module, or this thread's zstd context,
        # looked up per chunk: a dispatcher may serve several threads
        def decompress(data):
            try:
                return library.decompress(data)
            except Exception:
                pass
            # another header, or damage: test headers from now on
            switch_to(preferring(header, library))
            return by_header(data)

        return decompress

    def preferring(header, library):
        # most chunks of a mixed revlog (a zstd manifest stores a third of
        # its deltas as is) are still the library's: test that header first
        def decompress(data):
            try:
                if data[0] == header:
                    return library.decompress(data)
            except Exception:
                pass
            return by_header(data)

        return decompress

    def start():
        nonlocal current
        if engine == b'zlib':
            current = preferring(0x78, zlib)
        elif engine == b'zstd' and zstd is not None:
            current = preferring(0x28, zstd)
        else:
            return first
        return current

    def switch_to(decompress):
        """make ``decompress`` the state: for the rest of a batch
        (``first`` hands on to it) and for later batches (the revlog's
        attribute)"""
        nonlocal current
        current = decompress
        revlog = owner_ref()
        if revlog is not None:
            revlog.decompress = decompress

    return start()


def _chunk_error(owner, data, reason):
    """a RevlogError naming the file, the revision and the header"""
    data = bytes(data)
    header = data[0:1]
    path = compat.chunk_file(owner) if owner is not None else b'revlog'
    rev = _find_revision(owner, data) if owner is not None else None
    where = path if rev is None else b'%s, revision %d' % (path, rev)
    msg = _(b'%s: cannot decompress chunk with header 0x%s: %s') % (
        where,
        binascii.hexlify(header),
        stringutil.forcebytestr(reason),
    )
    hint = _(
        b"run 'hg verify' to see the damage, then restore the file from a "
        b"backup or a clone"
    )
    return error.RevlogError(msg, hint=hint)


def _find_revision(owner, data):
    """the revision whose stored chunk is ``data``, or None

    ``decompress`` is given bytes, not a revision: on this error path only,
    find the revision by its stored bytes.
    """
    index = owner.index
    size = len(data)
    for rev in range(len(index) - 1, -1, -1):
        if index[rev][1] != size:
            continue
        try:
            if compat.raw_chunk(owner, rev) == data:
                return rev
        except Exception:
            return None
    return None
