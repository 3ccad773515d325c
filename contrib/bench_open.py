#!/usr/bin/env python3
"""what opening a filelog, and reading its first revision, costs with and
without revlogperf

    bench_open.py [REPO] [--files N] [--rounds R] [--config SECTION.NAME=VALUE]
                  [--instructions]

Commands such as ``hg diff --stat`` between distant revisions open
thousands of filelogs and read a revision or two from each: there, what a
revlog costs to open counts. Each round starts one process with Mercurial
alone and one with revlogperf, alternating; each opens every filelog of
REPO (or of a repository of N two-revision files it makes once under
.cache/), first only opening them, then opening each and reading its first
revision, and reports the median per filelog of three passes. The table
gives the median over rounds, the ratio revlogperf / Mercurial and its
spread (lowest and highest per-round ratio).

With --instructions, the same is counted in instructions, which do not
vary from run to run: ``valgrind --tool=callgrind`` counts a process that
opens every filelog once (or opens and reads each) and one that opens
none, and the difference is divided by the number of filelogs.
"""

import argparse
import compileall
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..')
EXTENSION = os.path.join(ROOT, 'hgext3rd', 'revlogperf')


def open_repo(repo_path, extension, overrides):
    """(the repository, its filelog paths), opened in this process with
    or without revlogperf, with ``overrides`` (section.name=value)"""
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
    return repo, sorted(compat.filelog_paths(repo))


def child(repo_path, extension, overrides):
    """time the two tasks in this process; print 'open first-read' in us"""
    repo, paths = open_repo(repo_path, extension, overrides)
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


def counted_child(repo_path, extension, overrides, task, passes):
    """``passes`` passes of ``task`` over every filelog, for callgrind to
    count: the same set-up whatever the passes, so that one pass minus
    none is what the task costs; prints the number of filelogs"""
    import gc

    repo, paths = open_repo(repo_path, extension, overrides)
    for path in paths[:50]:
        repo.file(path)
    gc.collect()  # not counted: a collection due anyway would be
    gc.freeze()
    for _pass in range(passes):
        for path in paths:
            fl = repo.file(path)
            if task == 'read':
                fl.revision(0)
    print(len(paths))


def instructions(args, repo):
    """instructions per filelog, by callgrind: one pass minus none"""
    print('instructions per filelog (valgrind --tool=callgrind)')
    print('%-16s %10s %12s %8s' % ('', 'Mercurial', '+revlogperf', 'more'))
    for task, title in (('open', 'open'), ('read', 'open + first read')):
        counts = {}
        for config in ('core', 'ext'):
            collected = []
            for passes in (0, 1):
                command = [
                    'valgrind',
                    '--tool=callgrind',
                    '--callgrind-out-file=/dev/null',
                    sys.executable,
                    __file__,
                    repo,
                    '--child',
                    config,
                    '--count',
                    task,
                    '--passes',
                    str(passes),
                    '--extension',
                    args.extension,
                ]
                for item in args.config:
                    command += ['--config', item]
                out = subprocess.run(command, check=True, capture_output=True)
                total = re.search(rb'Collected : (\d+)', out.stderr)
                collected.append(int(total.group(1)))
                files = int(out.stdout)
            counts[config] = (collected[1] - collected[0]) / files
        print(
            '%-16s %9.0fk %11.0fk %+7.1f%%'
            % (
                title,
                counts['core'] / 1e3,
                counts['ext'] / 1e3,
                (counts['ext'] / counts['core'] - 1) * 100,
            )
        )


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
    parser.add_argument(
        '--instructions',
        action='store_true',
        help='count instructions with valgrind instead of timing',
    )
    parser.add_argument('--child', choices=['core', 'ext'])
    parser.add_argument('--count', choices=['open', 'read'])
    parser.add_argument('--passes', type=int, default=1)
    parser.add_argument(
        '--extension', default=EXTENSION, help='revlogperf to load (a path)'
    )
    args = parser.parse_args()
    extension = args.child == 'ext' and args.extension
    if args.child and args.count:
        counted_child(
            args.repo, extension, args.config, args.count, args.passes
        )
        return
    if args.child:
        child(args.repo, extension, args.config)
        return
    repo = args.repo
    if repo is None:
        repo = os.path.join(ROOT, '.cache', 'open-%d' % args.files)
        if not os.path.isdir(os.path.join(repo, '.hg')):
            make_repo(repo, args.files)
    if args.instructions:
        # bytecode first: where PYTHONDONTWRITEBYTECODE is set, the
        # extension would be compiled in every child, and counted
        compileall.compile_dir(args.extension, quiet=1)
        instructions(args, repo)
        return
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
