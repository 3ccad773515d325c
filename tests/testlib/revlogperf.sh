# enable revlogperf from the source tree, as the tests of hg-evolve do
cat >> $HGRCPATH << EOF
[extensions]
revlogperf = $TESTDIR/../hgext3rd/revlogperf
[ui]
username = test <test@example.com>
EOF
