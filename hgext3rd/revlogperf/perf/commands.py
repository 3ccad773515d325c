# commands.py - what the hg perf::revlog-* commands do (their options and
# help are in ../commands.py)
#
# Names do not collide with contrib/perf.py's, so both extensions load
# together. Each command selects its revlog as perf.py's do (-c, -m, --dir,
# or a tracked file) and reports as perf.py does (see timing.py).

import difflib

from mercurial.i18n import _
from mercurial import (
    cmdutil,
    error,
    pycompat,
)

from .. import compat, configitems
from . import tasks, timing


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


def revlog_open(ui, repo, file_=None, **opts):
    """the work of ``commands.revlog_open``"""
    opts = pycompat.byteskwargs(opts)
    _rl, timer = _timed_task(
        ui, repo, file_, opts, b'perf::revlog-open', b'open'
    )
    timer.end()


def revlog_index(ui, repo, file_=None, **opts):
    """the work of ``commands.revlog_index``"""
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
        if retained < len(rl):
            fm.plain(_(b'! (the index keeps none of the entries it built)\n'))
    timer.end()


def revlog_tip(ui, repo, file_=None, **opts):
    """the work of ``commands.revlog_tip``"""
    opts = pycompat.byteskwargs(opts)
    _rl, timer = _timed_task(ui, repo, file_, opts, b'perf::revlog-tip', b'tip')
    timer.end()


def revlog_sample(ui, repo, file_=None, **opts):
    """the work of ``commands.revlog_sample``"""
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


def revlog_decompress(ui, repo, file_=None, **opts):
    """the work of ``commands.revlog_decompress``"""
    opts = pycompat.byteskwargs(opts)
    rl = named_revlog(repo, b'perf::revlog-decompress', file_, opts)
    timer = timing.Timer(ui, opts)
    for title, task in tasks.chunk_tasks(rl):
        timer.run(task, title=title)
    timer.end()


def revlog_suite(ui, repo, file_=None, **opts):
    """the work of ``commands.revlog_suite``"""
    opts = pycompat.byteskwargs(opts)
    cmd = b'perf::revlog-suite'
    if opts[b'rounds'] < 1:
        raise error.InputError(_(b'--rounds must be at least 1'))
    overrides = [parse_overrides(ui, s) for s in opts[b'compare']]
    columns = [b'current']
    if overrides:
        # the baseline against itself: the noise every ratio is read against
        overrides.insert(0, [])
        columns.append(b'current again (A/A)')
    overrides.insert(0, [])
    columns += opts[b'compare']
    named_revlog(repo, cmd, file_, opts)  # the arguments' errors, first
    perf_config = timing.PerfConfig(ui)
    number, repeat, rounds = 50, 3, opts[b'rounds']
    if perf_config.stub:
        number = repeat = rounds = 1
    samples = {}  # (column, task) -> [seconds per run, per round]
    progress = ui.makeprogress(b'measuring', total=rounds * len(columns))
    for round_ in range(rounds):
        order = range(len(columns))
        if round_ % 2:
            order = reversed(order)  # alternate: noise hits each alike
        for col in order:
            other = reopen(repo, overrides[col])
            rl = named_revlog(other, cmd, file_, opts)
            for name, task in tasks.benchmark_tasks(rl):
                seconds = timing.best_of(task, number, repeat) / number
                samples.setdefault((col, name), []).append(seconds)
            progress.increment()
    progress.complete()

    fm = ui.formatter(b'perf', opts)
    fm.plain(
        _(b'median of %d %s; ms per run, each the best of %d x %d runs\n')
        % (rounds, _(b'round') if rounds == 1 else _(b'rounds'), repeat, number)
    )
    fm.plain(b'%-8s' % b'task')
    for column in columns:
        fm.plain(b'  %s' % column)
    fm.plain(b'\n')
    marked = False
    for name, _task in tasks.benchmark_tasks(rl):
        columns_samples = [samples[(col, name)] for col in range(len(columns))]
        medians, ratios = zip(*timing.medians_and_ratios(columns_samples))
        within = (
            timing.within_noise(columns_samples)
            if overrides[1:]
            else [False] * len(columns)
        )
        fm.startitem()
        fm.write(b'task', b'%-8s', name)
        for col, column in enumerate(columns):
            text = b'%.4f' % (medians[col] * 1000)
            if col:
                text += b' (%.2f%s)' % (
                    ratios[col],
                    b'~' if within[col] else b' ',
                )
            fm.plain(b'  %*s' % (len(column), text))
        marked = marked or any(within)
        fm.data(
            settings=columns,
            median=list(medians),
            unit=b'seconds per run',
            ratio=list(ratios),
            within_noise=within,
        )
        fm.plain(b'\n')
    if marked:
        fm.plain(
            _(
                b'~: within the noise (its rounds fall on both sides of 1.00,'
                b' or no further from it than A/A\'s furthest round)\n'
            )
        )
    fm.end()


def parse_overrides(ui, spec):
    """'section.name=value ...' as [(section, name, value)]

    A key that neither Mercurial nor a loaded extension registers is
    refused: a typo would measure the current settings twice.
    """
    parsed = []
    for item in spec.split():
        key, eq, value = item.partition(b'=')
        section, dot, name = key.partition(b'.')
        if not (eq and dot and section and name):
            raise error.InputError(
                _(b"--compare: expected section.name=value, got '%s'") % item
            )
        known = configitems.configtable.get(section, {})
        if section == b'revlogperf' and name not in known:
            raise error.InputError(
                _(b"--compare: unknown option '%s'") % key,
                hint=_closest(key, [b'revlogperf.' + k for k in known])
                or _(b'revlogperf options: %s') % b', '.join(sorted(known)),
            )
        # core's items and every loaded extension's (help.py reads the
        # same register; generic items cover [hooks], [alias] and others)
        registered = ui._knownconfig.get(section)
        known = registered is not None and registered.get(name) is not None
        # revlogperf's older names, which core 6.9+ no longer registers
        if not (known or (section, name) in configitems.ALIASES.values()):
            raise error.InputError(
                _(b"--compare: unknown option '%s'") % key,
                hint=_closest(key, _registered_keys(ui))
                or _(
                    b'neither Mercurial nor a loaded extension registers'
                    b' it: check its spelling'
                ),
            )
        parsed.append((section, name, value))
    return parsed


def _registered_keys(ui):
    """every 'section.name' Mercurial or a loaded extension registers"""
    keys = [b'%s.%s' % alias for alias in configitems.ALIASES.values()]
    for section, items in ui._knownconfig.items():
        # generic items are patterns, not names
        keys.extend(
            b'%s.%s' % (section, name)
            for name, item in items.items()
            if not getattr(item, 'generic', False)
        )
    return keys


def _closest(key, keys):
    """ "did you mean ...?" for the registered key closest to ``key``, as
    Mercurial says it of an unknown command; None if none is close"""
    found = difflib.get_close_matches(key, keys, n=1, cutoff=0.8)
    if not found:
        return None
    return _(b"did you mean '%s'?") % found[0]


def reopen(repo, overrides):
    """``repo`` opened anew, with ``overrides`` on top of its configuration"""
    ui = repo.baseui.copy()
    for section, name, value in overrides:
        ui.setconfig(section, name, value, b'--compare')
    return compat.repository(ui, repo.root)
