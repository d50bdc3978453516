#!/bin/sh
# Host-side tests of the harness itself.  Prints "N passed, N failed".
#   selftest.sh [KERNEL_DIR]   (with a kernel: also the hung-guest test)
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/guest.sh"
. "$VX_ROOT/scripts/lib/tests.sh"
. "$VX_ROOT/scripts/lib/report.sh"
. "$VX_ROOT/scripts/lib/fstests.sh"
S=$VX_ROOT/scripts
ok()  { t_pass "selftest: $*"; }
bad() { t_fail "selftest: $*"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# expect_error WHAT PATTERN CMD...: CMD exits non-zero and says PATTERN.
expect_error() {
	what=$1 pat=$2; shift 2
	if "$@" > "$tmp/out" 2>&1; then bad "$what: exited 0"; return; fi
	if grep -q -E "$pat" "$tmp/out"; then ok "$what"; else bad "$what: no '$pat' in: $(head -c 300 "$tmp/out")"; fi
}

expect_error "bad SERIES name is refused" "names no patch" env SERIES=no-such.patch "$S/tree.sh"
expect_error "SERIES beyond the series is refused" "has only" env SERIES=999 "$S/tree.sh"
expect_error "missing package is named" "missing packages: linux-source-0.0" \
	env KSRC=linux-source-0.0 CHECK_ONLY=1 "$S/deps.sh"
expect_error "uninstalled KSRC is reported" "not installed" env KSRC=linux-source-0.0 "$S/tree.sh"
# A plan is checked against images/steps/ and workloads/ before any build.
expect_error "unknown PLAN step is refused before any build" "no guest step 'no-such-step'" \
	env PLAN=vmalloc,no-such-step "$S/run.sh" check
expect_error "PLAN naming a missing workload is refused" "names no workload" \
	env PLAN=wl:no-such-workload "$S/run.sh" check

expect_error "unknown VARIANT is refused" "no images/variants/nosuch.config" \
	env VARIANT=nosuch "$S/kernel.sh"
expect_error "compare refuses a POINTS entry it cannot build" "only stock can be built" \
	env POINTS="stock 6.12:3" PLAN=vmalloc "$S/compare.sh"

# The splat detector must see a splat (and nothing in a clean log).
printf '[ 1.0] WARNING: CPU: 0 PID: 1 at mm/vmalloc.c:123 foo\n' > "$tmp/splat.log"
printf '[ 1.0] vmalloc error: size 4096, vm_struct allocation failed\n' > "$tmp/clean.log"
[ -n "$(splats "$tmp/splat.log")" ] && ok "splat detector finds a WARNING" || bad "splat detector missed a WARNING"
[ -z "$(splats "$tmp/clean.log")" ] && ok "splat detector passes an allocation failure message" ||
	bad "splat detector flagged a clean log"
# Inside EXPECT-WARN markers (bad-input tests) a WARN is expected, a BUG is not.
printf '@@VX EXPECT-WARN begin\n[ 1.0] WARNING: CPU: 0 PID: 1 at mm/vmalloc.c:9 vm_unmap_ram\n@@VX EXPECT-WARN end\n' > "$tmp/xwarn.log"
[ -z "$(splats "$tmp/xwarn.log")" ] && ok "splat detector accepts an expected WARN" ||
	bad "splat detector flagged an expected WARN"
printf '@@VX EXPECT-WARN begin\n[ 1.0] BUG: unable to handle page fault\n@@VX EXPECT-WARN end\n' > "$tmp/xbug.log"
[ -n "$(splats "$tmp/xbug.log")" ] && ok "splat detector finds a BUG among expected WARNs" ||
	bad "splat detector missed a BUG among expected WARNs"

# The compare report: medians, x_floor (a case over the floor case of the
# same kernel, pages and threads), ratios, labels.
c=$tmp/cmp; mkdir -p "$c/k1" "$c/k2"
printf 'id=a\npoint=0 stock\nconfig_dropped=\n' > "$c/k1/identity"
printf 'id=b\npoint=10 0002-xfs\nconfig_dropped=FOO\n' > "$c/k2/identity"
printf 'stock-6.1 linux-source-6.1 0 %s\nfull linux-source-6.1 10 %s\n' "$c/k1" "$c/k2" > "$c/kernels.txt"
echo "compare.sh test" > "$c/command"
for r in 1 2 3; do
	echo "$r,stock-6.1,vmapbench,vm_map_ram-p4-t1,ns_per_op,$((3000 + r))"
	echo "$r,stock-6.1,vmapbench,floor-p4-t1,ns_per_op,1500"
	echo "$r,full,vmapbench,vm_map_ram-p4-t1,ns_per_op,$((1500 + r))"
	echo "$r,full,vmapbench,floor-p4-t1,ns_per_op,1000"
done > "$c/raw.csv"
compare_report "$c" > "$tmp/cmp.out" 2>&1 || true
grep -q '^vmapbench,vm_map_ram-p4-t1,x_floor,stock-6.1,2.00,' "$c/compare.csv" &&
	grep -q '^vmapbench,vm_map_ram-p4-t1,ns_per_op,full,1502,1501,1503,3,3$' "$c/compare.csv" &&
	ok "compare: medians and x_floor" || bad "compare: medians and x_floor: $(head -c 300 "$c/compare.csv")"
grep -q '| vm_map_ram-p4-t1 | 0.50 \[0.50-0.50\] faster |' "$c/compare.md" && grep -q 'full / stock-6.1' "$c/compare.md" &&
	grep -q '^- full / stock-6.1: geometric mean of time ratios 0.500 over 1 case(s)' "$c/compare.md" &&
	grep -q '| full | linux-source-6.1 | 10 0002-xfs | k2 | FOO |' "$c/kernels.md" &&
	ok "compare: versus table with verdicts, summary line and kernel labels" ||
	bad "compare: versus table with verdicts, summary line and kernel labels"
# The statistics' unit tests (scripts/test_stats.py, known answers).
"$VX_PYTHON" "$S/test_stats.py" > "$tmp/stats.out" 2>&1 || true
t_merge "$tmp/stats.out"
grep -q '^PASS stats' "$tmp/stats.out" || bad "stats unit tests did not run: $(tail -n 3 "$tmp/stats.out")"

# A scaling series: labels LABEL@N become a kernel x vCPUs table, with
# the counts above the host's cores marked oversubscribed.
c=$tmp/scal; mkdir -p "$c"
printf 'full@1 linux-source-6.1 10 %s\nfull@4 linux-source-6.1 10 %s\n' "$tmp/cmp/k2" "$tmp/cmp/k2" > "$c/kernels.txt"
echo "compare.sh scaling" > "$c/command"; echo "host_cores=2" > "$c/scaling"
for r in 1 2 3; do
	echo "$r,full@1,dircreate,create,files_per_s,$((1000 + r))"
	echo "$r,full@4,dircreate,create,files_per_s,$((3000 + r))"
done > "$c/raw.csv"
compare_report "$c" > "$tmp/scal.out" 2>&1 || true
grep -q '| kernel | phase | 1 vCPU | 4 vCPU\* |' "$c/compare.md" && grep -q '| full | create | 1002 | 3002 |' "$c/compare.md" &&
	ok "compare: scaling table, oversubscribed column marked" || bad "compare: scaling table: $(grep -A4 'files_per_s$' "$c/compare.md" | head -c 300)"
[ -s "$c/scaling-dircreate-files_per_s-create.png" ] && grep -q 'scaling-dircreate-files_per_s-create.png' "$c/compare.md" &&
	ok "compare: scaling plot per phase" || bad "compare: scaling plot per phase: $(ls "$c")"

# fstests: the xunit report read into pass/fail/notrun; a splat while a
# test ran fails it; a test the guest died in is "crash".
f=$tmp/fst; mkdir -p "$f/results"
cat > "$f/results/result.xml" <<'XML'
	<testcase classname="xfstests.global" name="generic/001" time="12">
	</testcase>
	<testcase classname="xfstests.global" name="generic/002" time="0">
		<skipped message="no fsgqa user" />
	</testcase>
	<testcase classname="xfstests.global" name="generic/003" time="5">
		<failure message="- output mismatch (see generic/003.out.bad)" type="TestFail" />
	</testcase>
	<testcase classname="xfstests.global" name="generic/004" time="7">
	</testcase>
XML
printf 'run fstests generic/001 at x\nrun fstests generic/004 at y\n[ 9.0] WARNING: CPU: 1 at fs/xfs/xfs_buf.c:1 foo\nrun fstests generic/005 at z\n' > "$f/console.log"
fstests_status "$f"
if grep -qx 'generic/001,pass,12,' "$f/status.csv" && grep -qx 'generic/002,notrun,0,no fsgqa user' "$f/status.csv" &&
	grep -q '^generic/003,fail,5,- output mismatch' "$f/status.csv" && grep -q '^generic/004,fail,7,kernel splat: ' "$f/status.csv" &&
	grep -q '^generic/005,crash,,' "$f/status.csv"; then
	ok "fstests: statuses, splat attributed to its test, crash"
else
	bad "fstests: statuses: $(tr '\n' ' ' < "$f/status.csv")"
fi
expect_error "fstests refuses an unknown config" "no images/fstests/configs/nosuch" \
	env FSTESTS_CFG=nosuch "$S/fstests.sh" run

# No harness knob reaches another project's build: every name the
# Makefile exports is one foreign() removes, and it removes them from the
# environment and from MAKEFLAGS.
unlisted=$(sed -n 's/^export //p' "$VX_ROOT/Makefile" | tr ' ' '\n' | grep . |
	while read -r v; do
		case " $(echo $VX_KNOBS) " in *" $v "*) ;; *) case $v in VX_*) ;; *) printf ' %s' "$v" ;; esac ;; esac
	done)
[ -z "$unlisted" ] && ok "every name the Makefile exports is in VX_KNOBS" ||
	bad "the Makefile exports names foreign() does not remove:$unlisted"
leaked=$(DEBUG=0 CPUS=2 SERIES=3 VX_APPEND=x MAKEFLAGS=" DEBUG=0" MAKEOVERRIDES='${-*-command-variables-*-}' \
	foreign env | grep -E '^(DEBUG|CPUS|SERIES|VX_APPEND|MAKEFLAGS|MAKEOVERRIDES)=' | tr '\n' ' ')
[ -z "$leaked" ] && ok "foreign() runs a build without the harness's names" || bad "foreign() leaks: $leaked"

# fstests: fetched at its pinned commit from a git URL (here a local
# mirror: the fetch path on a machine that cannot reach upstream) and
# built in an empty cache with the harness's environment, DEBUG=0 and all
# (fstests' configure takes DEBUG for a gcc flag).
ctmp=$(mkdir -p "$VX_CACHE" && mktemp -d "$VX_CACHE/selftest.XXXXXX")
trap 'rm -rf "$tmp" "$ctmp"' EXIT
# The mirror's files: the snapshot, or the FSTESTS_SRC tarball or tree.
snap=$(ls "$VX_SHARED"/xfstests-*.tar.gz 2>/dev/null | head -n 1)
snap=${FSTESTS_SRC:-$snap}
mkdir -p "$ctmp/mirror"
case $snap in
*.tar.*|*.tgz) tar -xf "$snap" -C "$ctmp/mirror" --strip-components=1 2>/dev/null || snap="" ;;
*://*|git@*|"") snap="" ;;
*) cp -R "$snap/." "$ctmp/mirror/" 2>/dev/null || snap="" ;;
esac
if [ -n "$snap" ]; then
	git -C "$ctmp/mirror" init -q && git -C "$ctmp/mirror" add -A -f &&
		git -C "$ctmp/mirror" -c user.name=vx -c user.email=vx@localhost commit -q -m mirror
	mc=$(git -C "$ctmp/mirror" rev-parse HEAD)
	echo change > "$ctmp/mirror/VX-LATER" && git -C "$ctmp/mirror" add VX-LATER &&
		git -C "$ctmp/mirror" -c user.name=vx -c user.email=vx@localhost commit -q -m later
	rc=0
	env VX_CACHE="$ctmp/cache" VX_SHARED=/nonexistent FSTESTS_SRC= FSTESTS_URL="file://$ctmp/mirror" \
		FSTESTS_COMMIT="$mc" DEBUG=0 CPUS=2 MEM=2G SERIES= PLAN=vmalloc MAKEFLAGS=" DEBUG=0" \
		"$S/fstests.sh" build > "$tmp/fbuild.out" 2>&1 || rc=$?
	fd=$(tail -n 1 "$tmp/fbuild.out")
	if [ "$rc" = 0 ] && [ -x "$fd/check" ] && [ -x "$fd/src/punch-alternating" ] && [ ! -e "$fd/VX-LATER" ]; then
		ok "fstests fetched at its commit from a git URL and built in an empty cache, DEBUG=0 exported"
	else
		bad "fstests fetch and build (rc=$rc): $(tail -n 5 "$tmp/fbuild.out" | tr '\n' ' ')"
	fi
	expect_error "fstests: a URL without the pinned commit fails, never takes its head" "has no commit 0{40}" \
		env VX_CACHE="$ctmp/cache" VX_SHARED=/nonexistent FSTESTS_SRC= FSTESTS_URL="file://$ctmp/mirror" \
		FSTESTS_COMMIT=0000000000000000000000000000000000000000 "$S/fstests.sh" build
else
	t_skip "selftest:fstests-fetch" "no snapshot in $VX_SHARED and no FSTESTS_SRC tarball or tree to make a mirror of"
fi
# Offline with no copy: make test's fstests part is a skip that says why
# and how to provide fstests, not a failure and not silence.
rc=0
env VX_CACHE="$ctmp/cache" VX_SHARED=/nonexistent FSTESTS_SRC= FSTESTS_URL="file://$ctmp/no-such-mirror" \
	"$S/fstests.sh" test /nonexistent "$ctmp/out" > "$tmp/foff.out" 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -q '^SKIP fstests no fstests source: cannot fetch' "$tmp/foff.out" &&
	grep -q 'provide one: FSTESTS_SRC=' "$tmp/foff.out" && tail -n 1 "$tmp/foff.out" | grep -qx '0 passed, 0 failed, 1 skipped'; then
	ok "fstests with no source to be had: a skip with the reason"
else
	bad "fstests with no source (rc=$rc): $(tail -n 4 "$tmp/foff.out" | tr '\n' ' ')"
fi

if [ -n "${1:-}" ]; then
	# A guest that hangs is killed at its timeout and reported as such.
	rc=0
	"$S/boot.sh" "$1" "$tmp/hang" hang 45 >"$tmp/hang.out" 2>&1 || rc=$?
	if [ "$rc" = 3 ] && grep -q 'timeout' "$tmp/hang.out"; then ok "hung guest killed at its timeout"
	else bad "hung guest: rc=$rc $(tail -n 3 "$tmp/hang.out")"; fi
	# A step the guest does not know is a failure, not a silent skip.
	"$S/boot.sh" "$1" "$tmp/unk" no-such-step 120 >/dev/null 2>&1 || true
	markers "$tmp/unk/console.log" | grep -q '^TEST FAIL plan:unknown-step' &&
		ok "unknown plan step fails" || bad "unknown plan step did not fail"
fi
t_finish
