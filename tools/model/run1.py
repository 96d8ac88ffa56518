"""tools/model/run1.py -- one pan run, for tests and by hand.

  python3 -m tools.model.run1 [--ltl | --fair] [--dfs] [--noreduce] [--model promela/irqsync.pml] DEFINE...
        (--fair: -a -f; --dfs: depth-first with -DCOLLAPSE instead of the shortest-trail -DBFS,
        the matrix's search for runs expected to hold; --noreduce: no partial-order reduction,
        as the R14 premise monitor -DSYMM_CHECK needs)                          e.g.  MM_TSO VARIANT=1 CHECK_SYNC1=0

Prints pan's verdict line and figures.  Exit status (pan itself always exits 0), from
pan.verdict:
  0 "hold": no error and the search was exhaustive,  1 "violate": pan found an error (the
  message is printed),  3 "incomplete": the search was cut short (depth / memory limit) or
  lossy: nothing proved,  2 the run failed.
"""
import argparse, os, sys

from tools.model import pan

EXIT = {"hold": 0, "violate": 1, "incomplete": 3}


def parser():
    ap = argparse.ArgumentParser(
        prog="python3 -m tools.model.run1", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("defines", metavar="DEFINE", nargs="*",
                    help="a -D of the model: NAME or NAME=VALUE (MM_TSO VARIANT=1 ...)")
    ap.add_argument("-D", dest="dflags", metavar="NAME[=VALUE]", action="append", default=[],
                    help="the same as a bare DEFINE, spelt as for spin (-DMM_TSO); repeatable")
    ap.add_argument("--model", default=os.path.join(pan.ROOT, "promela", "irqsync.pml"),
                    help="the Promela model (default: promela/irqsync.pml)")
    ap.add_argument("--ltl", action="store_true",
                    help="check the model's never claim / LTL property (pan -a) instead of "
                         "its assertions and end states")
    ap.add_argument("--fair", action="store_true",
                    help="--ltl under weak fairness (pan -a -f), for the progress claim")
    ap.add_argument("--dfs", action="store_true",
                    help="depth-first search with -DCOLLAPSE instead of the shortest-trail "
                         "-DBFS (the matrix's search for runs expected to hold)")
    ap.add_argument("--noreduce", action="store_true",
                    help="no partial-order reduction (-DNOREDUCE), as the R14 premise monitor "
                         "-DSYMM_CHECK needs")
    return ap


def main(argv=None):
    a = parser().parse_intermixed_args(argv)
    ltl = a.ltl or a.fair
    fair = a.fair
    noreduce = a.noreduce
    dfs = a.dfs
    model = a.model
    defines = a.defines + a.dflags
    work = os.path.join(pan.ROOT, os.environ.get("BUILD") or "build", "model-run1", "_".join(defines)[:120] or "default")
    cc = ["-DMEMLIM=4096", "-DNFAIR=4"] + \
        ([] if ltl else ["-DSAFETY", "-DCOLLAPSE"] if dfs else ["-DSAFETY", "-DBFS"]) + \
        (["-DNOREDUCE"] if noreduce else [])
    res = pan.run(work, model, defines, cc, ["-m2000000"] + (["-a"] if ltl else []) + (["-f"] if fair else []))
    if "fatal" in res:
        print(res["fatal"])
        return 2
    print(f"{os.path.relpath(model, pan.ROOT)} {' '.join(defines)}: errors={res['errors']} "
          f"states={res['states']} transitions={res['transitions']} depth={res['depth']} "
          f"memory_mb={res['memory_mb']} seconds={res['seconds']}")
    result, detail = pan.verdict(res)
    if result == "violate":
        print(detail)
        if res["trail_file"]:
            print(f"trail: {os.path.relpath(res['trail_file'], pan.ROOT)}")
    elif result == "incomplete":
        print("incomplete: " + detail)
    else:
        print("no error, exhaustive")
    return EXIT[result]


if __name__ == "__main__":
    sys.exit(main())
