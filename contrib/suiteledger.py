#!/usr/bin/env python3
"""the kept record of Mercurial's suite run with revlogperf, shard by shard

    suiteledger.py LEDGER...

A ledger (tests/hg-suite-results/RELEASE-POLICY-PROFILE.jsonl) holds, for
one release, module policy and profile, the latest comparison of each of
the release's tests, and for each shard the revlogperf commit it ran, the
day and how long it took. It is committed: a whole suite takes longer
than a session, and a machine's .cache does not outlive one. Its first
line describes the shards; each other line is one test (or case).

With ledgers as arguments, prints for each: tests and results compared
(of the release's), same, differ, expected, skipped in both, and the
time and commits of the runs.
"""

import json
import os
import subprocess
import sys
import time

STATUSES = ('same', 'differs', 'expected')


def test_of(row):
    """the test file a row (test.t or test.t#case...) is a result of"""
    return row['test'].split('#')[0]


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


def record(path, label, rows, seconds, commit, tests, results, today=None):
    """keep a run's rows: each replaces the test's older one

    ``label`` is the shard (K/N) or the list a run ran; ``tests`` and
    ``results`` the release's numbers of tests and of tests and cases.
    """
    meta, kept = load(path)
    meta['tests'], meta['results'] = tests, results
    meta['shards'][label] = {
        'commit': commit,
        'date': today or time.strftime('%Y-%m-%d'),
        'seconds': round(seconds),
        'tests': len({test_of(row) for row in rows}),
    }
    for row in rows:
        row = {**row, 'shard': label}
        if row['status'] == 'differs':
            row['lines'] = row.get('lines', [])[:20]
        kept[row['test']] = row
    save(path, meta, kept)


def next_shard(path, shards):
    """the first of ``shards`` (lists of tests and cases) with one the
    ledger lacks, as K/N, and those it lacks; (None, []) when none"""
    _meta, rows = load(path)
    for k, shard in enumerate(shards, 1):
        missing = [case for case in shard if case not in rows]
        if missing:
            return '%d/%d' % (k, len(shards)), missing
    return None, []


def summarize(path):
    """one paragraph: what the ledger holds, and any result that differs"""
    meta, rows = load(path)
    counts = dict.fromkeys(STATUSES + ('skipped',), 0)
    for row in rows.values():
        if row['status'] == 'same' and row['plain'] == 'skip':
            counts['skipped'] += 1
        else:
            counts[row['status']] += 1
    shards = meta['shards']
    tested = {test_of(row) for row in rows.values()}
    seconds = sum(s['seconds'] for s in shards.values())
    commits = sorted({s['commit'] for s in shards.values()})
    lines = [
        '%s: %d of %s tests, %d of %s results: %d same, %d differ,'
        ' %d expected, %d skipped in both; %d s in %d runs, at %s'
        % (
            os.path.basename(path),
            len(tested),
            meta.get('tests', '?'),
            len(rows),
            meta.get('results', '?'),
            counts['same'],
            counts['differs'],
            counts['expected'],
            counts['skipped'],
            seconds,
            len(shards),
            ', '.join(commits) or 'no commit',
        )
    ]
    for test, row in sorted(rows.items()):
        if row['status'] == 'differs':
            lines.append(
                '  differs: %s (%s, %s)'
                % (test, row['plain'], row['revlogperf'])
            )
    return '\n'.join(lines)


def main(argv=None):
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        sys.exit(__doc__.split('\n\n')[1].strip())
    for path in paths:
        print(summarize(path))
    return 0


if __name__ == '__main__':
    sys.exit(main())
