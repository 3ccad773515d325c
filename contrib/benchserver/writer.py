"""the writer: pushes, a strip, a rollback and an upgrade, in its own
processes, while the readers read; each state it leaves is copied"""

import os
import shutil
import subprocess
import threading
import time


def prepare_source(hg, repo, tmp):
    """a clone of REPO with the changesets the writer pushes: A1-A3 on tip,
    B1-B2 on A1; their nodes by name, and the file they edit"""
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
    return src, nodes, path


def steps(hg, src, nodes, served, upgrade):
    """(name, function) for each of the writer's steps"""
    found = [
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
        found.append(
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
    return found


def snapshot(repo, dest):
    """a copy of the repository as it is: the writer is between steps, and
    readers write only caches"""
    ignore = shutil.ignore_patterns('cache', 'wcache', '*.lock', 'lock')
    shutil.copytree(
        os.path.join(repo, '.hg'), os.path.join(dest, '.hg'), ignore=ignore
    )


def requirement_files(repo):
    """the files holding REPO's requirements: .hg/requires, and
    .hg/store/requires in a share-safe repository"""
    found = [os.path.join(repo, '.hg', 'requires')]
    store = os.path.join(repo, '.hg', 'store', 'requires')
    if os.path.exists(store):
        found.append(store)
    return found


def swapping(files):
    """is the repository whose requirement ``files`` these are being
    swapped by an upgrade? It writes the requirement ``upgradeinprogress``,
    which no client supports, removes the store and renames the new one
    in: core refuses every request meanwhile"""
    for path in files:
        try:
            with open(path, 'rb') as fp:
                if b'upgradeinprogress' in fp.read().split():
                    return True
        except FileNotFoundError:
            return True
    return False


class LockoutWatch:
    """notes the times a repository is locked out, polling every
    ``interval`` seconds while the block runs: each lockout is a
    (begin, end) from the last reading before it to the first after"""

    def __init__(self, repo, interval=0.005):
        self.files = requirement_files(repo)
        self.interval = interval
        self.lockouts = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch)

    def _watch(self):
        before, began = time.monotonic(), None
        while True:
            done = self._done.is_set()  # then one reading more
            reading = time.monotonic()
            locked = swapping(self.files)
            if locked and began is None:
                began = before
            elif not locked and began is not None:
                self.lockouts.append((began, time.monotonic()))
                began = None
            before = reading
            if done:
                break
            time.sleep(self.interval)
        if began is not None:
            self.lockouts.append((began, time.monotonic()))

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join()


class Writer:
    """runs ``steps`` as the load reaches its marks (spread over the first
    three quarters of ``count`` requests), copying each state it leaves

    ``states`` lists [name, copy, valid from, valid until]: a request
    answered between two times may show either state. The load goes on
    after the last step until ``tail`` more requests have begun.
    """

    def __init__(self, steps, served, work, count, tail):
        self.steps = steps
        self.served = served
        self.work = work
        self.count = count
        self.tail = tail
        self.states = []
        self.lockouts = []  # (begin, end) of each upgrade's store swap
        self.error = []
        self.finished = None  # the load's requests taken when it was done
        self.finished_at = None

    def start_state(self):
        first = os.path.join(self.work, 'state-0')
        snapshot(self.served, first)
        self.states.append(['initial', first, 0.0, None])

    def more(self, load):
        """should the load go on? until the writer is done, and a while"""
        if self.finished is None:
            return True
        return load.taken < self.finished + self.tail

    def run(self, load):
        n = len(self.steps)
        marks = [
            int(self.count * (0.1 + 0.65 * i / max(1, n - 1))) for i in range(n)
        ]
        try:
            for k, ((name, step), mark) in enumerate(zip(self.steps, marks), 1):
                while load.answered < mark:
                    time.sleep(0.05)
                began = time.monotonic()
                watch = LockoutWatch(self.served)
                try:
                    with watch:
                        step()
                except subprocess.CalledProcessError as exc:
                    self.error.append('%s: %s' % (name, exc.stderr.decode()))
                    return
                finally:
                    self.lockouts.extend(watch.lockouts)
                ended = time.monotonic()
                self.states[-1][3] = ended  # seen until the step is over
                path = os.path.join(self.work, 'state-%d' % k)
                if name == 'upgrade':  # the same revisions, stored anew
                    path = self.states[-1][1]
                else:
                    snapshot(self.served, path)
                self.states.append([name, path, began, None])
        finally:
            self.finished_at = time.monotonic()
            self.finished = load.taken

    def thread(self, load):
        return threading.Thread(target=self.run, args=(load,))
