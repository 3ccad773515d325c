"""test helper: store changelog revisions with delta chains, as hg < 4.2"""
from mercurial import changelog, extensions


def _init(orig, self, *args, **kwargs):
    orig(self, *args, **kwargs)
    self._storedeltachains = True


def uisetup(ui):
    extensions.wrapfunction(changelog.changelog, '__init__', _init)
