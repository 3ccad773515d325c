#!/usr/bin/env python3
"""what revlogperf adds to short commands, in instructions

    startupcost.py REPO [--hg HG] [--extension PATH] [--runs N]
                   [COMMAND ...]

Runs each command (default: status, id, log -l 1, summary, branch,
version -q) in REPO once with Mercurial alone and once with revlogperf,
under ``valgrind --tool=cachegrind --cache-sim=no``, and prints both
instruction counts and the difference: noise-free, whatever else the
machine runs (the same count to 0.01% from one run to the next). Without
valgrind it times N runs of each, alternating, and prints the fastest.

The extension's bytecode is compiled first: a source tree whose modules
were edited since, run where PYTHONDONTWRITEBYTECODE is set (as on CI),
compiles them at every command, which costs more than everything
revlogperf does there.
"""

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COMMANDS = ['status', 'id', 'log -l 1', 'summary', 'branch', 'version -q']


def instructions(argv, env):
    """the instructions ``argv`` runs (cachegrind's "I refs")"""
    out = subprocess.run(
        ['valgrind', '--tool=cachegrind', '--cache-sim=no']
        + ['--cachegrind-out-file=/dev/null']
        + argv,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=True,
    ).stderr.decode()
    found = re.search(r'I\s+refs:\s+([\d,]+)', out)
    if found is None:
        raise SystemExit('valgrind gave no count:\n%s' % out)
    return int(found.group(1).replace(',', ''))


def seconds(argv, env):
    started = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('repo')
    ap.add_argument('commands', nargs='*', default=COMMANDS)
    ap.add_argument('--hg', default=shutil.which('hg'))
    ap.add_argument(
        '--extension',
        default=os.path.join(HERE, '..', 'hgext3rd', 'revlogperf'),
    )
    ap.add_argument('--runs', type=int, default=9, help='without valgrind')
    args = ap.parse_intermixed_args(argv)
    extension = os.path.abspath(args.extension)
    compileall.compile_dir(extension, quiet=1)
    env = {**os.environ, 'HGRCPATH': '', 'HGPLAIN': '1'}
    counting = shutil.which('valgrind') is not None
    unit = 'instructions' if counting else 'seconds (fastest of %d)' % args.runs
    print(
        '%-12s %16s %16s %9s   %s' % ('command', 'core', 'revlogperf', '', unit)
    )
    for command in args.commands:
        core = [args.hg, '-R', args.repo] + command.split()
        with_ext = core[:1] + ['--config', 'extensions.revlogperf=' + extension]
        with_ext += core[1:]
        if counting:
            a, b = instructions(core, env), instructions(with_ext, env)
            shown = '%16d %16d' % (a, b)
        else:
            pairs = [
                (seconds(core, env), seconds(with_ext, env))
                for _ in range(args.runs)
            ]
            a, b = min(p[0] for p in pairs), min(p[1] for p in pairs)
            shown = '%16.4f %16.4f' % (a, b)
        print('%-12s %s %+8.2f%%' % (command, shown, 100.0 * (b - a) / a))
    return 0


if __name__ == '__main__':
    sys.exit(main())
