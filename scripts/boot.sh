#!/bin/sh
# Boot kernel directory K with a fresh qcow2 XFS disk (or a copy of
# VX_DISK) and run PLAN in the guest; console to OUT/console.log, how busy
# the host was with other work meanwhile to OUT/host.txt.  Exits 0 when
# the guest reached the end of the plan, 3 on timeout, 4 when the guest
# stopped early.
#   boot.sh K OUTDIR PLAN [TIMEOUT]      (PLAN=shell: interactive)
# With VX_HOSTROOT=INIT (make fstests) the guest's root is instead the
# host's / read-only over virtio-9p (as virtme-ng does), INIT its init,
# the same / again as tag vxro (for a mount with caching: see
# images/fstests/init),
# VX_SHARE a host directory it mounts read-write (tag vxout), and its disks
# are VX_DISKS ("8G 8G": vda, vdb); PLAN is passed as vx.plan= as usual.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$VX_ROOT/scripts/lib/cread.sh"
need_cmd qemu-system-x86_64 qemu-img timeout
k=$1 out=$2 plan=$3 tmo=${4:-${TIMEOUT:-1200}}
mkdir -p "$out"
img=$("$VX_ROOT/scripts/image.sh" "$k")
# The erofs images the plan's cread steps read, read-only after the
# workload disk (vdb, vdc, ...); the guest finds them by vx.crimgs=.
cread_disks "$plan" > "$out/cread-disks"

qemu_cmd() { # ACCEL
	case $1 in
	kvm) a="-accel kvm -cpu host" ;;
	*)   a="-accel tcg,thread=multi" ;;
	esac
	echo "qemu-system-x86_64 $a -m $MEM -smp $CPUS -nodefaults -display none -no-reboot" \
		"-kernel $k/bzImage $(qemu_root)" $(qemu_disks)
}
qemu_root() {
	if [ -n "${VX_HOSTROOT:-}" ]; then
		echo "-fsdev local,id=vxroot,path=/,security_model=none,readonly=on" \
			"-device virtio-9p-pci,fsdev=vxroot,mount_tag=/dev/root" \
			"-fsdev local,id=vxro,path=/,security_model=none,readonly=on,multidevs=remap" \
			"-device virtio-9p-pci,fsdev=vxro,mount_tag=vxro" \
			"-fsdev local,id=vxout,path=$VX_SHARE,security_model=none" \
			"-device virtio-9p-pci,fsdev=vxout,mount_tag=vxout"
	else
		echo "-initrd $img"
	fi
}
qemu_disks() {
	disks | while read -r _d _s; do
		echo "-drive file=$out/$_d.qcow2,if=virtio,format=qcow2,cache=unsafe"
	done
	[ -n "${VX_HOSTROOT:-}" ] || while read -r _n _p; do
		echo "-drive file=$_p,if=virtio,format=raw,readonly=on"
	done < "$out/cread-disks"
}
# disks: "NAME SIZE" of each disk: VX_DISKS with a host root, else the
# one workload disk.
disks() {
	if [ -n "${VX_HOSTROOT:-}" ]; then
		_i=0
		for _s in $VX_DISKS; do echo "disk$_i $_s"; _i=$((_i + 1)); done
	else
		echo "disk 4G"
	fi
}
append="console=ttyS0 panic=-1 oops=panic vx.plan=$plan ${VX_APPEND:-}"
[ ! -s "$out/cread-disks" ] || append="$append vx.crimgs=$(cut -d' ' -f1 "$out/cread-disks" | paste -sd,)"
if [ -n "${VX_HOSTROOT:-}" ]; then
	[ -x "$VX_HOSTROOT" ] || die "VX_HOSTROOT=$VX_HOSTROOT is not an executable init"
	[ -d "${VX_SHARE:-}" ] || die "VX_HOSTROOT needs VX_SHARE, a directory the guest may write"
	[ -n "${VX_DISKS:-}" ] || die "VX_HOSTROOT needs VX_DISKS, the sizes of its disks"
	append="root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144 ro init=$VX_HOSTROOT $append"
fi
# KASAN under TCG is slow enough that boot-time ACPI init alone holds a
# CPU past RCU's 21 s stall limit: give KASAN kernels 2 minutes.
if grep -q '^variant=kasan' "$k/identity" 2>/dev/null; then
	append="rcupdate.rcu_cpu_stall_timeout=120 $append"
fi

# KVM hangs after the BIOS on our machines: probe with a short boot.
pick_accel() {
	[ "$ACCEL" = auto ] || { echo "$ACCEL" | tee "$out/accel"; return; }
	acc=tcg
	if [ -w /dev/kvm ]; then
		qemu-img create -q -f qcow2 "$out/disk.qcow2" 64M
		prc=0
		# shellcheck disable=SC2046
		timeout -k 2 20 $(VX_HOSTROOT= qemu_cmd kvm) -serial "file:$out/kvm-probe.log" \
			-append "console=ttyS0 panic=-1 vx.plan=probe" >"$out/kvm-probe.err" 2>&1 9>&- || prc=$?
		if grep -q '@@VX DONE' "$out/kvm-probe.log" 2>/dev/null; then
			acc=kvm why=booted
		elif [ "$prc" = 124 ]; then
			why="no boot within 20s"
		else
			why="qemu failed: $(head -n 1 "$out/kvm-probe.err")"
		fi
	else
		why="/dev/kvm not usable"
	fi
	progress "accelerator: $acc (KVM probe: $why)"
	echo "$acc" > "$out/accel"
	echo "$acc"
}
acc=$(pick_accel)
if [ -z "${VX_HOSTROOT:-}" ] && [ -n "${VX_DISK:-}" ]; then
	# A second boot on the disk an earlier boot left behind (crash tests).
	[ -f "$VX_DISK" ] || die "VX_DISK=$VX_DISK does not exist"
	[ "$VX_DISK" -ef "$out/disk.qcow2" ] || cp "$VX_DISK" "$out/disk.qcow2"
else
	disks | while read -r _d _s; do qemu-img create -q -f qcow2 "$out/$_d.qcow2" "$_s"; done
fi
cmd=$(qemu_cmd "$acc")
echo "$cmd -append \"$append\"" > "$out/qemu.cmd"

if [ "$plan" = shell ]; then
	# shellcheck disable=SC2086
	exec $cmd -serial mon:stdio -append "$append"
fi

log="$out/console.log"
: > "$log"
progress "booting ($acc, $CPUS vCPUs, timeout ${tmo}s): $plan"
# How busy the host is with other work while the guest runs (host.txt).
times > "$out/.times0"
h0=$(host_cpu "$out/.times0") t0=$(date +%s)
# (9>&-: not holding make bisect's tree lock, should the guest outlive it)
# shellcheck disable=SC2086
timeout -k 5 "$tmo" $cmd -serial "file:$log" -append "$append" </dev/null >"$out/qemu.log" 2>&1 9>&- &
qpid=$!
# timeout runs qemu in a process group of its own, out of reach of a
# Ctrl-C or a kill of the run's group: an interrupted run stops its guest.
stop_guest() { kill "$qpid" 2>/dev/null || true; exit "$1"; }
on_interrupt stop_guest
# Progress: echo the guest's markers as they arrive.
tail -n +1 -F --pid=$qpid "$log" 2>/dev/null |
	sed -u -n 's/\r//; s/.*@@VX \(STEP\|TEST\|BOOTED\|FSTESTS\)/  guest: \1/p' >&2 &
rc=0
wait $qpid || rc=$?
times > "$out/.times1"
host_load "$h0" "$(host_cpu "$out/.times1")" $(($(date +%s) - t0)) > "$out/host.txt"
rm -f "$out/.times0" "$out/.times1"
sleep 1
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	log "guest killed at its ${tmo}s timeout; console: $log"
	exit 3
fi
grep -q '@@VX DONE' "$log" || { log "guest stopped before the end of its plan (qemu rc=$rc); console: $log"; exit 4; }
