# hotwrap.py - wrap methods that run for every revlog opened or chunk read
#
# ``extensions.wrapfunction`` calls a wrapper through ``bind``, which packs
# a new tuple and dict on every call: a revlog opened pays it on each
# wrapped method. Opening 2,000 filelogs, that was a quarter of what
# revlogperf added (7.2.4, 2026-12). Here the wrapper is made once, around
# the method it replaces, and called with the method's own arguments.


from . import lazyload


def hot_wrapper(eh, container, name, module=None):
    """decorate ``make(orig) -> replacement`` to wrap ``container.name``

    ``exthelper.wrapfunction``'s counterpart, for read paths: the
    replacement is made at extsetup from the method in place then, which it
    calls directly. With ``module``, ``container`` is a function that
    returns it, and the wrapper is made once ``module`` is executed
    (lazyload.after_load): a command that never runs it does not pay for
    it. It stays in Mercurial's wrapper chain: where another
    extension's wrapper is removed (``extensions.unwrapfunction``), the
    chain is wrapped again with ``unbound``, which works as any wrapper,
    at bind's cost.
    """

    def register(make):
        def unbound(orig, *args, **kwargs):
            return make(orig)(*args, **kwargs)

        def wrap(found):
            orig = getattr(found, name)
            replacement = make(orig)
            # what extensions.wrapfunction records of a wrapper
            replacement._origfunc = orig
            replacement._unboundwrapper = unbound
            setattr(found, name, replacement)

        if module is None:
            eh.extsetup(lambda ui: wrap(container))
        else:
            eh.extsetup(
                lambda ui: lazyload.after_load(
                    module, lambda: wrap(container())
                )
            )
        return make

    return register
