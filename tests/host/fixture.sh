# tests/host/fixture.sh - sourced by tests/host/run: make_fixture DIR
# builds DIR/sys (a stand-in for /sys/class/iio, as the guest has it) and
# DIR/dev (regular files of the right sizes for the nodes):
#   iio0 "IIO dummy"  mem 0x2000, in [0,0x1000), out [0x1000,0x2000), cyclic
#   iio1, iio2 "edu"  mem 0x100000 at 0xfea00000/0xfeb00000, in [0,0x1000), irq 11
#   iio3 "pci-testdev" port 0x100 at 0xc000, no windows, irq none
#   iio1 has a DMA buffer dma0 (0x10000 bytes at bus address 0x6050000)
#   and 3 event vectors (/dev/iio1_event1, _event2)
#   the PCI parents have a resource file (BAR0 holds the region) and
#   vendor, device and class files (edu 1234:11e8, pci-testdev 1b36:0005)
make_attrs() {	# DIR NAME TYPE PHYS SIZE IRQ MINOR PARENT BUS
	mkdir -p "$1"
	printf '%s\n' "$2" > "$1/name"
	echo 1.0 > "$1/version"
	echo "$3" > "$1/type"
	echo "$4" > "$1/physaddr"
	echo "$5" > "$1/size"
	echo "$6" > "$1/irq"
	echo "250:$7" > "$1/dev"
	echo 0 > "$1/listener"
	echo 0 > "$1/event"
	mkdir -p "$fixture_root/devices/$9/$8" "$fixture_root/bus/$9"
	ln -sfn "$fixture_root/bus/$9" "$fixture_root/devices/$9/$8/subsystem"
	ln -sfn "$fixture_root/devices/$9/$8" "$1/device"
}

make_resource() {	# DIR BAR0_START BAR0_END: BAR0, five empty BARs
	{
		printf '0x%016x 0x%016x 0x0000000000040200\n' "$2" "$3"
		for _ in 1 2 3 4 5; do
			printf '0x%016x 0x%016x 0x%016x\n' 0 0 0
		done
	} > "$1/resource"
}

make_pci_id() {	# DIR VENDOR DEVICE CLASS
	echo "$2" > "$1/vendor"
	echo "$3" > "$1/device"
	echo "$4" > "$1/class"
}

make_node() {	# PATH SIZE
	truncate -s "$2" "$1"
}

make_fixture() {
	fixture_root=$1
	local sys=$1/sys dev=$1/dev
	mkdir -p "$sys" "$dev"
	echo 1.0 > "$sys/version"
	make_attrs "$sys/iio0" "IIO dummy" mem 0x0 0x2000 cyclic 0 iio_user_dummy.0 platform
	echo 0x0 > "$sys/iio0/read_offset"; echo 0x1000 > "$sys/iio0/read_len"
	echo 0x1000 > "$sys/iio0/write_offset"; echo 0x1000 > "$sys/iio0/write_len"
	make_attrs "$sys/iio1" edu mem 0xfea00000 0x100000 11 16 0000:00:10.0 pci
	make_attrs "$sys/iio2" edu mem 0xfeb00000 0x100000 11 32 0000:00:11.0 pci
	for n in 1 2; do
		echo 0x0 > "$sys/iio$n/read_offset"
		echo 0x1000 > "$sys/iio$n/read_len"
	done
	mkdir -p "$sys/iio1/dma0"
	echo 0x10000 > "$sys/iio1/dma0/size"
	echo 0x6050000 > "$sys/iio1/dma0/bus_addr"
	truncate -s 65536 "$sys/iio1/dma0/buffer"
	echo 3 > "$sys/iio1/vectors"
	for k in 1 2; do
		mkdir -p "$sys/iio1/iio1_event$k"
		echo 0 > "$sys/iio1/iio1_event$k/event"
	done
	make_attrs "$sys/iio3" pci-testdev port 0xc000 0x100 none 48 0000:00:18.0 pci
	# the PCI parents' BARs (start end flags, as sysfs's resource file)
	make_resource "$1/devices/pci/0000:00:10.0" 0xfea00000 0xfeafffff
	make_resource "$1/devices/pci/0000:00:11.0" 0xfeb00000 0xfebfffff
	make_resource "$1/devices/pci/0000:00:18.0" 0xc000 0xc0ff
	make_pci_id "$1/devices/pci/0000:00:10.0" 0x1234 0x11e8 0x00ff00
	make_pci_id "$1/devices/pci/0000:00:11.0" 0x1234 0x11e8 0x00ff00
	make_pci_id "$1/devices/pci/0000:00:18.0" 0x1b36 0x0005 0x00ff00
	make_node "$dev/iio0" 8192; make_node "$dev/iio0_in" 4096
	make_node "$dev/iio0_out" 4096; make_node "$dev/iio0_event" 0
	for n in 1 2; do
		make_node "$dev/iio$n" 1048576; make_node "$dev/iio${n}_in" 4096
		make_node "$dev/iio${n}_event" 0
	done
	make_node "$dev/iio1_event1" 0; make_node "$dev/iio1_event2" 0
	make_node "$dev/iio3" 256; make_node "$dev/iio3_event" 0
}
