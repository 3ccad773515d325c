# commands.py - the hg perf::revlog-* commands
#
# Names do not collide with contrib/perf.py's, so both extensions load
# together. Each command selects its revlog as perf.py's do (-c, -m, --dir,
# or a tracked file) and reports as perf.py does (see timing.py).


from mercurial.i18n import _
from mercurial import (
    cmdutil,
    error,
    exthelper,
    pycompat,
    registrar,
)

from .. import compat
from . import tasks, timing

eh = exthelper.exthelper()

CATEGORY = registrar.command.CATEGORY_MAINTENANCE
REVLOG_OPTS = cmdutil.debugrevlogopts + cmdutil.formatteropts
SYNOPSIS = b'[-c|-m|FILE]'


def named_revlog(repo, cmd, file_, opts):
    """the revlog the user named, as perf.py's commands find it"""
    empty = _(b'%s: the %s is empty, there is nothing to measure')
    if not len(repo.unfiltered()):
        raise error.Abort(empty % (cmd, b'repository'))
    if opts.get(b'manifest') and not len(repo.manifestlog.getstorage(b'')):
        raise error.Abort(empty % (cmd, b'manifest'))
    return cmdutil.openrevlog(repo, cmd, file_, opts)


def _timed_task(ui, repo, file_, opts, cmd, name, **task_args):
    """time one benchmark task on the revlog named: (revlog, timer), the
    timer not ended yet"""
    rl = named_revlog(repo, cmd, file_, opts)
    timer = timing.Timer(ui, opts)
    timer.run(dict(tasks.benchmark_tasks(rl, **task_args))[name])
    return rl, timer


@eh.command(b'perf::revlog-open', REVLOG_OPTS, SYNOPSIS, helpcategory=CATEGORY)
def revlog_open(ui, repo, file_=None, **opts):
    """time opening a revlog (benchmark task "openclose")

    The revlog is opened anew each run, as a starting process opens it: its
    index is read, or mmapped where it is large enough (see
    ``revlogperf.mmap-index-threshold``).
    """
    opts = pycompat.byteskwargs(opts)
    _rl, timer = _timed_task(
        ui, repo, file_, opts, b'perf::revlog-open', b'open'
    )
    timer.end()


@eh.command(
    b'perf::revlog-index',
    REVLOG_OPTS
    + [(b'', b'memory', False, _(b'report the memory reading takes'))],
    SYNOPSIS,
    helpcategory=CATEGORY,
)
def revlog_index(ui, repo, file_=None, **opts):
    """time opening a revlog and reading every index entry ("readindex")

    With --memory, also report the peak Python memory allocated while every
    entry is read, what stays allocated after, and the bytes per entry.
    """
    opts = pycompat.byteskwargs(opts)
    rl, timer = _timed_task(
        ui, repo, file_, opts, b'perf::revlog-index', b'index'
    )
    if opts.get(b'memory'):
        peak, retained = tasks.index_memory(rl)
        fm = timer.fm
        fm.startitem()
        fm.write(b'title', b'! %s\n', b'memory')
        fm.write(
            b'peak retained entries perentry',
            b'! peak %d bytes, retained %d bytes, %d entries, '
            b'%.1f bytes per entry\n',
            peak,
            retained,
            len(rl),
            float(retained) / max(1, len(rl)),
        )
    timer.end()


@eh.command(b'perf::revlog-tip', REVLOG_OPTS, SYNOPSIS, helpcategory=CATEGORY)
def revlog_tip(ui, repo, file_=None, **opts):
    """time opening a revlog and reading its tip's text ("readtip")"""
    opts = pycompat.byteskwargs(opts)
    _rl, timer = _timed_task(ui, repo, file_, opts, b'perf::revlog-tip', b'tip')
    timer.end()


@eh.command(
    b'perf::revlog-sample',
    REVLOG_OPTS
    + [
        (b'', b'count', tasks.SAMPLE_SIZE, _(b'how many revisions'), _(b'N')),
        (b'', b'seed', 0, _(b'seed of the random choice'), _(b'SEED')),
    ],
    SYNOPSIS,
    helpcategory=CATEGORY,
)
def revlog_sample(ui, repo, file_=None, **opts):
    """time opening a revlog and reading random revisions ("readdata")

    500 revisions by default, chosen at random with a fixed seed and read
    in forward order, as the historical revlog benchmark read them.
    """
    opts = pycompat.byteskwargs(opts)
    if opts[b'count'] < 1:
        raise error.InputError(_(b'--count must be at least 1'))
    _rl, timer = _timed_task(
        ui,
        repo,
        file_,
        opts,
        b'perf::revlog-sample',
        b'sample',
        count=opts[b'count'],
        seed=opts[b'seed'],
    )
    timer.end()


@eh.command(
    b'perf::revlog-decompress', REVLOG_OPTS, SYNOPSIS, helpcategory=CATEGORY
)
def revlog_decompress(ui, repo, file_=None, **opts):
    """time reading and decompressing every chunk of a revlog

    "chunk" decompresses the chunks one by one, "chunk batch" all of them in
    one call, as ``perfrevlogchunks`` does.
    """
    opts = pycompat.byteskwargs(opts)
    rl = named_revlog(repo, b'perf::revlog-decompress', file_, opts)
    timer = timing.Timer(ui, opts)
    for title, task in tasks.chunk_tasks(rl):
        timer.run(task, title=title)
    timer.end()


@eh.command(
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
        (b'', b'rounds', 3, _(b'alternate the settings this many times')),
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
    milliseconds, and its ratio to the first column (below 1.00 is
    faster)::

      hg perf::revlog-suite -c \\
        --compare 'revlogperf.mmap-index-threshold=off'
    """
    opts = pycompat.byteskwargs(opts)
    cmd = b'perf::revlog-suite'
    if opts[b'rounds'] < 1:
        raise error.InputError(_(b'--rounds must be at least 1'))
    settings = [[]] + [parse_settings(s) for s in opts[b'compare']]
    named_revlog(repo, cmd, file_, opts)  # the arguments' errors, first
    perf = timing.PerfSettings(ui)
    number, repeat, rounds = 50, 3, opts[b'rounds']
    if perf.stub:
        number = repeat = rounds = 1
    columns = [b'current'] + opts[b'compare']
    samples = {}  # (column, task) -> [seconds per round]
    progress = ui.makeprogress(b'measuring', total=rounds * len(settings))
    for round_ in range(rounds):
        order = range(len(settings))
        if round_ % 2:
            order = reversed(order)  # alternate: noise hits each alike
        for col in order:
            other = reopen(repo, settings[col])
            rl = named_revlog(other, cmd, file_, opts)
            for name, task in tasks.benchmark_tasks(rl):
                seconds = timing.best_of(task, number, repeat)
                samples.setdefault((col, name), []).append(seconds)
            progress.increment()
    progress.complete()

    fm = ui.formatter(b'perf', opts)
    fm.plain(
        _(b'median of %d rounds, best of %d x %d runs, ms\n')
        % (rounds, repeat, number)
    )
    fm.plain(b'%-8s' % b'task')
    for column in columns:
        fm.plain(b'  %s' % column)
    fm.plain(b'\n')
    for name, _task in tasks.benchmark_tasks(rl):
        medians, ratios = zip(
            *timing.medians_and_ratios(
                [samples[(col, name)] for col in range(len(columns))]
            )
        )
        fm.startitem()
        fm.write(b'task', b'%-8s', name)
        for col, column in enumerate(columns):
            text = b'%.3f' % (medians[col] * 1000)
            if col:
                text += b' (%.2f)' % ratios[col]
            fm.plain(b'  %*s' % (len(column), text))
        fm.data(settings=columns, median=list(medians), ratio=list(ratios))
        fm.plain(b'\n')
    fm.end()


def parse_settings(spec):
    """'section.name=value ...' as [(section, name, value)]"""
    parsed = []
    for item in spec.split():
        key, eq, value = item.partition(b'=')
        section, dot, name = key.partition(b'.')
        if not (eq and dot and section and name):
            raise error.InputError(
                _(b"--compare: expected section.name=value, got '%s'") % item
            )
        parsed.append((section, name, value))
    return parsed


def reopen(repo, settings):
    """``repo`` opened anew, with ``settings`` on top of its configuration"""
    ui = repo.baseui.copy()
    for section, name, value in settings:
        ui.setconfig(section, name, value, b'--compare')
    return compat.repository(ui, repo.root)
