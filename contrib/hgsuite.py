#!/usr/bin/env python3
"""run Mercurial's own tests plainly and with revlogperf, and compare

    hgsuite.py --hg HG --tests-dir DIR --list FILE --extension PATH [-j N]
               [--timeout S]

Runs the tests named in FILE (those DIR has) with DIR's run-tests.py, once
plainly and once with ``--extra-config-opt extensions.revlogperf=PATH``,
prints each test's result under both, and exits 1 if any differs. A failure
is shown with a digest of its output: a test that fails in both runs is the
same only if it fails with the same output, and is listed, not hidden.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time


def read_list(path):
    with open(path) as fp:
        return [
            line.strip()
            for line in fp
            if line.strip() and not line.startswith('#')
        ]


def make_test_repo(args):
    """let the tests that need a Mercurial checkout ("test-repo") run

    test-contrib-perf.t is one; an empty repository in the sdist's root is
    enough for all of it but its check of perf.py against Mercurial's own
    history, which then fails the same way with and without revlogperf.
    """
    root = os.path.join(args.tests_dir, '..')
    if not os.path.isdir(os.path.join(root, '.hg')):
        subprocess.check_call([args.hg, 'init', root])


def run(args, tests, extra):
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
    ] + extra
    started = time.time()
    proc = subprocess.run(
        command + tests,
        cwd=args.tests_dir,
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
        result = entry['result']
        err = os.path.join(outdir, name + '.err')
        if result == 'failure' and os.path.exists(err):
            # two runs fail alike only with the same output
            with open(err, 'rb') as fp:
                result = 'failure %s' % hashlib.md5(fp.read()).hexdigest()[:6]
        results[name] = result
    return results, time.time() - started


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--hg', required=True)
    ap.add_argument('--tests-dir', required=True)
    ap.add_argument('--list', required=True)
    ap.add_argument('--extension', required=True)
    ap.add_argument('-j', '--jobs', type=int, default=2)
    # run-tests.py's 180 s default is too short for test-persistent-nodemap.t
    # and test-upgrade-repo.t on a busy 2-core machine: a timeout is not a
    # result
    ap.add_argument('--timeout', type=int, default=900)
    args = ap.parse_args(argv)
    # run-tests.py runs in the tests directory
    args.hg = os.path.abspath(args.hg)

    listed = read_list(args.list)
    tests = [
        t for t in listed if os.path.exists(os.path.join(args.tests_dir, t))
    ]
    missing = sorted(set(listed) - set(tests))
    if missing:
        print('not in this release: %s' % ' '.join(missing))
    make_test_repo(args)
    plain, plain_time = run(args, tests, [])
    extra = [
        '--extra-config-opt',
        'extensions.revlogperf=%s' % os.path.abspath(args.extension),
    ]
    with_ext, ext_time = run(args, tests, extra)

    # a test with cases is reported once per case, as test.t#case
    cases = sorted(
        set(plain) | set(with_ext),
        key=lambda name: (tests.index(name.split('#')[0]), name),
    )
    differ = 0
    print('%-55s %-14s %-14s' % ('test', 'plain', 'revlogperf'))
    for case in cases:
        a, b = plain.get(case, 'missing'), with_ext.get(case, 'missing')
        mark = '' if a == b else '   <-- differs'
        differ += a != b
        print('%-55s %-14s %-14s%s' % (case, a, b, mark))
    print(
        '%d tests, %d results; plain run %.0f s, revlogperf run %.0f s; '
        '%d differ' % (len(tests), len(cases), plain_time, ext_time, differ)
    )
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main())
