# completions/iioctl.bash - bash completion for iioctl(1)
#
# usage: . completions/iioctl.bash   (or install it as
#        /usr/share/bash-completion/completions/iioctl)
#
# Completes the global options, the commands, each command's options
# (iioctl COMMAND --help), and the arguments: DEV from the class folder
# (--sysfs DIR on the line, else $IIOCTL_SYSFS, else /sys/class/iio) as
# iioN, as the devices' names (quoted: names may hold blanks and
# colons; a name two devices share is ambiguous and not offered) and as
# their PCI parents' addresses (DDDD:BB:DD.F, or ADDR/barN where one
# PCI device has several iio devices), not those whose irq is none
# after trigger and wait-events, only
# devices with the window once --in or --out is given, node paths as
# files; -w widths; --dma and --vector the buffers and vectors the device
# (DEV if given before, else any device) has; list -o columns (a comma
# list, without those already given); register names (REG and
# REG.FIELD, as iioctl regs --names DEV lists them) where an offset
# goes, for a device that has a register map (for peek, watch and
# wait-value no write-only ones, for poke no read-only ones), and a field's named values
# (iioctl regs --names DEV REG.FIELD) where its VALUE goes (poke,
# wait-value, and poke's REG.FIELD=VALUE); files for poke --from, batch
# FILE, trigger --raw DEV FILE and --map; directories for --sysfs,
# --dev and --maps.
# Uses bash-completion's helpers when they are loaded (they join
# "--opt=value" and names with colons back into one word) and falls back
# to COMP_WORDS as they are.

_iioctl_commands="list info config dump peek poke regs wait-value watch wait-events
trigger dma bind unbind batch help"
_iioctl_columns="device nr name version type size physaddr in out irq events
listeners vectors dma dev parent id vendor product class classname driver bars irqmode
master dmapolicy iommugroup"
# the columns list shows without -o, which -o +COLUMNS must not repeat
_iioctl_default_columns="device name version type size physaddr in out irq events listeners"

# _iioctl_options COMMAND: the options to offer (short and long)
_iioctl_options()
{
	case $1 in
	list) echo "-j --json -n --noheadings -o --output -H --list-columns" ;;
	info) echo "-j --json" ;;
	config) echo "-x --hex -j --json" ;;
	dump) echo "-s --skip -n --length -a --all -w --width --raw --compare --force --in --out --dma --mmap" ;;
	peek) echo "-w --width -d --decimal -j --json --in --out --dma --mmap --be" ;;
	regs) echo "-j --json --names --readable --writable --force --in --out --mmap --be" ;;
	poke) echo "-w --width -m --mask --verify -c --count --from --force --in --out --dma --mmap --be" ;;
	wait-value) echo "-w --width -m --mask -t --timeout -i --interval --change -j --json --in --out --dma --mmap --be" ;;
	watch) echo "-w --width -i --interval -n --num-changes -t --timeout --length -a --all --force --format -j --json --in --out --dma --mmap --be" ;;
	wait-events) echo "-n --num-events -t --timeout --format -q --quiet -j --json --vector" ;;
	trigger) echo "--raw --in --at" ;;
	bind) echo "-d --driver --force" ;;
	unbind) echo "--force" ;;
	dma) echo "-j --json -f --free -r --request" ;;
	batch) echo "-s --stream" ;;
	*) return ;;
	esac
	echo "-h --help --usage"
}

# _iioctl_takes_value COMMAND OPTION: true if OPTION reads the next word
_iioctl_takes_value()
{
	case $1:$2 in
	global:--sysfs | global:--dev | global:--map | global:--maps) return 0 ;;
	list:-o | list:--output) return 0 ;;
	dump:-s | dump:--skip | dump:-n | dump:--length) return 0 ;;
	dump:-w | dump:--width | peek:-w | peek:--width) return 0 ;;
	poke:-w | poke:--width | poke:-m | poke:--mask | poke:--from) return 0 ;;
	wait-events:-n | wait-events:--num-events) return 0 ;;
	wait-events:-t | wait-events:--timeout | wait-events:--format) return 0 ;;
	dump:--dma | peek:--dma | poke:--dma | wait-events:--vector) return 0 ;;
	dma:-r | dma:--request | dma:-f | dma:--free) return 0 ;;
	dump:--compare | poke:-c | poke:--count) return 0 ;;
	wait-value:-w | wait-value:--width | wait-value:-m | wait-value:--mask) return 0 ;;
	wait-value:-t | wait-value:--timeout | wait-value:-i | wait-value:--interval) return 0 ;;
	watch:-w | watch:--width | watch:-i | watch:--interval | watch:-n) return 0 ;;
	watch:--num-changes | watch:-t | watch:--timeout | watch:--format) return 0 ;;
	watch:--length) return 0 ;;
	wait-value:--dma | watch:--dma) return 0 ;;
	trigger:--in | trigger:--at | bind:-d | bind:--driver) return 0 ;;
	esac
	return 1
}

# _iioctl_dequote WORD: WORD without its shell quoting (no expansion)
_iioctl_dequote()
{
	local s=$1 out="" c
	case $s in
	\"*) s=${s#\"}; s=${s%\"}; printf '%s' "${s//\\\"/\"}"; return ;;
	\'*) s=${s#\'}; s=${s%\'}; printf '%s' "$s"; return ;;
	esac
	while [ -n "$s" ]; do
		c=${s:0:1}
		s=${s:1}
		if [ "$c" = "\\" ] && [ -n "$s" ]; then
			c=${s:0:1}
			s=${s:1}
		fi
		out+=$c
	done
	printf '%s' "$out"
}

# _iioctl_reply CUR WORD...: COMPREPLY += the WORDs CUR (dequoted)
# starts, each quoted for the line (as is if CUR opens a quote)
_iioctl_reply()
{
	local cur=$1 raw w q
	shift
	raw=$(_iioctl_dequote "$cur")
	for w in "$@"; do
		[[ $w == "$raw"* ]] || continue
		case $cur in
		\"* | \'*) COMPREPLY+=("$w") ;;
		*) printf -v q '%q' "$w"; COMPREPLY+=("$q") ;;
		esac
	done
}

# _iioctl_bar DIR: N of the BAR of DIR's PCI parent that holds DIR's
# region (its physaddr inside a line of the parent's resource file)
_iioctl_bar()
{
	local phys start end flags n=0
	IFS= read -r phys < "$1/physaddr" 2>/dev/null || return
	[ -r "$1/device/resource" ] || return
	while read -r start end flags; do
		if [ $((end)) -ne 0 ] && [ $((phys)) -ge $((start)) ] &&
		   [ $((phys)) -le $((end)) ]; then
			echo "$n"
			return
		fi
		n=$((n + 1))
	done < "$1/device/resource"
}

# _iioctl_devices CUR SYSFS WINDOW [ONLY]: the devices (iioN, names and
# their PCI parents' addresses) under SYSFS; with WINDOW (read or write)
# only those that have that window, with ONLY "events" only those whose
# irq is not none (trigger and wait-events refuse those), with "pci" only
# those of a PCI device (config refuses the others)
_iioctl_devices()
{
	local cur=$1 sysfs=$2 window=$3 only=${4:-} d name irq addr bar
	local -a offered=()
	local -A names=() parents=()
	# what is ambiguous among all the devices, offered or not
	for d in "$sysfs"/iio[0-9]*; do
		[ -d "$d" ] || continue
		name=$(_iioctl_name "$d")
		[ -z "$name" ] || names[$name]=$((${names[$name]:-0} + 1))
		addr=$(_iioctl_pci_address "$d")
		[ -z "$addr" ] || parents[$addr]=$((${parents[$addr]:-0} + 1))
	done
	for d in "$sysfs"/iio[0-9]*; do
		[ -d "$d" ] || continue
		[ -z "$window" ] || [ -e "$d/${window}_len" ] || continue
		if [ "$only" = events ]; then
			irq=none
			[ -r "$d/irq" ] && IFS= read -r irq < "$d/irq"
			[ "$irq" != none ] || continue
		fi
		addr=$(_iioctl_pci_address "$d")
		[ "$only" != pci ] || [ -n "$addr" ] || continue
		offered+=("${d##*/}")
		# a name two devices share is refused (ambiguous): not offered
		name=$(_iioctl_name "$d")
		[ -n "$name" ] && [ "${names[$name]}" = 1 ] && offered+=("$name")
		# the PCI parent's address; ADDR/barN if it has several
		[ -n "$addr" ] || continue
		if [ "${parents[$addr]}" = 1 ]; then
			offered+=("$addr")
		else
			bar=$(_iioctl_bar "$d")
			[ -z "$bar" ] || offered+=("$addr/bar$bar")
		fi
	done
	_iioctl_reply "$cur" "${offered[@]}"
}

# _iioctl_name DIR: the name of the device of class folder DIR
_iioctl_name()
{
	local name=""
	[ -r "$1/name" ] && IFS= read -r name < "$1/name"
	printf '%s' "$name"
}

# _iioctl_pci_address DIR: DDDD:BB:DD.F of the device's parent, if PCI
_iioctl_pci_address()
{
	local sub addr
	sub=$(readlink "$1/device/subsystem" 2>/dev/null)
	[ "${sub##*/}" = pci ] || return
	addr=$(readlink "$1/device")
	printf '%s' "${addr##*/}"
}

# _iioctl_device_dirs SYSFS [DEV]: the class folder of DEV (iioN, N or a
# unique name), or of every device when DEV is empty or not found
_iioctl_device_dirs()
{
	local sysfs=$1 dev d name
	local -a found=()
	dev=$(_iioctl_dequote "${2:-}")
	if [ -n "$dev" ]; then
		for d in "$sysfs"/iio[0-9]*; do
			name=
			[ -r "$d/name" ] && IFS= read -r name < "$d/name"
			case $dev in
			"${d##*/}" | "${d##*/iio}" | "$name") found+=("$d") ;;
			esac
		done
	fi
	[ ${#found[@]} -eq 1 ] || found=("$sysfs"/iio[0-9]*)
	printf '%s\n' "${found[@]}"
}

# _iioctl_dma_buffers SYSFS [DEV]: K of every dmaK/ of DEV (or any device)
_iioctl_dma_buffers()
{
	local d k
	while IFS= read -r d; do
		for k in "$d"/dma[0-9]*; do
			[ -e "$k/size" ] && echo "${k##*/dma}"
		done
	done < <(_iioctl_device_dirs "$@") | sort -nu
}

# _iioctl_vectors SYSFS [DEV]: 0 .. vectors-1 of DEV (or of any device)
_iioctl_vectors()
{
	local d n max=1
	while IFS= read -r d; do
		n=1
		[ -r "$d/vectors" ] && IFS= read -r n < "$d/vectors"
		[[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt "$max" ] && max=$n
	done < <(_iioctl_device_dirs "$@")
	seq 0 $((max - 1))
}

# _iioctl_map_names DEV FIELD GLOBAL...: the register names of DEV's map
# (REG and REG.FIELD), or with FIELD (REG.FIELD) the names of that
# field's values; none without a map, for a register or a field without
# named values; from iioctl itself with the line's global options
_iioctl_map_names()
{
	local dev field
	dev=$(_iioctl_dequote "$1")
	field=$(_iioctl_dequote "$2")
	shift 2
	[ -n "$dev" ] || return
	# a register (or an offset) has no named values
	[ -z "$field" ] || [[ $field == ?*.?* ]] || return
	command iioctl "$@" regs --names "$dev" ${field:+"$field"} 2>/dev/null
}

# _iioctl_registers DEV ACCESS GLOBAL...: the register names of DEV's map
# that a read (ACCESS --readable) or a write (--writable) takes, or all
# (ACCESS "")
_iioctl_registers()
{
	local dev access=$2
	dev=$(_iioctl_dequote "$1")
	shift 2
	[ -n "$dev" ] || return
	command iioctl "$@" regs --names ${access:+"$access"} "$dev" 2>/dev/null
}

# _iioctl_files CUR [-d]: file (or, with -d, directory) names
_iioctl_files()
{
	if declare -F _filedir >/dev/null; then
		cur=$1 _filedir ${2:+-d}
		return
	fi
	compopt -o filenames 2>/dev/null
	local -a found
	if [ "${2:-}" = -d ]; then
		mapfile -t found < <(compgen -d -- "$1")
	else
		mapfile -t found < <(compgen -f -- "$1")
	fi
	COMPREPLY+=("${found[@]}")
}

_iioctl()
{
	local cur prev words cword split=false
	COMPREPLY=()
	if declare -F _init_completion >/dev/null; then
		_init_completion -s -n : || return
	else
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
		cur=${words[cword]}
		prev=${words[cword - 1]:-}
		if [[ $cur == --*=* ]]; then
			prev=${cur%%=*}
			cur=${cur#*=}
			split=true
		fi
	fi

	# the words before cur: global options, the command, its words
	local i=1 w cmd="" sysfs="" ddash=false window=""
	local -a args=() global=()
	while [ "$i" -lt "$cword" ]; do
		w=${words[i]}
		if [ -z "$cmd" ]; then
			case $w in
			--sysfs) sysfs=${words[i + 1]:-}; i=$((i + 1)) ;;
			--sysfs=*) sysfs=${w#--sysfs=} ;;
			--dev) i=$((i + 1)) ;;
			--map | --maps)
				global+=("$w" "$(_iioctl_dequote "${words[i + 1]:-}")")
				i=$((i + 1)) ;;
			--map=* | --maps=*)
				global+=("${w%%=*}" "$(_iioctl_dequote "${w#*=}")") ;;
			-*) ;;
			*) cmd=$w ;;
			esac
		elif $ddash || [[ $w != -* ]] || [ "$w" = - ]; then
			args+=("$w")
		elif [ "$w" = -- ]; then
			ddash=true
		else
			case $cmd:$w in
			trigger:*) ;;
			*:--in) window="read" ;;
			*:--out) window="write" ;;
			esac
			if [[ $w != *=* ]] && _iioctl_takes_value "$cmd" "$w"; then
				i=$((i + 1))
			fi
		fi
		i=$((i + 1))
	done
	sysfs=$(_iioctl_dequote "$sysfs")
	[[ $sysfs == \~/* ]] && sysfs=$HOME/${sysfs:2}
	[ -n "$sysfs" ] || sysfs=${IIOCTL_SYSFS:-/sys/class/iio}

	# the value of an option
	if [ -z "$cmd" ]; then
		case $prev in
		--sysfs | --dev | --maps) _iioctl_files "$cur" -d; return ;;
		--map) _iioctl_files "$cur"; return ;;
		esac
	elif ! $ddash && _iioctl_takes_value "$cmd" "$prev"; then
		case $prev in
		-w | --width)
			_iioctl_reply "$cur" 1 2 4 8 ;;
		-d | --driver)
			_iioctl_reply "$cur" iio_pci_generic iio_edu iio_pcitest ;;
		--dma | -f | --free)
			# shellcheck disable=SC2046 # a word list
			_iioctl_reply "$cur" $(_iioctl_dma_buffers "$sysfs" "${args[0]:-}") ;;
		--vector)
			# shellcheck disable=SC2046 # a word list
			_iioctl_reply "$cur" $(_iioctl_vectors "$sysfs" "${args[0]:-}") ;;
		-o | --output)
			local pre="" c lower
			[[ $cur == *,* ]] && pre=${cur%,*},
			# +COLUMNS: after the default ones, which it must not repeat
			[[ $cur == +* && -z $pre ]] && pre=+
			for c in $_iioctl_columns; do
				# a column already given is refused
				lower=${pre,,}
				[[ ,${lower#+} == *,$c,* ]] && continue
				[[ $pre == +* && " $_iioctl_default_columns " == *" $c "* ]] &&
					continue
				[[ ${cur##*,} == [A-Z]* ]] && c=${c^^}
				[[ $pre$c == "$cur"* ]] && COMPREPLY+=("$pre$c")
			done ;;
		--from | --compare)
			_iioctl_files "$cur" ;;
		esac
		return
	elif $split; then
		return
	fi

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			_iioctl_reply "$cur" --sysfs --dev --map --maps -v --verbose \
				-D --dry-run -V --version -h --help
		else
			# shellcheck disable=SC2086 # a word list
			_iioctl_reply "$cur" $_iioctl_commands
		fi
		return
	fi

	if ! $ddash && [[ $cur == -* ]]; then
		local opts o
		opts=$(_iioctl_options "$cmd")
		for o in $opts; do
			# --in and --out exclude each other
			[ "$o" = --out ] && [ "$window" = read ] && continue
			[ "$o" = --in ] && [ "$window" = write ] && continue
			# and --dma both
			[ "$o" = --dma ] && [ -n "$window" ] && continue
			[[ $o == "$cur"* ]] && COMPREPLY+=("$o")
		done
		return
	fi

	# positional arguments
	local n=${#args[@]} raw=false
	for w in "${words[@]:0:cword}"; do
		[ "$w" = --raw ] && raw=true
	done
	# a field's VALUE: the names of its values.  In one word, poke DEV
	# REG.FIELD=VALUE, readline completes what follows the =;
	# bash-completion keeps the word whole, without it the = is a word
	# of its own (REG.FIELD, =, VALUE)
	local field="" before=${COMP_LINE:0:COMP_POINT}
	if [ "$cmd:$n" = poke:1 ] && [[ $cur == *=* ]]; then
		field=${cur%%=*} cur=${cur#*=}
	elif [ "$cmd:$n" = poke:2 ] && [ "$cur" = = ] &&
	     [[ $before == *[^[:blank:]]= ]]; then
		field=${args[1]} cur=""
	elif [ "$cmd:$n" = poke:3 ] && [ "${args[2]}" = = ] &&
	     [[ $before == *[^[:blank:]]="$cur" ]]; then
		field=${args[1]}
	elif { [ "$cmd:$n" = poke:2 ] && [[ ${args[1]} != *=* ]]; } ||
	     [ "$cmd:$n" = wait-value:2 ]; then
		field=${args[1]}
	fi
	# poke's LOC=VALUE words: after the first, every word is one, its LOC
	# a register (or its VALUE a field's named value) as in the first
	local assign_loc=false
	if [ "$cmd" = poke ] && [ "$n" -ge 2 ] && [ -z "$field" ]; then
		if [[ ${args[1]} == *=* ]]; then
			# bash-completion: each LOC=VALUE one word
			if [[ $cur == *=* ]]; then
				field=${cur%%=*} cur=${cur#*=}
			else
				assign_loc=true
			fi
		elif [ "${args[2]:-}" = = ] && [ "$n" -ge 4 ]; then
			# without it, = is a word of its own: LOC = VALUE
			if [ "$cur" = = ] && [[ $before == *[^[:blank:]]= ]]; then
				field=${args[n - 1]} cur=""
			elif [ "${args[n - 1]}" = = ] &&
			     [[ $before == *[^[:blank:]]="$cur" ]]; then
				field=${args[n - 2]}
			else
				assign_loc=true
			fi
		fi
	fi
	if [ -n "$field" ]; then
		local -a values
		mapfile -t values < <(_iioctl_map_names "${args[0]}" "$field" \
			--sysfs "$sysfs" "${global[@]}")
		_iioctl_reply "$cur" "${values[@]}"
		return 0
	fi
	$assign_loc && n=1	# a LOC, as poke's first
	case $cmd:$n in
	list:* | info:0 | config:0 | dump:0 | peek:0 | poke:0 | wait-value:0 | \
	watch:0 | wait-events:0 | trigger:0 | dma:0 | regs:0)
		local only=""
		# trigger and wait-events refuse a device with irq none,
		# config one that is no PCI device's
		case $cmd in
		trigger | wait-events) only=events ;;
		config) only=pci ;;
		esac
		if [[ $cur == /* || $cur == .* ]]; then
			_iioctl_files "$cur"	# a node path
		elif [[ $cur == */* ]]; then
			# ADDR/barN, else a node path
			_iioctl_devices "$cur" "$sysfs" "$window" "$only"
			[ ${#COMPREPLY[@]} -gt 0 ] || _iioctl_files "$cur"
		else
			_iioctl_devices "$cur" "$sysfs" "$window" "$only"
		fi
		;;
	peek:* | poke:1 | wait-value:1 | watch:* | regs:*)
		# what the command takes: a read refuses write-only
		# registers, a write read-only ones
		local -a regs
		local access=""
		case $cmd in
		peek | wait-value | watch) access=--readable ;;
		poke) access=--writable ;;
		esac
		mapfile -t regs < <(_iioctl_registers "${args[0]}" "$access" \
			--sysfs "$sysfs" "${global[@]}")
		_iioctl_reply "$cur" "${regs[@]}" ;;
	trigger:1)
		$raw && _iioctl_files "$cur" ;;
	bind:0 | unbind:0)
		# the PCI functions
		local f fns=()
		for f in "${IIOCTL_PCI:-/sys/bus/pci}"/devices/*; do
			[ -e "$f" ] && fns+=("${f##*/}")
		done
		_iioctl_reply "$cur" "${fns[@]}" ;;
	batch:0)
		_iioctl_files "$cur" ;;
	help:0)
		# shellcheck disable=SC2086 # a word list
		_iioctl_reply "$cur" $_iioctl_commands ;;
	esac
	declare -F __ltrim_colon_completions >/dev/null &&
		__ltrim_colon_completions "$cur"
	return 0
}
complete -F _iioctl iioctl
