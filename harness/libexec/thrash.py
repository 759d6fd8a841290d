# SPDX-License-Identifier: GPL-2.0
"""The thrash build, host side (called by harness/bin/thrash).

Boots the unpatched and the patched kernel of the ext variant on the
host's Debian root (harness/guest/hostroot.sh), alternating, one boot a
round, and has the guest (harness/guest/ext/thrash-build) build part of
the base's own kernel tree twice: once without limit, then in a memory
cgroup held far below that build's memory, swapping to zram. Reports the
thrash build's times on the guest's instruction clock, its swap counters,
the mTHP sizes swapped out and the zram pool, as a table (stdout), a JSON
file and a PNG plot of the pool over the build.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "lib"))
import guest  # noqa: E402
import insnprof  # noqa: E402
from corpus import add_run_host_py_args, boot_round, fail, pyplot  # noqa: E402

BASE = os.environ.get("ZMP_BASE", "")
BASE_DIR = os.environ.get("ZMP_BASE_DIR", "")
RESULT_PREFIX = "ZMP_THRASH "
POOL_PREFIX = "ZMP_THRASH_POOL "
# four of mm's largest compilation units: cc1 holds 90-130 MiB for each
DEFAULT_TARGETS = "mm/memory.o mm/page_alloc.o mm/vmscan.o mm/slub.o"


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="harness/bin/thrash",
        description="Thrash build: make -j of a kernel directory in a "
                    "memory cgroup far below its memory, swap on zram, "
                    "baseline vs patched kernel, objects verified.")
    ap.add_argument("--algo", choices=("zstd", "lz4"), default="zstd")
    ap.add_argument("--mthp", type=int, nargs="+", default=[16],
                    metavar="KiB", help="mTHP sizes on (default 16)")
    ap.add_argument("--block-size", type=int, default=16, metavar="KiB",
                    help="the patched device's block_size (default 16; 32 "
                    "and 64 boot the patched kernel built with "
                    "CONFIG_ZSMALLOC_MULTI_PAGES_ORDER=4)")
    ap.add_argument("--max-mib", type=int, default=100,
                    help="the build cgroup's memory.max (default 100: half "
                    "of the 200 MiB memory.peak of the default targets' "
                    "build without limit)")
    ap.add_argument("--targets", default=DEFAULT_TARGETS,
                    help="objects of the tinyconfig build of the base's "
                    "tree (default %(default)s)")
    ap.add_argument("--jobs", type=int, default=2, help="make -j (default 2)")
    ap.add_argument("--smp", type=int, default=1,
                    help="guest vCPUs (default 1: each instruction is "
                    "counted once in the CPU times)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds per kernel, one boot each (default 3)")
    ap.add_argument("--timeout", type=int, default=5400,
                    help="seconds one guest may run (default 5400)")
    ap.add_argument("--out", default=os.path.join(guest.WORK, "results", BASE),
                    help="directory for the JSON and PNG (default %(default)s)")
    ap.add_argument("--profile", action="store_true",
                    help="count round 1's guest instructions by kernel "
                    "function, the build alone (harness/host/tbprof.c)")
    add_run_host_py_args(ap)
    a = ap.parse_args(argv)
    if a.rounds < 1 or a.jobs < 1 or a.smp < 1 or a.max_mib < 16:
        ap.error("--rounds, --jobs and --smp must be positive, --max-mib >= 16")
    if a.block_size not in (4, 8, 16, 32, 64):
        ap.error("--block-size: 4, 8, 16, 32 or 64")
    if not a.targets.split() or any(not t.endswith(".o") or t.startswith("/")
                                    or ".." in t for t in a.targets.split()):
        ap.error("--targets: object files of the tree, such as mm/slub.o")
    return a


def prepare_build_dir(a):
    """The tinyconfig build directory of the base's tree, prepared on the
    host (its host tools and generated headers made: the guest copies it
    and builds --targets there), and a reference: the same objects built
    here, with "sums" (their sha256) and "deps" (the tree's files they
    depend on, from their .cmd files). Returns (build dir, reference dir,
    the largest resident size of one compiler job here, KiB)."""
    if not BASE_DIR or not os.path.isdir(BASE_DIR):
        fail("no base tree (ZMP_BASE_DIR; harness/bin/thrash sets it)")
    top = os.path.join(guest.WORK, "thrash", BASE)
    obj = os.path.join(top, "obj")
    make = ["make", "-s", "-C", BASE_DIR, "-j%d" % os.cpu_count()]
    if not os.path.exists(os.path.join(obj, ".zmp-prepared")):
        guest.log("preparing the workload's build directory %s" % obj)
        subprocess.run(["rm", "-rf", obj], check=True)
        for target in ("tinyconfig", "prepare"):
            subprocess.run(make + ["O=" + obj, target], check=True,
                           stdout=subprocess.DEVNULL)
        open(os.path.join(obj, ".zmp-prepared"), "w").close()
    targets = a.targets.split()
    ref = os.path.join(top, "ref-" + "+".join(
        t.replace("/", "_") for t in targets))
    if not os.path.exists(os.path.join(ref, "sums")):
        guest.log("building the workload's objects here, for reference")
        subprocess.run(["rm", "-rf", ref], check=True)
        subprocess.run(["cp", "-a", obj, ref], check=True)
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + make +
                           ["O=" + ref, "-j%d" % a.jobs] + targets,
                           check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        deps = set()
        for t in targets:
            d, name = os.path.split(t)
            with open(os.path.join(ref, d, "." + name + ".cmd")) as f:
                for word in f.read().replace("\\\n", " ").split():
                    if word.startswith(BASE_DIR + "/") and os.path.isfile(word):
                        deps.add(word)
        with open(os.path.join(ref, "deps"), "w") as f:
            f.write("\n".join(sorted(deps)) + "\n")
        with open(os.path.join(ref, "rss_kb"), "w") as f:
            f.write(r.stderr.strip().splitlines()[-1] + "\n")
        sums = subprocess.run(["sha256sum"] + targets, cwd=ref, check=True,
                              capture_output=True, text=True).stdout
        with open(os.path.join(ref, "sums"), "w") as f:
            f.write(sums)
    with open(os.path.join(ref, "rss_kb")) as f:
        rss = int(f.read())
    return obj, ref, rss


def run_round(a, kind, kernel, obj, ref, rnd):
    label = "thrash-%s-r%d" % (kind, rnd)
    # one a run: two thrash runs (of two bases, or two --algo) may overlap
    initrd = os.path.join(guest.WORK, "initramfs-thrash-%d.cpio.gz"
                          % os.getpid())
    conf = {"MODE": "test", "TESTS": "thrash-build", "ROOTFS": "host",
            "TEST_TIMEOUT": a.timeout - 300, "ALGO": a.algo,
            "BLOCK_KB": a.block_size,
            "THRASH_SRC": BASE_DIR, "THRASH_OBJ": obj, "THRASH_REF": ref,
            "THRASH_MAX_MIB": a.max_mib, "THRASH_JOBS": a.jobs,
            "THRASH_TARGETS": a.targets,
            "THRASH_MTHP_KB": " ".join(str(s) for s in a.mthp),
            "THRASH_MARK": int(a.profile and rnd == 1)}
    guest.make_initramfs(initrd, conf, a.src)
    extra = list(guest.HOSTROOT_QEMU)
    prof = os.path.join(guest.LOGS, label + ".prof")
    if a.profile and rnd == 1:
        if os.path.exists(prof):
            os.remove(prof)
        extra += insnprof.qemu_args(prof, insnprof.mark_address(kernel))
    try:
        text, logfile = boot_round(label, kernel, initrd, a.timeout,
                                   mem="2G", smp=a.smp, icount=True,
                                   icount_sleep=True, extra=extra)
    finally:
        os.remove(initrd)
    lines = [l.strip() for l in text.splitlines()]
    results = [json.loads(l[len(RESULT_PREFIX):]) for l in lines
               if l.startswith(RESULT_PREFIX)]
    failed = [l for l in lines if l.startswith("not ok")]
    if len(results) != 1 or failed or "ZMP_END" not in text:
        fail("%s: the guest run failed (console: %s):\n  %s"
             % (label, logfile, "\n  ".join(failed or lines[-15:])))
    r = results[0]
    r["pool"] = [[int(x) for x in l[len(POOL_PREFIX):].split()]
                 for l in lines if l.startswith(POOL_PREFIX)]
    r["kernel"], r["round"] = kind, rnd
    if a.profile and rnd == 1:
        r["profile"] = insnprof.functions(kernel, prof)
    return r


def delta(r, key):
    return r["vm_after"].get(key, 0) - r["vm_before"].get(key, 0)


def mthp_delta(r, key):
    return r["mthp_after"].get(key, 0) - r["mthp_before"].get(key, 0)


def swapped_kb(r):
    """KiB swapped out by folio size: {"4kB": n, "16kB": n, ...}"""
    out = {}
    large = 0
    for k in r["mthp_after"]:
        if k.startswith("swpout_") and not k.startswith("swpout_fallback"):
            size = k[len("swpout_"):]
            n = mthp_delta(r, k)
            if n:
                out[size] = n * int(size[:-2])
                large += n * int(size[:-2])
    out["4kB"] = delta(r, "pswpout") * 4 - large
    return out


ROWS = (
    ("elapsed (s, instruction clock)", lambda r: r["elapsed_ms"] / 1000, "%.1f"),
    ("system time, all CPUs (s)", lambda r: r["sys_ms"] / 1000, "%.1f"),
    ("user time, all CPUs (s)", lambda r: r["user_ms"] / 1000, "%.1f"),
    ("system time, build cgroup (s)", lambda r: r["cg_sys_ms"] / 1000, "%.1f"),
    ("user time, build cgroup (s)", lambda r: r["cg_user_ms"] / 1000, "%.1f"),
    ("pswpout (pages)", lambda r: delta(r, "pswpout"), "%.0f"),
    ("pswpin (pages)", lambda r: delta(r, "pswpin"), "%.0f"),
    ("share of swap-out in large folios", lambda r:
     1 - swapped_kb(r)["4kB"] / (delta(r, "pswpout") * 4)
     if delta(r, "pswpout") else 0, "%.3f"),
    ("swap_ra (pages read ahead or filled)", lambda r: delta(r, "swap_ra"), "%.0f"),
    ("swap_ra_hit (of those, faulted on)", lambda r: delta(r, "swap_ra_hit"), "%.0f"),
    ("workingset_refault_anon", lambda r: delta(r, "workingset_refault_anon"), "%.0f"),
    ("pgmajfault", lambda r: delta(r, "pgmajfault"), "%.0f"),
    ("zram mem_used_max (MiB)", lambda r: r["mm_stat"][4] / 2**20, "%.1f"),
    ("zram pool, mean over the build (MiB)", lambda r:
     statistics.mean([p[1] for p in r["pool"]] or [0]) / 2**20, "%.1f"),
    ("build cgroup: memory.peak (MiB)", lambda r: r["cg_peak"] / 2**20,
     "%.1f"),
)


def table(rounds, kinds, a, rss):
    out = ["thrash build: make -j%d %s (tinyconfig, %s's tree; one "
           "compiler job holds up to %d MiB natively), memory.max %d MiB, "
           "%s, mTHP %s KiB on, block_size %d KiB (patched), %d vCPU(s), "
           "%d round(s) a kernel; medians; times on the instruction clock "
           "(qemu -icount shift=0: 1 s = 10^9 guest instructions, plus the "
           "host's time while the guest idles)"
           % (a.jobs, a.targets, BASE, rss >> 10, a.max_mib, a.algo,
              "+".join(str(s) for s in a.mthp), a.block_size, a.smp,
              a.rounds), ""]
    head = "| | " + " | ".join(kinds) + (" | patched/baseline |" if len(kinds) == 2 else " |")
    out += [head, "|---" * (len(kinds) + 1 + (len(kinds) == 2)) + "|"]
    for title, fn, fmt in ROWS:
        vals = [statistics.median([fn(r) for r in rounds if r["kernel"] == k])
                for k in kinds]
        row = "| %s | " % title + " | ".join(fmt % v for v in vals)
        if len(kinds) == 2:
            row += " | " + ("%.3f" % (vals[1] / vals[0]) if vals[0] else "-")
        out.append(row + " |")
    for k in kinds:
        sizes = {}
        for r in rounds:
            if r["kernel"] == k:
                for s, v in swapped_kb(r).items():
                    sizes.setdefault(s, []).append(v)
        out.append("")
        out.append("%s: swapped out by folio size (KiB, median): %s" % (
            k, ", ".join("%s %d" % (s, statistics.median(v))
                         for s, v in sorted(sizes.items(),
                                            key=lambda x: int(x[0][:-2])))))
    return "\n".join(out)


def plot(rounds, kinds, path, title):
    plt = pyplot()
    if not plt:
        return False
    fig, ax = plt.subplots(figsize=(8, 4))
    for k, style in zip(kinds, ("-", "--")):
        for r in rounds:
            if r["kernel"] == k and r["pool"]:
                ax.plot([p[0] / 100 for p in r["pool"]],
                        [p[1] / 2**20 for p in r["pool"]], style,
                        label="%s r%d" % (k, r["round"]))
    ax.set_xlabel("s into the thrash build (instruction clock)")
    ax.set_ylabel("zram mem_used_total (MiB)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=7)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    return True


def main(argv):
    a = parse_args(argv)
    kinds = ["baseline", "patched"]
    if a.validate:
        print("baseline:ext patched:%s"
              % ("ext-order4" if a.block_size > 16 else "ext"))
        return 0
    kernels = {"baseline": a.baseline_kernel, "patched": a.patched_kernel}
    for k in kinds:
        if not kernels[k] or not os.path.isfile(kernels[k]):
            fail("no %s kernel image (harness/bin/thrash builds it)" % k)
    commit = guest.git_commit()
    obj, ref, rss = prepare_build_dir(a)
    rounds = []
    for rnd in range(1, a.rounds + 1):
        for k in kinds:
            guest.log("round %d/%d on %s" % (rnd, a.rounds, k))
            r = run_round(a, k, kernels[k], obj, ref, rnd)
            guest.log("  elapsed %.1f s, system %.1f s, pswpout %d, pswpin %d"
                      % (r["elapsed_ms"] / 1000, r["sys_ms"] / 1000,
                         delta(r, "pswpout"), delta(r, "pswpin")))
            rounds.append(r)
    cmd = os.environ.get("ZMP_BENCH_CMD", "")
    text = table(rounds, kinds, a, rss)
    if a.profile:
        counts = {r["kernel"]: r.pop("profile") for r in rounds
                  if "profile" in r}
        text += ("\n\nguest instructions by function, round 1 of each "
                 "kernel, the build alone (from a getpriority() call before "
                 "make to one after it; M instructions; the round's times "
                 "count in the medians, its elapsed with the plugin's "
                 "slowdown of the host while the guest waits):\n"
                 + insnprof.table(counts, kinds))
    text = "command: %s\nbase: %s, commit %s\n%s" % (cmd, BASE, commit, text)
    print(text)
    os.makedirs(a.out, exist_ok=True)
    stem = "thrash-%s-%s-m%s-b%dk-%dM" % (
        "mm4" if a.targets == DEFAULT_TARGETS else
        "+".join(t.replace("/", "_") for t in a.targets.split()), a.algo,
        "+".join("%dk" % s for s in a.mthp), a.block_size, a.max_mib)
    if a.jobs != 2:
        stem += "-j%d" % a.jobs
    if a.profile:
        stem += "-profile"
    jpath = os.path.join(a.out, stem + ".json")
    with open(jpath, "w") as f:
        json.dump({"base": BASE, "commit": commit, "command": cmd,
                   "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                   "args": {k: v for k, v in vars(a).items()
                            if not k.endswith("kernel") and k != "src"},
                   "native_job_rss_kb": rss,
                   "rounds": rounds, "table": text}, f, indent=1)
    print("\nJSON: %s" % jpath)
    ppath = os.path.join(a.out, stem + ".png")
    if plot(rounds, kinds, ppath, stem):
        print("plot: %s" % ppath)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
