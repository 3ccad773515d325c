# commands.py - revlogperf's commands: their options and help
#
# Loaded with the extension, so that ``hg help`` lists them; what each does
# lives in perf/commands.py and stats.py, imported when it runs.

from mercurial.i18n import _
from mercurial import (
    cmdutil,
    registrar,
)

from . import perf

cmdtable = {}
command = registrar.command(cmdtable)

CATEGORY = registrar.command.CATEGORY_MAINTENANCE
REVLOG_OPTS = cmdutil.debugrevlogopts + cmdutil.formatteropts
SYNOPSIS = b'[-c|-m|FILE]'


@command(b'perf::revlog-open', REVLOG_OPTS, SYNOPSIS, helpcategory=CATEGORY)
def revlog_open(ui, repo, file_=None, **opts):
    """time opening a revlog

    The revlog is opened anew each run, as a starting process opens it: its
    index is read, or mmapped where it is large enough (see
    ``revlogperf.mmap-index-threshold``). The historical revlog benchmark
    called this task "openclose".
    """
    from .perf import commands as implementation

    return implementation.revlog_open(ui, repo, file_, **opts)


@command(
    b'perf::revlog-index',
    REVLOG_OPTS
    + [(b'', b'memory', False, _(b'report the memory reading takes'))],
    SYNOPSIS,
    helpcategory=CATEGORY,
)
def revlog_index(ui, repo, file_=None, **opts):
    """time opening a revlog and reading every index entry

    With --memory, also report the peak Python memory allocated while every
    entry is read, what stays allocated after, and the bytes per entry. An
    index that builds each entry when it is read, and keeps none, retains
    0 bytes per entry. The historical task name is "readindex".
    """
    from .perf import commands as implementation

    return implementation.revlog_index(ui, repo, file_, **opts)


@command(b'perf::revlog-tip', REVLOG_OPTS, SYNOPSIS, helpcategory=CATEGORY)
def revlog_tip(ui, repo, file_=None, **opts):
    """time opening a revlog and reading its tip's text

    The historical task name is "readtip".
    """
    from .perf import commands as implementation

    return implementation.revlog_tip(ui, repo, file_, **opts)


@command(
    b'perf::revlog-sample',
    REVLOG_OPTS
    + [
        (b'', b'count', perf.SAMPLE_SIZE, _(b'how many revisions'), _(b'N')),
        (b'', b'seed', 0, _(b'seed of the random choice'), _(b'SEED')),
    ],
    SYNOPSIS,
    helpcategory=CATEGORY,
)
def revlog_sample(ui, repo, file_=None, **opts):
    """time opening a revlog and reading random revisions

    500 revisions by default, chosen at random with a fixed seed and read
    in forward order, as the historical revlog benchmark read them (its
    task "readdata").
    """
    from .perf import commands as implementation

    return implementation.revlog_sample(ui, repo, file_, **opts)


@command(
    b'perf::revlog-decompress', REVLOG_OPTS, SYNOPSIS, helpcategory=CATEGORY
)
def revlog_decompress(ui, repo, file_=None, **opts):
    """time reading and decompressing every chunk of a revlog

    "chunk" decompresses the chunks one by one, "chunk batch" all of them in
    one call, as ``perfrevlogchunks`` does.
    """
    from .perf import commands as implementation

    return implementation.revlog_decompress(ui, repo, file_, **opts)


@command(
    b'perf::revlog-suite',
    REVLOG_OPTS
    + [
        (
            b'',
            b'compare',
            [],
            _(b'also run under these settings (section.name=value ...)'),
            _(b'SETTINGS'),
        ),
        (
            b'',
            b'rounds',
            3,
            _(b'alternate the settings this many times'),
            _(b'N'),
        ),
    ],
    SYNOPSIS,
    helpcategory=CATEGORY,
)
def revlog_suite(ui, repo, file_=None, **opts):
    """run the four revlog read tasks, under one or more settings, as a table

    Each task is timed as the historical revlog benchmark timed it: 50
    runs, the best of 3. With --compare, the repository is opened again
    under each other setting (several settings in one --compare are applied
    together) and every task runs under each, the settings alternating,
    --rounds times. The table gives each task's median over the rounds, in
    milliseconds per run, and its ratio to the first column (below 1.00 is
    faster)::

      hg perf::revlog-suite -c \\
        --compare 'revlogperf.mmap-index-threshold=off'

    A comparison also runs the current settings a second time (the A/A
    column): how far its ratio is from 1.00 is the noise of the machine. A
    ratio no further from 1.00 than that is marked ``~``: within the noise.
    """
    from .perf import commands as implementation

    return implementation.revlog_suite(ui, repo, file_, **opts)


@command(
    b'debug-revlog-storage',
    cmdutil.formatteropts,
    b'',
    helpcategory=CATEGORY,
)
def debug_revlog_storage(ui, repo, **opts):
    """show how this repository's revlogs are stored

    For the changelog, the manifest and all filelogs together: revisions,
    index and data sizes, the share of revisions stored as full texts and
    as deltas, the average and longest delta chain (in revisions, the full
    text included), the compression of the stored chunks (zlib, zstd,
    stored as is, ``u`` for uncompressed, empty), and how many indexes are
    mmapped under the current settings. It only reads.

    Changelogs read fastest without delta chains; where the changelog still
    has them, the report names the command that rewrites it.
    """
    from . import stats as implementation

    return implementation.debug_revlog_storage(ui, repo, **opts)
