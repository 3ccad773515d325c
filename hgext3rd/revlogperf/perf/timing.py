# timing.py - time and report a benchmark the way contrib/perf.py does
#
# Output and settings follow contrib/perf.py, so that both read alike side
# by side: "! <title>" then "! wall ... comb ... user ... sys ... (best of
# N)" on stderr, -T json through ui.formatter, and the experimental
# [perf] settings run-limits, presleep, all-timing, pre-run and stub.
#
# The [perf] section belongs to contrib/perf.py, which registers it when it
# is loaded; it is read here with ui.configitems so that loading both
# extensions registers nothing twice.

import gc
import os
import time

from mercurial.i18n import _
from mercurial import error
from mercurial.utils import stringutil

# stop once one holds: (seconds elapsed, minimal run count), as perf.py
DEFAULT_LIMITS = ((3.0, 100), (10.0, 3))


class PerfConfig:
    """the [perf] settings, parsed once per command"""

    def __init__(self, ui):
        items = dict(ui.configitems(b'perf'))
        self.presleep = _int(items, b'presleep', 1)
        self.prerun = _int(items, b'pre-run', 0)
        self.stub = _bool(items, b'stub', False)
        self.all_timing = _bool(items, b'all-timing', True)
        self.limits = _limits(ui, items.get(b'run-limits'))


def _int(items, name, default):
    value = items.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise error.ConfigError(
            _(b"perf.%s is not an integer ('%s')") % (name, value)
        )


def _bool(items, name, default):
    value = items.get(name)
    if value is None:
        return default
    parsed = stringutil.parsebool(value)
    if parsed is None:
        raise error.ConfigError(
            _(b"perf.%s is not a boolean ('%s')") % (name, value)
        )
    return parsed


def _limits(ui, spec):
    """perf.run-limits: "SECONDS-RUNS, ..." pairs, as in perf.py"""
    limits = []
    for item in stringutil.parselist(spec or b''):
        seconds, _sep, runs = item.partition(b'-')
        try:
            limits.append((float(seconds), int(runs)))
        except ValueError:
            ui.warn(_(b'malformatted run limit entry: %s\n') % item)
    return tuple(limits) or DEFAULT_LIMITS


class Timer:
    """runs benchmarks and writes their results to one formatter"""

    def __init__(self, ui, opts):
        self.perf_config = PerfConfig(ui)
        if not ui._buffers:
            # results go to stderr, as perf.py does
            ui = ui.copy()
            ui.fout = ui.ferr
        self.ui = ui
        self.fm = ui.formatter(b'perf', opts)
        if not self.perf_config.stub:
            # an idle period first, against power management, as perf.py
            time.sleep(self.perf_config.presleep)

    def run(self, func, title=None):
        """time ``func`` until the run limits are met, then report it"""
        if self.perf_config.stub:
            func()  # one run, no timing: for tests
            return
        self.report(measure(func, self.perf_config), title)

    def report(self, timings, title=None):
        fm = self.fm
        fm.startitem()
        if title:
            fm.write(b'title', b'! %s\n', title)
        count = len(timings)
        ordered = sorted(timings)
        rows = [(b'best', ordered[0])]
        if self.perf_config.all_timing:
            average = tuple(sum(x) / count for x in zip(*timings))
            rows += [
                (b'max', ordered[-1]),
                (b'avg', average),
                (b'median', ordered[count // 2]),
            ]
        for role, (wall, user, sys) in rows:
            prefix = b'' if role == b'best' else role + b'.'
            fm.plain(b'!')
            fm.write(prefix + b'wall', b' wall %f', wall)
            fm.write(prefix + b'comb', b' comb %f', user + sys)
            fm.write(prefix + b'user', b' user %f', user)
            fm.write(prefix + b'sys', b' sys %f', sys)
            fm.write(prefix + b'count', b' (%s of %%d)' % role, count)
            fm.plain(b'\n')

    def end(self):
        self.fm.end()


def measure(func, perf_config):
    """[(wall, user, sys)] of each run of ``func`` within the limits"""
    for _run in range(perf_config.prerun):
        func()
    gc.collect()
    timings = []
    begin = time.perf_counter()
    while True:
        gc.collect()
        before, start = os.times(), time.perf_counter()
        func()
        stop, after = time.perf_counter(), os.times()
        timings.append(
            (stop - start, after[0] - before[0], after[1] - before[1])
        )
        elapsed = stop - begin
        if any(
            elapsed >= t and len(timings) >= n for t, n in perf_config.limits
        ):
            return timings


def best_of(func, number, repeat):
    """min over ``repeat`` runs of the time of ``number`` calls, as timeit"""
    results = []
    for _repeat in range(repeat):
        start = time.perf_counter()
        for _call in range(number):
            func()
        results.append(time.perf_counter() - start)
    return min(results)


def medians_and_ratios(samples):
    """each column's median, and its ratio to the first column's

    ``samples`` holds one list of measurements per column; a ratio below
    1.0 is faster than the first column.
    """
    # imported here, not when the extension loads: it costs milliseconds
    # (with fractions) that only this command should pay
    import statistics

    medians = [statistics.median(column) for column in samples]
    first = medians[0]
    return [(m, m / first if first else 0.0) for m in medians]


def within_noise(samples):
    """for each column, whether its ratio to the first is within the noise

    ``samples`` holds one measurement per round for each column, the
    rounds in the same order, the second column being the first one run
    again (A/A). A ratio is within the noise when its rounds fall on both
    sides of 1.00, or when it is no further from 1.00 than the A/A's
    furthest round: one A/A median that happens to be 1.00 says nothing of
    the noise.
    """
    import statistics

    first = samples[0]

    def by_round(column):
        return [b / a for a, b in zip(first, column) if a]

    again = by_round(samples[1])
    noise = max((abs(r - 1.0) for r in again), default=0.0)
    base = statistics.median(first)
    within = [False, False]
    for column in samples[2:]:
        rounds = by_round(column)
        if not rounds or not base:
            within.append(True)
            continue
        ratio = statistics.median(column) / base
        within.append(
            min(rounds) <= 1.0 <= max(rounds) or abs(ratio - 1.0) <= noise
        )
    return within
