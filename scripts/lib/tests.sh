# Test counting shared by run.sh and selftest.sh (sourced).
# shellcheck shell=sh
vx_npass=0 vx_nfail=0 vx_nskip=0 vx_xfails="" vx_skips=""
t_pass()  { vx_npass=$((vx_npass + 1)); echo "PASS $*"; }
t_fail()  { vx_nfail=$((vx_nfail + 1)); echo "FAIL $*"; }
t_xfail() { vx_xfails="$vx_xfails $1"; echo "XFAIL $*"; }
# A test the kernel under test cannot run (a feature of a later patch),
# or one the machine cannot (no fstests source): always with the reason.
t_skip()  { vx_nskip=$((vx_nskip + 1)); vx_skips="$vx_skips $1"; echo "SKIP $*"; }

# t_merge FILE: count the PASS/FAIL/SKIP lines another test script printed.
t_merge() {
	while read -r verdict rest; do
		case $verdict in
		PASS) t_pass "$rest" ;;
		FAIL) t_fail "$rest" ;;
		SKIP) _r=${rest#* }; [ "$_r" != "$rest" ] || _r=""; t_skip "${rest%% *}" "$_r" ;;
		esac
	done < "$1"
}

# t_finish: the closing line; exits non-zero on any failure.
t_finish() {
	[ -z "$vx_xfails" ] || echo "expected failures (not counted as passed):$vx_xfails"
	[ -z "$vx_skips" ] || echo "skipped (not counted as passed):$vx_skips"
	echo "$vx_npass passed, $vx_nfail failed, $vx_nskip skipped"
	[ "$vx_nfail" = 0 ]
	exit $?
}
