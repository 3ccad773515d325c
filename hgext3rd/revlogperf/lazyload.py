# lazyload.py - run code when Mercurial first uses one of its modules
#
# Mercurial's demandimport (Python's importlib.util.LazyLoader) leaves a
# module unexecuted in sys.modules until an attribute is first read.
# ``hg version``, ``hg help`` or ``hg config`` never read localrepo's:
# an extension that wraps it at uisetup makes each of them run localrepo
# and what it imports, 13 ms on 7.2.4 (2026-12).

import importlib.util

from mercurial import extensions

# Python's own class for a module not executed yet (3.6 to 3.14 at least)
_LazyModule = getattr(importlib.util, '_LazyModule', None)


def after_load(module, callback):
    """call ``callback()`` once ``module`` has been executed

    Now, if it has been (or demandimport is off, or this Python holds lazy
    modules some other way); else right after it is, before the attribute
    read that executes it returns.
    """
    if _LazyModule is None or type(module) is not _LazyModule:
        callback()
        return
    # a getattr() would execute it
    spec = object.__getattribute__(module, '__spec__')
    spec.loader = _ThenCall(spec, callback)


class _ThenCall:
    """a module's loader, which calls ``callback`` after executing it"""

    def __init__(self, spec, callback):
        self._spec = spec
        self._loader = spec.loader
        # the module's own loader, under any other _ThenCall
        self._real = getattr(spec.loader, '_real', spec.loader)
        self._callback = callback

    def exec_module(self, module):
        self._loader.exec_module(module)
        self._spec.loader = self._real
        self._callback()

    def __getattr__(self, name):
        return getattr(self._loader, name)


def wrap_after_load(eh, module, name, wrapper, container=None):
    """``extensions.wrapfunction(module, name, wrapper)`` once ``module``
    has been executed, or on ``container()`` (one of its classes)

    For the modules a command may never run (hg, transaction, repair,
    filelog): wrapping them at set-up would run them, for every command
    that opens a repository.
    """

    @eh.extsetup
    def _wrap_later(ui):
        after_load(
            module,
            lambda: extensions.wrapfunction(
                container() if container else module, name, wrapper
            ),
        )
