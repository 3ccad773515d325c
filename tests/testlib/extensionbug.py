# extensionbug.py - an extension with a bug: its hash check raises TypeError
# (as a flag processor or any other extension running while a revision is
# read may)

from mercurial import extensions, revlog


def _checkhash(orig, rl, *args, **kwargs):
    raise TypeError('a bug in extensionbug')


def uisetup(ui):
    extensions.wrapfunction(revlog.revlog, 'checkhash', _checkhash)
