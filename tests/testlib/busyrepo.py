#!/usr/bin/env python3
"""readers loop while one process commits and another pulls

  busyrepo.py REPO SOURCE COMMITS PULLS READERS

In REPO (after a first commit), one process commits COMMITS changesets (one transaction each) while
another pulls SOURCE in PULLS steps, and READERS threads each run
"hg log -l 5", "hg cat" and "hg log -r tip -p" in a loop until both are done.
Prints the writers' status and every reader failure (exit status, stderr).
"""

import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
READS = [
    ['log', '-l', '5', '-T', '{rev}\n'],
    ['cat', '-r', 'last(file("path:c"))', 'path:c'],
    ['log', '-r', 'tip', '-p'],
]


def hg(repo, args):
    return subprocess.run(
        ['hg', '--cwd', repo] + args, capture_output=True, timeout=120
    )


def commitmany(repo, count):
    extension = os.path.join(HERE, 'commitmany.py')
    return [
        'hg',
        '-R',
        repo,
        '--config',
        'extensions.commitmany=' + extension,
        'debugcommitmany',
        count,
    ]


def pull_in_steps(repo, source, steps):
    revs = int(hg(source, ['log', '-r', 'tip', '-T', '{rev}']).stdout)
    for step in range(1, steps + 1):
        rev = str(revs * step // steps)
        result = hg(repo, ['pull', '-q', '--force', '-r', rev, source])
        if result.returncode:
            return result
    return result


def read_until(repo, done, failures, counts):
    runs = 0
    while not done.is_set():
        for args in READS:
            result = hg(repo, args)
            runs += 1
            if result.returncode or result.stderr:
                failures.append((args, result.returncode, result.stderr))
    counts.append(runs)


def main(repo, source, commits, pulls, readers):
    source = os.path.abspath(source)
    subprocess.check_call(commitmany(repo, '1'))  # something to cat
    done = threading.Event()
    failures, counts = [], []
    threads = [
        threading.Thread(target=read_until, args=(repo, done, failures, counts))
        for _ in range(int(readers))
    ]
    for t in threads:
        t.start()
    writer = subprocess.Popen(commitmany(repo, commits))
    pulled = pull_in_steps(repo, source, int(pulls))
    status = writer.wait(timeout=600)
    done.set()
    for t in threads:
        t.join()
    print('writer: exit %d' % status)
    print('puller: exit %d' % pulled.returncode)
    sys.stdout.write(pulled.stderr.decode())
    print('readers: %s' % ('ran' if all(counts) else 'did not run'))
    for args, code, err in failures:
        print('reader failed: hg %s: exit %d' % (' '.join(args), code))
        sys.stdout.write(err.decode())


if __name__ == '__main__':
    main(*sys.argv[1:])
