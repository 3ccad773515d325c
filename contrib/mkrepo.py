#!/usr/bin/env python3
"""build a deterministic, realistic sample repository for benchmarks

    mkrepo.py DEST [--changesets N] [--files M] [--compression zlib|zstd]
                   [--legacy-changelog] [--large-filelog] [--seed S]

Commits go through Mercurial's storage API (``memctx`` in one transaction),
without a working copy: N changesets by a handful of authors with varied
messages, each editing a few lines of a few of M files spread over
directories. ``--legacy-changelog`` stores the changelog with delta chains,
as Mercurial did before 4.2; ``--large-filelog`` edits one file in every
changeset, so that its filelog grows as large as the changelog. The same
arguments always give the same node ids.
"""

import argparse
import random
import sys
import time

from mercurial import (
    context,
    hg,
    ui as uimod,
)

AUTHORS = [
    b'Alice Example <alice@example.org>',
    b'Bob Builder <bob@example.org>',
    b'Carol Coder <carol@example.com>',
    b'Dan Developer <dan@example.net>',
    b'Eve Reviewer <eve@example.org>',
    b'Frank Fixer <frank@example.com>',
]
VERBS = [
    b'fix',
    b'add',
    b'remove',
    b'refactor',
    b'speed up',
    b'document',
    b'test',
    b'rename',
    b'simplify',
    b'handle',
]
NOUNS = [
    b'parser',
    b'index',
    b'cache',
    b'revlog reader',
    b'config loader',
    b'error message',
    b'changelog',
    b'manifest walk',
    b'hook',
    b'lock',
]
LARGE_FILELOG = b'ChangeLog'
BATCH = 1000


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dest')
    ap.add_argument('--changesets', type=int, default=10000)
    ap.add_argument('--files', type=int, default=2000)
    ap.add_argument('--compression', choices=['zlib', 'zstd'], default='zlib')
    ap.add_argument('--legacy-changelog', action='store_true')
    ap.add_argument('--large-filelog', action='store_true')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--quiet', '-q', action='store_true')
    return ap.parse_args(argv)


def message(rng):
    summary = b'%s: %s %s' % (
        rng.choice(NOUNS).split()[0],
        rng.choice(VERBS),
        rng.choice(NOUNS),
    )
    if rng.random() < 0.4:
        body = b' '.join(
            rng.choice(VERBS + NOUNS) for _ in range(rng.randrange(8, 60))
        )
        return summary + b'\n\n' + body
    return summary


class Tree:
    """the files' contents, edited a few lines at a time"""

    def __init__(self, rng, nfiles):
        self.rng = rng
        ndirs = max(1, nfiles // 40)
        self.paths = sorted(
            b'src/mod%03d/file%05d.py' % (rng.randrange(ndirs), i)
            for i in range(nfiles)
        )
        self.lines = {
            p: [
                b'value_%d = %d\n' % (j, rng.randrange(10**6))
                for j in range(rng.randrange(5, 60))
            ]
            for p in self.paths
        }

    def edit(self, path):
        lines = self.lines.setdefault(path, [])
        rng = self.rng
        for _ in range(rng.randrange(1, 4)):
            pos = rng.randrange(len(lines) + 1)
            new = b'value_%d = %d\n' % (pos, rng.randrange(10**6))
            if lines and pos < len(lines) and rng.random() < 0.7:
                lines[pos] = new
            else:
                lines.insert(pos, new)
        return b''.join(lines)


class Heartbeat:
    """a line at least every 30 s where no progress bar shows (a pipe, a
    file, a CI log): building a large sample takes minutes"""

    def __init__(self, total, every=30.0):
        self.total = total
        self.every = every
        self.enabled = not sys.stderr.isatty()
        self.started = self.last = time.monotonic()

    def beat(self, done):
        now = time.monotonic()
        if self.enabled and now - self.last >= self.every:
            self.last = now
            elapsed = now - self.started
            print(
                '  %d of %d changesets, %d s, about %d s left'
                % (
                    done,
                    self.total,
                    elapsed,
                    elapsed / done * (self.total - done),
                ),
                flush=True,
            )


def build(args, ui=None):
    ui = ui or uimod.ui.load()
    ui.setconfig(b'format', b'revlog-compression', args.compression.encode())
    repo = hg.repository(ui, args.dest.encode(), create=True)
    rng = random.Random(args.seed)
    tree = Tree(rng, args.files)
    progress = ui.makeprogress(
        b'committing', unit=b'changesets', total=args.changesets
    )
    heartbeat = Heartbeat(args.changesets)
    p1 = repo.nullid
    with repo.wlock(), repo.lock():
        for start in range(0, args.changesets, BATCH):
            # one transaction per batch: the changelog's delayed writes
            # stay small
            with repo.transaction(b'mkrepo'):
                if args.legacy_changelog:
                    store_delta_chains(repo.changelog)
                stop = min(start + BATCH, args.changesets)
                p1 = commit_batch(
                    repo, rng, tree, args, p1, start, stop, progress, heartbeat
                )
    progress.complete()
    return repo


def store_delta_chains(changelog):
    """make ``changelog`` store deltas, as Mercurial did before 4.2"""
    changelog._storedeltachains = True
    # a changelog is not generaldelta: hg >= 6.9 would search its deltas
    # as a sparse revlog's (and assert); search them as releases before did
    delta_config = getattr(changelog, 'delta_config', None)
    if delta_config is not None:
        delta_config.sparse_revlog = False


def commit_batch(repo, rng, tree, args, p1, start, stop, progress, heartbeat):
    for i in range(start, stop):
        if i == 0:
            changed = {p: b''.join(tree.lines[p]) for p in tree.paths}
        else:
            paths = rng.sample(tree.paths, rng.randrange(1, 4))
            if args.large_filelog:
                paths.append(LARGE_FILELOG)
            changed = {p: tree.edit(p) for p in paths}

        def filectx(repo, mctx, path, changed=changed):
            return context.memfilectx(repo, mctx, path, changed[path])

        ctx = context.memctx(
            repo,
            (p1, repo.nullid),
            message(rng),
            sorted(changed),
            filectx,
            user=rng.choice(AUTHORS),
            date=(1500000000 + i * 600 + rng.randrange(600), 0),
        )
        p1 = ctx.commit()
        progress.increment()
        heartbeat.beat(i + 1)
    return p1


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    start = time.time()
    repo = build(args)
    if not args.quiet:
        print(
            '%s: %d changesets in %.1fs, tip %s'
            % (
                args.dest,
                len(repo.changelog),
                time.time() - start,
                repo[b'tip'].hex().decode(),
            )
        )


if __name__ == '__main__':
    main()
