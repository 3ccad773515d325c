"""hot wrappers live in Mercurial's wrapper chain like any other"""

from mercurial import extensions, exthelper, ui as uimod

from hgext3rd.revlogperf import hotwrap


class Store:
    def read(self, name, size=None):
        return (name, size)


def test_another_wrapper_removed_below_a_hot_one():
    eh = exthelper.exthelper()

    def outer(orig, store, name, size=None):
        return ('outer',) + orig(store, name, size)

    extensions.wrapfunction(Store, 'read', outer)

    @hotwrap.hot_wrapper(eh, Store, 'read')
    def doubled(core_read):
        def read(store, name, size=None):
            return core_read(store, name, size) * 2

        return read

    eh.finalextsetup(uimod.ui())
    assert Store().read(b'x') == ('outer', b'x', None) * 2
    # unwrapfunction wraps again what stays in the chain, ours included
    extensions.unwrapfunction(Store, 'read', outer)
    assert Store().read(b'x', 3) == (b'x', 3) * 2
    assert extensions.getwrapperchain(Store, 'read')[-1] is Store.read._origfunc
