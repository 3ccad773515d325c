# metadata.py - version and compatibility of revlogperf
#
# setup.py reads this file without importing the package: keep it free of
# imports.

__version__ = '0.1.0'

# exactly the releases .ci/run tests (make test-matrix)
testedwith = b'6.3.3 6.6.3 6.9.5 7.2.4'
minimumhgversion = b'6.3'
# no buglink: Mercurial's tracker is not ours, and without one a crash
# report asks for the extension's author
