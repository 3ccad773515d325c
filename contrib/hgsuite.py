#!/usr/bin/env python3
"""run Mercurial's own tests plainly and with revlogperf, and compare

    hgsuite.py --hg HG --tests-dir DIR --extension PATH
               (--list FILE | --all [--shard K/N])
               [--profile defaults|forced] [--results DIR]
               [--expected FILE] [--pure] [--plain-where-needed]
               [-j N] [--timeout S]

Runs Mercurial's tests with DIR's run-tests.py, once plainly and once with
``--extra-config-opt extensions.revlogperf=PATH`` and the profile's
settings, and compares each test's result and output: a test is the same
when both pass, both are skipped, or both fail with the same output.

``--list FILE`` runs the tests named in FILE (those DIR has); ``--all``
runs every test of the release (``test-*.t`` and ``test-*.py``), or with
``--shard K/N`` every N-th of its tests and cases from the K-th, so that
N runs cover the suite. With ``--results DIR``, the plain results are kept in
DIR/plain.json and reused: they do not change when revlogperf does. Each
profile's comparison goes to DIR/PROFILE/shard-K-of-N.json.

``--record LEDGER`` keeps each test's comparison, and the commit and time
of its shard, in a committed ledger (see suiteledger.py); ``--shard
next/N`` then runs, of the first shard of N with a test or case the
ledger lacks, those it lacks.

Profiles: ``defaults`` is revlogperf as users get it; ``forced`` engages
every mechanism at any size (thresholds at 0, two data maps, a 32 KB walk
cache, filelog maps, and ``tests/testlib/forcegates.py`` for the gates no
setting reaches).

A difference listed in ``--expected FILE`` (by test, and a pattern for
each differing line) is counted apart; so is one where the outputs are
the same without the lines the patterns match (such a line, a race's
traceback, can move and take its neighbours into the diff). Exits 1 when
any other differs.

``--plain-where-needed`` runs plainly only the tests that did not pass
with revlogperf (and have no kept plain result): a test that passes
printed its .t file, which is core's output. This is how CI runs its
selection (tests/hg-suite-ci.txt) in half the time.
"""

import argparse
import compileall
import difflib
import functools
import hashlib
import importlib.util
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import suiteledger

HERE = os.path.dirname(os.path.abspath(__file__))
TESTLIB = os.path.join(HERE, '..', 'tests', 'testlib')

PROFILES = {
    'defaults': [],
    'forced': [
        'revlogperf.mmap-index-threshold=0',
        'revlogperf.mmap-data-threshold=0',
        # two maps: a command's third data file evicts one
        'revlogperf.mmap-data-budget=2',
        # tens of KB: walks evict, and keep checkpoints
        'revlogperf.walk-cache=32k',
        'revlogperf.mmap-filelogs=yes',
        'extensions.revlogperf-forcegates=%s'
        % os.path.abspath(os.path.join(TESTLIB, 'forcegates.py')),
    ],
}


def read_list(path):
    with open(path) as fp:
        return [
            line.strip()
            for line in fp
            if line.strip() and not line.startswith('#')
        ]


def all_tests(tests_dir):
    """every test of a release, as run-tests.py finds them"""
    return sorted(
        name
        for name in os.listdir(tests_dir)
        if name.startswith('test-')
        and (name.endswith('.t') or name.endswith('.py'))
    )


def all_cases(tests_dir):
    """every result of a release: each test, or each case of a test with
    cases, named as run-tests.py names them (test.t#case#case)

    Shards split these, not tests: test-copies-chain-merge.t's ten cases,
    six minutes each, made one shard of 32 tests take 25 minutes.
    """
    parse = run_tests_module(tests_dir).parsettestcases
    cases = []
    for test in all_tests(tests_dir):
        dimensions = parse(os.path.join(tests_dir, test))
        if not dimensions:
            cases.append(test)
            continue
        for names in itertools.product(*dimensions):
            cases.append('#'.join([test] + [n.decode() for n in names]))
    return cases


def shard(tests, spec):
    """the tests of shard ``K/N``: every N-th from the K-th"""
    k, n = (int(part) for part in spec.split('/'))
    if not 1 <= k <= n:
        raise SystemExit('--shard K/N needs 1 <= K <= N, not %s' % spec)
    return tests[k - 1 :: n]


def read_expected(path):
    """{test: [(pattern, reason)]} from an expected-differences file

    Each entry is ``TEST<tab>PATTERN``, a regular expression that a
    differing line (``+`` or ``-`` and the line) must match, under a
    ``# why:`` comment that gives its reason; every entry needs one.
    """
    expected = {}
    reason = None
    if not path:
        return expected
    with open(path) as fp:
        in_reason = False
        for number, line in enumerate(fp, 1):
            line = line.rstrip('\n')
            if line.startswith('# why:'):
                reason, in_reason = line[len('# why:') :].strip(), True
            elif line.startswith('#') and in_reason:
                reason += ' ' + line[1:].strip()  # the reason goes on
            elif line.strip() and not line.startswith('#'):
                in_reason = False
                test, _tab, pattern = line.partition('\t')
                if not pattern or not reason:
                    raise SystemExit(
                        '%s:%d: expected "TEST<tab>PATTERN" under a'
                        ' "# why:" line' % (path, number)
                    )
                # one entry may name several tests: TEST,TEST<tab>PATTERN
                for name in test.split(','):
                    expected.setdefault(name, []).append(
                        (re.compile(pattern), reason)
                    )
    return expected


def belongs(case, test):
    """is result ``case`` (test.t or test.t#case...) one of ``test``'s?

    A listed test may name one case of its (test-amend.t#obsstore-on),
    run-tests.py's way.
    """
    return case == test or case.startswith(test + '#')


def test_file(test):
    return test.split('#')[0]


@functools.lru_cache()
def run_tests_module(tests_dir):
    """the release's run-tests.py as a module, for its own reading of
    tests (its ``parsettestcases``, the same from 6.3 to 7.2)"""
    path = os.path.join(tests_dir, 'run-tests.py')
    spec = importlib.util.spec_from_file_location('run_tests', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def in_release(tests_dir, test):
    """does this release have ``test`` (or test.t#case...)?

    A list may name one test's case under each release's names (6.3's
    test-share.t#safe is 7.2's test-share.t#safe#fncache).
    """
    path = os.path.join(tests_dir, test_file(test))
    if not os.path.exists(path):
        return False
    names = [n.encode() for n in test.split('#')[1:]]
    if not names:
        return True
    dimensions = run_tests_module(tests_dir).parsettestcases(path)
    return len(names) == len(dimensions) and all(
        name in dimension for name, dimension in zip(names, dimensions)
    )


def make_test_repo(tests_dir, hg):
    """let the tests that need a Mercurial checkout ("test-repo") run

    test-contrib-perf.t is one; an empty repository in the sdist's root is
    enough for all of it but its check of perf.py against Mercurial's own
    history, which then fails the same way with and without revlogperf.
    """
    root = os.path.join(tests_dir, '..')
    if not os.path.isdir(os.path.join(root, '.hg')):
        subprocess.check_call([hg, 'init', root])


def test_environment():
    """the environment for run-tests.py: Mercurial importable by the
    helper scripts tests run as ``python3`` (get-with-headers.py)

    run-tests.py puts a ``python3`` symlink to this Python first on PATH,
    and a symlink to a venv's Python starts outside the venv: without
    this, every test that fetches a page over HTTP fails the same way
    with and without revlogperf, and compares nothing.
    """
    env = dict(os.environ)
    spec = importlib.util.find_spec('mercurial')
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        env['PYTHONPATH'] = os.pathsep.join(
            p for p in (site, env.get('PYTHONPATH')) if p
        )
    return env


def run(args, tests, extra):
    """{test or test#case: (result, output)}, and the seconds it took

    ``output`` is the test's output where it failed (its .err), else None.
    """
    if not tests:
        return {}, 0.0
    outdir = tempfile.mkdtemp(prefix='hgsuite-')
    command = [
        sys.executable,
        'run-tests.py',
        '--with-hg',
        args.hg,
        '-j',
        str(args.jobs),
        '--timeout',
        str(args.timeout),
        '--json',
        '--outputdir',
        outdir,
    ]
    if args.pure:
        command.append('--pure')
    for option in extra:
        command += ['--extra-config-opt', option]
    started = time.time()
    proc = subprocess.run(
        command + tests,
        cwd=args.tests_dir,
        env=test_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        with open(os.path.join(outdir, 'report.json')) as fp:
            report = json.loads(fp.read().split('=', 1)[1])
    except FileNotFoundError:
        sys.exit('run-tests.py ran no test:\n%s' % proc.stderr.decode())
    results = {}
    for name, entry in report.items():
        result, output = entry['result'], None
        err = os.path.join(outdir, name + '.err')
        if result == 'failure' and os.path.exists(err):
            with open(err, 'rb') as fp:
                output = fp.read().decode('utf-8', 'replace')
        results[name] = (result, output)
    return results, time.time() - started


def verdict(result, output):
    """what two runs must share: the result, and a failure's output"""
    if output is None:
        return result
    return '%s %s' % (result, hashlib.md5(output.encode()).hexdigest()[:6])


def differing_lines(tests_dir, case, plain, other, patterns=()):
    """the lines by which ``other``'s output differs from ``plain``'s
    (a passing test's output is its .t file), leaving out those that
    ``patterns`` let come and go (``plain``'s lines are matched after
    a "-", ``other``'s after a "+")"""

    def output(entry, sign):
        result, text = entry
        if text is None:
            path = os.path.join(tests_dir, test_file(case))
            with open(path, encoding='utf-8') as fp:
                text = fp.read()
        return [
            line
            for line in text.splitlines()
            if not any(p.search(sign + line) for p, _why in patterns)
        ]

    diff = difflib.unified_diff(output(plain, '-'), output(other, '+'), n=0)
    return [
        line
        for line in diff
        if line[:1] in '+-' and not line.startswith(('+++', '---'))
    ]


def explained(lines, patterns):
    """the reasons, if every differing line matches an expected pattern"""
    reasons = set()
    for line in lines:
        found = [why for pattern, why in patterns if pattern.search(line)]
        if not found:
            return None
        reasons.add(found[0])
    return sorted(reasons)


def plain_needed(tests, other, known):
    """the tests to run plainly, and the plain results the others imply

    A test whose every case passed with revlogperf gave its .t file's
    output, core's own; the rest, failures and skips alike, must be run.
    """
    todo, implied = [], {}
    for test in tests:
        if test in known:
            continue
        cases = {c: r for c, r in other.items() if belongs(c, test)}
        if cases and all(result == 'success' for result, _ in cases.values()):
            implied.update((case, ('success', None)) for case in cases)
        else:
            todo.append(test)
    return todo, implied


def load_plain(path):
    try:
        with open(path) as fp:
            return {k: tuple(v) for k, v in json.load(fp).items()}
    except FileNotFoundError:
        return {}


def save_json(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + '.tmp', 'w') as fp:
        json.dump(data, fp, indent=1, sort_keys=True)
    os.replace(path + '.tmp', path)


def compare(args, tests, plain, other, expected):
    """one row per test (or case), and the counts"""

    def position(case):
        return [belongs(case, t) for t in tests].index(True), case

    cases = sorted(
        {
            c
            for c in set(other) | set(plain)
            if any(belongs(c, t) for t in tests)
        },
        key=position,
    )
    rows = []
    counts = {'same': 0, 'differ': 0, 'expected': 0, 'skipped': 0}
    # a test run-tests.py gave no result for (a case this release lacks)
    for test in tests:
        if not any(belongs(c, test) for c in cases):
            rows.append(
                {
                    'test': test,
                    'plain': 'missing',
                    'revlogperf': 'missing',
                    'status': 'differs',
                    'lines': [],
                }
            )
            counts['differ'] += 1
    for case in cases:
        a = plain.get(case, ('missing', None))
        b = other.get(case, ('missing', None))
        row = {'test': case, 'plain': verdict(*a), 'revlogperf': verdict(*b)}
        if row['plain'] == row['revlogperf']:
            row['status'] = 'same'
            if a[0] == 'skip':
                counts['skipped'] += 1
            else:
                counts['same'] += 1
        else:
            patterns = expected.get(test_file(case), [])
            lines = differing_lines(args.tests_dir, case, a, b)
            reasons = explained(lines, patterns)
            # a line that comes and goes in core too (a race's traceback)
            # can take its neighbours into the diff: without such lines,
            # the outputs must be the same
            if lines and not reasons and patterns:
                rest = differing_lines(args.tests_dir, case, a, b, patterns)
                if not rest:
                    reasons = sorted(
                        {w for p, w in patterns for l in lines if p.search(l)}
                    )
            if lines and reasons:
                row['status'], row['reasons'] = 'expected', reasons
                counts['expected'] += 1
            else:
                row['status'], row['lines'] = 'differs', lines[:200]
                counts['differ'] += 1
        rows.append(row)
    return rows, counts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--hg', required=True)
    ap.add_argument('--tests-dir', required=True)
    ap.add_argument('--extension', required=True)
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument('--list')
    which.add_argument('--all', action='store_true')
    ap.add_argument('--shard', default='1/1', help='K/N (with --all)')
    ap.add_argument('--profile', choices=sorted(PROFILES), default='defaults')
    ap.add_argument('--results', help='keep results in this folder')
    ap.add_argument(
        '--record', metavar='LEDGER', help='keep the comparison in LEDGER'
    )
    ap.add_argument('--expected', help='the expected differences')
    ap.add_argument(
        '--pure', action='store_true', help='the pure module policy'
    )
    ap.add_argument(
        '--plain-where-needed',
        action='store_true',
        help='run plainly only what fails or skips with revlogperf',
    )
    ap.add_argument('-j', '--jobs', type=int, default=2)
    # run-tests.py's 180 s default is too short for test-persistent-nodemap.t
    # and test-upgrade-repo.t on a busy 2-core machine: a timeout is not a
    # result
    ap.add_argument('--timeout', type=int, default=900)
    args = ap.parse_args(argv)
    # run-tests.py runs in the tests directory
    args.hg = os.path.abspath(args.hg)

    following = args.all and args.shard.startswith('next/')
    if following and not args.record:
        raise SystemExit('--shard next/N needs --record LEDGER')
    # the release's tests and cases: parsed once, ~900 files
    every = all_cases(args.tests_dir) if args.all or args.record else []
    if following:
        count = int(args.shard.split('/')[1])
        shards = [
            shard(every, '%d/%d' % (k, count)) for k in range(1, count + 1)
        ]
        args.shard, tests = suiteledger.next_shard(args.record, shards)
        if args.shard is None:
            print('%s has every result of the release' % args.record)
            return 0
    elif args.all:
        tests = shard(every, args.shard)
    else:
        listed = read_list(args.list)
        tests = [t for t in listed if in_release(args.tests_dir, t)]
        missing = sorted(set(listed) - set(tests))
        if missing:
            print('not in this release: %s' % ' '.join(missing))
    expected = read_expected(args.expected)
    make_test_repo(args.tests_dir, args.hg)
    # each hg a test runs loads them: where PYTHONDONTWRITEBYTECODE is set,
    # from source every time, 10% of a test's CPU time
    compileall.compile_dir(os.path.abspath(args.extension), quiet=1)
    compileall.compile_dir(TESTLIB, quiet=1)

    plain_path = args.results and os.path.join(args.results, 'plain.json')
    plain = load_plain(plain_path) if plain_path else {}
    # a test with cases is kept as test.t#case
    known = {t for t in tests if any(belongs(c, t) for c in plain)}
    extra = [
        'extensions.revlogperf=%s' % os.path.abspath(args.extension)
    ] + PROFILES[args.profile]
    other, other_time = run(args, tests, extra)
    if args.plain_where_needed:
        todo, implied = plain_needed(tests, other, known)
    else:
        todo, implied = [t for t in tests if t not in known], {}
    found, plain_time = run(args, todo, [])
    plain.update(found)
    if plain_path and found:
        save_json(plain_path, plain)
    # implied results are not kept: the next run may not imply them
    plain.update(implied)

    rows, counts = compare(args, tests, plain, other, expected)
    print('%-55s %-14s %-14s' % ('test', 'plain', 'revlogperf'))
    for row in rows:
        mark = {'same': '', 'expected': '   (expected)'}.get(
            row['status'], '   <-- differs'
        )
        print(
            '%-55s %-14s %-14s%s'
            % (row['test'], row['plain'], row['revlogperf'], mark)
        )
        for line in row.get('lines', [])[:20]:
            print('      %s' % line)
    summary = (
        '%d tests run (%d results, %s, %s): %d same, %d differ, '
        '%d expected, %d skipped in both; plain run %.0f s (%d tests), '
        'revlogperf run %.0f s'
        % (
            len(tests),
            len(rows),
            args.profile,
            'shard %s' % args.shard if args.all else args.list,
            counts['same'],
            counts['differ'],
            counts['expected'],
            counts['skipped'],
            plain_time,
            len(todo),
            other_time,
        )
    )
    if args.results:
        if args.all:
            name = 'shard-%s-of-%s.json' % tuple(args.shard.split('/'))
        else:
            name = os.path.splitext(os.path.basename(args.list))[0] + '.json'
        save_json(
            os.path.join(args.results, args.profile, name),
            {'rows': rows, 'counts': counts, 'summary': summary},
        )
    if args.record:
        suiteledger.record(
            args.record,
            args.shard if args.all else os.path.basename(args.list),
            rows,
            plain_time + other_time,
            suiteledger.revision(args.extension),
            len({test_file(case) for case in every}),
            len(every),
        )
    print(summary)
    return 1 if counts['differ'] else 0


if __name__ == '__main__':
    sys.exit(main())
