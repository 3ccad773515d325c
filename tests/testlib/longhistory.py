# longhistory.py - hg debuglonghistory N: commit N changesets on top of the
# working copy's parent, in one transaction, then update to the last
#
# Mercurial up to 6.6 keeps a revlog inline until it reaches 128 KB: a test
# needs data files (.d) to map. Each changeset here is described at length,
# in words that compress as little as hashes do, and edits a line of
# ``big`` (over 128 KB) and of the small files f0..f3: 150 changesets give
# the changelog and ``big`` a data file in a second, where 2,500 small
# ones (debugbuilddag) take 20.

import hashlib

from mercurial import context, merge, registrar

cmdtable = {}
command = registrar.command(cmdtable)

FILES = [b'big', b'f0', b'f1', b'f2', b'f3']


def _words(*key):
    return hashlib.sha1(b' '.join(b'%d' % k for k in key)).hexdigest().encode()


def _text(path, n):
    lines = 6000 if path == b'big' else 40
    # one line changed per changeset, the rest kept: deltas, and chains
    edited = n % lines
    return b''.join(
        b'%s %s\n'
        % (_words(len(path), i), b'edit %d' % n if i == edited else b'')
        for i in range(lines)
    )


@command(b'debuglonghistory', [], b'N')
def debuglonghistory(ui, repo, count):
    with repo.wlock(), repo.lock(), repo.transaction(b'longhistory'):
        parent = repo[b'.'].node()
        start = len(repo)
        for n in range(start, start + int(count)):
            words = b' '.join(_words(n, i) for i in range(60))
            ctx = context.memctx(
                repo,
                (parent, None),
                b'change %d\n\n%s' % (n, words),
                FILES,
                lambda repo, mctx, path: context.memfilectx(
                    repo, mctx, path, _text(path, n)
                ),
                user=b'test',
                date=(n, 0),
            )
            parent = ctx.commit()
        merge.clean_update(repo[parent])
