#!/usr/bin/env python3
"""cross.py — build, check and run irqsync on the cross targets; write cross.json.

  python3 -m tools.cross.cross all [--targets "aarch64-linux-gnu baremetal-armv7m"] [--json FILE]
      For every target: build (make cross-build-<t>), barrier check (make cross-barrier-<t>,
      and the relaxed build that must fail it), run the test programs under qemu, measure the
      code size; write build/evidence/cross.json (a list, one object per target) and exit 1
      if anything failed.
  python3 -m tools.cross.cross run --target T
      Run T's test programs under qemu and print their TAP lines, each case prefixed with
      its program ("unit/request_shared"), for tests/lib.sh's t_tap. Exit 1 on a failure.

The test programs of a Linux target and their arguments come from `make print-cross-tests`
(mk/cross.mk: CROSS_TESTS), so the Makefile stays the one list. Linux test binaries are
static; qemu-user runs them without a sysroot. The bare-metal target runs one image under
qemu-system-arm whose semihosting exit status is its number of failed cases.
"""
import argparse, json, os, re, shlex, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", "build")

LINUX = {
    # triple: (short name, barrier-check arch, qemu-user binary)
    "aarch64-linux-gnu": ("aarch64", "aarch64", "qemu-aarch64"),
    "arm-linux-gnueabihf": ("armhf", "armv7", "qemu-arm"),
    "riscv64-linux-gnu": ("riscv64", "riscv64", "qemu-riscv64"),
    "powerpc64le-linux-gnu": ("ppc64le", "ppc64le", "qemu-ppc64le"),
}
BAREMETAL = {
    # name: (short name, barrier-check arch, compiler prefix, qemu command, board, triple)
    "baremetal-armv7m": ("armv7m", "armv7m", "arm-none-eabi", "qemu-system-arm",
                         "mps2-an385 (Cortex-M3, 1 CPU)", "arm-none-eabi"),
    "baremetal-aarch64": ("aarch64-bm", "aarch64", "aarch64-linux-gnu", "qemu-system-aarch64",
                          "virt (Cortex-A53 at EL1, 1 CPU)",
                          "aarch64-linux-gnu (freestanding, -nostdlib)"),
    "baremetal-aarch64-smp": ("aarch64-smp", "aarch64", "aarch64-linux-gnu",
                              "qemu-system-aarch64",
                              "virt -smp 2 (2 Cortex-A53 at EL1, multi-threaded TCG)",
                              "aarch64-linux-gnu (freestanding, -nostdlib)"),
}
SHORT = {v[0]: k for k, v in list(LINUX.items()) + list(BAREMETAL.items())}
RUN_TIMEOUT = 600      # seconds per test program: a hang is a failure, never a stuck run


def canonical_target(name):
    """The full target name of a full or short one (aarch64 -> aarch64-linux-gnu)."""
    if name in LINUX or name in BAREMETAL:
        return name
    if name in SHORT:
        return SHORT[name]
    raise SystemExit(f"cross.py: unknown target {name!r} (known: "
                     f"{' '.join(list(LINUX) + list(BAREMETAL) + list(SHORT))})")


def run_command(cmd, log=None, timeout=None, env=None):
    """Run cmd (a list) in the repository, with `env` added to the environment; return
    (exit status, output)."""
    try:
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=timeout,
                           env=dict(os.environ, **(env or {})))
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc, out = 124, out + f"\ncross.py: timeout after {timeout}s: {' '.join(cmd)}\n"
    except FileNotFoundError as e:
        rc, out = 127, f"cross.py: {e}\n"
    if log:
        os.makedirs(os.path.dirname(log), exist_ok=True)
        with open(log, "w") as f:
            pre = "".join(f"{k}={v} " for k, v in (env or {}).items())
            f.write(f"$ {pre}{' '.join(cmd)}\n{out}")
    return rc, out


def run_make(target, log=None):
    """make TARGET in the repository, quietly; (exit status, output)."""
    return run_command(["make", "--no-print-directory", "-s", target], log=log)


def first_line(cmd):
    rc, out = run_command(cmd)
    return out.splitlines()[0].strip() if rc == 0 and out else f"unavailable ({' '.join(cmd)})"


def parse_tap(prefix, out, rc):
    """TAP lines → cases, the same rules as tests/lib.sh's t_tap: a producer that reports
    no case, or exits non-zero without a reported failure, is itself a failed case; one that
    ends inside a case it named ("# begin: NAME", tests/harness/check.h) fails under that
    case's name."""
    cases, began = [], ""
    for line in out.splitlines():
        if line.startswith("# begin: "):
            began = line[len("# begin: "):]
            continue
        m = re.match(r"^(not ok|ok)\s+\d+\s+-\s+(.*)$", line)
        if not m:
            continue
        began = ""
        name = m.group(2)
        if m.group(1) == "ok" and "# SKIP" in name:
            cases.append({"name": f"{prefix}/{name.split(' # SKIP')[0]}", "status": "skip"})
        else:
            cases.append({"name": f"{prefix}/{name}",
                          "status": "pass" if m.group(1) == "ok" else "fail"})
    bad = sum(c["status"] == "fail" for c in cases)
    if began:
        cases.append({"name": f"{prefix}/{began}", "status": "fail",
                      "detail": f"ended inside this case (exit {rc}) after {len(cases)} cases"})
    elif not cases:
        cases.append({"name": prefix, "status": "fail",
                      "detail": f"no test case reported (exit {rc})"})
    elif rc != 0 and bad == 0:
        cases.append({"name": prefix, "status": "fail",
                      "detail": f"exit {rc} after {len(cases)} cases without a reported failure"})
    return cases


def linux_tests(t):
    """[(case name, kind, [argv...])] from mk/cross.mk's CROSS_TESTS (+ CROSS_TESTS_<t>):
    "<name>=<kind>:[VAR=value ...] <binary> <args>;..." with kind tap, exit or xfail/<regex>."""
    rc, out = run_make(f"print-cross-tests-{t}")
    if rc != 0:
        raise SystemExit(f"cross.py: make print-cross-tests failed:\n{out}")
    tests = []
    for item in out.strip().split(";"):
        item = item.strip()
        if not item:
            continue
        name, _, rest = item.partition("=")
        kind, _, argv = rest.partition(":")
        if not (kind in ("tap", "exit") or kind.startswith("xfail/")) or not argv.strip():
            raise SystemExit(f"cross.py: bad CROSS_TESTS item {item!r}")
        tests.append((name.strip(), kind, shlex.split(argv)))
    return tests


def verdict(name, kind, out, rc):
    """Cases of one run: TAP lines, or one case from the exit status (exit), or an
    expected failure (xfail/<regex>: non-zero exit AND a line matching the regex)."""
    if kind == "tap":
        return parse_tap(name, out, rc)
    skip = next((l for l in out.splitlines() if l.startswith("SKIP")), None)
    if rc == 77 and skip:       # the automake convention the host test programs follow
        return [{"name": name, "status": "skip", "detail": skip.strip()}]
    if kind == "exit":
        tail = " | ".join(out.strip().splitlines()[-2:])
        return [{"name": name, "status": "pass" if rc == 0 else "fail",
                 "detail": "" if rc == 0 else f"exit {rc}: {tail}"}]
    rx = kind[len("xfail/"):]
    hit = next((l for l in out.splitlines() if re.search(rx, l)), None)
    if rc != 0 and hit:
        return [{"name": name, "status": "pass", "detail": f"failed as expected: {hit.strip()}"}]
    why = "succeeded" if rc == 0 else f"exit {rc} without /{rx}/"
    return [{"name": name, "status": "fail", "detail": f"expected failure, but {why}"}]


MUTANT = False   # --mutant: bare-metal targets run their known-bad image (gate self-test)


def run_target(t, logdir):
    """Run t's tests; return (cases, runner description, [(name, rc, output, cases)])."""
    cases, outputs = [], []
    if t in LINUX:
        qemu = LINUX[t][2]
        runner = f"{first_line([qemu, '--version'])} (user mode, static binaries)"
        for name, kind, argv in linux_tests(t):
            env = {}
            while argv and re.match(r"^[A-Z_]+=", argv[0]):
                k, _, v = argv.pop(0).partition("=")
                env[k] = v
            exe = os.path.join(BUILD, "cross", t, "tests", argv[0])
            log = re.sub(r"[^A-Za-z0-9._@-]+", "_", name.split(" [")[0])
            rc, out = run_command([qemu, exe] + argv[1:], log=os.path.join(logdir, f"run-{log}.log"),
                                  timeout=RUN_TIMEOUT, env=env)
            pc = verdict(name, kind, out, rc)
            outputs.append((name, rc, out, pc))
            cases += pc
    else:
        runner = f"{first_line([BAREMETAL[t][3], '--version'])} -M {BAREMETAL[t][4]}"
        what = f"cross-run-mutant-{t}" if MUTANT else f"cross-run-{t}"
        rc, out = run_make(what, log=os.path.join(logdir, "run-baremetal.log"))
        pc = parse_tap("baremetal", out, rc)
        outputs.append(("baremetal", rc, out, pc))
        cases += pc
    return cases, runner, outputs


def sizes(prefix, files):
    """text/data/bss totals of `files` (archives are summed over their members)."""
    rc, out = run_command([f"{prefix}-size", "-t"] + files)
    if rc != 0:
        return None
    for line in out.splitlines():
        if line.rstrip().endswith("(TOTALS)"):
            text, data, bss = (int(x) for x in line.split()[:3])
            return {"text": text, "data": data, "bss": bss}
    return None


# The weakened builds of mk/cross.mk (CROSS_WEAK) and what the check must say about each:
# the role it must report missing, and the roles it must still find (so that a check that
# fails on everything would not pass this either).
WEAK = {
    "relaxed": ("MISSING acquire_load in xprobe_spin_lock", None),
    "norelease": ("MISSING release in xprobe_spin_unlock", "ok acquire_load in xprobe_spin_lock"),
    # order, not presence (tests/cross/barrier_probe.c's production-only twins)
    "early-publish": ("MISSING publish in xprobe_spin_unlock", "ok wait_acquire in xprobe_spin_lock"),
    "relaxed-first-look": ("MISSING wait_acquire in xprobe_spin_lock", "ok publish in xprobe_spin_unlock"),
}


def barrier(t, logdir):
    rc, out = run_make(f"cross-barrier-{t}", log=os.path.join(logdir, "barrier.log"))
    found = [re.sub(r"\s+", " ", l) for l in out.splitlines() if l.startswith(("ok ", "MISSING"))]
    res = {"passed": rc == 0 and bool(found), "findings": found, "weakened": {}}
    for w, (must_miss, must_keep) in WEAK.items():
        wrc, wout = run_make(f"cross-barrier-{w}-{t}", log=os.path.join(logdir, f"barrier-{w}.log"))
        lines = [re.sub(r"\s+", " ", l) for l in wout.splitlines()]
        missing = [l for l in lines if l.startswith("MISSING")]
        kept = True
        if must_keep:
            role, _, fn = must_keep[3:].partition(" in ")
            kept = any(l.startswith("ok ") and f" {fn}: {role} <- " in l for l in lines)
        res["weakened"][w] = {
            "rejected": wrc != 0 and any(l.startswith(must_miss + " ") for l in lines) and kept,
            "missing": missing}
    res["relaxed_build_rejected"] = all(v["rejected"] for v in res["weakened"].values())
    return res


def do_target(t):
    logdir = os.path.join(BUILD, "cross", t, "logs")
    os.makedirs(logdir, exist_ok=True)
    kind = "linux" if t in LINUX else "baremetal"
    prefix = t if kind == "linux" else BAREMETAL[t][2]
    e = {"target": t, "kind": kind, "triple": t if kind == "linux" else BAREMETAL[t][5],
         "arch": (LINUX.get(t) or BAREMETAL[t])[1],
         "compiler": first_line([f"{prefix}-gcc", "--version"])}
    t0 = time.time()
    rc, out = run_make(f"cross-build-{t}", log=os.path.join(logdir, "build.log"))
    e["built"] = rc == 0
    if not e["built"]:
        e.update(runner=None, passed=0, failed=1, skipped=0,
                 cases=[{"name": "build", "status": "fail",
                         "detail": out.strip().splitlines()[-1:] if out.strip() else ""}])
        e["barrier"] = {"passed": False, "findings": [], "relaxed_build_rejected": False}
        e["seconds"] = round(time.time() - t0, 1)
        return e
    cases, runner, _ = run_target(t, logdir)
    e["runner"] = runner
    e["barrier"] = b = barrier(t, logdir)
    # The barrier check counts as test cases too (REQ-MM-4), so that passed/failed -- what
    # the report reads -- cover it: one case per finding, one for the relaxed build.
    for f in b["findings"]:
        if f.startswith("ok"):
            name = f.split(" <- ")[0].replace("ok ", "", 1)
        else:
            name = f.split(" (")[0].replace("MISSING ", "missing ", 1)
        cases.append({"name": f"barrier/{name} [REQ-MM-4]",
                      "status": "pass" if f.startswith("ok") else "fail", "detail": f})
    if not b["findings"]:
        cases.append({"name": "barrier [REQ-MM-4]", "status": "fail",
                      "detail": "the barrier check reported nothing (see barrier.log)"})
    for w, v in b["weakened"].items():
        cases.append({"name": f"barrier/rejects the {w} build [REQ-MM-4]",
                      "status": "pass" if v["rejected"] else "fail",
                      "detail": f"{len(v['missing'])} roles missing: "
                                + "; ".join(m.split(':')[0] for m in v["missing"])})
    e["cases"] = cases
    for k, st in (("passed", "pass"), ("failed", "fail"), ("skipped", "skip")):
        e[k] = sum(c["status"] == st for c in cases)
    d = os.path.join(BUILD, "cross", t)
    objs = lambda sub: sorted(os.path.join(d, "obj", sub, f)
                              for f in os.listdir(os.path.join(d, "obj", sub)) if f.endswith(".o"))
    port = "hosted" if kind == "linux" else t.replace("-smp", "")
    # text counts every allocated read-only section (code, .rodata, and on the Linux
    # toolchains the .eh_frame unwind tables they emit by default); bss is mostly the
    # static descriptor table, NR_IRQS lines (REQ-IMPL-1).
    e["size"] = {"library": sizes(prefix, [os.path.join(d, "libirqsync.a")]),
                 "core": sizes(prefix, objs("core")),
                 "port": sizes(prefix, objs(os.path.join("port", port)))}
    if kind == "baremetal":
        e["size"]["test_image"] = sizes(prefix, [os.path.join(d, "irqsync-test.elf")])
        e["config"] = (f"NR_IRQS=16 IRQSYNC_MAX_SHARERS=4 "
                       f"IRQSYNC_NR_CPUS={2 if t.endswith('-smp') else 1}, -O2")
    else:
        e["config"] = "NR_IRQS=16 IRQSYNC_MAX_SHARERS=4 IRQSYNC_NR_CPUS=8, -O2, hosted port"
    e["seconds"] = round(time.time() - t0, 1)
    return e


def target_passed(e):
    """A target passes when it built, every case passed (at least one) and the barrier check
    found every role and rejected the weakened builds."""
    return (e["built"] and e["failed"] == 0 and e["passed"] > 0 and e["barrier"]["passed"]
            and e["barrier"]["relaxed_build_rejected"])


def cmd_all(a):
    targets = [canonical_target(x) for x in a.targets.split()]
    results = []
    for t in targets:
        print(f"[cross] {t} ...", flush=True)
        e = do_target(t)
        results.append(e)
        sz = (e.get("size") or {}).get("library") or {}
        print(f"[cross] {t}: built={e['built']} passed={e['passed']} failed={e['failed']} "
              f"skipped={e.get('skipped', 0)} barrier={'PASS' if e['barrier']['passed'] else 'FAIL'} "
              f"weakened-builds-rejected={e['barrier']['relaxed_build_rejected']} "
              f"lib text/data/bss={sz.get('text')}/{sz.get('data')}/{sz.get('bss')} "
              f"({e['seconds']}s)", flush=True)
        for c in e["cases"]:
            if c["status"] == "fail":
                print(f"    FAIL {c['name']} {c.get('detail', '')}")
    os.makedirs(os.path.dirname(a.json), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(results, f, indent=1)
    good = sum(target_passed(e) for e in results)
    print(f"cross: {good}/{len(results)} targets passed -> {a.json}")
    return 0 if good == len(results) else 1


def cmd_run(a):
    t = canonical_target(a.target)
    logdir = os.path.join(BUILD, "cross", t, "logs")
    os.makedirs(logdir, exist_ok=True)
    cases, runner, outputs = run_target(t, logdir)
    print(f"# {t} under {runner}")
    n = 0
    for name, rc, out, pcases in outputs:
        tap = any(re.match(r"^(not ok|ok)\s+\d+\s+-\s+", l) for l in out.splitlines())
        if tap:
            # The program's own lines, renamed: diagnostics ("#   file:line ...") stay just
            # above the case they belong to, where t_tap looks for them.
            for line in out.splitlines():
                if line.startswith("#"):
                    print(line)
                m = re.match(r"^(not ok|ok)\s+\d+\s+-\s+(.*)$", line)
                if m:
                    n += 1
                    print(f"{m.group(1)} {n} - {name}/{m.group(2)}")
        for c in pcases:    # one-case programs, and verdicts on a program (crash, no case)
            if not tap or (c["status"] == "fail" and c.get("detail")):
                n += 1
                if c["status"] == "skip":
                    print(f"ok {n} - {c['name']} # SKIP {c.get('detail', '')}")
                    continue
                passed = c["status"] == "pass"
                if not passed:
                    print(f"# {c['name']}: {c.get('detail', '')}")
                print(f"{'ok' if passed else 'not ok'} {n} - {c['name']}")
    return 1 if any(c["status"] == "fail" for c in cases) else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("all")
    p.add_argument("--targets", default=" ".join(list(LINUX) + list(BAREMETAL)))
    p.add_argument("--json", default=os.path.join(BUILD, "evidence", "cross.json"))
    p.add_argument("--mutant", action="store_true",
                   help="bare-metal targets run the known-bad port's image: the gate must fail "
                        "(tests/suites/70-cross.sh)")
    p = sub.add_parser("run")
    p.add_argument("--target", required=True)
    a = ap.parse_args()
    global MUTANT
    MUTANT = getattr(a, "mutant", False)
    return cmd_all(a) if a.cmd == "all" else cmd_run(a)


if __name__ == "__main__":
    sys.exit(main())
