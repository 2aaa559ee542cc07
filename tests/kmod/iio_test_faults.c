// SPDX-License-Identifier: GPL-2.0-only
/*
 * iio_test_faults.c - a test-only stub: where each injected allocation
 * failure landed (tests/test_faults)
 *
 * /proc/thread-self/fail-nth fails the n-th slab or page allocation of a
 * task.  The kernel's own line for it ("FAULT_INJECTION: forcing a
 * failure", and the stack at verbose 2) is left out for an allocation
 * made with __GFP_NOWARN, as dma_alloc_coherent()'s in iio_dma.c is, so
 * the log cannot say where every failure was.  This module puts a kprobe
 * on should_fail_ex(), which every allocation fail-nth counts goes
 * through, and saves the stack of the call that fail-nth fails (the
 * task's count is 1 on entry: the call takes it to 0 and fails), whatever
 * the allocation's flags.  The probe has a post handler, which keeps it
 * from being optimized into a jump: the stack is then unwound through
 * the breakpoint's exception frame, which the ORC unwinder knows.  (On a
 * kernel with function tracing, KPROBES_ON_FTRACE, a probe on a
 * function's first instruction is an ftrace callback instead, entered
 * without the breakpoint's NMI entry: probed_in_task() tells them apart.)
 *
 * Parameters, root only:
 *  armed	write 1 to register the probe, 0 to remove it (the default:
 *		while it is registered every allocation of the machine traps)
 *  site	the stack of the last failure fail-nth injected since it
 *		was cleared: one frame a line (%pB), innermost first, from
 *		the probed call on; empty if none.  Writing anything clears
 *		it.
 *  from_ours	write 1 before an operation to have fail-nth count only from
 *		the first allocation made under a function of our modules
 *		(iio and its stubs) or under a module's init call
 *		(do_one_initcall(): a stub's init may tail-call
 *		pci_register_driver() and leave no frame of its own) on:
 *		the task's allocations before it (the module loader's, for
 *		a load: hundreds, none of which reaches code of ours) leave
 *		its count as it was.  Every allocation after that one
 *		counts, ours or not.  0 (the default): every allocation
 *		counts.
 *
 * The frames are named when the failure is injected, in the probe, not
 * when site is read: by then the module whose init made the call may be
 * gone (its load failed: the module is freed) or its init code freed
 * with the init symbols (its load succeeded: __init functions such as
 * iio_init() are then nameless addresses), so that a load's own failure
 * points would read as the kernel's.  During the load the module's
 * symbols, its init's included, are there, and the lookup (kallsyms and
 * the module tree, a latched RCU tree) is safe from the breakpoint's
 * handler.
 *
 * Without CONFIG_FAULT_INJECTION (Debian's kernels) there is nothing to
 * probe: arming fails with EOPNOTSUPP.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>

#define SITE_DEPTH	48

static DEFINE_MUTEX(armed_lock);
static bool armed;
/*
 * The saved stack, as text (one "%pB" line a frame): written by the
 * failing task itself, in the breakpoint's handler (an NMI: no lock, a
 * lock process context takes too could deadlock there, and lockdep says
 * so), read afterwards (test_faults reads it in the same task once the
 * failed call returned); site_len is stored last (release) and loaded
 * first (acquire).
 */
static char site[PAGE_SIZE];
static unsigned int site_len;
/*
 * from_ours: set by the test's task between its operations, read by the
 * same task in the breakpoint's handler; ours_seen, whether that
 * operation has made an allocation under our code yet, the same.
 */
static bool from_ours, ours_seen;

#ifdef CONFIG_FAULT_INJECTION
/* the modules whose frames are ours (tests/test_faults.c: our_modules) */
static const char *const our_modules[] = {
	"iio", "iio_user_dummy", "iio_edu", "iio_pcitest", "iio_pci_generic",
};

/*
 * Whether one of @n frames is in a module of ours, or is a module's init
 * call: named as the saved site's frames are ("FUNCTION+0xOFF/0xSIZE
 * [MODULE]"; the module tree's lookup is not exported), which finds a
 * module being loaded from its COMING state on, when its init runs.
 */
static bool frames_ours(const unsigned long *entries, unsigned int n)
{
	static const char initcall[] = "do_one_initcall+";
	char frame[KSYM_SYMBOL_LEN];
	unsigned int i, m;
	const char *mod;
	size_t len;

	for (i = 0; i < n; i++) {
		scnprintf(frame, sizeof(frame), "%pB", (void *)entries[i]);
		if (!strncmp(frame, initcall, sizeof(initcall) - 1))
			return true;
		mod = strchr(frame, '[');
		if (!mod)
			continue;
		mod++;
		/* "[MODULE]", or "[MODULE BUILD-ID]" (STACKTRACE_BUILD_ID) */
		len = strcspn(mod, " ]");
		for (m = 0; m < ARRAY_SIZE(our_modules); m++)
			if (strlen(our_modules[m]) == len &&
			    !strncmp(mod, our_modules[m], len))
				return true;
	}
	return false;
}

/*
 * Whether the probed call was made in task context, where fail-nth
 * counts it (should_fail_ex()'s in_task()): a breakpoint's handler has
 * the breakpoint's own NMI entry added to the preempt count
 * (irqentry_nmi_enter()); an ftrace callback's (kprobe_ftrace_handler())
 * only a preempt_disable(), which the masks leave out.  Subtracting the
 * NMI entry there too would wrap, and every call would read as an
 * interrupt's: from_ours would give nothing back.
 */
static bool probed_in_task(struct kprobe *p)
{
	unsigned long count = preempt_count();

	if (!kprobe_ftrace(p))
		count -= NMI_OFFSET + HARDIRQ_OFFSET;
	return !(count & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
}

static int fault_pre(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long entries[SITE_DEPTH];
	unsigned int n, i, len;

	/*
	 * from_ours, before the operation's first allocation under our
	 * code: one the task's count would take is given back to it, so
	 * that should_fail_ex()'s decrement leaves the count as it was
	 */
	if (READ_ONCE(from_ours) && !READ_ONCE(ours_seen) &&
	    READ_ONCE(current->fail_nth) && probed_in_task(p)) {
		n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
		if (frames_ours(entries, n))
			WRITE_ONCE(ours_seen, true);
		else
			WRITE_ONCE(current->fail_nth, current->fail_nth + 1);
	}
	/*
	 * fail-nth fails this call: its count goes from 1 to 0.  Not
	 * in_task(): the breakpoint's handler runs as an NMI.  A call from
	 * an interrupt of the task, which fail-nth skips, may be saved too,
	 * but the failure that follows it is saved over it.
	 */
	if (READ_ONCE(current->fail_nth) != 1)
		return 0;
	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	/* from the probed function on: the breakpoint's frames left out */
	for (i = 0; i < n; i++)
		if (entries[i] >= (unsigned long)p->addr &&
		    entries[i] < (unsigned long)p->addr + 16)
			break;
	if (i == n)
		i = 0;
	WRITE_ONCE(site_len, 0);
	/* named now, while the calling module's symbols exist (see above) */
	for (len = 0; i < n; i++)
		len += scnprintf(site + len, sizeof(site) - len, "%pB\n",
				 (void *)entries[i]);
	/* the text before its length: pairs with site_get()'s acquire */
	smp_store_release(&site_len, len);
	return 0;
}

/* keeps the probe from being optimized (see the head of the file) */
static void fault_post(struct kprobe *p, struct pt_regs *regs,
		       unsigned long flags)
{
}

static struct kprobe fault_probe = {
	.symbol_name = "should_fail_ex",
	.pre_handler = fault_pre,
	.post_handler = fault_post,
};

static int fault_probe_set(bool on)
{
	int ret;

	if (!on) {
		unregister_kprobe(&fault_probe);
		return 0;
	}
	/* a kprobe is registered afresh, never twice from the same state */
	fault_probe.addr = NULL;
	fault_probe.flags = 0;
	ret = register_kprobe(&fault_probe);
	if (ret)
		pr_err("kprobe on should_fail_ex: %d\n", ret);
	return ret;
}
#else
static int fault_probe_set(bool on)
{
	return on ? -EOPNOTSUPP : 0;
}
#endif

static int armed_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	mutex_lock(&armed_lock);
	/*
	 * Not once the module is going: a write between its exit (which
	 * removes the probe, under this lock) and the removal of its
	 * parameters' files would leave a probe whose handlers are freed
	 * with the module.  The state is GOING before the exit runs.
	 */
	if (on && !module_is_live(THIS_MODULE)) {
		ret = -ENODEV;
	} else if (on != armed) {
		ret = fault_probe_set(on);
		if (!ret)
			armed = on;
	}
	mutex_unlock(&armed_lock);
	return ret;
}

static int armed_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%d\n", READ_ONCE(armed));
}

static const struct kernel_param_ops armed_ops = {
	.set = armed_set,
	.get = armed_get,
};
module_param_cb(armed, &armed_ops, NULL, 0600);
MODULE_PARM_DESC(armed, "1: the probe on should_fail_ex() is registered");

static int site_clear(const char *val, const struct kernel_param *kp)
{
	WRITE_ONCE(site_len, 0);
	return 0;
}

static int site_get(char *buffer, const struct kernel_param *kp)
{
	/* the length before the text: pairs with fault_pre()'s release */
	unsigned int len = smp_load_acquire(&site_len);

	memcpy(buffer, site, len);
	return len;
}

static const struct kernel_param_ops site_ops = {
	.set = site_clear,
	.get = site_get,
};
module_param_cb(site, &site_ops, NULL, 0600);
MODULE_PARM_DESC(site, "the stack of the last failure fail-nth injected");

static int from_ours_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	WRITE_ONCE(ours_seen, false);
	WRITE_ONCE(from_ours, on);
	return 0;
}

static int from_ours_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%d\n", READ_ONCE(from_ours));
}

static const struct kernel_param_ops from_ours_ops = {
	.set = from_ours_set,
	.get = from_ours_get,
};
module_param_cb(from_ours, &from_ours_ops, NULL, 0600);
MODULE_PARM_DESC(from_ours, "1: fail-nth counts from the first allocation under our modules on");

static void __exit iio_test_faults_exit(void)
{
	mutex_lock(&armed_lock);
	if (armed)
		fault_probe_set(false);
	armed = false;
	mutex_unlock(&armed_lock);
}
module_exit(iio_test_faults_exit);

MODULE_DESCRIPTION("Test-only: where each injected allocation failure landed");
MODULE_LICENSE("GPL");
