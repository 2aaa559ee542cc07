// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_faults.c - every error path taken: each operation a user or the PCI
 * core can start on our modules is run again and again with its n-th
 * memory allocation failed, n = 1, 2, 3 ..., until it succeeds with nothing
 * injected (the way syzkaller injects faults).
 *
 * The n-th failure comes from /proc/thread-self/fail-nth: the kernel fails
 * the n-th slab (failslab) or page (fail_page_alloc) allocation this task
 * makes from then on, whatever its GFP flags (the knobs below let the
 * failures reach GFP_KERNEL allocations and single pages, which the
 * defaults spare), and reading the file back says whether the count was
 * reached (0) or not.  Every allocation of the operation counts, the
 * kernel's own as well as our modules' (the VFS's, the driver core's,
 * sysfs's, kmemleak's and KASAN's own bookkeeping): "N steps" is how many
 * allocations the operation makes.  That number is not quite fixed:
 * KASAN's stack depot and RCU allocate only now and then, which shifts
 * the later allocations by one for a step, so that one of them can go
 * unfailed in a pass (a mutant that turned dma_alloc_coherent()'s failure
 * into EIO was caught in one run of two).  So each injected failure is
 * also placed: the failure point of ours it hit, a call site in kmod/ of
 * a kernel function that failed (see "failure points" below), and each
 * operation must hit every point tests/test_faults_points.h lists for it,
 * the loop running again where one was missed.
 *
 * After each step: the error that reached user space is the documented one
 * (ENOMEM; a stub's probe failing leaves the device without a driver, and
 * iio_user_dummy's load then fails with ENODEV, iio_user_dummy(4)), or the failure
 * was absorbed and the operation worked; nothing is left behind (no module,
 * no driver, no iio device, no listener); the kernel log has no report
 * (WARNING, BUG, KASAN, lockdep, debug objects ...: the words of
 * qemu/log-check); and the device works afterwards.  At the end of each
 * case (its operations' loops done, before the boot's state is put back)
 * a kmemleak scan must find no unreferenced object allocated by this
 * program (kmemleak reports an object only once it is 5 s old, so a scan
 * per step would cost 5 s a step, and one per operation, with a scan of
 * the guest's memory under KASAN each, cost minutes a run: the report
 * names the leaking path by its allocation's backtrace instead).
 *
 * Not reached by injection, and why:
 *   - page faults on a mapping (a failed allocation there is VM_FAULT_OOM,
 *     the OOM killer, not an errno): the mmap(2) call is injected;
 *   - removal paths (unbind, rmmod) cannot fail: their allocations (uevents)
 *     are injected and must leave the device unbound and rebindable;
 *   - interrupt handlers and timers (not in a task: fail-nth counts only the
 *     task's own allocations);
 *   - (not a limit any more: a note) the points of a module's own load
 *     (iio_init(), a stub's init, the probes its init starts) were once
 *     not named: iio_test_faults named the frames when the stack was read,
 *     after the load, when a failed load's module was freed and a
 *     successful one's __init code and symbols too.  It names them in its
 *     probe now, during the load, so they are points like any other;
 *   - a point is hit when an allocation under that call of ours failed;
 *     where the kernel function itself absorbs that failure (a fallback,
 *     a uevent it only logs) our call succeeded and our error branch did
 *     not run: the operation's checks (it worked, nothing left behind)
 *     hold all the same, but "hit" says only that the failure was there.
 *
 * Runs only under a kernel with fault injection and kmemleak (make
 * check-debug's, booted with kmemleak=on: tests/run gives the program a
 * boot of its own) and kprobes (iio_test_faults.ko, of tests/kmod/, in
 * the guest's /lib/modules/test/); elsewhere each case is a SKIP line.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/iio_test.h"

#define DEBUGFS		"/sys/kernel/debug"
#define KMEMLEAK	DEBUGFS "/kmemleak"
/* more steps than this: the loop does not end */
#define MAX_POINTS	2000

#define EDU0		"0000:00:10.0"	/* iio_edu's at boot */
#define EDU1		"0000:00:11.0"
#define EDU_FREE	"0000:00:13.0"	/* no driver at boot (qemu/init) */
#define TESTDEV0	"0000:00:18.0"	/* iio_pcitest's at boot */
#define TESTDEV_FREE	"0000:00:19.0"
#define NVME		"0000:00:1a.0"
#define DUMMY0		"iio_user_dummy.0"

#define EDU_ID		0x00
#define EDU_LIVENESS	0x04
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64

/* tests/kmod/iio_test_faults.c: where each injected failure landed */
#define SITE_KO		"/lib/modules/test/iio_test_faults.ko"
#define SITE_PARAM	"/sys/module/iio_test_faults/parameters/"
/*
 * passes of an operation's loop at most, the first one included: insmod
 * iio's one listed point (init_pseudo, one step of 386) took 4 passes in
 * one run of two on 2026-12-05, the dummy's load more than 4 in one
 */
#define MAX_PASSES	10

static int nth_fd = -1, kmsg_fd = -1;
/* the pass of the operation's loop under way (check_doing()) */
static unsigned int loop_pass;

/* ------------------------------------------------------------------ */
/* fault injection, the kernel log and kmemleak */

static void leaks_reset(void);
static void site_load(void);

static void fault_setup(void)
{
	if (!path_exists("/proc/self/fail-nth"))
		check_skip("no /proc/self/fail-nth: this kernel has no fault injection (CONFIG_FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC: make check-debug's kernel has)");
	if (!path_exists(DEBUGFS "/failslab"))
		debugfs_mount();
	if (!path_exists(DEBUGFS "/failslab") ||
	    !path_exists(DEBUGFS "/fail_page_alloc"))
		check_skip("no failslab or fail_page_alloc in debugfs (CONFIG_FAULT_INJECTION_DEBUG_FS)");
	if (!path_exists(KMEMLEAK))
		check_skip("no kmemleak in this kernel (CONFIG_DEBUG_KMEMLEAK)");
	/* the debug kernel's kmemleak is off unless booted with kmemleak=on */
	if (write_text(KMEMLEAK, "scan") == EPERM)
		check_skip("kmemleak is off: boot with kmemleak=on (tests/run's own boot of test_faults does)");
	/* every allocation may fail, not only those that cannot sleep */
	debugfs_knob("failslab/ignore-gfp-wait", "N");
	debugfs_knob("fail_page_alloc/ignore-gfp-wait", "N");
	debugfs_knob("fail_page_alloc/ignore-gfp-highmem", "N");
	debugfs_knob("fail_page_alloc/min-order", "0");
	/*
	 * a line per injected failure, without its stack (the log stays
	 * small); FAULTS_VERBOSE=2 in the environment adds the stack
	 */
	debugfs_knob("failslab/verbose", getenv("FAULTS_VERBOSE") ?: "1");
	debugfs_knob("fail_page_alloc/verbose", getenv("FAULTS_VERBOSE") ?: "1");
	site_load();
	nth_fd = MUST(open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC));
	kmsg_fd = MUST(open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC));
	MUST(lseek(kmsg_fd, 0, SEEK_END));
	leaks_reset();
}

/*
 * Arm: the n-th allocation of this task from now on fails.  Only pread and
 * pwrite of an open file come between this and the operation: they
 * allocate nothing.
 */
static void fault_arm(unsigned int n)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u", n);

	if (pwrite(nth_fd, text, len, 0) != len)
		FAIL("arming fail-nth: %s", strerror(errno));
}

/* Disarm: whether the failure was injected (the count reached 0) */
static bool fault_disarm(void)
{
	char text[16];
	ssize_t len = pread(nth_fd, text, sizeof(text) - 1, 0);
	int err = errno;

	if (pwrite(nth_fd, "0", 1, 0) != 1)
		FAIL("disarming fail-nth: %s", strerror(errno));
	if (len <= 0)
		FAIL("reading fail-nth: %s", strerror(err));
	text[len] = 0;
	return strtoul(text, NULL, 10) == 0;
}

/* what qemu/log-check calls a problem */
static const char *const reports[] = {
	"Oops", "BUG:", "WARNING:", "general protection fault", "kernel BUG",
	"Kernel panic", "list_add corruption", "list_del corruption",
	"Poison overwritten", "Redzone overwritten",
	"Object padding overwritten", "Freepointer corrupt", "nobody cared",
	"possible circular locking dependency", "inconsistent lock state",
	"suspicious RCU usage", "possible recursive locking",
	"possible irq lock inversion", "INFO: lockdep", "lockdep is turned off",
	"INFO: trying to register non-static key", "bad unlock balance",
	"lock held when returning to user space", "held lock freed",
	"KASAN: ", "KFENCE: ", "UBSAN:", "ODEBUG:",
	"sleeping function called from invalid context",
	"scheduling while atomic",
	/* kmemleak gave up: no leak would be found any more */
	"kmemleak: Kernel memory leak detector disabled",
};

/* announced warnings of remove_proc_entry() still to come (see irq_proc_gap()) */
static unsigned int expected_warnings;

/* the kernel's messages of the current step (log_check() adds them) */
static char step_log[1 << 20];
static size_t step_log_len;

/* whether the current step's kernel messages have @text */
static bool step_logged(const char *text)
{
	return strstr(step_log, text) != NULL;
}

/*
 * The kernel log since the last look has no report (of step @n of @what);
 * its messages go to step_log.
 */
static void log_check(const char *what, unsigned int n)
{
	char rec[8192];
	const char *msg;
	size_t i;

	while ((msg = kmsg_next(kmsg_fd, rec, sizeof(rec)))) {
		if (step_log_len + strlen(msg) + 2 < sizeof(step_log))
			step_log_len += sprintf(step_log + step_log_len, "%s\n",
						msg);
		if (expected_warnings && strstr(msg, "WARNING:") &&
		    strstr(msg, " remove_proc_entry+0x")) {
			expected_warnings--;
			continue;
		}
		for (i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
			if (strstr(msg, reports[i]))
				FAIL("%s, failure point %u: the kernel log says \"%s\"",
				     what, n, msg);
	}
}

/* the whole of kmemleak's report (malloc'ed) */
static char *leaks_read(void)
{
	size_t len = 0, size = 65536;
	char *text = malloc(size);
	int fd = MUST(open(KMEMLEAK, O_RDONLY));
	ssize_t n;

	EXPECT(text);
	while ((n = read(fd, text + len, size - len - 1)) > 0) {
		len += n;
		if (size - len < 4096) {
			size *= 2;
			text = realloc(text, size);
			EXPECT(text);
		}
	}
	EXPECT(n == 0);
	close(fd);
	text[len] = 0;
	return text;
}

static void leaks_scan(void)
{
	int err = write_text(KMEMLEAK, "scan");

	if (err)
		FAIL("kmemleak scan: %s", strerror(err));
}

/*
 * Forget what kmemleak suspects now, once a boot (the first case's
 * setup): only what comes later counts.  Each case's leaks_check() ends
 * by forgetting what it saw, so the next case starts from there: the
 * scan of a case's start (about 10 s of the debug kernel's time) is left
 * out, and an object leaked between two cases (while boot_state() puts
 * modules back) is the next case's report.
 */
static void leaks_reset(void)
{
	static const char done[] = "/tmp/test_faults.leaks-reset";
	int err;

	if (path_exists(done))
		return;
	leaks_scan();
	err = write_text(KMEMLEAK, "clear");
	if (err)
		FAIL("kmemleak clear: %s", strerror(err));
	close(MUST(open(done, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)));
}

/*
 * No object this program's operations allocated is unreferenced (comm
 * "test_faults"), nor any whose allocation went through our modules
 * ("[iio" in the backtrace).  Waits until @ready (now_ms()), when the
 * objects of interest are old enough for kmemleak to report them (5 s),
 * scans, then clears.
 */
static void leaks_check(const char *what, unsigned long long ready)
{
	char *text, *rec, *next;
	int err;

	check_doing("%s: kmemleak scan", what);
	if (now_ms() < ready)
		msleep(ready - now_ms());
	leaks_scan();
	text = leaks_read();
	for (rec = strstr(text, "unreferenced object"); rec; rec = next) {
		next = strstr(rec + 1, "unreferenced object");
		if (next)
			next[-1] = 0;
		if (!strstr(rec, "comm \"test_faults\"") && !strstr(rec, "[iio"))
			continue;
		/*
		 * 6.1's __class_register() frees its subsys_private when
		 * kset_register() fails, but not the name it gave it (the
		 * class's own, a few bytes): the driver core's leak, fixed
		 * upstream by kset_register() freeing the name (v6.2)
		 */
		if (strstr(rec, "kobject_set_name") &&
		    strstr(rec, "__class_register")) {
			check_note("%s: kmemleak: the driver core's leak of a class's name (6.1's __class_register())",
				   what);
			continue;
		}
		FAIL("%s: kmemleak: %.900s", what, rec);
	}
	free(text);
	err = write_text(KMEMLEAK, "clear");
	if (err)
		FAIL("kmemleak clear: %s", strerror(err));
}

/* ------------------------------------------------------------------ */
/* the operations */

/*
 * An operation: prepare (no fault armed) sets up what it needs, run is the
 * operation itself with the fault armed (0 or the errno), failed checks
 * that a failed step left nothing behind, done that the operation worked
 * (and uses it), undo takes it back for the next step (not after the last:
 * the operation stays done).
 */
struct op {
	const char *name;
	void (*prepare)(struct op *op);
	int (*run)(struct op *op);
	void (*failed)(struct op *op, int err);
	void (*done)(struct op *op);
	void (*undo)(struct op *op);
	/* what it works on */
	const char *module, *params;	/* module, its parameters */
	const char *bus, *driver, *dev;	/* a driver and a device */
	const char *path;		/* a node or attribute */
	int flags;			/* open flags */
	int nr;				/* iio device */
	/* state between the calls */
	int fd;
	void *map;
	unsigned int before;
};

/*
 * @path with each iio device's number as N (/dev/iioN_event): an
 * operation's name, which the list of failure points uses, must not
 * depend on the numbers a run's reloads happen to give (a list entry
 * under another number than the run's would go unchecked)
 */
static const char *numberless(const char *path)
{
	static char out[256];
	size_t o = 0;

	for (; *path && o < sizeof(out) - 2; path++) {
		if (*path >= '0' && *path <= '9' && o >= 3 &&
		    !strncmp(out + o - 3, "iio", 3)) {
			out[o++] = 'N';
			while (path[1] >= '0' && path[1] <= '9')
				path++;
			continue;
		}
		out[o++] = *path;
	}
	out[o] = 0;
	return out;
}

/* the file where each operation run is named, a line each (ops_all_ran()) */
#define OPS_RAN		"/tmp/test_faults.ops"

/* @op ran (its loop, or once uninjected): a line of OPS_RAN */
static void op_ran(const struct op *op)
{
	int fd = MUST(open(OPS_RAN, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			   0644));
	char line[300];
	int len = snprintf(line, sizeof(line), "%s\n", op->name);

	EXPECT_EQ(write(fd, line, len), len);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* failure points: where in our code each injected failure landed */

/*
 * A failure point is a call site in our modules (kmod/) of a kernel
 * function that can fail for want of memory: the innermost frame of ours
 * in the stack of the allocation fail-nth failed, with the kernel
 * function it called (the frame above it).  iio_test_faults.ko's probe
 * saves that stack (tests/kmod/iio_test_faults.c: the kernel's own
 * report of an injection leaves out the __GFP_NOWARN allocations, among
 * them dma_alloc_coherent()'s).  A point is named "FUNCTION [MODULE] ->
 * CALLEE"; the same pair at two call sites (two return addresses) is two
 * sites of one name.  An injection whose stack has no frame of ours is the
 * kernel's (the VFS's, sysfs's, the module loader's, before or after our
 * code); one whose stack, between the allocation and our frame, passes
 * through the debugging machinery's own bookkeeping (KASAN's stack depot,
 * kmemleak's objects, debug objects' and DMA-API debugging's pools, which
 * absorb the failure: our call succeeds) hit no point of ours.
 *
 * tests/test_faults_points.h lists, per operation, every point and how
 * many sites it has: reviewed, a change of kmod/ that adds, moves or
 * drops a fallible call changes it.  After the loop (pass 1: n = 1, 2 ...
 * until the operation succeeds) an expected site not hit (the
 * allocations before it shifted by one for a step: KASAN's stack depot
 * and RCU allocate only now and then) makes the loop run again, from a
 * few steps before the point that precedes it in the list (the list is
 * in the order of the allocations), then from step 1, until every site
 * was hit (MAX_PASSES passes at most, then FAIL naming each site never
 * hit).  A point hit that is not in the list, or a site more than
 * listed, is a note: the list is the union of several runs' points and
 * may still lack what every one of those runs' shifts skipped (see
 * points_check()); once runs stop adding to it, those should fail too.  FAULTS_LIST=1 in the
 * environment (the kernel command line: tests/run TESTS_APPEND) prints
 * each operation's points as the list's lines instead of failing on a
 * difference, to make or review the list.
 */
struct expected_point {
	const char *op;		/* the operation's name */
	const char *point;	/* "FUNCTION [MODULE] -> CALLEE" */
	unsigned int sites;	/* call sites of that pair */
};

#include "test_faults_points.h"

#define MAX_SITES	8

struct point {
	char name[192];
	char sites[MAX_SITES][96];	/* FUNCTION+0xOFF/0xSIZE */
	unsigned int nsites;
	unsigned int first_n;		/* the step that first hit it */
};

static struct {
	struct point p[128];
	unsigned int n;
	/* injections that hit no point of ours, by why */
	unsigned int kernel, bookkeeping;
} points;

/* the injected failure's stack of the current step, "" if none */
static char step_site[4096];

static const char *const our_modules[] = {
	"iio", "iio_user_dummy", "iio_edu", "iio_pcitest", "iio_pci_generic",
};

/* frames of the debugging machinery, which absorbs a failure */
static const char *const bookkeeping[] = {
	"kasan", "stack_depot", "kmemleak", "create_object", "mem_pool_alloc",
	"debug_object", "fill_pool", "dma_debug", "dma_entry",
};

/*
 * fail-nth counts from the first allocation under our code on (1), or
 * every allocation (0): iio_test_faults' from_ours, for the next step
 */
static void site_from_ours(bool on)
{
	int err = write_text(SITE_PARAM "from_ours", on ? "1" : "0");

	if (err)
		FAIL("from_ours of iio_test_faults: %s", strerror(err));
}

/* iio_test_faults loaded, its site cleared, every allocation counted */
static void site_load(void)
{
	int fd, err;

	if (!path_exists(SITE_PARAM "site")) {
		fd = MUST(open(SITE_KO, O_RDONLY | O_CLOEXEC));
		if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
			FAIL("finit_module(%s): %s", SITE_KO, strerror(errno));
		close(fd);
	}
	err = write_text(SITE_PARAM "site", "0");
	if (err)
		FAIL("clearing %ssite: %s", SITE_PARAM, strerror(err));
	site_from_ours(false);
}

static void site_arm(bool on)
{
	int err = write_text(SITE_PARAM "armed", on ? "1" : "0");

	if (err)
		FAIL("%s iio_test_faults' probe: %s", on ? "arming" : "disarming",
		     strerror(err));
}

/* the stack iio_test_faults saved (into step_site), then cleared */
static void site_take(void)
{
	int fd = MUST(open(SITE_PARAM "site", O_RDONLY | O_CLOEXEC));
	ssize_t n = read(fd, step_site, sizeof(step_site) - 1);

	if (n < 0)
		FAIL("reading %ssite: %s", SITE_PARAM, strerror(errno));
	close(fd);
	step_site[n] = 0;
	if (write_text(SITE_PARAM "site", "0"))
		FAIL("clearing %ssite", SITE_PARAM);
}

/* @frame's function name (up to "+0x") into @fn */
static void frame_function(const char *frame, char *fn, size_t size)
{
	size_t len = strcspn(frame, "+ \n");

	snprintf(fn, size, "%.*s", (int)(len < size ? len : size - 1), frame);
}

/* @frame's module ("" for the kernel's) into @mod */
static void frame_module(const char *frame, char *mod, size_t size)
{
	const char *open = strchr(frame, '['), *close;

	mod[0] = 0;
	if (!open || !(close = strchr(open, ']')))
		return;
	snprintf(mod, size, "%.*s", (int)(close - open - 1), open + 1);
}

static bool ours(const char *mod)
{
	size_t i;

	for (i = 0; i < sizeof(our_modules) / sizeof(our_modules[0]); i++)
		if (!strcmp(mod, our_modules[i]))
			return true;
	return false;
}

/* Files step @n's injection (step_site) under its point, if one of ours. */
static void site_record(unsigned int n)
{
	char copy[sizeof(step_site)], fn[96], mod[64], callee[96] = "?";
	char name[192], site[96];
	bool absorbed = false;
	char *line, *save;
	struct point *p;
	unsigned int i;

	snprintf(copy, sizeof(copy), "%s", step_site);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		frame_function(line, fn, sizeof(fn));
		frame_module(line, mod, sizeof(mod));
		if (ours(mod))
			break;
		for (i = 0; i < sizeof(bookkeeping) / sizeof(bookkeeping[0]); i++)
			if (strstr(fn, bookkeeping[i]))
				absorbed = true;
		snprintf(callee, sizeof(callee), "%s", fn);
	}
	if (!line) {
		points.kernel++;
		return;
	}
	if (absorbed) {
		points.bookkeeping++;
		return;
	}
	snprintf(name, sizeof(name), "%s [%s] -> %s", fn, mod, callee);
	snprintf(site, sizeof(site), "%.*s", (int)strcspn(line, " "), line);
	for (i = 0; i < points.n; i++)
		if (!strcmp(points.p[i].name, name))
			break;
	if (i == points.n) {
		if (points.n == sizeof(points.p) / sizeof(points.p[0]))
			FAIL("more than %u failure points", points.n);
		p = &points.p[points.n++];
		snprintf(p->name, sizeof(p->name), "%s", name);
		p->nsites = 0;
		p->first_n = n;
	}
	p = &points.p[i];
	for (i = 0; i < p->nsites; i++)
		if (!strcmp(p->sites[i], site))
			return;
	if (p->nsites == MAX_SITES)
		FAIL("%s: more than %u sites", p->name, MAX_SITES);
	snprintf(p->sites[p->nsites++], sizeof(p->sites[0]), "%s", site);
}

static const struct point *point_hit(const char *name)
{
	unsigned int i;

	for (i = 0; i < points.n; i++)
		if (!strcmp(points.p[i].name, name))
			return &points.p[i];
	return NULL;
}

static const struct expected_point *point_listed(const char *op,
						 const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(expected_points) / sizeof(expected_points[0]); i++)
		if (!strcmp(expected_points[i].op, op) &&
		    !strcmp(expected_points[i].point, name))
			return &expected_points[i];
	return NULL;
}

/*
 * The listed points of @op whose sites were not all hit: how many; the
 * step to start the next pass from (a few before the hit point listed
 * before the first of them) into @from.
 */
static unsigned int points_missing(const char *op, unsigned int *from)
{
	unsigned int missing = 0, last_n = 1;
	size_t i;

	*from = 0;
	for (i = 0; i < sizeof(expected_points) / sizeof(expected_points[0]); i++) {
		const struct expected_point *e = &expected_points[i];
		const struct point *p;

		if (strcmp(e->op, op))
			continue;
		p = point_hit(e->point);
		if (p && p->nsites >= e->sites) {
			last_n = p->first_n;
			continue;
		}
		if (!missing++)
			*from = last_n > 3 ? last_n - 3 : 1;
	}
	return missing;
}

/*
 * After the passes: each listed point of @op hit at all its sites, no
 * other; notes the points (FAULTS_LIST=1: as the list's lines).
 */
static void points_check(const char *op, unsigned int steps,
			 unsigned int passes)
{
	bool list = getenv("FAULTS_LIST") && strcmp(getenv("FAULTS_LIST"), "0");
	unsigned int i, listed = 0, sites = 0;
	char bad[4096] = "";
	size_t len = 0;

	for (i = 0; i < points.n; i++) {
		const struct point *p = &points.p[i];
		const struct expected_point *e = point_listed(op, p->name);

		sites += p->nsites;
		if (list)
			check_note("\t{ \"%s\",\n\t  \"%s\", %u },", op, p->name,
				   p->nsites);
		/*
		 * Not listed (or more sites): a note, not a failure yet.
		 * The list is the union of several runs' points, each hit
		 * in two runs at least; a point hit in one run only (a
		 * step's shift skipped it in the others) is not in it yet.
		 */
		if (!e || p->nsites > e->sites)
			check_note("%s: failure point \"%s\" at %u sites (first at step %u), listed at %u (tests/test_faults_points.h)",
				   op, p->name, p->nsites, p->first_n,
				   e ? e->sites : 0);
	}
	for (i = 0; i < sizeof(expected_points) / sizeof(expected_points[0]); i++) {
		const struct expected_point *e = &expected_points[i];
		const struct point *p;

		if (strcmp(e->op, op))
			continue;
		listed++;
		p = point_hit(e->point);
		if (!p || p->nsites < e->sites)
			len += snprintf(bad + len, sizeof(bad) - len,
					"%snever hit: \"%s\" (%u of %u sites)",
					len ? "; " : "", e->point,
					p ? p->nsites : 0, e->sites);
		if (len >= sizeof(bad))
			len = sizeof(bad) - 1;
	}
	if (len && !list)
		FAIL("%s: failure points: %s (tests/test_faults_points.h)", op,
		     bad);
	check_note("%s: %u steps, %u failure points of ours (%u sites), %s in %u pass%s; %u injections in the kernel's own code, %u absorbed by debugging's bookkeeping",
		   op, steps, points.n, sites,
		   len ? "NOT as listed" : listed ? "every one hit" : "none listed",
		   passes, passes == 1 ? "" : "es", points.kernel,
		   points.bookkeeping);
}

/*
 * 6.1's register_irq_proc() ignores a failure to make one of the entries of
 * /proc/irq/N/, and unregister_irq_proc() then warns that the entry it
 * removes does not exist ("name 'smp_affinity'", remove_proc_entry()) when
 * the interrupt's descriptor is freed: the genirq core's mishandling, for
 * every newly allocated interrupt (MSI, MSI-X) whose request_irq() had that
 * allocation failed.  A step whose injected failure was there (its stack,
 * from iio_test_faults) announces
 * that warning to qemu/log-check and to log_check(), once, before the
 * interrupt is freed.
 */
static void irq_proc_gap(void)
{
	static const char line[] =
		"iio-test: expect a kernel warning in remove_proc_entry";
	int fd;

	if (!strstr(step_site, "\nregister_irq_proc+0x"))
		return;
	fd = MUST(open("/dev/kmsg", O_WRONLY | O_CLOEXEC));
	EXPECT_EQ(write(fd, line, strlen(line)), (ssize_t)strlen(line));
	close(fd);
	expected_warnings++;
}

/* whether @name has one of the comma-separated @texts */
static bool name_has_one_of(const char *name, const char *texts)
{
	char copy[256], *text, *save;

	snprintf(copy, sizeof(copy), "%s", texts);
	for (text = strtok_r(copy, ",", &save); text;
	     text = strtok_r(NULL, ",", &save))
		if (strstr(name, text))
			return true;
	return false;
}

/*
 * One step of @op's loop: its n-th allocation failed (none for n == 0),
 * then checked; whether a failure was injected.  Not injected: the
 * operation succeeded and stays done (the case's kmemleak check, at its
 * end, case_end(), covers it).
 */
static bool fault_step(struct op *op, unsigned int n, unsigned int *failures)
{
	bool injected = false;
	int err;

	/* what a timeout of the case names */
	check_doing("%s: pass %u, step %u", op->name, loop_pass, n);
	if (op->prepare)
		op->prepare(op);
	log_check(op->name, n ? n - 1 : 0);
	step_log_len = 0;
	step_log[0] = 0;
	step_site[0] = 0;
	if (n)
		fault_arm(n);
	err = op->run(op);
	if (n)
		injected = fault_disarm();
	if (injected) {
		site_take();
		site_record(n);
	}
	log_check(op->name, n);
	if (!injected) {
		if (err)
			FAIL("%s: %s with no failure injected", op->name,
			     strerror(err));
		op->done(op);
		log_check(op->name, n);
		return false;
	}
	if (err) {
		(*failures)++;
		op->failed(op, err);
	} else {
		op->done(op);
		irq_proc_gap();
		op->undo(op);
	}
	log_check(op->name, n);
	return true;
}

/*
 * Runs @op with its n-th allocation failed, n = 1, 2 ... until it succeeds
 * with nothing injected, then again from where a listed failure point was
 * not hit (the head of the failure points' section: pass 2 from a few
 * steps before the point listed before it, any later pass from step 1)
 * until every one was;
 * checks the points against the list; returns how many steps the first
 * pass had (allocations of the operation).  A failure absorbed on the way
 * (the operation worked) counts as a step all the same.
 */
static unsigned int fault_loop(struct op *op)
{
	const char *only = getenv("FAULTS_ONLY");
	unsigned int n, steps = 0, failures = 0, more = 0, pass, from;

	/*
	 * FAULTS_ONLY=TEXT[,TEXT...]: only the operations whose name has one
	 * of the TEXTs (a narrowed run); the others run once, uninjected
	 */
	if (only && !name_has_one_of(op->name, only)) {
		int err;

		check_doing("%s, uninjected (FAULTS_ONLY)", op->name);
		if (op->prepare)
			op->prepare(op);
		err = op->run(op);
		if (err)
			FAIL("%s: %s", op->name, strerror(err));
		op->done(op);
		op_ran(op);
		return 0;
	}

	log_check(op->name, 0);
	memset(&points, 0, sizeof(points));
	site_arm(true);
	loop_pass = 1;
	for (n = 1; n <= MAX_POINTS && fault_step(op, n, &failures); n++)
		;
	if (n > MAX_POINTS)
		FAIL("%s: more than %u steps", op->name, MAX_POINTS);
	steps = n - 1;
	for (pass = 2; pass <= MAX_PASSES && points_missing(op->name, &from);
	     pass++) {
		/* the whole loop again if starting near the point did not do */
		if (pass > 2)
			from = 1;
		check_note("%s: pass %u from step %u: %u listed failure points not hit yet",
			   op->name, pass, from, points_missing(op->name, &n));
		op->undo(op);
		loop_pass = pass;
		for (n = from; n <= MAX_POINTS; n++) {
			if (!fault_step(op, n, &more))
				break;
			if (!points_missing(op->name, &from)) {
				fault_step(op, 0, &more);
				break;
			}
		}
	}
	site_arm(false);
	op_ran(op);
	points_check(op->name, steps, pass - 1);
	check_note("%s: %u steps, %u of them failed it", op->name, steps,
		   failures);
	return steps;
}

/* the errno an injected allocation failure gives */
static void expect_enomem(struct op *op, int err)
{
	if (err != ENOMEM)
		FAIL("%s: %s, want ENOMEM", op->name, strerror(err));
}

static int write_fd(int fd, const char *text)
{
	ssize_t len = write(fd, text, strlen(text));

	return len < 0 ? errno : len == (ssize_t)strlen(text) ? 0 : EIO;
}

static bool module_loaded(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return path_exists(path);
}

static const char *sys_path(const char *bus, const char *what,
			    const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "/sys/bus/%s/%s/%s", bus, what, name);
	return path;
}

/* the name of @dev's driver, "" if none */
static const char *driver_of(const char *bus, const char *dev)
{
	static char link[256];
	char path[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/%s/devices/%s/driver", bus, dev);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return "";
	link[n] = 0;
	return strrchr(link, '/') + 1;
}

static void must_bind(const char *bus, const char *driver, const char *dev)
{
	char path[256];
	int err;

	if (!strcmp(bus, "pci") && !strcmp(driver, "iio_pci_generic")) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/driver_override", dev);
		EXPECT_EQ(write_text(path, driver), 0);
	}
	snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/bind", bus, driver);
	err = write_text(path, dev);
	if (err)
		FAIL("bind %s to %s: %s", dev, driver, strerror(err));
}

static void must_unbind(const char *bus, const char *driver, const char *dev)
{
	char path[256];
	int err;

	snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/unbind", bus, driver);
	err = write_text(path, dev);
	if (err)
		FAIL("unbind %s from %s: %s", dev, driver, strerror(err));
}

/* PCI device @dev's driver_override ("\n" clears it) */
static void override(const char *dev, const char *driver)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver_override",
		 dev);
	EXPECT_EQ(write_text(path, driver), 0);
}

/* leave @dev to no driver, as qemu/init does for the free ones */
static void release(const char *bus, const char *dev)
{
	const char *driver = driver_of(bus, dev);
	char path[256];

	if (*driver) {
		char copy[64];

		snprintf(copy, sizeof(copy), "%s", driver);
		must_unbind(bus, copy, dev);
	}
	if (!strcmp(bus, "pci")) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/driver_override", dev);
		EXPECT_EQ(write_text(path, "none"), 0);
	}
}

/*
 * A stub loaded with parameters of a case's own (not the boot's) is
 * marked by a file of that name: cases run in processes of their own, so
 * only a file outlives the case for boot_state() to read.
 */
static const char *params_mark(const char *module)
{
	static char path[128];

	snprintf(path, sizeof(path), "/tmp/test_faults.params.%s", module);
	return path;
}

static void must_load(const char *module, const char *params)
{
	int err = module_load(module, params);

	if (err)
		FAIL("insmod %s %s: %s", module, params, strerror(err));
	if (!*params)
		unlink(params_mark(module));
	else
		close(MUST(open(params_mark(module),
				O_WRONLY | O_CREAT | O_CLOEXEC, 0644)));
}

static void must_unload(const char *module)
{
	int err = module_unload(module);

	if (err && err != ENOENT)
		FAIL("rmmod %s: %s", module, strerror(err));
}

/* @module reloaded with @params */
static void reload(const char *module, const char *params)
{
	must_unload(module);
	must_load(module, params);
}

/* wait up to 5 s for an event on @efd after @before, its count */
static uint32_t wait_event(int efd, uint32_t before)
{
	struct pollfd pfd = { .fd = efd, .events = POLLIN };
	uint32_t count;

	if (poll(&pfd, 1, 5000) != 1)
		FAIL("no event within 5 s");
	count = event_read(efd);
	EXPECT(count > before);
	return count;
}

/* ---- the devices work ---- */

/* a dummy: its out window reads back what was written, an event arrives */
static void dummy_works(int nr)
{
	unsigned long out = read_num(iio_attr_path(nr, "write_offset"));
	uint64_t v = 0x1122334455667788ULL, got = 0;
	int fd = MUST(open(iio_node(nr, ""), O_RDWR));
	int efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	uint32_t one = 1;

	EXPECT_EQ(pwrite(fd, &v, 8, out), 8);
	EXPECT_EQ(pread(fd, &got, 8, out), 8);
	EXPECT_EQ(got, v);
	EXPECT_EQ(write(efd, &one, 4), 4);
	wait_event(efd, 0);
	close(efd);
	close(fd);
}

/* an edu's BAR0 as iio device @nr: its id, its liveness register */
static void edu_regs_work(int nr)
{
	int fd = MUST(open(iio_node(nr, ""), O_RDWR));
	uint32_t v = 0x5a5a0f0f, got = 0;

	EXPECT_EQ(pread(fd, &got, 4, EDU_ID), 4);
	EXPECT_EQ(got & 0xffff, 0xed);
	EXPECT_EQ(pwrite(fd, &v, 4, EDU_LIVENESS), 4);
	EXPECT_EQ(pread(fd, &got, 4, EDU_LIVENESS), 4);
	EXPECT_EQ(got, ~v);
	close(fd);
}

/* iio_edu's edu: registers, and an interrupt raised through event_write */
static void edu_works(const char *pci)
{
	int nr = iio_find_by_parent(pci), efd;
	uint32_t raise = 0x1;

	if (nr < 0)
		FAIL("no iio device of %s", pci);
	edu_regs_work(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	EXPECT_EQ(write(efd, &raise, 4), 4);
	wait_event(efd, 0);
	close(efd);
}

/* iio_pcitest's pci-testdev: its port region reads */
static void testdev_works(const char *pci)
{
	int nr = iio_find_by_parent(pci), fd;
	uint32_t v;

	if (nr < 0)
		FAIL("no iio device of %s", pci);
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_EQ(pread(fd, &v, 4, 4), 4);
	close(fd);
}

/*
 * iio_pci_generic's device: every BAR's device exists and reads; an edu
 * interrupts (INTx or MSI, unmasked by event_write); an NVMe controller's
 * vectors each have an event node.
 */
static void generic_works(const char *pci)
{
	int nr = pci_bar_nr(pci, 0), fd, efd, k;
	unsigned int vectors;
	uint32_t v = 0, one = 1;

	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_EQ(pread(fd, &v, 4, 0), 4);
	close(fd);
	vectors = read_num(iio_attr_path(nr, "vectors"));
	for (k = 1; k < (int)vectors; k++) {
		char suffix[32];

		snprintf(suffix, sizeof(suffix), "_event%d", k);
		close(MUST(open(iio_node(nr, suffix), O_RDONLY)));
	}
	if (strcmp(pci, EDU_FREE))
		return;
	edu_regs_work(nr);
	efd = MUST(open(iio_node(nr, "_event"), O_RDWR));
	fd = MUST(open(iio_node(nr, ""), O_RDWR));
	EXPECT_EQ(write(efd, &one, 4), 4);	/* unmask */
	EXPECT_EQ(pwrite(fd, &one, 4, EDU_IRQ_RAISE), 4);
	wait_event(efd, 0);
	EXPECT_EQ(pread(fd, &v, 4, EDU_IRQ_STATUS), 4);
	EXPECT_EQ(pwrite(fd, &v, 4, EDU_IRQ_ACK), 4);
	close(fd);
	close(efd);
}

/* @dev, bound to @driver, works */
static void device_works(const char *driver, const char *dev)
{
	if (!strcmp(driver, "iio_user_dummy"))
		dummy_works(dummy_nr(0));
	else if (!strcmp(driver, "iio_edu"))
		edu_works(dev);
	else if (!strcmp(driver, "iio_pcitest"))
		testdev_works(dev);
	else
		generic_works(dev);
}

/* @dev has no driver and no iio device */
static void expect_unbound(struct op *op, const char *bus, const char *dev)
{
	if (*driver_of(bus, dev))
		FAIL("%s: %s is still bound to %s", op->name, dev,
		     driver_of(bus, dev));
	if (iio_find_by_parent(dev) >= 0)
		FAIL("%s: %s still has iio device %d", op->name, dev,
		     iio_find_by_parent(dev));
}

/* ---- insmod ---- */

struct module_devs {
	const char *module, *bus;
	const char *devs[3];
};

/* the devices each module takes when it loads (the others are "none") */
static const struct module_devs module_devs[] = {
	{ "iio", NULL, { NULL } },
	{ "iio_user_dummy", "platform", { DUMMY0, NULL } },
	{ "iio_edu", "pci", { EDU0, EDU1, NULL } },
	{ "iio_pcitest", "pci", { TESTDEV0, NULL } },
	{ "iio_pci_generic", "pci", { NULL } },
};

/*
 * Whether a load binds the module's devices.  iio_edu's and iio_pcitest's
 * loads are injected with their devices held back (driver_override
 * "none"): their probes are the bind operations' (the driver core ignores
 * a probe's failure at load), twice over at a load, and the loop's cost is
 * per failure point.
 */
static bool load_binds = true;
static const struct module_devs no_devs = { NULL, NULL, { NULL } };

static const struct module_devs *devs_of(const char *module)
{
	size_t i;

	if (!load_binds)
		return &no_devs;

	for (i = 0; i < sizeof(module_devs) / sizeof(module_devs[0]); i++)
		if (!strcmp(module_devs[i].module, module))
			return &module_devs[i];
	FAIL("no module %s", module);
}

/*
 * A load's steps count from the first allocation of its module's init
 * call on (from_ours): the module loader's hundreds before it fail the
 * load before any code of ours runs.  Every run until 2026-12-05 failed
 * each of them too, with the same checks (about 1,400 steps of the five
 * loads' 2,000): nothing of ours on their paths, and nothing found.
 */
static void insmod_prepare(struct op *op)
{
	char path[128];

	snprintf(path, sizeof(path), MODDIR "/%s.ko", op->module);
	op->fd = MUST(open(path, O_RDONLY | O_CLOEXEC));
	site_from_ours(true);
}

static char insmod_args[1024];

static int insmod_run(struct op *op)
{
	return syscall(SYS_finit_module, op->fd, insmod_args, 0) ? errno : 0;
}

static void insmod_failed(struct op *op, int err)
{
	const struct module_devs *md = devs_of(op->module);
	int i;

	close(op->fd);
	/*
	 * A dummy whose probe failed fails the load with ENODEV (iio_user_dummy(4)).
	 * EINVAL: 6.1's platform_device_add() ignores dev_set_name()'s
	 * failure, and device_add() refuses the nameless device (the driver
	 * core's, not ours: checked on iio_user_dummy only, where it happens).
	 */
	if (err != ENOMEM && !(!strcmp(op->module, "iio_user_dummy") &&
			       (err == ENODEV || err == EINVAL)))
		FAIL("%s: %s, want ENOMEM", op->name, strerror(err));
	if (module_loaded(op->module))
		FAIL("%s: failed (%s) but the module is loaded", op->name,
		     strerror(err));
	for (i = 0; md->devs[i]; i++)
		expect_unbound(op, md->bus, md->devs[i]);
	if (!strcmp(op->module, "iio_user_dummy") &&
	    path_exists("/sys/bus/platform/devices/" DUMMY0))
		FAIL("%s: failed but " DUMMY0 " is left", op->name);
}

/*
 * Loaded: each device it takes works; one whose probe failed (injected:
 * the load itself succeeds, as for any PCI driver) is left without a
 * driver, and binding it by hand then works.
 */
static void insmod_done(struct op *op)
{
	const struct module_devs *md = devs_of(op->module);
	int i;

	close(op->fd);
	EXPECT(module_loaded(op->module));
	if (!strcmp(op->module, "iio"))
		EXPECT_STREQ(read_text("/sys/class/iio/version"), "1.1");
	for (i = 0; md->devs[i]; i++) {
		const char *driver = driver_of(md->bus, md->devs[i]);

		if (!*driver) {
			expect_unbound(op, md->bus, md->devs[i]);
			must_bind(md->bus, op->module, md->devs[i]);
		} else {
			EXPECT_STREQ(driver, op->module);
		}
		device_works(op->module, md->devs[i]);
	}
}

static void insmod_undo(struct op *op)
{
	must_unload(op->module);
}

static void insmod_op(const char *module, const char *params)
{
	char name[128];
	struct op op = {
		.name = name, .module = module, .params = params,
		.prepare = insmod_prepare, .run = insmod_run,
		.failed = insmod_failed, .done = insmod_done,
		.undo = insmod_undo,
	};

	snprintf(name, sizeof(name), "insmod %s%s%s", module,
		 *params ? " " : "", params);
	/* the boot's parameters (as qemu/init loads it), then @params */
	insmod_args[0] = 0;
	{
		char cmdline[4096], prefix[64];
		size_t plen, len = 0;
		int fd = MUST(open("/proc/cmdline", O_RDONLY));
		ssize_t n = read(fd, cmdline, sizeof(cmdline) - 1);

		close(fd);
		cmdline[n > 0 ? n : 0] = 0;
		snprintf(prefix, sizeof(prefix), "%s.", module);
		plen = strlen(prefix);
		for (char *tok = strtok(cmdline, " \n"); tok;
		     tok = strtok(NULL, " \n"))
			if (!strncmp(tok, prefix, plen) && strchr(tok, '='))
				len += snprintf(insmod_args + len,
						sizeof(insmod_args) - len,
						"%s ", tok + plen);
		snprintf(insmod_args + len, sizeof(insmod_args) - len, "%s",
			 params);
	}
	fault_loop(&op);
	site_from_ours(false);
}

/* ---- rmmod ---- */

static int rmmod_run(struct op *op)
{
	return syscall(SYS_delete_module, op->module, O_NONBLOCK) ? errno : 0;
}

static void rmmod_failed(struct op *op, int err)
{
	expect_enomem(op, err);
	EXPECT(module_loaded(op->module));
	insmod_done(op);	/* still there, and works */
}

static void rmmod_done(struct op *op)
{
	const struct module_devs *md = devs_of(op->module);
	int i;

	EXPECT(!module_loaded(op->module));
	for (i = 0; md->devs[i]; i++)
		expect_unbound(op, md->bus, md->devs[i]);
	if (!strcmp(op->module, "iio_user_dummy"))
		EXPECT(!path_exists("/sys/bus/platform/devices/" DUMMY0));
}

static void rmmod_undo(struct op *op)
{
	must_load(op->module, op->params);
	op->fd = -1;
	insmod_done(op);
}

static void rmmod_op(const char *module, const char *params)
{
	char name[128];
	struct op op = {
		.name = name, .module = module, .params = params,
		.run = rmmod_run, .failed = rmmod_failed, .done = rmmod_done,
		.undo = rmmod_undo,
	};

	snprintf(name, sizeof(name), "rmmod %s", module);
	fault_loop(&op);
}

/* ---- bind and unbind ---- */

static void bind_prepare(struct op *op)
{
	op->fd = MUST(open(sys_path(op->bus, "drivers", op->driver) /* dir */,
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	{
		int dfd = op->fd;

		op->fd = MUST(openat(dfd, "bind", O_WRONLY | O_CLOEXEC));
		close(dfd);
	}
}

static int bind_run(struct op *op)
{
	return write_fd(op->fd, op->dev);
}

static void bind_failed(struct op *op, int err)
{
	close(op->fd);
	/*
	 * EBUSY: the PCI core's __pci_request_region() turns a failed
	 * allocation in __request_region() into EBUSY, "can't reserve" (the
	 * same as a region taken by another driver)
	 */
	if (err == EBUSY && step_logged("can't reserve"))
		;
	/*
	 * ENOSPC: the MSI core's msi_handle_pci_fail() turns every failure
	 * of the interrupt domain's allocation (alloc_desc()'s, say) into
	 * ENOSPC, as if the vectors were all taken (a stub asked for MSI)
	 */
	else if (err == ENOSPC && op->params && strstr(op->params, "msi"))
		;
	else
		expect_enomem(op, err);
	expect_unbound(op, op->bus, op->dev);
}

static void bind_done(struct op *op)
{
	close(op->fd);
	EXPECT_STREQ(driver_of(op->bus, op->dev), op->driver);
	device_works(op->driver, op->dev);
}

static void bind_undo(struct op *op)
{
	must_unbind(op->bus, op->driver, op->dev);
}

/*
 * Binds @driver (loaded with @params, or as it is for NULL) to @dev,
 * failing each allocation of the probe in turn.  Leaves it bound.
 */
static void bind_op(const char *bus, const char *driver, const char *params,
		    const char *dev)
{
	char name[128];
	struct op op = {
		.name = name, .bus = bus, .driver = driver, .dev = dev,
		.params = params,
		.prepare = bind_prepare, .run = bind_run,
		.failed = bind_failed, .done = bind_done, .undo = bind_undo,
	};

	snprintf(name, sizeof(name), "bind %s%s%s to %s", driver,
		 params && *params ? " " : "", params ? params : "", dev);
	if (params)
		reload(driver, params);
	if (*driver_of(bus, dev))
		must_unbind(bus, driver_of(bus, dev), dev);
	if (!strcmp(driver, "iio_pci_generic")) {
		char path[256];

		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/driver_override", dev);
		EXPECT_EQ(write_text(path, driver), 0);
	}
	fault_loop(&op);
}

static void unbind_prepare(struct op *op)
{
	if (!*driver_of(op->bus, op->dev))
		must_bind(op->bus, op->driver, op->dev);
	op->fd = MUST(open(sys_path(op->bus, "drivers", op->driver),
			   O_RDONLY | O_DIRECTORY | O_CLOEXEC));
	{
		int dfd = op->fd;

		op->fd = MUST(openat(dfd, "unbind", O_WRONLY | O_CLOEXEC));
		close(dfd);
	}
}

static void unbind_failed(struct op *op, int err)
{
	/* sysfs's buffer for the write: the device stays bound */
	close(op->fd);
	expect_enomem(op, err);
	bind_done(op);
}

static void unbind_done(struct op *op)
{
	close(op->fd);
	expect_unbound(op, op->bus, op->dev);
}

static void unbind_undo(struct op *op)
{
	must_bind(op->bus, op->driver, op->dev);
	device_works(op->driver, op->dev);
}

/* Unbinds @driver from @dev (bound), each allocation failed in turn. */
static void unbind_op(const char *bus, const char *driver, const char *dev)
{
	char name[128];
	struct op op = {
		.name = name, .bus = bus, .driver = driver, .dev = dev,
		.prepare = unbind_prepare, .run = bind_run,
		.failed = unbind_failed, .done = unbind_done,
		.undo = unbind_undo,
	};

	snprintf(name, sizeof(name), "unbind %s from %s", dev, driver);
	fault_loop(&op);
}

/* ---- open, mmap, event write, dma_request ---- */

static int open_run(struct op *op)
{
	op->fd = open(op->path, op->flags | O_CLOEXEC);
	return op->fd < 0 ? errno : 0;
}

/* nothing left: the device's listener count is back where it was */
static void open_failed(struct op *op, int err)
{
	expect_enomem(op, err);
	EXPECT_EQ(read_num(iio_attr_path(op->nr, "listener")), op->before);
}

static void open_prepare(struct op *op)
{
	op->before = read_num(iio_attr_path(op->nr, "listener"));
}

/* the file works: a region reads, an event file gets an event */
static void open_done(struct op *op)
{
	char byte;

	if (strstr(op->path, "_event")) {
		if (!strcmp(op->driver, "iio_user_dummy")) {
			uint32_t one = 1;

			EXPECT_EQ(write(op->fd, &one, 4), 4);
			wait_event(op->fd, 0);
		}
	} else {
		EXPECT_EQ(pread(op->fd, &byte, 1, 0), 1);
	}
	close(op->fd);
	EXPECT_EQ(read_num(iio_attr_path(op->nr, "listener")), op->before);
}

static void nothing(struct op *op)
{
	(void)op;
}

static void open_op(const char *driver, int nr, const char *path, int flags)
{
	char name[256];
	struct op op = {
		.name = name, .driver = driver, .nr = nr, .path = path,
		.flags = flags, .prepare = open_prepare, .run = open_run,
		.failed = open_failed, .done = open_done, .undo = nothing,
	};

	snprintf(name, sizeof(name), "open %s (%s)", numberless(path), driver);
	fault_loop(&op);
}

static void mmap_prepare(struct op *op)
{
	op->fd = MUST(open(op->path, O_RDWR | O_CLOEXEC));
}

static int mmap_run(struct op *op)
{
	op->map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, op->fd,
		       0);
	return op->map == MAP_FAILED ? errno : 0;
}

static void mmap_failed(struct op *op, int err)
{
	close(op->fd);
	expect_enomem(op, err);
}

/* the mapping reads and writes (as the file does) */
static void mmap_done(struct op *op)
{
	volatile uint32_t *p = op->map;
	uint32_t v = 0, got = 0;
	int off = !strcmp(op->driver, "iio_edu") ? EDU_LIVENESS : 64;

	if (!strcmp(op->driver, "iio_edu")) {
		p[off / 4] = 0x12345678;
		EXPECT_EQ(p[off / 4], ~0x12345678U);
	} else {
		p[off / 4] = 0x12345678;
		EXPECT_EQ(pread(op->fd, &got, 4, off), 4);
		EXPECT_EQ(got, 0x12345678);
		v = p[off / 4];
		EXPECT_EQ(v, 0x12345678);
	}
	munmap(op->map, 4096);
	close(op->fd);
}

static void mmap_op(const char *driver, const char *path)
{
	char name[256];
	struct op op = {
		.name = name, .driver = driver, .path = path,
		.prepare = mmap_prepare, .run = mmap_run,
		.failed = mmap_failed, .done = mmap_done, .undo = nothing,
	};

	snprintf(name, sizeof(name), "mmap %s (%s)", numberless(path), driver);
	fault_loop(&op);
}

/* ---- the cases ---- */

static const char *const stubs[] = {
	"iio_user_dummy", "iio_edu", "iio_pcitest", "iio_pci_generic",
};
#define NSTUBS (sizeof(stubs) / sizeof(stubs[0]))

/* the devices qemu/init leaves without a driver (driver_override "none") */
static const char *const free_devs[] = { EDU_FREE, TESTDEV_FREE, NVME };

/* @dev bound to @driver, whatever it was bound to before */
static void bound_to(const char *bus, const char *driver, const char *dev)
{
	char was[64];

	snprintf(was, sizeof(was), "%s", driver_of(bus, dev));
	if (!strcmp(was, driver))
		return;
	if (*was)
		must_unbind(bus, was, dev);
	must_bind(bus, driver, dev);
}

/*
 * The state qemu/init leaves, which the next case starts from: every
 * module loaded with the boot's parameters, the stubs' own devices bound
 * to them, the free ones to none.  Only what differs is put back (a
 * stub's reload costs seconds under the debug kernel with kmemleak on:
 * reloading all four after each case cost minutes a run): a stub not
 * loaded, or loaded with parameters of a case's own (params_mark()), is
 * loaded afresh; a device on no driver or another is bound again.
 */
static void boot_state(void)
{
	static const char *const held[] = { EDU0, EDU1, TESTDEV0 };
	size_t i;

	check_doing("restoring the boot's state (modules and drivers)");
	/*
	 * module_load_and_unload holds the stubs' own devices back
	 * (driver_override "none") while it loads their module: killed
	 * there at its limit, it leaves them so, and no load would bind them
	 */
	for (i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		override(held[i], "\n");
	for (i = 0; i < sizeof(free_devs) / sizeof(free_devs[0]); i++)
		release("pci", free_devs[i]);
	if (!module_loaded("iio"))
		must_load("iio", "");
	for (i = 0; i < NSTUBS; i++)
		if (!module_loaded(stubs[i]) ||
		    path_exists(params_mark(stubs[i])))
			reload(stubs[i], "");
	/* its platform device comes and goes with the module */
	if (!path_exists("/sys/bus/platform/devices/" DUMMY0))
		reload("iio_user_dummy", "");
	bound_to("platform", "iio_user_dummy", DUMMY0);
	bound_to("pci", "iio_edu", EDU0);
	bound_to("pci", "iio_edu", EDU1);
	bound_to("pci", "iio_pcitest", TESTDEV0);
}

/*
 * The end of each case: the boot's state put back for the next case, and
 * no leak of the case's operations (one kmemleak scan for them all, once
 * their last objects are 5 s old: boot_state() runs meanwhile).
 */
static void case_end(const char *name)
{
	unsigned long long ready = now_ms() + 5500;

	boot_state();
	leaks_check(name, ready);
}

/* insmod of iio.ko and of each stub, then rmmod of each */
static void module_load_and_unload(void)
{
	size_t i;

	fault_setup();
	for (i = 0; i < sizeof(free_devs) / sizeof(free_devs[0]); i++)
		release("pci", free_devs[i]);
	for (i = 0; i < NSTUBS; i++)
		must_unload(stubs[i]);
	must_unload("iio");
	insmod_op("iio", "");
	insmod_op("iio_user_dummy", "");
	for (i = 1; i < NSTUBS; i++) {
		const struct module_devs *md = devs_of(stubs[i]);
		int d;

		for (d = 0; md->devs[d]; d++)
			override(md->devs[d], "none");
		load_binds = false;
		insmod_op(stubs[i], "");
		load_binds = true;
		for (d = 0; md->devs[d]; d++) {
			override(md->devs[d], "\n");
			must_bind("pci", stubs[i], md->devs[d]);
			device_works(stubs[i], md->devs[d]);
		}
	}
	for (i = 0; i < NSTUBS; i++)
		rmmod_op(stubs[i], "");
	rmmod_op("iio", "");
	must_load("iio", "");
	case_end("module_load_and_unload");
}

/* whether every module and device is as qemu/init leaves them */
static bool in_boot_state(void)
{
	char path[256];
	size_t i;

	if (!module_loaded("iio"))
		return false;
	for (i = 0; i < NSTUBS; i++)
		if (!module_loaded(stubs[i]) ||
		    path_exists(params_mark(stubs[i])))
			return false;
	for (i = 0; i < sizeof(free_devs) / sizeof(free_devs[0]); i++) {
		snprintf(path, sizeof(path),
			 "/sys/bus/pci/devices/%s/driver_override", free_devs[i]);
		if (*driver_of("pci", free_devs[i]) ||
		    strcmp(read_text(path), "none"))
			return false;
	}
	return !strcmp(driver_of("pci", EDU0), "iio_edu") &&
	       !strcmp(driver_of("pci", EDU1), "iio_edu") &&
	       !strcmp(driver_of("pci", TESTDEV0), "iio_pcitest") &&
	       !strcmp(driver_of("platform", DUMMY0), "iio_user_dummy");
}

/*
 * The head of each bind case: the state qemu/init leaves, put back if a
 * case before was killed at its time limit in the middle of a step (each
 * case ends with case_end(); "the two cases after it failed for the
 * state it left" when the binds were one case that timed out).
 */
static void bind_case_start(void)
{
	fault_setup();
	if (in_boot_state())
		return;
	check_note("not in the boot's state (a case before failed?): restoring it");
	boot_state();
}

/*
 * Bind of each stub to each kind of device it drives, then unbind: one
 * case per stub and device (and interrupt kind), each with a limit of
 * its own.  Together they were one case of 1,500 s, which two runs at a
 * load of 11 to 14 overran (binds needing 4 or 5 passes), leaving the
 * state the cases after it failed on.  The limits: about three times
 * what a case took at a load of 10 to 16 (tests/README.md).
 */
static void bind_dummy(void)
{
	bind_case_start();
	bind_op("platform", "iio_user_dummy", "freq=0", DUMMY0);
	unbind_op("platform", "iio_user_dummy", DUMMY0);
	case_end("bind_dummy");
}

static void bind_edu_intx(void)
{
	bind_case_start();
	bind_op("pci", "iio_edu", "", EDU0);
	unbind_op("pci", "iio_edu", EDU0);
	case_end("bind_edu_intx");
}

static void bind_edu_msi(void)
{
	bind_case_start();
	bind_op("pci", "iio_edu", "msi=1", EDU0);
	unbind_op("pci", "iio_edu", EDU0);
	case_end("bind_edu_msi");
}

static void bind_pcitest(void)
{
	bind_case_start();
	bind_op("pci", "iio_pcitest", "", TESTDEV0);
	unbind_op("pci", "iio_pcitest", TESTDEV0);
	case_end("bind_pcitest");
}

/* iio_pci_generic: INTx, MSI, MSI-X vectors (the vector setup), I/O ports */
static void bind_generic_edu_intx(void)
{
	bind_case_start();
	bind_op("pci", "iio_pci_generic", "", EDU_FREE);
	unbind_op("pci", "iio_pci_generic", EDU_FREE);
	case_end("bind_generic_edu_intx");
}

static void bind_generic_edu_msi(void)
{
	bind_case_start();
	bind_op("pci", "iio_pci_generic", "msi=1", EDU_FREE);
	unbind_op("pci", "iio_pci_generic", EDU_FREE);
	case_end("bind_generic_edu_msi");
}

static void bind_generic_nvme_msix(void)
{
	bind_case_start();
	bind_op("pci", "iio_pci_generic", "vectors=4", NVME);
	unbind_op("pci", "iio_pci_generic", NVME);
	case_end("bind_generic_nvme_msix");
}

static void bind_generic_testdev_ports(void)
{
	bind_case_start();
	bind_op("pci", "iio_pci_generic", "", TESTDEV_FREE);
	unbind_op("pci", "iio_pci_generic", TESTDEV_FREE);
	case_end("bind_generic_testdev_ports");
}

static char paths[16][64];

static const char *node_path(int slot, int nr, const char *suffix)
{
	snprintf(paths[slot], sizeof(paths[slot]), "/dev/iio%d%s", nr, suffix);
	return paths[slot];
}

/* open of every kind of node, and mmap of each kind of region */
static void open_and_mmap(void)
{
	int dummy, edu, nvme;
	char dma[128];

	fault_setup();
	reload("iio_user_dummy", "freq=0");
	dummy = dummy_nr(0);
	edu = iio_find_by_parent(EDU0);
	EXPECT(edu >= 0);
	open_op("iio_user_dummy", dummy, node_path(0, dummy, ""), O_RDWR);
	open_op("iio_user_dummy", dummy, node_path(1, dummy, "_in"), O_RDONLY);
	open_op("iio_user_dummy", dummy, node_path(2, dummy, "_out"), O_RDWR);
	open_op("iio_user_dummy", dummy, node_path(3, dummy, "_event"), O_RDWR);
	open_op("iio_edu", edu, node_path(4, edu, ""), O_RDWR);
	open_op("iio_edu", edu, node_path(5, edu, "_event"), O_RDONLY);
	snprintf(dma, sizeof(dma), "/sys/class/iio/iio%d/dma0/buffer", edu);
	open_op("iio_edu", edu, dma, O_RDWR);
	mmap_op("iio_user_dummy", node_path(6, dummy, ""));
	mmap_op("iio_edu", node_path(7, edu, ""));
	mmap_op("iio_dma", dma);

	/* a vector's node */
	reload("iio_pci_generic", "vectors=4");
	must_bind("pci", "iio_pci_generic", NVME);
	nvme = pci_bar_nr(NVME, 0);
	open_op("iio_pci_generic", nvme, node_path(8, nvme, ""), O_RDWR);
	open_op("iio_pci_generic", nvme, node_path(9, nvme, "_event2"),
		O_RDONLY);
	case_end("open_and_mmap");
}

/* ---- dma_request and event writes ---- */

static void dma_request_prepare(struct op *op)
{
	op->fd = MUST(open(iio_attr_path(op->nr, "dma_request"),
			   O_WRONLY | O_CLOEXEC));
}

static int dma_request_run(struct op *op)
{
	return write_fd(op->fd, "8192");
}

static void dma_request_failed(struct op *op, int err)
{
	close(op->fd);
	expect_enomem(op, err);
	EXPECT(!path_exists(iio_attr_path(op->nr, "dma0")));
}

/* the new buffer, dma0, maps and keeps what is written */
static void dma_request_done(struct op *op)
{
	char path[128];
	volatile uint32_t *p;
	int fd;

	close(op->fd);
	snprintf(path, sizeof(path), "%s/buffer", iio_attr_path(op->nr, "dma0"));
	fd = MUST(open(path, O_RDWR));
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT(p != MAP_FAILED);
	p[1024] = 0xabcdef01;
	EXPECT_EQ(p[1024], 0xabcdef01);
	munmap((void *)p, 8192);
	close(fd);
}

/* a buffer, once added, stays until unbind: unbind and bind again */
static void dma_request_undo(struct op *op)
{
	must_unbind("pci", "iio_pci_generic", op->dev);
	must_bind("pci", "iio_pci_generic", op->dev);
	op->nr = pci_bar_nr(op->dev, 0);
}

static void event_prepare(struct op *op)
{
	op->fd = MUST(open(iio_node(op->nr, "_event"), O_RDWR | O_CLOEXEC));
}

static int event_run(struct op *op)
{
	uint32_t one = 1;
	ssize_t n = write(op->fd, &one, 4);

	return n < 0 ? errno : n == 4 ? 0 : EIO;
}

static void event_failed(struct op *op, int err)
{
	close(op->fd);
	expect_enomem(op, err);
}

/* the write's event arrives (the dummy's, edu's raise) */
static void event_done(struct op *op)
{
	wait_event(op->fd, 0);
	close(op->fd);
}

static void event_op(const char *driver, int nr)
{
	char name[128];
	struct op op = {
		.name = name, .driver = driver, .nr = nr,
		.prepare = event_prepare, .run = event_run,
		.failed = event_failed, .done = event_done, .undo = nothing,
	};

	snprintf(name, sizeof(name), "event write to iioN (%s)", driver);
	fault_loop(&op);
}

static void dma_request_and_event_write(void)
{
	struct op op = {
		.name = "dma_request 8192 (iio_pci_generic " EDU_FREE ")",
		.dev = EDU_FREE,
		.prepare = dma_request_prepare, .run = dma_request_run,
		.failed = dma_request_failed, .done = dma_request_done,
		.undo = dma_request_undo,
	};

	fault_setup();
	reload("iio_user_dummy", "freq=0");
	event_op("iio_user_dummy", dummy_nr(0));
	event_op("iio_edu", iio_find_by_parent(EDU0));

	reload("iio_pci_generic", "dma_max=65536");
	must_bind("pci", "iio_pci_generic", EDU_FREE);
	op.nr = pci_bar_nr(EDU_FREE, 0);
	fault_loop(&op);
	case_end("dma_request_and_event_write");
}

/*
 * Last: every operation the list of failure points names ran (its loop,
 * or once uninjected under FAULTS_ONLY), under that name.  An entry whose
 * operation was renamed or dropped would otherwise go unchecked: five
 * did, when the names of opens and event writes had device numbers in
 * them and the order of the reloads between cases changed the numbers.
 */
static void every_listed_operation_ran(void)
{
	static char ran[65536];
	char line[300];
	ssize_t n;
	size_t i;
	int fd;

	fault_setup();		/* a SKIP where the cases before skipped */
	check_doing("reading %s", OPS_RAN);
	fd = open(OPS_RAN, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		FAIL("%s: %s (no operation ran?)", OPS_RAN, strerror(errno));
	n = read(fd, ran + 1, sizeof(ran) - 2);
	EXPECT(n >= 0);
	close(fd);
	ran[0] = '\n';
	ran[n + 1] = 0;
	for (i = 0; i < sizeof(expected_points) / sizeof(expected_points[0]); i++) {
		snprintf(line, sizeof(line), "\n%s\n", expected_points[i].op);
		if (!strstr(ran, line))
			FAIL("the operation \"%s\" of tests/test_faults_points.h did not run",
			     expected_points[i].op);
	}
}

static const struct check_case cases[] = {
	CASE_T(module_load_and_unload, 2700),
	CASE_T(bind_dummy, 500),
	CASE_T(bind_edu_intx, 500),
	CASE_T(bind_edu_msi, 600),
	CASE_T(bind_pcitest, 300),
	CASE_T(bind_generic_edu_intx, 400),
	CASE_T(bind_generic_edu_msi, 500),
	CASE_T(bind_generic_nvme_msix, 900),
	CASE_T(bind_generic_testdev_ports, 500),
	CASE_T(open_and_mmap, 600),
	CASE_T(dma_request_and_event_write, 600),
	CASE(every_listed_operation_ran),
};

CHECK_MAIN(cases)
