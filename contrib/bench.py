#!/usr/bin/env python3
"""Mercurial alone versus Mercurial + revlogperf, side by side

    bench.py REPO [--rounds N] [--json FILE] [--chart FILE.png]

Each round runs one child process per configuration, alternating, so that a
noisy machine hits both alike. A child opens REPO (read-only) and times the
four benchmark tasks on the changelog — open (the revlog object), index (open, read
every entry), tip (open, read the tip's text), sample (open, read 500 random
revisions in forward order), each 50 iterations, min of 3 — then one
decompression of every changelog chunk and one read of every changelog
revision, forward and in reverse, each by a revlog opened anew. ``hg log -l
5`` is timed as a whole process. The table gives the median over rounds of
each figure and the ratio revlogperf / Mercurial
(below 1.00 is faster); ``--chart`` draws the ratios (needs matplotlib).
"""

import argparse
import compileall
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXTENSION = os.path.join(HERE, '..', 'hgext3rd', 'revlogperf')
CONFIGS = ('Mercurial', '+revlogperf')
TASKS = (
    'open',
    'index',
    'tip',
    'sample',
    'decompress',
    'read all',
    'read reverse',
    'hg log -l 5',
)


def child(repo_path, with_extension):
    """run every task in this process; print the figures as JSON"""
    sys.path.insert(0, os.path.join(HERE, '..'))
    from mercurial import extensions, ui as uimod
    from hgext3rd.revlogperf import compat
    from hgext3rd.revlogperf.perf import tasks, timing

    ui = uimod.ui.load()
    ui.setconfig(b'devel', b'all-warnings', b'no')
    if with_extension:
        ui.setconfig(b'extensions', b'revlogperf', EXTENSION.encode())
        extensions.loadall(ui)
    repo = compat.repository(ui, repo_path.encode())
    rl = repo.unfiltered().changelog
    seed = dict(tasks.benchmark_tasks(rl))
    out = {
        'open': timing.best_of(seed[b'open'], 50, 3),
        'index': timing.best_of(seed[b'index'], 5, 3),
        'tip': timing.best_of(seed[b'tip'], 50, 3),
        'sample': timing.best_of(seed[b'sample'], 5, 3),
    }
    reopen = tasks.reopener(rl)
    owner = compat.chunk_owner(reopen())
    chunks = [compat.raw_chunk(owner, rev) for rev in range(len(rl))]
    start = time.perf_counter()
    for chunk in chunks:
        owner.decompress(chunk)  # looked up each time, as core's _chunk does
    out['decompress'] = time.perf_counter() - start
    forward = range(len(rl))
    for task, revs in (('read all', forward), ('read reverse', forward[::-1])):
        fresh = reopen()
        start = time.perf_counter()
        for rev in revs:
            fresh.revision(rev)
        out[task] = time.perf_counter() - start
    json.dump(out, sys.stdout)


def hg_log(hg, repo, with_extension):
    cmd = [hg, '-R', repo, 'log', '-l', '5', '-T', '{rev}\n']
    if with_extension:
        cmd += ['--config', 'extensions.revlogperf=' + EXTENSION]
    start = time.perf_counter()
    subprocess.run(
        cmd,
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, 'HGRCPATH': ''},
    )
    return time.perf_counter() - start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('repo')
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--json', help='write the raw figures here')
    ap.add_argument('--chart', help='draw the ratios in this PNG file')
    ap.add_argument('--child', choices=CONFIGS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.repo, args.child == '+revlogperf')

    hg = os.path.join(os.path.dirname(sys.executable), 'hg')
    env = {**os.environ, 'HGRCPATH': ''}
    # bytecode, as pip install leaves it next to Mercurial's: the source
    # tree has none where PYTHONDONTWRITEBYTECODE is set, and compiling it
    # in every `hg log` process would be timed as revlogperf's cost
    compileall.compile_dir(EXTENSION, quiet=1)
    raw = {c: {t: [] for t in TASKS} for c in CONFIGS}
    for n in range(args.rounds):
        for config in CONFIGS if n % 2 == 0 else CONFIGS[::-1]:
            sys.stderr.write(
                '\rround %d/%d: %-12s' % (n + 1, args.rounds, config)
            )
            sys.stderr.flush()
            out = subprocess.run(
                [sys.executable, __file__, args.repo, '--child', config],
                check=True,
                stdout=subprocess.PIPE,
                env=env,
            ).stdout
            for task, value in json.loads(out).items():
                raw[config][task].append(value)
            raw[config]['hg log -l 5'].append(
                hg_log(hg, args.repo, config == '+revlogperf')
            )
    sys.stderr.write('\r' + ' ' * 40 + '\r')

    sys.path.insert(0, os.path.join(HERE, '..'))
    from mercurial import util
    from hgext3rd.revlogperf.perf import timing

    version = util.version().decode()
    rows = []
    for task in TASKS:
        (a, _one), (b, ratio) = timing.medians_and_ratios(
            [raw[c][task] for c in CONFIGS]
        )
        rows.append((task, a, b, ratio))
    print(
        '%s, Mercurial %s, %d rounds (median, ms)'
        % (args.repo, version, args.rounds)
    )
    print('%-12s %12s %12s %7s' % ('task', *CONFIGS, 'ratio'))
    for task, a, b, ratio in rows:
        print('%-12s %12.2f %12.2f %7.2f' % (task, a * 1e3, b * 1e3, ratio))
    if args.json:
        with open(args.json, 'w') as fp:
            json.dump(
                {
                    'repo': args.repo,
                    'mercurial': version,
                    'rounds': args.rounds,
                    'seconds': raw,
                },
                fp,
                indent=1,
            )
    if args.chart:
        chart(
            rows,
            args.chart,
            '%s, Mercurial %s, median of %d rounds'
            % (
                os.path.basename(os.path.abspath(args.repo)),
                version,
                args.rounds,
            ),
        )


def chart(rows, path, title):
    """a bar per task: time with revlogperf relative to Mercurial alone"""
    import matplotlib

    matplotlib.use('Agg')
    from matplotlib import pyplot

    tasks = [r[0] for r in rows][::-1]
    ratios = [r[3] for r in rows][::-1]
    fig, ax = pyplot.subplots(figsize=(7, 0.5 * len(rows) + 1.2))
    colors = [
        'tab:green' if r < 0.95 else 'tab:red' if r > 1.05 else 'tab:gray'
        for r in ratios
    ]
    ax.barh(tasks, ratios, color=colors)
    ax.axvline(1.0, color='black', linewidth=1)
    for y, (ratio, row) in enumerate(zip(ratios, rows[::-1])):
        ax.text(
            ratio,
            y,
            ' %.2f (%.1f vs %.1f ms)' % (ratio, row[2] * 1e3, row[1] * 1e3),
            va='center',
            fontsize=8,
        )
    ax.set_xlim(0, max(1.2, max(ratios) * 1.5))
    ax.set_xlabel(
        'time with revlogperf / time with Mercurial alone '
        '(below 1 is faster)'
    )
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print('chart: %s' % path)


if __name__ == '__main__':
    main()
