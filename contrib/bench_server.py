#!/usr/bin/env python3
"""hgweb under gunicorn, many readers and one writer, with and without
revlogperf

    bench_server.py REPO [--requests N] [--clients N] [--workers N]
                         [--only Mercurial|+revlogperf] [--pool N]
                         [--no-upgrade] [--seed N] [--json FILE]

For each configuration (Mercurial alone, then with revlogperf), a copy of
REPO is served by Mercurial's hgweb WSGI application under gunicorn (pre-fork
workers, 127.0.0.1 only), as an operator would set it up, and clients send a
bounded load: --requests requests from --clients threads over /log,
/shortlog, /graph, /rev/N, /raw-file/N/PATH and /annotate/N/PATH, N and PATH
drawn at random (fixed seed) from REPO's history. Meanwhile a writer, in its
own processes with the same configuration, pushes three changesets, strips
two, pushes two more, rolls that push back and runs ``debugupgraderepo
--optimize re-delta-all --run`` once.

Checks, for each configuration:

- no failed request, and no worker killed by a signal (gunicorn's log);
- every answer byte-identical to what a fresh ``hg serve`` without
  revlogperf gives for the repository as it was: each state the writer
  leaves is copied, and an answer must match the state it was served in
  (either one, for a request that overlapped a writer's step); a request
  that overlapped a strip, the rollback or the upgrade may be refused (an
  HTTP error, or a dropped connection: a reader that loaded the index
  before a file was shortened reads past the end of the data file after,
  and core drops requests while the upgrade swaps the store), never
  answered wrongly; those are counted apart, as are answers
  during a step that show another state's branch heads or phases (hgweb
  reads them from files the writer rewrites: core does it too);
- ``hg verify`` clean at the end.

Reported: per page, p50 and p95 latency; per worker, USS at the end of the
load and the peak of open file descriptors and of mapped store files (taken
after every request, by a gunicorn hook); the workers' total PSS. The exit
status is 1 when a check fails. With both configurations, a last table
puts them side by side.
"""

import argparse
import collections
import difflib
import hashlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXTENSION = os.path.abspath(os.path.join(HERE, '..', 'hgext3rd', 'revlogperf'))
CONFIGS = ('Mercurial', '+revlogperf')
PAGES = ('log', 'shortlog', 'graph', 'rev', 'raw-file', 'annotate')
# annotate walks a file's whole history: files changed more often than
# this are served as raw files only (mkrepo's --large-filelog)
ANNOTATE_MAX_CHANGES = 1000

# the operator's WSGI script, as Mercurial's contrib/hgweb.wsgi has it
APP = '''\
config = %(repo)r
from mercurial import demandimport
demandimport.enable()
from mercurial.hgweb import hgweb
application = hgweb(config.encode())
'''

# gunicorn's configuration: 127.0.0.1 only; after every request a worker
# notes its peak of open fds and of mapped store files
GUNICORN_CONF = '''\
import json, os
bind = '127.0.0.1:%(port)d'
workers = %(workers)d
timeout = 300
graceful_timeout = 10
accesslog = None
errorlog = %(errorlog)r
loglevel = 'info'
_peak = {'fds': 0, 'maps': 0}

def post_request(worker, req, environ, resp):
    fds = len(os.listdir('/proc/self/fd'))
    with open('/proc/self/maps') as fp:
        maps = sum(1 for line in fp if '/.hg/store/' in line)
    if fds > _peak['fds'] or maps > _peak['maps']:
        _peak['fds'] = max(fds, _peak['fds'])
        _peak['maps'] = max(maps, _peak['maps'])
        with open(os.path.join(%(peaks)r, '%%d.json' %% os.getpid()), 'w') as f:
            json.dump(_peak, f)
'''


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def wait_for_port(port, proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            sys.exit('server exited (%d) before listening' % proc.returncode)
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit('nothing listens on port %d after %d s' % (port, timeout))


class Hg:
    """runs hg commands under one configuration"""

    def __init__(self, hg, hgrc):
        self.hg = hg
        self.env = {**os.environ, 'HGRCPATH': hgrc, 'HGPLAIN': '1'}
        self.env.pop('HGDEMANDIMPORT', None)

    def __call__(self, *args, cwd=None):
        return subprocess.run(
            [self.hg, *args],
            check=True,
            env=self.env,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ).stdout


def write_hgrc(path, with_extension, settings=()):
    """the configuration of servers and writer, with ``settings``
    (section.name=value)"""
    lines = ['[ui]', 'username = writer <writer@example.org>', 'rollback = yes']
    lines += ['[web]', 'name = bench']
    if with_extension:
        lines += ['[extensions]', 'revlogperf = %s' % EXTENSION]
    for setting in settings:
        key, _eq, value = setting.partition('=')
        section, _dot, name = key.partition('.')
        lines += ['[%s]' % section, '%s = %s' % (name, value)]
    with open(path, 'w') as fp:
        fp.write('\n'.join(lines) + '\n')


def plan_requests(hg, repo, count, pool_size, rng):
    """the URLs of the load, and the (revision, path) pairs they use"""
    out = hg('-R', repo, 'log', '-r', 'all()', '-T', '{rev}\\0{files}\\0\\n')
    changed = []
    changes = collections.Counter()
    for line in out.split(b'\n'):
        if not line:
            continue
        rev, files, _end = line.split(b'\0')
        files = files.split()
        changes.update(files)
        if files:
            changed.append((int(rev), files))
    pool = []
    for rev, files in rng.sample(changed, min(pool_size, len(changed))):
        pool.append((rev, rng.choice(files).decode()))
    annotated = [
        p for p in pool if changes[p[1].encode()] <= ANNOTATE_MAX_CHANGES
    ]
    urls = []
    for i in range(count):
        page = PAGES[i % len(PAGES)]
        if page in ('log', 'shortlog', 'graph'):
            urls.append((page, '/' + page))
        elif page == 'rev':
            urls.append((page, '/rev/%d' % rng.choice(pool)[0]))
        else:
            rev, path = rng.choice(annotated if page == 'annotate' else pool)
            urls.append((page, '/%s/%d/%s' % (page, rev, path)))
    rng.shuffle(urls)
    return urls


def fetch(port, url, bodies, timeout=300):
    """(status, sha256 of the body) of one GET; the body is kept in the
    directory ``bodies``, named by its digest, to show what differs"""
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    try:
        conn.request('GET', url)
        resp = conn.getresponse()
        body = resp.read()
    finally:
        conn.close()
    digest = hashlib.sha256(body).hexdigest()
    path = os.path.join(bodies, digest)
    if not os.path.exists(path):
        with open(path + '.tmp%d' % threading.get_ident(), 'wb') as fp:
            fp.write(body)
        os.replace(fp.name, path)
    return resp.status, digest


def difference(bodies, got, expected, limit=12):
    """the first lines of a diff between two bodies"""

    def lines(digest):
        with open(os.path.join(bodies, digest), 'rb') as fp:
            return fp.read().decode('utf-8', 'replace').splitlines()

    diff = difflib.unified_diff(
        lines(expected), lines(got), 'reference', 'served', n=1, lineterm=''
    )
    return list(diff)[:limit]


def prepare_writer_source(hg, repo, tmp):
    """a clone of REPO with the changesets the writer pushes: A1-A3 on tip,
    B1-B2 on A1"""
    src = os.path.join(tmp, 'writer-source')
    hg('clone', '-q', repo, src)
    path = hg('-R', src, 'files', '-r', 'tip', '-T', '{path}\n')
    path = path.split(b'\n')[0].decode()
    nodes = {}

    def commit(name):
        with open(os.path.join(src, path), 'a') as fp:
            fp.write('# %s\n' % name)
        hg('-R', src, 'commit', '-q', '-m', 'writer: %s' % name)
        nodes[name] = hg('-R', src, 'log', '-r', '.', '-T', '{node}').decode()

    for name in ('A1', 'A2', 'A3'):
        commit(name)
    hg('-R', src, 'update', '-q', '-r', nodes['A1'])
    for name in ('B1', 'B2'):
        commit(name)
    return src, nodes


def writer_steps(hg, src, nodes, served, upgrade):
    """(name, function) for each of the writer's steps"""
    steps = [
        (
            'push',
            lambda: hg('-R', src, 'push', '-q', '-r', nodes['A3'], served),
        ),
        (
            'strip',
            lambda: hg(
                '-R',
                served,
                'debugstrip',
                '-q',
                '--no-backup',
                '-r',
                nodes['A2'],
            ),
        ),
        (
            'push',
            lambda: hg('-R', src, 'push', '-q', '-r', nodes['B2'], served),
        ),
        ('rollback', lambda: hg('-R', served, 'rollback', '-q')),
    ]
    if upgrade:
        steps.append(
            (
                'upgrade',
                lambda: hg(
                    '-R',
                    served,
                    'debugupgraderepo',
                    '-q',
                    '--optimize',
                    're-delta-all',
                    '--run',
                    '--no-backup',
                ),
            )
        )
    return steps


def snapshot(repo, dest):
    """a copy of the repository as it is: the writer is between steps, and
    readers write only caches"""
    ignore = shutil.ignore_patterns('cache', 'wcache', '*.lock', 'lock')
    shutil.copytree(
        os.path.join(repo, '.hg'), os.path.join(dest, '.hg'), ignore=ignore
    )


def worker_pids(master):
    pids = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as fp:
                fields = fp.read().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            pids.append(int(entry))
    return sorted(pids)


def smaps_rollup(pid):
    fields = {}
    with open('/proc/%d/smaps_rollup' % pid) as fp:
        for line in fp:
            key, _sep, value = line.partition(':')
            if value.strip().endswith('kB'):
                fields[key] = int(value.split()[0]) * 1024
    return {
        'uss': fields.get('Private_Clean', 0) + fields.get('Private_Dirty', 0),
        'pss': fields.get('Pss', 0),
        'rss': fields.get('Rss', 0),
    }


def run_config(
    config, round_, args, hg_path, repo, tmp, urls, src, nodes, bodies
):
    """serve a copy of REPO under ``config``, load it, write meanwhile"""
    work = os.path.join(tmp, '%s-%d' % (config.strip('+'), round_))
    os.makedirs(os.path.join(work, 'peaks'))
    hgrc = os.path.join(work, 'hgrc')
    with_extension = config == '+revlogperf'
    settings = args.config if with_extension else args.core_config
    write_hgrc(hgrc, with_extension, settings)
    hg = Hg(hg_path, hgrc)
    served = os.path.join(work, 'repo')
    snapshot(repo, served)
    port = free_port()
    with open(os.path.join(work, 'hgwebapp.py'), 'w') as fp:
        fp.write(APP % {'repo': served})
    conf = os.path.join(work, 'gunicorn.conf.py')
    errorlog = os.path.join(work, 'gunicorn.log')
    with open(conf, 'w') as fp:
        fp.write(
            GUNICORN_CONF
            % {
                'port': port,
                'workers': args.workers,
                'errorlog': errorlog,
                'peaks': os.path.join(work, 'peaks'),
            }
        )
    python = os.path.join(os.path.dirname(hg_path), 'python')
    server = subprocess.Popen(
        [
            python,
            '-m',
            'gunicorn',
            '-c',
            conf,
            '--chdir',
            work,
            'hgwebapp:application',
        ],
        env=hg.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    states = []  # (name, snapshot directory, valid from, valid until)
    results = []
    try:
        wait_for_port(port, server)
        first = os.path.join(work, 'state-0')
        snapshot(served, first)
        states.append(['initial', first, 0.0, None])
        steps = writer_steps(hg, src, nodes, served, args.upgrade)
        todo = list(enumerate(urls))
        done = [0]
        lock = threading.Lock()
        writer_error = []

        def client():
            while True:
                with lock:
                    if not todo:
                        return
                    index, (page, url) = todo.pop(0)
                start = time.monotonic()
                try:
                    status, digest = fetch(port, url, bodies)
                except Exception as exc:  # a dropped connection: a failure
                    status, digest = None, repr(exc)
                end = time.monotonic()
                with lock:
                    results.append(
                        {
                            'index': index,
                            'page': page,
                            'url': url,
                            'start': start,
                            'end': end,
                            'status': status,
                            'digest': digest,
                        }
                    )
                    done[0] += 1

        def writer():
            # steps spread over the first three quarters of the load
            marks = [
                int(len(urls) * (0.1 + 0.65 * i / max(1, len(steps) - 1)))
                for i in range(len(steps))
            ]
            for n, ((name, step), mark) in enumerate(zip(steps, marks), 1):
                while done[0] < mark and (todo or done[0] < len(urls)):
                    time.sleep(0.05)
                began = time.monotonic()
                try:
                    step()
                except subprocess.CalledProcessError as exc:
                    writer_error.append('%s: %s' % (name, exc.stderr.decode()))
                    return
                ended = time.monotonic()
                states[-1][3] = ended  # seen until the step is over
                path = os.path.join(work, 'state-%d' % n)
                if name == 'upgrade':  # the same revisions, stored anew
                    path = states[-1][1]
                else:
                    snapshot(served, path)
                states.append([name, path, began, None])

        started = time.monotonic()
        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        threads.append(threading.Thread(target=writer))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        workers = worker_pids(server.pid)
        memory = {pid: smaps_rollup(pid) for pid in workers}
        with open(errorlog) as fp:
            log = fp.read()  # what happened before we stop it
    finally:
        try:
            os.killpg(server.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    errors = [line for line in log.splitlines() if '[ERROR]' in line]
    killed = [
        line
        for line in log.splitlines()
        if 'was sent' in line or 'terminated due to signal' in line
    ]
    peaks = {}
    for name in os.listdir(os.path.join(work, 'peaks')):
        with open(os.path.join(work, 'peaks', name)) as fp:
            peaks[int(name.split('.')[0])] = json.load(fp)
    try:
        hg('-R', served, 'verify', '-q')
        verify = 'ok'
    except subprocess.CalledProcessError as exc:
        verify = (exc.stdout + exc.stderr).decode()
    return {
        'config': config,
        'started': started,
        'elapsed': elapsed,
        'results': results,
        'states': states,
        'writer_error': writer_error,
        'killed': killed,
        'log': log,
        'errors': errors,
        'booted': log.count('Booting worker'),
        'memory': memory,
        'peaks': peaks,
        'verify': verify,
    }


def references(hg_path, run, clients, bodies):
    """{(state index, url): (status, digest)} from a fresh ``hg serve``
    without revlogperf on each state's copy, for the URLs answered in it"""
    needed = collections.defaultdict(set)
    for r in run['results']:
        for i in candidate_states(run['states'], r):
            needed[i].add(r['url'])
    hgrc = os.path.join(os.path.dirname(run['states'][0][1]), 'hgrc-reference')
    write_hgrc(hgrc, False)
    hg = Hg(hg_path, hgrc)
    answers = {}
    for i, state in enumerate(run['states']):
        urls = sorted(needed.get(i, ()))
        if not urls:
            continue
        port = free_port()
        server = subprocess.Popen(
            [
                hg_path,
                'serve',
                '-R',
                state[1],
                '-a',
                '127.0.0.1',
                '-p',
                str(port),
            ],
            env=hg.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            wait_for_port(port, server)
            # hg serve answers in threads, and on Python < 3.12 two threads
            # running a module demandimport left unexecuted can fail: one
            # request of each page first, alone
            warmed = set()
            for url in list(urls):
                page = url.split('/')[1]
                if page not in warmed:
                    warmed.add(page)
                    urls.remove(url)
                    answers[(i, url)] = fetch(port, url, bodies)
            lock = threading.Lock()

            def client():
                while True:
                    with lock:
                        if not urls:
                            return
                        url = urls.pop()
                    answer = fetch(port, url, bodies)
                    with lock:
                        answers[(i, url)] = answer

            threads = [threading.Thread(target=client) for _ in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
    return answers


def candidate_states(states, result):
    """the states a request could have been answered in"""
    found = []
    for i, (_name, _path, begin, until) in enumerate(states):
        if begin <= result['end'] and (
            until is None or result['start'] <= until
        ):
            found.append(i)
    return found


# the writer's steps during which core itself refuses requests or drops
# their connections: a strip and a rollback shorten files (a reader that
# loaded the index before reads past the end of the data file after:
# 'partial read of revlog 00changelog.d'); an upgrade swaps the store
REWRITES = ('strip', 'rollback', 'upgrade')


def raced_steps(states, result):
    """the names of the writer's steps a request overlapped"""
    names = []
    for k in range(1, len(states)):
        name, _path, began, _until = states[k]
        ended = states[k - 1][3]
        if result['start'] <= ended and began <= result['end']:
            names.append(name)
    return names


# hgweb reads branch heads and phases from files a writer rewrites when its
# transaction closes (.hg/cache/branch2-*, store/phaseroots), after the
# changelog: during a step, core itself may show one state's changesets
# with another's branch heads or phases
_STATE_LABELS = re.compile(
    rb'<span class="(?:branch|branchhead|phase)">[^<]*</span> ?'
)


def without_state_labels(bodies, digest):
    with open(os.path.join(bodies, digest), 'rb') as fp:
        return _STATE_LABELS.sub(b'', fp.read())


def check(run, answers, bodies):
    """(failed, wrong, refused, mixed): requests not answered, answers
    that are not the reference's, requests refused or dropped while a
    strip, a rollback or an upgrade ran, and answers during a writer's
    step that are the reference's but for the branch heads and phases"""
    failed, wrong, refused, mixed = [], [], [], []
    for r in run['results']:
        candidates = candidate_states(run['states'], r)
        expected = [answers.get((i, r['url'])) for i in candidates]
        expected = [e for e in expected if e is not None]
        if r['status'] is not None and (r['status'], r['digest']) in expected:
            continue
        raced = set(raced_steps(run['states'], r))
        error = r['status'] is None or r['status'] >= 400
        if error and raced & set(REWRITES):
            refused.append(r)  # an error, never a wrong page
        elif r['status'] is None or r['status'] >= 500:
            failed.append(r)
        elif raced and any(
            status == r['status']
            and without_state_labels(bodies, digest)
            == without_state_labels(bodies, r['digest'])
            for status, digest in expected
        ):
            mixed.append(r)
        else:
            wrong.append(r)
    return failed, wrong, refused, mixed


def error_message(bodies, digest):
    """what hgweb's error page (paper style) says went wrong"""
    with open(os.path.join(bodies, digest), 'rb') as fp:
        page = fp.read().decode('utf-8', 'replace')
    found = re.search(r'<div class="description">(.*?)</div>', page, re.S)
    text = re.sub(r'<[^>]*>', ' ', found.group(1) if found else page)
    return ' '.join(text.split())[:300]


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def report(run, answers, bodies, failed, wrong, refused, mixed):
    ok = True
    print(
        '== %s: %d requests in %.1f s'
        % (run['config'], len(run['results']), run['elapsed'])
    )
    print('%-10s %6s %9s %9s' % ('page', 'count', 'p50 ms', 'p95 ms'))
    latency = {}
    times_by_page = {}
    for page in PAGES:
        times = [
            (r['end'] - r['start']) * 1000
            for r in run['results']
            if r['page'] == page
        ]
        if times:
            times_by_page[page] = times
            latency[page] = {
                'count': len(times),
                'p50': statistics.median(times),
                'p95': percentile(times, 0.95),
            }
            print(
                '%-10s %6d %9.1f %9.1f'
                % (page, len(times), latency[page]['p50'], latency[page]['p95'])
            )
    print(
        '%-8s %9s %9s %9s %6s %6s'
        % ('worker', 'USS MB', 'PSS MB', 'RSS MB', 'fds', 'maps')
    )
    for pid, mem in sorted(run['memory'].items()):
        peak = run['peaks'].get(pid, {'fds': 0, 'maps': 0})
        print(
            '%-8d %9.1f %9.1f %9.1f %6d %6d'
            % (
                pid,
                mem['uss'] / 2**20,
                mem['pss'] / 2**20,
                mem['rss'] / 2**20,
                peak['fds'],
                peak['maps'],
            )
        )
    print(
        'writer: '
        + ', '.join(
            '%s %.2f-%s'
            % (
                name,
                max(0, begin - run['started']),
                '%.2f' % (until - run['started']) if until else 'end',
            )
            for name, _path, begin, until in run['states']
        )
    )
    total_pss = sum(m['pss'] for m in run['memory'].values())
    print('total PSS of the workers: %.1f MB' % (total_pss / 2**20))
    print(
        'failed %d, wrong %d, refused during strip, rollback or upgrade %d, '
        'branch heads or phases of another state during a step %d, '
        'workers killed %d, '
        'booted %d, verify: %s'
        % (
            len(failed),
            len(wrong),
            len(refused),
            len(mixed),
            len(run['killed']),
            run['booted'],
            run['verify'].strip(),
        )
    )
    for r in (failed + wrong)[:10]:
        candidates = candidate_states(run['states'], r)
        print(
            '  %s %s: %s at %.2f-%.2f s, in %s'
            % (
                'failed' if r in failed else 'wrong',
                r['url'],
                r['status'],
                r['start'] - run['started'],
                r['end'] - run['started'],
                ' or '.join(run['states'][i][0] for i in candidates),
            )
        )
    for r in wrong[:2]:
        for i in candidate_states(run['states'], r):
            expected = answers.get((i, r['url']))
            if expected is not None:
                for line in difference(bodies, r['digest'], expected[1]):
                    print('    ' + line)
    for r in failed[:3]:
        if r['status'] is None:
            print('    ' + r['digest'])  # the exception the client met
        else:
            print('    ' + error_message(bodies, r['digest']))
    if failed:  # the workers' side of it
        for line in run['log'].splitlines()[-400:]:
            print('    | ' + line)
    for line in run['killed'][:5] + run['errors'][:5] + run['writer_error']:
        print('  ' + line)
    if (
        failed
        or wrong
        or run['killed']
        or run['writer_error']
        or run['verify'] != 'ok'
    ):
        ok = False
    return ok, {
        'config': run['config'],
        'elapsed': run['elapsed'],
        'latency': latency,
        'times': times_by_page,
        'memory': {str(k): v for k, v in run['memory'].items()},
        'peaks': {str(k): v for k, v in run['peaks'].items()},
        'total_pss': total_pss,
        'failed': len(failed),
        'wrong': len(wrong),
        'refused': len(refused),
        'mixed': len(mixed),
        'killed': run['killed'],
        'booted': run['booted'],
        'verify': run['verify'],
        'states': [s[0] for s in run['states']],
    }


def compare(figures):
    """Mercurial and revlogperf side by side, every round's requests
    pooled: latency, memory, resources"""
    core = [f for f in figures if f['config'] == CONFIGS[0]]
    ext = [f for f in figures if f['config'] == CONFIGS[1]]
    print(
        '== side by side, %d rounds (ratio: revlogperf / Mercurial, below 1 '
        'is better)' % len(core)
    )
    print(
        '%-10s %9s %9s %6s %9s %9s %6s'
        % ('page', 'p50', '+rp p50', 'ratio', 'p95', '+rp p95', 'ratio')
    )
    for page in PAGES:
        a = [t for f in core for t in f['times'].get(page, [])]
        b = [t for f in ext for t in f['times'].get(page, [])]
        if a and b:
            a50, b50 = statistics.median(a), statistics.median(b)
            a95, b95 = percentile(a, 0.95), percentile(b, 0.95)
            print(
                '%-10s %9.1f %9.1f %6.2f %9.1f %9.1f %6.2f'
                % (page, a50, b50, b50 / a50, a95, b95, b95 / a95)
            )

    def mb(value):
        return value / 2**20

    for label, key in (('USS per worker', 'uss'), ('PSS, 4 workers', 'pss')):
        a, b = (
            statistics.median(
                sum(m[key] for m in f['memory'].values())
                / (len(f['memory']) if key == 'uss' else 1)
                for f in runs
            )
            for runs in (core, ext)
        )
        print('%-22s %8.1f MB %8.1f MB %6.2f' % (label, mb(a), mb(b), b / a))
    for key in ('fds', 'maps'):
        a, b = (
            max([p[key] for f in runs for p in f['peaks'].values()] or [0])
            for runs in (core, ext)
        )
        print('peak %-17s %8d    %8d' % (key + ', a worker', a, b))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('repo')
    ap.add_argument('--requests', type=int, default=2000)
    ap.add_argument('--clients', type=int, default=8)
    ap.add_argument('--workers', type=int, default=4)
    ap.add_argument(
        '--pool', type=int, default=60, help='(N, PATH) pairs drawn'
    )
    ap.add_argument('--only', choices=CONFIGS, help='one configuration')
    ap.add_argument(
        '--rounds', type=int, default=2, help='runs of each, alternating'
    )
    ap.add_argument('--no-upgrade', dest='upgrade', action='store_false')
    ap.add_argument('--seed', type=int, default=0)
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
    args = ap.parse_args(argv)

    hg_path = os.path.join(os.path.dirname(sys.executable), 'hg')
    repo = os.path.abspath(args.repo)
    tmp = tempfile.mkdtemp(prefix='bench-server-')
    started = time.monotonic()
    ok = True
    figures = []
    try:
        plain = os.path.join(tmp, 'hgrc-plain')
        write_hgrc(plain, False)
        hg = Hg(hg_path, plain)
        urls = plan_requests(
            hg, repo, args.requests, args.pool, random.Random(args.seed)
        )
        src, nodes = prepare_writer_source(hg, repo, tmp)
        bodies = os.path.join(tmp, 'bodies')
        os.mkdir(bodies)
        configs = [args.only] if args.only else list(CONFIGS)

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
                    src,
                    nodes,
                    bodies,
                )
                progress(round_, config, 'checking the answers')
                answers = references(hg_path, run, 2, bodies)
                config_ok, data = report(
                    run, answers, bodies, *check(run, answers, bodies)
                )
                ok = ok and config_ok
                data['round'] = round_ + 1
                figures.append(data)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.only:
        compare(figures)
    print('harness: %.0f s' % (time.monotonic() - started))
    if args.json:
        with open(args.json, 'w') as fp:
            json.dump(figures, fp, indent=1)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
