# Shared helpers for the harness scripts.  Sourced, never executed.
# shellcheck shell=sh

# Repository root: the directory above scripts/.
VX_ROOT=$(cd "$(dirname "$0")/.." && pwd)

# Everything generated lives outside the repository by default.
VX_CACHE=${VX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vmapxfs}
VX_RESULTS=${VX_RESULTS:-$VX_ROOT/results}
# The team's shared files beside the checkout (an fstests snapshot).
VX_SHARED=${VX_SHARED:-$VX_ROOT/../shared}

# User-facing knobs (the Makefile passes them through the environment).
KSRC=${KSRC:-linux-source-6.1}
SERIES=${SERIES:-}
CPUS=${CPUS:-2}
MEM=${MEM:-2G}
DEBUG=${DEBUG:-0}
ACCEL=${ACCEL:-auto}
JOBS=${JOBS:-$(nproc)}

vx_prog=$(basename "$0")
# Debian's python3, whose packages (python3-scipy) deps.sh installs; not
# whichever python3 comes first in PATH.
VX_PYTHON=${VX_PYTHON:-/usr/bin/python3}

# Every name the harness reads from its environment (the Makefile exports
# most of them).  Several are generic (DEBUG, CPUS, SERIES, PLAN) and mean
# something else to another project's build: fstests' configure records
# DEBUG and hands it to gcc.  foreign() keeps them, and our VX_* names,
# out of such builds; selftest.sh checks that the Makefile exports no name
# missing here.
VX_KNOBS="KSRC SERIES CPUS MEM DEBUG VARIANT PLAN ACCEL TIMEOUT JOBS FORCE
CHECK_ONLY POINTS REPEAT REPEAT_TARGET REPEAT_MAX VS GOOD BAD BISECT_PLAN BISECT_METRIC BISECT_ABOVE
BISECT_BELOW BROKEN_AFTER CRASH_WL FRAG_LIMIT TEST_FSTESTS FSTESTS_CFG
FSTESTS_TESTS FSTESTS_SRC FSTESTS_URL FSTESTS_COMMIT FSTESTS_TIMEOUT
FSTESTS_MEM FSTESTS_JOBS"

# foreign CMD...: run another project's configure or make (the kernel's,
# fstests') without the harness's knobs and VX_* names in its environment,
# and as a make of its own: under `make test DEBUG=1` MAKEFLAGS carries
# DEBUG=1 to every make below it.
foreign() {
	# shellcheck disable=SC2046
	env $(for _v in $VX_KNOBS $(env | sed -n 's/^\(VX_[A-Za-z0-9_]*\)=.*/\1/p'); do
		printf -- '-u %s ' "$_v"; done) -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL "$@"
}

log()  { printf '%s: %s\n' "$vx_prog" "$*" >&2; }
die()  { printf '%s: error: %s\n' "$vx_prog" "$*" >&2; exit 2; }

# progress STEP...: a timestamped line for long steps.
progress() { printf '[%s] %s: %s\n' "$(date +%H:%M:%S)" "$vx_prog" "$*" >&2; }

need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found; run 'make deps' (or scripts/deps.sh) to install what is missing"
	done
}

# run_logged LOG CMD...: run CMD with output in LOG; on failure show its
# tail and keep the log.
run_logged() {
	_log=$1; shift
	if ! "$@" >"$_log" 2>&1; then
		tail -n 40 "$_log" >&2
		die "'$*' failed; full log: $_log"
	fi
}

short_hash() { sha256sum | cut -c1-8; }

# ---- kernel source ------------------------------------------------------

# ksrc_tarball: the tarball named by KSRC (a package name, a tarball path
# or an extracted directory).
ksrc_tarball() {
	case $KSRC in
	/*|./*|../*)
		[ -e "$KSRC" ] || die "KSRC=$KSRC does not exist"
		echo "$KSRC" ;;
	*)
		dpkg-query -W -f='${Status}' "$KSRC" 2>/dev/null | grep -q 'ok installed' ||
			die "package $KSRC is not installed (try 'make deps KSRC=$KSRC'; 'apt-cache policy $KSRC' shows whether Debian has it)"
		_t=$(dpkg -L "$KSRC" | grep -E '\.tar\.(xz|bz2|gz)$' | head -n 1)
		[ -n "$_t" ] && [ -f "$_t" ] || die "package $KSRC ships no source tarball"
		echo "$_t" ;;
	esac
}

# ksrc_version: a stable name for the tree: package_version, or the
# tarball/directory name with a content stamp.
ksrc_version() {
	case $KSRC in
	/*|./*|../*)
		echo "$(basename "$KSRC" | sed 's/\.tar\..*//')-$(stat -c %Y "$KSRC")" ;;
	*)
		echo "${KSRC}_$(dpkg-query -W -f='${Version}' "$KSRC")" ;;
	esac
}

tree_dir() { echo "$VX_CACHE/trees/$(ksrc_version)"; }

# ---- series ---------------------------------------------------------------

# The patch directory (a test may point it at a series of its own).
VX_PATCHES=${VX_PATCHES:-$VX_ROOT/patches}

# series_list: the patches of patches/series, one per line, in order.
series_list() {
	[ -f "$VX_PATCHES/series" ] || die "$VX_PATCHES/series is missing"
	sed -e 's/#.*//' -e 's/[[:space:]].*//' "$VX_PATCHES/series" | grep -v '^$' || true
}

series_count() { series_list | wc -l; }

# series_point: how many patches SERIES selects.  Empty = all, "stock" or
# 0 = none, a number N = the first N, a patch name = up to and including it.
# The last patch of the baseline: the kernel as it was before the rewrite
# (SERIES=baseline).
VX_BASELINE=${VX_BASELINE:-xfs/0001-xfs-batch-vunmap-of-buffer-mappings.patch}

series_point() {
	_n=$(series_count)
	_s=$SERIES
	[ "$_s" != baseline ] || _s=$VX_BASELINE
	case $_s in
	"") echo "$_n" ;;
	stock) echo 0 ;;
	*[!0-9]*)
		_i=$(series_list | grep -n -x -F -e "$_s" -e "mm/$_s" -e "xfs/$_s" | head -n 1 | cut -d: -f1)
		[ -n "$_i" ] || series_die "SERIES=$SERIES names no patch in patches/series"
		echo "$_i" ;;
	*)
		[ "$SERIES" -le "$_n" ] || series_die "SERIES=$SERIES but patches/series has only $_n patches"
		echo "$SERIES" ;;
	esac
}

series_die() {
	{
		echo "$vx_prog: error: $*"
		echo "valid points: stock (0), baseline, 1..$(series_count), or one of:"
		series_list | sed 's/^/  /'
	} >&2
	exit 2
}

# point_name N: "stock" or the N-th patch without directory and suffix.
point_name() {
	if [ "$1" -eq 0 ]; then
		echo stock
	else
		series_list | sed -n "${1}p" | sed -e 's#.*/##' -e 's/\.patch$//'
	fi
}

# ---- configuration --------------------------------------------------------

# DEBUG=0: normal kernels; 1: lockdep, DEBUG_VM, fault injection...;
# kasan: KASAN with KASAN_VMALLOC (images/kasan.config).
# VARIANT="NAME ...": add images/variants/NAME.config after those, e.g.
# xfsdebug (CONFIG_XFS_DEBUG, for XFS error injection); the variant's name
# becomes e.g. normal+xfsdebug, with a build directory of its own.
VARIANT=${VARIANT:-}
for _x in $VARIANT; do
	[ -f "$VX_ROOT/images/variants/$_x.config" ] || {
		printf '%s: error: VARIANT=%s: no images/variants/%s.config (have: %s)\n' "$(basename "$0")" \
			"$_x" "$_x" "$(ls "$VX_ROOT/images/variants" | sed 's/\.config$//' | tr '\n' ' ')" >&2
		exit 2
	}
done

variant() {
	case $DEBUG in
	0|"") _v=normal ;;
	1) _v=debug ;;
	kasan) _v=kasan ;;
	*) die "DEBUG=$DEBUG: use 0, 1 or kasan" ;;
	esac
	for _x in $VARIANT; do _v=$_v+$_x; done
	echo "$_v"
}

config_fragments() {
	echo "$VX_ROOT/images/guest.config"
	case $DEBUG in
	1) echo "$VX_ROOT/images/debug.config" ;;
	kasan) echo "$VX_ROOT/images/kasan.config" ;;
	esac
	for _x in $VARIANT; do echo "$VX_ROOT/images/variants/$_x.config"; done
}

config_hash() { config_fragments | xargs cat | short_hash; }

build_dir() { echo "$VX_CACHE/build/$(ksrc_version)-$(variant)"; }

# on_interrupt FUNC: on SIGINT, SIGTERM and SIGHUP run FUNC with the exit
# status a shell gives for that signal (130, 143, 129); FUNC exits.
on_interrupt() {
	trap "$1 130" INT
	trap "$1 143" TERM
	trap "$1 129" HUP
}

# tree_lock: hold the lock of KSRC's tree (on fd 9) until this process
# and its children end.  Runs on one machine share a tree's checkout and
# its build directories, so a make compare next to a make fstests would
# otherwise move the tree under the other's build.  One lock per tree: a
# make test of 6.1 does not wait for a build of 6.12.  Children
# (VX_TREE_LOCKED naming the tree in their environment) hold it through
# their parent.
tree_lock() {
	_v=$(ksrc_version)
	[ "${VX_TREE_LOCKED:-}" != "$_v" ] || return 0
	need_cmd flock
	mkdir -p "$VX_CACHE/locks"
	exec 9> "$VX_CACHE/locks/tree-$_v.lock"
	if ! flock -n 9; then
		progress "waiting for another run's checkout or build of $_v ($VX_CACHE/locks/tree-$_v.lock)"
		flock 9
	fi
	export VX_TREE_LOCKED="$_v"
}

# kernel_id N: the identity of the kernel at series point N.
kernel_id() {
	_tree=$(git -C "$(tree_dir)" rev-parse "vx-point-$1^{tree}" 2>/dev/null | cut -c1-8) ||
		die "series point $1 is not applied in $(tree_dir); run scripts/tree.sh"
	echo "$(ksrc_version)+p$1-$(point_name "$1")+src$_tree+$(variant)-cfg$(config_hash)"
}

kernel_dir() { echo "$VX_CACHE/kernels/$1"; }

# ---- kernel build -----------------------------------------------------------

# kmake TREE BUILD ARGS...: make in kernel TREE with objects in BUILD, with
# the harness's compilers (ccache; CCACHE_DIR is the caller's).
kmake() {
	_t=$1 _b=$2; shift 2
	foreign make -C "$_t" O="$_b" CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}

# ext_modules TREE BUILD DEST: build each out-of-tree module of ours
# (workloads/NAME/Kbuild) against the kernel built in BUILD and copy its
# .ko files to DEST.  Kbuild writes its objects next to the sources, so it
# builds a copy in BUILD-extmod/NAME (log: BUILD-extmod/NAME.log).
ext_modules() {
	for _kb in "$VX_ROOT"/workloads/*/Kbuild; do
		[ -f "$_kb" ] || continue
		_src=$(dirname "$_kb")
		_name=$(basename "$_src")
		_d="$2-extmod/$_name"
		rm -rf "$_d"
		mkdir -p "$_d"
		cp -R "$_src/." "$_d/"
		progress "building external module workloads/$_name"
		if ! kmake "$1" "$2" M="$_d" modules >"$_d.log" 2>&1; then
			tail -n 20 "$_d.log" >&2
			die "external module workloads/$_name does not build against $2; full log: $_d.log"
		fi
		ls "$_d"/*.ko >/dev/null 2>&1 || die "external module workloads/$_name built no .ko (Kbuild has no obj-m?); log: $_d.log"
		cp "$_d"/*.ko "$3/"
	done
}

# ext_modules_stale K: true when a module of workloads/*/Kbuild is missing
# from kernel directory K or older than its sources.
ext_modules_stale() {
	for _kb in "$VX_ROOT"/workloads/*/Kbuild; do
		[ -f "$_kb" ] || continue
		_src=$(dirname "$_kb")
		for _o in $(sed -n 's/^obj-m[[:space:]]*[:+]*=//p' "$_kb"); do
			_ko="$1/modules/${_o%.o}.ko"
			[ -f "$_ko" ] && [ -z "$(find "$_src" -newer "$_ko" | head -n 1)" ] || return 0
		done
	done
	return 1
}

# ---- host load ----------------------------------------------------------------

# host_cpu TIMES: "BUSY STEAL CHILDREN LOAD1 GUESTS BUILDS" now: the
# host's busy and stolen CPU time in seconds (/proc/stat), the CPU time of
# the caller's waited-for children (TIMES: a file the caller's own shell
# wrote with `times`; a subshell's would not have them), the 1-minute
# load average, and how many QEMU guests and compilers run.
host_cpu() {
	_ch=$(sed -n 2p "$1" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } print s }')
	awk -v hz="$(getconf CLK_TCK)" -v ch="$_ch" -v ld1="$(cut -d' ' -f1 /proc/loadavg)" \
		-v guests="$(ps -e -o comm= | grep -c '^qemu-system' || true)" \
		-v builds="$(ps -e -o comm= | grep -c -x -E 'cc1|cc1plus|rustc|ld' || true)" \
		'$1 == "cpu" { printf "%.2f %.2f %s %s %d %d\n", ($2 + $3 + $4 + $7 + $8) / hz, $9 / hz, ch, ld1, guests, builds }' /proc/stat
}

# host_load BEFORE AFTER WALL: KEY=VALUE lines of how busy the host was
# with other work than the guest (its QEMU is the children's time) in
# WALL seconds: others_cpu_pct (of one core), steal_pct, load1 at the
# start, and the most other QEMU guests and compilers seen (BEFORE is
# taken before the guest starts, AFTER once it has ended).
host_load() {
	echo "$1 $2 $3" | awk '{
		w = $13 > 0 ? $13 : 1; other = ($7 - $1) - ($9 - $3); if (other < 0) other = 0
		g = ($5 > $11 ? $5 : $11)
		printf "wall_s=%d\nguest_cpu_s=%.1f\nothers_cpu_pct=%.0f\nsteal_pct=%.0f\nload1=%s\nother_guests=%d\nbuilds=%d\n",
			w, $9 - $3, other * 100 / w, ($8 - $2) * 100 / w, $4, g, ($6 > $12 ? $6 : $12) }'
}

# ---- results ----------------------------------------------------------------

# new_run_dir WHAT: a fresh results directory for this invocation.
new_run_dir() {
	_d="$VX_RESULTS/$(date +%Y%m%d-%H%M%S)-$1"
	_i=1
	while [ -e "$_d" ]; do _d="$VX_RESULTS/$(date +%Y%m%d-%H%M%S)-$1.$_i"; _i=$((_i + 1)); done
	mkdir -p "$_d"
	echo "$_d"
}
