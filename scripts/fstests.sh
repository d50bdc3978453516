#!/bin/sh
# make fstests / fstests-full / fstests-compare: the XFS test suite
# (fstests) on kernels of the series, in the spirit of kvm-xfstests: the
# guest's root is the host's / read-only over virtio-9p (the suite needs a
# whole userland), with a test and a scratch disk, one boot per kernel and
# config (images/fstests/configs/NAME: MKFS_OPTIONS...).
#   fstests.sh run          the kernel at SERIES (of KSRC)
#   fstests.sh compare      the kernels of POINTS (default "stock baseline full")
#   fstests.sh test K       for make test: the short list on kernel directory
#                           K, "PASS/FAIL ..." lines
#   fstests.sh report DIR   regenerate DIR's report
#   fstests.sh build        fetch and build the suite only; prints its directory
# Variables:
#   FSTESTS_SRC=            fstests: a directory, a tarball or a git URL
#                           (default: ../shared/xfstests-*.tar.gz, else
#                           FSTESTS_URL)
#   FSTESTS_COMMIT=63a29724a85f...  the commit a git URL is fetched at (the
#                           one images/fstests/ was made with)
#   FSTESTS_URL=https://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git
#   FSTESTS_CFG=dirblock_64k  configs, space separated (images/fstests/configs/)
#   FSTESTS_TESTS=short     a list of images/fstests/lists/, or check's own
#                           arguments ("-g quick", "generic/001 xfs/306")
#   FSTESTS_TIMEOUT=        seconds per boot (default: 1200 for the short
#                           list, 6 hours otherwise)
#   FSTESTS_MEM=3G          guest memory
#   FSTESTS_JOBS=1          boots at once (compare: each kernel and config
#                           is a boot; fstests runs one test at a time, so a
#                           guest keeps about one host core busy)
# A failure is "new" when images/fstests/known-failures/CONFIG (the tests
# that fail on stock 6.1 here) does not list it; any new failure, splat or
# guest that does not finish fails the run.
# Output, one results directory: per boot LABEL-CONFIG/ (console.log,
# check.log, fstests' results/ with .out.bad, .full and .dmesg of each
# test, status.csv, splats.txt); fstests.csv (kernel,config,test,status,
# seconds,note), fstests.md, kernels.txt and kernels.md.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/tests.sh"
. "$VX_ROOT/scripts/lib/report.sh"
. "$VX_ROOT/scripts/lib/points.sh"
. "$VX_ROOT/scripts/lib/fstests.sh"

FSTESTS_CFG=${FSTESTS_CFG:-dirblock_64k}
FSTESTS_TESTS=${FSTESTS_TESTS:-short}
FSTESTS_MEM=${FSTESTS_MEM:-3G}
FSTESTS_JOBS=${FSTESTS_JOBS:-1}
if [ "$FSTESTS_TESTS" = short ]; then
	FSTESTS_TIMEOUT=${FSTESTS_TIMEOUT:-1200}
else
	FSTESTS_TIMEOUT=${FSTESTS_TIMEOUT:-21600}
fi
for c in $FSTESTS_CFG; do
	[ -f "$VX_FST/configs/$c" ] ||
		die "FSTESTS_CFG: no images/fstests/configs/$c (have: $(ls "$VX_FST/configs" | tr '\n' ' '))"
done

# boot_fstests K LABEL CFG DIR: one boot of kernel K running the tests in
# config CFG; results in DIR.
boot_fstests() {
	mkdir -p "$4"
	_args=$(fstests_args "$FSTESTS_TESTS")
	{
		echo "FSTESTS_DIR='$fst'"
		echo "FSTESTS_CFG='$3'"
		echo "FSTESTS_TESTS='$_args'"
		sed 's/#.*//' "$VX_FST/configs/$3"
	} > "$4/run.conf"
	progress "fstests on $2, $3: $_args"
	_rc=0
	MEM=$FSTESTS_MEM VX_HOSTROOT="$VX_FST/init" VX_SHARE="$4" VX_DISKS="8G 8G" \
		"$VX_ROOT/scripts/boot.sh" "$1" "$4" fstests "$FSTESTS_TIMEOUT" </dev/null || _rc=$?
	echo "$_rc" > "$4/boot.rc"
	fstests_status "$4"
	rm -f "$4"/disk*.qcow2
}
# 16 GiB of sparse disks per boot: not left behind by an interrupted run.
trap 'rm -f "${out:-/nonexistent}"/*/disk*.qcow2' EXIT
# The boots run in the background, where a Ctrl-C does not reach them
# (SIGINT is ignored there): pass an interruption on to them as SIGTERM,
# on which boot.sh stops its guest.
stop_boots() { trap '' INT TERM HUP; kill -TERM 0 2>/dev/null; exit "$1"; }
on_interrupt stop_boots

# verdicts LABEL CFG DIR: PASS/FAIL lines for one boot.
verdicts() {
	_rc=$(cat "$3/boot.rc")
	_n="fstests:$1:$2"
	case $_rc in
	0) t_pass "$_n: guest ran the tests to the end" ;;
	3) t_fail "$_n: guest ran the tests to the end (killed at its ${FSTESTS_TIMEOUT}s timeout)" ;;
	*) t_fail "$_n: guest ran the tests to the end (stopped early, rc=$_rc)" ;;
	esac
	markers "$3/console.log" | grep -q '^TEST PASS fstests:setup' &&
		t_pass "$_n: setup" || t_fail "$_n: setup ($(markers "$3/console.log" | grep '^TEST FAIL' | head -n 1))"
	# check ran to its summary (not interrupted, not killed between tests)
	if [ -f "$3/check.rc" ] && grep -q -E '^(Passed all|Failures:|Not run:)' "$3/check.log" &&
		! grep -q '^Interrupted' "$3/check.log"; then
		t_pass "$_n: check ran to its summary"
	else
		t_fail "$_n: check ran to its summary (check.rc: $(cat "$3/check.rc" 2>/dev/null || echo none); $(tail -n 1 "$3/check.log" 2>/dev/null))"
	fi
	_ran=$(grep -c -v ',notrun,' "$3/status.csv" || true)
	if [ "$_ran" -gt 0 ]; then t_pass "$_n: tests ran ($_ran)"; else t_fail "$_n: tests ran (none)"; fi
	if [ ! -s "$3/splats.txt" ]; then t_pass "$_n: no kernel splat"
	else t_fail "$_n: no kernel splat: $(head -n 1 "$3/splats.txt")"; fi
	_new=$(new_failures "$2" "$3/status.csv")
	if [ -z "$_new" ]; then t_pass "$_n: no failure beyond known-failures/$2"
	else t_fail "$_n: no failure beyond known-failures/$2:$_new"; fi
}

# new_failures CFG STATUS: the failed or crashed tests of STATUS that
# images/fstests/known-failures/CFG does not list.
new_failures() {
	_kf="$VX_FST/known-failures/$1"
	[ -f "$_kf" ] || log "no images/fstests/known-failures/$1: every failure counts as new"
	awk -F, '$2 == "fail" || $2 == "crash" { print $1 }' "$2" | while read -r _t; do
		grep -q -E "^$_t([[:space:]]|\$)" "$_kf" 2>/dev/null || printf ' %s' "$_t"
	done
}

# report DIR: fstests.csv and fstests.md of the boots in DIR.
report() {
	{
		echo "kernel,config,test,status,seconds,note"
		while read -r _l _ksrc _p _k; do
			for _c in $(cat "$1/configs"); do
				[ -f "$1/$_l-$_c/console.log" ] || continue
				# (again: the reading may be newer than the run)
				fstests_status "$1/$_l-$_c"
				sed "s/^/$_l,$_c,/" "$1/$_l-$_c/status.csv"
			done
		done < "$1/kernels.txt"
	} > "$1/fstests.csv"
	{
		echo "# fstests"
		echo
		echo "    $(cat "$1/command")"
		echo
		kernels_md "$1"
		for _c in $(cat "$1/configs"); do
			echo
			echo "## $_c: $(sed -n 's/^MKFS_OPTIONS=//p' "$VX_FST/configs/$_c")"
			echo
			status_table "$1/fstests.csv" "$_c" "$(cut -d' ' -f1 "$1/kernels.txt" | tr '\n' ' ')"
		done
	} > "$1/fstests.md"
}

# status_table CSV CFG "LABELS": test x kernel: status and seconds; totals;
# the reasons of tests not run and of failures.
status_table() {
	awk -F, -v cfg="$2" -v labels="$3" '
	$2 == cfg {
		if (!($3 in seen)) { seen[$3] = 1; order[++nt] = $3 }
		c = ($4 == "pass") ? "pass " $5 "s" : ($4 == "fail" || $4 == "crash") ? "**" toupper($4) "**" : $4
		cell[$3, $1] = c
	}
	END {
		nl = split(labels, L, " ")
		printf "| test |"; for (j = 1; j <= nl; j++) printf " %s |", L[j]; print ""
		printf "|---|"; for (j = 1; j <= nl; j++) printf "---|"; print ""
		for (i = 1; i <= nt; i++) {
			printf "| %s |", order[i]
			for (j = 1; j <= nl; j++) printf " %s |", ((order[i], L[j]) in cell) ? cell[order[i], L[j]] : "-"
			print ""
		}
	}' "$1"
	printf '| **total** |'
	for _l in $3; do
		printf ' %s |' "$(awk -F, -v cfg="$2" -v l="$_l" '$1 == l && $2 == cfg { print $3 "," $4 "," $5 }' "$1" |
			fstests_totals)"
	done
	echo
	awk -F, -v cfg="$2" '
	$2 == cfg && $4 != "pass" && !(($3, $4) in why) { why[$3, $4] = $6; wl[++nw] = $3 SUBSEP $4 }
	END {
		if (nw) { print ""; print "Not run or failed, and why (first kernel that reported it):"; print "" }
		for (i = 1; i <= nw; i++) { split(wl[i], f, SUBSEP); printf "- %s %s: %s\n", f[1], f[2], why[f[1], f[2]] }
	}' "$1"
}

mode=${1:-run}
case $mode in
report)
	[ -f "${2:-}/kernels.txt" ] || die "usage: fstests.sh report DIR"
	report "$2"
	cat "$2/fstests.md"
	exit 0 ;;
build)
	"$VX_ROOT/scripts/deps.sh"
	fstests_build
	exit 0 ;;
run|compare|test) ;;
*) die "usage: fstests.sh run|compare|test KERNEL_DIR|report DIR|build" ;;
esac
# The guest mounts tmpfs over these: a suite built under them would vanish.
case $VX_CACHE/ in
/tmp/*|/run/*|/var/tmp/*|/var/log/*|/mnt/*)
	die "VX_CACHE=$VX_CACHE: the fstests guest mounts tmpfs over /tmp, /run, /var/tmp, /var/log and /mnt; put the cache elsewhere" ;;
esac

"$VX_ROOT/scripts/deps.sh"
rc=0
fst=$(fstests_build 2> "${TMPDIR:-/tmp}/vx-fstests-build.$$") || rc=$?
cat "${TMPDIR:-/tmp}/vx-fstests-build.$$" >&2
why=$(sed -n 's/.*error: no fstests source: //p' "${TMPDIR:-/tmp}/vx-fstests-build.$$")
rm -f "${TMPDIR:-/tmp}/vx-fstests-build.$$"
if [ "$rc" = 3 ] && [ "$mode" = test ]; then
	# make test on a machine with no fstests to be had: a skip that
	# says why and how to provide it.
	t_skip fstests "no fstests source: $why"
	t_finish
fi
[ "$rc" = 0 ] || exit "$rc"
if [ "$mode" = test ]; then
	# make test: the kernel run.sh built, one config, results beside its own.
	k=${2:?usage: fstests.sh test KERNEL_DIR}
	out=${3:-$(new_run_dir fstests)}
	mkdir -p "$out"
	echo "$(sed -n 's/^point=\([0-9]*\).*/p\1/p' "$k/identity") - - $k" > "$out/kernels.txt"
else
	out=$(new_run_dir "fstests-$mode")
	progress "results: $out"
	if [ "$mode" = run ]; then
		n=$(series_point)
		point_entries "$n" > "$out/entries"
	else
		point_entries "${POINTS:-stock baseline full}" > "$out/entries"
	fi
	build_points "$out/entries" "$out/kernels.txt"
fi
echo "$0 $*  KSRC=$KSRC POINTS=${POINTS:-} SERIES=$SERIES FSTESTS_CFG=$FSTESTS_CFG FSTESTS_TESTS=$FSTESTS_TESTS CPUS=$CPUS MEM=$FSTESTS_MEM fstests=$fst" > "$out/command"
echo "$FSTESTS_CFG" > "$out/configs"

# The boots, FSTESTS_JOBS at a time: a test mostly runs one process
# after another, so one guest keeps about one host core busy.
jobs=0
while read -r label ksrc p k; do
	for c in $FSTESTS_CFG; do
		boot_fstests "$k" "$label" "$c" "$out/$label-$c" > "$out/$label-$c.log" 2>&1 &
		jobs=$((jobs + 1))
		if [ "$jobs" -ge "$FSTESTS_JOBS" ]; then wait; jobs=0; fi
	done
done < "$out/kernels.txt"
wait
while read -r label ksrc p k; do
	for c in $FSTESTS_CFG; do
		cat "$out/$label-$c.log" >&2
		verdicts "$label" "$c" "$out/$label-$c"
	done
done < "$out/kernels.txt"
report "$out"
[ "$mode" = test ] || { cat "$out/fstests.md"; progress "results in $out"; }
t_finish
