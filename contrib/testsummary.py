#!/usr/bin/env python3
"""one line per release, and one for all, counting every step of make test

    testsummary.py RESULTS VERSION...

RESULTS holds the output of each step: style.log (make check), and per
release pytest-VERSION-c.log, pytest-VERSION-py.log (the two module
policies), t-VERSION-c.log and t-VERSION-pure.log (run-tests.py), and
t-VERSION-chg.log where the .t tests ran through chg. A step whose output
is missing or has no result counts as one failure.
"""

import os
import re
import sys

PYTEST = re.compile(r'(\d+) (passed|failed|error|errors|skipped)\b')
RUN_TESTS = re.compile(r'# Ran (\d+) tests, (\d+) skipped, (\d+) failed\.')


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


def main(results, versions):
    total_passed = total_failed = total_skipped = 0
    style = read(os.path.join(results, 'style.log'))
    style_ok = 'style: ok' in style
    if not style_ok:
        total_failed += 1
    lines = [
        'style (black, check-code, pyflakes): %s'
        % ('ok' if style_ok else 'failed')
    ]
    for version in versions:
        parts = []
        for step, parse, policies in (
            ('pytest', pytest_counts, ('c', 'py')),
            ('.t', run_tests_counts, ('c', 'pure')),
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
                if counts is None:
                    total_failed += 1
                else:
                    total_passed += counts[0]
                    total_failed += counts[1]
                    total_skipped += counts[2]
                described.append('%s %s' % (policy, describe(counts)))
            parts.append('%s %s' % (step, ', '.join(described)))
        lines.append('Mercurial %s: %s' % (version, '; '.join(parts)))
    print('\n'.join(lines))
    print(
        '%d passed, %d failed, %d skipped'
        % (total_passed, total_failed, total_skipped)
    )
    return 1 if total_failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2:]))
