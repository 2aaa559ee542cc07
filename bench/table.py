#!/usr/bin/env python3
# bench/table.py - bench/run's "R ..." lines into the Markdown table
#
# usage: bench/table.py RAW COMMAND SMP GITREV
#
# Ratios are always ours / peer; the goal column says which way is good.
import sys
import time

raw, command, smp, rev = sys.argv[1:5]
R = {}
multi = {}
notes = []
for line in open(raw):
    line = line.rstrip("\n")
    if line.startswith("# "):
        notes.append(line[2:])
        continue
    if not line.startswith("R "):
        continue
    f = line.split()[1:]
    if not f:
        continue
    R[f[0]] = f[1:]
    multi.setdefault(f[0], []).append(f[1:])

rows = []


def row(item, figure, ours, peer, ratio, goal, met, note=""):
    if "missed" in met:
        why = "why: bench/README.md, \"Where a goal is missed\""
        note = note + "; " + why if note else why
    rows.append((item, figure, ours, peer, ratio, goal, met, note))


def us(ns):
    return "%.1f µs" % (float(ns) / 1000)


def secs(ns):
    return "%.3f s" % (float(ns) / 1e9)


def verdict(ok):
    return "met" if ok else "**missed**"


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


# 1. interrupt round trip
irq = {m[0]: m[1:] for m in multi.get("irq_stats", [])}
runs = {}
for m in multi.get("irq_run", []):
    runs.setdefault(m[0], []).append(int(m[2]))
names = {"edu": "iio_edu (INTx)", "intx": "iio_pci_generic INTx",
         "msi": "iio_pci_generic MSI"}
if "uio" in irq:
    n, umed, up99, ur2r, ur2r99, umin = map(int, irq["uio"])
    rng = lambda m: "run medians %s–%s" % (us(min(runs[m])), us(max(runs[m]))) if m in runs else ""
    for m in ("edu", "intx", "msi"):
        if m not in irq:
            continue
        n, med, p99, r2r, r2r99, mn = map(int, irq[m])
        # INTx through a generic stub: parity with uio_pci_generic since
        # the unmask reads PCI_COMMAND afresh (issue 28, bench/README.md)
        goal = 1.0 if m == "intx" else 0.7
        row("1 irq round trip", "%s median (%d rounds)" % (names[m], n),
            us(med), us(umed), "%.2f" % (med / umed), "≤ %.2f" % goal,
            verdict(med <= goal * umed), rng(m) + "; uio " + rng("uio"))
        row("1 irq round trip", "%s p99" % names[m], us(p99), us(up99),
            "%.2f" % (p99 / up99), "≤ 1.00", verdict(p99 <= up99), "")
    for m in ("edu", "intx", "msi"):
        if m not in irq:
            continue
        n, med, p99, r2r, r2r99, mn = map(int, irq[m])
        row("1 floor", "%s raise-to-read median" % names[m], us(r2r),
            us(ur2r), "%.2f" % (r2r / ur2r), "(report)", "",
            "p99 %s vs %s; fastest round %s vs %s" % (us(r2r99), us(ur2r99), us(mn), us(umin)))

# 1. libudrv: the MSI round trip on our backend against vfio-pci's, same
# device model, same boot (the IOMMU boot), runs interleaved.  The goal
# counts as met only when every run's ratio meets it, not the median alone.
ustats = {m[0]: list(map(int, m[1:])) for m in multi.get("udrv_stats", [])}
uruns = {}
for m in multi.get("udrv_run", []):
    uruns.setdefault(m[0], {})[int(m[1])] = int(m[2])
if "iio" in ustats and "vfio" in ustats:
    pairs = sorted(set(uruns.get("iio", {})) & set(uruns.get("vfio", {})))
    ratios = sorted(uruns["iio"][r] / uruns["vfio"][r] for r in pairs)
    n, med, p99 = ustats["iio"][:3]
    vn, vmed, vp99 = ustats["vfio"][:3]
    if ratios:
        mid = ratios[len(ratios) // 2]
        row("1 libudrv", "MSI round trip via libudrv, iio_pci_generic vs "
            "vfio-pci, median of %d interleaved runs (%d rounds each)" %
            (len(ratios), n // max(len(ratios), 1)), us(med), us(vmed),
            "%.2f" % mid, "≤ 1.00 (every run)",
            verdict(ratios[-1] <= 1.0),
            "run ratios %.2f–%.2f" % (ratios[0], ratios[-1]))
    row("1 libudrv", "the same, p99 of all rounds", us(p99), us(vp99),
        "%.2f" % (p99 / vp99), "(report)", "", "")

# 1. libudrv: udrv-nvme's 4 KiB random reads on each backend, same
# controller, same boot, three alternating runs: the median run's IOPS and
# the range of the run ratios (iio / vfio, run by run)
nv = {}
for m in multi.get("udrv_nvme", []):
    if len(m) == 6:
        nv.setdefault((m[0], m[1]), {})[int(m[2])] = list(map(float, m[3:]))

for qd in ("1", "32"):
    io, vf = nv.get(("iio", qd), {}), nv.get(("vfio", qd), {})
    pairs = sorted(set(io) & set(vf))
    if not pairs:
        continue
    ratios = sorted(io[r][0] / vf[r][0] for r in pairs if vf[r][0])
    if not ratios:
        continue
    row("1 libudrv", "udrv-nvme 4 KiB random reads/s, QD%s, MSI-X, "
        "iio_pci_generic vs vfio-pci, median of %d alternating runs" %
        (qd, len(pairs)), "%.0f" % median(io[r][0] for r in pairs),
        "%.0f" % median(vf[r][0] for r in pairs), "%.2f" % median(ratios),
        "(report)", "", "run ratios %.2f–%.2f; p50 %.1f µs vs %.1f µs" %
        (ratios[0], ratios[-1], median(io[r][1] for r in pairs),
         median(vf[r][1] for r in pairs)))

# 2. event rate
for r in multi.get("rate", []):
    freq, lis, gen, dlv, missed, maxnew = r
    gen, dlv = float(gen), float(dlv)
    row("2 event rate", "dummy freq=%s, %s listener%s: events/s each" %
        (freq, lis, "" if lis == "1" else "s"),
        "%.0f" % dlv, "%.0f" % gen, "%.3f" % (dlv / gen if gen else 0),
        "0 missed", verdict(int(missed) == 0),
        "%s missed in all, largest jump %s; timer %.0f%% of freq" %
        (missed, maxnew, 100 * gen / float(freq)))

# 3. dump
if "hexdump_ours" in R and "hexdump_peer" in R:
    size = int(R["dump_size"][0], 16)
    hlen = int(R["hexdump_len"][0])
    mb = 1024 * 1024
    ours = size / mb / (int(R["hexdump_ours"][0]) / 1e9)
    peer = hlen / mb / (int(R["hexdump_peer"][0]) / 1e9)
    row("3 dump", "hex: iioctl dump (%d MiB) vs busybox hexdump -C (%d MiB), MiB/s" %
        (size // mb, hlen // mb), "%.2f" % ours, "%.3f" % peer,
        "%.0f" % (ours / peer), "≥ 50", verdict(ours >= 50 * peer),
        "output identical on the first 256 KiB: %s" % R.get("dump_same", ["?"])[0])
    same = hlen / mb / (int(R["hexdump_ours_same"][0]) / 1e9)
    row("3 dump", "hex, both on the same %d MiB, MiB/s" % (hlen // mb),
        "%.2f" % same, "%.3f" % peer, "%.0f" % (same / peer), "≥ 50",
        verdict(same >= 50 * peer), "")
    m = size / mb / (int(R["hexdump_ours_mmap"][0]) / 1e9)
    row("3 dump", "hex --mmap vs hex read(), MiB/s", "%.2f" % m, "%.2f" % ours,
        "%.2f" % (m / ours), "(report)", "", "")
    for key, peer_key, what in (("raw_ours", "raw_peer", "raw: iioctl dump --raw vs dd bs=1M, to /dev/null"),
                                ("raw_pipe_ours", "raw_pipe_peer", "raw through a pipe (| cat)"),
                                ("raw_ours", "raw_peer_512", "raw vs dd with its default bs=512")):
        o, p = int(R[key][0]), int(R[peer_key][0])
        goal = "≤ 1.10" if peer_key == "raw_peer" else "(report)"
        row("3 dump", what + " (%d MiB), time" % (size // mb), secs(o), secs(p),
            "%.2f" % (o / p), goal, verdict(o <= 1.1 * p) if goal != "(report)" else "", "")
    o = int(R["raw_ours_mmap"][0])
    row("3 dump", "raw --mmap vs raw read(), time", secs(o), secs(int(R["raw_ours"][0])),
        "%.2f" % (o / int(R["raw_ours"][0])), "(report)", "",
        "--mmap makes one 8-byte load per value by design")
    rb, rn = map(int, R["memread_read"])
    mb_, mn = map(int, R["memread_mmap"])
    if "memread_tmpfs" in R:
        tb, tn = map(int, R["memread_tmpfs"])
        ours, peer = rb / mb / (rn / 1e9), tb / mb / (tn / 1e9)
        row("3 dump", "C program: read() 1 MiB calls of the dummy vs of a tmpfs file of the same %d MiB, MiB/s" % (tb // mb),
            "%.0f" % ours, "%.0f" % peer, "%.2f" % (ours / peer), "≥ 1.00",
            verdict(ours >= peer), "")
    row("3 dump", "C program: read() 1 MiB calls vs mmap+memcpy, MiB/s",
        "%.0f" % (rb / mb / (rn / 1e9)), "%.0f" % (mb_ / mb / (mn / 1e9)),
        "%.3f" % (mn / rn), "(report)", "",
        "ours = read(), peer = mmap")

# 4. scripting: SCRIPT_RUNS interleaved rounds of whole processes, medians
# (the C program's own time of its open, map and stores in a row of its own)
def median_of(key):
    return median([int(m[0]) for m in multi[key]])


def spread(key, fmt):
    v = [int(m[0]) for m in multi[key]]
    return "%s–%s" % (fmt(min(v)), fmt(max(v)))


if "batch" in R:
    n = int(R["pokes_n"][0])
    procs = int(R["poke_procs_n"][0])
    runs = len(multi["batch"])
    scale = n / procs
    b = median_of("batch")
    dv = int(R["devmem_procs"][0]) * scale
    pp = int(R["poke_procs"][0]) * scale
    cm = median_of("c_mmap")
    cmi = median_of("c_mmap_inside")
    cp = median_of("c_pwrite")
    bm = median_of("batch_mmap")
    sc = "" if procs == n else " (%d processes, scaled ×%g)" % (procs, scale)
    med = "medians of %d runs" % runs
    row("4 scripting", "%d pokes: iioctl batch vs busybox devmem loop%s" % (n, sc),
        secs(b), secs(dv), "%.4f" % (b / dv), "≤ 0.001 (1000×)",
        verdict(b * 1000 <= dv),
        "%.0f× faster; batch %s, %s %s" % (dv / b, med, "range", spread("batch", secs)))
    row("4 scripting", "iioctl batch of poke --mmap lines vs C program storing through mmap, both timed as processes",
        secs(bm), secs(cm), "%.1f" % (bm / cm), "≤ 10", verdict(bm <= 10 * cm),
        "%s; ranges %s vs %s" % (med, spread("batch_mmap", secs), spread("c_mmap", secs)))
    row("4 scripting", "the same batch vs the C program's open, map and stores alone (timed inside it)",
        secs(bm), secs(cmi), "%.1f" % (bm / cmi), "(report)", "",
        "a process's exec and exit alone take ~4 ms in the guest")
    row("4 scripting", "iioctl batch vs C program, one pwrite() per poke, both timed as processes",
        secs(b), secs(cp), "%.1f" % (b / cp), "(report)", "", med)
    row("4 scripting", "batch of poke --mmap lines vs batch of poke lines",
        secs(bm), secs(b), "%.2f" % (bm / b), "(report)", "", med)
    if "batch_names" in multi:
        bn = median_of("batch_names")
        row("4 scripting", "batch of poke lines naming the register (edu's map) vs the same by offset",
            secs(bn), secs(b), "%.2f" % (bn / b), "(report)", "", med)
    row("4 scripting", "%d iioctl poke processes vs devmem processes%s" % (n, sc),
        secs(pp), secs(dv), "%.2f" % (pp / dv), "(report)", "",
        "devmem read back: %s (edu's ~0x12345678)" % R.get("devmem_check", ["?"])[0])

# 6. the user-space NVMe driver: interrupt (MSI-X vector 1) vs polling
nirq = [list(map(float, m)) for m in multi.get("nvme_irq", []) if len(m) == 3]
npoll = [list(map(float, m)) for m in multi.get("nvme_poll", []) if len(m) == 3]
if nirq and npoll:
    ri, rp = median([m[0] for m in nirq]), median([m[0] for m in npoll])
    li, lp = median([m[1] for m in nirq]), median([m[1] for m in npoll])
    pi, pp = median([m[2] for m in nirq]), median([m[2] for m in npoll])
    row("6 nvme", "4 KiB reads/s: MSI-X vector 1 vs polling the CQ (%d runs)" % len(nirq),
        "%.0f" % ri, "%.0f" % rp, "%.2f" % (ri / rp), "(report)", "",
        "run range %.0f–%.0f vs %.0f–%.0f" % (min(m[0] for m in nirq), max(m[0] for m in nirq),
                                         min(m[0] for m in npoll), max(m[0] for m in npoll)))
    row("6 nvme", "completion latency median, interrupt vs polling",
        "%.1f µs" % li, "%.1f µs" % lp, "%.2f" % (li / lp), "(report)", "",
        "p99 %.1f µs vs %.1f µs" % (pi, pp))
# the same interrupt-driven reads in a second boot, under intel-iommu
niommu = [list(map(float, m)) for m in multi.get("nvme_irq_iommu", []) if len(m) == 3]
if nirq and niommu:
    ri, rm = median([m[0] for m in nirq]), median([m[0] for m in niommu])
    row("6 nvme", "4 KiB reads/s (MSI-X): under the IOMMU vs without (%d runs each)" % len(niommu),
        "%.0f" % rm, "%.0f" % ri, "%.2f" % (rm / ri), "(report)", "",
        "intel-iommu, strict; latency median %.1f µs vs %.1f µs; run range %.0f–%.0f vs %.0f–%.0f" %
        (median([m[1] for m in niommu]), median([m[1] for m in nirq]),
         min(m[0] for m in niommu), max(m[0] for m in niommu),
         min(m[0] for m in nirq), max(m[0] for m in nirq)))

# 7. udrv-nvme against the kernel's nvme driver: 4 KiB random reads
ours = {tuple(m[:3]): list(map(float, m[3:])) for m in multi.get("nvmek_ours", []) if len(m) == 6}
kern = {tuple(m[:3]): list(map(float, m[3:])) for m in multi.get("nvmek_kernel", []) if len(m) == 6}
goals = {("poll", "1"): 1.5, ("poll", "32"): 1.0, ("irq", "32"): 0.8}
for mode in ("irq", "poll"):
    for qd in ("1", "32"):
        for nq in ("1", "4"):
            k = (mode, qd, nq)
            if k not in ours or k not in kern or not kern[k][0]:
                continue
            o, c = ours[k], kern[k]
            ratio = o[0] / c[0]
            goal = goals.get((mode, qd))
            row("7 nvme vs kernel",
                "4 KiB random reads/s, QD%s, %s queue%s, %s" %
                (qd, nq, "" if nq == "1" else "s",
                 "interrupt" if mode == "irq" else "polled"),
                "%.0f" % o[0], "%.0f" % c[0], "%.2f" % ratio,
                "≥ %.2f" % goal if goal else "(report)",
                verdict(ratio >= goal) if goal else "",
                "p99 %.1f µs vs %.1f µs; p50 %.1f µs vs %.1f µs" % (o[2], c[2], o[1], c[1]))

# 8. udrv-e1000e against the kernel's e1000e: transmit (pktgen) and
# receive, frames/s; median of NIC_RUNS alternating runs, the range of the
# run ratios; the MMIO accesses per frame from QEMU's trace (the traced
# boot, NIC_TRACE_FRAMES and twice that a configuration)
traps = {int(m[0], 16): int(m[1]) for m in multi.get("nic_traps", []) if len(m) == 2}
# each configuration traced at N and 2N frames: (count(2N) - count(N)) / N
counted = {}
for m in multi.get("nic_trace", []):
    if len(m) == 5 and int(m[0]) in traps:
        counted.setdefault((m[1], m[2], m[3]), {})[int(m[4])] = traps[int(m[0])]
per_frame = {}
for k, c in counted.items():
    if len(c) == 2:
        lo, hi = sorted(c)
        per_frame[k] = (c[hi] - c[lo]) / (hi - lo)
frames = R.get("nic_frames", ["?"])[0]


def nic_row(figure, pairs, goal, note):
    pairs = [(o, k) for o, k in pairs if o and k]
    if not pairs:
        row("8 nic vs kernel", figure, "no run", "", "-", "", "", note)
        return
    ratios = sorted(o / k for o, k in pairs)
    med = median(ratios)
    row("8 nic vs kernel", figure, "%.0f" % median(o for o, _ in pairs),
        "%.0f" % median(k for _, k in pairs), "%.2f" % med,
        "≥ %.2f" % goal if goal else "(report)",
        verdict(med >= goal) if goal else "",
        "median of %d alternating runs, run ratios %.2f–%.2f%s" %
        (len(pairs), ratios[0], ratios[-1], "; " + note if note else ""))


# the drained state (bench/README.md, item 8): "R nic_queue DIR SIZE BATCH
# RUN OTHER SETTLED": the "other" frames ours' run took (what waited for
# its port would be these), the frames the kernel took before ours' run
# (eth0_settle); "R nic_settle DIR SIZE BATCH RUN N": before pktgen's or
# rx_count's run


def queue_note(direction, size, batch):
    q = [m for m in multi.get("nic_queue", [])
         if len(m) == 6 and m[:3] == [direction, size, batch]]
    st = [m[4] for m in multi.get("nic_settle", [])
          if len(m) == 5 and m[:3] == [direction, size, batch]]
    if not q:
        return ""
    note = "other frames in ours' runs %s" % "/".join(m[4] for m in q)
    if st:
        note += "; queued frames the kernel took before its runs %s" % "/".join(st)
    return note


for size in ("60", "1514"):
    for batch in ("1", "32"):
        pairs = [(float(m[3]), float(m[4])) for m in multi.get("nic_tx", [])
                 if len(m) == 5 and m[0] == size and m[1] == batch]
        if not pairs:
            continue
        o, k = per_frame.get(("ours", size, batch)), per_frame.get(("kernel", size, batch))
        trap = "MMIO accesses per frame (QEMU's trace) %s vs %s" % (
            "%.2f" % o if o is not None else "?", "%.2f" % k if k is not None else "?")
        nic_row("transmit frames/s, %s B (+ FCS), batch %s: udrv-e1000e "
                "--transmit-only --prebuilt vs pktgen through e1000e (burst %s, "
                "clone_skb: one skb resent), %s frames" %
                (size, batch, batch, frames), pairs, 1.0 if batch == "32" else None,
                trap + "; " + queue_note("tx", size, batch))
for size in ("60", "1514"):
    runs = [m for m in multi.get("nic_rx", []) if len(m) == 6 and m[0] == size]
    pairs = [(float(m[2]), float(m[3])) for m in runs]
    if not pairs:
        continue
    senders = [m for m in multi.get("nic_rx_senders", []) if len(m) == 4 and m[0] == size]
    note = "frames taken: ours %s, the kernel's %s" % (
        "/".join(m[5] for m in runs), "/".join(m[4] for m in runs))
    if senders:
        note += "; the senders' own rates: pktgen %s, ours %s" % (
            "/".join(m[2] for m in senders), "/".join(m[3] for m in senders))
    note += "; " + queue_note("rx", size, "32")
    nic_row("receive frames/s, %s B: udrv-e1000e --receive-only --unchecked "
            "(from pktgen on eth0, burst 32) vs the kernel's e1000e counting "
            "rx_packets (from udrv-e1000e --transmit-only --prebuilt, batch 32), "
            "%s frames sent" % (size, frames), pairs, 1.0, note)

# 5. the suite
if "host_boot_first_line" in R:
    boot = float(R["host_boot_first_line"][0])
    row("5 suite", "boot: qemu/run start to the guest's first line (smp=%s)" % smp,
        "%.2f s" % boot, "9 s (goal)", "%.2f" % (boot / 9), "≤ 1.00",
        verdict(boot <= 9), "guest uptime then %s s" % R.get("boot_uptime", ["?"])[0])
# make check is not run by the bench (it boots its own guest): its time
# comes from CHECK_SECONDS, measured with `make && time make check`
check = __import__("os").environ.get("CHECK_SECONDS")
if check:
    c = float(check)
    row("5 suite", "make check wall time, warm build, 2 cores", "%.0f s" % c,
        "180 s (goal)", "%.2f" % (c / 180), "≤ 1.00", verdict(c <= 180),
        "CHECK_SECONDS, from `make && time make check`")
else:
    row("5 suite", "make check wall time, warm build, 2 cores", "not measured",
        "180 s (goal)", "-", "≤ 1.00", "",
        "set CHECK_SECONDS to the time of `make && time make check`")

print("# make bench results")
print()
print("Made by `%s` (QEMU TCG, QEMU_SMP=%s, git %s, %s, host %d-core, shared)." %
      (command, smp, rev, time.strftime("%Y-%m-%d"), __import__("os").cpu_count()))
print("Ratio is always ours / peer; the goal column says which way is good.")
# each boot that ran (its qemu/run status is there: bench/run writes it,
# --only nic runs the nic boots alone) must have ended with "done 0"
if any(p + "qemu_status" in R and (R[p + "qemu_status"][0] != "0" or
                                   R.get(p + "done", ["1"])[0] != "0")
       for p in ("", "iommu_", "nvmek_", "nic_", "nict_")) or \
        not any(p + "qemu_status" in R for p in ("", "iommu_", "nvmek_", "nic_", "nict_")):
    print()
    print("**The guest run reported failures; see the notes.**")
print()
print("| item | figure | ours | peer | ratio | goal | | note |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    print("| " + " | ".join(r) + " |")
print()
print("Notes from the guest:")
print()
for n in notes:
    print("    " + n)
st = {m[0]: (float(m[1]), float(m[2])) for m in multi.get("section_time", [])}
if st:
    print()
    print("Guest time per section: " + ", ".join("%s %.0f s" % (k, v[1] - v[0]) for k, v in st.items()) +
          "; whole run %s s from the host." % R.get("host_total", ["?"])[0])
