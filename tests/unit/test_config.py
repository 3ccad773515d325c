import pytest

from mercurial import error

from hgext3rd.revlogperf import config


def threshold(ui, **items):
    for key, value in items.items():
        section, name = key.split('__')
        ui.setconfig(section.encode(), name.replace('_', '-').encode(), value)
    return config._mmap_index_threshold(ui)


def test_default_is_one_megabyte(ui):
    assert threshold(ui) == 1024 * 1024


@pytest.mark.parametrize(
    'value, expected',
    [
        (b'4k', 4096),
        (b'1 MB', 1024 * 1024),
        (b'0', 0),
        (b'off', None),
        (b'Never', None),
        (b'no', None),
    ],
)
def test_values(ui, value, expected):
    assert threshold(ui, revlogperf__mmap_index_threshold=value) == expected


def test_legacy_alias(ui):
    ui.setconfig(b'experimental', b'mmapindexthreshold', b'8k')
    assert config._mmap_index_threshold(ui) == 8192


def test_core_options_win(ui):
    ui.setconfig(b'revlogperf', b'mmap-index-threshold', b'4k')
    ui.setconfig(b'storage', b'revlog.mmap.index:size-threshold', b'2k')
    assert config._mmap_index_threshold(ui) == 2048
    ui.setconfig(b'storage', b'revlog.mmap.index', b'no')
    assert config._mmap_index_threshold(ui) is None


@pytest.mark.parametrize('value', [b'banana', b'-1', b'4 parsecs'])
def test_bad_values_are_config_errors(ui, value):
    with pytest.raises(error.ConfigError) as exc:
        threshold(ui, revlogperf__mmap_index_threshold=value)
    assert b'revlogperf.mmap-index-threshold' in exc.value.args[0]


@pytest.mark.parametrize(
    'value, expected',
    [(b'16 MB', 16 * 1024 * 1024), (b'0', None), (b'off', None)],
)
def test_a_walk_cache_of_nothing_is_off(ui, value, expected):
    """0 bytes keeps nothing: not a cache without bound"""
    ui.setconfig(b'revlogperf', b'walk-cache', value)
    assert config.Settings(ui).walk_cache == expected
