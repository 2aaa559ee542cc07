#!/bin/sh
# make demo: the framework at work in the guest, with the shell tools only.
set -e
say() { printf '\n== %s\n' "$*"; }

say "devices in /sys/class/iio (framework $(cat /sys/class/iio/version))"
for d in /sys/class/iio/iio*; do
	n=${d##*/}
	printf '%-5s %-12s type=%-4s size=%-9s irq=%s\n' "$n" "$(cat "$d/name")" \
		"$(cat "$d/type")" "$(cat "$d/size")" "$(cat "$d/irq")"
done
ls -l /dev/iio0*

say "the dummy's memory: write through /dev/iio0_out, read through /dev/iio0"
printf 'hello from user space' | dd of=/dev/iio0_out bs=64 2>/dev/null
dd if=/dev/iio0 bs=16 skip=256 count=2 2>/dev/null | hexdump -C

say "the dummy's events: 4 ticks per second, each writes the tick count at offset 0"
exec 3< /dev/iio0_event
echo 4 > /sys/devices/platform/iio_dummy.0/freq
i=0
while [ $i -lt 4 ]; do
	# each 4-byte read of the event node blocks until the next event
	count=$(dd bs=4 count=1 <&3 2>/dev/null | od -An -tu4)
	tick=$(dd if=/dev/iio0_in bs=8 count=1 2>/dev/null | od -An -tu8)
	echo "event count $count, tick count in memory $tick"
	i=$((i + 1))
done
echo 0 > /sys/devices/platform/iio_dummy.0/freq
exec 3<&-

say "an injected event: write a 32-bit N to the event node"
printf '\003\000\000\000' > /dev/iio0_event
echo "events now: $(cat /sys/class/iio/iio0/event)"

say "edu (a real PCI device): identification register, one 4-byte read"
dd if=/dev/iio1 bs=4 count=1 2>/dev/null | od -An -tx4

say "edu: factorial of 10 computed by the device, completion by interrupt"
# open the event node first: a file sees the events after its open
exec 3< /dev/iio1_event
printf '\200\000\000\000' | dd of=/dev/iio1 bs=4 seek=8 2>/dev/null   # 0x20 = 0x80
before=$(cat /sys/class/iio/iio1/event)
printf '\012\000\000\000' | dd of=/dev/iio1 bs=4 seek=2 2>/dev/null   # 0x08 = 10
dd bs=4 count=1 <&3 2>/dev/null >/dev/null                            # the interrupt
exec 3<&-
echo "interrupts: $before -> $(cat /sys/class/iio/iio1/event)"
echo "10! = $(dd if=/dev/iio1 bs=4 skip=2 count=1 2>/dev/null | od -An -tu4)"
say "iio_pci_generic: bind a card as a user would (here an edu at 00:13.0)"
echo iio_pci_generic > /sys/bus/pci/devices/0000:00:13.0/driver_override
echo 0000:00:13.0 > /sys/bus/pci/drivers/iio_pci_generic/bind
for d in /sys/class/iio/iio*; do
	[ "$(cat "$d/name")" = "0000:00:13.0 bar0" ] && g=${d##*/}
done
echo "$g: $(cat /sys/class/iio/$g/name), irq $(cat /sys/class/iio/$g/irq)"
exec 3<> /dev/${g}_event
printf '\200\000\000\000' | dd of=/dev/$g bs=4 seek=8 2>/dev/null     # irq when done
printf '\005\000\000\000' | dd of=/dev/$g bs=4 seek=2 2>/dev/null     # 5!
dd bs=4 count=1 <&3 2>/dev/null >/dev/null                            # the interrupt
echo "5! = $(dd if=/dev/$g bs=4 skip=2 count=1 2>/dev/null | od -An -tu4)"
# acknowledge in the device (0x64 = status), then unmask INTx: write 1
dd if=/dev/$g bs=4 skip=9 count=1 2>/dev/null | dd of=/dev/$g bs=4 seek=25 2>/dev/null
printf '\001\000\000\000' >&3
exec 3<&-
echo 0000:00:13.0 > /sys/bus/pci/drivers/iio_pci_generic/unbind

say "edu's DMA engine driven from user space: a buffer of iio_edu, into edu and back"
d=/sys/class/iio/iio1/dma0
b=$(cat $d/bus_addr)
echo "dma0: $(cat $d/size) bytes at bus address $b"
printf 'DMA through user space, %s' "$(date)" > /tmp/pattern
len=$(wc -c < /tmp/pattern)
cat /tmp/pattern > $d/buffer
exec 3< /dev/iio1_event
iioctl poke iio1 0x80 "$b" -w 8			# source: the buffer
iioctl poke iio1 0x88 0x40000 -w 8		# destination: edu's memory
iioctl poke iio1 0x90 "$len" -w 8		# count
iioctl poke iio1 0x98 5 -w 8			# start, interrupt when done
dd bs=4 count=1 <&3 2>/dev/null >/dev/null	# the completion interrupt
iioctl poke iio1 0x80 0x40000 -w 8
iioctl poke iio1 0x88 $((b + 4096)) -w 8	# back into the second page
iioctl poke iio1 0x98 7 -w 8			# edu to RAM this time
dd bs=4 count=1 <&3 2>/dev/null >/dev/null
exec 3<&-
echo "second page now: $(dd if=$d/buffer bs=4096 skip=1 count=1 2>/dev/null | head -c "$len")"

if command -v iioctl >/dev/null; then
	say "the same with iioctl"
	iioctl list
fi
