#!/bin/sh
# make demo: the framework at work in the guest, with the shell tools and
# iioctl.
#
# usage: /demo/dummy.sh [SECTION...]   the sections named, in that order
#                                      (default: all of them, in order)
# sections: devices dummy_memory dummy_events injected_event edu_id
#           edu_factorial pci_generic edu_dma iioctl_list
#
# Registers are written with iioctl poke -w 4 (one 4-byte write), never
# printf | dd: busybox dd writes what one read of the pipe returns, and a
# printf run from a shell whose output is a terminal flushes at every
# newline byte (\012), so under load dd may get 1 of the 4 bytes, and edu
# ignores writes narrower than 4 bytes (the factorial of 10 then never
# starts and its interrupt never comes).  Every wait for an event gives up
# after DEMO_WAIT seconds (default 30) with a message saying what did not
# come, and the demo fails.
set -e
say() { printf '\n== %s\n' "$*"; }
wait_s=${DEMO_WAIT:-30}

# read_event WHAT: one read of the event node open on fd 3, its count in
# decimal on stdout; fails with a message naming WHAT when no event comes
# within $wait_s seconds.  (timeout's watcher process lives on for up to a
# second: it gets the node as its standard input only, which it closes,
# not as fd 3, so the node is not left open.)
read_event() {
	if ! timeout "$wait_s" dd bs=4 count=1 <&3 3<&- > /tmp/demo.event 2>/dev/null; then
		echo "demo: no event within $wait_s s: $1" >&2
		return 1
	fi
	od -An -tu4 /tmp/demo.event
}

# the first iio_edu device (iio1 after boot)
for d in /sys/class/iio/iio*; do
	if [ "$(cat "$d/name")" = edu ]; then
		edu=${d##*/}
		break
	fi
done

devices() {
	say "devices in /sys/class/iio (framework $(cat /sys/class/iio/version))"
	for d in /sys/class/iio/iio*; do
		n=${d##*/}
		printf '%-5s %-12s type=%-4s size=%-9s irq=%s\n' "$n" "$(cat "$d/name")" \
			"$(cat "$d/type")" "$(cat "$d/size")" "$(cat "$d/irq")"
	done
	ls -l /dev/iio0*
}

dummy_memory() {
	say "the dummy's memory: write through /dev/iio0_out, read through /dev/iio0"
	printf 'hello from user space' | dd of=/dev/iio0_out bs=64 2>/dev/null
	dd if=/dev/iio0 bs=16 skip=256 count=2 2>/dev/null | hexdump -C
}

dummy_events() {
	say "the dummy's events: 4 ticks per second, each writes the tick count at offset 0"
	exec 3< /dev/iio0_event
	echo 4 > /sys/devices/platform/iio_user_dummy.0/freq
	i=0
	while [ $i -lt 4 ]; do
		# each 4-byte read of the event node blocks until the next event
		count=$(read_event "the dummy's tick")
		tick=$(dd if=/dev/iio0_in bs=8 count=1 2>/dev/null | od -An -tu8)
		echo "event count $count, tick count in memory $tick"
		i=$((i + 1))
	done
	echo 0 > /sys/devices/platform/iio_user_dummy.0/freq
	exec 3<&-
}

injected_event() {
	say "an injected event: write a 32-bit N to the event node"
	iioctl trigger iio0 3
	echo "events now: $(cat /sys/class/iio/iio0/event)"
}

edu_id() {
	say "edu (a real PCI device): identification register, one 4-byte read"
	dd if="/dev/$edu" bs=4 count=1 2>/dev/null | od -An -tx4
}

edu_factorial() {
	say "edu: factorial of 10 computed by the device, completion by interrupt"
	# open the event node first: a file sees the events after its open
	exec 3< "/dev/${edu}_event"
	iioctl poke -w 4 "$edu" 0x20 0x80		# interrupt when done
	before=$(cat "/sys/class/iio/$edu/event")
	iioctl poke -w 4 "$edu" 0x08 10		# start 10!
	read_event "edu's interrupt for 10!" > /dev/null
	exec 3<&-
	echo "interrupts: $before -> $(cat "/sys/class/iio/$edu/event")"
	echo "10! = $(dd if="/dev/$edu" bs=4 skip=2 count=1 2>/dev/null | od -An -tu4)"
}

pci_generic() {
	say "iio_pci_generic: bind a card as a user would (here an edu at 00:13.0)"
	echo iio_pci_generic > /sys/bus/pci/devices/0000:00:13.0/driver_override
	echo 0000:00:13.0 > /sys/bus/pci/drivers/iio_pci_generic/bind
	for d in /sys/class/iio/iio*; do
		[ "$(cat "$d/name")" = "0000:00:13.0 bar0" ] && g=${d##*/}
	done
	echo "$g: $(cat "/sys/class/iio/$g/name"), irq $(cat "/sys/class/iio/$g/irq")"
	exec 3< "/dev/${g}_event"
	iioctl poke -w 4 "$g" 0x20 0x80		# interrupt when done
	iioctl poke -w 4 "$g" 0x08 5		# start 5!
	read_event "edu's interrupt for 5! through iio_pci_generic" > /dev/null
	echo "5! = $(iioctl peek -d -w 4 "$g" 0x08)"
	# acknowledge in the device (0x24 status to 0x64), then unmask INTx
	iioctl poke -w 4 "$g" 0x64 "$(iioctl peek -w 4 "$g" 0x24)"
	iioctl trigger "$g" 1
	exec 3<&-
	echo 0000:00:13.0 > /sys/bus/pci/drivers/iio_pci_generic/unbind
}

edu_dma() {
	say "edu's DMA engine driven from user space: a buffer of iio_edu, into edu and back"
	d="/sys/class/iio/$edu/dma0"
	b=$(cat "$d/bus_addr")
	echo "dma0: $(cat "$d/size") bytes at bus address $b"
	printf 'DMA through user space, %s' "$(date)" > /tmp/pattern
	len=$(wc -c < /tmp/pattern)
	cat /tmp/pattern > "$d/buffer"
	exec 3< "/dev/${edu}_event"
	iioctl poke "$edu" 0x80 "$b" -w 8			# source: the buffer
	iioctl poke "$edu" 0x88 0x40000 -w 8		# destination: edu's memory
	iioctl poke "$edu" 0x90 "$len" -w 8		# count
	iioctl poke "$edu" 0x98 5 -w 8			# start, interrupt when done
	read_event "edu's DMA completion (buffer to edu)" > /dev/null
	iioctl poke "$edu" 0x80 0x40000 -w 8
	iioctl poke "$edu" 0x88 $((b + 4096)) -w 8	# back into the second page
	iioctl poke "$edu" 0x98 7 -w 8			# edu to RAM this time
	read_event "edu's DMA completion (edu to buffer)" > /dev/null
	exec 3<&-
	echo "second page now: $(dd if="$d/buffer" bs=4096 skip=1 count=1 2>/dev/null | head -c "$len")"
}

iioctl_list() {
	say "the same with iioctl"
	iioctl list
}

all="devices dummy_memory dummy_events injected_event edu_id edu_factorial pci_generic edu_dma iioctl_list"
# shellcheck disable=SC2086 # the words of $all
[ $# -gt 0 ] || set -- $all
for section in "$@"; do
	case " $all " in
	*" $section "*) "$section" ;;
	*) echo "demo: no section $section (sections: $all)" >&2; exit 2 ;;
	esac
done
