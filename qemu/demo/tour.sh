#!/bin/sh
# make demo: a tour of iioctl and the framework in the guest, each step a
# command or two with one line saying what it shows.
#
# usage: /demo/tour.sh [SECTION...]   the sections named, in that order
#                                     (default: all of them, in order)
# sections: devices info registers memory nodes events trigger
#           edu_factorial edu_polled pci_generic edu_dma
#
# Every wait gives up after DEMO_WAIT seconds (default 30) and the demo
# fails with iioctl's message (status 3: timeout).  A command that fails
# ends the demo with its status (set -e); tests/test_demo runs it whole.
set -e
wait_s=${DEMO_WAIT:-30}

# step WHAT: a header for the next commands
step() { printf '\n== %s\n' "$*"; }
# run CMD...: show the command (a word with blanks in quotes), then run it
run() {
	line='$'
	for word in "$@"; do
		case $word in
		*" "*) line="$line '$word'" ;;
		*) line="$line $word" ;;
		esac
	done
	printf '%s\n' "$line"
	"$@"
}

# the first iio_edu device (iio1 after boot)
for d in /sys/class/iio/iio*; do
	if [ "$(cat "$d/name")" = edu ]; then
		edu=${d##*/}
		break
	fi
done

devices() {
	step "every iio device: the dummy (kernel memory, a timer), two edu (PCI), pci-testdev (I/O ports)"
	run iioctl list
}

info() {
	step "one device: its region, windows, nodes, interrupt and PCI parent"
	run iioctl info "$edu"
}

registers() {
	step "edu's registers by name, decoded field by field (its map ships with iioctl)"
	run iioctl regs "$edu" id status irq_status
}

memory() {
	step "the dummy's out window: a write read back (--verify), then a dump"
	run iioctl poke --out iio0 0x0 0x12345678 --verify
	run iioctl poke --out iio0 0x4 0xff -w 1
	run iioctl dump --out iio0 -n 16
}

nodes() {
	step "no magic: the nodes are files, the same bytes through dd (the out window is at 0x1000)"
	ls -l /dev/iio0 /dev/iio0_in /dev/iio0_out /dev/iio0_event
	dd if=/dev/iio0 bs=16 skip=256 count=1 2>/dev/null | hexdump -C
}

events() {
	step "the dummy's timer at 4 Hz: events as they come, and the tick counter it writes, watched"
	echo 4 > /sys/devices/platform/iio_user_dummy.0/freq
	run iioctl wait-events iio0 -n 4 -t "${wait_s}s" --format 'event %c (%n new)'
	run iioctl watch --in iio0 0x0 -w 8 -n 3 -t "${wait_s}s" --format 'tick %o -> %n'
	echo 0 > /sys/devices/platform/iio_user_dummy.0/freq
}

trigger() {
	step "an event injected by hand (the stub's event_write): 3 at once"
	run iioctl trigger iio0 3
	run iioctl list -o device,events iio0
}

edu_factorial() {
	step "edu computes 10! and raises its interrupt; iioctl waits for it"
	run iioctl poke "$edu" status.irq_fact on
	iioctl wait-events "$edu" -t "${wait_s}s" -q &
	waiter=$!
	# start only once the waiter listens: an event before its open is not its
	until [ "$(cat "/sys/class/iio/$edu/listener")" != 0 ]; do
		sleep 0.05
	done
	run iioctl poke "$edu" factorial 10
	wait "$waiter"
	echo "10! = $(iioctl peek -d "$edu" factorial)"
	iioctl poke "$edu" irq_ack "$(iioctl peek "$edu" irq_status)"
}

edu_polled() {
	step "the same polled: wait-value until status.computing is 0"
	run iioctl poke "$edu" status.irq_fact off
	run iioctl poke "$edu" factorial 12
	run iioctl wait-value "$edu" status.computing 0 -t "${wait_s}s"
	echo "12! = $(iioctl peek -d "$edu" factorial)"
}

pci_generic() {
	step "iio_pci_generic: any PCI card to user space; the third edu (00:13.0), named by its address"
	run iioctl bind 0000:00:13.0
	run iioctl list -o device,name,irq 0000:00:13.0
	run iioctl poke 0000:00:13.0 status.irq_fact on
	iioctl wait-events 0000:00:13.0 -t "${wait_s}s" -q &
	waiter=$!
	g=$(iioctl list -n -o device 0000:00:13.0)
	until [ "$(cat "/sys/class/iio/$g/listener")" != 0 ]; do
		sleep 0.05
	done
	run iioctl poke 0000:00:13.0 factorial 5
	wait "$waiter"
	echo "5! = $(iioctl peek -d 0000:00:13.0 factorial)"
	# INTx: acknowledge in the device, then unmask with an event write
	run iioctl poke 0000:00:13.0 irq_ack "$(iioctl peek 0000:00:13.0 irq_status)"
	run iioctl trigger 0000:00:13.0 1
	# back as it was: no driver.  unbind clears driver_override, which
	# would let iio_edu take this edu at its next load; the guest keeps
	# such a function free with "none" (qemu/init)
	run iioctl unbind 0000:00:13.0
	echo none > /sys/bus/pci/devices/0000:00:13.0/driver_override
}

edu_dma() {
	step "edu's DMA engine from user space: a buffer of iio_edu into edu and back"
	run iioctl dma "$edu"
	b=$(cat "/sys/class/iio/$edu/dma0/bus_addr")
	printf 'DMA through user space, %s' "$(date)" > /tmp/pattern
	len=$(wc -c < /tmp/pattern)
	run iioctl poke --dma 0 "$edu" 0x0 --from /tmp/pattern
	# edu may master the bus only while a node of it is open (iio_edu(4)):
	# each iioctl below opens and closes it, and edu transfers 100 ms
	# after the command, so the shell holds the region node open meanwhile
	exec 3< "/dev/$edu"
	run iioctl poke "$edu" dma_src "$b"
	run iioctl poke "$edu" dma_dst 0x40000
	run iioctl poke "$edu" dma_count "$len"
	run iioctl poke "$edu" dma_cmd 0x1		# start, the buffer to edu
	run iioctl wait-value "$edu" dma_cmd.start 0 -t "${wait_s}s"
	run iioctl poke "$edu" dma_src 0x40000
	run iioctl poke "$edu" dma_dst "$(printf '0x%x' $((b + 4096)))"
	run iioctl poke "$edu" dma_cmd 0x3		# start, edu to the buffer
	run iioctl wait-value "$edu" dma_cmd.start 0 -t "${wait_s}s"
	exec 3<&-
	echo "second page now: $(dd if="/sys/class/iio/$edu/dma0/buffer" bs=4096 skip=1 count=1 2>/dev/null | head -c "$len")"
}

all="devices info registers memory nodes events trigger edu_factorial edu_polled pci_generic edu_dma"
# shellcheck disable=SC2086 # the words of $all
[ $# -gt 0 ] || set -- $all
for section in "$@"; do
	case " $all " in
	*" $section "*) "$section" ;;
	*) echo "demo: no section $section (sections: $all)" >&2; exit 2 ;;
	esac
done
