# revlogsetup.py - what each revlog gets after its first read, in one place
#
# Opening a revlog costs what it costs in core: most revlogs a command opens
# (``diff``, ``log -p``) are read once or not at all. After its first read,
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
    """give ``owner`` what ``settings`` ask for, once, after its first read"""
    # On hg <= 6.5, a chunk cache first: the map lets go of the chunks it
    # holds that are slices of it. On every release, the chunks go with
    # the revlog.
    cache = chunkcache.give_cache(owner)
    chunkcache.let_go_with(owner)
    # The data map, and the single-chunk path, which is for mapped files
    # only. The dispatcher is decompress.py's own.
    if mmapdata.install(owner, settings):
        readpath.install_single_chunk_path(owner)
    # Last: the cache is read before anything else reads.
    if cache is not None:
        chunkcache.read_through(owner, cache)
