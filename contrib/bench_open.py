#!/usr/bin/env python3
"""what opening a filelog, and reading its first revision, costs with and
without revlogperf

    bench_open.py [REPO] [--files N] [--rounds R] [--config SECTION.NAME=VALUE]

Commands such as ``hg diff --stat`` between distant revisions open
thousands of filelogs and read a revision or two from each: there, what a
revlog costs to open counts. Each round starts one process with Mercurial
alone and one with revlogperf, alternating; each opens every filelog of
REPO (or of a repository of N two-revision files it makes once under
.cache/), first only opening them, then opening each and reading its first
revision, and reports the median per filelog of three passes. The table
gives the median over rounds, the ratio revlogperf / Mercurial and its
spread (lowest and highest per-round ratio).
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..')
EXTENSION = os.path.join(ROOT, 'hgext3rd', 'revlogperf')


def child(repo_path, extension, overrides):
    """time the two tasks in this process; print 'open first-read' in us"""
    sys.path.insert(0, ROOT)
    from mercurial import extensions, ui as uimod
    from hgext3rd.revlogperf import compat

    ui = uimod.ui.load()
    ui.setconfig(b'devel', b'all-warnings', b'no')
    for item in overrides:
        name, value = item.split('=', 1)
        section, key = name.split('.', 1)
        ui.setconfig(section.encode(), key.encode(), value.encode())
    if extension:
        ui.setconfig(b'extensions', b'revlogperf', extension.encode())
        extensions.loadall(ui)
    repo = compat.repository(ui, repo_path.encode()).unfiltered()
    paths = sorted(compat.filelog_paths(repo))
    clock = time.perf_counter
    opens, reads = [], []
    for _pass in range(3):
        start = clock()
        for path in paths:
            repo.file(path)
        opens.append((clock() - start) / len(paths))
        start = clock()
        for path in paths:
            repo.file(path).revision(0)
        reads.append((clock() - start) / len(paths))
    print('%f %f' % (min(opens) * 1e6, min(reads) * 1e6 - min(opens) * 1e6))


def make_repo(path, files):
    """a repository of ``files`` files, each changed in two revisions"""
    hg = os.path.join(os.path.dirname(sys.executable), 'hg')
    env = {**os.environ, 'HGRCPATH': '', 'HGUSER': 'bench'}
    subprocess.run([hg, 'init', path], check=True, env=env)
    for rev in range(2):
        for i in range(files):
            name = os.path.join(path, 'd%02d' % (i % 50), 'f%05d' % i)
            os.makedirs(os.path.dirname(name), exist_ok=True)
            with open(name, 'a') as fp:
                fp.write(''.join('%d line %d\n' % (rev, j) for j in range(40)))
        subprocess.run(
            [hg, '-R', path, 'commit', '-qAm', 'r%d' % rev], check=True, env=env
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('repo', nargs='?')
    parser.add_argument('--files', type=int, default=2000)
    parser.add_argument('--rounds', type=int, default=7)
    parser.add_argument('--config', action='append', default=[])
    parser.add_argument('--child', choices=['core', 'ext'])
    parser.add_argument(
        '--extension', default=EXTENSION, help='revlogperf to load (a path)'
    )
    args = parser.parse_args()
    if args.child:
        child(args.repo, args.child == 'ext' and args.extension, args.config)
        return
    repo = args.repo
    if repo is None:
        repo = os.path.join(ROOT, '.cache', 'open-%d' % args.files)
        if not os.path.isdir(os.path.join(repo, '.hg')):
            make_repo(repo, args.files)
    figures = {'core': [], 'ext': []}
    for _round in range(args.rounds):
        for config in ('core', 'ext'):
            command = [sys.executable, __file__, repo, '--child', config]
            command += ['--extension', args.extension]
            for item in args.config:
                command += ['--config', item]
            out = subprocess.run(command, check=True, capture_output=True)
            figures[config].append([float(x) for x in out.stdout.split()])
    print('per filelog, us, median of %d rounds' % args.rounds)
    print(
        '%-11s %9s %11s %6s  %s'
        % ('', 'Mercurial', '+revlogperf', 'ratio', 'spread')
    )
    for i, name in enumerate(('open', 'first read')):
        core = [f[i] for f in figures['core']]
        ext = [f[i] for f in figures['ext']]
        ratios = [e / c for c, e in zip(core, ext)]
        print(
            '%-11s %9.1f %11.1f %6.2f  %.2f-%.2f'
            % (
                name,
                statistics.median(core),
                statistics.median(ext),
                statistics.median(ratios),
                min(ratios),
                max(ratios),
            )
        )


if __name__ == '__main__':
    main()
