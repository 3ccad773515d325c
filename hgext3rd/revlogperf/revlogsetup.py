# revlogsetup.py - what each revlog gets at its first chunk, in one place
#
# Opening a revlog costs what it costs in core: most revlogs a command opens
# (``diff``, ``log -p``) are read once or not at all. At its first chunk,
# ``decompress.py`` hands the object that reads a revlog's chunks
# (``_InnerRevlog``, or the revlog itself on hg <= 6.5) to ``set_up``,
# which gives it to each module in turn, where the repository's settings
# ask for it. Revlogs that Rust reads (hg >= 7.0 with the Rust extensions)
# never get here: their reading is Rust's own.

from . import (
    chunkcache,
    mmapdata,
    readpath,
)


def set_up(owner, settings):
    """give ``owner`` what ``settings`` ask for, once, at its first chunk"""
    # The chunk cache first: the data map lets go of it with the map (its
    # chunks can be slices of the map). Then the data map, and the
    # single-chunk path, which is for mapped files only. The dispatcher is
    # decompress.py's own.
    chunkcache.install(owner)
    if mmapdata.install(owner, settings):
        readpath.install_single_chunk_path(owner)
