# fstests: its source and build, and the reading of its results (sourced
# by fstests.sh, run.sh and selftest.sh; needs common.sh and guest.sh).
# shellcheck shell=sh

VX_FST=$VX_ROOT/images/fstests

# The fstests commit the lists of images/fstests/ (known failures above
# all) were made with.  A fetch takes this commit, never a branch's head.
FSTESTS_COMMIT=${FSTESTS_COMMIT:-63a29724a85f1999e49bf0a9bf0d22643b6116e5}
FSTESTS_URL=${FSTESTS_URL:-https://git.kernel.org/pub/scm/fs/xfs/xfstests-dev.git}

# fstests_unavailable WHY: no fstests source can be had (exit 3, which
# make test reports as a skip); says how to provide one.
fstests_unavailable() {
	printf '%s: error: no fstests source: %s; provide one: FSTESTS_SRC=DIR, TARBALL or git URL, or the snapshot ../shared/xfstests-*.tar.gz, or a network that reaches %s (fetched at %s)\n' \
		"$vx_prog" "$1" "$FSTESTS_URL" "$FSTESTS_COMMIT" >&2
	exit 3
}

# fstests_src: FSTESTS_SRC (a directory, a tarball or a git URL), else the
# team's snapshot in ../shared (it must be of FSTESTS_COMMIT), else
# FSTESTS_URL.
fstests_src() {
	if [ -n "${FSTESTS_SRC:-}" ]; then
		echo "$FSTESTS_SRC"
		return
	fi
	_s=$(ls "$VX_SHARED"/xfstests-*.tar.gz 2>/dev/null | head -n 1)
	if [ -z "$_s" ]; then
		echo "$FSTESTS_URL"
		return
	fi
	_c=$(gzip -dc "$_s" | git get-tar-commit-id 2>/dev/null || true)
	[ "$_c" = "$FSTESTS_COMMIT" ] ||
		die "$_s is fstests ${_c:-of an unknown commit (not a git archive)}, not $FSTESTS_COMMIT, the commit images/fstests/ was made with (set FSTESTS_SRC=$_s to use it anyway)"
	echo "$_s"
}

# fstests_fetch URL: FSTESTS_COMMIT of the git repository at URL, checked
# out once in the cache; prints the checkout.  A server that refuses a
# fetch by commit id gets a fetch of its branches.
fstests_fetch() {
	echo "$FSTESTS_COMMIT" | grep -q -x '[0-9a-f]\{40\}' ||
		die "FSTESTS_COMMIT=$FSTESTS_COMMIT: a git fetch needs the whole 40-digit commit id"
	_g="$VX_CACHE/fstests/git-$FSTESTS_COMMIT"
	_l="$_g.log"
	# Runs at once fetch it once (fstests_build's lock comes later).
	need_cmd flock
	mkdir -p "$VX_CACHE/fstests"
	exec 8> "$_g.lock"
	flock 8
	if [ ! -f "$_g/.vx-fetched" ]; then
		progress "fetching fstests $FSTESTS_COMMIT from $1 (log: $_l)"
		rm -rf "$_g"
		git init -q "$_g"
		if ! timeout 600 git -C "$_g" fetch --depth 1 "$1" "$FSTESTS_COMMIT" > "$_l" 2>&1 &&
			! timeout 1800 git -C "$_g" fetch "$1" '+refs/heads/*:refs/remotes/origin/*' >> "$_l" 2>&1; then
			fstests_unavailable "cannot fetch from $1: $(grep -m 1 '^fatal:' "$_l" || tail -n 1 "$_l")"
		fi
		git -C "$_g" -c advice.detachedHead=false checkout -q "$FSTESTS_COMMIT" >> "$_l" 2>&1 ||
			die "$1 has no commit $FSTESTS_COMMIT (log: $_l)"
		touch "$_g/.vx-fetched"
	fi
	exec 8>&-
	echo "$_g"
}

# fstests_build: build the suite once per source (cached by content hash,
# or commit, under $VX_CACHE/fstests/) and print the directory to run
# check in.  Exits 3 when there is no source to be had.
fstests_build() {
	_src=$(fstests_src)
	mkdir -p "$VX_CACHE/fstests"
	case $_src in
	*://*|git@*)
		_g=$(fstests_fetch "$_src")
		_h=git$(echo "$FSTESTS_COMMIT" | cut -c1-12) ;;
	*.tar.*|*.tgz)
		[ -f "$_src" ] || die "FSTESTS_SRC=$_src does not exist"
		_h=tar$(short_hash < "$_src") ;;
	*)
		[ -f "$_src/check" ] || die "FSTESTS_SRC=$_src is not an fstests tree (no check script)"
		# Names, sizes and times of every file: an edit, a new file or a
		# deleted one is a new source.
		_h=dir$(cd "$_src" && find . -path ./results -prune -o -type f -printf '%p %s %T@\n' |
			sort | short_hash) ;;
	esac
	_d="$VX_CACHE/fstests/$_h"
	# Runs at once (make test next to make fstests) build it once.
	need_cmd flock
	exec 8> "$_d.lock"
	flock 8
	if [ ! -f "$_d/.built" ]; then
		progress "building fstests from $_src (log: $_d.log)"
		rm -rf "$_d"
		mkdir -p "$_d"
		case $_src in
		*://*|git@*) { mkdir -p "$_d/xfstests" && git -C "$_g" archive HEAD | tar -x -C "$_d/xfstests"; } ||
			die "cannot copy the checkout $_g" ;;
		*.tar.*|*.tgz)
			{ tar -xf "$_src" -C "$_d" && mv "$_d"/*/ "$_d/xfstests.tmp" &&
				mv "$_d/xfstests.tmp" "$_d/xfstests"; } ||
				die "cannot extract $_src (one top directory expected)" ;;
		*) { mkdir -p "$_d/xfstests" && cp -R "$_src/." "$_d/xfstests/"; } || die "cannot copy $_src" ;;
		esac
		# (configure and make without the harness's DEBUG, CPUS, ...)
		run_logged "$_d.log" foreign make -C "$_d/xfstests" -j"$JOBS"
		[ -x "$_d/xfstests/src/punch-alternating" ] || die "fstests built without its test programs; log: $_d.log"
		touch "$_d/.built"
	fi
	exec 8>&-
	echo "$_d/xfstests"
}

# fstests_args TESTS: check's arguments: the lines of images/fstests/lists/
# TESTS when there is such a list, else TESTS as they are.
fstests_args() {
	if [ -f "$VX_FST/lists/$1" ]; then
		sed 's/#.*//' "$VX_FST/lists/$1" | tr '\n' ' '
	else
		echo "$1"
	fi
}

# fstests_totals: "N pass, N fail, N notrun, Ns" of the test,status,seconds
# rows on stdin (a boot's status.csv); a crash counts as a failure.
fstests_totals() {
	awk -F, '{ n[$2]++; s += $3 }
		END { printf "%d pass, %d fail, %d notrun, %ds\n", n["pass"], n["fail"] + n["crash"], n["notrun"], s }'
}

# fstests_status DIR: test,status,seconds,note rows of one boot: fstests'
# xunit report (pass, fail, notrun with its reason); a test that check
# started but that has no record (the guest died or was killed in it) is
# "crash"; a kernel splat on the console while a test ran fails that test.
fstests_status() {
	_x="$1/results/result.xml"
	{
		[ ! -f "$_x" ] || awk '
		function attr(s, a,   i, r) {
			i = index(s, " " a "=\""); if (!i) return ""
			r = substr(s, i + length(a) + 3); return substr(r, 1, index(r, "\"") - 1)
		}
		# (xunit-quiet has no CDATA; a full xunit report may: skip it)
		/<!\[CDATA\[/ { cd = 1 }
		cd { if (index($0, "]]>")) cd = 0; next }
		/^[ \t]*<testcase / { t = attr($0, "name"); sec = attr($0, "time"); st = "pass"; note = "" }
		/^[ \t]*<skipped/ && t != "" { st = "notrun"; note = attr($0, "message") }
		/^[ \t]*<failure/ && t != "" { st = "fail"; note = attr($0, "message") }
		/^[ \t]*<\/testcase>/ && t != "" { gsub(/,/, ";", note); print t "," st "," sec "," note; t = "" }' "$_x"
		# The test running when the log ends, if it has no record.
		_last=$(tr -d '\r' < "$1/console.log" | sed -n 's/.*run fstests \([^ ]*\) at .*/\1/p' | tail -n 1)
		if [ -n "$_last" ] && ! grep -q "name=\"$_last\"" "$_x" 2>/dev/null; then
			echo "$_last,crash,,no result: the guest stopped in this test"
		fi
	} > "$1/status.csv.tmp"
	fstests_splats "$1/console.log" > "$1/splats.txt"
	awk -F, 'FILENAME == ARGV[1] { i = index($0, ": "); t = substr($0, 1, i - 1)
			if (!(t in s)) { s[t] = substr($0, i + 2); gsub(/,/, ";", s[t]) }; next }
		($1 in s) && $2 != "fail" && $2 != "crash" { $2 = "fail"; $4 = "kernel splat: " s[$1] }
		{ print $1 "," $2 "," $3 "," $4 }' "$1/splats.txt" "$1/status.csv.tmp" > "$1/status.csv"
	rm -f "$1/status.csv.tmp"
}

# fstests_splats LOG: "TEST: splat line" per splat on the console, TEST the
# test whose "run fstests TEST at" line came last before it ("-" before the
# first test and after check's summary).  check's own output (@@VX
# FSTESTS lines: diffs, tools' warnings) is not the kernel's.
fstests_splats() {
	tr -d '\r' < "$1" | awk -v re="$VX_SPLAT" '
		/run fstests [^ ]* at / { for (i = 1; i < NF; i++) if ($i == "fstests") t = $(i + 1) }
		/@@VX (FSTESTS Ran:|DONE)/ { t = "" }
		/@@VX FSTESTS / { next }
		$0 ~ re { print (t ? t : "-") ": " $0 }'
}
