# completions/iioctl.fish - fish completion for iioctl(1)
#
# usage: source completions/iioctl.fish   (or install it as
#        /usr/share/fish/vendor_completions.d/iioctl.fish)
#
# Completes the global options, the commands, each command's options
# (iioctl COMMAND --help) and the arguments: DEV from the class folder
# (--sysfs DIR on the line, else $IIOCTL_SYSFS, else /sys/class/iio) as
# iioN, as the devices' names (not a name two devices share) and as
# their PCI parents' addresses (DDDD:BB:DD.F, or ADDR/barN where one
# PCI device has several iio devices), not those whose irq is none
# after trigger and wait-events, only
# devices with the window once --in or --out is given; -w widths; --dma
# and --vector what the device has; list -o columns (a comma list, not
# those already given); register names (REG and REG.FIELD, as iioctl regs
# --names DEV lists them, with the line's --sysfs, --map and --maps) where
# an offset goes, for a device that has a register map (for peek, watch
# and wait-value no write-only ones, for poke no read-only ones), and a field's
# named values (iioctl regs --names DEV REG.FIELD) where its VALUE goes
# (poke, wait-value, and poke's REG.FIELD=VALUE); files for poke --from,
# batch FILE, trigger --raw DEV FILE and --map; directories for --sysfs,
# --dev and --maps.

set -l __iioctl_cmds list info config dump peek poke regs wait-value watch wait-events trigger dma bind unbind batch help

# the options that read the next word, per command ("global" before it)
function __iioctl_takes_value -a cmd opt
    switch "$cmd:$opt"
        case global:--sysfs global:--dev global:--map global:--maps \
            list:-o list:--output \
            dump:-s dump:--skip dump:-n dump:--length dump:-w dump:--width \
            peek:-w peek:--width poke:-w poke:--width poke:-m poke:--mask \
            poke:--from wait-events:-n wait-events:--num-events \
            wait-events:-t wait-events:--timeout wait-events:--format \
            dump:--dma peek:--dma poke:--dma wait-events:--vector \
            dma:-r dma:--request dma:-f dma:--free dump:--compare poke:-c poke:--count \
            wait-value:-w wait-value:--width wait-value:-m wait-value:--mask \
            wait-value:-t wait-value:--timeout wait-value:-i wait-value:--interval \
            wait-value:--dma watch:-w watch:--width watch:-i watch:--interval \
            watch:-n watch:--num-changes watch:-t watch:--timeout watch:--format \
            watch:--length \
            watch:--dma
            return 0
    end
    return 1
end

# prints the command, then its positional arguments so far, one a line;
# $__iioctl_sysfs, $__iioctl_window and $__iioctl_global (--map and
# --maps with their values) are set from the line
function __iioctl_parse
    set -g __iioctl_sysfs ''
    set -g __iioctl_window ''
    set -g __iioctl_global
    set -l words (commandline -opc)
    set -e words[1]
    set -l cmd ''
    set -l skip 0
    set -l ddash 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if test -z "$cmd"
            switch $w
                case --sysfs
                    set skip 1
                    set -l i (contains -i -- --sysfs $words)
                    set -g __iioctl_sysfs $words[(math $i + 1)]
                case '--sysfs=*'
                    set -g __iioctl_sysfs (string replace -- --sysfs= '' $w)
                case --dev
                    set skip 1
                case --map --maps
                    set skip 1
                    set -l i (contains -i -- $w $words)
                    set -a -g __iioctl_global $w $words[(math $i + 1)]
                case '--map=*' '--maps=*'
                    set -a -g __iioctl_global $w
                case '-*'
                case '*'
                    set cmd $w
                    echo $cmd
            end
        else if test $ddash = 1; or not string match -q -- '-?*' $w
            echo $w
        else if test "$w" = --
            set ddash 1
        else
            test "$w" = --in; and set -g __iioctl_window read
            test "$w" = --out; and set -g __iioctl_window write
            if not string match -q -- '*=*' $w
                and __iioctl_takes_value $cmd $w
                set skip 1
            end
        end
    end
end

# true if the command is one of the arguments and it has N positionals
function __iioctl_at -a n
    set -l parsed (__iioctl_parse)
    contains -- "$parsed[1]" $argv[2..-1]; or return 1
    test $n = any; or test (count $parsed) -eq (math $n + 1)
end

# N of the BAR of the PCI parent of the class folder $argv[1] that holds
# its region (its physaddr inside a line of the parent's resource file)
function __iioctl_bar
    set -l phys (head -n 1 $argv[1]/physaddr 2>/dev/null); or return 1
    test -r $argv[1]/device/resource; or return 1
    set -l n 0
    while read -l start end flags
        if test (math "$end") -ne 0; and test (math "$phys") -ge (math "$start")
            and test (math "$phys") -le (math "$end")
            echo $n
            return 0
        end
        set n (math $n + 1)
    end <$argv[1]/device/resource
    return 1
end

# the PCI address of the parent of the class folder $argv[1], if PCI
function __iioctl_pci_address
    string match -q '*/pci' -- (readlink $argv[1]/device/subsystem 2>/dev/null)
    or return 1
    basename (readlink $argv[1]/device)
end

# the devices: iioN (the name as description), the names and the PCI
# parents' addresses (ADDR/barN where an address has several devices);
# trigger and wait-events refuse a device whose irq is none, config one
# that is no PCI device's: left out
function __iioctl_devices
    set -l parsed (__iioctl_parse)
    set -l sysfs $__iioctl_sysfs
    test -n "$sysfs"; or set sysfs $IIOCTL_SYSFS
    test -n "$sysfs"; or set sysfs /sys/class/iio
    set -l dirs
    for d in $sysfs/iio*
        string match -qr '/iio[0-9]+$' -- $d; and test -d $d; or continue
        if test -n "$__iioctl_window"
            test -e $d/{$__iioctl_window}_len; or continue
        end
        if contains -- "$parsed[1]" trigger wait-events
            set -l irq (head -n 1 $d/irq 2>/dev/null)
            test -n "$irq" -a "$irq" != none; or continue
        end
        # config refuses a device that is no PCI device's
        if test "$parsed[1]" = config
            __iioctl_pci_address $d >/dev/null; or continue
        end
        set -a dirs $d
    end
    # what is ambiguous among all the devices, offered or not
    set -l all_names
    set -l all_addrs
    for d in $sysfs/iio*
        string match -qr '/iio[0-9]+$' -- $d; and test -d $d; or continue
        set -a all_names (head -n 1 $d/name 2>/dev/null)
        set -a all_addrs (__iioctl_pci_address $d)
    end
    for d in $dirs
        set -l n (basename $d)
        set -l name (head -n 1 $d/name 2>/dev/null)
        printf '%s\t%s\n' $n "$name"
        # a name two devices share is ambiguous: not offered
        set -l same 0
        for other in $all_names
            test "$other" = "$name"; and set same (math $same + 1)
        end
        if test -n "$name"; and test $same -eq 1
            printf '%s\t%s\n' $name $n
        end
        set -l addr (__iioctl_pci_address $d); or continue
        set same 0
        for other in $all_addrs
            test "$other" = "$addr"; and set same (math $same + 1)
        end
        if test $same -eq 1
            printf '%s\t%s\n' $addr $n
        else if set -l bar (__iioctl_bar $d)
            printf '%s\t%s\n' $addr/bar$bar $n
        end
    end
end

# the class folders of DEV (the first argument, if given and found) or of
# every device
function __iioctl_device_dirs
    set -l parsed (__iioctl_parse)
    set -l sysfs $__iioctl_sysfs
    test -n "$sysfs"; or set sysfs $IIOCTL_SYSFS
    test -n "$sysfs"; or set sysfs /sys/class/iio
    set -l found
    if set -q parsed[2]
        for d in $sysfs/iio*
            string match -qr '/iio[0-9]+$' -- $d; or continue
            set -l n (basename $d)
            set -l name (head -n 1 $d/name 2>/dev/null)
            if contains -- $parsed[2] $n (string replace iio '' $n) "$name"
                set -a found $d
            end
        end
    end
    test (count $found) -eq 1; or set found (string match -r '.*/iio[0-9]+$' -- $sysfs/iio*)
    printf '%s\n' $found
end

# K of the DMA buffers (dmaK/) the device has
function __iioctl_dma_buffers
    for d in (__iioctl_device_dirs)
        for k in $d/dma*
            test -e $k/size; and string replace -r '.*/dma' '' -- $k
        end
    end | sort -nu
end

# 0 .. vectors-1 of the device
function __iioctl_vectors
    set -l max 1
    for d in (__iioctl_device_dirs)
        set -l n 1
        test -r $d/vectors; and set n (head -n 1 $d/vectors)
        string match -qr '^[0-9]+$' -- $n; and test $n -gt $max; and set max $n
    end
    seq 0 (math $max - 1)
end

# iioctl regs --names [--readable|--writable] DEV [REG.FIELD]: the
# register names of DEV's map (those a read or a write takes), or the
# names of the field's values; none without a map or for a register
function __iioctl_map_names
    set -l access
    if contains -- "$argv[1]" --readable --writable
        set access $argv[1]
        set -e argv[1]
    end
    set -l parsed (__iioctl_parse)
    set -q parsed[2]; or return
    # a register (or an offset) has no named values
    if set -q argv[1]
        string match -qr '^.+\..+$' -- $argv[1]; or return
    end
    set -l sysfs $__iioctl_sysfs
    test -n "$sysfs"; or set sysfs $IIOCTL_SYSFS
    test -n "$sysfs"; or set sysfs /sys/class/iio
    command iioctl --sysfs $sysfs $__iioctl_global regs --names $access $parsed[2] $argv 2>/dev/null
end

# the register names where an offset goes; in poke's REG.FIELD=VALUE the
# field's values, each as REG.FIELD=VALUE
function __iioctl_registers
    set -l parsed (__iioctl_parse)
    set -l token (commandline -ct)
    if test "$parsed[1]" = poke; and string match -q -- '*=*' $token
        set -l field (string split -m 1 = -- $token)[1]
        for v in (__iioctl_map_names $field)
            echo $field=$v
        end
        return
    end
    # a read refuses write-only registers, a write read-only ones
    switch "$parsed[1]"
        case peek wait-value watch
            __iioctl_map_names --readable
        case poke
            __iioctl_map_names --writable
        case '*'
            __iioctl_map_names
    end
end

# the names of the values of the field REG.FIELD, the second argument
function __iioctl_values
    set -l parsed (__iioctl_parse)
    set -q parsed[3]; and __iioctl_map_names $parsed[3]
end

# true after poke's first LOC=VALUE word: every word after it is one too
function __iioctl_poke_assign
    set -l parsed (__iioctl_parse)
    test "$parsed[1]" = poke; and set -q parsed[3]
    and string match -q -- '*=*' $parsed[3]
end

# true if the command is one of the arguments and DEV is given
function __iioctl_after_dev
    set -l parsed (__iioctl_parse)
    contains -- "$parsed[1]" $argv; and set -q parsed[2]
end

# list -o: the comma list so far and each column not in it yet
function __iioctl_columns
    set -l token (commandline -ct)
    # +COLUMNS: after the default ones, which it must not repeat
    set -l pre (string replace -r '[^,+]*$' '' -- $token)
    set -l given (string split , -- (string lower -- (string trim -l -c + -- $pre)))
    set -l defaults device name version type size physaddr in out irq \
        events listeners
    for c in device nr name version type size physaddr in out irq \
        events listeners vectors dma dev parent id vendor product class classname driver \
        bars irqmode master dmapolicy iommugroup
        contains -- $c $given; and continue
        string match -q -- '+*' $pre; and contains -- $c $defaults; and continue
        echo $pre$c
    end
end

complete -c iioctl -f

# global options and the commands
set -l nocmd "not __fish_seen_subcommand_from $__iioctl_cmds"
complete -c iioctl -n $nocmd -l sysfs -x -a '(__fish_complete_directories)' \
    -d 'the iio class folder (default /sys/class/iio)'
complete -c iioctl -n $nocmd -l dev -x -a '(__fish_complete_directories)' \
    -d 'the device node folder (default /dev)'
complete -c iioctl -n $nocmd -l map -r -F \
    -d 'the register map of every device'
complete -c iioctl -n $nocmd -l maps -x -a '(__fish_complete_directories)' \
    -d 'folders searched first for register maps'
complete -c iioctl -n $nocmd -s v -l verbose -d 'print every device access on stderr'
complete -c iioctl -n $nocmd -s D -l dry-run -d 'check and print the accesses, touching nothing'
complete -c iioctl -n $nocmd -s V -l version -d 'print the version'
complete -c iioctl -n $nocmd -s h -l help -d 'show the commands'
complete -c iioctl -n $nocmd -a list -d 'list the devices'
complete -c iioctl -n $nocmd -a info -d 'everything about one device'
complete -c iioctl -n $nocmd -a config -d 'the PCI config space, read-only'
complete -c iioctl -n $nocmd -a dump -d 'hexdump of the region or a window'
complete -c iioctl -n $nocmd -a peek -d 'read one value'
complete -c iioctl -n $nocmd -a poke -d 'write one value or bytes'
complete -c iioctl -n $nocmd -a regs -d 'the registers of the register map, decoded'
complete -c iioctl -n $nocmd -a wait-value -d 'poll a register until it has a value'
complete -c iioctl -n $nocmd -a watch -d 'a line per change of registers'
complete -c iioctl -n $nocmd -a wait-events -d 'block until N events'
complete -c iioctl -n $nocmd -a trigger -d 'inject an event'
complete -c iioctl -n $nocmd -a dma -d 'the DMA buffers of a device'
complete -c iioctl -n $nocmd -a bind -d 'give a PCI function to an iio stub'
complete -c iioctl -n $nocmd -a unbind -d 'take a PCI function from its iio stub'
complete -c iioctl -n $nocmd -a batch -d 'run commands from FILE, one a line'
complete -c iioctl -n $nocmd -a help -d 'show the commands'

# every command but help: popt's help options
set -l popt "__fish_seen_subcommand_from list info config dump peek poke regs wait-value watch wait-events trigger dma bind unbind batch"
complete -c iioctl -n $popt -s h -l help -d 'show the command\'s help'
complete -c iioctl -n $popt -s '?' -d 'show the command\'s help'
complete -c iioctl -n $popt -l usage -d 'brief usage message'

# list, info
complete -c iioctl -n '__fish_seen_subcommand_from list info config dma regs peek wait-value watch wait-events' -s j -l json \
    -d 'print JSON'
complete -c iioctl -n '__fish_seen_subcommand_from list' -s H -l list-columns \
    -d 'list the columns'
complete -c iioctl -n '__fish_seen_subcommand_from list' -s n -l noheadings \
    -d 'no heading line'
complete -c iioctl -n '__fish_seen_subcommand_from list' -s o -l output -x \
    -a '(__iioctl_columns)' -d 'columns to print'

# dump, peek, poke
set -l region '__fish_seen_subcommand_from dump peek poke wait-value watch'
complete -c iioctl -n '__fish_seen_subcommand_from dump' -s s -l skip -x \
    -d 'start at OFFSET'
complete -c iioctl -n '__fish_seen_subcommand_from dump' -s n -l length -x \
    -d 'dump LENGTH bytes (default 256)'
complete -c iioctl -n '__fish_seen_subcommand_from dump watch' -s a -l all \
    -d 'to the end of the node'
complete -c iioctl -n '__fish_seen_subcommand_from peek poke wait-value watch regs' -l be \
    -d 'big-endian registers: swap the bytes of each value'
complete -c iioctl -n '__fish_seen_subcommand_from dump watch regs poke' -l force \
    -d 'read registers whose read has side effects'
complete -c iioctl -n '__fish_seen_subcommand_from watch' -l length -x \
    -d 'without OFFSET: the first LENGTH bytes'
complete -c iioctl -n $region -s w -l width -x -a '1 2 4 8' \
    -d 'access width in bytes'
complete -c iioctl -n '__fish_seen_subcommand_from trigger' -l in -x \
    -d 'arm a one-shot event DURATION from now'
complete -c iioctl -n '__fish_seen_subcommand_from trigger' -l at -x \
    -d 'arm a one-shot event at a CLOCK_MONOTONIC TIME'
complete -c iioctl -n '__fish_seen_subcommand_from dump trigger' -l raw \
    -d 'raw bytes'
complete -c iioctl -n '__fish_seen_subcommand_from peek' -s d -l decimal \
    -d 'print the value in decimal'
complete -c iioctl -n '__fish_seen_subcommand_from poke' -s m -l mask -x \
    -d 'change only these bits'
complete -c iioctl -n '__fish_seen_subcommand_from poke' -l verify \
    -d 'read the value back'
complete -c iioctl -n '__fish_seen_subcommand_from poke' -l from -r -F \
    -d 'write the bytes of FILE'
complete -c iioctl -n '__fish_seen_subcommand_from poke' -s c -l count -x \
    -d 'fill N values'
complete -c iioctl -n '__fish_seen_subcommand_from dump' -l compare -r -F \
    -d 'compare with FILE (raw or a dump)'
complete -c iioctl -n '__fish_seen_subcommand_from wait-value' -s m -l mask -x \
    -d 'compare only these bits'
complete -c iioctl -n '__fish_seen_subcommand_from wait-value watch' -s t -l timeout -x \
    -d 'give up after TIMEOUT'
complete -c iioctl -n '__fish_seen_subcommand_from wait-value watch' -s i -l interval -x \
    -d 'read every INTERVAL'
complete -c iioctl -n '__fish_seen_subcommand_from wait-value' -l change \
    -d 'wait for any change'
complete -c iioctl -n '__fish_seen_subcommand_from watch' -s n -l num-changes -x \
    -d 'return after N changes'
complete -c iioctl -n '__fish_seen_subcommand_from watch' -l format -x \
    -d 'line per change (%t %T %r %o %n %%)'
complete -c iioctl -n "$region; and not __fish_seen_argument -l out" -l in \
    -d 'use the in window'
complete -c iioctl -n "$region; and not __fish_seen_argument -l in" -l out \
    -d 'use the out window'
complete -c iioctl -n "$region; and not __fish_seen_argument -l in -l out" \
    -l dma -x -a '(__iioctl_dma_buffers)' -d 'use DMA buffer K'
complete -c iioctl -n $region -l mmap -d 'access through mmap()'

# regs: the node options but --dma
set -l regs '__fish_seen_subcommand_from regs'
complete -c iioctl -n $regs -l names -d 'print the names only'
complete -c iioctl -n "$regs; and not __fish_seen_argument -l writable" -l readable \
    -d 'with --names: only what a read takes'
complete -c iioctl -n "$regs; and not __fish_seen_argument -l readable" -l writable \
    -d 'with --names: only what a write takes'
complete -c iioctl -n "$regs; and not __fish_seen_argument -l out" -l in \
    -d 'use the in window'
complete -c iioctl -n "$regs; and not __fish_seen_argument -l in" -l out \
    -d 'use the out window'
complete -c iioctl -n $regs -l mmap -d 'access through mmap()'

# wait-events
set -l wait '__fish_seen_subcommand_from wait-events'
complete -c iioctl -n $wait -s n -l num-events -x -d 'return after N events'
complete -c iioctl -n $wait -s t -l timeout -x -d 'give up after TIMEOUT'
complete -c iioctl -n $wait -l format -x -d 'line per read (%c %n %t %T %%)'
complete -c iioctl -n $wait -s q -l quiet -d 'print nothing'
complete -c iioctl -n $wait -l vector -x -a '(__iioctl_vectors)' \
    -d 'the events of vector K'

# dma
complete -c iioctl -n '__fish_seen_subcommand_from dma' -s r -l request -x \
    -d 'first add a buffer of SIZE bytes'
complete -c iioctl -n '__fish_seen_subcommand_from dma' -s f -l free -x \
    -a '(__iioctl_dma_buffers)' -d 'first free DMA buffer K'

# the arguments
complete -c iioctl -n '__iioctl_at any list' -a '(__iioctl_devices)'
complete -c iioctl -n '__fish_seen_subcommand_from config' -s x -l hex \
    -d 'hex dump: -x 64 bytes, -xxx 256, -xxxx 4096'
complete -c iioctl -n '__iioctl_at 0 info config dump peek poke regs wait-value watch wait-events trigger dma' \
    -a '(__iioctl_devices)'
complete -c iioctl -n '__iioctl_at 1 poke wait-value; or __iioctl_after_dev peek watch regs' \
    -a '(__iioctl_registers)'
complete -c iioctl -n '__iioctl_at 2 poke wait-value; and not __iioctl_poke_assign' \
    -a '(__iioctl_values)'
complete -c iioctl -n '__iioctl_poke_assign' -a '(__iioctl_registers)'
complete -c iioctl -n '__iioctl_at 1 trigger; and __fish_seen_argument -l raw' \
    -F
complete -c iioctl -n '__iioctl_at 0 batch' -F
complete -c iioctl -n '__fish_seen_subcommand_from batch' -s s -l stream \
    -d 'check and run each line as it arrives'
# bind, unbind: the PCI functions, the stubs
function __iioctl_pci_functions
    set -l root /sys/bus/pci
    set -q IIOCTL_PCI; and test -n "$IIOCTL_PCI"; and set root $IIOCTL_PCI
    for f in $root/devices/*
        basename $f
    end
end
complete -c iioctl -n '__iioctl_at 0 bind unbind' -f -a '(__iioctl_pci_functions)'
complete -c iioctl -n '__fish_seen_subcommand_from bind' -s d -l driver -x \
    -a 'iio_pci_generic iio_edu iio_pcitest' -d 'the stub'
complete -c iioctl -n '__fish_seen_subcommand_from bind unbind' -l force \
    -d 'unbind it from the driver it has first'
complete -c iioctl -n '__iioctl_at 0 help' -a "$__iioctl_cmds"
