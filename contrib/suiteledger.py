#!/usr/bin/env python3
"""the kept record of Mercurial's suite run with revlogperf, shard by shard

    suiteledger.py LEDGER...

A ledger (tests/hg-suite-results/RELEASE-POLICY-PROFILE.jsonl) holds, for
one release, module policy and profile, the latest comparison of each of
the release's tests, and for each shard the revlogperf commit it ran, the
day and how long it took. It is committed: a whole suite takes longer
than a session, and a machine's .cache does not outlive one. Its first
line describes the shards; each other line is one test (or case).

With ledgers as arguments, prints for each: shards done, tests compared,
same, differ, expected, skipped in both, and the shards still to run.
"""

import json
import os
import subprocess
import sys
import time

STATUSES = ('same', 'differs', 'expected')


def load(path):
    """(meta, {test: row}); an empty ledger where none is kept yet"""
    meta, rows = {'shards': {}}, {}
    try:
        with open(path) as fp:
            lines = [json.loads(line) for line in fp if line.strip()]
    except FileNotFoundError:
        return meta, rows
    if lines:
        meta = lines[0]
        rows = {row['test']: row for row in lines[1:]}
    return meta, rows


def save(path, meta, rows):
    """one line a test, in order: a new run's diff shows what changed"""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + '.tmp', 'w') as fp:
        fp.write(json.dumps(meta, sort_keys=True) + '\n')
        for test in sorted(rows):
            fp.write(json.dumps(rows[test], sort_keys=True) + '\n')
    os.replace(path + '.tmp', path)


def revision(directory):
    """the commit a run ran, '+' where the tree had changes"""
    try:
        git = ['git', '-C', directory]
        node = (
            subprocess.check_output(
                git + ['rev-parse', '--short', 'HEAD'],
                stderr=subprocess.DEVNULL,
            )
            .decode()
            .strip()
        )
        changed = subprocess.check_output(
            git + ['status', '--porcelain', '--untracked-files=no', '.'],
            stderr=subprocess.DEVNULL,
        )
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'
    return node + ('+' if changed.strip() else '')


def record(path, label, rows, seconds, commit, total, today=None):
    """keep a run's rows: each replaces the test's older one

    ``label`` is the shard (K/N) or the list a run ran; ``total`` the
    release's number of tests.
    """
    meta, kept = load(path)
    meta['tests'] = total
    meta['shards'][label] = {
        'commit': commit,
        'date': today or time.strftime('%Y-%m-%d'),
        'seconds': round(seconds),
        'tests': len({row['test'].split('#')[0] for row in rows}),
    }
    for row in rows:
        row = {**row, 'shard': label}
        if row['status'] == 'differs':
            row['lines'] = row.get('lines', [])[:20]
        kept[row['test']] = row
    save(path, meta, kept)


def next_shard(path, count):
    """the first shard of ``count`` that the ledger has no run of"""
    meta, _rows = load(path)
    for k in range(1, count + 1):
        if '%d/%d' % (k, count) not in meta['shards']:
            return '%d/%d' % (k, count)
    return None


def summarize(path):
    """one paragraph: what the ledger holds, and what is left to run"""
    meta, rows = load(path)
    counts = dict.fromkeys(STATUSES + ('skipped',), 0)
    for row in rows.values():
        if row['status'] == 'same' and row['plain'] == 'skip':
            counts['skipped'] += 1
        else:
            counts[row['status']] += 1
    shards = meta['shards']
    sizes = {label.split('/')[1] for label in shards if '/' in label}
    left = []
    for size in sizes:
        n = int(size)
        left += [k for k in range(1, n + 1) if '%d/%d' % (k, n) not in shards]
    tested = {row['test'].split('#')[0] for row in rows.values()}
    seconds = sum(s['seconds'] for s in shards.values())
    commits = sorted({s['commit'] for s in shards.values()})
    lines = [
        '%s: %d of %s tests (%d results): %d same, %d differ, %d expected,'
        ' %d skipped in both; %d s in %d runs, at %s'
        % (
            os.path.basename(path),
            len(tested),
            meta.get('tests', '?'),
            len(rows),
            counts['same'],
            counts['differs'],
            counts['expected'],
            counts['skipped'],
            seconds,
            len(shards),
            ', '.join(commits) or 'no commit',
        )
    ]
    if left:
        lines.append(
            '  shards to run: %s of %s' % (compress(left), '/'.join(sizes))
        )
    for test, row in sorted(rows.items()):
        if row['status'] == 'differs':
            lines.append(
                '  differs: %s (%s, %s)'
                % (test, row['plain'], row['revlogperf'])
            )
    return '\n'.join(lines)


def compress(numbers):
    """1,2,3,5 -> 1-3,5"""
    spans = []
    for n in sorted(numbers):
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ','.join(str(a) if a == b else '%d-%d' % (a, b) for a, b in spans)


def main(argv=None):
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        sys.exit(__doc__.split('\n\n')[1].strip())
    for path in paths:
        print(summarize(path))
    return 0


if __name__ == '__main__':
    sys.exit(main())
