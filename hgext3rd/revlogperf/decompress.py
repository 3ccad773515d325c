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
    exthelper,
    util,
)
from mercurial.utils import stringutil

from . import (
    compat,
    config,
)

eh = exthelper.exthelper()

ZSTD_HEADER = b'('


@eh.extsetup
def _zstd_everywhere(ui):
    """give the zstd engine the ``zstandard`` package where core has none

    Pure builds and builds without the vendored ``mercurial.zstd`` cannot
    open zstd repositories. A working core engine is never replaced, nor a
    ``HGZSTDPOLICY`` the user set overruled. In extsetup, so that it sees
    what every extension's uisetup left.
    """
    engine = util.compengines[b'zstd']
    if compat.zstd_policy_set_by_user() or engine.available():
        return
    try:
        import zstandard
    except ImportError:
        return
    engine._module = zstandard


@eh.wrapfunction(compat.DECOMPRESSION_OWNER, '__init__')
def _install_dispatcher(orig, owner, *args, **kwargs):
    orig(owner, *args, **kwargs)
    settings = config.settings(owner.opener)
    if settings is not None and settings.fast_decompress:
        # an instance attribute: core's own method stays untouched
        owner.decompress = make_dispatcher(owner)


def make_dispatcher(owner):
    """a ``decompress(data)`` for the revlog ``owner``

    The first chunk is decompressed by its header, and picks what ``owner``
    uses next: a revlog whose first chunk is zlib or zstd most likely holds
    nothing else, so its chunks go straight to that library, without a
    header test (~4% of a zstd changelog chunk's cost). From the first
    chunk the library refuses on - another header, or damage - every header
    is tested, the library's first.
    """
    owner_ref = weakref.ref(owner)
    zlib_decompress = zlib.decompress
    zlib_error = zlib.error
    buffer = util.buffer
    engines = {}  # header -> engine decompress function

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

    zstd = util.compengines[b'zstd']
    zstd_module = zstd._module if zstd.available() else None
    zstd_oneshot = None  # a context costs ~3 us: made on the first chunk

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
        text = by_header(data)
        if len(data):  # an empty chunk tells nothing: wait for the next
            header = data[0]
            # by_header made the zstd context if the chunk is zstd
            library = {0x78: zlib_decompress, 0x28: zstd_oneshot}.get(header)
            if library is None:
                switch_to(by_header)
            else:
                switch_to(straight_to(header, library))
        return text

    def straight_to(header, library):
        # zlib and zstd refuse data without their own magic bytes: no
        # chunk of another kind can pass for one of theirs
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
