# commitmany.py - hg debugcommitmany N: commit N changesets, one transaction
# (and one lock) each, without a working copy, so that other processes can
# pull and read between them

from mercurial import context, registrar

cmdtable = {}
command = registrar.command(cmdtable)


@command(b'debugcommitmany', [], b'N')
def debugcommitmany(ui, repo, count):
    for i in range(int(count)):
        with repo.wlock(), repo.lock(), repo.transaction(b'commitmany'):
            text = b''.join(b'line %d\n' % j for j in range(len(repo) + 1))
            ctx = context.memctx(
                repo,
                (repo[b'tip'].node(), None),
                b'commit %d' % i,
                [b'c'],
                lambda repo, mctx, path: context.memfilectx(
                    repo, mctx, path, text
                ),
                user=b'writer',
            )
            ctx.commit()
