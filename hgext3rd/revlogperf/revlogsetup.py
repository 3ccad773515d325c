# revlogsetup.py - what each revlog gets when it is opened, in one place
#
# Once the object that reads a revlog's chunks is made (``_InnerRevlog``, or
# the revlog itself on hg <= 6.5), one wrapper hands it to each module in
# turn, where the repository's settings ask for it. Revlogs that Rust reads
# (hg >= 7.0 with the Rust extensions) are left alone: their reading is
# Rust's own.

from mercurial import (
    exthelper,
    revlog,
)

from . import (
    chunkcache,
    compat,
    config,
    mmapdata,
    readpath,
)

eh = exthelper.exthelper()


@eh.wrapfunction(revlog.revlog, compat.OWNER_MADE_IN)
def _set_up(orig, rl, *args):
    result = orig(rl, *args)
    owner = getattr(rl, compat.INNER) if compat.INNER else rl
    settings = owner.opener.options.get(config.OPTIONS_KEY)
    if settings is None or not isinstance(owner, compat.DECOMPRESSION_OWNER):
        return result  # not revlogperf's repository, or Rust's reading
    # The chunk cache first: the data map lets go of it with the map (its
    # chunks can be slices of the map). Then the data map, and the
    # single-chunk path, which is for mapped files only. The dispatcher
    # (decompress.py) comes at the first chunk, not here.
    chunkcache.install(owner)
    if mmapdata.install(owner, settings, rl.target[0]):
        readpath.install_single_chunk_path(owner)
    return result
