# revlogsetup.py - what each revlog gets when it is opened, in one place
#
# One wrapper of the object that reads a revlog's chunks (``_InnerRevlog``,
# or the revlog itself on hg <= 6.5) hands it to each module in turn, once,
# and only where the repository's settings ask for it: a revlog opened with
# every feature off costs one dictionary look-up more than in core. Revlogs
# that Rust reads (hg >= 7.0 with the Rust extensions) never come here: their
# reading is Rust's own.

from mercurial import exthelper

from . import (
    chunkcache,
    compat,
    config,
    mmapdata,
    readpath,
)

eh = exthelper.exthelper()


@eh.wrapfunction(compat.DECOMPRESSION_OWNER, '__init__')
def _set_up(orig, owner, *args, **kwargs):
    orig(owner, *args, **kwargs)
    settings = config.settings(owner.opener)
    if settings is None:
        return
    # The chunk cache first: the data map lets go of it with the map (its
    # chunks can be slices of the map). Then the data map, and the
    # single-chunk path, which is for mapped files only. The dispatcher
    # (decompress.py) comes at the first chunk, not here.
    chunkcache.install(owner)
    if mmapdata.install(owner, settings):
        readpath.install_single_chunk_path(owner)
