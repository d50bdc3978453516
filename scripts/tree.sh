#!/bin/sh
# Extract the kernel tree (cached, keyed by package version) into a git
# repository outside the project, apply patches/series as one commit per
# patch, and check out the series point SERIES selects.  At stock (SERIES=
# stock) the series is not applied, so any tree can be built at stock.
# Prints the tree path on stdout.
set -eu
. "$(dirname "$0")/lib/common.sh"
need_cmd git tar
tree_lock

t=$(tree_dir)
# gc.auto=0: an automatic gc would go on in the background, holding the
# tree lock (lib/common.sh) after we exit; the tree is a cache.
g() { git -C "$t" -c gc.auto=0 -c user.name=vmapxfs -c user.email=vmapxfs@localhost "$@"; }

extract() {
	tarball=$(ksrc_tarball)
	progress "extracting $tarball into $t (once per version)"
	tmp="$t.tmp"
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if [ -d "$tarball" ]; then
		cp -a "$tarball/." "$tmp/"
	else
		tar xf "$tarball" -C "$tmp" --strip-components=1
	fi
	progress "recording the stock tree as a git commit"
	git -C "$tmp" init -q
	# Debian's top-level .gitignore ignores everything: add by force.
	git -C "$tmp" add -A -f
	git -C "$tmp" -c gc.auto=0 -c user.name=vmapxfs -c user.email=vmapxfs@localhost \
		commit -q -m "stock $(ksrc_version)"
	git -C "$tmp" tag vx-stock
	rm -rf "$t"
	mv "$tmp" "$t"
}

# apply_series: rebuild the chain vx-point-0..N from the stock commit when
# the patch contents changed.  Each point is tagged, so a point's tree is
# reproducible and 'git bisect' runs over the tags naturally.
apply_series() {
	key=$( (cd "$VX_PATCHES" && series_list | while read -r p; do
		[ -f "$p" ] || series_die "patches/series lists $p but patches/$p does not exist"
		echo "$p"; cat "$p"; done) | short_hash)
	[ "$(g config --get vx.serieskey || true)" != "$key" ] || return 0
	progress "applying patches/series ($(series_count) patches) to $(ksrc_version)"
	g tag -l 'vx-point-*' | while read -r tag; do g tag -d "$tag" >/dev/null; done
	g checkout -q --detach vx-stock
	# Files the patches add are ignored by Debian's .gitignore: a stale
	# copy left by an earlier series would make 'git am' refuse them.
	# Every stock file is tracked, and builds live outside the tree.
	g clean -q -f -d -x
	g tag vx-point-0
	n=0
	series_list > "$t.series"
	while read -r p; do
		n=$((n + 1))
		if ! g am -q --keep-cr "$VX_PATCHES/$p" >"$t.am.log" 2>&1; then
			g am --abort >/dev/null 2>&1 || true
			cat "$t.am.log" >&2
			die "patch $n ($p) does not apply to $(ksrc_version)"
		fi
		g tag "vx-point-$n"
	done < "$t.series"
	g config vx.serieskey "$key"
}

# A bad SERIES is refused before the tree is touched.
point=$(series_point)
[ -f "$t/Makefile" ] && g rev-parse -q --verify vx-stock >/dev/null || extract
if [ "$point" = 0 ]; then
	# Stock needs no series: other trees (KSRC=linux-source-6.12), which
	# the series is not made for, can be built and compared at stock.
	g rev-parse -q --verify vx-point-0 >/dev/null || g tag vx-point-0 vx-stock
else
	apply_series
fi
# Checking out only rewrites files that differ, so builds stay incremental.
g checkout -q --detach "vx-point-$point"
echo "$t"
