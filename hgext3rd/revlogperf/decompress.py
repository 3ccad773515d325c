# decompress.py - per-revlog chunk decompression with inline fast paths
#
# Seed 001: routing chunk decompression through compression engines cost
# 2.5% per changelog chunk and 5.4% per manifest chunk until the common
# headers were dispatched inline and engine decompressors cached per revlog.
# Here each revlog gets one dispatcher, built when the revlog is created:
# zlib (``x``), stored (``\0``), uncompressed (``u``) and zstd (``(``) inline,
# any other header looked up once in ``util.compengines``; and where its
# chunks all come from one library, no header test at all.

import binascii
import weakref
import zlib

from mercurial.i18n import _
from mercurial import (
    error,
    extensions,
    exthelper,
    requirements,
    util,
)
from mercurial.utils import stringutil

from . import (
    compat,
    config,
)

eh = exthelper.exthelper()

ZSTD_HEADER = b'('

CHUNK_HEADERS = {
    b'x': b'zlib',
    ZSTD_HEADER: b'zstd',
    b'\0': b'stored',  # as is, the header byte part of the text
    b'u': b'u',  # uncompressed, the header byte dropped
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
    if engine.available() or _zstandard() is None:
        return
    extensions.wrapfunction(
        engine.zstdrevlogcompressor, '__init__', _zstandard_revlogcompressor
    )


def readable_requirements():
    """the repository requirements revlogperf lets this Mercurial open"""
    if util.compengines[b'zstd'].available() or _zstandard() is None:
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


@eh.wrapfunction(compat.DECOMPRESSION_OWNER, 'decompress')
def _first_decompress(orig, owner, data):
    """the first chunks a revlog decompresses: give it its dispatcher

    Most revlogs a command opens (``diff``, ``log -p``) are read once, a
    chunk or two, or not at all: their first chunk goes through core's own
    code, and only a revlog that reads a second one gets a dispatcher, an
    instance attribute that takes every later chunk without coming here
    (core's own method stays untouched). Core binds ``decompress`` once per
    batch: the rest of a first batch comes here, and goes on to the
    dispatcher.
    """
    state = owner.__dict__
    dispatcher = state.get('decompress')
    if dispatcher is not None:
        return dispatcher(data)  # the rest of the first batch
    seen = state.get(_CHUNKS_SEEN)
    if seen is None:
        settings = config.settings(owner.opener)
        if settings is None or not settings.fast_decompress:
            # decided once: later chunks pay two look-ups, not settings'
            state[_CHUNKS_SEEN] = _CORE_ONLY
            return orig(owner, data)
        state[_CHUNKS_SEEN] = _FIRST
        # core's zstd decompressor comes with a compressor, ~60 us to make
        # (7.2.4, 2026-12): a dispatcher's one-shot context costs far less
        if data[0:1] != ZSTD_HEADER:
            try:
                return orig(owner, data)
            except error.StorageError:
                # the dispatcher says which file, revision and header
                return make_dispatcher(owner)(data)
    elif seen is _CORE_ONLY:
        return orig(owner, data)
    dispatcher = owner.decompress = make_dispatcher(owner)
    return dispatcher(data)


_CHUNKS_SEEN = '_revlogperf_chunks_seen'
_FIRST, _CORE_ONLY = 'first', 'core only'


def make_dispatcher(owner):
    """a ``decompress(data)`` for the revlog ``owner``

    It moves through three states, each a function that it makes the
    revlog's ``decompress``::

      first --(zlib or zstd chunk)--> straight_to --(refused)--> preferring
      first --(any other header)--> by_header

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

    zstd_module = zstd_for_reading()
    # a context costs microseconds (~3 us, 7.2.4, 2026-11): made on the
    # first zstd chunk
    zstd_oneshot = None

    def by_header(data):
        nonlocal zstd_oneshot
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
        if header == 0x28 and zstd_module is not None:  # (: zstd
            if zstd_oneshot is None:
                zstd_oneshot = zstd_module.ZstdDecompressor().decompress
            try:
                return zstd_oneshot(data)
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
                switch_to(straight_to(header, zlib_decompress))
            elif header == 0x28 and zstd_oneshot is not None:
                # by_header made the zstd context
                switch_to(straight_to(header, zstd_oneshot))
            else:
                switch_to(by_header)
        return text

    def straight_to(header, library):
        def decompress(data):
            try:
                return library(data)
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
                    return library(data)
            except Exception:
                pass
            return by_header(data)

        return decompress

    def switch_to(decompress):
        """make ``decompress`` the state: for the rest of a batch
        (``first`` hands on to it) and for later batches (the revlog's
        attribute)"""
        nonlocal current
        current = decompress
        revlog = owner_ref()
        if revlog is not None:
            revlog.decompress = decompress

    return first


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
