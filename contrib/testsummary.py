#!/usr/bin/env python3
"""one line per release, and one for all, counting every step of make test

    testsummary.py RESULTS VERSION... [--t-c-only VERSION...]

RESULTS holds the output of each step: style.log (make check), and per
release pytest-VERSION-c.log, pytest-VERSION-py.log (the two module
policies), t-VERSION-c.log and t-VERSION-pure.log (run-tests.py), and
t-VERSION-chg.log where the .t tests ran through chg, and
suite-VERSION-forced.log where CI's selection of Mercurial's own tests ran
(contrib/hgsuite.py: a test the same as core's passes, one that differs
fails). A step whose output is missing or has no result counts as one
failure; the releases after ``--t-c-only`` ran no .t test with the pure
modules (CI's middle releases).
"""

import argparse
import os
import re
import sys

PYTEST = re.compile(r'(\d+) (passed|failed|error|errors|skipped)\b')
RUN_TESTS = re.compile(r'# Ran (\d+) tests, (\d+) skipped, (\d+) failed\.')
HG_SUITE = re.compile(
    r': (\d+) same, (\d+) differ, (\d+) expected, (\d+) skipped in both;'
)


def pytest_counts(text):
    """(passed, failed, skipped) from pytest's closing line"""
    lines = [line for line in text.splitlines() if PYTEST.search(line)]
    if not lines:
        return None
    counts = {kind: int(n) for n, kind in PYTEST.findall(lines[-1])}
    failed = counts.get('failed', 0) + counts.get('error', 0)
    failed += counts.get('errors', 0)
    return counts.get('passed', 0), failed, counts.get('skipped', 0)


def run_tests_counts(text):
    """(passed, failed, skipped) from run-tests.py's closing line"""
    found = RUN_TESTS.findall(text)
    if not found:
        return None
    ran, skipped, failed = (int(n) for n in found[-1])
    return ran - failed, failed, skipped


def hg_suite_counts(text):
    """(passed, failed, skipped) from hgsuite.py's summary: a test the
    same as core's, or differing as expected, passes"""
    found = HG_SUITE.findall(text)
    if not found:
        return None
    same, differ, expected, skipped = (int(n) for n in found[-1])
    return same + expected, differ, skipped


def read(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as fp:
            return fp.read()
    except FileNotFoundError:
        return ''


def describe(counts):
    if counts is None:
        return 'no result'
    passed, failed, skipped = counts
    text = '%d passed' % passed
    if failed:
        text += ', %d failed' % failed
    if skipped:
        text += ', %d skipped' % skipped
    return text


def main(results, versions, t_c_only=()):
    # passed, failed, skipped
    total = [0, 0, 0]

    def add(counts):
        """count a step's results; a step without any is one failure"""
        for i, n in enumerate(counts or (0, 1, 0)):
            total[i] += n

    style = read(os.path.join(results, 'style.log'))
    style_ok = 'style: ok' in style
    if not style_ok:
        add(None)
    lines = [
        'style (black, check-code, pyflakes): %s'
        % ('ok' if style_ok else 'failed')
    ]
    for version in versions:
        parts = []
        for step, parse, policies in (
            ('pytest', pytest_counts, ('c', 'py')),
            (
                '.t',
                run_tests_counts,
                ('c',) if version in t_c_only else ('c', 'pure'),
            ),
        ):
            described = []
            chg_log = os.path.join(results, 't-%s-chg.log' % version)
            if step == '.t' and os.path.exists(chg_log):
                policies += ('chg',)  # the newest release only
            for policy in policies:
                name = '%s-%s-%s.log' % (
                    't' if step == '.t' else step,
                    version,
                    policy,
                )
                counts = parse(read(os.path.join(results, name)))
                add(counts)
                described.append('%s %s' % (policy, describe(counts)))
            parts.append('%s %s' % (step, ', '.join(described)))
        suite_log = os.path.join(results, 'suite-%s-forced.log' % version)
        if os.path.exists(suite_log):  # CI's releases only
            counts = hg_suite_counts(read(suite_log))
            add(counts)
            parts.append('hg suite forced %s' % describe(counts))
        lines.append('Mercurial %s: %s' % (version, '; '.join(parts)))
    print('\n'.join(lines))
    print('%d passed, %d failed, %d skipped' % tuple(total))
    return 1 if total[1] else 0


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('results')
    ap.add_argument('versions', nargs='+')
    ap.add_argument('--t-c-only', nargs='*', default=[])
    args = ap.parse_args()
    sys.exit(main(args.results, args.versions, args.t_c_only))
