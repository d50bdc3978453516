#!/bin/sh
# Configure and build the guest kernel at the series point SERIES selects
# (tinyconfig + images/*.config, merged with the tree's merge_config.sh),
# incrementally and through ccache, then stage bzImage and modules under
# $VX_CACHE/kernels/<identity>/, with our out-of-tree modules
# (workloads/*/Kbuild) built against it.  Prints that directory on stdout.
set -eu
. "$(dirname "$0")/lib/common.sh"
need_cmd make gcc ccache flex bison bc
# The checkout and the build, as one step no other run interleaves with.
tree_lock

t=$("$VX_ROOT/scripts/tree.sh")
n=$(series_point)
# The build must be of the point it is named after.
[ "$(git -C "$t" rev-parse HEAD)" = "$(git -C "$t" rev-parse "vx-point-$n^{commit}")" ] ||
	die "$t is not checked out at series point $n (another run moved it?)"
id=$(kernel_id "$n")
k=$(kernel_dir "$id")
b=$(build_dir)
export CCACHE_DIR="$VX_CACHE/ccache"
if [ -f "$k/bzImage" ] && [ "${FORCE:-0}" != 1 ]; then
	progress "kernel $id already built"
	# Our out-of-tree modules may be newer than the kernel: rebuild them
	# when the build directory still holds this kernel's configuration.
	if ext_modules_stale "$k"; then
		cmp -s "$b/.config" "$k/.config" ||
			die "$k lacks an up-to-date module of workloads/ and $b is configured differently; rebuild with FORCE=1"
		ext_modules "$t" "$b" "$k/modules"
	fi
	echo "$k"
	exit 0
fi

mkdir -p "$b" "$VX_CACHE/ccache" "$VX_CACHE/logs"
blog="$VX_CACHE/logs/build-$id.log"
mk() { kmake "$t" "$b" "$@"; }

# Re-merge only when the fragments changed: a new .config rebuilds everything.
if [ "$(cat "$b/.vx-cfg" 2>/dev/null || true)" != "$(config_hash)" ]; then
	progress "configuring: tinyconfig + $(config_fragments | xargs -n1 basename | tr '\n' ' ')"
	run_logged "$blog" mk tinyconfig
	# shellcheck disable=SC2046
	run_logged "$blog" sh "$t/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" $(config_fragments)
	run_logged "$blog" mk olddefconfig
	# merge_config only warns when Kconfig drops an option: we fail,
	# unless this tree's Kconfig has no such option at all (the fragments
	# serve several trees): that is reported and kept in the identity.
	# When a fragment sets an option twice, the last setting counts.
	lost="" dropped=""
	for opt in $(config_fragments | xargs cat | grep -E '^CONFIG_[A-Z0-9_]+=' |
		awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = ++n; k[o[$1]] = $1 }
			END { for (i = 1; i <= n; i++) print v[k[i]] }'); do
		case $opt in
		*=n) ! grep -q "^${opt%=n}=" "$b/.config" && continue ;;
		*) grep -qx -F "$opt" "$b/.config" && continue ;;
		esac
		name=${opt%%=*}
		if grep -rqs --include='Kconfig*' -E "^[[:space:]]*(menu)?config ${name#CONFIG_}([[:space:]]|\$)" "$t"; then
			lost="$lost $opt"
		else
			dropped="$dropped ${name#CONFIG_}"
		fi
	done
	[ -z "$lost" ] || die "options the fragments ask for are not in .config (unmet dependencies?):$lost"
	[ -z "$dropped" ] || log "not in $(ksrc_version)'s Kconfig, dropped:$dropped"
	echo "${dropped# }" > "$b/.vx-dropped"
	config_hash > "$b/.vx-cfg"
fi

progress "building $id (log: $blog)"
start=$(date +%s)
rm -f "$b/.vx-rc"
(rc=0; mk bzImage modules >"$blog" 2>&1 || rc=$?; echo "$rc" > "$b/.vx-rc") &
# A progress line a minute: a cold build takes several.  The total is
# what the last full build of this build directory compiled (an
# incremental build compiles fewer); with no earlier build, the count
# images/build-objects records for this tree and variant (a cold build
# of the full series), as "about".  (A finished child stays a zombie
# until waited for, so poll for its exit file, not its pid.)
total=$(cat "$b/.vx-objs" 2>/dev/null || true)
if [ -z "$total" ]; then
	total=$(awk -v t="${KSRC##*/}" -v v="$(variant)" '$1 == t && $2 == v { print "about " $3 }' \
		"$VX_ROOT/images/build-objects")
fi
ticks=0
while [ ! -s "$b/.vx-rc" ]; do
	sleep 5
	ticks=$((ticks + 1))
	[ $((ticks % 12)) -ne 0 ] && continue
	ncc=$(grep -c '^  CC' "$blog" || true)
	case $total in
	"") progress "still building: $ncc objects (no earlier build of $(variant) to give a total)" ;;
	*) progress "still building: $ncc of ${total} objects ($((ncc * 100 / ${total#about }))%)" ;;
	esac
done
wait
if [ "$(cat "$b/.vx-rc")" != 0 ]; then
	grep -E 'error|Error' "$blog" | head -n 20 >&2
	die "kernel build failed at series point $n ($(point_name "$n")); full log: $blog"
fi
ncc=$(grep -c '^  CC' "$blog" || true)
# (a total from images/build-objects reads "about N")
[ "$ncc" -le "${total#about }" ] 2>/dev/null || echo "$ncc" > "$b/.vx-objs"
progress "built in $(( $(date +%s) - start ))s ($ncc objects compiled)"

rm -rf "$k.tmp"
mkdir -p "$k.tmp/modules"
cp "$b/arch/x86/boot/bzImage" "$b/.config" "$k.tmp/"
find "$b" -name '*.ko' -exec cp {} "$k.tmp/modules/" \;
ext_modules "$t" "$b" "$k.tmp/modules"
{
	echo "id=$id"
	echo "tree=$(ksrc_version)"
	echo "point=$n $(point_name "$n")"
	echo "commit=$(git -C "$t" rev-parse HEAD)"
	echo "variant=$(variant)"
	echo "config_hash=$(config_hash)"
	echo "config_dropped=$(cat "$b/.vx-dropped" 2>/dev/null || true)"
	echo "kernelrelease=$(cat "$b/include/config/kernel.release")"
	echo "build_seconds=$(( $(date +%s) - start ))"
} > "$k.tmp/identity"
cp "$blog" "$k.tmp/build.log"
rm -rf "$k"
mv "$k.tmp" "$k"
echo "$k"
