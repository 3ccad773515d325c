#!/usr/bin/env python3
"""build a benchmark repository from a real project's git history

    realrepo.py GIT DEST [--hg HG] [--rev REV]

GIT is a git repository: a path (a bare mirror will do) or a URL, cloned
bare first. ``hg convert`` turns the history reachable from REV (default
HEAD) into a Mercurial repository at DEST, stored as the Mercurial running
it stores by default; a conversion stopped midway resumes where it stopped.
A line of progress is printed at least every 30 seconds, also when the
output is a file or a CI log. The README's real-history figures come from
``curl`` (https://github.com/curl/curl): 39,490 changesets, 4,449 files.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

PROGRESS_EVERY = 30  # seconds


def convert(hg, source, dest, rev):
    """run ``hg convert``, passing on a line of its output now and then"""
    cmd = [
        hg,
        '--config',
        'extensions.convert=',
        'convert',
        '--datesort',
        '--rev',
        rev,
        source,
        dest,
    ]
    started = last = time.monotonic()
    count = 0
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as proc:
        for line in proc.stdout:
            count += 1
            now = time.monotonic()
            if now - last >= PROGRESS_EVERY:
                last = now
                print(
                    '  %4d s, %d lines: %s'
                    % (now - started, count, line.strip()[:60]),
                    flush=True,
                )
    if proc.returncode:
        sys.exit('hg convert failed (exit %d)' % proc.returncode)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('git', help='a git repository: path or URL')
    parser.add_argument('dest', help='the Mercurial repository to make')
    parser.add_argument('--hg', default='hg', help='the hg to run')
    parser.add_argument('--rev', default='HEAD')
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        source = args.git
        if '://' in source:
            source = os.path.join(tmp, 'source.git')
            print('cloning %s' % args.git, flush=True)
            subprocess.check_call(
                ['git', 'clone', '-q', '--bare', args.git, source]
            )
        print('converting %s into %s' % (args.git, args.dest), flush=True)
        convert(args.hg, source, args.dest, args.rev)
    count = subprocess.check_output(
        [args.hg, '-R', args.dest, 'log', '-r', 'tip', '-T', '{rev}']
    )
    print(
        '%s: %d changesets, in %d s'
        % (args.dest, int(count) + 1, time.monotonic() - started)
    )


if __name__ == '__main__':
    main()
