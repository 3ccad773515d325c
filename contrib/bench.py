#!/usr/bin/env python3
"""Mercurial alone versus Mercurial + revlogperf, side by side

    bench.py REPO [--rounds N] [--json FILE] [--chart FILE.png]

Each round runs one child process per configuration, alternating, so that a
noisy machine hits both alike. A child opens REPO (read-only) and times the
four benchmark tasks on the changelog — open (the revlog object), index (open,
read every entry), tip (open, read the tip's text), sample (open, read 500
random revisions in forward order), each the best of 3 batches (of 50 runs;
5 for index and sample) — then one decompression of every changelog chunk
and one read of every changelog revision, forward and in reverse, each by a
revlog opened anew. ``hg log -l 5`` is timed as a whole process. The table
gives per task what one operation is, its median time over the rounds in ms
per operation, and the ratio revlogperf / Mercurial of those medians
(below 1.00 is faster) with its spread (the lowest and highest ratio of a
round's pair), ``~`` marking a spread that crosses 1.00; ``--chart`` draws the
ratios and spreads (needs matplotlib).
"""

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchprogress import Progress  # noqa: E402
import benchstats  # noqa: E402

EXTENSION = os.path.join(HERE, '..', 'hgext3rd', 'revlogperf')
CONFIGS = ('Mercurial', '+revlogperf')
TASKS = {
    # task: what one operation is
    'open': 'open the changelog',
    'index': 'open, read every entry',
    'tip': 'open, read the tip',
    'sample': 'open, read 500 revisions',
    'decompress': 'every chunk, once',
    'read all': 'every revision, forward',
    'read reverse': 'every revision, reverse',
    'hg log -l 5': 'a whole process',
}
# the benchmark tasks run in batches (the best of 3 is kept)
BATCHES = {'open': 50, 'index': 5, 'tip': 50, 'sample': 5}


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
    # seconds per operation: the best of 3 batches, divided by the batch
    out = {
        task: timing.best_of(seed[task.encode()], number, 3) / number
        for task, number in BATCHES.items()
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


def engaged(hg, repo, env, threshold=1 << 20):
    """lines saying which of revlogperf's size-gated mechanisms engage on
    ``repo`` at default settings: the indexes its storage report says are
    mapped, and the data files of ``threshold`` bytes or more"""
    out = subprocess.run(
        [hg, '-R', repo, '--config', 'extensions.revlogperf=' + EXTENSION]
        + ['debug-revlog-storage', '-T', 'json'],
        check=True,
        stdout=subprocess.PIPE,
        env=env,
    ).stdout
    store = os.path.join(repo, '.hg', 'store')
    large = {'changelog': 0, 'manifest': 0, 'filelogs': 0}
    for directory, _dirs, files in os.walk(store):
        for name in files:
            path = os.path.join(directory, name)
            if name.endswith('.d') and os.path.getsize(path) >= threshold:
                kind = name.split('.')[0][2:] if name.startswith('00') else ''
                large[kind if kind in large else 'filelogs'] += 1
    lines = ['what revlogperf maps here at default settings (1 MB):']
    for kind in json.loads(out):
        lines.append(
            '  %-9s %d of %d indexes, %d data files'
            % (
                kind['kind'],
                kind['mmapped'],
                kind['revlogs'],
                large.get(kind['kind'], 0),
            )
        )
    lines.append('  and the walk cache (64 MB) keeps what a command reads')
    return lines


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
    for line in engaged(hg, args.repo, env):
        print(line)
    raw = {c: {t: [] for t in TASKS} for c in CONFIGS}
    with Progress(args.rounds * len(CONFIGS)) as progress:
        for n in range(args.rounds):
            for config in CONFIGS if n % 2 == 0 else CONFIGS[::-1]:
                progress.step(
                    'revlog tasks, round %d/%d: %s'
                    % (n + 1, args.rounds, config)
                )
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

    from mercurial import util

    version = util.version().decode()
    rows = []
    for task, operation in TASKS.items():
        core, ext = (raw[c][task] for c in CONFIGS)
        rows.append(
            {
                'task': task,
                'operation': operation,
                'ms': [
                    statistics.median(core) * 1e3,
                    statistics.median(ext) * 1e3,
                ],
                **benchstats.paired(core, ext),
            }
        )
    print(
        '%s, Mercurial %s, %d round%s: ms per operation, median of the rounds'
        % (args.repo, version, args.rounds, '' if args.rounds == 1 else 's')
    )
    print(
        '%-13s %-25s %10s %12s %6s %11s'
        % ('task', 'one operation', *CONFIGS, 'ratio', 'spread')
    )
    for row in rows:
        low, high = row['spread']
        print(
            '%-13s %-25s %10.3f %12.3f %5.2f%s %5.2f-%-5.2f'
            % (
                row['task'],
                row['operation'],
                row['ms'][0],
                row['ms'][1],
                row['ratio'],
                benchstats.noise(row['spread']),
                low,
                high,
            )
        )
    print(
        'ratio: of the two medians; spread: the lowest and highest ratio of'
        ' a round\'s pair\n~: within the noise (the spread crosses 1.00)'
    )
    if args.json:
        with open(args.json, 'w') as fp:
            json.dump(
                {
                    'repo': args.repo,
                    'mercurial': version,
                    'rounds': args.rounds,
                    'unit': 'seconds per operation',
                    'summary': rows,
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
    """a bar per task: its ratio and spread (benchchart.py)"""
    import benchchart

    benchchart.draw(
        [row['task'] for row in rows],
        rows,
        path,
        title,
        # as the table: Mercurial's time, then revlogperf's
        lambda row: '%.2f (%.3f ms → %.3f ms per operation)'
        % (row['ratio'], row['ms'][0], row['ms'][1]),
        'time',
    )


if __name__ == '__main__':
    main()
