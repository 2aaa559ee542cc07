#!/bin/sh
# bench/guest.sh - the measurements of `make bench`, in the guest (busybox
# sh; bench/run puts it at /bench/guest.sh and the programs in /bench/bin)
#
# usage: /bench/guest.sh [SECTION...]    sections: irq rate dump script nvme
#                                        nvme_kernel (default: all, in that
#                                        order), nic (a guest booted with
#                                        qemu/run --nic only),
#                                        nvme_iommu, udrv_iommu (a guest
#                                        booted with qemu/run --iommu
#                                        intel only)
#
# Prints one "R KEY VALUE..." line per figure on stdout (bench/run turns
# them into the table), "#" lines as notes.  Sizes come from the
# environment, set by bench/run through the guest's /bench/env:
# ROUNDS, RUNS (interrupt round trip), RATE_SECS, RATE_FREQS, DUMP_SIZE,
# HEXDUMP_LEN, POKES, POKE_PROCS, SCRIPT_RUNS, NVME_READS, NVME_SECS,
# NIC_FRAMES, NIC_RUNS, NIC_TRACE_FRAMES (NIC_TRACE set: the traced part).
echo "R boot_uptime $(cut -d' ' -f1 /proc/uptime)"
[ -f /bench/env ] && . /bench/env
B=/bench/bin
PATH=$B:$PATH
ROUNDS=${ROUNDS:-2000}
RUNS=${RUNS:-5}
RATE_SECS=${RATE_SECS:-2}
RATE_FREQS=${RATE_FREQS:-"100 250 500 1000 2000 5000 10000 20000 50000 100000"}
DUMP_SIZE=${DUMP_SIZE:-67108864}
HEXDUMP_LEN=${HEXDUMP_LEN:-2097152}
POKES=${POKES:-10000}
POKE_PROCS=${POKE_PROCS:-10000}
SCRIPT_RUNS=${SCRIPT_RUNS:-5}
NVME_READS=${NVME_READS:-20000}
NVME_SECS=${NVME_SECS:-3}
NVME_PCI=0000:00:1a.0
MOD=/lib/modules/iio
UIO_PCI=0000:00:12.0
GEN_PCI=0000:00:13.0
GEN_DRV=/sys/bus/pci/drivers/iio_pci_generic
VFIO_PCI=0000:00:1c.0
sections=${*:-irq rate dump script nvme nvme_kernel}
failed=0

note() { echo "# $*"; }
fail() { echo "# FAILED: $*"; failed=1; }

# find NAME [SKIP]: the number of the iio device named NAME (the
# SKIP-th one, default 0), or nothing
find_iio() {
	skip=${2:-0}
	for d in /sys/class/iio/iio*; do
		[ -e "$d/name" ] || continue
		[ "$(cat "$d/name")" = "$1" ] || continue
		if [ "$skip" = 0 ]; then
			echo "${d##*/iio}"
			return
		fi
		skip=$((skip - 1))
	done
}

# timed KEY OUT COMMAND...: one "R KEY NS" line with the wall time of
# COMMAND, its stdout going to OUT
timed() {
	key=$1
	dest=$2
	shift 2
	rm -f /tmp/t
	if ! timeit "$@" 3> /tmp/t > "$dest"; then
		fail "$key: $* exited non-zero"
	fi
	echo "R $key $(cat /tmp/t)"
}

generic_load() {
	rmmod iio_pci_generic 2>/dev/null
	insmod $MOD/iio_pci_generic.ko "$@" || fail "insmod iio_pci_generic $*"
	echo iio_pci_generic > /sys/bus/pci/devices/$GEN_PCI/driver_override
	# driver_override makes the driver core bind it at insmod already
	[ -e $GEN_DRV/$GEN_PCI ] || echo $GEN_PCI > $GEN_DRV/bind ||
		fail "bind $GEN_PCI"
}

generic_unload() {
	rmmod iio_pci_generic 2>/dev/null
	echo none > /sys/bus/pci/devices/$GEN_PCI/driver_override
	insmod $MOD/iio_pci_generic.ko
}

# ---- 1. interrupt round trip ---------------------------------------
# rtt MODE DEV: one run of irq_rtt, its samples appended to /tmp/rtt.MODE
rtt() {
	r=$(irq_rtt "$1" "$2" "$ROUNDS" "/tmp/rtt.$1") || fail "irq_rtt $1 $2"
	echo "R irq_run $1 $run $r"
}

sec_irq() {
	uio_irq=$(cat /sys/bus/pci/devices/$UIO_PCI/irq)
	edu=
	i=0
	while n=$(find_iio edu $i) && [ -n "$n" ]; do
		if [ "$(cat /sys/class/iio/iio$n/irq)" = "$uio_irq" ]; then
			edu=$n
			break
		fi
		i=$((i + 1))
	done
	[ -n "$edu" ] || { fail "no iio edu on the uio edu's IRQ $uio_irq"; return; }
	gen_irq=$(cat /sys/bus/pci/devices/$GEN_PCI/irq)
	note "iio_edu iio$edu and uio_pci_generic $UIO_PCI share IRQ $uio_irq;" \
		"iio_pci_generic $GEN_PCI is on IRQ $gen_irq (INTx) with the other iio edu"
	rm -f /tmp/rtt.*
	run=1
	while [ $run -le "$RUNS" ]; do
		rtt edu "$edu"
		rtt uio $UIO_PCI
		generic_load
		rtt intx "$(find_iio "$GEN_PCI bar0")"
		generic_load msi=1
		rtt msi "$(find_iio "$GEN_PCI bar0")"
		run=$((run + 1))
	done
	generic_unload
	for m in edu uio intx msi; do
		echo "R irq_stats $m $(irq_rtt stats /tmp/rtt.$m)"
	done
	grep -E ' (10|11):|edu|uio' /proc/interrupts | sed 's/^/# /'
}

# ---- 2. event rate ---------------------------------------------------
dummy_load() {
	rmmod iio_user_dummy 2>/dev/null
	insmod $MOD/iio_user_dummy.ko "$@" || fail "insmod iio_user_dummy $*"
	dummy=$(find_iio "IIO dummy")
}

sec_rate() {
	dummy_load freq=0
	for f in $RATE_FREQS; do
		for l in 1 4; do
			r=$(event_rate "$dummy" "$f" $l "$RATE_SECS") ||
				fail "event_rate $f $l"
			echo "R rate $r"
		done
	done
}

# ---- 3. dump -----------------------------------------------------------
sec_dump() {
	dummy_load freq=0 size="$DUMP_SIZE"
	node=/dev/iio$dummy
	echo "R dump_size $(cat /sys/class/iio/iio$dummy/size)"
	memread fill $node || fail "fill"
	# identical output first (the same 256 KiB both ways)
	iioctl dump "iio$dummy" -n 256K > /tmp/ours.txt
	hexdump -C -n 262144 $node > /tmp/peer.txt
	if cmp -s /tmp/ours.txt /tmp/peer.txt; then
		echo "R dump_same yes"
	else
		echo "R dump_same no"
	fi
	rm -f /tmp/ours.txt /tmp/peer.txt
	echo "R hexdump_len $HEXDUMP_LEN"
	timed hexdump_peer /dev/null hexdump -C -n "$HEXDUMP_LEN" $node
	timed hexdump_ours_same /dev/null iioctl dump "iio$dummy" -n "$HEXDUMP_LEN"
	timed hexdump_ours /dev/null iioctl dump --all "iio$dummy"
	timed hexdump_ours_mmap /dev/null iioctl dump --all --mmap "iio$dummy"
	timed raw_peer /dev/null dd if=$node of=/dev/null bs=1M 2>/dev/null
	timed raw_peer_512 /dev/null dd if=$node of=/dev/null 2>/dev/null
	timed raw_ours /dev/null iioctl dump --all --raw "iio$dummy"
	timed raw_ours_mmap /dev/null iioctl dump --all --raw --mmap "iio$dummy"
	timed raw_pipe_peer /dev/null sh -c "dd if=$node bs=1M 2>/dev/null | cat > /dev/null"
	timed raw_pipe_ours /dev/null sh -c "iioctl dump --all --raw iio$dummy | cat > /dev/null"
	echo "R memread_read $(memread read $node 1048576)"
	# the same bytes in a tmpfs file, read the same way in the same boot
	cat $node > /tmp/memread.tmpfs
	echo "R memread_tmpfs $(memread read /tmp/memread.tmpfs 1048576)"
	rm -f /tmp/memread.tmpfs
	echo "R memread_mmap $(memread mmap $node)"
	dummy_load
}

# ---- 4. scripting --------------------------------------------------------
sec_script() {
	edu=$(find_iio edu)
	[ -n "$edu" ] || { fail "no iio edu"; return; }
	bar=$(head -n 1 /sys/bus/pci/devices/$UIO_PCI/resource | cut -d' ' -f1)
	addr=$(printf '0x%x' $((bar + 4)))
	note "pokes: iioctl on iio$edu (iio_edu) 0x04, devmem on $UIO_PCI's BAR0 ($addr; uio_pci_generic leaves it unclaimed, so /dev/mem allows it), edu's liveness register"
	echo "R pokes_n $POKES"
	echo "R poke_procs_n $POKE_PROCS"
	seq 1 "$POKES" | awk -v d="iio$edu" '{ printf "poke %s 0x04 %d\n", d, $1 }' > /tmp/batch
	seq 1 "$POKES" | awk -v d="iio$edu" '{ printf "poke --mmap %s 0x04 %d\n", d, $1 }' > /tmp/batch.mmap
	seq 1 "$POKES" | awk -v d="iio$edu" '{ printf "poke %s liveness %d\n", d, $1 }' > /tmp/batch.names
	# SCRIPT_RUNS rounds, interleaved; every figure a whole process (the
	# C program also prints the time of its own open, map and stores)
	for run in $(seq 1 "$SCRIPT_RUNS"); do
		timed batch /dev/null iioctl batch /tmp/batch
		timed batch_mmap /dev/null iioctl batch /tmp/batch.mmap
		timed batch_names /dev/null iioctl batch /tmp/batch.names
		timed c_mmap /tmp/inside pokes mmap /dev/iio$edu 0x04 "$POKES"
		echo "R c_mmap_inside $(cat /tmp/inside)"
		timed c_pwrite /tmp/inside pokes pwrite /dev/iio$edu 0x04 "$POKES"
		echo "R c_pwrite_inside $(cat /tmp/inside)"
	done
	rm -f /tmp/inside
	timed poke_procs /dev/null sh -c "i=0; while [ \$i -lt $POKE_PROCS ]; do iioctl poke iio$edu 0x04 \$i || exit 1; i=\$((i + 1)); done"
	timed devmem_procs /dev/null sh -c "i=0; while [ \$i -lt $POKE_PROCS ]; do devmem $addr 32 \$i || exit 1; i=\$((i + 1)); done"
	# devmem writes really land: the liveness register returns ~value
	devmem "$addr" 32 0x12345678
	echo "R devmem_check $(devmem "$(printf '0x%x' $((bar + 4)))" 32)"
}

# ---- 6. the user-space NVMe driver (tests/nvme) ---------------------------
# nvme_rate ARGS...: "READS_PER_S MEDIAN_US P99_US" of one run
nvme_rate() {
	udrv-nvme "$@" --reads "$NVME_READS" "$NVME_PCI" |
		sed -n 's/^rate: \([0-9]*\) reads\/s, latency median \([0-9.]*\) us, p99 \([0-9.]*\) us.*/\1 \2 \3/p'
}

# nvme_bind VECTORS: the controller bound to iio_pci_generic vectors=VECTORS
# (udrv-nvme binds nothing itself)
nvme_bind() {
	[ -e /sys/bus/pci/devices/$NVME_PCI ] || { fail "no nvme at $NVME_PCI"; return 1; }
	rmmod iio_pci_generic 2>/dev/null
	insmod $MOD/iio_pci_generic.ko vectors=$1 || { fail "iio_pci_generic vectors=$1"; return 1; }
	echo iio_pci_generic > /sys/bus/pci/devices/$NVME_PCI/driver_override
	echo $NVME_PCI > $GEN_DRV/bind || { fail "binding $NVME_PCI to iio_pci_generic"; return 1; }
}

# the controller back to no driver, iio_pci_generic to its defaults
nvme_teardown() {
	echo $NVME_PCI > $GEN_DRV/unbind
	echo none > /sys/bus/pci/devices/$NVME_PCI/driver_override
	rmmod iio_pci_generic && insmod $MOD/iio_pci_generic.ko
}

sec_nvme() {
	nvme_bind 4 || return
	note "nvme: udrv-nvme --reads $NVME_READS (4 KiB each, one in flight), completions on MSI-X vector 1 vs polling the CQ"
	for run in 1 2 3; do
		echo "R nvme_irq $(nvme_rate)"
		echo "R nvme_poll $(nvme_rate --poll)"
	done
	nvme_teardown
}

# ---- 7. udrv-nvme against the kernel's nvme driver, same controller ---------
# perf_figures: "IOPS P50_US P99_US" from a perf run's rate and latency
# lines (udrv-nvme --workload, nvme_kernel)
perf_figures() {
	sed -n 's/^rate: \([0-9]*\) IOPS.*/\1/p; s/^latency: p50 \([0-9.]*\) us, p99 \([0-9.]*\) us.*/\1 \2/p' |
		tr '\n' ' '
}

# 4 KiB random reads at depth 1 and 32, 1 and 4 queues, interrupts and
# polling: udrv-nvme --workload randread first, then the kernel's nvme.ko
# (poll_queues=1) bound to the same controller, driven by nvme_kernel
# (io_uring, O_DIRECT on /dev/nvme0n1; IOPOLL rings for polling).  The
# kernel makes one interrupt-driven I/O queue per CPU (QEMU_SMP=1: one)
# and poll_queues polled ones, so its "4 queues" are 4 rings (threads)
# sharing them.
sec_nvme_kernel() {
	[ -f /lib/modules/nvme/order ] ||
		{ fail "nvme_kernel: no /lib/modules/nvme (qemu/mkinitramfs)"; return; }
	nvme_bind 5 || return
	note "nvme_kernel: 4 KiB random reads for ${NVME_SECS} s each: udrv-nvme --workload randread, then nvme.ko poll_queues=1 with io_uring O_DIRECT (nvme_kernel)"
	for mode in irq poll; do
		p=
		[ $mode = irq ] || p=--poll
		for qd in 1 32; do for nq in 1 4; do
			echo "R nvmek_ours $mode $qd $nq $(udrv-nvme $p --workload randread \
				--depth $qd --queues $nq --time $NVME_SECS $NVME_PCI | perf_figures)"
		done; done
	done
	nvme_teardown
	for ko in $(cat /lib/modules/nvme/order); do
		case $ko in
		nvme.ko) insmod /lib/modules/nvme/$ko poll_queues=1 ;;
		# a lost completion costs 2 s, not 30 (see the stall check below)
		nvme-core.ko) insmod /lib/modules/nvme/$ko io_timeout=2 ;;
		*) insmod /lib/modules/nvme/$ko ;;
		esac || { fail "insmod $ko"; return; }
	done
	# qemu/init leaves the controller to no driver (driver_override none)
	echo nvme > /sys/bus/pci/devices/$NVME_PCI/driver_override
	echo $NVME_PCI > /sys/bus/pci/drivers/nvme/bind 2>/dev/null
	i=0
	while [ ! -b /dev/nvme0n1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -b /dev/nvme0n1 ] || { fail "nvme.ko made no /dev/nvme0n1"; return; }
	note "nvme_kernel: nvme.ko queues: $(ls /sys/block/nvme0n1/mq | wc -l) blk-mq hardware queues ($(cat /sys/block/nvme0n1/queue/io_poll 2>/dev/null) io_poll)"
	for mode in irq poll; do
		p=
		[ $mode = irq ] || p=poll
		for qd in 1 32; do for nq in 1 4; do
			stalls=$(dmesg | grep -c 'timeout, aborting')
			figures=$(nvme_kernel /dev/nvme0n1 $qd $nq $NVME_SECS $p | perf_figures)
			# a completion the kernel's driver never saw (I/O timeout,
			# abort, controller reset) makes the run meaningless: no row
			if [ "$(dmesg | grep -c 'timeout, aborting')" != "$stalls" ]; then
				note "nvme_kernel: $mode QD$qd $nq rings: nvme.ko timed out a command (kernel log), row left out"
				continue
			fi
			echo "R nvmek_kernel $mode $qd $nq $figures"
		done; done
	done
	echo $NVME_PCI > /sys/bus/pci/drivers/nvme/unbind
	echo none > /sys/bus/pci/devices/$NVME_PCI/driver_override
	for ko in nvme nvme_core t10_pi crc64_rocksoft crc64_rocksoft_generic crc64 crc_t10dif crct10dif_generic crct10dif_common; do
		rmmod $ko 2>/dev/null
	done
}

# The same interrupt-driven reads with the controller's DMA translated by
# the IOMMU (bench/run boots qemu/run --iommu intel for this section).
sec_nvme_iommu() {
	type=$(cat /sys/bus/pci/devices/$NVME_PCI/iommu_group/type 2>/dev/null)
	[ "$type" = DMA ] ||
		{ fail "nvme_iommu: $NVME_PCI not translated (IOMMU domain type '${type:-none}', want DMA)"; return; }
	nvme_bind 4 || return
	note "nvme_iommu: the same under intel-iommu (strict invalidation, IOMMU domain $type)"
	for run in 1 2 3; do
		echo "R nvme_irq_iommu $(nvme_rate)"
	done
	nvme_teardown
}

# ---- libudrv: the MSI round trip on iio_pci_generic and on vfio-pci ----
# The same device model (edu, MSI) under the IOMMU, one on each backend,
# through the same library calls (irq_rtt udrv); runs interleaved
sec_udrv_iommu() {
	for ko in $(cat /lib/modules/vfio/order 2>/dev/null); do
		insmod /lib/modules/vfio/$ko || { fail "insmod $ko"; return; }
	done
	generic_load msi=1
	echo vfio-pci > /sys/bus/pci/devices/$VFIO_PCI/driver_override
	echo $VFIO_PCI > /sys/bus/pci/drivers/vfio-pci/bind ||
		{ fail "bind $VFIO_PCI to vfio-pci"; return; }
	note "udrv_iommu: edu $GEN_PCI on iio_pci_generic (msi=1) and edu" \
		"$VFIO_PCI on vfio-pci, each in an IOMMU domain of its own"
	rm -f /tmp/rtt.udrv_*
	for run in 1 2 3; do
		for b in iio:$GEN_PCI vfio:$VFIO_PCI; do
			r=$(irq_rtt udrv "${b#*:}" "$ROUNDS" "/tmp/rtt.udrv_${b%%:*}") ||
				fail "irq_rtt udrv ${b#*:}"
			echo "R udrv_run ${b%%:*} $run $r"
		done
	done
	for b in iio vfio; do
		echo "R udrv_stats $b $(irq_rtt stats /tmp/rtt.udrv_$b)"
	done
	echo $VFIO_PCI > /sys/bus/pci/drivers/vfio-pci/unbind
	generic_unload
}

# ---- libudrv: udrv-nvme on iio_pci_generic and on vfio-pci -------------
# The same program (examples/nvme.c), the same controller, the same boot
# (the IOMMU one: both backends translate the controller's DMA), one
# backend after the other in each of three runs: 4 KiB random reads,
# completions on MSI-X vector 1, at depth 1 and 32.  Lines "R udrv_nvme
# BACKEND QD RUN IOPS P50_US P99_US".
udrv_nvme_on() {
	echo "$NVME_PCI" > /sys/bus/pci/devices/$NVME_PCI/driver/unbind 2>/dev/null
	echo "$1" > /sys/bus/pci/devices/$NVME_PCI/driver_override
	echo "$NVME_PCI" > /sys/bus/pci/drivers/$1/bind || { fail "bind $NVME_PCI to $1"; return 1; }
}

sec_udrv_nvme() {
	[ -e /sys/bus/pci/devices/$NVME_PCI ] || { fail "no nvme at $NVME_PCI"; return; }
	if [ ! -e /sys/bus/pci/drivers/vfio-pci ]; then
		for ko in $(cat /lib/modules/vfio/order 2>/dev/null); do
			insmod /lib/modules/vfio/$ko || { fail "insmod $ko"; return; }
		done
	fi
	rmmod iio_pci_generic 2>/dev/null
	insmod $MOD/iio_pci_generic.ko vectors=2 || { fail "iio_pci_generic vectors=2"; return; }
	note "udrv_nvme: udrv-nvme --workload randread --time $NVME_SECS at QD1 and QD32, one queue on MSI-X vector 1, on iio_pci_generic (vectors=2) and on vfio-pci, alternating"
	for run in 1 2 3; do
		for b in iio_pci_generic vfio-pci; do
			udrv_nvme_on $b || return
			for qd in 1 32; do
				echo "R udrv_nvme ${b%%[-_]*} $qd $run $(udrv-nvme --workload randread \
					--depth $qd --time $NVME_SECS $NVME_PCI | perf_figures)"
			done
		done
	done
	echo "$NVME_PCI" > /sys/bus/pci/drivers/vfio-pci/unbind
	echo none > /sys/bus/pci/devices/$NVME_PCI/driver_override
	rmmod iio_pci_generic && insmod $MOD/iio_pci_generic.ko
}

# ---- nic: udrv-e1000e against the kernel's e1000e (qemu/run --nic) ----
NIC_PCI=0000:00:0a.0
NIC_FRAMES=${NIC_FRAMES:-20000}
NIC_RUNS=${NIC_RUNS:-3}
NIC_TRACE_FRAMES=${NIC_TRACE_FRAMES:-1000}

# eth0 (the kernel's e1000e on 00:0b.0) up and with its link, or down
eth0() {
	ip link set eth0 "$1" || { fail "ip link set eth0 $1"; return 1; }
	[ "$1" = down ] && return 0
	i=0
	while [ "$(cat /sys/class/net/eth0/operstate)" != up ] && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	[ "$(cat /sys/class/net/eth0/operstate)" = up ] || { fail "eth0: no link"; return 1; }
}

# pktgen COUNT SIZE BURST: pktgen sends COUNT frames of SIZE bytes
# (without the FCS, as udrv-e1000e --size) through eth0, BURST per
# doorbell (xmit_more), to the broadcast address; prints its frames/s.
# clone_skb COUNT: one skb built (fill_packet: headers, a zeroed
# payload) and sent again and again (pktgen_xmit() builds a new one only
# after clone_skb bursts; each burst is the same skb BURST times), as
# udrv-e1000e --prebuilt resends its ring's frames
pktgen() {
	pg=/proc/net/pktgen
	echo rem_device_all > $pg/kpktgend_0
	echo add_device eth0 > $pg/kpktgend_0
	for set in "count $1" "pkt_size $2" "burst $3" "delay 0" "clone_skb $1" \
		"dst_mac ff:ff:ff:ff:ff:ff"; do
		echo "$set" > $pg/eth0 || { fail "pktgen: $set"; return; }
	done
	echo start > $pg/pgctrl
	pps=$(sed -n 's/^ *\([0-9]*\)pps .*/\1/p' $pg/eth0)
	[ -n "$pps" ] || fail "pktgen $*: $(grep -A1 Result $pg/eth0 | tr '\n' ' ')"
	echo "$pps"
}

# eth0_settle [BASE]: the kernel has taken what QEMU queued for eth0 (a
# run of ours sent faster than it received, or while eth0 was down):
# rx_packets unchanged for 0.3 s; prints the frames it took since BASE
# (rx_packets before eth0 came up; default: now)
eth0_settle() {
	read -r s0 < /sys/class/net/eth0/statistics/rx_packets
	prev=-1 now=$s0 i=0
	s0=${1:-$s0}
	while [ "$now" != "$prev" ] && [ $i -lt 100 ]; do
		prev=$now
		sleep 0.3
		read -r now < /sys/class/net/eth0/statistics/rx_packets
		i=$((i + 1))
	done
	echo $((now - s0))
}

# the frames/s of udrv-e1000e's (or rx_count's) "rate:" line on stdin
nic_rate() {
	sed -n 's/^rate: \([0-9]*\) frames\/s.*/\1/p'
}

# nic_queue DIR SIZE BATCH RUN SETTLED: from ours' output in
# /tmp/nic.out, the "other" frames its run took (frames left waiting
# for its port would be these: 0 is a drained start), and SETTLED, the
# frames the kernel took before it (eth0_settle)
nic_queue() {
	other=$(sed -n 's/^frames: .* \([0-9]*\) other frames.*/\1/p' /tmp/nic.out)
	echo "R nic_queue $1 $2 $3 $4 ${other:-?} $5"
}

# marker N: a store of N to edu 00:12.0's liveness register, which QEMU's
# access trace records between the phases it separates (bench/run counts
# each phase's e1000e-mmio accesses between two markers)
marker() {
	devmem "$nic_marker" 32 "$1" || fail "marker $1"
}

# transmit: udrv-e1000e --transmit-only --prebuilt (interrupts, as the
# kernel's driver takes its completions; the ring's 256 frames built
# once, then only descriptors written) against pktgen through the
# kernel's e1000e (one skb built, resent: clone_skb), 60 and 1514 bytes,
# batch 1 and 32, NIC_RUNS runs alternating.  Each run from a drained
# state: QEMU keeps nothing for ours' port between its runs (frames sent
# to it while it is closed are gone when it opens again: the "other"
# frames of its runs, R nic_queue, say so), and the kernel is let take
# what ours' run queued for eth0 (eth0_settle) before pktgen starts.
# Neither receiver runs during the other's timed transmit: eth0 is down
# while ours sends (whatever QEMU held for eth0 the kernel takes when it
# is up again, before pktgen starts: R nic_settle, 0 so far: QEMU 7.2
# kept none), and ours is closed while pktgen sends.
# Receive, both senders of prebuilt frames without flow control: ours
# (--receive-only --unchecked, counting the frames of the size) taking
# what pktgen sends from eth0 (burst 32), against the kernel's receive
# path (eth0's rx_packets, rx_count) taking what udrv-e1000e
# --transmit-only --prebuilt (batch 32) sends it; each rate from the
# first frame to the last, the run ending at NIC_FRAMES or 1 s without
# a frame.
sec_nic() {
	[ -f /lib/modules/net/order ] ||
		{ fail "nic: no /lib/modules/net (qemu/run --nic)"; return; }
	for ko in $(cat /lib/modules/net/order); do
		insmod /lib/modules/net/$ko || { fail "insmod $ko"; return; }
	done
	[ -e /sys/class/net/eth0 ] || { fail "nic: no eth0"; return; }
	rmmod iio_pci_generic 2>/dev/null
	insmod $MOD/iio_pci_generic.ko vectors=3 || { fail "iio_pci_generic vectors=3"; return; }
	echo iio_pci_generic > /sys/bus/pci/devices/$NIC_PCI/driver_override
	[ -e $GEN_DRV/$NIC_PCI ] || echo $NIC_PCI > $GEN_DRV/bind || { fail "bind $NIC_PCI"; return; }
	# the marker's edu: memory decoding on, unless a driver has it
	[ -e /sys/bus/pci/devices/$UIO_PCI/driver ] ||
		echo 1 > /sys/bus/pci/devices/$UIO_PCI/enable
	bar=$(head -n 1 /sys/bus/pci/devices/$UIO_PCI/resource | cut -d' ' -f1)
	nic_marker=$(printf '0x%x' $((bar + 4)))
	note "nic: $NIC_FRAMES frames a run, $NIC_RUNS runs alternating; ours udrv-e1000e on $NIC_PCI (iio_pci_generic vectors=3), the kernel's e1000e on eth0 with pktgen"
	echo "R nic_frames $NIC_FRAMES"
	eth0 up || return
	# the MMIO accesses per frame, from QEMU's trace (bench/run turns
	# the tracing on for this part only)
	# (both ports' registers are "e1000e-mmio" in the trace, so the other
	# port stays quiet in each phase: eth0 down while ours sends, which
	# QEMU holds until eth0 is up again and the kernel takes before
	# pktgen's phases; ours stopped while pktgen sends)
	if [ -n "${NIC_TRACE:-}" ]; then
		eth0 down || return
		phase=1
		# N and 2N frames each: the difference is N frames' worth,
		# without the fixed cost (ours: reset, link, counters)
		for size in 60 1514; do for batch in 1 32; do
			for n in $NIC_TRACE_FRAMES $((2 * NIC_TRACE_FRAMES)); do
				marker $phase
				udrv-e1000e --transmit-only --prebuilt --count $n --size $size \
					--batch $batch $NIC_PCI > /dev/null || fail "udrv-e1000e trace run"
				marker $phase
				echo "R nic_trace $phase ours $size $batch $n"
				phase=$((phase + 1))
			done
		done; done
		eth0 up || return
		sleep 3
		for size in 60 1514; do for batch in 1 32; do
			for n in $NIC_TRACE_FRAMES $((2 * NIC_TRACE_FRAMES)); do
				marker $phase
				pktgen $n $size $batch > /dev/null
				marker $phase
				echo "R nic_trace $phase kernel $size $batch $n"
				phase=$((phase + 1))
			done
		done; done
		return
	fi
	for run in $(seq 1 "$NIC_RUNS"); do
		for size in 60 1514; do for batch in 1 32; do
			settled=$(eth0_settle)
			eth0 down || return
			udrv-e1000e --transmit-only --prebuilt --count $NIC_FRAMES \
				--size $size --batch $batch $NIC_PCI > /tmp/nic.out 2> /tmp/nic.err ||
				fail "udrv-e1000e --transmit-only --prebuilt: $(cat /tmp/nic.err)"
			ours=$(nic_rate < /tmp/nic.out)
			nic_queue tx $size $batch $run $settled
			read -r base < /sys/class/net/eth0/statistics/rx_packets
			eth0 up || return
			settled=$(eth0_settle $base)
			kernel=$(pktgen $NIC_FRAMES $size $batch)
			echo "R nic_tx $size $batch $run ${ours:-0} ${kernel:-0}"
			echo "R nic_settle tx $size $batch $run $settled"
		done; done
		for size in 60 1514; do
			# ours takes what pktgen sends
			rm -f /tmp/nic.out	# no "run:" line of the run before
			udrv-e1000e --receive-only --unchecked --count $NIC_FRAMES \
				--size $size --timeout 1000 $NIC_PCI > /tmp/nic.out 2> /tmp/nic.err &
			drv=$!
			i=0
			while ! grep -q '^run:' /tmp/nic.out 2>/dev/null && [ $i -lt 400 ]; do
				sleep 0.05; i=$((i + 1))
			done
			sender=$(pktgen $NIC_FRAMES $size 32)
			wait $drv || fail "udrv-e1000e --receive-only --unchecked: $(cat /tmp/nic.err)"
			ours=$(nic_rate < /tmp/nic.out)
			got_ours=$(sed -n 's/^frames: \([0-9]*\) received.*/\1/p' /tmp/nic.out)
			nic_queue rx $size 32 $run -
			# the kernel takes what ours sends
			settled=$(eth0_settle)
			rm -f /tmp/rx.out
			rx_count eth0 $NIC_FRAMES 1000 > /tmp/rx.out 2> /tmp/rx.err &
			cnt=$!
			i=0
			while ! grep -q '^ready' /tmp/rx.out 2>/dev/null && [ $i -lt 400 ]; do
				sleep 0.05; i=$((i + 1))
			done
			udrv-e1000e --transmit-only --prebuilt --count $NIC_FRAMES \
				--size $size $NIC_PCI > /tmp/nic.out 2> /tmp/nic.err ||
				fail "udrv-e1000e --transmit-only --prebuilt: $(cat /tmp/nic.err)"
			sender2=$(nic_rate < /tmp/nic.out)
			wait $cnt || fail "rx_count: $(cat /tmp/rx.err)"
			kernel=$(nic_rate < /tmp/rx.out)
			got_kernel=$(sed -n 's/^got: //p' /tmp/rx.out)
			echo "R nic_rx $size $run ${ours:-0} ${kernel:-0} ${got_kernel:-0} ${got_ours:-0}"
			echo "R nic_rx_senders $size $run ${sender:-0} ${sender2:-0}"
			echo "R nic_settle rx $size 32 $run $settled"
		done
	done
}

for s in $sections; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	"sec_$s"
	echo "R section_time $s $t0 $(cut -d' ' -f1 /proc/uptime)"
done
echo "R done $failed"
exit $failed
