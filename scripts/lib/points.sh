# Kernels to compare: POINTS entries, their labels and their builds
# (sourced by compare.sh and fstests.sh; needs common.sh).
# shellcheck shell=sh

# default_points: stock, baseline, each mm/ patch after the baseline, full.
default_points() {
	_b=$(SERIES=baseline series_point)
	_n=$(series_count)
	echo 0 "$_b"
	series_list | awk -v b="$_b" -v n="$_n" 'NR > b && NR < n && /^mm\// { print NR }'
	echo "$_n"
}

# point_entries POINTS: "KSRC POINT LABEL" per kernel of the [TREE:]POINT
# entries, validated before any build; a label comes once.
point_entries() {
	_base=$(SERIES=baseline series_point)
	_n=$(series_count)
	_seen=""
	for _e in $1; do
		case $_e in
		*:*) _ksrc=linux-source-${_e%%:*} _p=${_e#*:} ;;
		*)   _ksrc=$KSRC _p=$_e ;;
		esac
		case $_p in full) _p=$_n ;; esac
		_p=$(SERIES=$_p series_point) || exit 2
		_ver=$(basename "$_ksrc" | sed 's/^linux-source-//; s/\.tar\..*//')
		if [ "$_ksrc" != "$KSRC" ] && [ "$_p" != 0 ]; then
			die "POINTS entry '$_e': only stock can be built from $_ksrc (the series is made for $KSRC)"
		fi
		if [ "$_p" = 0 ]; then _l=stock-$_ver
		elif [ "$_p" = "$_base" ]; then _l=baseline
		elif [ "$_p" = "$_n" ]; then _l=full
		else _l=p$_p
		fi
		case " $_seen " in *" $_l "*) continue ;; esac
		_seen="$_seen $_l"
		echo "$_ksrc $_p $_l"
	done
}

# build_points ENTRIES KERNELS: build each kernel of ENTRIES (a file of
# point_entries lines), one at a time, and write KERNELS: "LABEL KSRC
# POINT KERNEL_DIR" per kernel.
build_points() {
	: > "$2"
	while read -r _ksrc _p _label; do
		progress "building $_label ($_ksrc, point $_p)"
		KSRC=$_ksrc "$VX_ROOT/scripts/deps.sh" </dev/null
		_k=$(KSRC=$_ksrc SERIES=$_p "$VX_ROOT/scripts/kernel.sh" </dev/null)
		echo "$_label $_ksrc $_p $_k" >> "$2"
	done < "$1"
}
