// SPDX-License-Identifier: GPL-2.0-only
/*
 * widths.c - the guest half of the device-side proof of access widths
 *
 * Runs in a guest booted by tests/widths/run with QEMU's access trace on
 * (qemu/run --trace-access) and an rtl8139 at 00:1b.0, which this program
 * gives to iio_pci_generic: its BAR0 is 256 ports and its BAR1 256 bytes
 * of I/O memory, and QEMU hands it 1-, 2- and 4-byte accesses as they come
 * (pci-testdev's model takes one byte at a time: on it inw and two inb
 * look the same to the device, so it cannot prove a port width).  8-byte
 * and longer I/O memory accesses go to an edu (iio_edu), whose model takes
 * 4 and 8 bytes.
 *
 * Each case does one thing (a pread or pwrite of /dev/iioN, or one iioctl
 * command) between two markers, and prints what the device must see:
 *
 *   widths-plan N                 first: N cases follow
 *   widths-marker ADDR            the port the markers are written to
 *   widths-case K NAME ACCESS...  case K, its accesses in order, each
 *                                 "r4@0xc20c" or "w2@0xfe70008a", or
 *                                 with the value the device must see
 *                                 "w4@0xc20c=0x78563412"
 *   FAIL widths/NAME: why         the operation itself failed
 *
 * Marker K is a 4-byte outl() of K to the rtl8139's port 0 (its MAC
 * address; no case touches ports 0-3), done from user space (ioperm), so
 * it goes through none of the code under test.  tests/widths/check
 * compares each case with the accesses the trace shows between marker K
 * and the next.
 *
 * QEMU's rtl8139 implements its memory BAR as an alias of its I/O BAR, so
 * the trace names the memory BAR's accesses by port address too.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/wait.h>
#include <unistd.h>

#define RTL_PCI		"0000:00:1b.0"
#define RTL_SYSFS	"/sys/bus/pci/devices/" RTL_PCI
#define MARKER_OFF	0x0
#define MAX_ACCESSES	16
/* the long read of edu-read-pieces: one page and 4 bytes */
#define PIECES_LEN	4100

struct access {
	char dir;		/* 'r' or 'w' */
	unsigned int size;
	unsigned long off;	/* relative to the region's trace base */
	int has_value;		/* the value the device must see, too */
	unsigned long long value;
};

struct target {
	const char *what;
	char dev[32];		/* iioN */
	unsigned long trace_base;
};

static unsigned long marker_port;
static unsigned int case_no;

static void die(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL widths/setup: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static int read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void write_attr(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die("write %s to %s: %s", val, path, strerror(errno));
	close(fd);
}

/* The first iio device under @classdir whose attribute @attr is @value. */
static void find_device(const char *classdir, const char *attr,
			const char *value, struct target *t)
{
	struct dirent *e;
	char dir[512], buf[128];
	DIR *d = opendir(classdir);

	if (!d)
		die("%s: %s", classdir, strerror(errno));
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "iio", 3))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", classdir, e->d_name);
		if (read_attr(dir, attr, buf, sizeof(buf)) || strcmp(buf, value))
			continue;
		if (strlen(e->d_name) >= sizeof(t->dev))
			continue;
		memcpy(t->dev, e->d_name, strlen(e->d_name) + 1);
		if (read_attr(dir, "physaddr", buf, sizeof(buf)))
			die("%s/physaddr unreadable", dir);
		t->trace_base = strtoul(buf, NULL, 0);
		closedir(d);
		return;
	}
	closedir(d);
	die("no iio device with %s \"%s\" in %s", attr, value, classdir);
}

static void marker(unsigned int k)
{
	outl(k, marker_port);
}

/* Print case K's expected accesses, or a FAIL line if @ok is false. */
static void report(const char *name, int ok, const char *why,
		   const struct target *t, const struct access *a, size_t n)
{
	size_t i;

	if (!ok) {
		printf("FAIL widths/%s: %s\n", name, why);
		return;
	}
	printf("widths-case %u %s", case_no, name);
	for (i = 0; i < n; i++) {
		printf(" %c%u@0x%lx", a[i].dir, a[i].size,
		       t->trace_base + a[i].off);
		if (a[i].has_value)
			printf("=0x%llx", a[i].value);
	}
	printf("\n");
}

/* One pread() or pwrite() of @len bytes at @off of /dev/<t->dev>. */
static void rw_case(const char *name, const struct target *t, char dir,
		    unsigned long off, size_t len, const struct access *a,
		    size_t n)
{
	static unsigned char buf[PIECES_LEN];
	char path[64], why[128] = "";
	ssize_t ret;
	int fd;

	case_no++;
	snprintf(path, sizeof(path), "/dev/%s", t->dev);
	fd = open(path, dir == 'r' ? O_RDONLY : O_RDWR);
	if (fd < 0) {
		snprintf(why, sizeof(why), "open %s: %s", path, strerror(errno));
		report(name, 0, why, t, a, n);
		return;
	}
	memset(buf, 0x5a, sizeof(buf));
	marker(case_no);
	if (dir == 'r')
		ret = pread(fd, buf, len, (off_t)off);
	else
		ret = pwrite(fd, buf, len, (off_t)off);
	close(fd);
	if (ret != (ssize_t)len)
		snprintf(why, sizeof(why), "%s of %zu bytes at 0x%lx returned %zd (%s)",
			 dir == 'r' ? "pread" : "pwrite", len, off, ret,
			 strerror(errno));
	report(name, ret == (ssize_t)len, why, t, a, n);
}

/* One iioctl command (its output thrown away), which must exit 0. */
static void cli_case(const char *name, const struct target *t,
		     const char *const *argv, const struct access *a, size_t n)
{
	char why[128] = "";
	int status = -1;
	pid_t pid;

	case_no++;
	marker(case_no);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execvp("iioctl", (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		snprintf(why, sizeof(why), "fork/wait: %s", strerror(errno));
	else if (!WIFEXITED(status) || WEXITSTATUS(status))
		snprintf(why, sizeof(why), "iioctl exited with status 0x%x",
			 status);
	report(name, !why[0], why, t, a, n);
}

/*
 * iio(4): a transfer is done in pieces of at most one page (4096 bytes)
 * of the caller's buffer, each split by the widest aligned access: 4100
 * bytes at 4 of the edu are, in the first piece (region 4 to 4099), r4@4,
 * r8 at 8 to 4088 and r4@4096, and in the second (4100 to 4103) r4@4100,
 * where one piece would read r8@4096.
 */
static void pieces_case(const struct target *t)
{
	static struct access a[PIECES_LEN / 8 + 2];
	unsigned long off;
	size_t n = 0;

	a[n++] = (struct access){ 'r', 4, 4, 0, 0 };
	for (off = 8; off + 8 <= 4096; off += 8)
		a[n++] = (struct access){ 'r', 8, off, 0, 0 };
	a[n++] = (struct access){ 'r', 4, 4096, 0, 0 };
	a[n++] = (struct access){ 'r', 4, 4100, 0, 0 };
	rw_case("edu-read-pieces", t, 'r', 4, PIECES_LEN, a, n);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define RW(name, t, dir, off, len, ...) do { \
	static const struct access a_[] = { __VA_ARGS__ }; \
	rw_case(name, t, dir, off, len, a_, N(a_)); \
} while (0)
#define CLI(name, t, args, ...) do { \
	static const struct access a_[] = { __VA_ARGS__ }; \
	const char *argv_[] = { "iioctl", args, NULL }; \
	cli_case(name, t, argv_, a_, N(a_)); \
} while (0)
/* iioctl's argument lists, with the device name filled in */
#define A(...) __VA_ARGS__

#define R(s, o) { 'r', s, o, 0, 0 }
#define W(s, o) { 'w', s, o, 0, 0 }
#define WV(s, o, v) { 'w', s, o, 1, v }

/* the number of cases below; tests/widths/check fails a missing one */
#define CASES 74

/*
 * A map of the edu that marks factorial (0x08) as a register whose read
 * has side effects: dump, watch and regs must not read it without --force
 */
#define EFFECTS_MAP "/tmp/edu-effects.map"
static const char effects_map[] =
	"register id        0x00 4 ro\n"
	"register liveness  0x04 4 rw\n"
	"register factorial 0x08 4 rw read=clear\n"
	"register dma_src   0x80 8 rw\n";

int main(void)
{
	struct target port = { .what = "port" }, mem = { .what = "mem" };
	struct target edu = { .what = "edu" };
	const char *p, *m, *e;
	char at[32], at_field[48];

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("widths-plan %d\n", CASES);

	/* the rtl8139's BARs as iio devices of iio_pci_generic */
	write_attr(RTL_SYSFS "/driver_override", "iio_pci_generic");
	write_attr("/sys/bus/pci/drivers/iio_pci_generic/bind", RTL_PCI);
	find_device(RTL_SYSFS "/iio", "type", "port", &port);
	find_device(RTL_SYSFS "/iio", "type", "mem", &mem);
	mem.trace_base = port.trace_base;	/* QEMU's alias, see above */
	find_device("/sys/class/iio", "name", "edu", &edu);
	p = port.dev;
	m = mem.dev;
	e = edu.dev;

	marker_port = port.trace_base + MARKER_OFF;
	if (ioperm(marker_port, 4, 1))
		die("ioperm 0x%lx: %s", marker_port, strerror(errno));
	printf("widths-marker 0x%lx\n", marker_port);

	/* ports: 1, 2 and 4 bytes are one access, 8 are two inl/outl */
	RW("port-read-1", &port, 'r', 0x9, 1, R(1, 0x9));
	RW("port-read-2", &port, 'r', 0xa, 2, R(2, 0xa));
	RW("port-read-4", &port, 'r', 0xc, 4, R(4, 0xc));
	RW("port-read-8", &port, 'r', 0x8, 8, R(4, 0x8), R(4, 0xc));
	RW("port-write-1", &port, 'w', 0x9, 1, W(1, 0x9));
	RW("port-write-2", &port, 'w', 0xa, 2, W(2, 0xa));
	RW("port-write-4", &port, 'w', 0xc, 4, W(4, 0xc));
	RW("port-write-8", &port, 'w', 0x8, 8, W(4, 0x8), W(4, 0xc));
	/* longer: the widest aligned access at each position, ascending */
	RW("port-read-11-at-5", &port, 'r', 0x5, 11,
	   R(1, 0x5), R(2, 0x6), R(4, 0x8), R(4, 0xc));
	RW("port-write-11-at-5", &port, 'w', 0x5, 11,
	   W(1, 0x5), W(2, 0x6), W(4, 0x8), W(4, 0xc));
	RW("port-read-7-at-8", &port, 'r', 0x8, 7,
	   R(4, 0x8), R(2, 0xc), R(1, 0xe));
	RW("port-write-3-at-4", &port, 'w', 0x4, 3, W(2, 0x4), W(1, 0x6));

	/* I/O memory: 1, 2 and 4 bytes on the rtl8139 */
	RW("mem-read-1", &mem, 'r', 0x9, 1, R(1, 0x9));
	RW("mem-read-2", &mem, 'r', 0xa, 2, R(2, 0xa));
	RW("mem-read-4", &mem, 'r', 0xc, 4, R(4, 0xc));
	RW("mem-write-1", &mem, 'w', 0x9, 1, W(1, 0x9));
	RW("mem-write-2", &mem, 'w', 0xa, 2, W(2, 0xa));
	RW("mem-write-4", &mem, 'w', 0xc, 4, W(4, 0xc));
	RW("mem-read-7-at-5", &mem, 'r', 0x5, 7,
	   R(1, 0x5), R(2, 0x6), R(4, 0x8));
	RW("mem-write-7-at-9", &mem, 'w', 0x9, 7,
	   W(1, 0x9), W(2, 0xa), W(4, 0xc));
	/* ... 4 and 8 bytes on the edu (its DMA address registers) */
	RW("edu-read-4", &edu, 'r', 0x84, 4, R(4, 0x84));
	RW("edu-read-8", &edu, 'r', 0x88, 8, R(8, 0x88));
	RW("edu-write-4", &edu, 'w', 0x84, 4, W(4, 0x84));
	RW("edu-write-8", &edu, 'w', 0x88, 8, W(8, 0x88));
	RW("edu-read-20-at-84", &edu, 'r', 0x84, 20,
	   R(4, 0x84), R(8, 0x88), R(8, 0x90));
	RW("edu-write-20-at-84", &edu, 'w', 0x84, 20,
	   W(4, 0x84), W(8, 0x88), W(8, 0x90));
	RW("edu-read-12-at-88", &edu, 'r', 0x88, 12, R(8, 0x88), R(4, 0x90));
	pieces_case(&edu);

	/* iioctl peek and poke: one access of -w W (two inl for 8 on ports) */
	CLI("peek-port-w1", &port, A("peek", "-w", "1", p, "0x9"), R(1, 0x9));
	CLI("peek-port-w2", &port, A("peek", "-w", "2", p, "0xa"), R(2, 0xa));
	CLI("peek-port-w4", &port, A("peek", "-w", "4", p, "0xc"), R(4, 0xc));
	CLI("peek-port-w8", &port, A("peek", "-w", "8", p, "0x8"),
	    R(4, 0x8), R(4, 0xc));
	CLI("poke-port-w1", &port, A("poke", "-w", "1", p, "0x9", "0x12"),
	    W(1, 0x9));
	CLI("poke-port-w2", &port, A("poke", "-w", "2", p, "0xa", "0x1234"),
	    W(2, 0xa));
	CLI("poke-port-w4", &port, A("poke", "-w", "4", p, "0xc", "0x12345678"),
	    W(4, 0xc));
	CLI("poke-port-w8", &port, A("poke", "-w", "8", p, "0x8", "0x1122334455667788"),
	    W(4, 0x8), W(4, 0xc));
	CLI("poke-port-mask-w2", &port,
	    A("poke", "-w", "2", "-m", "0xff00", p, "0xa", "0x3400"),
	    R(2, 0xa), W(2, 0xa));
	CLI("peek-mem-w1", &mem, A("peek", "-w", "1", m, "0x9"), R(1, 0x9));
	CLI("peek-mem-w2", &mem, A("peek", "-w", "2", m, "0xa"), R(2, 0xa));
	CLI("peek-mem-w2-mmap", &mem, A("peek", "--mmap", "-w", "2", m, "0xa"),
	    R(2, 0xa));
	CLI("poke-mem-w1-mmap", &mem,
	    A("poke", "--mmap", "-w", "1", m, "0x9", "0x12"), W(1, 0x9));
	CLI("poke-mem-w4", &mem, A("poke", "-w", "4", m, "0xc", "0x12345678"),
	    W(4, 0xc));
	CLI("peek-edu-w8", &edu, A("peek", "-w", "8", e, "0x88"), R(8, 0x88));
	CLI("peek-edu-w8-mmap", &edu, A("peek", "--mmap", "-w", "8", e, "0x88"),
	    R(8, 0x88));
	CLI("poke-edu-w8", &edu, A("poke", "-w", "8", e, "0x88", "0x1000"),
	    W(8, 0x88));
	CLI("poke-edu-w4-mmap", &edu,
	    A("poke", "--mmap", "-w", "4", e, "0x84", "0"), W(4, 0x84));

	/* iioctl dump -w W: one access of W bytes a value, ascending */
	CLI("dump-port-w1", &port, A("dump", "-w", "1", "-s", "0xc", "-n", "4", p),
	    R(1, 0xc), R(1, 0xd), R(1, 0xe), R(1, 0xf));
	CLI("dump-port-w2", &port, A("dump", "-w", "2", "-s", "0x8", "-n", "8", p),
	    R(2, 0x8), R(2, 0xa), R(2, 0xc), R(2, 0xe));
	CLI("dump-port-w4", &port, A("dump", "-w", "4", "-s", "0x4", "-n", "12", p),
	    R(4, 0x4), R(4, 0x8), R(4, 0xc));
	CLI("dump-port-w8", &port, A("dump", "-w", "8", "-s", "0x8", "-n", "8", p),
	    R(4, 0x8), R(4, 0xc));
	CLI("dump-mem-w1-mmap", &mem,
	    A("dump", "--mmap", "-w", "1", "-s", "0xe", "-n", "2", m),
	    R(1, 0xe), R(1, 0xf));
	CLI("dump-mem-w2", &mem, A("dump", "-w", "2", "-s", "0x8", "-n", "4", m),
	    R(2, 0x8), R(2, 0xa));
	CLI("dump-edu-w4", &edu, A("dump", "-w", "4", "-s", "0x80", "-n", "12", e),
	    R(4, 0x80), R(4, 0x84), R(4, 0x88));
	CLI("dump-edu-w8", &edu, A("dump", "-w", "8", "-s", "0x80", "-n", "24", e),
	    R(8, 0x80), R(8, 0x88), R(8, 0x90));
	CLI("dump-edu-w8-mmap", &edu,
	    A("dump", "--mmap", "-w", "8", "-s", "0x88", "-n", "16", e),
	    R(8, 0x88), R(8, 0x90));

	/*
	 * read=clear: not read by regs, dump and watch unless --force
	 * (iio-regmap(5), iioctl(1)); --dry-run touches nothing
	 */
	{
		FILE *f = fopen(EFFECTS_MAP, "w");

		if (!f || fputs(effects_map, f) < 0 || fclose(f))
			die("cannot write %s", EFFECTS_MAP);
	}
	CLI("regs-skips-read-clear", &edu,
	    A("--map", EFFECTS_MAP, "regs", e),
	    R(4, 0x0), R(4, 0x4), R(8, 0x80));
	CLI("regs-force-reads-read-clear", &edu,
	    A("--map", EFFECTS_MAP, "regs", "--force", e),
	    R(4, 0x0), R(4, 0x4), R(4, 0x8), R(8, 0x80));
	CLI("dump-skips-read-clear", &edu,
	    A("--map", EFFECTS_MAP, "dump", "-w", "4", "-n", "16", e),
	    R(4, 0x0), R(4, 0x4), R(4, 0xc));
	CLI("dump-force-reads-read-clear", &edu,
	    A("--map", EFFECTS_MAP, "dump", "--force", "-w", "4", "-n", "16", e),
	    R(4, 0x0), R(4, 0x4), R(4, 0x8), R(4, 0xc));
	CLI("watch-skips-read-clear", &edu,
	    A("--map", EFFECTS_MAP, "watch", "-t", "0", e, "id", "factorial"),
	    R(4, 0x0));
	CLI("watch-force-reads-read-clear", &edu,
	    A("--map", EFFECTS_MAP, "watch", "--force", "-t", "0", e, "id",
	      "factorial"),
	    R(4, 0x0), R(4, 0x8));
	CLI("dry-run-poke-touches-nothing", &edu,
	    A("--dry-run", "poke", "-w", "4", e, "0x84", "0"));
	CLI("dry-run-poke-mask-touches-nothing", &edu,
	    A("--dry-run", "poke", "-m", "0xff", e, "0x84", "0x12"));
	CLI("dry-run-dump-touches-nothing", &edu,
	    A("--dry-run", "dump", "-w", "4", "-n", "16", e));
	CLI("dry-run-peek-touches-nothing", &edu,
	    A("-D", "peek", e, "0x84"));

	/*
	 * several accesses in one call, in the order given; an ad hoc
	 * field's read-modify-write; @ADDR (edu's physaddr + 0x84); --be:
	 * the device sees each value byte-swapped (iioctl(1))
	 */
	snprintf(at, sizeof(at), "@0x%lx", edu.trace_base + 0x84);
	snprintf(at_field, sizeof(at_field), "%s:7:0=0x5a", at);
	CLI("peek-several-mem", &mem, A("peek", "-w", "2", m, "0xa", "0x8"),
	    R(2, 0xa), R(2, 0x8));
	CLI("poke-consecutive-mem", &mem,
	    A("poke", "-w", "2", m, "0x8", "0x1", "0x2"),
	    WV(2, 0x8, 0x1), WV(2, 0xa, 0x2));
	CLI("poke-several-assign-mem", &mem,
	    A("poke", "-w", "1", m, "0x9=0x12", "0xc:7:4=0x3"),
	    WV(1, 0x9, 0x12), R(1, 0xc), W(1, 0xc));
	CLI("peek-address-edu", &edu, A("peek", at), R(4, 0x84));
	CLI("poke-address-field-edu", &edu, A("poke", at_field),
	    R(4, 0x84), W(4, 0x84));
	CLI("poke-le-mem-w4", &mem, A("poke", "-w", "4", m, "0xc", "0x12345678"),
	    WV(4, 0xc, 0x12345678));
	CLI("poke-be-mem-w4", &mem,
	    A("poke", "--be", "-w", "4", m, "0xc", "0x12345678"),
	    WV(4, 0xc, 0x78563412));
	CLI("poke-be-mem-w2", &mem, A("poke", "--be", "-w", "2", m, "0xa", "0x1234"),
	    WV(2, 0xa, 0x3412));
	CLI("poke-be-edu-w8", &edu,
	    A("poke", "--be", "-w", "8", e, "0x88", "0x1122334455667788"),
	    WV(8, 0x88, 0x8877665544332211ULL));

	marker(case_no + 1);
	if (case_no != CASES)
		printf("FAIL widths/plan: %u cases ran, CASES says %d\n",
		       case_no, CASES);
	return 0;
}
