#!/usr/bin/env python3
"""hgweb under gunicorn, many readers and one writer, with and without
revlogperf

    bench_server.py REPO [--requests N] [--clients N] [--workers N]
                         [--only Mercurial|+revlogperf] [--rounds N]
                         [--no-upgrade] [--seed N] [--targets]
                         [--config S.N=V] [--core-config S.N=V] [--json FILE]
    bench_server.py --report FILE... [--targets]

For each configuration (Mercurial alone, then with revlogperf, alternating
--rounds times), a copy of REPO is served by Mercurial's hgweb WSGI
application under gunicorn (pre-fork workers, 127.0.0.1 only), as an
operator would set it up. --clients threads send at least --requests
requests over /log, /shortlog, /graph, /rev/N, /raw-file/N/PATH and
/annotate/N/PATH, N and PATH drawn at random (fixed seed) from the whole
history and from the writer's changesets. Meanwhile a writer, in its own
processes with the same configuration, pushes three changesets, strips
two, pushes two more, rolls that push back and runs ``debugupgraderepo
--optimize re-delta-all --run``; the load goes on until the writer is done,
and for a tenth of the requests after.

A run fails (exit status 1) on:

- a failed request, or an answer that is not what a fresh ``hg serve``
  without revlogperf gives for the state it was served in (each state the
  writer leaves is copied; a request that overlapped a step may show
  either state, and one that overlapped a strip, the rollback or the
  upgrade may be refused, as core does, never answered wrongly);
- a worker killed, exiting non-zero or restarted, or an [ERROR] line in
  gunicorn's log;
- a worker holding more data file maps than ``revlogperf.mmap-data-budget``,
  more descriptors on data files than the budget and the one being read, or
  more descriptors besides the store's than core's peak and one;
- revlogperf refusing more requests than core, beyond a margin (those
  that overlapped an upgrade's store swap aside: core refuses all of them);
- ``hg verify`` not clean at the end;

and with --targets also where a page's p95 is above core's beyond what
resampling the rounds and their requests allows (with 3 rounds, a run
where revlogperf changes nothing fails in about 5% of runs), or the
workers' total PSS above core's (printed as FAIL lines in any case).

Reported: per page, p50 and p95 latency of the requests answered (a
refused one is answered at once) and the median CPU time a worker spent
on one (its work, without the wait in the queue that most of the latency
is on a loaded machine); per worker, USS, PSS and RSS at the end
of the load, and the peak of descriptors and of mapped store files (data,
index, deleted; distinct files), sampled every 20 ms and after each
request. With both configurations, a last table puts them side by side.

--report reads the --json files of earlier runs (the same repository,
command and code) and puts all their rounds side by side, with the same
checks: more rounds than one run can take in a few minutes narrow the
ranges of the p95 ratios.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchserver import (  # noqa: E402
    hgprocess,
    load as loadmod,
    oracle,
    report as reportmod,
    sampler as samplermod,
    writer as writermod,
)

APP = '''\
config = %(repo)r
from mercurial import demandimport
demandimport.enable()
from mercurial.hgweb import hgweb
application = hgweb(config.encode())
'''
"""the operator's WSGI script, as Mercurial's contrib/hgweb.wsgi has it"""


def data_budget(settings):
    """the revlogperf.mmap-data-budget the served configuration has"""
    for setting in settings:
        key, _eq, value = setting.partition('=')
        if key == 'revlogperf.mmap-data-budget':
            return int(value)
    sys.path.insert(0, os.path.join(HERE, '..'))
    from hgext3rd.revlogperf import configitems

    return configitems.configtable[b'revlogperf'][b'mmap-data-budget'].default


def start_gunicorn(work, repo, workers, env):
    """(the gunicorn master, its port, its error log, its peaks directory)"""
    port = hgprocess.free_port()
    with open(os.path.join(work, 'hgwebapp.py'), 'w') as fp:
        fp.write(APP % {'repo': repo})
    conf = os.path.join(work, 'gunicorn.conf.py')
    errorlog = os.path.join(work, 'gunicorn.log')
    peaks = os.path.join(work, 'peaks')
    os.makedirs(peaks)
    with open(conf, 'w') as fp:
        fp.write(samplermod.gunicorn_conf(port, workers, errorlog, peaks))
    python = os.path.join(os.path.dirname(env['HG']), 'python')
    server = subprocess.Popen(
        [python, '-m', 'gunicorn', '-c', conf, '--chdir', work]
        + ['hgwebapp:application'],
        env=env['ENV'],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    hgprocess.wait_for_port(port, server)
    return server, port, errorlog, peaks


def stop(server):
    try:
        os.killpg(server.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def run_config(config, round_, args, hg_path, repo, tmp, urls, source, bodies):
    """serve a copy of REPO under ``config``, load it, write meanwhile"""
    work = os.path.join(tmp, '%s-%d' % (config.strip('+'), round_))
    os.makedirs(work)
    hgrc = os.path.join(work, 'hgrc')
    with_extension = config == '+revlogperf'
    settings = args.config if with_extension else args.core_config
    hgprocess.write_hgrc(hgrc, with_extension, settings)
    hg = hgprocess.Hg(hg_path, hgrc)
    served = os.path.join(work, 'repo')
    writermod.snapshot(repo, served)
    server, port, errorlog, peaks_dir = start_gunicorn(
        work, served, args.workers, {'HG': hg_path, 'ENV': hg.env}
    )
    src, nodes, _path = source
    try:
        writer = writermod.Writer(
            writermod.steps(hg, src, nodes, served, args.upgrade),
            served,
            work,
            len(urls),
            tail=max(args.clients, len(urls) // 10),
        )
        writer.start_state()
        load = loadmod.Load(
            port, urls, args.clients, bodies, more=lambda: writer.more(load)
        )
        poller = samplermod.Sampler(server.pid)
        poller.start()
        started = time.monotonic()
        threads = load.threads() + [writer.thread(load)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        poller.stop()
        workers = samplermod.worker_pids(server.pid)
        memory = {pid: samplermod.smaps_rollup(pid) for pid in workers}
        with open(errorlog) as fp:
            log = fp.read()  # what happened before we stop it
    finally:
        stop(server)
    try:
        hg('-R', served, 'verify', '-q')
        verify = 'ok'
    except subprocess.CalledProcessError as exc:
        verify = (exc.stdout + exc.stderr).decode()
    return {
        'config': config,
        'started': started,
        'elapsed': elapsed,
        'results': load.results,
        'states': writer.states,
        'writer_error': writer.error,
        'writer_done': writer.finished_at,
        'lockouts': writer.lockouts,
        'log': log,
        'booted': log.count('Booting worker'),
        'workers': args.workers,
        'memory': memory,
        'peaks': samplermod.merged_peaks(poller.peaks, peaks_dir),
        'cpu': samplermod.cpu_by_page(peaks_dir),
        'budget': data_budget(settings) if with_extension else None,
        'verify': verify,
    }


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('repo', nargs='?')
    ap.add_argument('--requests', type=int, default=2000)
    ap.add_argument('--clients', type=int, default=8)
    ap.add_argument('--workers', type=int, default=4)
    ap.add_argument(
        '--only', choices=hgprocess.CONFIGS, help='one configuration'
    )
    ap.add_argument(
        '--rounds', type=int, default=3, help='runs of each, alternating'
    )
    ap.add_argument('--no-upgrade', dest='upgrade', action='store_false')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument(
        '--targets',
        action='store_true',
        help='fail where latency or memory misses its target, too',
    )
    ap.add_argument(
        '--config',
        action='append',
        default=[],
        metavar='SECTION.NAME=VALUE',
        help='a setting for the runs with revlogperf (repeatable)',
    )
    ap.add_argument(
        '--core-config',
        action='append',
        default=[],
        metavar='SECTION.NAME=VALUE',
        help='a setting for the runs without revlogperf (repeatable)',
    )
    ap.add_argument('--json', help='write the figures here')
    ap.add_argument(
        '--verbose',
        action='store_true',
        help="show the workers' tracebacks of a run that passed too",
    )
    ap.add_argument(
        '--report',
        nargs='+',
        metavar='FILE',
        help='compare the rounds of earlier runs\' --json files instead',
    )
    args = ap.parse_args(argv)
    reportmod.VERBOSE = args.verbose
    if (args.repo is None) == (args.report is None):
        ap.error('give a repository, or --report and the files to compare')
    return args


def report_runs(paths, targets):
    """put the rounds of earlier runs side by side: the exit status"""
    figures = []
    for path in paths:
        with open(path) as fp:
            figures.extend(json.load(fp))
    for config in hgprocess.CONFIGS:
        print(
            '%s: %d rounds'
            % (config, sum(1 for f in figures if f['config'] == config))
        )
    bounds, speed = reportmod.compare(figures)
    failed = not all(f['passed'] for f in figures)
    return 1 if failed or bounds or (targets and speed) else 0


def main(argv=None):
    args = parse_args(argv)
    if args.report:
        return report_runs(args.report, args.targets)
    hg_path = os.path.join(os.path.dirname(sys.executable), 'hg')
    repo = os.path.abspath(args.repo)
    tmp = tempfile.mkdtemp(prefix='bench-server-')
    started = time.monotonic()
    ok = True
    figures = []
    try:
        plain = os.path.join(tmp, 'hgrc-plain')
        hgprocess.write_hgrc(plain, False)
        hg = hgprocess.Hg(hg_path, plain)
        source = writermod.prepare_source(hg, repo, tmp)
        urls = loadmod.plan_requests(
            hg,
            repo,
            args.requests,
            random.Random(args.seed),
            writer=(source[1], source[2]),
        )
        bodies = os.path.join(tmp, 'bodies')
        os.mkdir(bodies)
        configs = [args.only] if args.only else list(hgprocess.CONFIGS)

        def progress(round_, config, doing):
            print(
                'round %d/%d, %s: %s (%d s)'
                % (
                    round_ + 1,
                    args.rounds,
                    config,
                    doing,
                    time.monotonic() - started,
                ),
                file=sys.stderr,
                flush=True,
            )

        for round_ in range(args.rounds):
            # alternate: the machine's noise hits both alike
            for config in configs if round_ % 2 == 0 else configs[::-1]:
                progress(round_, config, 'serving and loading')
                run = run_config(
                    config,
                    round_,
                    args,
                    hg_path,
                    repo,
                    tmp,
                    urls,
                    source,
                    bodies,
                )
                progress(round_, config, 'checking the answers')
                answers = oracle.references(hg_path, run, 2, bodies)
                config_ok, data = reportmod.report(
                    run, answers, bodies, *oracle.check(run, answers, bodies)
                )
                ok = ok and config_ok
                data['round'] = round_ + 1
                figures.append(data)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.only:
        bounds, speed = reportmod.compare(figures)
        ok = ok and not bounds and not (args.targets and speed)
    print('harness: %.0f s' % (time.monotonic() - started))
    if args.json:
        with open(args.json, 'w') as fp:
            json.dump(figures, fp, indent=1)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
