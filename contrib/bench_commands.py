#!/usr/bin/env python3
"""whole hg commands with and without revlogperf, side by side

    bench_commands.py REPO [--rounds N] [--only NAME ...] [--json FILE]
                           [--chart FILE.png]

The commands people type, each run as a whole ``hg`` process on REPO (read
only; ``update`` runs in a share made under a temporary directory), in
alternating processes: each round runs every command once with Mercurial
alone and once with revlogperf, in turn first. The table gives per
command the median wall time of each, their ratio (below 1.00 is faster)
with its spread (the lowest and highest ratio of a round's pair),
the CPU-time ratio (user + system, steadier than wall time on a shared
machine), and memory: the peak of each process's anonymous memory (its
heap, sampled every 10 ms), its private (USS) and proportional (PSS)
memory at its end, from /proc/PID/smaps_rollup, and its peak RSS. Mapped file pages count in RSS and PSS, and in USS while
no other process maps them (clean pages the kernel can reclaim): the heap
is the memory a process owns. A ratio whose spread crosses
1.00 is marked ``~``: within the noise.

The revisions and the file are chosen from REPO: ``tip``, a revision 1,000
before it (``--distant``), and the file changed most often in the last 300
changesets (``--file``).
"""

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchprogress import Progress  # noqa: E402
import benchstats  # noqa: E402

EXTENSION = os.path.join(HERE, '..', 'hgext3rd', 'revlogperf')
MEMREPORT = os.path.join(HERE, 'memreport.py')
CONFIGS = ('Mercurial', '+revlogperf')


def commands(distant, path):
    """(name, hg arguments, runs in the share) for each command timed"""
    return [
        ('startup: version -q', ['version', '-q'], False),
        ('log -l 5', ['log', '-l', '5'], False),
        ('log, all', ['log', '-T', '{node} {author} {desc}\n'], False),
        ('log -k', ['log', '-k', 'fix', '-T', '{rev}\n'], False),
        ('desc() revset', ['log', '-r', 'desc(test)', '-T', '{rev}\n'], False),
        (
            'date() revset',
            ['log', '-r', 'date(">2000")', '-T', '{rev}\n'],
            False,
        ),
        ('log -p -l 300', ['log', '-p', '-l', '300'], False),
        ('diff --stat', ['diff', '--stat', '-r', distant, '-r', 'tip'], False),
        ('annotate', ['annotate', '-r', 'tip', path], False),
        ('log -p FILE', ['log', '-p', '-l', '300', path], False),
        (
            'log -f FILE',
            ['log', '-f', '-r', 'tip', path, '-T', '{rev}\n'],
            False,
        ),
        ('update', ['update', '-q', '-r', 'tip'], True),
        ('bundle --all', ['bundle', '-q', '--all', '-t', 'none-v2'], False),
        ('verify', ['verify', '-q'], False),
    ]


def choose(hg, repo, env):
    """a revision 1,000 before tip, and the file changed most lately"""
    tip = int(
        run_output([hg, '-R', repo, 'log', '-r', 'tip', '-T', '{rev}'], env)
    )
    distant = str(max(0, tip - 1000))
    files = run_output(
        [
            hg,
            '-R',
            repo,
            'log',
            '-r',
            'last(all(), 300)',
            '-T',
            '{files % "{file}\\n"}',
        ],
        env,
    ).splitlines()
    at_tip = set(
        run_output(
            [hg, '-R', repo, 'files', '-r', 'tip', '-T', '{path}\n'], env
        ).splitlines()
    )
    counts = {}
    for name in files:
        if name in at_tip:
            counts[name] = counts.get(name, 0) + 1
    path = max(sorted(counts), key=counts.get) if counts else None
    return distant, path


def run_output(cmd, env):
    return subprocess.run(
        cmd, check=True, stdout=subprocess.PIPE, env=env, text=True
    ).stdout


def timed(cmd, env, cwd=None):
    """(wall seconds, CPU seconds, peak RSS bytes) of one process"""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit('failed (exit %d): %s' % (proc.returncode, ' '.join(cmd)))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


SETTLE = 1.1
"""seconds after a file is written until its mtime can be trusted"""


def settled_update(hg, share, env):
    """update the share to the distant revision, untimed, and leave no file
    that the timed update must read to know it is clean

    A file written in the second the dirstate was written has an ambiguous
    mtime: the next status compares its content with its revision, which
    hashes it. How many such files the timed update met varied from run to
    run (1,705 to 3,150 hashes on curl's history, 6.3.3), more than
    revlogperf changes. After a second, ``status`` records their mtimes.
    """

    def run(*argv):
        subprocess.run(
            [hg] + list(argv),
            check=True,
            cwd=share['path'],
            env=env,
            stdout=subprocess.DEVNULL,
        )

    run('update', '-q', '-r', share['from'])
    time.sleep(SETTLE)
    run('status', '-q')


def run_round(hg, repo, todo, config, env, share, memory_file, step):
    """one process per command under ``config``; its figures by name"""
    figures = {}
    for name, argv, in_share in todo:
        step(name)
        cmd = [hg]
        if not in_share and not name.startswith('startup'):
            cmd += ['--cwd', repo]  # FILE arguments are relative to it
        if config == '+revlogperf':
            cmd += ['--config', 'extensions.revlogperf=' + EXTENSION]
        if not name.startswith('startup'):
            # the same probe for both: what the process holds at its end
            cmd += ['--config', 'extensions.memreport=' + MEMREPORT]
        if name == 'update':
            settled_update(hg, share, env)
        if argv[0] == 'bundle':
            argv = argv + [os.path.join(share['tmp'], 'all.hg')]
        wall, cpu, rss = timed(
            cmd + argv, env, cwd=share['path'] if in_share else None
        )
        uss = pss = anon = None
        if os.path.exists(memory_file):
            with open(memory_file) as fp:
                uss, pss, anon = json.load(fp)
            os.unlink(memory_file)
        figures[name] = {
            'wall': wall,
            'cpu': cpu,
            'rss': rss,
            'uss': uss,
            'pss': pss,
            'anon': anon,
        }
    return figures


def summarize(raw, names):
    """per command: medians, ratio and spread, CPU ratio, memory"""
    rows = []
    for name in names:
        core, ext = (raw[c][name] for c in CONFIGS)
        wall = benchstats.paired(
            [r['wall'] for r in core], [r['wall'] for r in ext]
        )
        cpu = benchstats.paired(
            [r['cpu'] for r in core], [r['cpu'] for r in ext]
        )

        def median(runs, key):
            values = [r[key] for r in runs if r[key] is not None]
            return statistics.median(values) if values else None

        rows.append(
            {
                'command': name,
                'wall': [median(core, 'wall'), median(ext, 'wall')],
                'ratio': wall['ratio'],
                'spread': wall['spread'],
                'cpu ratio': cpu and cpu['ratio'],
                'cpu spread': cpu and cpu['spread'],
                'uss': [median(core, 'uss'), median(ext, 'uss')],
                'pss': [median(core, 'pss'), median(ext, 'pss')],
                'anon': [median(core, 'anon'), median(ext, 'anon')],
                'rss': [median(core, 'rss'), median(ext, 'rss')],
            }
        )
    return rows


def mb(value):
    return '   -' if value is None else '%4.0f' % (value / 2**20)


def print_table(rows, title):
    print(title)
    print(
        '%-20s %11s %13s %6s %11s %5s  %9s  %9s  %9s  %9s'
        % (
            'command',
            *('%s s' % c for c in CONFIGS),
            'ratio',
            'spread',
            'CPU',
            'heap MB',
            'USS MB',
            'PSS MB',
            'RSS MB',
        )
    )
    for row in rows:
        low, high = row['spread']
        cpu = row['cpu ratio']
        print(
            '%-20s %11.3f %13.3f %5.2f%s %5.2f-%-5.2f %5s  %s→%s  %s→%s  %s→%s'
            '  %s→%s'
            % (
                row['command'],
                row['wall'][0],
                row['wall'][1],
                row['ratio'],
                benchstats.noise(row['spread']),
                low,
                high,
                '-' if cpu is None else '%.2f' % cpu,
                mb(row['anon'][0]),
                mb(row['anon'][1]),
                mb(row['uss'][0]),
                mb(row['uss'][1]),
                mb(row['pss'][0]),
                mb(row['pss'][1]),
                mb(row['rss'][0]),
                mb(row['rss'][1]),
            )
        )
    print(
        'ratio: revlogperf\'s median wall time over Mercurial\'s (below 1.00'
        ' is faster); spread: the lowest and highest ratio of a round\'s'
        ' pair; ~: within the noise (the spread crosses 1.00)\n'
        'CPU: the same ratio of user + system time, steadier than wall time'
        ' on a shared machine\n'
        'memory, Mercurial → revlogperf: heap, the peak of anonymous memory;'
        ' USS, what the process alone holds at its end, the pages of files'
        ' only it maps included (clean: the kernel may drop them); PSS, its'
        ' share of all it holds; RSS, all it holds\n'
        '-: not measured (startup: the memory probe would weigh on what it'
        ' times)'
    )


def chart(rows, path, title):
    """a bar per command: its ratio and spread (benchchart.py)"""
    import benchchart

    benchchart.draw(
        [row['command'] for row in rows],
        rows,
        path,
        title,
        # as the table: Mercurial's time, then revlogperf's
        lambda row: '%.2f (%.3f s → %.3f s)'
        % (row['ratio'], row['wall'][0], row['wall'][1]),
        'wall time',
    )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('repo')
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument(
        '--only',
        nargs='+',
        metavar='NAME',
        help='the commands to run (names as in the table)',
    )
    ap.add_argument('--distant', help='the revision diffed against tip')
    ap.add_argument('--file', help='the file annotated and followed')
    ap.add_argument('--json', help='write the raw figures here')
    ap.add_argument('--chart', help='draw the ratios in this PNG file')
    args = ap.parse_args(argv)

    hg = os.path.join(os.path.dirname(sys.executable), 'hg')
    repo = os.path.abspath(args.repo)
    tmp = tempfile.mkdtemp(prefix='bench-commands-')
    memory_file = os.path.join(tmp, 'memory.json')
    env = {
        **os.environ,
        'HGRCPATH': '',
        'HGPLAIN': '1',
        'REVLOGPERF_MEMREPORT': memory_file,
    }
    # bytecode, as pip install leaves it: see bench.py
    compileall.compile_dir(EXTENSION, quiet=1)
    distant, path = choose(hg, repo, env)
    distant, path = args.distant or distant, args.file or path
    todo = [
        c
        for c in commands(distant, path)
        if (
            path is not None
            or c[0] not in ('annotate', 'log -p FILE', 'log -f FILE')
        )
        and (not args.only or c[0] in args.only)
    ]
    share = {'tmp': tmp, 'path': os.path.join(tmp, 'share'), 'from': distant}
    if any(in_share for _n, _a, in_share in todo):
        subprocess.run(
            [
                hg,
                '--config',
                'extensions.share=',
                'share',
                '-q',
                '-U',
                repo,
                share['path'],
            ],
            check=True,
            env=env,
        )
    raw = {c: {name: [] for name, _a, _s in todo} for c in CONFIGS}
    progress = Progress(args.rounds * len(CONFIGS) * len(todo))
    try:
        for n in range(args.rounds):
            for config in CONFIGS if n % 2 == 0 else CONFIGS[::-1]:

                def step(name, n=n, config=config):
                    progress.step(
                        'round %d/%d, %s: %s'
                        % (n + 1, args.rounds, config, name)
                    )

                figures = run_round(
                    hg, repo, todo, config, env, share, memory_file, step
                )
                for name, values in figures.items():
                    raw[config][name].append(values)
    finally:
        progress.close()
        shutil.rmtree(tmp, ignore_errors=True)

    from mercurial import util

    version = util.version().decode()
    rows = summarize(raw, [name for name, _a, _s in todo])
    title = '%s, Mercurial %s, %d round%s (diff from %s, file %s)' % (
        os.path.basename(repo),
        version,
        args.rounds,
        '' if args.rounds == 1 else 's',
        distant,
        path,
    )
    print_table(rows, title)
    if args.json:
        with open(args.json, 'w') as fp:
            json.dump(
                {
                    'repo': repo,
                    'mercurial': version,
                    'rounds': args.rounds,
                    'distant': distant,
                    'file': path,
                    'summary': rows,
                    'runs': raw,
                },
                fp,
                indent=1,
            )
    if args.chart:
        chart(rows, args.chart, title)


if __name__ == '__main__':
    main()
